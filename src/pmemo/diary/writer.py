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
from collections.abc import Iterable
from datetime import date
from typing import Any

import numpy as np

from ..config import Settings, diary_clock, diary_zone
from ..embedders.cached import CachedEmbedder
from ..llms.base import LLM
from ..models import Diary, Scope, Turn, epoch_of
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
        owner = scope.owner_scope()
        turns = [t for t in self.store.diary.day_turns(owner, *bounds(day, diary_zone(self.settings.diary_tz)))
                 if t.role in SPOKEN]
        # the old entry's id and text is all this needs: not its hundreds of sources
        old = next(iter(self.store.diary.diaries(owner, day, day, sources=False)), None)
        if not any(t.role == "user" for t in turns):
            if old is not None:
                self._drop(old)
            return None
        text, method = self._compose(owner, day, turns)
        vec = self._vector(text, method, turns)
        diary = self.store.diary.put_diary(owner, day, text, method, [t.id for t in turns], vec, self.embed.model_id)
        if old is not None and old.text != text:
            self.embed.forget([old.text])  # a rewritten (forgotten) text leaves no cached vector
        return diary

    def run(self, payload: dict[str, Any]) -> Diary | None:
        """A 'diary' job: ``{"tenant", "agent", "owner", "day"}``."""
        scope = Scope(payload["tenant"], payload["agent"], payload["owner"])
        return self.write(scope, date.fromisoformat(payload["day"]))

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
            vec = self._vector(diary.text, diary.method, list(self.store.get_turns(diary.source_ids).values()))
            self.store.diary.put_diary(diary.scope, diary.day, diary.text, diary.method, list(diary.source_ids), vec,
                                 self.embed.model_id)
        return len(stale)

    def _compose(self, scope: Scope, day: date, turns: list[Turn]) -> tuple[str, str]:
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
        return digest(day, turns, limit, self._names(scope)), "digest"

    def _names(self, scope: Scope) -> list[str]:
        """What the chat's members are called: no topic of a digest. They change only with the
        tenant's aliases (each change moves its alias version) or the chat's members, so the
        last answer stands while both are as they were: two small reads instead of the members
        with their people (3 ms an entry on SQLite, 14 ms on Postgres, issue 43 §2)."""
        version = self.store.people.alias_version(scope.tenant_id)  # first: a change after it is seen next time
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

    def _vector(self, text: str, method: str, turns: list[Turn]) -> np.ndarray:
        """A digest's vector is the centroid of its people's turns' vectors: its words are
        theirs, so it costs no embedding (e5 took ~0.5 s for a 1,200-character entry here, as
        much as a day of 20 turns) and a forgotten turn leaves it. An LLM entry, or a day whose
        turns have no vectors (not embedded yet; L2 windows), is embedded itself."""
        said = [t.id for t in turns if t.role == "user"]
        if method == "digest" and said:
            vectors = self.store.get_vectors("turn", said)
            if len(vectors) == len(said):
                return centroid_of(np.stack([vectors[i] for i in said]))
        return self.embed.passages([text])[0]

    def _drop(self, diary: Diary) -> None:
        self.store.diary.delete_diary(diary.id)
        self.embed.forget([diary.text])


def _no_persona(scope: Scope) -> str | None:
    return None
