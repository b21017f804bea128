"""The in-memory vector index: exact and HNSW search, removal, replacement, lookups."""

from __future__ import annotations

import numpy as np
import pytest

from pmemo.embedders.base import normalise
from pmemo.stores.sqlite.vector_cache import VectorIndex


def rows(n: int, dim: int = 16, seed: int = 0) -> np.ndarray:
    return normalise(np.random.default_rng(seed).standard_normal((n, dim)).astype(np.float32))


@pytest.mark.parametrize("faiss_min", [10_000, 50])  # exact numpy, then FAISS HNSW
def test_search_finds_the_nearest_and_skips_removed(faiss_min: int) -> None:
    vecs = rows(300)
    index = VectorIndex(16, faiss_min)
    for i, v in enumerate(vecs):
        index.add("a", i + 1, v)
    index.add("b", 1000, vecs[7])
    assert index.search("a", vecs[7], 1) == [(8, pytest.approx(1.0, abs=1e-5))]
    index.remove("a", 8)
    assert 8 not in [r for r, _ in index.search("a", vecs[7], 5)]
    assert index.size("a") == 299 and index.size("b") == 1
    assert index.search("b", vecs[7], 5) == [(1000, pytest.approx(1.0, abs=1e-5))]
    for i in range(300, 700):  # appends after the first search keep every row findable
        index.add("a", i + 1, rows(1, seed=i)[0])
    assert index.search("a", rows(1, seed=650)[0], 1)[0][0] == 651
    assert index.size("a") == 699


def test_vectors_returns_stored_rows_without_removed_or_foreign_ones() -> None:
    vecs = rows(5)
    index = VectorIndex(16)
    for i, v in enumerate(vecs):
        index.add("a", i + 1, v)
    index.add("b", 99, vecs[0])
    index.remove("a", 2)
    ids, mat = index.vectors("a", [5, 2, 1, 99, 42])
    assert ids == [5, 1]
    np.testing.assert_allclose(mat, vecs[[4, 0]])
    assert index.vectors("nobody", [1])[0] == []


def test_a_re_added_ref_keeps_only_its_new_vector() -> None:
    old, new = rows(2)
    index = VectorIndex(16)
    index.add("a", 1, old)
    assert index.search("a", old, 5)[0][0] == 1
    index.add("a", 1, new)
    assert [r for r, _ in index.search("a", new, 5)] == [1]
    np.testing.assert_allclose(index.vectors("a", [1])[1][0], new)
    assert index.size("a") == 1
