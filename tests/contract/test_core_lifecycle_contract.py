"""The rest of the core Store contract, on every backend: idempotent writes, the meta table,
stale summaries, a reset of the clusters, the job queue's summary, size and a restart."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from pmemo.errors import Conflict
from pmemo.models import Scope
from pmemo.stores.base import NewTurn, Once, Store

ALICE = Scope.of(user_id="alice", session_id="s1")


def new(content: str) -> NewTurn:
    return NewTurn(ALICE, "user", content, None, datetime(2024, 3, 4, tzinfo=UTC), {"n": 1}, content)


def reopen(store: Store, request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    """The store opened again where it is, as a restarted process does (this handle closed)."""
    from pmemo.stores.postgres.store import PostgresStore
    from pmemo.stores.sqlite.store import SQLiteStore

    store.close()
    if isinstance(store, PostgresStore):
        return PostgresStore.open(request.getfixturevalue("postgres_url"))
    return SQLiteStore.open(tmp_path / "sqlite")  # where tests/contract/conftest.py puts it


def test_a_write_with_an_idempotency_key_is_stored_once(store: Store):
    once = Once("default", "req-1", "fp-1")
    first = store.turns.add_turns([new("a"), new("b")], once)
    assert store.turns.add_turns([new("a"), new("b")], once) == first  # the retry gets the first write's turns
    assert store.turns.replay(once) == first and store.turns.replay(Once("default", "req-2", "fp-1")) is None
    assert [t.step for t in store.turns.last_turns(ALICE.owner_scope(), "s1", 10)] == [1, 2]
    with pytest.raises(Conflict):
        store.turns.add_turns([new("other")], Once("default", "req-1", "fp-2"))
    assert store.turns.replay(Once("t2", "req-1", "fp-2")) is None  # keys are per tenant
    store.turns.delete_turns([first[0].id])
    assert store.turns.replay(once) == first[1:]  # what is left of it


def test_meta_stale_summaries_and_a_reset_of_the_clusters(store: Store):
    assert store.meta.get_meta("embedder") is None
    store.meta.set_meta("embedder", "e5")
    store.meta.set_meta("embedder", "e5-v2")
    assert store.meta.get_meta("embedder") == "e5-v2"
    a, b = store.turns.add_turns([new("a"), new("b")])
    s1 = store.summaries.add_summary(ALICE, 1, 1, "one", "extractive", [a.id])
    s2 = store.summaries.add_summary(ALICE, 2, 2, "two", "extractive", [b.id])
    store.vectors.put_vectors("summary", [(s1.id, ALICE.key, np.array([1.0, 0.0]))], "m")
    assert store.summaries.stale_summaries("m") == [s2.id]
    assert sorted(store.summaries.stale_summaries("other")) == sorted([s1.id, s2.id])
    store.clusters.add_cluster(ALICE.owner_scope(), np.array([1.0, 0.0]), [a.id], "a")
    store.clusters.add_cluster(ALICE.owner_scope(), np.array([0.0, 1.0]), [b.id], "b")
    assert store.clusters.reset_clusters() == sorted([a.id, b.id])
    assert store.clusters.of_scope(ALICE.owner_scope()) == [] and store.clusters.clusters_with([a.id]) == []
    assert store.clusters.cluster_of([a.id, b.id]) == {}


def test_the_job_queue_by_status(store: Store):
    assert store.jobs.job_queue() == {}
    store.turns.add_turns([new("a")])  # queues its 'turns' job
    failed = store.jobs.enqueue("promote", {"cluster_id": 1})
    claimed = store.jobs.claim(1, "w")
    assert [j.kind for j in claimed] == ["turns"]
    store.jobs.fail(claimed[0].id, "boom", retry=False)
    queue = store.jobs.job_queue()
    assert {status: n for status, (n, _) in queue.items()} == {"failed": 1, "pending": 1}
    assert all(abs(at - datetime.now(UTC).timestamp()) < 60 for _, at in queue.values())
    assert failed != claimed[0].id


def test_size_grows_and_a_restart_keeps_everything(store: Store, request: pytest.FixtureRequest,
                                                   tmp_path: Path):
    empty = store.size_bytes()
    turns = store.turns.add_turns([new("预算 budget " * 200) for _ in range(50)])
    store.vectors.put_vectors("turn", [(t.id, ALICE.key, np.ones(384, dtype=np.float32) / np.sqrt(384)) for t in turns],
                              "m")
    assert store.size_bytes() > empty
    again = reopen(store, request, tmp_path)
    try:
        assert set(again.turns.get_turns([t.id for t in turns])) == {t.id for t in turns}
        assert len(again.turns.lexical(ALICE.owner_scope(), ["预算"], 100)) == 50
        assert [ref for ref, _ in again.vectors.nearest("turn", ALICE.key, np.ones(384) / np.sqrt(384), 3, "m")] == \
            [t.id for t in turns[:3]]  # equal scores: the lower ids first
        assert again.turns.add_turns([new("next")])[0].step == 51
    finally:
        again.close()
