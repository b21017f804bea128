"""The store contract runs on every backend listed in BACKENDS.

To add a backend (Postgres, issue 3+), add its name to BACKENDS and a branch to
``open_store``; every test in this package then runs against it too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pmemo.stores.base import FullStore, Store

BACKENDS = ["sqlite", "postgres"]


def open_store(kind: str, path: Path | str) -> Store:
    """The backend ``kind`` at ``path``: a directory (SQLite) or a URL (Postgres, ``where()``)."""
    if kind == "sqlite":
        from pmemo.stores.sqlite.store import SQLiteStore

        return SQLiteStore.open(path)
    if kind == "postgres":
        from pmemo.stores.postgres.store import PostgresStore

        return PostgresStore.open(str(path))
    raise AssertionError(f"no store backend {kind!r}")


def where(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """Where a test's store of backend ``request.param`` lives: a temporary directory, or an
    empty schema of the session's Postgres server (started only when a test asks for it)."""
    if request.param == "postgres":
        return str(request.getfixturevalue("postgres_url"))
    return tmp_path / request.param


@pytest.fixture(params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    s = open_store(request.param, where(request, tmp_path))
    yield s
    s.close()


# Every Protocol of stores/base.py (FullStore): the backends that implement all of them.
FULL_BACKENDS = ["sqlite", "postgres"]


@pytest.fixture(params=FULL_BACKENDS)
def full_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[FullStore]:
    s = open_store(request.param, where(request, tmp_path))
    yield s  # type: ignore[misc]  # open_store gives every backend as a Store
    s.close()


@pytest.fixture(params=FULL_BACKENDS)
def reopen(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], FullStore]:
    """Opens the backend at one place, again at each call (a restart); the caller closes each."""
    place = where(request, tmp_path)
    return lambda: open_store(request.param, place)  # type: ignore[return-value]
