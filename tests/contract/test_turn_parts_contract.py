"""A long turn's parts (stores/parts.py): one vector per piece, kind "part", ref = turn id ×
PER_TURN + index. ``put_parts`` replaces a turn's parts; a deleted turn takes them along (the
``turns_parts_gone`` trigger of both stores' migrations), and the vector search hears of it."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np

from pmemo.models import Scope, Turn
from pmemo.stores import parts
from pmemo.stores.base import NewTurn, Store
from pmemo.text.segment import segment

ALICE = Scope.of(user_id="alice", session_id="s1")
BOB = Scope.of(user_id="bob", session_id="s1")
EYE = np.eye(6, dtype=np.float32)


def turns(store: Store, scope: Scope, n: int) -> list[Turn]:
    return store.turns.add_turns([NewTurn(scope, "user", f"turn {i}", None, datetime(2024, 1, 1, tzinfo=UTC), {},
                                    segment(f"turn {i}")) for i in range(n)])


def stored(store: Store, turn: Turn) -> list[int]:
    """The indexes of a turn's stored parts."""
    wanted = [parts.ref(turn.id, i) for i in range(8)]
    return sorted(ref - parts.ref(turn.id, 0) for ref in store.vectors.get_vectors(parts.KIND, wanted))


def test_a_long_turn_keeps_a_vector_per_piece_and_a_short_one_none(store: Store):
    long, short = turns(store, ALICE, 2)
    store.vectors.put_parts([(long.id, ALICE.key, EYE[:3]), (short.id, ALICE.key, EYE[3:4])], "m")
    assert stored(store, long) == [0, 1, 2]
    assert stored(store, short) == []  # one piece: its turn vector says it all
    found = store.vectors.nearest(parts.KIND, ALICE.key, EYE[2], 2, "m")
    assert found[0] == (parts.ref(long.id, 2), 1.0) and parts.turn_of(found[0][0]) == long.id
    assert store.vectors.nearest(parts.KIND, BOB.key, EYE[2], 2, "m") == []  # a scope's own only


def test_parts_written_again_replace_the_old_ones_even_when_fewer(store: Store):
    (turn,) = turns(store, ALICE, 1)
    store.vectors.put_parts([(turn.id, ALICE.key, EYE[:4])], "m")
    assert store.vectors.nearest(parts.KIND, ALICE.key, EYE[3], 1, "m")[0][0] == parts.ref(turn.id, 3)  # held in memory
    store.vectors.put_parts([(turn.id, ALICE.key, EYE[4:6])], "m")  # the turn was edited: two pieces now
    assert stored(store, turn) == [0, 1]
    assert [ref for ref, _ in store.vectors.nearest(parts.KIND, ALICE.key, EYE[3], 5, "m")] == [
        parts.ref(turn.id, 0), parts.ref(turn.id, 1)]  # piece 3 went, from the search too
    store.vectors.put_parts([(turn.id, ALICE.key, EYE[:1])], "m")  # short now: no parts at all
    assert stored(store, turn) == [] and store.vectors.nearest(parts.KIND, ALICE.key, EYE[0], 5, "m") == []


def test_a_deleted_turn_takes_its_parts_along_and_leaves_its_neighbours_own(store: Store):
    a, b = turns(store, ALICE, 2)
    store.vectors.put_parts([(a.id, ALICE.key, EYE[:3]), (b.id, ALICE.key, EYE[3:6])], "m")
    assert len(store.vectors.nearest(parts.KIND, ALICE.key, EYE[0], 10, "m")) == 6  # the scope is in memory
    store.turns.delete_turns([a.id])
    assert stored(store, a) == [] and stored(store, b) == [0, 1, 2]
    assert {parts.turn_of(ref) for ref, _ in store.vectors.nearest(parts.KIND, ALICE.key, EYE[0], 10, "m")} == {b.id}
