"""The episodes port on PostgreSQL (``stores/episodes_sql.py`` in Postgres's dialect): what is its
own is ``episode_signals``, the similarity worked out in the database (pgvector), so a context
reads a float an episode, not its vector; the read plan sends the same read (``signals_read``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...models import Scope
from ...ports.episodes import EpisodeSignal
from ..episodes_sql import SQLEpisodes
from ..sql import Row
from . import codec


def signals_read(scope: Scope, query: np.ndarray | None) -> tuple[str, dict[str, Any]]:
    """The read of ``episode_signals`` (``:name`` parameters)."""
    where = "WHERE e.scope_key=:scope AND e.deleted IS NULL ORDER BY e.ended, e.id"
    if query is None:
        return f"SELECT e.id, e.ended, e.importance, NULL AS similarity FROM episodes e {where}", {"scope": scope.key}
    return ("SELECT e.id, e.ended, e.importance, CASE WHEN vector_dims(v.vec) = :dim"
            " THEN -(v.vec <#> :q) END AS similarity FROM episodes e"
            f" LEFT JOIN vectors v ON v.kind='episode' AND v.ref=e.id {where}",
            {"q": codec.f32(query), "dim": len(query), "scope": scope.key})


def signal_of(row: Row) -> EpisodeSignal:
    similarity = row["similarity"]
    return EpisodeSignal(row["id"], row["ended"], row["importance"], None if similarity is None else float(similarity))


class PostgresEpisodes(SQLEpisodes):
    def episode_signals(self, scope: Scope, query: Any) -> list[EpisodeSignal]:
        with self._link.read() as x:
            return [signal_of(r) for r in x.rows(*signals_read(scope, query))]
