"""The windows port contract (``store.l2``, ports/windows.py): L2 windows of consecutive turns of an owner. A
window's members are the owner's turns with an id in its range (none are stored), so a deleted
turn leaves it at once and another owner's turns in between never belong to it."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import numpy as np

from pmemo.models import Scope, Turn
from pmemo.stores.base import FullStore, NewTurn

T0 = datetime(2024, 3, 4, 9, 0, tzinfo=UTC)
TEAM = Scope.of(group_id="team", session_id="s1")
TEAM_S2 = Scope.of(group_id="team", session_id="s2")
OWNER = TEAM.owner_scope()
BOB = Scope.of(user_id="bob", session_id="s1")
FOREIGN = Scope.of(group_id="team", session_id="s1", tenant_id="t2")


def interleaved(store: FullStore) -> tuple[list[Turn], list[Turn]]:
    """Six turns of the team (the last two in session s2) with bob's turns between them."""
    team, bob = [], []
    for i in range(6):
        (t,) = store.turns.add_turns([NewTurn(TEAM if i < 4 else TEAM_S2, "user", f"team {i}", None, T0, {}, "x")])
        (b,) = store.turns.add_turns([NewTurn(BOB, "user", f"bob {i}", None, T0, {}, "x")])
        team.append(t)
        bob.append(b)
    return team, bob


def test_windows_are_saved_changed_and_read_oldest_first(full_store: FullStore):
    s, l2 = full_store, full_store.l2
    team, bob = interleaved(s)
    first = l2.save_window(TEAM, team[0].id, team[2].id, False, "h1")
    assert (first.scope, first.turn_from, first.turn_to, first.open, first.text_hash) == (
        OWNER, team[0].id, team[2].id, False, "h1")
    growing = l2.save_window(OWNER, team[3].id, team[3].id, True)
    assert growing.open and growing.text_hash == ""
    grown = l2.save_window(OWNER, team[3].id, team[5].id, False, "h2", growing.id)
    assert (grown.id, grown.turn_to, grown.open, grown.text_hash) == (growing.id, team[5].id, False, "h2")
    theirs = l2.save_window(BOB, bob[0].id, bob[5].id, False, "hb")
    assert [w.id for w in l2.windows(OWNER)] == [first.id, grown.id]
    assert l2.windows(OWNER, last=1) == [grown]
    assert [w.id for w in l2.windows(OWNER, session_id="s2")] == [grown.id]  # holds a turn of s2
    assert [w.id for w in l2.windows(OWNER, session_id="s1")] == [first.id, grown.id]
    assert l2.windows(OWNER, session_id="nope") == []
    assert l2.get_windows([grown.id, 424242, first.id]) == {grown.id: grown, first.id: first}
    assert l2.get_windows([]) == {}
    assert [w.id for w in l2.windows(BOB.owner_scope())] == [theirs.id]
    assert l2.windows(FOREIGN.owner_scope()) == []


def test_members_are_the_owners_turns_in_the_range(full_store: FullStore):
    s, l2 = full_store, full_store.l2
    team, bob = interleaved(s)
    window = l2.save_window(OWNER, team[0].id, team[3].id, False, "h")
    other = l2.save_window(OWNER, team[4].id, team[5].id, False, "h")
    assert [t.id for t in l2.window_turns(window)] == [t.id for t in team[:4]]  # bob's turns between are not
    assert l2.window_turns(window)[0].content == "team 0"
    assert l2.window_members([other.id, window.id, 424242]) == {
        window.id: [t.id for t in team[:4]], other.id: [team[4].id, team[5].id]}
    assert l2.window_members([]) == {}
    assert {w.id for w in l2.windows_with([team[1].id, team[5].id])} == {window.id, other.id}
    assert l2.windows_with([bob[1].id]) == [] and l2.windows_with([]) == []


def test_a_deleted_turn_leaves_its_window_at_once(full_store: FullStore):
    s, l2 = full_store, full_store.l2
    team, _ = interleaved(s)
    window = l2.save_window(OWNER, team[0].id, team[2].id, False, "h")
    assert [w.id for w in l2.windows_with([team[1].id])] == [window.id]  # read before the delete
    s.turns.delete_turns([team[1].id])
    assert [t.id for t in l2.window_turns(window)] == [team[0].id, team[2].id]
    assert l2.window_members([window.id]) == {window.id: [team[0].id, team[2].id]}
    s.turns.delete_turns([team[0].id, team[2].id])
    assert l2.window_turns(window) == [] and l2.window_members([window.id]) == {}


def test_open_windows_and_quiet_ones(full_store: FullStore):
    s, l2 = full_store, full_store.l2
    team, bob = interleaved(s)
    l2.save_window(OWNER, team[0].id, team[1].id, False, "h")
    mine = l2.save_window(OWNER, team[2].id, team[2].id, True)
    theirs = l2.save_window(BOB, bob[0].id, bob[0].id, True)
    assert {w.id for w in l2.open_windows()} == {mine.id, theirs.id}  # every owner's: the worker's view
    assert {w.id for w in l2.open_windows(quiet_since=time.time() + 60)} == {mine.id, theirs.id}
    assert l2.open_windows(quiet_since=time.time() - 3600) == []  # both changed since
    l2.save_window(OWNER, team[2].id, team[3].id, False, "h3", mine.id)
    assert [w.id for w in l2.open_windows()] == [theirs.id]


def test_delete_window_takes_its_vector(full_store: FullStore):
    s, l2 = full_store, full_store.l2
    team, _ = interleaved(s)
    window = l2.save_window(OWNER, team[0].id, team[1].id, False, "h")
    kept = l2.save_window(OWNER, team[2].id, team[3].id, False, "h")
    s.vectors.put_vectors("window", [(window.id, OWNER.key, np.ones(4, np.float32)),
                             (kept.id, OWNER.key, np.ones(4, np.float32))], "m")
    l2.delete_window(window.id)
    assert l2.get_windows([window.id]) == {} and [w.id for w in l2.windows(OWNER)] == [kept.id]
    assert set(s.vectors.get_vectors("window", [window.id, kept.id])) == {kept.id}


def test_the_old_method_names_are_the_ports_calls(full_store: FullStore):
    s = full_store
    team, _ = interleaved(s)
    window = s.save_window(OWNER, team[0].id, team[1].id, True, "h")
    assert s.windows(OWNER) == s.l2.windows(OWNER) == [window] and s.open_windows() == [window]
    assert s.window_members([window.id]) == s.l2.window_members([window.id])
