"""A background batch reads the registry once (People.batch): each tenant's alias version and
each chat's members, not once per turn; a search on another thread meanwhile reads it fresh."""

from __future__ import annotations

import threading
from collections import Counter

from pmemo.models import Scope
from pmemo.stores.sqlite.store import SQLiteStore
from pmemo.tiers.people import People

TEAM = Scope.of(group_id="team", session_id="s1")


def test_a_batch_reads_the_registry_once_and_another_thread_reads_it_fresh(tmp_path) -> None:
    store = SQLiteStore.open(tmp_path)
    reads: Counter[str] = Counter()
    version, members = store.alias_version, store.member_ids

    def counted_version(tenant: str) -> int:
        reads["version"] += 1
        return version(tenant)

    def counted_members(scope: Scope) -> set[str]:
        reads["members"] += 1
        return members(scope)

    store.alias_version, store.member_ids = counted_version, counted_members  # type: ignore[method-assign]
    try:
        store.add_person(TEAM.tenant_id, "p1", "周霓", ["霓霓"])
        people = People(store)
        with people.batch():
            found = [people.named(f"{name}明天考试", TEAM) for name in ("霓霓", "周霓", "霓霓")]
            assert found == [["p1"], ["p1"], ["p1"]]
            assert reads == {"version": 1, "members": 1}
            elsewhere: list[list[str]] = []
            search = threading.Thread(target=lambda: elsewhere.append(people.named("霓霓呢", TEAM)))
            search.start()
            search.join()
            assert elsewhere == [["p1"]] and reads == {"version": 2, "members": 2}
        people.named("霓霓", TEAM)  # the batch over: fresh again
        assert reads == {"version": 3, "members": 3}
    finally:
        store.close()
