"""The ProfileStoreProtocol contract (stores/base.py): facts (the port ``store.profile``), episodes, tasks
and records.

Facts are written the way pipelines/extraction.upsert writes them: the upsert rules
(tiers.profile.decide) read the scope's history and the store applies the decision, with a
version check. Forget batches, snapshots and soft deletes are in test_forget_contract.py.
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from pmemo.errors import Conflict, InvalidInput, NotFound
from pmemo.models import Candidate, Decision, Fact, Scope, TaskStep, Turn
from pmemo.stores.base import FullStore, NewTurn
from pmemo.tiers.profile import decide

T0 = datetime(2024, 3, 4, 9, 0, tzinfo=UTC)
AT = T0.timestamp()
ALICE = Scope.of(user_id="alice", session_id="s1")
BOB = Scope.of(user_id="bob", session_id="s1")
TEAM = Scope.of(group_id="team", session_id="s1")
ELSEWHERE = Scope.of(group_id="team", session_id="s1", tenant_id="t2")  # same names, another tenant
OTHER_AGENT = Scope.of(user_id="alice", session_id="s1", agent_id="bot2")


def say(store: FullStore, scope: Scope, *texts: str, minutes: int = 0) -> list[Turn]:
    return store.turns.add_turns([NewTurn(scope, "user", text, None, T0 + timedelta(minutes=minutes + i), {}, text)
                            for i, text in enumerate(texts)])


def state(store: FullStore, scope: Scope, key: str, value: str, confidence: float, turn_id: int | None,
          at: float = AT, *, subject: str | None = None, source: str = "explicit",
          expires: float | None = None, mentioned: tuple[str, ...] = ()) -> Fact | None:
    """One statement through the upsert rules, as pipelines/extraction.upsert applies it."""
    cand = Candidate("preference", key, value, confidence, source, 0.5, expires, subject, mentioned)
    owner = scope.owner_scope()
    decision = decide(cand, store.profile.facts(owner, history=True, subject=subject),
                      turn_id if turn_id is not None else -1)
    return store.profile.upsert_fact(owner, decision, cand, turn_id, at)


def owner(scope: Scope) -> Scope:
    return scope.owner_scope()


# ---- facts ----------------------------------------------------------------------------------
def test_a_fact_is_inserted_reinforced_and_superseded_with_its_history(full_store: FullStore):
    s = full_store
    a, b, c = say(s, ALICE, "I like tea", "I really like tea", "now I prefer coffee")
    first = state(s, ALICE, "drink", "tea", 0.7, a.id)
    assert first is not None
    assert (first.key, first.value, first.status, first.version, first.mentions) == ("drink", "tea", "current", 1, 1)
    assert first.sources == (a.id,) and first.scope == owner(ALICE) and first.valid_to is None
    assert first.valid_from == T0 and first.subject_id is None
    again = state(s, ALICE, "drink", "tea", 0.7, b.id, AT + 60)
    assert again is not None and again.id == first.id
    assert (again.mentions, again.version, set(again.sources)) == (2, 2, {a.id, b.id})
    assert again.confidence > first.confidence and again.last_seen == T0 + timedelta(minutes=1)
    assert state(s, ALICE, "drink", "tea", 0.7, b.id, AT + 60) == again  # a re-run turn changes nothing
    new = state(s, ALICE, "drink", "coffee", 0.9, c.id, AT + 120)
    assert new is not None and new.id != first.id
    assert (new.value, new.status, new.version, new.sources) == ("coffee", "current", 3, (c.id,))
    old = s.profile.get_fact(first.id)
    assert old is not None and (old.status, old.valid_to) == ("superseded", T0 + timedelta(minutes=2))
    assert [f.id for f in s.profile.facts(owner(ALICE))] == [new.id]
    assert {f.id for f in s.profile.facts(owner(ALICE), history=True)} == {first.id, new.id}
    assert s.profile.get_fact(424242) is None


def test_a_weaker_different_value_is_a_conflict_not_the_current_fact(full_store: FullStore):
    s = full_store
    a, b, c = say(s, ALICE, "tea", "coffee maybe", "coffee for sure")
    tea = state(s, ALICE, "drink", "tea", 0.8, a.id)
    rival = state(s, ALICE, "drink", "coffee", 0.5, b.id)
    assert tea is not None and rival is not None and rival.status == "conflict"
    assert [f.value for f in s.profile.facts(owner(ALICE))] == ["tea"]  # a conflict is not current
    assert {f.status for f in s.profile.facts(owner(ALICE), history=True)} == {"current", "conflict"}
    won = state(s, ALICE, "drink", "coffee", 0.9, c.id)  # stated surely: the conflict row takes over
    assert won is not None and won.id == rival.id and won.status == "current"
    assert set(won.sources) == {b.id, c.id}
    assert s.profile.get_fact(tea.id).status == "superseded"  # type: ignore[union-attr]


def test_an_upsert_decided_on_a_stale_read_is_a_conflict(full_store: FullStore):
    s = full_store
    a, b, c = say(s, ALICE, "tea", "tea again", "coffee")
    state(s, ALICE, "drink", "tea", 0.7, a.id)
    stale = s.profile.facts(owner(ALICE), history=True)
    state(s, ALICE, "drink", "tea", 0.7, b.id)  # another writer got there first
    for value, conf in (("tea", 0.7), ("coffee", 0.9)):  # reinforce, supersede
        cand = Candidate("preference", "drink", value, conf)
        with pytest.raises(Conflict):
            s.profile.upsert_fact(owner(ALICE), decide(cand, stale, c.id), cand, c.id, AT)
    assert [(f.value, f.mentions) for f in s.profile.facts(owner(ALICE), history=True)] == [("tea", 2)]
    skip = Decision("skip", "drink", 0.7, stale[0])
    assert s.profile.upsert_fact(owner(ALICE), skip, Candidate("preference", "drink", "tea", 0.7), c.id, AT) == stale[0]


def test_facts_by_subject_and_facts_about_a_person_across_chats(full_store: FullStore):
    s = full_store
    (t1,) = say(s, TEAM, "ni likes cats")
    (t2,) = say(s, Scope.of(group_id="book-club", session_id="x"), "ni likes books")
    (t3,) = say(s, Scope.of(user_id="ni", session_id="p"), "I like tea")
    (t4,) = say(s, TEAM, "we meet on fridays")
    cats = state(s, TEAM, "pet", "cats", 0.8, t1.id, subject="ni", mentioned=("bo",))
    books = state(s, Scope.of(group_id="book-club"), "genre", "books", 0.8, t2.id, subject="ni")
    tea = state(s, Scope.of(user_id="ni"), "drink", "tea", 0.8, t3.id, subject="ni")
    ours = state(s, TEAM, "meeting", "friday", 0.8, t4.id)
    state(s, ELSEWHERE, "pet", "dogs", 0.8, None, subject="ni")
    assert cats is not None and books is not None and tea is not None and ours is not None
    assert cats.subject_id == "ni" and cats.mentioned == ("bo",) and cats.learned_in == "g:team"
    assert {f.id for f in s.profile.facts(owner(TEAM))} == {cats.id, ours.id}  # "*": about anyone
    assert [f.id for f in s.profile.facts(owner(TEAM), subject="ni")] == [cats.id]
    assert [f.id for f in s.profile.facts(owner(TEAM), subject=None)] == [ours.id]  # about the owner
    assert s.profile.facts(owner(TEAM), subject="bo") == []  # mentioned is not about
    assert {f.id for f in s.profile.facts_about("default", "default", "ni")} == {cats.id, books.id, tea.id}
    assert [f.id for f in s.profile.facts_about("default", "default", "ni", owners=["g:team", "u:nobody"])] == [cats.id]
    assert s.profile.facts_about("default", "default", "ni", owners=[]) == []
    assert s.profile.facts_about("default", "bot2", "ni") == []
    assert [f.value for f in s.profile.facts_about("t2", "default", "ni")] == ["dogs"]
    (t5,) = say(s, TEAM, "ni now likes dogs")
    state(s, TEAM, "pet", "dogs", 0.9, t5.id, subject="ni")
    assert [f.value for f in s.profile.facts_about("default", "default", "ni", owners=["g:team"])] == ["dogs"]
    assert [f.value for f in s.profile.facts_about("default", "default", "ni", owners=["g:team"], history=True)] in (
        ["cats", "dogs"], ["dogs", "cats"])


def test_edit_fact_keeps_the_id_and_puts_the_old_value_in_history(full_store: FullStore):
    s = full_store
    (a,) = say(s, ALICE, "I live in Paris")
    fact = state(s, ALICE, "city", "Paris", 0.8, a.id)
    assert fact is not None
    edited = s.profile.edit_fact(fact.id, "Lyon", fact.version, AT + 3600)
    assert (edited.id, edited.value, edited.source, edited.version) == (fact.id, "Lyon", "edited", fact.version + 1)
    assert edited.valid_from == T0 + timedelta(hours=1) and edited.sources == (a.id,)
    history = [f for f in s.profile.facts(owner(ALICE), history=True) if f.id != fact.id]
    assert [(f.value, f.status, f.sources, f.valid_to) for f in history] == [
        ("Paris", "superseded", (a.id,), T0 + timedelta(hours=1))]
    with pytest.raises(Conflict):
        s.profile.edit_fact(fact.id, "Nice", fact.version, AT + 7200)  # the version read moved on
    same = s.profile.edit_fact(fact.id, "Lyon", None, AT + 7200)  # no version: no check; same value: no copy
    assert same.value == "Lyon" and len(s.profile.facts(owner(ALICE), history=True)) == 2
    with pytest.raises(InvalidInput):
        s.profile.edit_fact(history[0].id, "Rome", None, AT)  # history is not edited
    with pytest.raises(NotFound):
        s.profile.edit_fact(424242, "Rome", None, AT)


def test_expire_and_unexpire_a_fact(full_store: FullStore):
    s = full_store
    (a,) = say(s, ALICE, "exam on friday")
    fact = state(s, ALICE, "exam", "friday", 0.8, a.id, expires=AT + 86400)
    assert fact is not None and fact.expires_at == T0 + timedelta(days=1)
    s.profile.expire_fact(fact.id, AT + 86400)
    gone = s.profile.get_fact(fact.id)
    assert gone is not None and (gone.status, gone.valid_to) == ("expired", T0 + timedelta(days=1))
    assert gone.version > fact.version
    assert s.profile.facts(owner(ALICE)) == []
    assert [f.id for f in s.profile.facts(owner(ALICE), history=True)] == [fact.id]
    s.profile.unexpire_fact(fact.id)
    back = s.profile.get_fact(fact.id)
    assert back is not None and (back.status, back.valid_to) == ("current", None)
    assert [f.id for f in s.profile.facts(owner(ALICE))] == [fact.id]
    s.profile.unexpire_fact(fact.id)  # only an expired fact comes back: a current one is left alone
    assert s.profile.get_fact(fact.id) == back


def test_delete_and_reinstate_facts(full_store: FullStore):
    s = full_store
    a, b = say(s, ALICE, "tea", "coffee")
    tea = state(s, ALICE, "drink", "tea", 0.7, a.id)
    coffee = state(s, ALICE, "drink", "coffee", 0.9, b.id)
    assert tea is not None and coffee is not None
    s.profile.delete_fact(coffee.id)
    assert s.profile.get_fact(coffee.id) is None and s.profile.facts_with([b.id]) == []
    assert s.profile.facts(owner(ALICE)) == []
    s.profile.reinstate_fact(tea.id)  # its successor was forgotten: the old value holds again
    back = s.profile.get_fact(tea.id)
    assert back is not None and (back.status, back.valid_to) == ("current", None)
    assert [f.id for f in s.profile.facts(owner(ALICE))] == [tea.id]


def test_facts_with_and_drop_fact_sources_outlive_the_turns(full_store: FullStore):
    s = full_store
    a, b, c = say(s, ALICE, "tea", "tea again", "unrelated")
    fact = state(s, ALICE, "drink", "tea", 0.7, a.id)
    assert fact is not None
    fact = state(s, ALICE, "drink", "tea", 0.7, b.id)
    assert fact is not None and fact.mentions == 2
    assert [f.id for f in s.profile.facts_with([a.id, c.id])] == [fact.id]
    assert s.profile.facts_with([c.id]) == [] and s.profile.facts_with([]) == []
    s.turns.delete_turns([a.id])  # forgetting reads a fact's sources after its turns are gone
    assert [f.id for f in s.profile.facts_with([a.id])] == [fact.id]
    s.profile.drop_fact_sources(fact.id, [a.id])
    left = s.profile.get_fact(fact.id)
    assert left is not None and (left.sources, left.mentions) == ((b.id,), 1) and left.version > fact.version
    assert s.profile.facts_with([a.id]) == []


def test_conversation_now_is_the_newest_turn_of_the_owner(full_store: FullStore):
    s = full_store
    assert s.owners.conversation_now(owner(ALICE)) is None
    say(s, ALICE, "a", "b", minutes=5)
    say(s, Scope.of(user_id="alice", session_id="s2"), "c", minutes=2)
    say(s, BOB, "later", minutes=60)
    assert s.owners.conversation_now(owner(ALICE)) == (T0 + timedelta(minutes=6)).timestamp()
    assert s.owners.conversation_now(ALICE) == (T0 + timedelta(minutes=6)).timestamp()  # any session of the owner
    assert s.owners.conversation_now(owner(OTHER_AGENT)) is None


def test_owner_scopes_are_owners_with_turns_episodes_or_facts(full_store: FullStore):
    s = full_store
    say(s, ALICE, "hello")
    s.episodes.add_episode(TEAM, "session", _episode("met"), [])
    state(s, Scope.of(user_id="carol"), "drink", "tea", 0.8, None)
    say(s, ELSEWHERE, "hi")
    found = s.owners.owner_scopes()
    assert set(found) == {owner(ALICE), owner(TEAM), Scope.of(user_id="carol"), owner(ELSEWHERE)}
    assert len(found) == len(set(found)) and all(x.session_id is None for x in found)
    assert s.owners.owner_scopes("t2") == [owner(ELSEWHERE)]
    assert s.owners.owner_scopes("nobody") == []


# ---- episodes -------------------------------------------------------------------------------
def _episode(summary: str, ended: float = AT, **more) -> dict:
    return {"summary": summary, "topics": ["budget"], "actions": ["asked"], "outcomes": ["agreed"],
            "lessons": ["ask early"], "importance": 0.7, "started": ended - 600, "ended": ended, **more}


def test_episodes_lifecycle_and_provenance(full_store: FullStore):
    s = full_store
    a, b, c = say(s, ALICE, "a", "b", "c")
    late = s.episodes.add_episode(ALICE, "session", _episode("late", AT + 60, step_from=1, step_to=2), [a.id, b.id])
    s2 = Scope.of(user_id="alice", session_id="s2")
    early = s.episodes.add_episode(s2, "compaction", _episode("early", AT), [c.id])
    assert (late.kind, late.summary, late.topics, late.actions, late.outcomes, late.lessons) == (
        "session", "late", ("budget",), ("asked",), ("agreed",), ("ask early",))
    assert (late.importance, late.step_from, late.step_to, late.access_count) == (0.7, 1, 2, 0)
    assert late.ended_at == T0 + timedelta(minutes=1) and late.started_at == T0 - timedelta(minutes=9)
    assert late.scope == ALICE and set(late.source_ids) == {a.id, b.id}
    assert s.episodes.get_episode(late.id) == late and s.episodes.get_episode(424242) is None
    assert {e.id for e in s.episodes.episodes(owner(ALICE))} == {early.id, late.id}
    assert [e.id for e in s.episodes.episodes(owner(ALICE), "s2")] == [early.id]
    assert [e.id for e in s.episodes.episodes_with([b.id])] == [late.id]
    s.vectors.put_vectors("episode", [(late.id, ALICE.key, np.ones(4, np.float32))], "m")
    s.episodes.update_episode(late.id, _episode("rewritten", AT + 60, step_from=1, step_to=1), [a.id])
    got = s.episodes.get_episode(late.id)
    assert got is not None and (got.summary, got.source_ids, got.step_to) == ("rewritten", (a.id,), 1)
    # its vector is stale
    assert s.episodes.episodes_with([b.id]) == [] and s.vectors.get_vectors("episode", [late.id]) == {}
    s.episodes.touch_episodes([late.id, late.id, early.id], AT)
    assert s.episodes.get_episode(late.id).access_count == 2  # type: ignore[union-attr]
    s.vectors.put_vectors("episode", [(early.id, ALICE.key, np.ones(4, np.float32))], "m")
    s.turns.delete_turns([c.id])
    assert [e.id for e in s.episodes.episodes_with([c.id])] == [early.id]  # read after the turns are gone
    s.episodes.delete_episode(early.id)
    assert s.episodes.get_episode(early.id) is None and s.episodes.episodes_with([c.id]) == []
    assert s.vectors.get_vectors("episode", [early.id]) == {}
    assert s.episodes.episodes(owner(BOB)) == [] and s.episodes.episodes(owner(OTHER_AGENT)) == []



def test_episode_signals_rank_without_reading_the_episodes(full_store: FullStore):
    s = full_store
    a, b, c = say(s, ALICE, "a", "b", "c")
    late = s.episodes.add_episode(ALICE, "session", _episode("late", AT + 60), [a.id])
    s2 = Scope.of(user_id="alice", session_id="s2")
    early = s.episodes.add_episode(s2, "compaction", _episode("early", AT), [b.id])
    gone = s.episodes.add_episode(ALICE, "session", _episode("gone", AT + 90), [c.id])
    s.episodes.delete_episode(gone.id)
    s.episodes.add_episode(BOB, "session", _episode("bob's", AT), [c.id])
    unit = np.array([0.6, 0.8, 0.0, 0.0], np.float32)
    s.vectors.put_vectors("episode", [(early.id, ALICE.key, unit), (late.id, ALICE.key, np.ones(3, np.float32))], "m")
    query = np.array([1.0, 0.0, 0.0, 0.0], np.float32)
    found = s.episodes.episode_signals(owner(ALICE), query)
    # oldest first; the similarity where a vector of the query's size is stored, else None
    assert [(e.id, e.ended, e.importance) for e in found] == [(early.id, AT, 0.7), (late.id, AT + 60, 0.7)]
    assert found[0].similarity == pytest.approx(0.6, abs=1e-6) and found[1].similarity is None
    assert [e.similarity for e in s.episodes.episode_signals(owner(ALICE), None)] == [None, None]
    assert s.episodes.episode_signals(owner(OTHER_AGENT), query) == []
    assert [e.summary for e in s.episodes.get_episodes([late.id, gone.id, early.id, late.id])] == ["late", "early"]
    assert s.episodes.get_episodes([]) == []


def test_a_touch_job_is_counted_for_the_owner_of_its_episodes(full_store: FullStore):
    """Reading episodes queues a 'touch' job (their access counts); pending() of their owner counts
    it, so a drain of that tenant waits for it and no other tenant's does."""
    s = full_store
    episode = s.episodes.add_episode(ALICE, "session", _episode("met"), [])
    s.jobs.enqueue("touch", {"episodes": [episode.id], "at": AT})
    assert s.jobs.pending("default", agent_id="default", owner="u:alice") == 1
    assert s.jobs.pending("default", owner="u:bob") == 0 and s.jobs.pending("t2") == 0

