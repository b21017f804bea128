"""The pool hands a connection back out without a check when it came back within FRESH_S (a
check is a round trip per store call: ~0.1 ms of ~0.3, `bench/pg_roundtrip.py`); one idle
longer is checked, so one the server dropped meanwhile is replaced before a caller sees it."""

from __future__ import annotations

import time

import psycopg
import pytest

from pmemo.stores.postgres import database


def _backend(db: database.Database) -> int:
    row = db.one("SELECT pg_backend_pid()")
    assert row is not None
    return int(row[0])


def test_a_fresh_connection_goes_out_unchecked_and_an_idle_one_checked(postgres_url: str,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    checks: list[object] = []
    real = database.ConnectionPool.check_connection
    monkeypatch.setattr(database.ConnectionPool, "check_connection",
                        staticmethod(lambda conn: (checks.append(conn), real(conn))[1]))
    db = database.Database(postgres_url, max_size=1)
    try:
        for _ in range(5):
            db.one("SELECT 1")
        assert len(checks) <= 1  # the first hand-out, before it ever came back, may be checked
        pid = _backend(db)
        with psycopg.connect(postgres_url, autocommit=True) as admin:  # the server drops it
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
            # the signal is sent, not yet obeyed: on a busy box the backend may still answer a check
            while admin.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", (pid,)).fetchone():
                time.sleep(0.01)
        clock = database.time.monotonic()
        monkeypatch.setattr(database.time, "monotonic", lambda: clock + database.FRESH_S + 1)
        assert _backend(db) != pid  # checked, found broken, replaced: the caller saw nothing
        assert len(checks) >= 2
    finally:
        db.close()
