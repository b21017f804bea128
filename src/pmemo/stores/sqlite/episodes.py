"""The episodes port on SQLite (``stores/episodes_sql.py`` in SQLite's dialect): what is its own
is ``episode_signals``, which compares the query with the episodes' vectors in Python, read through
the store's vector cache (``vectors``: the store's ``_vectors``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from ...models import Scope
from ...ports.episodes import EpisodeSignal
from ..episodes_sql import SQLEpisodes
from ..sql import Dialect, Link

_SIGNALS = "SELECT id, ended, importance FROM episodes WHERE scope_key=:key AND deleted IS NULL ORDER BY ended, id"


class SQLiteEpisodes(SQLEpisodes):
    def __init__(self, link: Link, dialect: Dialect,
                 vectors: Callable[[str, Iterable[int]], dict[int, np.ndarray]]) -> None:
        super().__init__(link, dialect)
        self._vectors = vectors

    def episode_signals(self, scope: Scope, query: Any) -> list[EpisodeSignal]:
        with self._link.read() as x:
            rows = x.rows(_SIGNALS, {"key": scope.key})
        vecs = self._vectors("episode", [r["id"] for r in rows]) if query is not None and rows else {}
        return [EpisodeSignal(r["id"], r["ended"], r["importance"], float(vec @ query)
                              if query is not None and (vec := vecs.get(r["id"])) is not None
                              and vec.shape == query.shape else None) for r in rows]
