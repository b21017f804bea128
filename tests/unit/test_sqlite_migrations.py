"""SQLite migrations keep the rows they reshape."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from pmemo.stores.sqlite import schema


def test_the_alias_key_migration_keeps_every_alias_and_lets_a_second_group_teach_one(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "old.db", isolation_level=None)
    for number, script in enumerate(schema.MIGRATIONS[:-1]):  # a store made before the alias key changed
        conn.executescript("BEGIN;" + script + f"; PRAGMA user_version={number + 1}; COMMIT;")
    conn.execute("INSERT INTO aliases VALUES('t', 'ni', '霓霓', 'learned', 'g:team', 1, 2, 7, NULL)")
    conn.execute("INSERT INTO aliases VALUES('t', 'ni', '周霓', 'registered', NULL, 1, 1, NULL, NULL)")
    assert schema.migrate(conn) == len(schema.MIGRATIONS)
    assert conn.execute("SELECT * FROM aliases ORDER BY alias").fetchall() == [
        ("t", "ni", "周霓", "registered", None, 1.0, 1.0, None, None),
        ("t", "ni", "霓霓", "learned", "g:team", 1.0, 2.0, 7, None)]
    taught = "INSERT INTO aliases VALUES('t', 'ni', '霓霓', 'learned', ?, 3, 3, ?, NULL) ON CONFLICT DO NOTHING"
    assert conn.execute(taught, ("g:club", 9)).rowcount == 1  # another group's teaching is its own row
    assert conn.execute(taught, ("g:team", 9)).rowcount == 0  # the same group's is a repeat
    again = "INSERT INTO aliases VALUES('t', 'ni', '周霓', 'registered', NULL, 5, 5, NULL, NULL) ON CONFLICT DO NOTHING"
    assert conn.execute(again).rowcount == 0
