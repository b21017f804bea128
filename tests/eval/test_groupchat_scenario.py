"""The synthetic group-chat scenario keeps every promise it makes, and its scoring helpers add up."""

from __future__ import annotations

import copy
import json
import re
import statistics
from collections import defaultdict
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest

from pmemo.errors import InvalidInput
from pmemo.eval.groupchat_gen import generate
from pmemo.eval.groupchat_scenario import (
    FORMAT,
    QUESTION_KINDS,
    AliasCheck,
    FollowUp,
    LeakProbe,
    Message,
    Person,
    Scenario,
    SubjectCheck,
    from_json,
    summary,
    to_json,
)
from pmemo.eval.groupchat_score import alias_prf, followups_right, leaks, p50, recall_at, subject_accuracy
from pmemo.people.aliases import generated_aliases
from pmemo.text import dialogue

CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def s() -> Scenario:
    return generate(0)


def ts(text: str) -> datetime:
    return datetime.fromisoformat(text)


def scope_of(m: Message) -> tuple[str | None, str | None]:
    return m.group_id, m.user_id


def display_name(p: Person, when: str) -> str:
    return [name for name, since in p.names if since <= when[:10]][-1]


def names_in(text: str, name: str) -> bool:
    """A Latin name only counts as a word; a Chinese one anywhere."""
    if CJK.search(name):
        return name in text
    return re.search(rf"(?<![A-Za-z]){re.escape(name)}(?![A-Za-z])", text) is not None


def subject_of(s: Scenario) -> dict[int, str]:
    return {c.message_idx: c.expected_subject for c in s.subject_checks}


# -- determinism and JSON -----------------------------------------------------------------------


def test_same_seed_same_json_and_another_seed_differs() -> None:
    def dump(sc: Scenario) -> str:
        return json.dumps(to_json(sc), ensure_ascii=False)

    assert dump(generate(0, messages=800)) == dump(generate(0, messages=800))
    assert dump(generate(1, messages=800)) != dump(generate(0, messages=800))


def test_json_round_trip(s: Scenario) -> None:
    data = json.loads(json.dumps(to_json(s), ensure_ascii=False))
    assert data["format"] == FORMAT
    assert from_json(data) == s
    assert to_json(from_json(data)) == data


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_other_seeds_round_trip_and_validate(seed: int) -> None:
    sc = generate(seed, messages=600)
    assert from_json(json.loads(json.dumps(to_json(sc)))) == sc


@pytest.mark.parametrize("count", [0, 300, 3000, 5000])
def test_at_least_the_requested_number_of_messages(count: int) -> None:
    sc = generate(4, messages=count)
    assert len(sc.messages) >= count
    if count >= 1000:  # past the script's own size, filler makes the count exact
        assert len(sc.messages) == count


def test_negative_message_count_is_refused() -> None:
    with pytest.raises(InvalidInput, match="messages"):
        generate(0, messages=-1)


# -- from_json names the bad field --------------------------------------------------------------


