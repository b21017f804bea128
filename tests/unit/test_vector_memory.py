"""A scope's vector index costs memory in proportion to its vectors; past the memory bound the
least recently used scopes are dropped and read back from the store, with the same results
(issue 18, part 2). On a real SQLite store, fed as the worker feeds it: store first, index next."""

from __future__ import annotations

import gc
import threading
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from pmemo.embedders.base import normalise
from pmemo.retrieval.vector_index import Indexes, ScopeIndex, VectorIndex
from pmemo.stores.sqlite.store import SQLiteStore

DIM = 384  # e5-small's
MODEL = "m"


def rows(n: int, seed: int = 0, dim: int = DIM) -> np.ndarray:
    return normalise(np.random.default_rng(seed).standard_normal((n, dim)).astype(np.float32))


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    s = SQLiteStore.open(tmp_path / "data")
    yield s
    s.close()


def test_a_one_vector_scope_costs_about_its_one_row(store: SQLiteStore) -> None:
    n = 1000
    vecs = rows(n)
    store.put_vectors("turn", [(i + 1, f"s{i}", vecs[i]) for i in range(n)], MODEL)
    indexes = Indexes(DIM, store=store, model_id=MODEL)
    indexes.turns.search("s0", vecs[0], 5)  # the first scope: code paths, connection, caches
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for i in range(1, n):
            assert indexes.turns.search(f"s{i}", vecs[i], 5)[0][0] == i + 1
        gc.collect()
        per_scope = (tracemalloc.get_traced_memory()[0] - before) / (n - 1)
    finally:
        tracemalloc.stop()
    row = vecs[0].nbytes + 8  # the vector and its id
    # the buffers used to start at 256 rows: 256 * 1544 B = 386 KiB of address space per scope
    assert row <= per_scope <= row + 1536
    # what the cache counts for itself (its memory bound) is what is there
    assert 0.8 * per_scope <= indexes.cache.nbytes / n <= 1.25 * per_scope
    assert len(indexes.cache) == n


def test_buffers_start_at_the_rows_needed_and_grow_geometrically() -> None:
    vecs = rows(1000, dim=16)
    index = ScopeIndex(16, 10_000, np.array([1], dtype=np.int64), vecs[:1])
    assert index.capacity == 1
    capacities = {1}
    for i in range(1, 1000):
        index.add(i + 1, vecs[i])
        assert index.search(vecs[i], 1)[0][0] == i + 1  # each search flushes the add
        assert i + 1 <= index.capacity <= 1.25 * (i + 1) + 1
        capacities.add(index.capacity)
    assert len(capacities) <= 35  # reallocated ~30 times for 1000 rows, not 1000
    # deletes give memory back: a dropped row's buffer shrinks to the rows left
    for ref in range(1, 991):
        index.remove(ref)
    assert len(index) == 10 and index.capacity == 10


def test_past_the_bound_the_least_recently_used_scopes_go(store: SQLiteStore) -> None:
    n = 60
    vecs = rows(n)
    store.put_vectors("turn", [(i + 1, f"s{i}", vecs[i]) for i in range(n)], MODEL)
    one = ScopeIndex(DIM, 20_000, np.array([1], dtype=np.int64), vecs[:1]).nbytes
    indexes = Indexes(DIM, store=store, model_id=MODEL, max_bytes=10 * one)
    for i in range(n):
        indexes.turns.search(f"s{i}", vecs[i], 3)
        if i == 55:  # s46..s55 are held: a use keeps s47 while the next four push the others out
            indexes.turns.search("s47", vecs[47], 3)
        assert indexes.cache.nbytes <= 10 * one
    assert len(indexes.cache) == 10 and indexes.cache.evictions == n - 10
    assert {i for i in range(n) if indexes.turns.held(f"s{i}")} == {47, *range(51, 60)}
    # a dropped scope is read back when next searched
    assert indexes.turns.search("s0", vecs[0], 3)[0] == (1, pytest.approx(1.0, abs=1e-5))
    assert indexes.turns.held("s0") and len(indexes.cache) == 10


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_results_are_the_same_with_and_without_eviction(store: SQLiteStore, seed: int) -> None:
    """Random adds, re-embeddings, removals and searches over 30 scopes: an index that holds
    everything in memory (the old behaviour), a lazy unbounded one and one that can hold about
    three scopes at a time return the same ids, and those are the exact top k over the store
    (ties, duplicate vectors included, go to the lower id)."""
    rng = np.random.default_rng(seed)
    pool = rows(40, seed=seed)  # few distinct vectors: many exact ties
    eager = VectorIndex(DIM)
    lazy = Indexes(DIM, store=store, model_id=MODEL)
    bounded = Indexes(DIM, store=store, model_id=MODEL, max_bytes=3 * (1100 + 6 * (DIM * 4 + 108)))
    where: dict[int, str] = {}
    for step in range(700):
        op = rng.integers(10)
        scope = f"s{rng.integers(30)}"
        if op < 4 or not where:  # a new turn, embedded: the store first, then the index
            ref = step + 1
            vec = pool[rng.integers(len(pool))]
            store.put_vectors("turn", [(ref, scope, vec)], MODEL)
            where[ref] = scope
            for index in (eager, lazy.turns, bounded.turns):
                index.add(scope, ref, vec)
        elif op < 5:  # re-embedded
            ref = int(rng.choice(list(where)))
            vec = pool[rng.integers(len(pool))]
            store.put_vectors("turn", [(ref, where[ref], vec)], MODEL)
            for index in (eager, lazy.turns, bounded.turns):
                index.add(where[ref], ref, vec)
        elif op < 6:  # deleted
            ref = int(rng.choice(list(where)))
            store.delete_vectors("turn", [ref])
            for index in (eager, lazy.turns, bounded.turns):
                index.remove(where[ref], ref)
            del where[ref]
        else:
            query = pool[rng.integers(len(pool))] if op < 8 else rows(1, seed=step)[0]
            k = int(rng.integers(1, 8))
            ids, mat = store.scope_vectors("turn", scope, MODEL)
            sims = np.array([np.dot(row.astype(np.float64), query.astype(np.float64)) for row in mat])
            truth = [int(ids[i]) for i in np.lexsort((ids, -sims))[:k]]
            found = [[r for r, _ in index.search(scope, query, k)] for index in (eager, lazy.turns, bounded.turns)]
            assert found == [truth] * 3, step
            refs = [int(r) for r in rng.choice(step + 2, 5)]
            got = [index.vectors(scope, refs) for index in (eager, lazy.turns, bounded.turns)]
            assert got[0][0] == got[1][0] == got[2][0]
            np.testing.assert_array_equal(got[0][1], got[2][1])
    assert bounded.cache.evictions > 20 and lazy.cache.evictions == 0


