"""The people port contract (``store.people``, ports/people.py): the person registry of each tenant, the names
people go by, where they speak. Speakers are noted with their turns (``actor_id``)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest

from pmemo.models import Scope, Turn
from pmemo.stores.base import FullStore, NewAlias, NewSign, NewTurn

T0 = datetime(2024, 3, 4, 9, 0, tzinfo=UTC)
AT = T0.timestamp()
TEAM = Scope.of(group_id="team", session_id="s1")
CLUB = Scope.of(group_id="club", session_id="s1")
FOREIGN = Scope.of(group_id="team", session_id="s1", tenant_id="t2")
OTHER_AGENT = Scope.of(group_id="team", session_id="s1", agent_id="bot2")


def spoke(store: FullStore, scope: Scope, person: str, name: str | None, text: str, minutes: int = 0) -> Turn:
    (turn,) = store.turns.add_turns([NewTurn(scope, "user", text, name, T0 + timedelta(minutes=minutes), {}, text,
                                       actor_id=person)])
    return turn


def test_turns_with_a_speaker_make_members_and_names(full_store: FullStore):
    s, p = full_store, full_store.people
    first = spoke(s, TEAM, "ni", "Nini", "你好吗", 0)
    spoke(s, TEAM, "ni", "NiNi2", "I passed the exam today", 10)  # a rename: the old name stays
    spoke(s, TEAM, "bo", "Bo", "hi", 5)
    spoke(s, CLUB, "ni", "NiNi2", "book time", 20)
    assert p.member_ids(TEAM) == {"ni", "bo"} and p.member_ids(CLUB) == {"ni"}
    members = p.members(TEAM)
    assert [m.person.id for m in members] == ["ni", "bo"]  # who spoke latest first
    ni = members[0]
    assert (ni.owner, ni.messages, ni.first_seen, ni.last_seen) == ("g:team", 2, T0, T0 + timedelta(minutes=10))
    assert ni.chars == len("你好吗") + len("I passed the exam today") and ni.han == 1 and ni.asks == 1
    person = p.get_people("default", ["ni"])["ni"]
    assert person.names == ("Nini", "NiNi2") and person.name == "NiNi2"  # the latest display name
    assert {(a.alias, a.source) for a in person.aliases} == {("Nini", "name"), ("NiNi2", "name")}
    assert person.messages == 3 and person.first_seen == T0 and person.last_seen == T0 + timedelta(minutes=20)
    assert p.person_owners("default", "ni") == ["g:team", "g:club"]  # oldest first
    assert p.turns_by("default", "ni", TEAM)[0] == first.id and len(p.turns_by("default", "ni")) == 3
    assert len(p.turns_by("default", "ni", CLUB)) == 1 and p.turns_by("default", "nobody") == []
    assert [m.person.id for m in p.members(TEAM, ["bo", "zed"])] == ["bo"]


def test_registered_people_aliases_and_membership(full_store: FullStore):
    s, p = full_store, full_store.people
    before = p.alias_version("default")
    p.add_person("default", "ni", "霓霓", ["Nini", "小霓"], member_of=TEAM)
    assert p.alias_version("default") > before
    assert p.member_ids(TEAM) == {"ni"}
    (member,) = p.members(TEAM)
    assert member.messages == 0 and member.person.name == "霓霓"
    person = p.get_people("default", ["ni", "nobody"])
    assert set(person) == {"ni"}
    assert {(a.alias, a.source, a.learned_in) for a in person["ni"].aliases} == {
        ("霓霓", "registered", None), ("Nini", "registered", None), ("小霓", "registered", None)}
    assert sorted(p.alias_rows("default")) == [("Nini", "ni", "registered", None), ("小霓", "ni", "registered", None),
                                              ("霓霓", "ni", "registered", None)]
    p.add_person("default", "ni", None, ["Nee"])  # aliases merge; no name keeps the name
    assert p.get_people("default", ["ni"])["ni"].name == "霓霓"
    assert {a for a, *_ in p.alias_rows("default")} == {"霓霓", "Nini", "小霓", "Nee"}
    spoke(s, TEAM, "bo", "Bo", "hi")
    assert [m.person.id for m in p.members(TEAM)] == ["bo", "ni"]  # who never spoke comes last


def test_learned_aliases_count_once_and_a_removed_one_stays_removed(full_store: FullStore):
    s, p = full_store, full_store.people
    turn = spoke(s, TEAM, "bo", "Bo", "we call her 老霓")
    p.add_person("default", "ni", "Nini", [], member_of=CLUB)
    v0 = p.alias_version("default")
    rows = [NewAlias("ni", "老霓", "learned", "g:team", AT, turn.id), NewAlias("ni", "霓霓", "generated", None, AT)]
    assert p.add_aliases("default", rows) == 2
    v1 = p.alias_version("default")
    assert v1 > v0
    assert p.add_aliases("default", rows) == 0 and p.alias_version("default") == v1  # nothing new
    assert p.add_aliases("default", []) == 0
    learned = next(a for a in p.get_people("default", ["ni"])["ni"].aliases if a.alias == "老霓")
    assert (learned.source, learned.learned_in, learned.turn_id) == ("learned", "g:team", turn.id)
    p.add_person("default", "ni", None, [], member_of=TEAM)
    club = {a.alias for a in p.members(CLUB)[0].person.aliases}
    team = {a.alias for a in next(m for m in p.members(TEAM) if m.person.id == "ni").person.aliases}
    assert "老霓" in team and "老霓" not in club  # a nickname learned in one group is that group's
    assert p.remove_alias("default", "ni", "老霓") == 1
    assert p.alias_version("default") > v1
    assert "老霓" not in {a for a, *_ in p.alias_rows("default")}
    assert "老霓" not in {a.alias for a in p.get_people("default", ["ni"])["ni"].aliases}
    assert p.remove_alias("default", "ni", "老霓") == 0
    assert p.add_aliases("default", [rows[0]]) == 0  # pmemo does not learn it back
    p.add_person("default", "ni", None, ["老霓"])  # the person (or a developer) gives it again
    assert "老霓" in {a for a, *_ in p.alias_rows("default")}


def test_a_nickname_taught_in_two_groups_is_each_groups_own(full_store: FullStore):
    """Each group's card shows the nickname taught there and cites the turn that taught it
    there: the second group's teaching is not dropped as a repeat of the first's."""
    s, p = full_store, full_store.people
    told_team = spoke(s, TEAM, "bo", "Bo", "周霓我们都叫她霓霓")
    told_club = spoke(s, CLUB, "al", "Al", "跟新人介绍下，周霓就是霓霓", 1)
    p.add_person("default", "ni", "周霓", [], member_of=TEAM)
    p.add_person("default", "ni", None, [], member_of=CLUB)
    rows = [NewAlias("ni", "霓霓", "generated", None, AT),
            NewAlias("ni", "霓霓", "learned", "g:team", AT, told_team.id),
            NewAlias("ni", "霓霓", "learned", "g:club", AT + 60, told_club.id)]
    assert p.add_aliases("default", rows) == 3 and p.add_aliases("default", rows) == 0
    learned = [(a.learned_in, a.turn_id) for a in p.get_people("default", ["ni"])["ni"].aliases if a.alias == "霓霓"]
    assert sorted(learned) == [("g:club", told_club.id), ("g:team", told_team.id)]  # the generated one is weaker
    for scope, turn in ((TEAM, told_team), (CLUB, told_club)):
        (member,) = p.members(scope, ["ni"])
        here = [(a.learned_in, a.turn_id) for a in member.person.aliases if a.alias == "霓霓"]
        assert here == [(scope.owner, turn.id)]
    assert p.remove_alias("default", "ni", "霓霓") == 3 and "霓霓" not in {a for a, *_ in p.alias_rows("default")}


def test_turns_naming_the_aliases_a_turn_taught(full_store: FullStore):
    """The turns of the tenant (any group, any case of a Latin name) that hold an alias one of the
    given turns taught, without those turns, another tenant's, or a removed alias's."""
    s, p = full_store, full_store.people
    named = spoke(s, CLUB, "wt", "许文涛", "年糕是我同学")
    latin = spoke(s, TEAM, "bo", "Bo", "NEKO is late again", 1)
    taught = spoke(s, TEAM, "ni", "周霓", "叫我年糕就行，英文名 Neko", 2)
    spoke(s, FOREIGN, "wt", "许文涛", "年糕是我同学", 3)
    spoke(s, TEAM, "bo", "Bo", "今天下雨", 4)
    assert p.turns_naming("default", [taught.id]) == []  # nothing taught yet
    p.add_aliases("default", [NewAlias("ni", "年糕", "learned", "g:team", AT, taught.id),
                              NewAlias("ni", "Neko", "learned", "g:team", AT, taught.id),
                              NewAlias("ni", "周霓", "name", None, AT)])
    assert p.turns_naming("default", [taught.id]) == sorted([named.id, latin.id])
    assert p.turns_naming("default", [named.id]) == []  # it taught nothing
    p.remove_alias("default", "ni", "Neko")
    assert p.turns_naming("default", [taught.id]) == [named.id]


def _turn_reads(store: FullStore, call: Callable[[], object]) -> int:
    """What the database read of the turns for ``call``: on Postgres the rows of ``turns`` it
    fetched (its own count, in one transaction); on SQLite, where no such count is kept, the
    steps its reading connection ran (a scan's grow with every row it passes)."""
    if hasattr(store, "_read"):  # SQLite
        steps = [0]

        def step() -> int:
            steps[0] += 1
            return 0

        store._read.set_progress_handler(step, 1)
        try:
            call()
        finally:
            store._read.set_progress_handler(None, 1)
        return steps[0]
    read = ("SELECT COALESCE(seq_tup_read, 0) + COALESCE(idx_tup_fetch, 0) AS n FROM pg_stat_xact_user_tables"
            " WHERE relname = 'turns' AND schemaname = current_schema()")
    with store.people._link.write() as x:  # what autovacuum does for a table of a tenant's size
        x.run("ANALYZE turns")
    with store.tx(), store.people._link.read() as x:  # the transaction's own counts
        before = x.one(read)["n"]
        call()
        return int(x.one(read)["n"]) - int(before)


def test_turns_naming_reads_the_turns_that_may_hold_a_name_not_the_tenants(full_store: FullStore):
    """The turns a scan of every turn of the tenant finds (Python's, here), read through the
    store's index of character pairs: turns that hold none of a name's pairs are not read, so
    2,000 more of them add less than half a step or row a turn to what a call reads. A name of one character has
    no pair: it is still looked for in every turn."""
    s, p = full_store, full_store.people
    texts = ["年糕是我同学", "NEKO is late again", "nekko is no neko-free zone", "过年了吃蛋糕", "one kept book", "糕",
             "o"]
    said = [spoke(s, TEAM, "bo", "Bo", text, i) for i, text in enumerate(texts)]
    spoke(s, FOREIGN, "wt", "许文涛", "年糕是我同学", 9)
    taught = spoke(s, TEAM, "ni", "周霓", "叫我年糕就行，英文名 Neko，或者 o", 10)
    p.add_aliases("default", [NewAlias("ni", a, "learned", "g:team", AT, taught.id)
                              for a in ("年糕", "Neko", "糕", "o")])

    def scan(*aliases: str) -> list[int]:  # the definition: a user turn of the tenant, not the teacher, holding one
        return sorted(t.id for t in said if any(a.lower() in t.content.lower() for a in aliases))

    assert p.turns_naming("default", [taught.id]) == sorted(t.id for t in said)  # "o" is in every Latin one
    p.remove_alias("default", "ni", "o")
    assert p.turns_naming("default", [taught.id]) == scan("年糕", "Neko", "糕")
    p.remove_alias("default", "ni", "糕")
    assert p.turns_naming("default", [taught.id]) == scan("年糕", "Neko")
    before = _turn_reads(s, lambda: p.turns_naming("default", [taught.id]))
    s.turns.add_turns([NewTurn(CLUB, "user", f"今天下雨{i}", "Bo", T0 + timedelta(hours=1, seconds=i), {},
                               f"今天下雨{i}", actor_id="bo") for i in range(2000)])
    assert p.turns_naming("default", [taught.id]) == scan("年糕", "Neko")
    after = _turn_reads(s, lambda: p.turns_naming("default", [taught.id]))
    # a scan grew by ~55 steps (SQLite) or one row (Postgres) a turn; FTS5 reads its segments by steps too
    print(f"turns_naming read {before} then {after}")
    assert after - before < 2000 / 2, (before, after)


def test_aliases_add_a_person_once_named(full_store: FullStore):
    p = full_store.people
    assert p.add_aliases("default", [NewAlias("zed", "Z", "mention", "g:team", AT)]) == 1
    assert p.get_people("default", ["zed"])["zed"].aliases[0].alias == "Z"


def test_people_reads_never_cross_tenants_or_agents(full_store: FullStore):
    s, p = full_store, full_store.people
    spoke(s, TEAM, "ni", "Nini", "mine")
    p.add_person("default", "ni", None, ["N"])
    theirs = spoke(s, FOREIGN, "ni", "Other Nini", "theirs")
    spoke(s, OTHER_AGENT, "ox", "Ox", "another agent's group")
    assert p.member_ids(FOREIGN) == {"ni"} and p.member_ids(TEAM) == {"ni"}
    assert p.member_ids(OTHER_AGENT) == {"ox"} and "ox" not in p.member_ids(TEAM)
    assert [m.person.id for m in p.members(TEAM)] == ["ni"]
    assert p.get_people("t2", ["ni"])["ni"].names == ("Other Nini",)
    assert p.alias_rows("t2") == [("Other Nini", "ni", "name", "g:team")]
    assert p.turns_by("t2", "ni") == [theirs.id]
    assert p.person_owners("t2", "ni") == ["g:team"]
    assert p.get_people("t3", ["ni"]) == {} and p.alias_rows("t3") == [] and p.alias_version("t3") == 0
    assert p.get_people("default", []) == {}


def test_a_deleted_turn_is_no_longer_said_by_anyone(full_store: FullStore):
    s, p = full_store, full_store.people
    a = spoke(s, TEAM, "ni", "Nini", "one")
    b = spoke(s, TEAM, "ni", "Nini", "two", 1)
    s.turns.delete_turns([a.id])
    assert p.turns_by("default", "ni") == [b.id] and p.turns_by("default", "ni", TEAM) == [b.id]


def test_aliases_in_one_call_count_a_repeated_row_once_and_keep_the_first(full_store: FullStore):
    """add_aliases takes a batch's rows together (one statement on Postgres): a row given twice
    is one alias, taught by the first row's turn, and the version moves once for the call."""
    s, p = full_store, full_store.people
    first, second = spoke(s, TEAM, "bo", "Bo", "叫她霓霓"), spoke(s, TEAM, "bo", "Bo", "霓霓来了", 1)
    v0 = p.alias_version("default")
    rows = [NewAlias("ni", "霓霓", "learned", "g:team", AT, first.id),
            NewAlias("ni", "霓霓", "learned", "g:team", AT + 60, second.id),
            NewAlias("ni", "Nini", "generated", None, AT)]
    assert p.add_aliases("default", rows) == 2
    assert p.alias_version("default") == v0 + 1
    (taught,) = [a for a in p.get_people("default", ["ni"])["ni"].aliases if a.alias == "霓霓"]
    assert (taught.turn_id, taught.first_seen.timestamp()) == (first.id, AT)


def test_an_alias_met_again_keeps_its_earliest_sighting_in_any_order_of_filing(full_store: FullStore):
    """Parallel workers file a person's turns in any order: a generated form (one row a person)
    ends owned by the chat where it was first said, and a learned one (a row a chat) cites its
    earliest turn, whichever came in first; meeting it again adds nothing new."""
    s, p = full_store, full_store.people
    early, late = spoke(s, TEAM, "bo", "Bo", "叫她霓霓"), spoke(s, CLUB, "bo", "Bo", "霓霓!", 5)
    v0 = p.alias_version("default")
    assert p.add_aliases("default", [NewAlias("ni", "老周", "generated", "g:club", AT + 300, late.id),
                                     NewAlias("ni", "霓霓", "learned", "g:team", AT + 300, late.id)]) == 2
    assert p.add_aliases("default", [NewAlias("ni", "老周", "generated", "g:team", AT, early.id),
                                     NewAlias("ni", "霓霓", "learned", "g:team", AT, early.id),
                                     NewAlias("ni", "老周", "generated", "g:zoo", AT + 600, late.id)]) == 0
    assert p.alias_version("default") == v0 + 1  # the resolver's aliases did not change the second time
    found = {a.alias: (a.learned_in, a.first_seen.timestamp(), a.turn_id)
             for a in p.get_people("default", ["ni"])["ni"].aliases}
    assert found == {"老周": ("g:team", AT, early.id), "霓霓": ("g:team", AT, early.id)}


def test_alias_rows_name_the_chat_a_nickname_was_said_in(full_store: FullStore):
    p = full_store.people
    p.add_aliases("default", [NewAlias("ni", "霓霓", "learned", "g:team", AT, 1),
                              NewAlias("ni", "霓霓", "learned", "g:club", AT + 1, 2),
                              NewAlias("ni", "老周", "generated", "g:team", AT, 1)])
    assert sorted(p.alias_rows("default")) == [("老周", "ni", "generated", "g:team"),
                                              ("霓霓", "ni", "learned", "g:club"), ("霓霓", "ni", "learned", "g:team")]


def test_gender_evidence_counts_each_turn_once_and_moves_its_version(full_store: FullStore):
    p = full_store.people
    assert p.sign_version("default") == 0 and p.signs("default") == []
    rows = [NewSign("ni", "pronoun", "f", 7, AT), NewSign("ni", "pronoun", "f", 8, AT),
            NewSign("ni", "platform", "f", 0, AT), NewSign("bo", "self", "m", 9, AT)]
    assert p.add_signs("default", rows) == 4
    version = p.sign_version("default")
    assert version > 0
    assert p.add_signs("default", rows[:3]) == 0 and p.sign_version("default") == version  # read again: nothing new
    assert p.add_signs("default", [NewSign("ni", "platform", "f", 0, AT + 60)]) == 0  # the platform's word, once
    assert p.signs("default") == [("bo", "self", "m", 1), ("ni", "platform", "f", 1), ("ni", "pronoun", "f", 2)]
    assert p.signs("t2") == [] and p.sign_version("t2") == 0 and p.add_signs("t2", []) == 0


class Boom(Exception):
    """The fault a test injects."""


class FailingAliases:
    """The store's people port, whose ``add_aliases`` fails after ``add_person`` ran; ``tx`` is
    the store's unit of work."""

    def __init__(self, store: FullStore) -> None:
        self._people, self.tx = store.people, store.tx

    def __getattr__(self, name: str) -> object:
        return getattr(self._people, name)

    def add_aliases(self, tenant: str, rows: object) -> int:
        raise Boom("the alias write failed")


def test_the_old_method_names_are_the_ports_calls(full_store: FullStore):
    s = full_store
    s.add_person("default", "ni", "霓霓", ["Nini"], member_of=TEAM)
    assert s.get_people("default", ["ni"]) == s.people.get_people("default", ["ni"])
    assert s.members(TEAM) == s.people.members(TEAM) and s.alias_version("default") == 1


def test_a_rename_notice_is_one_transaction(full_store: FullStore):
    """A rename makes the person a member and gives them the new name in one unit of work
    (tiers/people.py ``notices``): a failure in between leaves neither."""
    from pmemo.tiers.people import People

    s = full_store
    (turn,) = s.turns.add_turns([NewTurn(TEAM, "user", "周霓 修改群名片为 霓霓", None, T0,
                                   {"kind": "rename", "person": "ni"}, "周霓 修改群名片为 霓霓")])
    version = s.people.alias_version("default")
    with pytest.raises(Boom):
        People(FailingAliases(s)).notices([turn])  # type: ignore[arg-type]
    assert s.people.member_ids(TEAM) == set() and s.people.get_people("default", ["ni"]) == {}
    assert s.people.alias_version("default") == version
    assert People(s).notices([turn]) > 0  # without the fault: the member and the name
    assert s.people.member_ids(TEAM) == {"ni"} and "霓霓" in s.people.get_people("default", ["ni"])["ni"].names