def _broken(s: Scenario, edit: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    data = copy.deepcopy(to_json(s))
    edit(data)
    return data


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        (lambda d: d.update(format="pmemo-groupchat/0"), "format"),
        (lambda d: d.pop("format"), "format"),
        (lambda d: d["messages"][3].update(role="bot"), "messages[3].role"),
        (lambda d: d["messages"][4].update(idx="4"), "messages[4].idx"),
        (lambda d: d["messages"][5].update(idx=6), "messages[5].idx"),
        (lambda d: d["messages"][6].pop("content"), "messages[6].content"),
        (lambda d: d["messages"][7].update(colour="red"), "messages[7].colour"),
        (lambda d: d["messages"][8].update(user_id="p_zhouni"), "messages[8].group_id"),
        (lambda d: d["messages"][9].update(group_id="g_nowhere"), "messages[9].group_id"),
        (lambda d: d["messages"][10].update(timestamp="yesterday"), "messages[10].timestamp"),
        (lambda d: d["people"][0].update(lang="fr"), "people[0].lang"),
        (lambda d: d["people"][1]["names"][0].append("extra"), "people[1].names[0]"),
        (lambda d: d["questions"][2].update(kind="trivia"), "questions[2].kind"),
        (lambda d: d["questions"][2].update(evidence=[10**6]), "questions[2].evidence"),
        (lambda d: d["questions"][2].update(evidence="12"), "questions[2].evidence"),
        (lambda d: d["leak_probes"][0].update(group_id="g_nowhere"), "leak_probes[0].group_id"),
        (lambda d: d["alias_checks"][0].update(expected=None), "alias_checks[0].expected"),
        (lambda d: d.update(seed=True), "seed"),
    ],
)
def test_from_json_errors_name_the_field(edit: Callable[[dict[str, Any]], object], field: str) -> None:
    small = generate(0, messages=300)
    with pytest.raises(InvalidInput) as err:
        from_json(_broken(small, edit))
    assert str(err.value).startswith(field + ":"), str(err.value)


def test_from_json_refuses_what_is_not_an_object() -> None:
    with pytest.raises(InvalidInput, match="scenario"):
        from_json([1, 2])


# -- the cast, the groups, the calendar ---------------------------------------------------------


def test_groups_people_and_overlap(s: Scenario) -> None:
    assert len(s.groups) >= 3
    assert len(s.people) >= 20
    people = {p.id: p for p in s.people}
    for g in s.groups:
        for pid in g.members:
            assert g.id in people[pid].groups
    assert sum(len(p.groups) >= 2 for p in s.people) >= 4
    assert any(len(p.groups) >= 3 for p in s.people)
    assert {p.lang for p in s.people} == {"zh", "en"}


def test_four_months_in_order_at_plus_eight(s: Scenario) -> None:
    times = [ts(m.timestamp) for m in s.messages]
    assert [m.idx for m in s.messages] == list(range(len(s.messages)))
    assert times == sorted(times)
    assert all(m.timestamp.endswith("+08:00") for m in s.messages)
    assert times[-1] - times[0] >= timedelta(days=120)


def test_chinese_and_english_in_every_kind_of_place(s: Scenario) -> None:
    zh = [m for m in s.messages if CJK.search(m.content)]
    en = [m for m in s.messages if not CJK.search(m.content) and re.search("[A-Za-z]{3}", m.content)]
    assert len(zh) > 0.4 * len(s.messages)
    assert len(en) > 0.2 * len(s.messages)


def test_mostly_short_small_talk(s: Scenario) -> None:
    scripted = {c.message_idx for c in s.subject_checks} | {i for q in s.questions for i in q.evidence}
    assert len(scripted) < 0.05 * len(s.messages)
    assert statistics.median(len(m.content) for m in s.messages) <= 15


def test_one_scope_per_message_and_speakers_belong_there(s: Scenario) -> None:
    groups = {g.id: set(g.members) for g in s.groups}
    people = {p.id: p for p in s.people}
    for m in s.messages:
        assert (m.group_id is None) != (m.user_id is None)
        if m.role == "assistant":
            assert m.actor_id is None and m.actor is None
            continue
        assert m.role == "user" and m.actor_id is not None
        if m.group_id:
            assert m.actor_id in groups[m.group_id]
        else:
            assert m.actor_id == m.user_id
        assert m.actor == display_name(people[m.actor_id], m.timestamp)


def test_the_agent_replies_sometimes(s: Scenario) -> None:
    replies = [m for m in s.messages if m.role == "assistant"]
    assert len(replies) >= 10
    assert any(m.group_id for m in replies) and any(m.user_id for m in replies)


def test_sessions_never_span_two_chats(s: Scenario) -> None:
    chat_of: dict[str, tuple[str | None, str | None]] = {}
    for m in s.messages:
        assert chat_of.setdefault(m.session_id, scope_of(m)) == scope_of(m)


