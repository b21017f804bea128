"""The store contract runs on every backend listed in BACKENDS.

To add a backend (Postgres, issue 3+), add its name to BACKENDS and a branch to
``open_store``; every test in this package then runs against it too.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pmemo.stores.base import Store

BACKENDS = ["sqlite"]


def open_store(kind: str, path: Path) -> Store:
    if kind == "sqlite":
        from pmemo.stores.sqlite.store import SQLiteStore

        return SQLiteStore.open(path)
    raise AssertionError(f"no store backend {kind!r}")


@pytest.fixture(params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    s = open_store(request.param, tmp_path / request.param)
    yield s
    s.close()
