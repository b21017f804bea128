"""Past ``max_clusters`` a scope's two closest clusters merge (the new one included), with the
centroids just read and the new row: the merge does not read them again."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np

from pmemo.config import Settings
from pmemo.embedders.cached import CachedEmbedder
from pmemo.embedders.hashing import HashingEmbedder
from pmemo.models import Scope
from pmemo.stores.base import NewTurn
from pmemo.stores.sqlite.store import SQLiteStore
from pmemo.tiers.services import Tiers

SCOPE = Scope.of(user_id="ann", session_id="s1")
NOW = datetime(2024, 5, 1, tzinfo=UTC)


def unit(*values: float) -> np.ndarray:
    v = np.array(values, dtype=np.float32)
    return v / np.linalg.norm(v)


def test_a_new_cluster_past_the_cap_merges_the_closest_pair(tmp_path) -> None:
    store = SQLiteStore.open(tmp_path)
    try:
        tiers = Tiers(store, CachedEmbedder(HashingEmbedder(4), store), None,
                      Settings(max_clusters=2, cluster_threshold=0.99))
        turns = store.add_turns([NewTurn(SCOPE, "user", f"turn {n}", None, NOW, {}, f"turn {n}") for n in range(3)])
        vecs = [unit(1, 0, 0, 0), unit(0, 0, 1, 0), unit(0.9, 0.1, 0, 0)]  # the third is near the first
        store.put_vectors("turn", [(t.id, SCOPE.key, v) for t, v in zip(turns, vecs, strict=True)], "m")
        first, second, third = (tiers.absorb(t, v) for t, v in zip(turns, vecs, strict=True))
        owner = SCOPE.owner_scope()
        ids, centroids, sizes = store.centroids(owner)
        assert len(ids) == 2 and sorted(sizes) == [1, 2]
        merged = next(c for c in store.clusters(owner) if c.size == 2)
        assert set(merged.member_ids) == {turns[0].id, turns[2].id} and second in ids
        expected = (vecs[0] + vecs[2]) / np.linalg.norm(vecs[0] + vecs[2])
        assert np.allclose(centroids[ids.index(merged.id)], expected, atol=1e-5)
    finally:
        store.close()