# -- renames, silence, private talk, group scope ------------------------------------------------


def test_renames_and_both_names_used_later_by_others(s: Scenario) -> None:
    renamed = [p for p in s.people if len(p.names) > 1]
    assert len(renamed) >= 2
    for p in renamed:
        since = p.names[-1][1]
        said_as = {m.actor for m in s.messages if m.actor_id == p.id}
        assert {n for n, _ in p.names} <= said_as, p.id
        later = [m.content for m in s.messages if m.actor_id not in (p.id, None) and m.timestamp[:10] > since]
        for name, _ in p.names:
            assert any(names_in(text, name) for text in later), (p.id, name)


def test_a_member_silent_for_three_months_is_asked_about(s: Scenario) -> None:
    end = ts(s.questions[0].at)
    last: dict[str, datetime] = {}
    for m in s.messages:
        if m.actor_id:
            last[m.actor_id] = ts(m.timestamp)
    silent = {pid for pid, t in last.items() if end - t >= timedelta(days=90)}
    assert silent
    about = subject_of(s)
    asked = [q for q in s.questions if q.kind == "silent"]
    assert len(asked) >= 3
    for q in asked:
        subjects = {about[i] for i in q.evidence}
        assert subjects <= silent
        assert all(s.messages[i].actor_id in silent for i in q.evidence)  # they said it themselves


def test_a_private_fact_never_reaches_a_group_view(s: Scenario) -> None:
    private = [c for c in s.subject_checks if s.messages[c.message_idx].user_id]
    assert private
    for c in private:
        views = [p for p in s.profile_checks if p.person_id == c.expected_subject and p.group_id]
        assert views
        for view in views:
            assert c.fact_hint in view.absent
        asked = [q for q in s.questions if c.message_idx in q.evidence]
        assert asked and all(q.user_id == c.expected_subject and q.group_id is None for q in asked)


def test_a_group_scoped_fact_is_absent_from_another_groups_view(s: Scenario) -> None:
    scoped = 0
    for p in s.people:
        views = {v.group_id: v for v in s.profile_checks if v.person_id == p.id}
        for a in p.groups:
            for b in p.groups:
                if a != b and a in views and b in views:
                    scoped += len(set(views[b].present) & set(views[a].absent))
    assert scoped >= 3


def test_profile_checks_are_consistent(s: Scenario) -> None:
    assert len(s.profile_checks) >= 20
    for v in s.profile_checks:
        assert not set(v.present) & set(v.absent), v
        assert v.why
    replaced = [v for v in s.profile_checks if v.group_id is None and "replaced" in v.why]
    assert len(replaced) >= 3  # two job changes and a move at least


# -- nicknames and aliases ----------------------------------------------------------------------


def test_nicknames_are_introduced_before_others_use_them(s: Scenario) -> None:
    who = [q for q in s.questions if q.kind == "who"]
    assert len(who) >= 8
    for q in who:
        nick = next(n for p in s.people for n in p.nicknames if names_in(q.query, n))
        chat = [m for m in s.messages if m.group_id == q.group_id and m.role == "user"]
        said = [m.idx for m in chat if names_in(m.content, nick)]
        assert said[0] == min(q.evidence), (q.query, s.messages[said[0]].content)
        assert len(said) >= 2  # and used afterwards (once is all a silent member gets)
        intro = s.messages[q.evidence[0]].content
        assert names_in(intro, nick) and q.answer in intro


def test_two_people_share_a_nickname_in_different_groups(s: Scenario) -> None:
    by_nick = defaultdict(set)
    for p in s.people:
        for n in p.nicknames:
            by_nick[n].add(p.id)
    shared = {n: ids for n, ids in by_nick.items() if len(ids) > 1}
    assert shared
    for ids in shared.values():
        groups = [set(p.groups) for p in s.people if p.id in ids]
        assert not set.intersection(*groups)


