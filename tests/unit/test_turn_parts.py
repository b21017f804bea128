"""The ref of a turn's part (stores/parts.py) is the same number in Python and in both stores'
triggers, and a store made before the trigger gets it with its rows kept."""

from __future__ import annotations

import sqlite3
from importlib import resources
from pathlib import Path

from pmemo.stores import parts
from pmemo.stores.sqlite import schema


def test_the_triggers_count_parts_as_stores_parts_does():
    postgres = resources.files("pmemo.stores.postgres").joinpath("migrations/0090_turn_parts.sql").read_text()
    sqlite = next(m for m in schema.MIGRATIONS if "turns_parts_gone" in m)
    for sql in (postgres, sqlite):
        assert f"OLD.id * {parts.PER_TURN} AND OLD.id * {parts.PER_TURN} + {parts.PER_TURN - 1}" in sql


def test_an_older_store_gets_the_parts_trigger_and_keeps_its_vectors(tmp_path: Path):
    conn = sqlite3.connect(tmp_path / "old.db", isolation_level=None)
    at = next(i for i, m in enumerate(schema.MIGRATIONS) if "turns_parts_gone" in m)
    for number, script in enumerate(schema.MIGRATIONS[:at]):
        conn.executescript("BEGIN;" + script + f"; PRAGMA user_version={number + 1}; COMMIT;")
    conn.execute("INSERT INTO turns(id, scope_key, tenant, agent, owner, session, step, role, content, ts, created)"
                 " VALUES(3, 'k', 't', 'a', 'o', 's', 1, 'user', 'x', 0, 0)")
    conn.execute("INSERT INTO vectors VALUES('turn', 3, 'k', 'm', x'00')")
    schema.migrate(conn)
    conn.executemany("INSERT INTO vectors VALUES('part', ?, 'k', 'm', x'00')",
                     [(parts.ref(3, 0),), (parts.ref(3, 1),), (parts.ref(4, 0),)])
    conn.execute("DELETE FROM turns WHERE id=3")
    assert conn.execute("SELECT kind, ref FROM vectors ORDER BY kind, ref").fetchall() == [
        ("part", parts.ref(4, 0)), ("turn", 3)]  # turn vectors go with delete_turns, as before
