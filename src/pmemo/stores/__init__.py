"""Stores: the Protocols (``base``) and their backends, opened from a target by ``open_store``.

A target is a directory or ``sqlite:///path`` (the embedded SQLite store), or a
``postgresql://`` / ``postgres://`` URL (the PostgreSQL store). Backends are imported when
opened, so ``import pmemo`` needs no database driver.

>>> is_postgres("postgres://pmemo@db/pmemo"), is_postgres("./pmemo_data")
(True, False)
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import InvalidInput

if TYPE_CHECKING:
    from .base import FullStore

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
SQLITE_SCHEME = "sqlite://"


def is_postgres(target: str | os.PathLike[str]) -> bool:
    return str(target).startswith(POSTGRES_SCHEMES)


def sqlite_path(target: str | os.PathLike[str]) -> str:
    """The directory a SQLite target names: ``sqlite:///srv/pmemo`` → ``/srv/pmemo``,
    ``sqlite://data`` → ``data`` (relative), a plain path as given."""
    text = str(target)
    if not text.startswith(SQLITE_SCHEME):
        return text
    path = text.removeprefix(SQLITE_SCHEME)
    if not path.strip("/"):
        raise InvalidInput(f"store {text!r} names no directory: use sqlite:///path/to/dir")
    return path


def folder_of(target: str | os.PathLike[str]) -> Path | None:
    """The directory a target keeps its data in (SQLite), or None for a database server,
    which needs no local folder: ``folder_of("postgres://db/pmemo")`` → None."""
    return None if is_postgres(target) else Path(sqlite_path(target))


def open_store(target: str | os.PathLike[str], *, faiss_min_vectors: int = 20_000,
               index_memory_mb: int = 512) -> FullStore:
    """The store ``target`` names, opened (and migrated to this pmemo's schema).
    ``faiss_min_vectors``, ``index_memory_mb``: the SQLite store's in-memory vector cache, as
    the settings of those names (PostgreSQL searches in the database and keeps no cache)."""
    if is_postgres(target):
        try:
            from .postgres.store import PostgresStore
        except ImportError as exc:
            raise InvalidInput(f"a PostgreSQL store needs the postgres extra: pip install 'pmemo[postgres]'"
                               f" ({exc.name} is missing)") from exc
        return PostgresStore.open(str(target))
    if "://" in str(target) and not str(target).startswith(SQLITE_SCHEME):
        raise InvalidInput(f"store {str(target)!r}: give a directory, sqlite:///path or a postgresql:// URL")
    from .sqlite.store import SQLiteStore

    return SQLiteStore.open(sqlite_path(target), faiss_min_vectors=faiss_min_vectors,
                            index_memory_mb=index_memory_mb)
