"""Recall through L2 windows (issue 20 §3): the windows nearest a query, expanded back to
their turns for fusion, and in a context each recalled turn shown in an excerpt of its window.

A window's cosine is every member's vector evidence; fusion adds each member's own words
(bm25), speaker, date and the rest, so the message that holds the answer ranks first among
its window's. Callers still get turn hits (their ``why`` names the window); ``context``
shows a recalled turn with its neighbours in the window, in order as one item: the
conversation around it, not scattered lines (a whole window of short group messages would
take the budget of several excerpts).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Protocol

import numpy as np

from ..models import Hit, Scope
from ..stores.base import TurnStore, VectorStore, WindowStore
from .search import said_by

# windows read per query: at ~8 turns each, about as many turns as the per-message vector
# search reads (search.POOL)
DEPTH = 25
REACH = 1  # turns before and after a recalled one that its excerpt shows


class _Store(TurnStore, WindowStore, Protocol): ...


class _Windows(TurnStore, WindowStore, VectorStore, Protocol): ...


@dataclass(frozen=True)
class Recalled:
    """The window a turn was recalled through: its id, turn id range and cosine."""

    window_id: int
    turn_from: int
    turn_to: int
    cosine: float


def candidates(store: _Windows, scope: Scope, qvec: np.ndarray, model: str, session_id: str | None,
               depth: int = DEPTH, until: float | None = None) -> tuple[list[tuple[int, float]], dict[int, Recalled]]:
    """The members of the windows nearest ``qvec`` (embedded by ``model``) as vector candidates
    (turn id, cosine), best window first, and the window each came through (a turn in two keeps
    the better one). With ``session_id``, the caller keeps that session's turns (a window may
    cross sessions); with ``until``, the turns said by then (``pool.rank``)."""
    k = depth if session_id is None else depth * 5
    found = store.vectors.nearest("window", scope.key, qvec, k if until is None else k * 5, model)
    windows = store.get_windows(i for i, _ in found)
    kept = [(windows[i], c) for i, c in found if i in windows]
    members = store.window_members(w.id for w, _ in kept)
    if until is not None:  # the first k windows with a turn said by then, and only those turns
        said = {i for i, _ in said_by(store, [(i, 0.0) for ids in members.values() for i in ids], until)}
        members = {w: [i for i in ids if i in said] for w, ids in members.items()}
        kept = [(w, c) for w, c in kept if members.get(w.id)][:k]
    out: list[tuple[int, float]] = []
    via: dict[int, Recalled] = {}
    for window, cosine in kept:
        for turn_id in members.get(window.id, []):
            if turn_id not in via:
                via[turn_id] = Recalled(window.id, window.turn_from, window.turn_to, cosine)
                out.append((turn_id, cosine))
    return out, via


def labelled(hits: list[Hit], via: dict[int, Recalled]) -> list[Hit]:
    """Turn hits whose ``why`` names the window they were recalled through."""
    return [replace(h, why=f"{h.why}; window of turns {r.turn_from}-{r.turn_to}")
            if h.kind == "turn" and h.sources and (r := via.get(h.sources[0].id)) is not None else h
            for h in hits]


def excerpts(store: _Store, hits: list[Hit], via: dict[int, Recalled], shown: set[int],
             reach: int = REACH) -> list[Hit]:
    """Mid-term hits with each turn recalled through a window shown as an excerpt of it: the
    turn and ``reach`` turns either side within the window, in order as one item, at the
    turn's rank (id ``window:<window id>:<turn id>``). A turn in a better excerpt or ``shown``
    elsewhere (recent turns) is not repeated; one recalled by its words alone stays a line."""
    turns = {h.sources[0].id: h.sources[0] for h in hits if h.sources}
    members = store.window_members({r.window_id for r in via.values()})
    missing = [i for ids in members.values() for i in ids if i not in turns]
    if missing:
        turns.update(store.turns.get_turns(missing))
    seen = set(shown)
    out: list[Hit] = []
    for hit in hits:
        first = hit.sources[0] if hit.kind == "turn" and hit.sources else None
        if first is not None and first.id in seen:
            continue
        ref = via.get(first.id) if first is not None else None
        if first is None or ref is None or first.id not in members.get(ref.window_id, []):
            out.append(hit)
            seen.update(t.id for t in hit.sources[:1])
            continue
        ids = members[ref.window_id]
        at = ids.index(first.id)
        part = [turns[i] for i in ids[max(0, at - reach) : at + reach + 1] if i in turns and i not in seen]
        seen.update(t.id for t in part)
        out.append(Hit(f"window:{ref.window_id}:{first.id}", "window", "mid_term",
                       "\n".join(f"{t.actor or t.role}: {t.content}" for t in part), hit.score,
                       f"{hit.why}; shown with its neighbours in the window", tuple(part), part[0].timestamp))
    return out
