"""What the core Store contract (test_store_contract.py) leaves out: idempotent writes
(``Once`` / ``replay``), the store's size on disk, and closing (a restart keeps everything)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest

from pmemo.errors import Conflict
from pmemo.models import Scope
from pmemo.stores.base import FullStore, NewTurn, Once

T0 = datetime(2024, 3, 4, 9, 0, tzinfo=UTC)
ALICE = Scope.of(user_id="alice", session_id="s1")


def new(text: str, scope: Scope = ALICE) -> NewTurn:
    return NewTurn(scope, "user", text, None, T0, {}, text)


def test_a_write_retried_with_its_key_stores_nothing_twice(full_store: FullStore):
    s = full_store
    once = Once("default", "req-1", "fp-1")
    assert s.turns.replay(once) is None
    first = s.turns.add_turns([new("a"), new("b")], once)
    assert s.turns.replay(once) == first
    assert s.turns.add_turns([new("a"), new("b")], once) == first  # the retry gets the first write's turns
    assert len(s.turns.turn_ids(ALICE.owner_scope())) == 2
    with pytest.raises(Conflict):
        s.turns.add_turns([new("other")], Once("default", "req-1", "fp-2"))  # the key, for other turns
    with pytest.raises(Conflict):
        s.turns.replay(Once("default", "req-1", "fp-2"))
    assert s.turns.replay(Once("t2", "req-1", "fp-1")) is None  # keys are per tenant
    s.turns.delete_turns([first[0].id])
    assert s.turns.replay(once) == first[1:]  # a forgotten turn is not handed back


def test_size_bytes_grows_with_what_is_stored(full_store: FullStore):
    s = full_store
    before = s.size_bytes()
    assert before > 0
    s.turns.add_turns([new(f"turn {i} " + "x" * 2000) for i in range(300)])
    assert s.size_bytes() > before


def test_closing_and_opening_again_keeps_everything(reopen: Callable[[], FullStore]):
    s = reopen()
    (turn,) = s.turns.add_turns([new("remember me")])
    s.add_person("default", "ni", "Nini", [])
    episode = s.episodes.add_episode(ALICE, "session", {"summary": "e", "started": 0.0, "ended": 0.0}, [turn.id])
    s.close()
    again = reopen()
    try:
        assert again.turns.get_turns([turn.id])[turn.id].content == "remember me"
        assert again.get_people("default", ["ni"])["ni"].name == "Nini"
        assert again.episodes.get_episode(episode.id) == episode
        assert again.turns.add_turns([new("after")])[0].step == 2
    finally:
        again.close()