def test_alias_checks(s: Scenario) -> None:
    assert len(s.alias_checks) >= 40
    negatives = [a for a in s.alias_checks if not a.expected]
    assert len(negatives) >= 10
    people = {p.id: p for p in s.people}
    groups = {g.id: set(g.members) for g in s.groups}
    for a in s.alias_checks:
        for pid in a.expected:
            assert pid in groups[a.group_id]
            forms = [n for n, _ in people[pid].names] + list(people[pid].nicknames)
            forms += [people[pid].names[0][0].split()[0]]
            forms += [f for n, _ in people[pid].names for f in generated_aliases(n)]  # 老张, 周姐 (issue 44 §6)
            assert any(names_in(a.text, f) for f in forms), a
    assert any(len(a.expected) >= 2 for a in s.alias_checks)


def test_alias_checks_have_the_shapes_of_generated_forms(s: Scenario) -> None:
    """Issue 44 §6: a title nobody used (王老师 with the member 王静 in the group), two members who
    could both be 老张 (used for one of them), 哥 / 姐 forms of women and men, a nickname of another group."""
    people = {p.id: p for p in s.people}
    groups = {g.id: set(g.members) for g in s.groups}
    by_text = {a.text: a for a in s.alias_checks}
    assert by_text["王老师讲的课真好"].expected == () and "p_wangjing" in groups["g_study"]
    zhang = [p for p in groups["g_hobby"] if people[p].names[0][0].startswith("张")]
    assert sorted(zhang) == ["p_zhangmin", "p_zhangwei"]
    assert by_text["老张今天来打球吗"].expected == ("p_zhangwei",)
    assert by_text["张哥今天来打球吗"].expected == ("p_zhangwei",)
    assert by_text["张姐今天来打球吗"].expected == ("p_zhangmin",)
    assert by_text["周哥今天来自习吗"].expected == () and by_text["周姐今天来自习吗"].expected == ("p_zhouni",)
    assert by_text["磊哥今天来自习吗"].expected == () and "p_zhaolei" not in groups["g_study"]
    # the group says how it calls them, and who is a woman or a man, in its messages
    said = [m.content for m in s.messages if m.group_id == "g_hobby"]
    assert any("叫他老张" in t for t in said) and any("张敏" in t and "她" in t for t in said)
    assert any("叫他许工" in m.content for m in s.messages if m.group_id == "g_study")


# -- questions, subjects, leaks -----------------------------------------------------------------


def test_questions_cover_every_kind_with_true_evidence(s: Scenario) -> None:
    assert len(s.questions) >= 60
    kinds = {k: sum(q.kind == k for q in s.questions) for k in QUESTION_KINDS}
    assert all(n >= 3 for n in kinds.values()), kinds
    groups = {g.id: set(g.members) for g in s.groups}
    assert len({q.id for q in s.questions}) == len(s.questions)
    for q in s.questions:
        assert q.evidence and q.answer
        ev = [s.messages[i] for i in q.evidence]
        assert all(scope_of(m) == (q.group_id, q.user_id) for m in ev), q  # never ask A about B
        assert any(q.answer in m.content for m in ev), q
        assert all(ts(m.timestamp) < ts(q.at) for m in ev)
        if q.group_id:
            assert q.asker in groups[q.group_id]
        else:
            assert q.asker == q.user_id


