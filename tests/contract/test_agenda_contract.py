"""The agenda port (``ports.agenda``, ``store.plans``): dated plans of people, with the turn that said
them and the one that reported the outcome; and a person's facts wherever they were learned."""

from __future__ import annotations

from datetime import UTC, date, datetime

from pmemo.models import Scope, Turn
from pmemo.stores.base import FullStore, NewTurn

T0 = datetime(2024, 3, 4, 9, 0, tzinfo=UTC)
TEAM = Scope.of(group_id="team", session_id="s1")
CLUB = Scope.of(group_id="club", session_id="s1")
FOREIGN = Scope.of(group_id="team", session_id="s1", tenant_id="t2")
DEC_23, DEC_24, DEC_30 = date(2024, 12, 23), date(2024, 12, 24), date(2024, 12, 30)


def say(store: FullStore, scope: Scope, *texts: str) -> list[Turn]:
    return store.turns.add_turns([NewTurn(scope, "user", t, None, T0, {}, t) for t in texts])


def test_plans_are_recorded_once_and_read_by_day(full_store: FullStore):
    s = full_store
    a, b = say(s, TEAM, "12月23日考研", "interview on the 30th")
    exam = s.plans.add_agenda(TEAM, "ni", DEC_23, "exam", "12月23日考研", a.id)
    assert exam is not None
    assert (exam.scope, exam.person_id, exam.day, exam.what, exam.text, exam.turn_id, exam.status, exam.outcome) == (
        TEAM.owner_scope(), "ni", DEC_23, "exam", "12月23日考研", a.id, "open", None)
    assert s.plans.add_agenda(TEAM, "ni", DEC_23, "exam", "12月23日考研", a.id) == exam  # a re-run job: the same item
    talk = s.plans.add_agenda(TEAM, "bo", DEC_30, "interview", "interview on the 30th", b.id)
    party = s.plans.add_agenda(CLUB, None, DEC_24, "party", "party on the 24th", None)
    assert talk is not None and party is not None
    ids = lambda items: [i.id for i in items]  # noqa: E731
    assert ids(s.plans.agenda("default", "default")) == [exam.id, party.id, talk.id]  # by day
    assert ids(s.plans.agenda("default", "default", owners=["g:team"])) == [exam.id, talk.id]
    assert ids(s.plans.agenda("default", "default", people=["ni"])) == [exam.id]
    assert ids(s.plans.agenda("default", "default", start=DEC_24, end=DEC_30)) == [party.id, talk.id]  # inclusive
    assert ids(s.plans.agenda("default", "default", end=DEC_23)) == [exam.id]
    assert s.plans.agenda("default", "default", owners=[]) == []
    s.plans.close_agenda([exam.id], b.id, "passed")
    done = s.plans.agenda("default", "default", status="done")
    assert [(i.id, i.status, i.outcome) for i in done] == [(exam.id, "done", "passed")]
    assert ids(s.plans.agenda("default", "default", status="open")) == [party.id, talk.id]


def test_agenda_reads_never_cross_tenants_or_agents(full_store: FullStore):
    s = full_store
    (a,) = say(s, FOREIGN, "exam")
    theirs = s.plans.add_agenda(FOREIGN, "ni", DEC_23, "exam", "exam", a.id)
    assert theirs is not None
    assert s.plans.agenda("default", "default") == [] and s.plans.agenda("t2", "bot2") == []
    assert [i.id for i in s.plans.agenda("t2", "default")] == [theirs.id]


def test_a_forgotten_turn_takes_its_plans_and_reopens_what_it_reported(full_store: FullStore):
    s = full_store
    said, reported, other = say(s, TEAM, "exam on the 23rd", "I passed!", "interview on the 30th")
    exam = s.plans.add_agenda(TEAM, "ni", DEC_23, "exam", "exam", said.id)
    talk = s.plans.add_agenda(TEAM, "bo", DEC_30, "interview", "interview", other.id)
    assert exam is not None and talk is not None
    s.plans.close_agenda([talk.id], reported.id, "got the job")
    assert s.plans.agenda_with([said.id]) == [exam.id]
    assert s.plans.agenda_with([reported.id]) == [talk.id]  # it reported the outcome
    assert sorted(s.plans.agenda_with([said.id, reported.id])) == sorted([exam.id, talk.id])
    assert s.plans.agenda_with([]) == []
    s.turns.delete_turns([said.id, reported.id])  # forgetting reads and cleans after the delete
    assert sorted(s.plans.agenda_with([said.id, reported.id])) == sorted([exam.id, talk.id])
    assert s.plans.agenda_forget([said.id, reported.id]) == [exam.id]
    (left,) = s.plans.agenda("default", "default")
    assert (left.id, left.status, left.outcome) == (talk.id, "open", None)
    assert s.plans.agenda_with([said.id, reported.id]) == [] and s.plans.agenda_forget([]) == []
