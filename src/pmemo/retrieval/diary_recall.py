"""Which diary entries a query recalls: the days it names, else the nearest by meaning.

"What did I cook yesterday?" asked on 2 March is about 1 March: that day's entry, not the one
whose words are nearest (every day's dinner reads alike). A query that names days ("昨天",
"last week", "on 3 May 2023"; relative ones read from the day it is asked) recalls the entries
of those days only, the nearest first; any other query, the entries nearest its vector.
"""

from __future__ import annotations

from datetime import date
from typing import Protocol

import numpy as np

from ..models import Diary, Scope
from ..stores.base import DiaryStore, VectorStore
from ..text.dates import date_ranges, relative_ranges
from .search import stored_vectors


class _Store(DiaryStore, VectorStore, Protocol): ...


def recall(store: _Store, scope: Scope, query: str, qvec: np.ndarray, model: str,
           asked: date | None, depth: int) -> list[tuple[Diary, float]]:
    """Up to ``depth`` entries of ``scope`` with their cosine to the query (entries embedded by
    ``model``), best first, with their source turns' ids (not the turns: a hit kept gets them
    later, ``Retriever.with_sources``)."""
    days = date_ranges(query) + (relative_ranges(query, asked) if asked is not None else [])
    if not days:
        found = store.nearest("diary", scope.key, qvec, depth, model)
    else:
        named = dict.fromkeys(d.id for start, end in days for d in store.diaries(scope, start, end, sources=False))
        ids, rows = stored_vectors(store, "diary", len(qvec))(list(named))
        found = sorted(zip(ids, (rows @ qvec).tolist(), strict=True), key=lambda p: -p[1])[:depth]
    diaries = store.get_diaries(i for i, _ in found)  # the source ids of these few days only
    return [(diaries[i], c) for i, c in found if i in diaries]