class PausedStore:
    """The store, whose scope reads stop once their rows are read, until ``go``."""

    def __init__(self, store: SQLiteStore) -> None:
        self.store = store
        self.read = threading.Event()
        self.go = threading.Event()
        self.reads = 0

    def scope_vectors(self, kind: str, scope_key: str, model: str) -> tuple[np.ndarray, np.ndarray]:
        found = self.store.scope_vectors(kind, scope_key, model)
        self.reads += 1
        self.read.set()
        assert self.go.wait(10)
        return found


def test_changes_made_while_a_scope_is_read_are_kept(store: SQLiteStore) -> None:
    vecs = rows(6)
    store.put_vectors("turn", [(1, "s", vecs[0]), (2, "s", vecs[1]), (3, "s", vecs[2])], MODEL)
    paused = PausedStore(store)
    indexes = Indexes(DIM, store=paused, model_id=MODEL)  # type: ignore[arg-type]
    results: dict[str, list[tuple[int, float]]] = {}

    def search(name: str) -> None:
        results[name] = indexes.turns.search("s", vecs[3], 10)

    first = threading.Thread(target=search, args=("first",))
    first.start()
    assert paused.read.wait(10)  # the rows are read; the index does not have them yet
    second = threading.Thread(target=search, args=("second",))
    second.start()  # the same scope: waits for the first read
    # meanwhile the worker writes, the store first: a new turn, a deletion, a re-embedding
    store.put_vectors("turn", [(4, "s", vecs[3])], MODEL)
    indexes.turns.add("s", 4, vecs[3])
    store.delete_vectors("turn", [2])
    indexes.turns.remove("s", 2)
    store.put_vectors("turn", [(1, "s", vecs[4])], MODEL)
    indexes.turns.add("s", 1, vecs[4])
    paused.go.set()
    first.join(10)
    second.join(10)
    assert paused.reads == 1
    for name in ("first", "second"):
        assert results[name][0] == (4, pytest.approx(1.0, abs=1e-5))
        assert sorted(r for r, _ in results[name]) == [1, 3, 4]
    ids, mat = indexes.turns.vectors("s", [1, 2, 3])
    assert ids == [1, 3]
    np.testing.assert_array_equal(mat, vecs[[4, 2]])


def test_changes_to_a_scope_not_in_memory_are_left_to_the_store(store: SQLiteStore) -> None:
    vecs = rows(3)
    indexes = Indexes(DIM, store=store, model_id=MODEL)
    store.put_vectors("turn", [(1, "s", vecs[0])], MODEL)
    indexes.turns.add("s", 1, vecs[0])
    assert not indexes.turns.held("s")  # an ingest-only scope costs no memory
    assert [r for r, _ in indexes.turns.search("s", vecs[0], 5)] == [1]
    assert indexes.turns.held("s")
    assert indexes.turns.search("empty", vecs[0], 5) == []
    assert not indexes.turns.held("empty")  # nothing to keep


def test_a_bound_needs_a_store_to_read_back_from() -> None:
    with pytest.raises(ValueError, match="loader"):
        Indexes(DIM, max_bytes=1 << 20)
