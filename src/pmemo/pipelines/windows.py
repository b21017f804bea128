"""L2 windows in the background: new turns folded into their chat's windows, each window
embedded once when it closes, and windows kept right when their turns go.

With ``window_tokens`` set, the worker calls ``Windows.add`` instead of embedding each turn
(issue 20 §3). A closed window's vector is also each member's turn vector (no embedding
call): mid-term clustering, summaries and the exact cosine fusion reads all take a vector
per turn, and a turn's best description here is the stretch of chat it was said in.

A chat's open window (its last turns, not yet a full window) closes when it is full, at
``Memory.drain`` (so what was added is searchable by meaning once drained) and, in a running
memory, once the chat has been quiet ``window_idle_seconds``. Until then its turns are found
by their words (the lexical index has them at once) and a context shows them as recent turns.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from ..config import Settings
from ..embedders.cached import CachedEmbedder, cache_key
from ..models import Scope, Turn, Window
from ..stores.base import FullStore
from ..tiers.services import Tiers
from ..tiers.windows import Piece, carry, fold, window_text
from ..tokens import make_counter

Due = tuple[Window, list[Turn]]  # a closed window to embed, with its members


class Windows:
    def __init__(self, store: FullStore, embed: CachedEmbedder, tiers: Tiers, settings: Settings) -> None:
        self.store = store
        self.embed = embed
        self.tiers = tiers
        self.settings = settings
        self._count = make_counter(settings.tokenizer)

    # ---- building --------------------------------------------------------------------------
    def add(self, turns: list[Turn], between: Callable[[], None] = lambda: None) -> None:
        """Fold ``turns`` (new ones, or ones a re-run or an 'embed' job names again) into their
        chats' windows and embed the windows that closed; ``between`` runs before each
        embedding call (the worker stops there when closing)."""
        chats: dict[str, list[Turn]] = {}
        for turn in sorted(turns, key=lambda t: t.id):
            chats.setdefault(turn.scope.key, []).append(turn)
        due: list[Due] = []
        for group in chats.values():
            due += self._fold(group[0].scope.owner_scope(), group)
        self._embed(due, between)

    def flush(self, force: bool = False, tenant_id: str | None = None, agent_id: str | None = None,
              owner: str | None = None, between: Callable[[], None] = lambda: None) -> int:
        """Close the open windows quiet for ``window_idle_seconds`` (all of them with ``force``),
        of a tenant (agent, owner) when given; returns how many were embedded."""
        since = None if force else time.time() - self.settings.window_idle_seconds
        wanted = [w for w in self.store.open_windows(quiet_since=since)
                  if tenant_id in (None, w.scope.tenant_id) and agent_id in (None, w.scope.agent_id)
                  and owner in (None, w.scope.owner)]
        # their owners held shared, as a batch holds them: a window embeds no turn a forget is
        # removing; read again under the hold (a forget before it may have changed or dropped them)
        with self.store.locks.hold({w.scope.key for w in wanted}, shared=True):
            still = self.store.get_windows([w.id for w in wanted])
            due = self._close([w for w in (still.get(w.id) for w in wanted) if w is not None and w.open])
            self._embed(due, between)
        return len(due)

    def _fold(self, owner: Scope, turns: list[Turn]) -> list[Due]:
        recent = self.store.windows(owner, last=2)
        end = max((w.turn_to for w in recent), default=0)
        due = self._refresh([t for t in turns if t.id <= end])
        new = [t for t in turns if t.id > end]
        if not new:
            return due
        open_ = recent[-1] if recent and recent[-1].open else None
        covered = max((w.turn_to for w in recent if not w.open), default=0)
        if open_ is not None:
            members = self.store.window_turns(open_)
            current, fresh = self._pieces(members), sum(t.id > covered for t in members)
        else:
            last = next((w for w in reversed(recent) if not w.open), None)
            members = self.store.window_turns(last) if last is not None else []
            current, fresh = carry(self._pieces(members), self.settings.window_overlap_tokens), 0
        closed, still = fold(current, fresh, self._pieces(new), self.settings.window_tokens,
                             self.settings.window_overlap_tokens)
        by_id = {t.id: t for t in [*members, *new]}
        reuse = open_.id if open_ is not None else None
        for pieces in closed:
            window_turns = [by_id[p.id] for p in pieces]
            window = self.store.save_window(owner, pieces[0].id, pieces[-1].id, False, self._hash(window_turns), reuse)
            due.append((window, window_turns))
            reuse = None
        if still:
            self.store.save_window(owner, still[0].id, still[-1].id, True, "", reuse)
        return due

    def _close(self, windows: Iterable[Window]) -> list[Due]:
        """Open windows closed as they are; one holding no turn of its own (only the last
        turns of the window before it) is dropped instead."""
        due: list[Due] = []
        for window in windows:
            members = self.store.window_turns(window)
            recent = self.store.windows(window.scope, last=2)
            covered = max((w.turn_to for w in recent if not w.open), default=0)
            if not any(t.id > covered for t in members):
                self.store.delete_window(window.id)
                continue
            saved = self.store.save_window(window.scope, window.turn_from, window.turn_to, False,
                                           self._hash(members), window.id)
            due.append((saved, members))
        return due

    def _refresh(self, turns: list[Turn]) -> list[Due]:
        """Turns folded before (a re-run job, a restore, another embedder): their closed windows
        are embedded again when their text or model changed or their vector is missing; a turn
        in no window (its window emptied and went) gets windows of its own."""
        if not turns:
            return []
        held = self.store.windows_with([t.id for t in turns])
        vectors = self.store.vectors.get_vectors("window", [w.id for w in held if not w.open])
        due = []
        inside: set[int] = set()
        for window in held:
            members = self.store.window_turns(window)
            inside.update(t.id for t in members)
            key = self._hash(members)
            if not window.open and (key != window.text_hash or window.id not in vectors):
                due.append((self.store.save_window(window.scope, window.turn_from, window.turn_to, False, key,
                                                   window.id), members))
        stray = [t for t in turns if t.id not in inside]
        if stray:
            closed, still = fold([], 0, self._pieces(stray), self.settings.window_tokens,
                                 self.settings.window_overlap_tokens)
            by_id = {t.id: t for t in stray}
            for pieces in [*closed, still] if still else closed:
                members = [by_id[p.id] for p in pieces]
                due.append((self.store.save_window(members[0].scope.owner_scope(), pieces[0].id, pieces[-1].id,
                                                   False, self._hash(members)), members))
        return due

    def _embed(self, due: list[Due], between: Callable[[], None]) -> None:
        """One embedding per window; its vector is also each member's turn vector (a turn in
        two windows keeps the later one's), and members that left short-term meanwhile join
        the mid-term clusters."""
        model = self.embed.model_id
        for start in range(0, len(due), self.embed.batch):
            between()
            chunk = due[start : start + self.embed.batch]
            vectors = self.embed.passages([window_text(members) for _, members in chunk])
            self.store.vectors.put_vectors(
                "window", [(w.id, w.scope.key, vectors[n]) for n, (w, _) in enumerate(chunk)], model)
            copies = {t.id: (t, vectors[n]) for n, (_, members) in enumerate(chunk) for t in members}
            self.store.vectors.put_vectors("turn", [(t.id, t.scope.key, v) for t, v in copies.values()], model)
            self._absorb_left([t for t, _ in copies.values()], {i: v for i, (_, v) in copies.items()})

    def _absorb_left(self, turns: list[Turn], vectors: dict[int, np.ndarray]) -> None:
        """Members already past short-term when their window closed: into mid-term now (the
        worker clusters a turn as it leaves, and it had no vector then)."""
        scopes = {t.scope.key: t.scope for t in turns}
        last = {(key, session): step for key, scope in scopes.items()
                for session, step in self.store.turns.max_steps(scope, {t.session_id for t in turns
                                                                  if t.scope.key == key}).items()}
        left = [t for t in turns if t.step <= last[t.scope.key, t.session_id] - self.settings.short_term_turns]
        clustered = self.store.clusters.cluster_of([t.id for t in left]) if left else {}
        for turn in sorted(left, key=lambda t: (t.scope.key, t.session_id, t.step)):
            if turn.id not in clustered:
                self.tiers.absorb(turn, vectors[turn.id])

    def _pieces(self, turns: list[Turn]) -> list[Piece]:
        return [Piece(t.id, self._count(t.indexed), t.session_id) for t in turns]

    def _hash(self, members: list[Turn]) -> str:
        """What a window's vector was made from: its text and the model (either changing
        means embedding it again)."""
        return cache_key(self.embed.model_id, window_text(members))

    # ---- forgetting ------------------------------------------------------------------------
    def holding(self, turn_ids: list[int]) -> list[tuple[Window, str]]:
        """The windows holding these turns, with the text each was embedded from: read before
        the turns are deleted."""
        return [(w, window_text(self.store.window_turns(w))) for w in self.store.windows_with(turn_ids)]

    def without(self, held: list[tuple[Window, str]]) -> dict[int, str]:
        """After their turns were deleted: each window embedded again from the turns left, or
        deleted when none is left. The old vectors leave the embedding cache, and the clusters
        and extractive summaries of the members left are re-derived from their new vectors:
        nothing keeps the words of a forgotten turn through a window."""
        report: dict[int, str] = {}
        self.embed.forget([text for window, text in held if not window.open])
        due: list[Due] = []
        for window, _ in held:
            members = self.store.window_turns(window)
            if not members:
                self.store.delete_window(window.id)
                report[window.id] = "deleted"
            elif window.open:
                report[window.id] = "open"
            else:
                saved = self.store.save_window(window.scope, window.turn_from, window.turn_to, False,
                                               self._hash(members), window.id)
                due.append((saved, members))
                report[window.id] = "rebuilt"
        self._embed(due, lambda: None)
        self._rederive([t.id for _, members in due for t in members])
        return report

    def _rederive(self, turn_ids: list[int]) -> None:
        if not turn_ids:
            return
        for cluster in self.store.clusters.clusters_with(turn_ids):
            self.tiers.rebuild_cluster(cluster, set())
        for summary in self.store.summaries.summaries_with(turn_ids):
            if summary.method == "extractive":
                vec = self.tiers.summary_vector(summary)
                self.store.vectors.put_vectors("summary", [(summary.id, summary.scope.key, vec)], self.embed.model_id)


def make(worker: Any) -> Windows:
    """The worker's window builder."""
    return Windows(worker.store, worker.embed, worker.tiers, worker.settings)
