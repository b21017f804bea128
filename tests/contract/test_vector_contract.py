"""VectorStore.nearest (stores/base.py): vector search is the store's, in step with every write.

Each test searches once before it changes anything, so a backend that keeps a cache (SQLite's
in-memory index) is held to what the store holds, not only to what it read on a first search.
"""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import pytest

from pmemo.models import Scope, Turn
from pmemo.stores.base import FullStore, NewTurn, Store
from pmemo.text.segment import segment

ALICE = Scope.of(user_id="alice", session_id="s1")
BOB = Scope.of(user_id="bob", session_id="s1")
OTHER_TENANT = Scope.of(user_id="alice", session_id="s1", tenant_id="t2")
MODEL = "m1"


def unit(*values: float) -> np.ndarray:
    v = np.asarray(values, dtype=np.float32)
    return v / np.linalg.norm(v)


def turns(store: Store, scope: Scope, n: int) -> list[Turn]:
    return store.turns.add_turns([NewTurn(scope, "user", f"turn {i}", None, datetime(2024, 1, 1, tzinfo=UTC), {},
                                    segment(f"turn {i}")) for i in range(n)])


def ids(found: list[tuple[int, float]]) -> list[int]:
    return [ref for ref, _ in found]


def test_nearest_is_best_first_by_cosine(store: Store):
    a, b, c, d = turns(store, ALICE, 4)
    vectors = {a.id: unit(1, 0, 0), b.id: unit(1, 1, 0), c.id: unit(0, 1, 0), d.id: unit(-1, 0, 0)}
    store.vectors.put_vectors("turn", [(ref, ALICE.key, v) for ref, v in vectors.items()], MODEL)
    query = unit(1, 0.2, 0)
    found = store.vectors.nearest("turn", ALICE.key, query, 3, MODEL)
    assert ids(found) == [a.id, b.id, c.id]
    for ref, score in found:
        assert score == pytest.approx(float(vectors[ref] @ query), abs=1e-5)
    assert [s for _, s in found] == sorted((s for _, s in found), reverse=True)


def test_nearest_keeps_to_one_scope_kind_and_model(store: Store):
    (a,) = turns(store, ALICE, 1)
    (b,) = turns(store, BOB, 1)
    (c,) = turns(store, OTHER_TENANT, 1)
    (d,) = turns(store, ALICE, 1)
    same = unit(0, 0, 1)
    store.vectors.put_vectors("turn", [(a.id, ALICE.key, same), (b.id, BOB.key, same), (c.id, OTHER_TENANT.key, same)],
                      MODEL)
    store.vectors.put_vectors("turn", [(d.id, ALICE.key, same)], "another-model")
    summary = store.summaries.add_summary(ALICE.owner_scope(), 1, 1, "a summary", "extractive", [a.id])
    store.vectors.put_vectors("summary", [(summary.id, ALICE.key, same)], MODEL)
    assert ids(store.vectors.nearest("turn", ALICE.key, same, 10, MODEL)) == [a.id]
    assert ids(store.vectors.nearest("turn", BOB.key, same, 10, MODEL)) == [b.id]
    assert ids(store.vectors.nearest("turn", OTHER_TENANT.key, same, 10, MODEL)) == [c.id]
    assert ids(store.vectors.nearest("turn", ALICE.key, same, 10, "another-model")) == [d.id]
    assert ids(store.vectors.nearest("summary", ALICE.key, same, 10, MODEL)) == [summary.id]


def test_k_larger_than_the_scope_gives_all_of_it_and_an_empty_scope_nothing(store: Store):
    a, b = turns(store, ALICE, 2)
    store.vectors.put_vectors("turn", [(a.id, ALICE.key, unit(1, 0)), (b.id, ALICE.key, unit(0, 1))], MODEL)
    assert ids(store.vectors.nearest("turn", ALICE.key, unit(1, 0), 50, MODEL)) == [a.id, b.id]
    assert store.vectors.nearest("turn", BOB.key, unit(1, 0), 5, MODEL) == []
    assert store.vectors.nearest("turn", ALICE.key, unit(1, 0), 5, "never-used") == []
    assert store.vectors.nearest("window", ALICE.key, unit(1, 0), 5, MODEL) == []