def test_covered_steps_is_the_last_step_folded_into_those_kinds(full_store: FullStore):
    s = full_store
    assert s.episodes.covered_steps(owner(ALICE), "s1", ("compaction",)) == 0
    s.episodes.add_episode(ALICE, "compaction", _episode("x", step_from=1, step_to=8), [])
    s.episodes.add_episode(ALICE, "compaction", _episode("y", step_from=9, step_to=12), [])
    s.episodes.add_episode(ALICE, "session", _episode("z", step_from=1, step_to=30), [])
    s.episodes.add_episode(Scope.of(user_id="alice", session_id="s2"), "compaction", _episode("w", step_to=50), [])
    assert s.episodes.covered_steps(owner(ALICE), "s1", ("compaction",)) == 12
    assert s.episodes.covered_steps(owner(ALICE), "s1", ("compaction", "session")) == 30
    assert s.episodes.covered_steps(owner(ALICE), "s2", ("session",)) == 0
    assert s.episodes.covered_steps(owner(BOB), "s1", ("compaction", "session")) == 0



def test_open_sessions_are_the_ones_ended_before_with_turns_no_episode_covers(full_store: FullStore):
    s = full_store
    s2, s3 = (Scope.of(user_id="alice", session_id=sid) for sid in ("s2", "s3"))
    say(s, ALICE, "a", "b", "c")  # steps 1-3, 09:00-09:02
    say(s, s2, "d", "e", minutes=10)  # 09:10-09:11
    say(s, s3, "f", minutes=20)  # 09:20
    say(s, BOB, "g")
    later = AT + 3600
    assert s.episodes.open_sessions(owner(ALICE), later, "session") == ["s1", "s2", "s3"]
    assert s.episodes.open_sessions(owner(ALICE), AT + 11 * 60, "session") == ["s1"]  # s2 still spoke at 09:11
    s.episodes.add_episode(ALICE, "session", _episode("all of s1", step_from=1, step_to=3), [])
    s.episodes.add_episode(s2, "session", _episode("part of s2", step_from=1, step_to=1), [])
    s.episodes.add_episode(s3, "compaction", _episode("s3 folded", step_from=1, step_to=1), [])
    assert s.episodes.open_sessions(owner(ALICE), later, "session") == ["s2", "s3"]  # another kind covers nothing here
    say(s, ALICE, "a late word", minutes=30)  # s1 step 4
    assert s.episodes.open_sessions(owner(ALICE), later, "session") == ["s1", "s2", "s3"]
    assert s.episodes.open_sessions(owner(BOB), later, "session") == ["s1"]


