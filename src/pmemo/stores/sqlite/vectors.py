"""The vectors port on SQLite (``stores/vectors_sql.py`` in SQLite's dialect): what is its own is the
search, an in-memory index per scope kept in step with the table (``vector_cache.py``), which also
answers ``get_vectors`` for the scopes it holds without a read."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from ..sql import Link
from ..vectors_sql import SQLVectors, VectorCodec
from . import codec
from .dialect import SQLITE
from .vector_cache import VectorCache


def _matrix(values: list[Any], dim: int) -> np.ndarray:
    # one join of the blobs into a buffer of the caller's, read as a matrix (a row at a time
    # into numpy cost ~5x as much: 0.9 ms for a scope of 1,000)
    return codec.unblob(bytearray().join(values)).reshape(len(values), dim)


BLOBS = VectorCodec(codec.blob, codec.unblob, _matrix)


class SQLiteVectors(SQLVectors):
    """``VectorPort`` on SQLite; ``cache`` is the index ``nearest`` searches (``faiss_min``,
    ``max_bytes``: its settings), which the store tells of its transactions."""

    def __init__(self, link: Link, faiss_min: int, max_bytes: int) -> None:
        super().__init__(link, SQLITE, BLOBS)
        self.cache = VectorCache(self.scope_vectors, faiss_min, max_bytes)

    def get_vectors(self, kind: str, refs: Iterable[int]) -> dict[int, np.ndarray]:
        if not (refs := list(refs)):
            return {}  # and no scope in memory is touched as if searched
        found = self.cache.vectors(kind, refs)  # a search's candidates: no database read
        rest = [r for r in refs if r not in found]
        return found | super().get_vectors(kind, rest) if rest else found

    def nearest(self, kind: str, scope_key: str, query: np.ndarray, k: int, model: str) -> list[tuple[int, float]]:
        return self.cache.nearest(kind, scope_key, query, k, model)
