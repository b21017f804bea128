"""People as data (issue 17): stable ids on turns, the registry, renames, facts keyed by
whom they are about, and profile views per group that never show another group's facts."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import numpy as np
import pytest

from pmemo import InvalidInput, NotFound, SyncMemory

T0 = datetime(2026, 9, 1, 20, 0, tzinfo=timezone(timedelta(hours=8)))


def say(m: SyncMemory, group: str, who: str, name: str, text: str, minutes: int, **extra: object) -> None:
    m.add(group_id=group, session_id=f"{group}-chat", actor_id=who, actor=name, content=text,
          timestamp=T0 + timedelta(minutes=minutes), **extra)


def test_two_members_facts_stay_apart(mem: SyncMemory) -> None:
    # the case: Bob's name is not a conflict of Alice's, his steak is not her diet
    say(mem, "g1", "alice", "Alice", "My name is Alice. I'm a vegetarian.", 0)
    say(mem, "g1", "bob", "Bob", "My name is Bob. I love steak.", 1)
    mem.drain()
    alice = {(f.key, f.value) for f in mem.profile("alice", group_id="g1")}
    bob = {(f.key, f.value) for f in mem.profile("bob", group_id="g1")}
    assert alice == {("name", "Alice"), ("diet", "vegetarian")}
    assert bob == {("name", "Bob"), ("opinion:steak", "likes")}
    assert all(f.status == "current" for f in mem.profile("alice", history=True))
    assert {f.subject_id for f in mem.profile(group_id="g1")} == {"alice", "bob"}
    assert {f.learned_in for f in mem.profile("bob")} == {"g:g1"}


def test_group_view_never_shows_another_group_or_a_private_chat(mem: SyncMemory) -> None:
    say(mem, "work", "ni", "周霓", "我对花生过敏", 0)
    say(mem, "study", "ni", "周霓", "我不吃香菜", 5)
    mem.add(user_id="ni", session_id="dm", actor_id="ni", actor="周霓", content="我住在杭州",
            timestamp=T0 + timedelta(minutes=9))
    mem.drain()
    work = {f.key for f in mem.profile("ni", group_id="work")}
    study = {f.key for f in mem.profile("ni", group_id="study")}
    private = {f.key for f in mem.profile("ni", user_id="ni")}
    everywhere = {f.key for f in mem.profile("ni")}
    assert work == {"allergy:花生"} and study == {"diet:香菜"} and private == {"home_city"} or private == set()
    assert work | study <= everywhere


def test_private_facts_in_groups_only_when_allowed(tmp_path) -> None:
    from pmemo import Settings

    for allowed in (False, True):
        with SyncMemory.open(tmp_path / str(allowed), embedder="hashing",
                             settings=Settings(private_facts_in_groups=allowed)) as m:
            m.add(user_id="ni", session_id="dm", actor_id="ni", content="I'm allergic to peanuts.",
                  timestamp=T0)
            say(m, "g1", "ni", "Ni", "hello all", 1)
            m.drain()
            keys = {f.key for f in m.profile("ni", group_id="g1")}
            assert keys == ({"allergy:peanuts"} if allowed else set())


def test_registry_upsert_aliases_merge_and_remove(mem: SyncMemory) -> None:
    p = mem.add_person("ni", name="周霓", aliases=["霓霓"])
    assert p.name == "周霓" and {a.alias for a in p.aliases} >= {"周霓", "霓霓"}
    p = mem.add_person("ni", aliases=["Neko"])  # idempotent, merged
    assert {a.alias for a in p.aliases} >= {"周霓", "霓霓", "Neko"}
    assert {a.source for a in p.aliases if a.alias == "霓霓"} == {"registered"}
    p = mem.remove_alias("ni", "霓霓")
    assert "霓霓" not in {a.alias for a in p.aliases}
    with pytest.raises(NotFound, match="no alias"):
        mem.remove_alias("ni", "霓霓")
    with pytest.raises(NotFound, match="person 'nobody'"):
        mem.person("nobody")
    with pytest.raises(NotFound):  # another tenant's person
        mem.person("ni", tenant_id="other")


@pytest.mark.parametrize(("kwargs", "field"), [
    ({"person_id": ""}, "person_id"),
    ({"person_id": "a b"}, "person_id"),
    ({"person_id": "ok", "aliases": [""]}, "alias"),
    ({"person_id": "ok", "aliases": ["x" * 65]}, "alias"),
    ({"person_id": "ok", "aliases": ["bad\x00"]}, "alias"),
    ({"person_id": "ok", "aliases": "霓霓"}, "aliases"),
    ({"person_id": "ok", "name": "\u200b"}, "name"),
])
def test_bad_people_input_names_the_field(mem: SyncMemory, kwargs: dict, field: str) -> None:
    person = kwargs.pop("person_id")
    with pytest.raises(InvalidInput, match=field):
        mem.add_person(person, **kwargs)


@pytest.mark.parametrize("bad", ["", "x" * 129, "a\nb", "名字", 7])
def test_bad_actor_id_is_refused_and_nothing_is_stored(mem: SyncMemory, bad: object) -> None:
    with pytest.raises(InvalidInput, match="actor_id"):
        mem.add_many([{"group_id": "g", "session_id": "s", "content": "ok", "actor_id": "fine"},
                      {"group_id": "g", "session_id": "s", "content": "hi", "actor_id": bad}])
    assert mem.turns(group_id="g") == []


def test_rename_keeps_history_and_both_names_resolve(mem: SyncMemory) -> None:
    say(mem, "g1", "wt", "许文涛", "大家好", 0)
    say(mem, "g1", "wt", "涛哥在摸鱼", "我改名了", 60 * 24 * 30)
    say(mem, "g1", "ni", "周霓", "哈哈", 60 * 24 * 31)
    mem.drain()
    p = mem.person("wt")
    assert p.names == ("许文涛", "涛哥在摸鱼") and p.name == "涛哥在摸鱼"
    for text in ("许文涛在吗", "涛哥在摸鱼在吗"):
        (match,) = [m for m in mem.resolve_people(text, group_id="g1") if "wt" in m.person_ids]
        assert text[match.start:match.end] in p.names
    (member,) = [x for x in mem.people(group_id="g1") if x.person.id == "wt"]
    assert member.messages == 2 and member.first_seen < member.last_seen
    assert [x.person.id for x in mem.people(group_id="g1")] == ["ni", "wt"]  # latest speaker first
    mem.add_person("quiet", group_id="g1")
    assert [x.person.id for x in mem.people(group_id="g1")] == ["ni", "wt", "quiet"]  # silent last


def test_turns_carry_actor_id_and_old_turns_keep_working(mem: SyncMemory) -> None:
    say(mem, "g1", "ni", "周霓", "hi", 0)
    mem.add(user_id="u1", session_id="s", content="I love tea.", timestamp=T0)
    mem.drain()
    assert [t.actor_id for t in mem.turns(group_id="g1")] == ["ni"]
    (turn,) = mem.turns(user_id="u1")
    assert turn.actor_id is None
    assert [(f.key, f.subject_id) for f in mem.profile("u1")] == [("opinion:tea", "u1")]
    assert [f.key for f in mem.profile(user_id="u1")] == ["opinion:tea"]


def test_add_person_with_a_group_makes_a_silent_member(mem: SyncMemory) -> None:
    mem.add_person("quiet", name="Quinn", group_id="g1")
    (member,) = mem.people(group_id="g1")
    assert member.person.name == "Quinn" and member.messages == 0
    assert mem.people(group_id="g2") == []


def sections(pack) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for h in pack.items:
        out.setdefault(h.tier, []).append(h.text)
    return out


def test_context_brings_the_asker_and_a_silent_member_by_nickname(mem: SyncMemory) -> None:
    say(mem, "study", "ni", "周霓", "大家好，叫我霓霓就行。我对花生过敏。", 0)
    say(mem, "work", "ni", "周霓", "我在腾讯工作", 1)  # another group: never in study's context
    say(mem, "study", "wt", "许文涛", "我不吃香菜", 2)
    for day in range(1, 120):  # months of chat without 周霓
        say(mem, "study", "wt", "许文涛", f"今天第{day}天打卡，继续刷题", 60 * 24 * day)
    mem.drain()
    pack = mem.context("你认识霓霓吗？她对什么过敏？", group_id="study", asker="wt",
                       at=T0 + timedelta(days=121))
    people = sections(pack)["people"]
    # the person asked about first (issue 44 §3), her allergy right under her line; then the asker
    assert people[0].startswith("周霓（又名霓霓") and people[1] == "周霓对花生过敏"
    assert "最近发言 2026-09-01；在这里发过1条消息：消息简短，说中文" in people[0]
    (wt,) = [line for line in people if line.startswith("许文涛（")]
    assert "在这里发过100+条消息：消息简短，说中文" in wt and people[people.index(wt) + 1] == "许文涛不吃香菜"
    assert not any("腾讯" in line for line in pack.text.splitlines())
    # search finds the fact by the nickname, with the turn that said it as its source
    (first, *_) = mem.search("霓霓对什么过敏？", group_id="study")
    assert first.kind == "fact" and first.text == "周霓对花生过敏"
    assert [t.actor_id for t in first.sources] == ["ni"]


def test_a_dialogue_is_about_whom_its_lines_name_not_who_speaks(mem: SyncMemory) -> None:
    """The chat's last lines as the query: the speakers' labels name nobody (they are who
    talks); a member named in a line is who it is about, and what is known of them comes first
    (a chat about her birthday cake asks for nothing, and needs her peanut allergy)."""
    say(mem, "study", "ni", "周霓", "大家好，叫我霓霓就行。我对花生过敏。", 0)
    say(mem, "study", "wt", "许文涛", "大家好，我是许文涛", 1)
    say(mem, "study", "hl", "黄丽", "大家好，我是黄丽", 2)
    mem.drain()
    chat = "许文涛: 晚安\n黄丽: 下周给霓霓过生日，蛋糕我来买"
    hits = mem.search(chat, group_id="study", limit=5)
    assert [h.text.split(" ")[0] for h in hits if h.kind == "person"] == ["周霓"]
    assert [h.kind for h in hits[:2]] == ["person", "fact"] and hits[1].text == "周霓对花生过敏"
    plain = mem.search("下周给霓霓过生日，蛋糕我来买", group_id="study", limit=5)  # one line: not a chat
    assert plain[0].kind == "person" and "fact" not in [h.kind for h in plain[:2]]
    assert sections(mem.context(chat, group_id="study"))["people"][0].startswith("周霓")


class Topics:
    """A scripted embedder that knows two topics, food and study (the model's part of the test:
    a real one puts a birthday cake nearer an allergy than a school)."""

    dim, model_id, cluster_threshold = 4, "topics-test", 0.9
    WORDS = {0: ("过敏", "蛋糕", "零食", "花生"), 1: ("大学", "专业", "课")}

    def _vec(self, text: str) -> np.ndarray:
        v = np.array([sum(w in text for w in self.WORDS[0]), sum(w in text for w in self.WORDS[1]), 0.0, 0.1])
        return v / np.linalg.norm(v)

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        return np.stack([self._vec(t) for t in texts])

    def embed_query(self, text: str) -> np.ndarray:
        return self._vec(text)


def test_what_is_known_of_a_person_comes_nearest_the_query_first(tmp_path) -> None:
    """A chat that names 周霓 asks about none of her facts in words; the one nearest it in
    meaning (by the turns that said it) comes first: her allergy for a birthday cake, her
    school for her classes, although the allergy is the more important fact."""
    with SyncMemory.open(tmp_path, embedder=Topics()) as m:
        say(m, "study", "ni", "周霓", "我是华东理工大学心理学专业的", 0)
        say(m, "study", "ni", "周霓", "我对花生过敏", 1)
        m.drain()
        assert {f.key for f in m.profile("ni", group_id="study")} >= {"allergy:花生"}
        chat = "许文涛: 晚安\n黄丽: 下周给霓霓过生日，蛋糕零食我来买"
        facts = [h.text for h in m.search(chat, group_id="study", limit=5) if h.kind == "fact"]
        assert facts[0] == "周霓对花生过敏", facts
        study = [h.text for h in m.search("许文涛: 早\n黄丽: 霓霓最近课多吗", group_id="study") if h.kind == "fact"]
        assert "花生" not in study[0], study


class Places(Topics):
    """Two topics, where one lives and where one works: "闵行人一枚" and "我在云杉科技上班" say
    neither in their words; the sentences of the facts they gave ("用户住在闵行", "用户在云杉科技
    工作") say one each."""

    model_id = "places-test"
    WORDS = {0: ("住", "那边", "下雨"), 1: ("工作", "招人")}


def test_a_fact_is_near_the_query_by_what_it_says_too(tmp_path) -> None:
    """A fact's nearness is also its own sentence's (said of nobody, embedded once and cached
    by its words), not only the turns that said it: neither turn is near any question here, yet
    "is it raining where he is" brings up where he lives first and "is his company hiring" where
    he works. The sentences are embedded in the background, when the facts are learned; forgetting
    the turn, or dropping the fact, drops that sentence's cached vector too."""
    from pmemo.embedders.cached import cache_key

    with SyncMemory.open(tmp_path, embedder=Places()) as m:
        say(m, "study", "wt", "许文涛", "我在云杉科技上班", 0)
        say(m, "study", "wt", "许文涛", "闵行人一枚", 1)
        m.drain()
        store, model = m._memory._store, m._memory._embed.model_id
        # embedded in the background, before any query
        assert store.embed_cache.cache_get([cache_key(model, "用户住在闵行")])
        facts = [h for h in m.search("周怡: 许文涛那边今天下雨了没", group_id="study", limit=5) if h.kind == "fact"]
        assert [h.text for h in facts] == ["许文涛住在闵行", "许文涛在云杉科技工作"]
        hiring = m.search("何欣: 许文涛你们公司招人不", group_id="study", limit=5)
        assert [h.text for h in hiring if h.kind == "fact"] == ["许文涛在云杉科技工作", "许文涛住在闵行"]
        m.forget([facts[0].sources[0].id], hard=True)
        assert store.embed_cache.cache_get([cache_key(model, "用户住在闵行")]) == {}
        work = next(f for f in m.profile("wt", group_id="study") if f.key == "employer")
        assert store.embed_cache.cache_get([cache_key(model, "用户在云杉科技工作")])
        m.delete_fact(work.id)
        assert store.embed_cache.cache_get([cache_key(model, "用户在云杉科技工作")]) == {}


def test_no_people_section_without_people(mem: SyncMemory) -> None:
    mem.add(user_id="u", session_id="s", content="I love tea.", timestamp=T0)
    mem.drain()
    pack = mem.context("what do I like?", user_id="u", session_id="s")
    assert "people" not in sections(pack) and "## People" not in pack.text


@pytest.mark.parametrize(("days_after", "outcome", "expected"), [
    (-3, False, True),   # before the exam: it is coming up
    (1, False, True),    # the day after, nobody said how it went
    (1, True, False),    # the outcome was reported
    (20, False, False),  # long past
])
def test_the_askers_plan_comes_up_near_its_date(mem: SyncMemory, days_after: int, outcome: bool,
                                                 expected: bool) -> None:
    # T0 is 1 September; the exam is on 23 December
    say(mem, "study", "ni", "周霓", "12月23日考研，最近压力好大", 0)
    say(mem, "study", "wt", "许文涛", "加油！", 1)
    exam = datetime(2026, 12, 23, 9, 0, tzinfo=T0.tzinfo)
    if outcome:
        say(mem, "study", "ni", "周霓", "考完了，感觉还行", int((exam - T0).total_seconds() // 60) + 600)
    mem.drain()
    (item,) = mem.agenda(person_id="ni", group_id="study")
    assert (item.day.isoformat(), item.what, item.status) == ("2026-12-23", "考研", "done" if outcome else "open")
    pack = mem.context("还不睡？", group_id="study", asker="ni", at=exam + timedelta(days=days_after))
    assert any("考研" in line for line in sections(pack).get("agenda", [])) is expected
    # another person asking does not get ni's plan
    other = mem.context("还不睡？", group_id="study", asker="wt", at=exam - timedelta(days=3))
    assert "agenda" not in sections(other)


def test_context_rejects_bad_asker_and_recent(mem: SyncMemory) -> None:
    with pytest.raises(InvalidInput, match="asker"):
        mem.context("hi", group_id="g", asker="not valid!")
    with pytest.raises(InvalidInput, match="recent"):
        mem.context("hi", group_id="g", recent="just a string")


def test_forget_cascades_into_the_agenda_and_restore_brings_it_back(mem: SyncMemory) -> None:
    say(mem, "study", "ni", "周霓", "12月23日考研", 0)
    say(mem, "study", "ni", "周霓", "考完了，感觉还行", 60 * 24 * 113)  # 23 December
    mem.drain()
    plan, outcome = mem.turns(group_id="study")
    assert [i.status for i in mem.agenda("ni", group_id="study")] == ["done"]
    mem.forget([outcome.id])  # the outcome is forgotten: the plan is open again
    assert [i.status for i in mem.agenda("ni", group_id="study")] == ["open"]
    report = mem.forget([plan.id])
    assert mem.agenda("ni", group_id="study") == [] and report["agenda"]
    mem.restore(report["batch"])
    assert [i.what for i in mem.agenda("ni", group_id="study")] == ["考研"]
    mem.delete_turn(plan.id)  # a hard delete takes it along too
    assert mem.agenda("ni", group_id="study") == []


def test_forgetting_a_job_change_reinstates_the_same_persons_old_job(mem: SyncMemory) -> None:
    say(mem, "g", "wt", "许文涛", "我在云杉科技工作", 0)
    say(mem, "g", "gf", "高峰", "我在蓝鲸数据工作", 1)
    say(mem, "g", "wt", "许文涛", "我跳槽到蓝鲸数据了", 60 * 24 * 30)
    mem.drain()
    assert [(f.value, f.status) for f in mem.profile("wt", group_id="g", history=True)
            if f.key == "employer"] == [("蓝鲸数据", "current"), ("云杉科技", "superseded")]  # the current one first
    change = mem.turns(group_id="g")[-1]
    mem.forget([change.id])
    assert [f.value for f in mem.profile("wt", group_id="g") if f.key == "employer"] == ["云杉科技"]
    assert [f.value for f in mem.profile("gf", group_id="g") if f.key == "employer"] == ["蓝鲸数据"]


def test_forget_what_one_person_said(mem: SyncMemory) -> None:
    say(mem, "g1", "ni", "周霓", "我对花生过敏", 0)
    say(mem, "g2", "ni", "周霓", "我在腾讯工作", 1)
    say(mem, "g1", "wt", "许文涛", "我不吃香菜", 2)
    mem.drain()
    report = mem.forget(person_id="ni", group_id="g1")
    assert [t.actor_id for t in mem.turns(group_id="g1")] == ["wt"]
    assert mem.profile("ni", group_id="g1") == [] and mem.profile("ni", group_id="g2")
    assert {f.key for f in mem.profile("wt")} == {"diet:香菜"}
    mem.restore(report["batch"])
    assert {f.key for f in mem.profile("ni")} == {"allergy:花生", "employer"}
    mem.forget(person_id="ni")  # everywhere
    assert mem.profile("ni") == [] and [t.actor_id for t in mem.turns(group_id="g2")] == []
    with pytest.raises(InvalidInput, match="one of"):
        mem.forget([1], person_id="ni")


def test_an_introduction_teaches_a_nickname_only_for_someone_known(mem: SyncMemory) -> None:
    say(mem, "g", "zl", "赵磊", "大家好", 0)
    say(mem, "g", "kk", "Kai", "跟新人介绍下，赵磊就是磊哥", 1)
    say(mem, "g", "kk", "Kai", "周末就是休息。btw Alexander Ross goes by Alex", 2)
    mem.drain()
    assert [m.person_ids for m in mem.resolve_people("问下磊哥", group_id="g")] == [("zl",)]
    learned = {a.alias for p in ("zl", "kk") for a in mem.person(p).aliases if a.source == "learned"}
    assert learned == {"磊哥"}  # 休息 is nobody's name; Alexander Ross is nobody pmemo knows


def test_a_name_the_card_shows_is_not_a_fact_of_its_own(mem: SyncMemory) -> None:
    """"叫我霓霓就行" teaches an alias and a preferred-name fact: the card lists the name, and
    the facts that follow it are the ones that say something else (a slot is not spent on it)."""
    say(mem, "study", "ni", "周霓", "大家好～叫我霓霓就行，我对花生过敏", 0)
    mem.drain()
    assert ("preferred_name", "霓霓") in {(f.key, f.value) for f in mem.profile("ni", group_id="study")}
    hits = mem.search("霓霓最近怎么样", group_id="study", limit=5)
    assert hits[0].kind == "person" and "霓霓" in hits[0].text
    assert [h.text for h in hits if h.kind == "fact"] == ["周霓对花生过敏"]
