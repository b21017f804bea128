"""The vectors, meta and embedding-cache ports (``ports.vectors``) in SQL, written once for SQLite
and Postgres. Each store passes how it stores a vector (``VectorCodec``: a float32 blob on SQLite,
a pgvector value on Postgres); what stays a backend's is the search: SQLite's in-memory index of
the table (``sqlite/vectors.py``), pgvector's exact or HNSW scan on Postgres (``postgres/vectors.py``),
which also counts each scope's rows as they are written (``_write``) to know when to go approximate.
Where the two differed, one is kept for both: a vector is upserted (SQLite replaced the row; its
cache hears of an update as of a delete and an insert), the stale turns and a scan by ref."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import parts
from .sql import Dialect, Exec, Link

SCAN_BATCH = 2000  # rows a scan reads at a time (no connection held between)
VectorRows = list[tuple[int, str, np.ndarray]]


@dataclass(frozen=True)
class VectorCodec:
    """How a backend stores a vector: ``encode`` one for a parameter, ``decode`` one read back, and
    ``matrix`` the values of many read back as the rows of one float32 matrix of ``dim`` columns."""

    encode: Callable[[np.ndarray], Any]
    decode: Callable[[Any], np.ndarray]
    matrix: Callable[[list[Any], int], np.ndarray]


def upsert(x: Exec, codec: VectorCodec, kind: str, rows: VectorRows, model: str,
           ann: set[str] | None = None) -> None:
    """Write ``rows`` (ref, scope key, vector) in the caller's transaction, each replacing the ref's
    vector; ``ann`` (Postgres): the scopes searched through HNSW, whose rows it marks."""
    more, value, update = ("", "", "") if ann is None else (", ann", ", :ann", ", ann=excluded.ann")
    x.many(f"INSERT INTO vectors(kind, ref, scope_key, model, vec{more}) VALUES(:kind, :ref, :key, :model, :vec{value})"
           " ON CONFLICT(kind, ref) DO UPDATE SET scope_key=excluded.scope_key, model=excluded.model,"
           f" vec=excluded.vec{update}",
           [{"kind": kind, "ref": int(ref), "key": sk, "model": model, "vec": codec.encode(v),
             "ann": ann is not None and sk in ann} for ref, sk, v in rows])


class SQLVectors:
    """``VectorPort`` over a backend's ``Link`` in its ``Dialect``, less the search (``nearest``),
    which each backend gives."""

    def __init__(self, link: Link, dialect: Dialect, codec: VectorCodec) -> None:
        self._link = link
        self._d = dialect
        self._codec = codec

    def _write(self, x: Exec, kind: str, rows: VectorRows, model: str) -> set[tuple[str, str, str]]:
        """Write ``rows`` in the caller's transaction; the (kind, model, scope) searched another way
        from now on (Postgres counts each scope's rows first: those that go approximate)."""
        upsert(x, self._codec, kind, rows, model)
        return set()

    def _written(self, scopes: set[tuple[str, str, str]]) -> None:
        """A write committed that made ``scopes`` approximate (Postgres notes them)."""

    def put_vectors(self, kind: str, rows: VectorRows, model: str) -> None:
        if not rows:
            return
        with self._link.write() as x:
            went = self._write(x, kind, rows, model)
        self._written(went)

    def put_parts(self, rows: VectorRows, model: str) -> None:
        flat = [(parts.ref(int(turn_id), i), sk, v) for turn_id, sk, mat in rows if len(mat) > 1
                for i, v in enumerate(mat)]
        with self._link.write() as x:  # the old parts go by their key range (stores/parts.py)
            x.many("DELETE FROM vectors WHERE kind=:kind AND ref BETWEEN :low AND :high",
                   [dict(zip(("kind", "low", "high"), (parts.KIND, *parts.span(int(turn_id))), strict=True))
                    for turn_id, _, _ in rows])
            went = self._write(x, parts.KIND, flat, model) if flat else set()
        self._written(went)

    def get_vectors(self, kind: str, refs: Iterable[int]) -> dict[int, np.ndarray]:
        if not (wanted := [int(r) for r in refs]):
            return {}
        with self._link.read() as x:
            rows = x.rows(f"SELECT ref, vec FROM vectors WHERE kind=:kind AND {self._d.in_('ref', 'refs')}",
                          {"kind": kind, "refs": self._d.pack(wanted)}, binary=True)
        return {r["ref"]: self._codec.decode(r["vec"]) for r in rows}

    def scan_vectors(self, kind: str, model: str) -> Iterator[tuple[int, str, np.ndarray]]:
        """Every vector of a kind and model, read a batch at a time (no connection held between)."""
        last = -(2**63)
        while True:
            with self._link.read() as x:
                rows = x.rows("SELECT ref, scope_key, vec FROM vectors WHERE kind=:kind AND model=:model"
                              " AND ref > :last ORDER BY ref LIMIT :n",
                              {"kind": kind, "model": model, "last": last, "n": SCAN_BATCH}, binary=True)
            for r in rows:
                yield r["ref"], r["scope_key"], self._codec.decode(r["vec"])
            if len(rows) < SCAN_BATCH:
                return
            last = rows[-1]["ref"]

    def scope_vectors(self, kind: str, scope_key: str, model: str) -> tuple[np.ndarray, np.ndarray]:
        with self._link.read() as x:
            # sorted here: with ORDER BY ref, SQLite walks the (kind, ref) key over every scope
            rows = sorted(x.rows("SELECT ref, vec FROM vectors WHERE kind=:kind AND scope_key=:key AND model=:model",
                                 {"kind": kind, "key": scope_key, "model": model}, binary=True),
                          key=lambda r: int(r["ref"]))
        ids = np.fromiter((r["ref"] for r in rows), dtype=np.int64, count=len(rows))
        vecs = [r["vec"] for r in rows]
        return ids, self._codec.matrix(vecs, len(self._codec.decode(vecs[0])) if vecs else 0)

    def stale_turns(self, model: str, limit: int) -> list[int]:
        with self._link.read() as x:
            rows = x.rows("SELECT t.id FROM turns t LEFT JOIN vectors v ON v.kind='turn' AND v.ref=t.id"
                          " WHERE v.model IS NULL OR v.model<>:model LIMIT :limit", {"model": model, "limit": limit})
        return [r["id"] for r in rows]

    def delete_vectors(self, kind: str, refs: Iterable[int]) -> None:
        wanted = [int(r) for r in refs]
        with self._link.write() as x:
            x.run(f"DELETE FROM vectors WHERE kind=:kind AND {self._d.in_('ref', 'refs')}",
                  {"kind": kind, "refs": self._d.pack(wanted)})


class SQLMeta:
    """``MetaPort`` over a backend's ``Link``."""

    def __init__(self, link: Link) -> None:
        self._link = link

    def get_meta(self, key: str) -> str | None:
        with self._link.read() as x:
            row = x.one("SELECT value FROM meta WHERE key=:key", {"key": key})
        return row["value"] if row else None

    def set_meta(self, key: str, value: str) -> None:
        with self._link.write() as x:
            x.run("INSERT INTO meta(key, value) VALUES(:key, :value)"
                  " ON CONFLICT(key) DO UPDATE SET value=excluded.value", {"key": key, "value": value})


class SQLEmbedCache:
    """``EmbedCachePort`` over a backend's ``Link`` in its ``Dialect``."""

    def __init__(self, link: Link, dialect: Dialect, codec: VectorCodec) -> None:
        self._link = link
        self._d = dialect
        self._codec = codec

    def cache_get(self, keys: list[str]) -> dict[str, np.ndarray]:
        if not keys:
            return {}
        with self._link.read() as x:
            rows = x.rows(f"SELECT key, vec FROM embed_cache WHERE {self._d.in_('key', 'keys', 'text')}",
                          {"keys": self._d.texts(keys)}, binary=True)
        return {r["key"]: self._codec.decode(r["vec"]) for r in rows}

    def cache_put(self, rows: list[tuple[str, np.ndarray]]) -> None:
        with self._link.write() as x:
            x.many("INSERT INTO embed_cache(key, vec) VALUES(:key, :vec)"
                   " ON CONFLICT(key) DO UPDATE SET vec=excluded.vec",
                   [{"key": k, "vec": self._codec.encode(v)} for k, v in rows])

    def cache_delete(self, keys: list[str]) -> None:
        with self._link.write() as x:
            x.run(f"DELETE FROM embed_cache WHERE {self._d.in_('key', 'keys', 'text')}", {"keys": self._d.texts(keys)})
