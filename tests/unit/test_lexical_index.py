"""The SQLite lexical index (stores/sqlite/fts.py): scope-prefixed words, rebuilt from the
turns when the segmentation version or the index layout changes."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from pmemo.models import Scope
from pmemo.stores.base import NewTurn
from pmemo.stores.sqlite import fts
from pmemo.stores.sqlite.schema import MIGRATIONS
from pmemo.stores.sqlite.store import DB_NAME, SQLiteStore
from pmemo.text.segment import FTS_VERSION, query_terms, segment

ALICE = Scope.of(user_id="alice", session_id="s1")
BOB = Scope.of(user_id="bob", session_id="s1")
TEXTS = ["项目总预算不能超过10万元", "The payment service charged some users twice", "Lucky runs"]


def new(scope: Scope, content: str, actor: str | None = None) -> NewTurn:
    return NewTurn(scope, "user", content, actor, datetime(2024, 3, 4, tzinfo=UTC), {},
                   segment(content))


def fill(store: SQLiteStore) -> dict[str, list[int]]:
    alice = store.turns.add_turns([new(ALICE, t) for t in TEXTS] + [new(ALICE, "hello", actor="Louis")])
    bob = store.turns.add_turns([new(BOB, t) for t in TEXTS])
    return {"alice": [t.id for t in alice], "bob": [t.id for t in bob]}


def found(store: SQLiteStore, scope: Scope, query: str, session: str | None = None) -> list[int]:
    return [i for i, _ in store.turns.lexical(scope.owner_scope(), list(query_terms(query)), 10, session)]


def answers(store: SQLiteStore) -> dict[tuple[str, str], list[int]]:
    return {(s.owner, q): found(store, s, q)
            for s in (ALICE, BOB) for q in ("预算是多少", "payment twice", "louis", "lucky")}


def test_each_scope_finds_only_its_own_turns(tmp_path: Path) -> None:
    store = SQLiteStore.open(tmp_path)
    ids = fill(store)
    # the turn saying it first; the turn after it too, by its context (the previous turn's words)
    assert found(store, ALICE, "预算") == ids["alice"][:2]
    assert found(store, BOB, "预算") == ids["bob"][:2]
    assert found(store, ALICE, "louis") == []  # the speaker is data, not an indexed word
    assert found(store, BOB, "louis") == []
    assert found(store, ALICE, "预算", session="s2") == []
    assert found(store, ALICE, "预算", session="s1") == ids["alice"][:2]
    store.close()


def test_rebuilt_on_open_when_the_version_changed(tmp_path: Path) -> None:
    store = SQLiteStore.open(tmp_path)
    fill(store)
    before = answers(store)
    store.close()
    conn = sqlite3.connect(tmp_path / DB_NAME)
    conn.execute("DELETE FROM turns_fts")  # an index built by another version is thrown away
    conn.execute("UPDATE meta SET value='0' WHERE key=?", (fts.META_KEY,))
    conn.commit()
    conn.close()
    store = SQLiteStore.open(tmp_path)
    assert answers(store) == before
    assert store.meta.get_meta(fts.META_KEY) == str(FTS_VERSION)
    store.close()


def test_rebuild_uses_the_segmentation_of_the_new_version(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    store = SQLiteStore.open(tmp_path)
    ids = fill(store)
    assert found(store, ALICE, "luc") == []
    store.close()

    def prefixes(text: str) -> str:  # a later segment() that also indexes word prefixes
        words = segment(text).split()
        return " ".join(words + [w[:3] for w in words if len(w) > 3])

    monkeypatch.setattr(fts, "segment", prefixes)
    monkeypatch.setattr(fts, "FTS_VERSION", FTS_VERSION + 1)
    store = SQLiteStore.open(tmp_path)
    assert set(found(store, ALICE, "luc")) == set(ids["alice"][2:4])  # and the reply, by context
    assert found(store, BOB, "luc") == [ids["bob"][2]]
    assert store.meta.get_meta(fts.META_KEY) == str(FTS_VERSION + 1)
    store.close()


def test_a_store_with_the_old_layout_is_migrated_and_searchable(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / DB_NAME)
    for number, script in enumerate(MIGRATIONS[:3]):  # the schema before the scoped words
        conn.executescript(f"BEGIN; {script}; PRAGMA user_version={number + 1}; COMMIT;")
    conn.execute(
        "INSERT INTO turns(scope_key, tenant, agent, owner, session, step, role, actor, content,"
        " ts, tz, metadata, created) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)",
        (ALICE.owner_scope().key, "default", "default", ALICE.owner, "s1", 1, "user", None,
         "预算上调到13万元", 0.0, None, "{}", 0.0))
    conn.execute("INSERT INTO turns_fts(rowid, scope, body) VALUES(1, 'k0', '预算 上调')")
    conn.commit()
    conn.close()
    store = SQLiteStore.open(tmp_path)
    assert found(store, ALICE, "预算") == [1]
    assert found(store, BOB, "预算") == []
    store.close()