def test_writes_are_seen_at_once_after_a_search(store: Store):
    a, b, c = turns(store, ALICE, 3)
    store.vectors.put_vectors("turn", [(a.id, ALICE.key, unit(1, 0, 0))], MODEL)
    assert ids(store.vectors.nearest("turn", ALICE.key, unit(0, 1, 0), 5, MODEL)) == [a.id]  # the scope is searched
    store.vectors.put_vectors("turn", [(b.id, ALICE.key, unit(0, 1, 0)), (c.id, ALICE.key, unit(0, 0, 1))], MODEL)
    assert ids(store.vectors.nearest("turn", ALICE.key, unit(0, 1, 0), 5, MODEL))[0] == b.id
    store.vectors.delete_vectors("turn", [b.id])
    assert ids(store.vectors.nearest("turn", ALICE.key, unit(0, 1, 0), 5, MODEL)) in ([a.id, c.id], [c.id, a.id])
    store.vectors.delete_vectors("turn", [a.id, c.id])
    assert store.vectors.nearest("turn", ALICE.key, unit(0, 1, 0), 5, MODEL) == []


def test_a_vector_put_again_replaces_the_old_one(store: Store):
    a, b = turns(store, ALICE, 2)
    store.vectors.put_vectors("turn", [(a.id, ALICE.key, unit(1, 0)), (b.id, ALICE.key, unit(0.6, 0.8))], MODEL)
    assert ids(store.vectors.nearest("turn", ALICE.key, unit(1, 0), 5, MODEL)) == [a.id, b.id]
    store.vectors.put_vectors("turn", [(a.id, ALICE.key, unit(0, 1))], MODEL)
    found = store.vectors.nearest("turn", ALICE.key, unit(1, 0), 5, MODEL)
    assert ids(found) == [b.id, a.id]
    assert found[1][1] == pytest.approx(0.0, abs=1e-5)
    # embedded again by another model: the row is the new model's, gone from the old one's search
    store.vectors.put_vectors("turn", [(b.id, ALICE.key, unit(1, 0))], "m2")
    assert ids(store.vectors.nearest("turn", ALICE.key, unit(1, 0), 5, MODEL)) == [a.id]
    assert ids(store.vectors.nearest("turn", ALICE.key, unit(1, 0), 5, "m2")) == [b.id]


def test_deleting_turns_and_summaries_takes_their_vectors_out_of_search(store: Store):
    a, b = turns(store, ALICE, 2)
    summary = store.summaries.add_summary(ALICE.owner_scope(), 1, 2, "a summary", "extractive", [a.id, b.id])
    store.vectors.put_vectors("turn", [(a.id, ALICE.key, unit(1, 0)), (b.id, ALICE.key, unit(0, 1))], MODEL)
    store.vectors.put_vectors("summary", [(summary.id, ALICE.key, unit(1, 1))], MODEL)
    assert len(store.vectors.nearest("turn", ALICE.key, unit(1, 0), 5, MODEL)) == 2
    assert ids(store.vectors.nearest("summary", ALICE.key, unit(1, 0), 5, MODEL)) == [summary.id]
    store.turns.delete_turns([a.id])
    store.summaries.delete_summary(summary.id)
    assert ids(store.vectors.nearest("turn", ALICE.key, unit(1, 0), 5, MODEL)) == [b.id]
    assert store.vectors.nearest("summary", ALICE.key, unit(1, 0), 5, MODEL) == []


def test_a_restored_forget_is_found_again_and_a_purged_one_is_not(full_store: FullStore):
    s = full_store
    a, b = turns(s, ALICE, 2)
    s.vectors.put_vectors("turn", [(a.id, ALICE.key, unit(1, 0)), (b.id, ALICE.key, unit(0, 1))], MODEL)
    assert ids(s.vectors.nearest("turn", ALICE.key, unit(1, 0), 5, MODEL)) == [a.id, b.id]
    batch = s.batches.new_batch("forget", "soft", ALICE.key, "test")
    s.forget.snapshot(batch, "turn", [a.id])
    s.turns.delete_turns([a.id])
    assert ids(s.vectors.nearest("turn", ALICE.key, unit(1, 0), 5, MODEL)) == [b.id]
    s.forget.restore_snapshot(batch)
    assert ids(s.vectors.nearest("turn", ALICE.key, unit(1, 0), 5, MODEL)) == [a.id, b.id]
    again = s.batches.new_batch("forget", "hard", ALICE.key, "test")
    s.forget.snapshot(again, "turn", [a.id])
    s.turns.delete_turns([a.id])
    s.forget.purge_batch(again)
    assert ids(s.vectors.nearest("turn", ALICE.key, unit(1, 0), 5, MODEL)) == [b.id]
