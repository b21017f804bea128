"""SQLite keeps a scope's centroids between writes (every search reads them): a search's
hit count and another scope's writes leave them, a write of the scope's clusters drops them,
whatever the path (a join, a forget and its restore)."""

from datetime import UTC, datetime

import numpy as np
import pytest

from pmemo.models import Scope
from pmemo.stores.base import NewTurn
from pmemo.stores.sqlite.store import SQLiteStore
from pmemo.text.segment import segment

ALICE = Scope.of(user_id="alice", session_id="s1")
BOB = Scope.of(user_id="bob", session_id="s1")
OWNER = ALICE.owner_scope()
NOW = datetime(2024, 5, 1, tzinfo=UTC)


def unit(*values: float) -> np.ndarray:
    v = np.array(values, dtype=np.float32)
    return v / np.linalg.norm(v)


def test_centroids_are_kept_until_a_write_changes_them(tmp_path):
    store = SQLiteStore.open(tmp_path)
    try:
        a, b = store.turns.add_turns([NewTurn(ALICE, "user", text, None, NOW, {}, segment(text))
                                for text in ("first", "second")])
        cid = store.clusters.add_cluster(OWNER, unit(1, 0), [a.id], "first")
        first = store.clusters.centroids(OWNER)
        store.clusters.add_hits([cid], 1000.0, lambda hits, elapsed: hits)  # what a search writes
        assert store.clusters.centroids(OWNER) is first
        (c,) = store.turns.add_turns([NewTurn(BOB, "user", "third", None, NOW, {}, "third")])
        store.clusters.add_cluster(BOB.owner_scope(), unit(0, 1), [c.id], "third")  # another tenant's ingest
        assert store.clusters.centroids(OWNER) is first
        with pytest.raises(ValueError):
            first[1][0, 0] = 0.5  # shared between searches: read-only
        store.clusters.join_cluster(cid, b.id, unit(1, 1), None)
        ids, centroids, sizes = store.clusters.centroids(OWNER)
        assert ids == [cid] and sizes == [2] and np.allclose(centroids[0], unit(1, 1))
        store.clusters.delete_cluster(cid)
        assert store.clusters.centroids(OWNER)[0] == []
    finally:
        store.close()


def test_a_scopes_own_writes_reach_its_kept_centroids_without_a_read(tmp_path):
    """A turn filed into a cluster writes that cluster: the next turn of the scope finds the
    written rows in the cache (a re-read after each join cost 16 % of ingest at 200k turns),
    and they are what a fresh read gives."""
    store = SQLiteStore.open(tmp_path)
    try:
        turns = store.turns.add_turns([NewTurn(ALICE, "user", f"turn {i}", None, NOW, {}, f"turn {i}")
                                 for i in range(4)])
        first = store.clusters.add_cluster(OWNER, unit(1, 0, 0), [turns[0].id], "a")
        store.clusters.centroids(OWNER)
        reads: list[str] = []
        store._read.set_trace_callback(reads.append)  # this thread's reading connection
        second = store.clusters.add_cluster(OWNER, unit(0, 1, 0), [turns[1].id], "b")
        store.clusters.join_cluster(first, turns[2].id, unit(1, 1, 0), None)
        store.clusters.merge_clusters(first, second, unit(1, 1, 1), None)
        kept = store.clusters.centroids(OWNER)
        assert not [sql for sql in reads if "centroid" in sql]
        store._read.set_trace_callback(None)
        store.centroid_cache._kept.clear()
        fresh = store.clusters.centroids(OWNER)
        assert kept[0] == fresh[0] == [first] and kept[2] == fresh[2]
        assert np.array_equal(kept[1], fresh[1]) and not kept[1].flags.writeable
    finally:
        store.close()


def test_a_restored_cluster_reaches_the_kept_centroids(tmp_path):
    store = SQLiteStore.open(tmp_path)
    try:
        (a,) = store.turns.add_turns([NewTurn(ALICE, "user", "first", None, NOW, {}, "first")])
        cid = store.clusters.add_cluster(OWNER, unit(1, 0), [a.id], "first")
        assert store.clusters.centroids(OWNER)[0] == [cid]
        batch = store.batches.new_batch("forget", "soft", OWNER.key, "test")
        store.forget.snapshot(batch, "cluster", [cid])
        store.clusters.delete_cluster(cid)
        assert store.clusters.centroids(OWNER)[0] == []
        store.forget.restore_snapshot(batch)  # the row put back by the forget code's own SQL
        assert store.clusters.centroids(OWNER)[0] == [cid]
    finally:
        store.close()