def test_open_turns_are_the_open_sessions_with_their_uncovered_turns(full_store: FullStore):
    s = full_store
    s2, s3 = (Scope.of(user_id="alice", session_id=sid) for sid in ("s2", "s3"))
    first = say(s, ALICE, "a", "b", "c")  # 09:00-09:02
    second = say(s, s2, "d", "e", minutes=10)
    say(s, s3, "f", minutes=20)
    say(s, BOB, "g")
    s.episodes.add_episode(s2, "session", _episode("part of s2", step_from=1, step_to=1), [])
    found = s.episodes.open_turns(owner(ALICE), AT + 15 * 60, "session")
    assert [(o.session, o.last, [t.id for t in o.turns]) for o in found] == [
        ("s1", AT + 120, [t.id for t in first]), ("s2", AT + 11 * 60, [second[1].id])]
    assert found[0].turns == s.turns.list_turns(owner(ALICE), session_id="s1")  # the turns as list_turns gives them
    assert [o.session for o in found] == s.episodes.open_sessions(owner(ALICE), AT + 15 * 60, "session")
    assert s.episodes.open_turns(owner(ALICE), AT, "session") == []


def test_add_episodes_is_add_episode_of_each(full_store: FullStore):
    from pmemo.ports.episodes import NewEpisode

    s = full_store
    s2 = Scope.of(user_id="alice", session_id="s2")
    a, b, c = say(s, ALICE, "a", "b", "c")
    assert s.episodes.add_episodes([]) == []
    written = s.episodes.add_episodes([
        NewEpisode(ALICE, "session", _episode("one", AT + 60, step_from=1, step_to=2), [b.id, a.id, b.id]),
        NewEpisode(s2, "compaction", _episode("two", AT), [c.id]),
        NewEpisode(BOB, "session", {"summary": "three", "started": AT, "ended": AT}, []),
    ])
    assert [e.summary for e in written] == ["one", "two", "three"]
    assert written == s.episodes.get_episodes([e.id for e in written])  # what is stored, as it is read
    assert written[0].source_ids == (a.id, b.id) and written[1].scope == s2 and written[2].lessons == ()
    alone = s.episodes.add_episode(ALICE, "session", _episode("one", AT + 60, step_from=1, step_to=2), [a.id, b.id])
    assert dataclasses.replace(alone, id=written[0].id, created_at=written[0].created_at) == written[0]
    assert s.episodes.episodes_with([c.id]) == [written[1]]


