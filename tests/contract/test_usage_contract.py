"""The usage port (``ports.usage``, ``store.quotas``): each tenant's turns, bytes and owner scopes, kept
as turns are written, deleted and restored, and counted the way quota.turn_bytes estimates a
write (so a quota check adds the two)."""

from __future__ import annotations

from datetime import UTC, datetime

from pmemo.models import Scope
from pmemo.quota import turn_bytes
from pmemo.stores.base import FullStore, NewTurn, Usage

T0 = datetime(2024, 3, 4, 9, 0, tzinfo=UTC)
ALICE = Scope.of(user_id="alice", session_id="s1")
ALICE_S2 = Scope.of(user_id="alice", session_id="s2")
TEAM = Scope.of(group_id="team", session_id="s1")
FOREIGN = Scope.of(user_id="alice", session_id="s1", tenant_id="t2")


def new(scope: Scope, text: str, **metadata: object) -> NewTurn:
    return NewTurn(scope, "user", text, None, T0, dict(metadata), text)


def test_usage_counts_turns_bytes_and_scopes_per_tenant(full_store: FullStore):
    s = full_store
    assert s.quotas.usage("default") == Usage(0, 0, 0)
    news = [new(ALICE, "预算10万元"), new(ALICE_S2, "hello", msg_id="3", who="霓霓"), new(TEAM, "hi")]
    a, b, c = s.turns.add_turns(news)
    (f,) = s.turns.add_turns([new(FOREIGN, "theirs")])
    assert s.quotas.usage("default") == Usage(3, sum(map(turn_bytes, news)), 2)  # two sessions, one owner
    assert s.quotas.usage("t2") == Usage(1, len(b"theirs"), 1)
    s.turns.delete_turns([c.id])
    assert s.quotas.usage("default") == Usage(2, turn_bytes(news[0]) + turn_bytes(news[1]), 1)
    s.turns.delete_turns([a.id])
    assert s.quotas.usage("default") == Usage(1, turn_bytes(news[1]), 1)  # the owner still holds a turn
    batch = s.batches.new_batch("forget", "soft", None, "r", "default")
    s.forget.snapshot(batch, "turn", [b.id])
    s.turns.delete_turns([b.id])
    assert s.quotas.usage("default") == Usage(0, 0, 0)
    s.forget.restore_snapshot(batch)  # a restored turn counts again
    assert s.quotas.usage("default") == Usage(1, turn_bytes(news[1]), 1)
    assert s.quotas.usage("t2") == Usage(1, len(b"theirs"), 1) and s.quotas.usage("nobody") == Usage(0, 0, 0)


def test_known_scopes_are_those_holding_turns(full_store: FullStore):
    s = full_store
    (a,) = s.turns.add_turns([new(ALICE, "x")])
    s.turns.add_turns([new(FOREIGN, "y")])
    s.key_lines.add_key(TEAM.owner_scope(), "a key line holds no turn", "user", [])
    asked = [ALICE.key, TEAM.key, FOREIGN.key, "nobody|x|u:y", ALICE.key]
    assert s.quotas.known_scopes(asked) == {ALICE.key, FOREIGN.key}
    assert s.quotas.known_scopes([]) == set()
    s.turns.delete_turns([a.id])
    assert s.quotas.known_scopes(asked) == {FOREIGN.key}


def test_turns_deleted_together_count_their_scope_gone_once(full_store: FullStore):
    s = full_store
    turns = s.turns.add_turns([new(ALICE, "a"), new(ALICE_S2, "b"), new(TEAM, "c"), new(FOREIGN, "d")])
    s.turns.delete_turns([t.id for t in turns])
    assert s.quotas.usage("default") == Usage(0, 0, 0) and s.quotas.usage("t2") == Usage(0, 0, 0)
