"""Stores: the Protocols (``base``) and their backends, opened from a target by ``open_store``,
the one factory every entry point uses.

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
    from ..config import Settings
    from .base import FullStore

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
SQLITE_SCHEME = "sqlite://"
ACCEPTED = "a directory, sqlite:///path/to/dir or a postgresql:// (postgres://) URL"


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


def target_of(settings: Settings) -> str:
    """The store the settings name: ``store`` when set, else the SQLite directory ``data``."""
    return settings.store or settings.data


def open_store(target: str | os.PathLike[str] | None, settings: Settings) -> FullStore:
    """The store ``target`` names (None or "": the settings', ``target_of``), opened and
    migrated to this pmemo's schema: the one way every entry point (``Memory.open``, the
    server, the CLI, ``pmemo worker``, ``pmemo migrate``) opens a store. The SQLite store's
    in-memory vector cache is sized by the ``faiss_min_vectors`` and ``index_memory_mb``
    settings (PostgreSQL searches in the database and keeps no cache).

    >>> import tempfile
    >>> from pmemo.config import Settings
    >>> store = open_store(f"sqlite://{tempfile.mkdtemp()}", Settings())
    >>> type(store).__name__
    'SQLiteStore'
    >>> store.close()
    >>> open_store("mysql://db/pmemo", Settings())  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    pmemo.errors.InvalidInput: store 'mysql://db/pmemo' is not one pmemo opens: give a directory, ...
    """
    where = target_of(settings) if target is None or str(target) == "" else str(target)
    if is_postgres(where):
        try:
            from .postgres.store import PostgresStore
        except ImportError as exc:
            raise InvalidInput(f"a PostgreSQL store needs the postgres extra: pip install 'pmemo[postgres]'"
                               f" ({exc.name} is missing)") from exc
        return PostgresStore.open(where)
    if "://" in where and not where.startswith(SQLITE_SCHEME):
        raise InvalidInput(f"store {where!r} is not one pmemo opens: give {ACCEPTED}")
    from .sqlite.store import SQLiteStore

    return SQLiteStore.open(sqlite_path(where), faiss_min_vectors=settings.faiss_min_vectors,
                            index_memory_mb=settings.index_memory_mb)