def test_cues_are_chats_that_name_the_person_but_not_the_fact(s: Scenario) -> None:
    """A cue is the chat's last lines (a dialogue, as ``text.dialogue`` reads one) in the group
    where the fact was said; it names the fact's person and never says the fact's value."""
    people = {p.id: p for p in s.people}
    groups = {g.id: set(g.members) for g in s.groups}
    about = subject_of(s)
    assert len(s.cues) >= 40 and {q.kind for q in s.cues} == {"cue"}
    assert len({q.id for q in s.cues}) == len(s.cues)
    for q in s.cues:
        said = dialogue.lines(q.query)
        assert 2 <= len(said) <= 4, q.query
        ev = [s.messages[i] for i in q.evidence]
        assert ev and all(scope_of(m) == (q.group_id, None) for m in ev), q
        assert any(q.answer in m.content for m in ev) and q.answer not in q.query, q
        person = people[about[q.evidence[0]]]
        named = {n for n, _ in person.names} | set(person.nicknames)
        assert any(n in q.query for n in named), q.query  # the person is named in passing
        assert q.asker in groups[q.group_id] and q.asker != person.id
        assert all(ts(m.timestamp) < ts(q.at) for m in ev)


def test_nickname_and_rename_questions_use_the_right_names(s: Scenario) -> None:
    people = {p.id: p for p in s.people}
    about = subject_of(s)
    for q in s.questions:
        if q.kind not in ("nickname", "rename"):
            continue
        p = people[about[q.evidence[0]]]
        if q.kind == "nickname":
            assert any(names_in(q.query, n) for n in p.nicknames), q
        if q.kind == "rename":
            said_as = display_name(p, s.messages[q.evidence[0]].timestamp)
            used = [n for n, _ in p.names if names_in(q.query, n)]
            assert used and said_as not in used, q


def test_job_change_questions_point_at_the_newer_message(s: Scenario) -> None:
    about = subject_of(s)
    asked = [q for q in s.questions if q.kind == "job_change"]
    assert len(asked) >= 2
    for q in asked:
        pid = about[q.evidence[0]]
        (view,) = [v for v in s.profile_checks if v.person_id == pid and v.group_id is None]
        old = [c for c in s.subject_checks if c.expected_subject == pid and c.fact_hint in view.absent]
        assert old and all(c.message_idx < min(q.evidence) for c in old)
        assert q.answer in view.present


def test_subject_checks_include_third_person_statements(s: Scenario) -> None:
    assert len(s.subject_checks) >= 30
    third = [c for c in s.subject_checks if s.messages[c.message_idx].actor_id != c.expected_subject]
    assert len(third) >= 5
    for c in s.subject_checks:
        assert c.fact_hint in s.messages[c.message_idx].content


def test_several_people_share_a_fact_kind(s: Scenario) -> None:
    allergic = {c.expected_subject for c in s.subject_checks if "过敏" in s.messages[c.message_idx].content}
    allergic |= {c.expected_subject for c in s.subject_checks if "allerg" in s.messages[c.message_idx].content}
    assert len(allergic) >= 4


def test_leak_probes_forbid_only_other_chats(s: Scenario) -> None:
    assert len(s.leak_probes) >= 20
    for probe in s.leak_probes:
        assert probe.forbidden and probe.query
        assert all(s.messages[i].group_id != probe.group_id for i in probe.forbidden)
    assert any(s.messages[i].user_id for p in s.leak_probes for i in p.forbidden)  # a private fact is probed


# -- plans and follow-ups -----------------------------------------------------------------------


def test_plans_surface_near_their_date_and_not_after(s: Scenario) -> None:
    by_plan = defaultdict(list)
    for f in s.followups:
        by_plan[(f.person_id, f.group_id)].append(f)
    assert len(by_plan) >= 3
    for (pid, group), checks in by_plan.items():
        checks.sort(key=lambda f: f.at)
        label = next(f.expect for f in checks if f.expect)
        said = [m for m in s.messages if m.actor_id == pid and m.group_id == group and label in m.content]
        assert said and said[0].timestamp < checks[0].at  # the plan was announced first
        assert [f.expect for f in checks][:2] == [label, label]  # before, and the day after
        assert checks[-1].expect is None
        last_expect = max(ts(f.at) for f in checks if f.expect)
        for f in checks:
            if f.expect is None and "outcome" in f.why:  # the person reported back in between
                spoke = [m for m in s.messages if m.actor_id == pid and m.group_id == group]
                assert any(last_expect < ts(m.timestamp) < ts(f.at) for m in spoke)
            elif f.expect is None:
                assert ts(f.at) - last_expect > timedelta(days=14)
    assert any("outcome" in f.why for f in s.followups)


