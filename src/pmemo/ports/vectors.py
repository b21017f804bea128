"""The vectors port: the stored embeddings of turns, their pieces, summaries, diary days, windows,
episodes and records, and the search over them; beside it two small ports of the same tables'
neighbours: the store's key/value settings (``MetaPort``) and the embedding cache
(``EmbedCachePort``).

A vector is stored under (kind, ref): the kind of row it embeds and that row's id, with the
scope it is searched in and the embedding model that made it. Search is the store's (pgvector
on PostgreSQL, an in-memory index of the table on SQLite): every process sees what any wrote.
A store gives them as ``store.vectors``, ``store.meta`` and ``store.embed_cache``; they import
only the standard library. tests/contract/test_vector_contract.py runs them on SQLite and Postgres.

>>> store.vectors.nearest("turn", scope.key, query, 10, "hashing-256")  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

# a vector as numpy gives it (float32, one dimension): the port names no numpy type
Vector = Any


class VectorPort(Protocol):
    def put_vectors(self, kind: str, rows: list[tuple[int, str, Vector]], model: str) -> None:
        """Each (ref, scope key, vector) of ``kind`` and ``model``, replacing the ref's vector."""
        ...

    def put_parts(self, rows: list[tuple[int, str, Vector]], model: str) -> None:
        """Each (turn id, scope key, its pieces' vectors as rows): the turn's ``part`` vectors
        (``stores.parts``) become these, in one transaction; a turn of one piece keeps none."""
        ...

    def get_vectors(self, kind: str, refs: Iterable[int]) -> dict[int, Vector]:
        """The stored vectors of those of ``refs`` that have one, by ref."""
        ...

    def scan_vectors(self, kind: str, model: str) -> Iterable[tuple[int, str, Vector]]:
        """Every (ref, scope key, vector) of ``kind`` and ``model``."""
        ...

    def scope_vectors(self, kind: str, scope_key: str, model: str) -> tuple[Vector, Vector]:
        """One scope's vectors of ``model``: ids (int64) and rows (float32), by id."""
        ...

    def nearest(self, kind: str, scope_key: str, query: Vector, k: int, model: str) -> list[tuple[int, float]]:
        """The ``k`` stored vectors of one scope and kind, of embedding ``model``, most similar to
        ``query`` (cosine; stored vectors are unit length, so the inner product), best first, as
        (ref id, score). Vector search is the store's: every process and replica sees what any
        of them wrote (put_vectors and delete_vectors are the writes it follows)."""
        ...

    def stale_turns(self, model: str, limit: int) -> list[int]:
        """Up to ``limit`` turns without a ``turn`` vector of ``model``."""
        ...

    def delete_vectors(self, kind: str, refs: Iterable[int]) -> None: ...


class MetaPort(Protocol):
    """The store's own settings, by key (the embedder its vectors came from, a schedule's mark)."""

    def get_meta(self, key: str) -> str | None: ...
    def set_meta(self, key: str, value: str) -> None: ...


class EmbedCachePort(Protocol):
    """Embeddings of texts by a key (model and text hashed: ``embedders.cached``)."""

    def cache_get(self, keys: list[str]) -> dict[str, Vector]:
        """The cached vectors of those of ``keys`` that have one."""
        ...

    def cache_put(self, rows: list[tuple[str, Vector]]) -> None: ...
    def cache_delete(self, keys: list[str]) -> None: ...