# ---- tasks ----------------------------------------------------------------------------------
def test_tasks_are_saved_with_a_version_check(full_store: FullStore):
    s = full_store
    steps = [TaskStep("find flights"), TaskStep("book hotel")]
    task = s.tasks.add_task(ALICE, "plan the trip", steps, "notes")
    assert (task.goal, task.steps, task.scratchpad, task.status, task.version) == (
        "plan the trip", tuple(steps), "notes", "running", 1)
    assert task.scope == ALICE and task.feedback is None and task.episode_id is None
    assert s.tasks.get_task(task.id) == task and s.tasks.get_task(424242) is None
    done_step = TaskStep("find flights", "done", result="AF123")
    saved = s.tasks.save_task(dataclasses.replace(task, steps=(done_step, steps[1]), scratchpad="AF123 booked"), 1)
    assert (saved.version, saved.steps[0], saved.scratchpad) == (2, done_step, "AF123 booked")
    with pytest.raises(Conflict):
        s.tasks.save_task(dataclasses.replace(task, status="failed"), 1)  # someone saved version 2 meanwhile
    assert s.tasks.get_task(task.id) == saved
    finished = s.tasks.save_task(dataclasses.replace(saved, status="done", feedback="great", episode_id=7), 2)
    assert (finished.status, finished.feedback, finished.episode_id) == ("done", "great", 7)
    other = s.tasks.add_task(ALICE, "second", [], "")
    assert [t.id for t in s.tasks.tasks(owner(ALICE))] == [task.id, other.id]
    assert [t.id for t in s.tasks.tasks(owner(ALICE), "running")] == [other.id]
    assert [t.id for t in s.tasks.tasks(owner(ALICE), "done")] == [task.id]
    assert s.tasks.tasks(owner(BOB)) == [] and s.tasks.tasks(owner(OTHER_AGENT)) == []