# -- summary ------------------------------------------------------------------------------------


def test_summary_counts(s: Scenario) -> None:
    got = summary(s)
    assert got["messages"] == len(s.messages) == sum(got["messages_per_group"].values())
    assert set(got["messages_per_group"]) == {g.id for g in s.groups} | {"private"}
    assert got["people"] >= 20 and got["groups"] >= 3 and got["renames"] >= 2
    assert got["silent_members"] and got["private_chats"] >= 1 and got["days"] >= 120
    assert got["questions"] == len(s.questions) and got["leak_probes"] == len(s.leak_probes)
    assert got["alias_negatives"] >= 10


# -- scoring helpers ----------------------------------------------------------------------------


def test_recall_at_counts_windows_and_cuts_at_k() -> None:
    assert recall_at([3, 9], [[1], [3, 4], [9]], k=2) == 0.5
    assert recall_at([3, 9], [[1], [3, 4], [9]], k=3) == 1.0
    assert recall_at([3, 3], [[3]], k=1) == 1.0  # duplicate evidence counts once
    assert recall_at([3], [], k=5) == 0.0
    assert recall_at([3], [[3]], k=0) == 0.0
    with pytest.raises(ValueError):
        recall_at([], [[1]], k=1)


def test_alias_prf_micro_over_people() -> None:
    checks = [
        AliasCheck("霓霓和涛哥", "g", ("a", "b")),
        AliasCheck("让我静静", "g", ()),
        AliasCheck("Alex?", "g", ("c",)),
    ]
    got = alias_prf(checks, [("a",), ("d",), ("c", "e")])
    assert (got["tp"], got["fp"], got["fn"]) == (2, 2, 1)
    assert got["precision"] == 0.5 and got["recall"] == pytest.approx(2 / 3)
    assert got["f1"] == pytest.approx(2 * 0.5 * (2 / 3) / (0.5 + 2 / 3))
    assert alias_prf([AliasCheck("x", "g", ())], [()]) == {
        "precision": 1.0, "recall": 1.0, "f1": 1.0, "tp": 0, "fp": 0, "fn": 0,
    }  # fmt: skip
    with pytest.raises(ValueError, match="one answer per check"):
        alias_prf(checks, [()])


def test_subject_accuracy() -> None:
    checks = [SubjectCheck(i, subject, "x") for i, subject in enumerate("abca")]
    assert subject_accuracy(checks, ["a", "a", None, "a"]) == 0.5
    with pytest.raises(ValueError):
        subject_accuracy([], [])


def test_leaks_count_forbidden_idx_once_per_probe() -> None:
    probes = [LeakProbe("g", "q", (5, 6)), LeakProbe("h", "q", (7,))]
    assert leaks(probes, [[5, 5, 1], [8]]) == 1
    assert leaks(probes, [[5, 6], [7]]) == 3
    assert leaks(probes, [[], []]) == 0


def test_followups_right() -> None:
    checks = [
        FollowUp("p", "g", "t1", "在吗", "考研", "before"),
        FollowUp("p", "g", "t2", "在吗", None, "after the outcome"),
        FollowUp("p", "g", "t3", "在吗", None, "long past"),
    ]
    assert followups_right(checks, [True, False, True]) == (2, 3)
    assert followups_right(checks, [True, False, False]) == (3, 3)


def test_p50() -> None:
    assert p50([5.0]) == 5.0
    assert p50([4.0, 1.0, 3.0]) == 3.0
    assert p50([1.0, 2.0, 3.0, 4.0]) == 2.5
    assert p50([]) is None
