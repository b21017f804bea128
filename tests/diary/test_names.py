"""What a digest leaves out of its topics (the chat's members' names) is read again only when
the tenant's aliases or the chat's members changed: a kept answer is never a stale one. Real
SQLite."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from pmemo import Settings
from pmemo.diary.writer import DiaryWriter
from pmemo.models import Scope
from pmemo.stores.base import FullStore, NewAlias, NewTurn
from pmemo.stores.sqlite.store import SQLiteStore

T0 = datetime(2024, 3, 4, 9, 0, tzinfo=UTC)
TEAM = Scope.of(group_id="team", session_id="s1").owner_scope()
CLUB = Scope.of(group_id="club", session_id="s1").owner_scope()


@pytest.fixture
def store(tmp_path: Path) -> Iterator[FullStore]:
    s = SQLiteStore.open(tmp_path / "data")
    yield s  # type: ignore[misc]  # SQLiteStore is a FullStore
    s.close()


def spoke(store: FullStore, scope: Scope, person: str, name: str | None, minutes: int = 0) -> None:
    store.turns.add_turns([NewTurn(scope, "user", "hi", name, T0 + timedelta(minutes=minutes), {}, "hi",
                                   actor_id=person)])


def test_the_names_follow_new_and_removed_aliases_and_new_members(store: FullStore) -> None:
    writer = DiaryWriter(store, None, None, Settings())  # type: ignore[arg-type]  # no embedding here
    spoke(store, TEAM, "ni", "Nini")
    spoke(store, CLUB, "bo", "Bo")
    assert writer._names(TEAM) == ["Nini"]
    assert writer._names(TEAM) == ["Nini"]  # kept
    store.people.add_aliases("default", [NewAlias("ni", "小霓", "learned", TEAM.owner, T0.timestamp())])
    assert sorted(writer._names(TEAM)) == ["Nini", "小霓"]
    store.people.remove_alias("default", "ni", "小霓")
    assert writer._names(TEAM) == ["Nini"]
    version = store.people.alias_version("default")
    spoke(store, TEAM, "bo", None, 5)  # a known person joins without a name: no alias changes
    assert store.people.alias_version("default") == version
    assert sorted(writer._names(TEAM)) == ["Bo", "Nini"]
    assert writer._names(CLUB) == ["Bo"]  # each chat its own