# ---- records --------------------------------------------------------------------------------
def _record(s: FullStore, user: str, visibility: str, tenant: str = "default", **more) -> int:
    fields = {"type": "note", "visibility": visibility, "content": f"{visibility} note of {user}", **more}
    return s.records.add_record(tenant, "default", user, fields).id


def test_records_round_trip_their_envelope(full_store: FullStore):
    s = full_store
    rec = s.records.add_record("default", "default", "alice", {
        "type": "preference", "visibility": "shared", "content": "likes window seats", "summary": "seats",
        "structured": {"seat": "window"}, "importance": 0.9, "confidence": 0.8, "tags": ["travel"],
        "source": "explicit", "relations": [{"to": 3}], "allowed_users": ["bob"], "allowed_roles": ["admin"],
        "embedding_model": "m"})
    assert (rec.tenant_id, rec.agent_id, rec.user_id, rec.type, rec.visibility) == (
        "default", "default", "alice", "preference", "shared")
    assert (rec.content, rec.summary, rec.structured, rec.tags, rec.relations) == (
        "likes window seats", "seats", {"seat": "window"}, ("travel",), ({"to": 3},))
    assert (rec.allowed_users, rec.allowed_roles, rec.embedding_model) == (("bob",), ("admin",), "m")
    assert (rec.importance, rec.confidence, rec.version, rec.decay_score) == (0.9, 0.8, 1, 1.0)
    assert s.records.get_record(rec.id, "default", "alice") == rec


