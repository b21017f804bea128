"""A deleted turn takes its vectors of every kind along (stores/base.py TURN_VECTOR_KINDS):
the embedder's ("turn") and the second encoder's ("turn2", setting second_encoder)."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np

from pmemo.models import Scope, Turn
from pmemo.stores.base import TURN_VECTOR_KINDS, NewTurn, Store
from pmemo.text.segment import segment

ALICE = Scope.of(user_id="alice", session_id="s1")


def turns(store: Store, n: int) -> list[Turn]:
    return store.turns.add_turns([NewTurn(ALICE, "user", f"turn {i}", None, datetime(2024, 1, 1, tzinfo=UTC), {},
                                    segment(f"turn {i}")) for i in range(n)])


def test_a_deleted_turn_loses_its_vectors_of_every_turn_kind(store: Store):
    a, b = turns(store, 2)
    first, second = np.eye(4, dtype=np.float32)[0], np.eye(3, dtype=np.float32)[1]  # two models, two sizes
    store.vectors.put_vectors("turn", [(a.id, ALICE.key, first), (b.id, ALICE.key, first)], "m1")
    store.vectors.put_vectors("turn2", [(a.id, ALICE.key, second), (b.id, ALICE.key, second)], "m2")
    # searched once first: a backend's cache of a scope hears of the delete too
    assert [ref for ref, _ in store.vectors.nearest("turn2", ALICE.key, second, 5, "m2")] == [a.id, b.id]
    store.turns.delete_turns([a.id])
    for kind in TURN_VECTOR_KINDS:
        assert list(store.vectors.get_vectors(kind, [a.id, b.id])) == [b.id], kind
    assert [ref for ref, _ in store.vectors.nearest("turn", ALICE.key, first, 5, "m1")] == [b.id]
    assert [ref for ref, _ in store.vectors.nearest("turn2", ALICE.key, second, 5, "m2")] == [b.id]
