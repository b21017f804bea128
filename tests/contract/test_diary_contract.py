"""The diary port (``ports.diary``, ``store.diary``): one entry per owner scope and day with its source
turns and vector, and what the diary schedule (diary/schedule.py) reads and writes."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import numpy as np

from pmemo.models import Scope, Turn
from pmemo.stores.base import FullStore, NewTurn, Waiting

T0 = datetime(2024, 3, 4, 9, 0, tzinfo=UTC)
AT = T0.timestamp()
DAY, NEXT, LATER = date(2024, 3, 4), date(2024, 3, 5), date(2024, 3, 8)
TEAM = Scope.of(group_id="team", session_id="s1")
OWNER = TEAM.owner_scope()
FOREIGN = Scope.of(group_id="team", session_id="s1", tenant_id="t2")
OTHER_AGENT = Scope.of(group_id="team", session_id="s1", agent_id="bot2")


def say(store: FullStore, scope: Scope, *at_minutes: int, role: str = "user") -> list[Turn]:
    return store.turns.add_turns([NewTurn(scope, role, f"m{m}", None, T0 + timedelta(minutes=m), {}, f"m{m}")
                            for m in at_minutes])


def vec(*values: float) -> np.ndarray:
    return np.asarray(values, dtype=np.float32)


def test_an_entry_is_written_and_replaced_with_its_sources_and_vector(full_store: FullStore):
    s = full_store
    a, b, c = say(s, TEAM, 0, 10, 20)
    entry = s.diary.put_diary(OWNER, DAY, "we talked about exams", "digest", [a.id, b.id], vec(1, 0), "m")
    assert (entry.scope, entry.day, entry.text, entry.method, entry.source_ids) == (
        OWNER, DAY, "we talked about exams", "digest", (a.id, b.id))
    assert s.diary.get_diary(OWNER, DAY) == entry and s.diary.get_diary(TEAM, DAY) == entry  # any session of the owner
    assert np.allclose(s.vectors.get_vectors("diary", [entry.id])[entry.id], vec(1, 0))
    again = s.diary.put_diary(OWNER, DAY, "rewritten", "llm", [c.id], vec(0, 1), "m2")
    assert again.id == entry.id and (again.text, again.method, again.source_ids) == ("rewritten", "llm", (c.id,))
    assert again.created_at == entry.created_at and again.updated_at >= entry.updated_at
    assert np.allclose(s.vectors.get_vectors("diary", [entry.id])[entry.id], vec(0, 1))
    assert s.diary.diaries_with([a.id]) == [] and [d.id for d in s.diary.diaries_with([c.id])] == [entry.id]
    assert s.diary.get_diary(OWNER, NEXT) is None


def test_diaries_by_day_range_and_by_id(full_store: FullStore):
    s = full_store
    (a,) = say(s, TEAM, 0)
    later = s.diary.put_diary(OWNER, LATER, "later", "digest", [a.id], vec(1, 0), "m")
    first = s.diary.put_diary(OWNER, DAY, "first", "digest", [a.id], vec(1, 0), "m")
    mid = s.diary.put_diary(OWNER, NEXT, "mid", "digest", [a.id], vec(1, 0), "m")
    assert [d.id for d in s.diary.diaries(OWNER)] == [first.id, mid.id, later.id]  # oldest first
    assert [d.id for d in s.diary.diaries(OWNER, start=NEXT)] == [mid.id, later.id]  # inclusive
    assert [d.id for d in s.diary.diaries(OWNER, end=NEXT)] == [first.id, mid.id]
    assert [d.id for d in s.diary.diaries(OWNER, NEXT, NEXT)] == [mid.id]
    assert [d.source_ids for d in s.diary.diaries(OWNER, sources=False)] == [(), (), ()]
    got = s.diary.get_diaries([mid.id, 424242, first.id, mid.id])
    assert set(got) == {mid.id, first.id} and got[mid.id] == mid
    assert s.diary.get_diaries([first.id], sources=False)[first.id].source_ids == ()
    assert s.diary.get_diaries([]) == {}


def test_diary_reads_never_cross_owners_tenants_or_agents(full_store: FullStore):
    s = full_store
    for scope in (TEAM, FOREIGN, OTHER_AGENT, Scope.of(group_id="club", session_id="s1")):
        (t,) = say(s, scope, 0)
        s.diary.put_diary(scope.owner_scope(), DAY, scope.key, "digest", [t.id], vec(1, 0), "m")
    for scope in (TEAM, FOREIGN, OTHER_AGENT):
        assert [d.text for d in s.diary.diaries(scope.owner_scope())] == [scope.key]
        assert s.diary.get_diary(scope.owner_scope(), DAY).text == scope.key  # type: ignore[union-attr]
        turns = s.diary.day_turns(scope.owner_scope(), AT - 3600, AT + 3600)
        assert [t.scope.key for t in turns] == [scope.key]


def test_an_entry_outlives_its_turns_until_deleted(full_store: FullStore):
    s = full_store
    a, b = say(s, TEAM, 0, 5)
    entry = s.diary.put_diary(OWNER, DAY, "x", "digest", [a.id, b.id], vec(1, 0), "m")
    s.turns.delete_turns([a.id])  # forgetting finds the entries to rewrite after the delete
    assert [d.id for d in s.diary.diaries_with([a.id])] == [entry.id] and s.diary.diaries_with([]) == []
    s.diary.delete_diary(entry.id)
    assert s.diary.get_diary(OWNER, DAY) is None and s.diary.diaries_with([b.id]) == []
    assert s.vectors.get_vectors("diary", [entry.id]) == {}


def test_stale_diaries_lack_a_vector_of_the_model(full_store: FullStore):
    s = full_store
    (a,) = say(s, TEAM, 0)
    old = s.diary.put_diary(OWNER, DAY, "old", "digest", [a.id], vec(1, 0), "old-model")
    new = s.diary.put_diary(OWNER, NEXT, "new", "digest", [a.id], vec(1, 0), "new-model")
    assert s.diary.stale_diaries("new-model") == [old.id]
    assert sorted(s.diary.stale_diaries("other")) == sorted([old.id, new.id])
    s.vectors.delete_vectors("diary", [new.id])
    assert sorted(s.diary.stale_diaries("new-model")) == sorted([old.id, new.id])


def test_day_turns_and_turns_after(full_store: FullStore):
    s = full_store
    a, b = say(s, TEAM, 60, 0)  # stored out of time order
    (c,) = say(s, Scope.of(group_id="team", session_id="s2"), 30, role="assistant")
    (d,) = say(s, TEAM, 120)
    (f,) = say(s, FOREIGN, 0)
    got = s.diary.day_turns(OWNER, AT, AT + 7200)  # start included, end excluded
    assert [t.id for t in got] == [b.id, c.id, a.id]
    assert s.diary.day_turns(OWNER, AT + 1, AT + 60 * 60) == [s.turns.get_turns([c.id])[c.id]]
    stamps = s.diary.turns_after(0, 100)
    assert [x.id for x in stamps] == [a.id, b.id, c.id, d.id, f.id]  # by id
    stamp = stamps[2]
    assert (stamp.tenant, stamp.agent, stamp.owner, stamp.epoch, stamp.role) == (
        "default", "default", "g:team", AT + 1800, "assistant")
    assert [x.id for x in s.diary.turns_after(b.id, 2)] == [c.id, d.id]
    assert s.diary.turns_after(f.id, 10) == []


def test_the_schedule_queues_jobs_marks_and_waiting_days_together(full_store: FullStore):
    s = full_store
    job = {"tenant": "default", "agent": "default", "owner": "g:team", "day": "2024-03-04"}
    assert not s.diary.diary_queued(job)
    wait = Waiting("default", "default", "g:team", "2024-03-05", AT + 86400, 7)
    soon = Waiting("default", "default", "g:club", "2024-03-05", AT + 3600, 9)
    s.diary.queue_diaries([job], "diary_mark", 42, [wait, soon])
    assert s.diary.diary_queued(job) and not s.diary.diary_queued({**job, "day": "2024-03-05"})
    assert s.meta.get_meta("diary_mark") == "42"
    assert s.diary.diaries_waiting(AT) == []
    assert s.diary.diaries_waiting(AT + 86400) == [soon, wait]  # soonest first
    assert s.diary.next_waiting() == AT + 3600
    later = wait._replace(due=AT + 90000, last=12)  # seen again with a later turn: the newest is kept
    s.diary.queue_diaries([], "diary_mark", 50, [later, soon._replace(last=3)])
    assert s.meta.get_meta("diary_mark") == "50"
    assert s.diary.diaries_waiting(AT + 90000) == [soon, later]
    s.diary.queue_diaries([], "diary_mark", 50, ripe=[soon, wait])  # `wait` saw turn 12 since: it stays
    assert s.diary.diaries_waiting(AT + 90000) == [later]
    s.diary.queue_diaries([], "diary_mark", 50, ripe=[later])
    assert s.diary.diaries_waiting(AT + 90000) == [] and s.diary.next_waiting() is None
    (claimed,) = [j for j in s.jobs.claim(10) if j.kind == "diary"]
    assert claimed.payload == job and s.diary.diary_queued(job)  # running still counts
    s.jobs.finish(claimed.id)
    assert not s.diary.diary_queued(job)


def test_put_diaries_is_put_diary_of_each(full_store: FullStore):
    from pmemo.ports.diary import NewDiary

    s = full_store
    club = Scope.of(group_id="club", session_id="s1").owner_scope()
    a, b, c = say(s, TEAM, 0, 10, 20)
    (d,) = say(s, club, 30)
    first = s.diary.put_diary(OWNER, DAY, "old", "digest", [a.id], vec(1, 0), "m")
    assert s.diary.put_diaries([], "m") == []
    written = s.diary.put_diaries([NewDiary(OWNER, DAY, "new", "llm", [c.id, b.id, c.id], vec(0, 1)),
                                   NewDiary(club, DAY, "club", "digest", [d.id], vec(1, 0)),
                                   NewDiary(OWNER, NEXT, "next", "digest", [a.id], vec(1, 1))], "m2")
    assert [e.text for e in written] == ["new", "club", "next"] and written[0].id == first.id
    assert written[0].source_ids == (b.id, c.id) and written[0].created_at == first.created_at
    assert [s.diary.get_diary(e.scope, e.day) for e in written] == written  # as stored, sources and all
    assert np.allclose(s.vectors.get_vectors("diary", [first.id])[first.id], vec(0, 1))
    assert s.diary.stale_diaries("m2") == []
    assert s.diary.diaries_with([a.id]) == [written[2]]


def test_days_turns_and_diaries_on_are_one_read_for_many_days(full_store: FullStore):
    s = full_store
    club = Scope.of(group_id="club", session_id="s1")
    a, b = say(s, TEAM, 0, 60 * 24)  # DAY, NEXT
    (c,) = say(s, club, 10)
    (f,) = say(s, FOREIGN, 5)
    day, nxt = (AT - 3600, AT + 3600), (AT + 86400 - 3600, AT + 86400 + 3600)
    found = s.diary.days_turns([(OWNER, *day), (OWNER, *nxt), (club.owner_scope(), *day), (OWNER, *day)])
    assert [[t.id for t in ts] for ts in found] == [[a.id], [b.id], [c.id], [a.id]]
    assert found[0] == s.diary.day_turns(OWNER, *day)
    assert s.diary.days_turns([]) == []
    entry = s.diary.put_diary(OWNER, DAY, "x", "digest", [a.id], vec(1, 0), "m")
    s.diary.put_diary(club.owner_scope(), NEXT, "y", "digest", [c.id], vec(1, 0), "m")
    s.diary.put_diary(FOREIGN.owner_scope(), DAY, "z", "digest", [f.id], vec(1, 0), "m")
    got = s.diary.diaries_on([(OWNER, DAY), (OWNER, NEXT), (club.owner_scope(), DAY)])
    assert got == {(OWNER.key, DAY): s.diary.diaries(OWNER, DAY, DAY, sources=False)[0]}
    assert got[(OWNER.key, DAY)].id == entry.id
    assert s.diary.diaries_on([]) == {}
