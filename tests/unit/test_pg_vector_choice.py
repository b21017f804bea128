"""PostgreSQL vector search per scope size (issue 21 §1): a small scope is searched exactly, even
with an HNSW index on the table that the planner would take (a 1%-selective scope filtered after
the graph search returned 0 of 10 rows); a scope past ``ann_min_rows`` goes through the graph
with an iterative scan and still finds its own nearest rows."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from pmemo.embedders.base import normalise
from pmemo.stores.postgres.store import PostgresStore

DIM = 16
MODEL = "m"
SCOPES = 100  # of 100 rows each: each is 1% of the table
PER_SCOPE = 100


def rows(n: int, seed: int) -> np.ndarray:
    return normalise(np.random.default_rng(seed).standard_normal((n, DIM)).astype(np.float32))


@pytest.fixture
def store(postgres_url: str) -> Iterator[PostgresStore]:
    s = PostgresStore.open(postgres_url)
    yield s
    s.close()


def truth(vecs: np.ndarray, refs: list[int], query: np.ndarray, k: int = 10) -> list[int]:
    sims = vecs.astype(np.float64) @ query.astype(np.float64)
    return [refs[i] for i in np.lexsort((refs, -sims))[:k]]


def fill(store: PostgresStore, big: int) -> tuple[np.ndarray, list[str]]:
    """SCOPES scopes of PER_SCOPE rows, then ``big`` rows in scope "big"; ref i is row i - 1."""
    vecs = rows(SCOPES * PER_SCOPE + big, seed=0)
    keys = [f"s{i // PER_SCOPE}" for i in range(SCOPES * PER_SCOPE)] + ["big"] * big
    batch = [(i + 1, keys[i], vecs[i]) for i in range(len(vecs))]
    for start in range(0, len(batch), 1000):
        store.vectors.put_vectors("turn", batch[start : start + 1000], MODEL)
    return vecs, keys


def test_a_one_percent_scope_returns_its_true_top_10(store: PostgresStore) -> None:
    store.vectors.ann_min_rows = 2000  # "big" goes approximate: the table gets its HNSW index
    vecs, keys = fill(store, 2000)
    indexes = [r[0] for r in store._db.rows("SELECT indexname FROM pg_indexes WHERE tablename='vectors'")]  # noqa: SLF001
    assert f"vectors_ann_{DIM}" in indexes
    for scope in range(0, SCOPES, 7):
        members = [i for i, key in enumerate(keys) if key == f"s{scope}"]
        query = rows(1, seed=100 + scope)[0]
        found = store.vectors.nearest("turn", f"s{scope}", query, 10, MODEL)
        assert [ref for ref, _ in found] == truth(vecs[members], [i + 1 for i in members], query)
        assert [score for _, score in found] == pytest.approx(
            sorted((float(vecs[ref - 1] @ query) for ref, _ in found), reverse=True), abs=1e-5)


def test_a_large_scope_is_searched_through_the_graph(store: PostgresStore) -> None:
    store.vectors.ann_min_rows = 2000
    vecs, keys = fill(store, 3000)
    assert store.vectors.approximate() == {("turn", MODEL, "big")}
    marked = store._db.one("SELECT count(*) FROM vectors WHERE ann")  # noqa: SLF001
    assert marked == (3000,)  # the scope's rows, and only they, are in the graph
    members = [i for i, key in enumerate(keys) if key == "big"]
    recalls = []
    for seed in range(20):
        query = rows(1, seed=1000 + seed)[0]
        found = [ref for ref, _ in store.vectors.nearest("turn", "big", query, 10, MODEL)]
        assert len(found) == 10 and all(keys[ref - 1] == "big" for ref in found)
        recalls.append(len(set(found) & set(truth(vecs[members], [i + 1 for i in members], query))) / 10)
    assert np.mean(recalls) >= 0.9
    # rows written later to the large scope go into the graph as they come
    extra = rows(1, seed=5000)[0]
    store.vectors.put_vectors("turn", [(10**6, "big", extra)], MODEL)
    assert store.vectors.nearest("turn", "big", extra, 1, MODEL)[0][0] == 10**6


def test_another_process_sees_a_scope_go_approximate(store: PostgresStore, postgres_url: str) -> None:
    other = PostgresStore.open(postgres_url)
    try:
        assert other.vectors.approximate() == frozenset()  # read now, before the scope grows
        store.vectors.ann_min_rows = 2000
        vecs, keys = fill(store, 2000)
        members = [i for i, key in enumerate(keys) if key == "big"]
        query = rows(1, seed=7)[0]
        # until it reads the marks again, the other process searches the scope exactly
        found = [ref for ref, _ in other.vectors.nearest("turn", "big", query, 10, MODEL)]
        assert found == truth(vecs[members], [i + 1 for i in members], query)
        other.vectors._ann_read = 0.0  # noqa: SLF001 - as ANN_REFRESH_S later
        assert ("turn", MODEL, "big") in other.vectors.approximate()
    finally:
        other.close()
