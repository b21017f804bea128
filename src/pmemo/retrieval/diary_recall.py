"""Which diary entries a query recalls: the days it names, else the nearest by meaning.

"What did I cook yesterday?" asked on 2 March is about 1 March: that day's entry, not the one
whose words are nearest (every day's dinner reads alike). A query that names days ("昨天",
"last week", "on 3 May 2023"; relative ones read from the day it is asked) recalls the entries
of those days only, the nearest first; any other query, the entries nearest its vector.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Protocol

import numpy as np

from ..models import Diary, Scope
from ..stores.base import DiaryStore, VectorStore
from ..text.dates import date_ranges, relative_ranges
from .search import stored_vectors

Found = list[tuple[int, float]]


class _Store(DiaryStore, VectorStore, Protocol): ...


def days_named(query: str, asked: date | None) -> list[tuple[date, date]]:
    """The days ``query`` names, its relative ones read from the day it is ``asked``."""
    return date_ranges(query) + (relative_ranges(query, asked) if asked is not None else [])


def candidates(store: _Store, scope: Scope, query: str, qvec: np.ndarray, model: str, asked: date | None,
               depth: int, nearest: Callable[[int], Found] | None = None) -> Found:
    """Up to ``depth`` entries of ``scope`` (id, cosine to the query; entries embedded by
    ``model``), best first: of the days the query names, else the nearest (``nearest(depth)``
    when the caller has them, else the store's)."""
    days = days_named(query, asked)
    if not days:
        return nearest(depth) if nearest is not None else store.vectors.nearest("diary", scope.key, qvec, depth, model)
    named = dict.fromkeys(d.id for start, end in days for d in store.diary.diaries(scope, start, end, sources=False))
    ids, rows = stored_vectors(store, "diary", len(qvec))(list(named))
    return sorted(zip(ids, (rows @ qvec).tolist(), strict=True), key=lambda p: -p[1])[:depth]


def recall(store: _Store, scope: Scope, query: str, qvec: np.ndarray, model: str,
           asked: date | None, depth: int) -> list[tuple[Diary, float]]:
    """Up to ``depth`` entries with their cosine to the query, best first, with their source
    turns' ids (not the turns: a hit kept gets them later)."""
    found = candidates(store, scope, query, qvec, model, asked, depth)
    diaries = store.diary.get_diaries(i for i, _ in found)  # the source ids of these few days only
    return with_records(found, diaries)


def with_records(found: Found, diaries: dict[int, Diary]) -> list[tuple[Diary, float]]:
    """The entries ``found`` names that were read, with their cosines."""
    return [(diaries[i], c) for i, c in found if i in diaries]