def test_record_reads_keep_to_what_the_viewer_may_see(full_store: FullStore):
    s = full_store
    private = _record(s, "alice", "private")
    shared = _record(s, "alice", "shared", allowed_users=["bob"], allowed_roles=["ops"])
    public = _record(s, "alice", "public")
    theirs = _record(s, "bob", "private")
    foreign = _record(s, "alice", "public", tenant="t2")

    def seen(viewer: str, roles: tuple[str, ...] = ()) -> set[int]:
        listed = {r.id for r in s.records.list_records("default", "default", viewer, roles)}
        got = {i for i in (private, shared, public, theirs, foreign)
               if s.records.get_record(i, "default", viewer, roles) is not None}
        assert listed == got
        return got

    assert seen("alice") == {private, shared, public}
    assert seen("bob") == {shared, public, theirs}
    assert seen("carol") == {public}
    assert seen("carol", ("ops",)) == {shared, public}
    assert seen("carol", ("dev",)) == {public}
    assert s.records.get_record(foreign, "default", "alice") is None  # another tenant's, even public
    assert [r.id for r in s.records.list_records("t2", "default", "carol")] == [foreign]
    assert s.records.list_records("default", "bot2", "alice") == []
    assert {r.id for r in s.records.all_records()} == {private, shared, public, theirs, foreign}
    assert {r.id for r in s.records.all_records("t2")} == {foreign}


