"""No search waits on a graph build (issue 21 §6): a scope past ``faiss_min`` is answered exactly
while its HNSW graph is built on the background thread, then from the graph, and rows added
after the graph are searched exactly until the graph is grown by them. The build is held by a
gate queued ahead of it on the store's one build thread, not by a clock."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from pmemo.embedders.base import normalise
from pmemo.stores.sqlite.store import SQLiteStore
from pmemo.stores.sqlite.vector_cache import CATCH_UP, VectorIndex

DIM = 16
MODEL = "m"
FAISS_MIN = 200


def rows(n: int, seed: int = 0) -> np.ndarray:
    return normalise(np.random.default_rng(seed).standard_normal((n, DIM)).astype(np.float32))


def truth(store: SQLiteStore, query: np.ndarray, k: int) -> list[int]:
    """The exact top k over what the store holds, ties to the lower id."""
    ids, mat = store.vectors.scope_vectors("turn", "s", MODEL)
    sims = mat.astype(np.float64) @ query.astype(np.float64)
    return [int(ids[i]) for i in np.lexsort((ids, -sims))[:k]]


def found(store: SQLiteStore, query: np.ndarray, k: int = 10) -> list[int]:
    return [ref for ref, _ in store.vectors.nearest("turn", "s", query, k, MODEL)]


def graph(store: SQLiteStore) -> int:
    return store.vector_cache.graph_rows("turn", "s", MODEL)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    s = SQLiteStore.open(tmp_path, faiss_min_vectors=FAISS_MIN)
    yield s
    s.close()


def hold(store: SQLiteStore) -> threading.Event:
    """A gate on the build thread: what is queued after it waits until it is set."""
    gate = threading.Event()
    store.vector_cache.builds.submit(gate.wait, 10)
    return gate


def test_a_search_during_the_build_answers_exactly(store: SQLiteStore) -> None:
    vecs = rows(3 * FAISS_MIN)
    store.vectors.put_vectors("turn", [(i + 1, "s", v) for i, v in enumerate(vecs[:FAISS_MIN])], MODEL)
    gate = hold(store)
    queries = rows(20, seed=1)
    assert [found(store, q) for q in queries] == [truth(store, q, 10) for q in queries]  # the build is queued
    # writes while the graph is being built: new rows, a deletion, all searched exactly
    store.vectors.put_vectors("turn", [(i + 1, "s", v) for i, v in enumerate(vecs) if i >= FAISS_MIN], MODEL)
    store.vectors.delete_vectors("turn", [int(found(store, queries[0])[0])])
    assert [found(store, q) for q in queries] == [truth(store, q, 10) for q in queries]
    assert graph(store) == 0
    gate.set()
    store.vector_cache.settle()
    # the graph holds the rows it was built from; the later ones are searched exactly beside it
    assert graph(store) == FAISS_MIN
    assert [found(store, q) for q in queries] == [truth(store, q, 10) for q in queries]


def test_rows_added_after_the_graph_grow_it_in_the_background() -> None:
    vecs = rows(FAISS_MIN + CATCH_UP + 10)
    index = VectorIndex(DIM, FAISS_MIN)
    for i, v in enumerate(vecs[:FAISS_MIN]):
        index.add("s", i + 1, v)
    index.search("s", vecs[0], 5)
    index.builds.submit(lambda: None).result()
    assert index.graph_rows("s") == FAISS_MIN
    for i, v in enumerate(vecs[FAISS_MIN:], start=FAISS_MIN):
        index.add("s", i + 1, v)
    gate = threading.Event()
    index.builds.submit(gate.wait, 10)
    last = len(vecs)
    assert index.search("s", vecs[-1], 1)[0][0] == last  # a row the graph lacks, found exactly
    gate.set()
    index.builds.submit(lambda: None).result()
    assert index.graph_rows("s") == last
    assert index.search("s", vecs[-1], 1)[0][0] == last


def test_a_graph_of_rows_that_moved_meanwhile_is_not_used(store: SQLiteStore) -> None:
    vecs = rows(FAISS_MIN + 1)
    store.vectors.put_vectors("turn", [(i + 1, "s", v) for i, v in enumerate(vecs)], MODEL)
    gate = hold(store)
    found(store, vecs[0])  # queues the build
    store.vectors.put_vectors("turn", [(1, "s", vecs[-1])], MODEL)  # re-embedded: its row moves
    before = found(store, vecs[-1], 3)
    gate.set()
    store.vector_cache.settle()
    assert graph(store) == 0  # the graph of the old rows is dropped; this search asks again
    assert found(store, vecs[-1], 3) == before == truth(store, vecs[-1], 3)
    store.vector_cache.settle()
    assert graph(store) == FAISS_MIN + 1
    assert found(store, vecs[-1], 3) == truth(store, vecs[-1], 3)
