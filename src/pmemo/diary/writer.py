"""Writing one day's diary entry of a group or private chat, and keeping it true to its turns.

The entry is made from the day's turns (by their time in the diary's zone): with an LLM, in
the persona's voice; without one, or when the LLM times out or talks garbage, the extractive
digest, so a day never goes without its entry. Entry, sources and vector are stored in one
transaction and a re-run replaces the entry: a job that died midway is simply run again.
A day with no message from a person (only the assistant's, or none left after a forget) has
no entry. Forgetting a turn rewrites its day's entry from what remains; restoring it writes
the entry again.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from datetime import date
from typing import Any

import numpy as np

from ..config import Settings, diary_clock, diary_zone
from ..embedders.cached import CachedEmbedder
from ..llms.base import LLM
from ..models import Diary, Scope, Turn, epoch_of
from ..ports.diary import NewDiary
from ..stores.base import FullStore
from ..tiers.mid_term import centroid_of
from .days import bounds, due_at, local_day
from .digest import cut, digest
from .persona import Persona
from .prompt import DiaryOut, diary_prompt

log = logging.getLogger("pmemo")
KNOWN_CHATS = 1024  # chats whose members' names are kept between entries
SPOKEN = ("user", "assistant")  # what a diary is written from; system and tool turns are not the chat


class DiaryWriter:
    """Writes entries, with their vectors, into ``store``."""

    def __init__(self, store: FullStore, embed: CachedEmbedder, llm: LLM | None, settings: Settings) -> None:
        self.store = store
        self.embed = embed
        self.llm = llm
        self.settings = settings
        self.persona: Persona = _no_persona  # Memory sets the lookup of the chat's persona block
        self._known: dict[str, tuple[int, frozenset[str], list[str]]] = {}  # scope key → _names' last answer

    def write(self, scope: Scope, day: date) -> Diary | None:
        """Write (or rewrite) the entry of ``day``; None, and any old entry deleted, when the
        day holds no message from a person."""
        return self.write_many([(scope, day)])[0]

    def write_many(self, days: list[tuple[Scope, date]]) -> list[Diary | None]:
        """``write`` of each of ``days``, as it would write them one after the other, in a few
        reads and one transaction for them all: the days' turns, the old entries, each chat's
        members' names and the turns' vectors read once (an entry was ~10 round trips)."""
        owned = [(scope.owner_scope(), day) for scope, day in days]
        keys = list(dict.fromkeys(owned))  # a day twice is written once
        zone = diary_zone(self.settings.diary_tz)
        found = self.store.diary.days_turns([(scope, *bounds(day, zone)) for scope, day in keys])
        old = self.store.diary.diaries_on(keys)
        out: dict[tuple[Scope, date], Diary | None] = {}
        todo: list[tuple[Scope, date, list[Turn], str, str]] = []
        names = self._names_once()
        for (scope, day), turns in zip(keys, found, strict=True):
            turns = [t for t in turns if t.role in SPOKEN]
            if not any(t.role == "user" for t in turns):
                if (gone := old.get((scope.key, day))) is not None:
                    self._drop(gone)
                out[(scope, day)] = None
                continue
            todo.append((scope, day, turns, *self._compose(scope, day, turns, names)))
        vectors = self._vectors([(method, turns, text) for _, _, turns, text, method in todo])
        written = self.store.diary.put_diaries(
            [NewDiary(scope, day, text, method, [t.id for t in turns], vec)
             for (scope, day, turns, text, method), vec in zip(todo, vectors, strict=True)], self.embed.model_id)
        for (scope, day, _, text, _), diary in zip(todo, written, strict=True):
            out[(scope, day)] = diary
            if (before := old.get((scope.key, day))) is not None and before.text != text:
                self.embed.forget([before.text])
        return [out[key] for key in owned]

    def run(self, payload: dict[str, Any]) -> Diary | None:
        """A 'diary' job: ``{"tenant", "agent", "owner", "day"}``."""
        return self.run_many([payload])[0]

    def run_many(self, payloads: list[dict[str, Any]]) -> list[Diary | None]:
        """A batch of 'diary' jobs, written together (``write_many``)."""
        return self.write_many([(Scope(p["tenant"], p["agent"], p["owner"]), date.fromisoformat(p["day"]))
                                for p in payloads])

    def rebuild(self, turn_ids: list[int]) -> dict[int, str]:
        """After these turns were deleted: each entry written from them, rewritten without
        them ("rebuilt") or deleted when no message of a person is left ("deleted")."""
        return {d.id: "rebuilt" if self.write(d.scope, d.day) else "deleted"
                for d in self.store.diary.diaries_with(turn_ids)}

    def restored(self, turns: Iterable[Turn], now: float | None = None) -> dict[int, str]:
        """After these turns came back: the entries of their days written again, for the days
        that are due (or had an entry); returns id → "rebuilt"."""
        zone, clock = diary_zone(self.settings.diary_tz), diary_clock(self.settings.diary_time)
        at = time.time() if now is None else now
        days = {(t.scope.owner_scope(), local_day(epoch_of(t.timestamp), zone)) for t in turns}
        out = {}
        for scope, day in sorted(days, key=lambda d: (d[0].key, d[1])):
            if due_at(day, zone, clock) <= at or self.store.diary.get_diary(scope, day) is not None:
                diary = self.write(scope, day)
                if diary is not None:
                    out[diary.id] = "rebuilt"
        return out

    def revector(self) -> int:
        """Give entries the vector of the current embedder (after a change of embedder)."""
        stale = self.store.diary.get_diaries(self.store.diary.stale_diaries(self.embed.model_id))
        for diary in stale.values():
            vec = self._vector(diary.text, diary.method, list(self.store.turns.get_turns(diary.source_ids).values()))
            self.store.diary.put_diary(diary.scope, diary.day, diary.text, diary.method, list(diary.source_ids), vec,
                                 self.embed.model_id)
        return len(stale)

    def _compose(self, scope: Scope, day: date, turns: list[Turn],
                 names: Callable[[Scope], list[str]] | None = None) -> tuple[str, str]:
        """(text, method): the LLM's entry, or the digest offline and when the LLM fails."""
        limit = self.settings.diary_max_chars
        if self.llm is not None:
            try:
                prompt = diary_prompt(self.persona(scope), day, turns, limit, self.settings.diary_input_chars,
                                      diary_zone(self.settings.diary_tz), sift=self.settings.llm_prefilter)
                entry = "" if prompt is None else self.llm.complete_json(*prompt, DiaryOut).entry.strip()
                if entry:  # none from a day of only filler: no call, the digest says what there is
                    return cut(entry, limit), "llm"
            except Exception as exc:  # noqa: BLE001 - a timeout, garbage or a broken provider: the digest
                log.warning("diary of %s on %s fell back to the digest: %s", scope.owner, day, exc)
        return digest(day, turns, limit, (names or self._names)(scope)), "digest"

    def _names_once(self) -> Callable[[Scope], list[str]]:
        """``_names`` for a batch of entries: each chat's read once, each tenant's alias version once."""
        versions: dict[str, int] = {}
        known: dict[str, list[str]] = {}

        def names(scope: Scope) -> list[str]:
            if scope.key not in known:
                known[scope.key] = self._names(scope, versions)
            return known[scope.key]

        return names

    def _names(self, scope: Scope, versions: dict[str, int] | None = None) -> list[str]:
        """What the chat's members are called: no topic of a digest. They change only with the
        tenant's aliases (each change moves its alias version) or the chat's members, so the
        last answer stands while both are as they were: two small reads instead of the members
        with their people (3 ms an entry on SQLite, 14 ms on Postgres, issue 43 §2)."""
        versions = {} if versions is None else versions  # a batch's: the tenant's read once
        if scope.tenant_id not in versions:  # first: a change after it is seen next time
            versions[scope.tenant_id] = self.store.people.alias_version(scope.tenant_id)
        version = versions[scope.tenant_id]
        ids = frozenset(self.store.people.member_ids(scope))
        known = self._known.get(scope.key)
        if known is not None and known[0] == version and known[1] == ids:
            return known[2]
        members = self.store.people.members(scope)
        names = [a.alias for m in members for a in m.person.aliases]
        if len(self._known) >= KNOWN_CHATS:
            self._known.clear()
        self._known[scope.key] = (version, ids, names)
        return names

    def _vectors(self, entries: list[tuple[str, list[Turn], str]]) -> list[np.ndarray]:
        """``_vector`` of each (method, turns, text): the turns' vectors read in one call, the
        texts to embed embedded in one."""
        said = [[t.id for t in turns if t.role == "user"] for _, turns, _ in entries]
        wanted = [i for ids, (method, _, _) in zip(said, entries, strict=True) if method == "digest" for i in ids]
        stored = self.store.vectors.get_vectors("turn", list(dict.fromkeys(wanted))) if wanted else {}
        out: list[np.ndarray | None] = [
            centroid_of(np.stack([stored[i] for i in ids]))
            if method == "digest" and ids and all(i in stored for i in ids) else None
            for ids, (method, _, _) in zip(said, entries, strict=True)]
        texts = [text for vec, (_, _, text) in zip(out, entries, strict=True) if vec is None]
        made = iter(self.embed.passages(texts) if texts else [])
        return [vec if vec is not None else next(made) for vec in out]

    def _vector(self, text: str, method: str, turns: list[Turn]) -> np.ndarray:
        """A digest's vector is the centroid of its people's turns' vectors: its words are
        theirs, so it costs no embedding (e5 took ~0.5 s for a 1,200-character entry here, as
        much as a day of 20 turns) and a forgotten turn leaves it. An LLM entry, or a day whose
        turns have no vectors (not embedded yet; L2 windows), is embedded itself."""
        return self._vectors([(method, turns, text)])[0]

    def _drop(self, diary: Diary) -> None:
        self.store.diary.delete_diary(diary.id)
        self.embed.forget([diary.text])


def _no_persona(scope: Scope) -> str | None:
    return None
