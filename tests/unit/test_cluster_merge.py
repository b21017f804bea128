"""Past ``max_clusters`` a scope's two closest clusters merge (the new turn included), with the
centroids just read: the merge does not read them again, and a new turn that is one of the pair
joins the other instead of making a cluster that is merged away at once. A batch
(``Tiers.batch``) reads a scope's centroids once and keeps them current with its own writes."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from pmemo.config import Settings
from pmemo.embedders.cached import CachedEmbedder
from pmemo.embedders.hashing import HashingEmbedder
from pmemo.models import Scope, Turn
from pmemo.stores.base import NewTurn
from pmemo.stores.sqlite.store import SQLiteStore
from pmemo.tiers import mid_term
from pmemo.tiers.services import Tiers

SCOPE = Scope.of(user_id="ann", session_id="s1")
OWNER = SCOPE.owner_scope()
NOW = datetime(2024, 5, 1, tzinfo=UTC)


def unit(*values: float) -> np.ndarray:
    v = np.array(values, dtype=np.float32)
    return v / np.linalg.norm(v)


@contextlib.contextmanager
def chat(path: Path, vecs: list[np.ndarray], max_clusters: int,
         threshold: float) -> Iterator[tuple[SQLiteStore, Tiers, list[Turn]]]:
    """A store holding one turn per vector (its vector stored), and the tiers over it."""
    store = SQLiteStore.open(path)
    try:
        tiers = Tiers(store, CachedEmbedder(HashingEmbedder(len(vecs[0])), store.embed_cache), None,
                      Settings(max_clusters=max_clusters, cluster_threshold=threshold))
        turns = store.turns.add_turns([NewTurn(SCOPE, "user", f"turn {n}", None, NOW, {}, f"turn {n}")
                                 for n in range(len(vecs))])
        store.vectors.put_vectors("turn", [(t.id, SCOPE.key, v) for t, v in zip(turns, vecs, strict=True)], "m")
        yield store, tiers, turns
    finally:
        store.close()


def test_a_turn_past_the_cap_joins_the_cluster_it_is_closest_to(tmp_path) -> None:
    vecs = [unit(1, 0, 0, 0), unit(0, 0, 1, 0), unit(0.9, 0.1, 0, 0)]  # the third is near the first
    with chat(tmp_path, vecs, max_clusters=2, threshold=0.99) as (store, tiers, turns):
        first, second, third = (tiers.absorb(t, v) for t, v in zip(turns, vecs, strict=True))
        ids, centroids, sizes = store.clusters.centroids(OWNER)
        assert len(ids) == 2 and sorted(sizes) == [1, 2]
        merged = next(c for c in store.clusters.of_scope(OWNER) if c.size == 2)
        assert set(merged.member_ids) == {turns[0].id, turns[2].id} and second in ids
        assert third == first == merged.id  # joined: no cluster made and merged away
        expected = (vecs[0] + vecs[2]) / np.linalg.norm(vecs[0] + vecs[2])
        assert np.allclose(centroids[ids.index(merged.id)], expected, atol=1e-5)


def test_past_the_cap_the_closest_two_clusters_merge_and_the_turn_gets_its_own(tmp_path) -> None:
    vecs = [unit(1, 0, 0, 0), unit(0.95, 0.3, 0, 0), unit(0, 0, 1, 0)]  # the first two are closest
    with chat(tmp_path, vecs, max_clusters=2, threshold=0.999) as (store, tiers, turns):
        first, second, third = (tiers.absorb(t, v) for t, v in zip(turns, vecs, strict=True))
        clusters = {c.id: set(c.member_ids) for c in store.clusters.of_scope(OWNER)}
        assert clusters == {first: {turns[0].id, turns[1].id}, third: {turns[2].id}} and second not in clusters


def test_a_label_is_made_again_when_a_cluster_passes_a_power_of_two() -> None:
    assert mid_term.relabel_due(1, 2) and mid_term.relabel_due(7, 8) and mid_term.relabel_due(5, 8)
    assert mid_term.relabel_due(5, 9)  # a merge of 5 and 4 (5 the larger part): 8 is passed
    assert not mid_term.relabel_due(2, 3) and not mid_term.relabel_due(9, 15) and not mid_term.relabel_due(8, 9)


def test_a_batch_reads_a_scopes_centroids_once_and_clusters_as_one_turn_at_a_time(tmp_path) -> None:
    """The clusters come out as they do when every turn reads the centroids again."""
    rng = np.random.default_rng(5)
    vecs = [unit(*rng.normal(size=4)) for _ in range(40)]
    outcomes = []
    for batched in (False, True):
        with chat(tmp_path / str(batched), vecs, max_clusters=5, threshold=0.9) as (store, tiers, turns):
            reads: list[Scope] = []
            read = store.clusters.centroids
            store.clusters.centroids = (  # type: ignore[method-assign]
                lambda scope, reads=reads, read=read: reads.append(scope) or read(scope))
            with tiers.batch() if batched else contextlib.nullcontext():
                for t, v in zip(turns, vecs, strict=True):
                    tiers.absorb(t, v)
            assert len(reads) == (1 if batched else len(vecs))
            ids, centroids, sizes = read(OWNER)
            members = {c.id: c.member_ids for c in store.clusters.of_scope(OWNER)}
            outcomes.append((ids, np.round(centroids, 5).tolist(), sizes, members))
    assert outcomes[0] == outcomes[1] and len(outcomes[0][0]) == 5


def test_a_batch_whose_cluster_went_meanwhile_reads_the_scopes_again(tmp_path) -> None:
    vecs = [unit(1, 0, 0, 0), unit(1, 0.1, 0, 0), unit(1, 0.05, 0, 0)]
    with chat(tmp_path, vecs, max_clusters=5, threshold=0.9) as (store, tiers, turns), tiers.batch():
        first = tiers.absorb(turns[0], vecs[0])
        assert tiers.absorb(turns[1], vecs[1]) == first
        store.clusters.delete_cluster(first)  # as a rebuild in another process would
        again = tiers.absorb(turns[2], vecs[2])
        assert again != first and [c.member_ids for c in store.clusters.of_scope(OWNER)] == [(turns[2].id,)]