def test_list_records_filters_by_type_and_limits(full_store: FullStore):
    s = full_store
    ids = [_record(s, "alice", "private", type="note" if i % 2 else "todo") for i in range(5)]
    assert {r.id for r in s.records.list_records("default", "default", "alice", type_="todo")} == set(ids[0::2])
    assert len(s.records.list_records("default", "default", "alice", limit=2)) == 2


def test_update_record_checks_the_version(full_store: FullStore):
    s = full_store
    rid = _record(s, "alice", "private")
    got = s.records.update_record(rid, 1, {"content": "changed", "tags": ["a", "b"], "visibility": "public"})
    assert (got.content, got.tags, got.visibility, got.version) == ("changed", ("a", "b"), "public", 2)
    with pytest.raises(Conflict):
        s.records.update_record(rid, 1, {"content": "lost update"})
    assert s.records.get_record(rid, "default", "bob") == got  # public now


def test_record_heat_decay_and_delete(full_store: FullStore):
    s = full_store
    rid, other = _record(s, "alice", "private"), _record(s, "alice", "private")
    assert s.records.record_heat(rid) == 0 and s.records.record_heat(424242) == 0
    s.records.touch_records([rid, rid, other], AT + 50)
    assert (s.records.record_heat(rid), s.records.record_heat(other)) == (2, 1)
    assert s.records.get_record(rid, "default", "alice").accessed_at == T0 + timedelta(seconds=50)  # type: ignore[union-attr]
    s.records.set_decay([(rid, 0.25), (other, 0.5)])
    assert {r.id: r.decay_score for r in s.records.all_records()} == {rid: 0.25, other: 0.5}
    s.vectors.put_vectors("record", [(rid, "default|default|u:alice", np.ones(4, np.float32))], "m")
    s.records.delete_record(rid)
    assert s.records.get_record(rid, "default", "alice") is None and [r.id for r in s.records.all_records()] == [other]
    assert s.vectors.get_vectors("record", [rid]) == {}
