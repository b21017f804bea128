"""Issue 44 §6 through the library: what a chat says of its people decides which name forms
name them (a real SQLite store, the background jobs drained)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

from pmemo import Settings, SyncMemory

T0 = datetime(2026, 9, 1, 20, 0, tzinfo=timezone(timedelta(hours=8)))


def say(m: SyncMemory, group: str, who: str, name: str, text: str, minutes: int, **extra: object) -> None:
    m.add(group_id=group, session_id=f"{group}-chat", actor_id=who, actor=name, content=text,
          timestamp=T0 + timedelta(minutes=minutes), **extra)


def named(m: SyncMemory, text: str, group: str) -> list[str]:
    return [x.person_ids[0] for x in m.resolve_people(text, group_id=group) if not x.ambiguous]


def test_a_title_names_a_member_once_the_chat_used_it_for_them(mem: SyncMemory) -> None:
    say(mem, "study", "wl", "王磊", "大家好", 0)
    say(mem, "study", "zn", "周霓", "晚上好", 1)
    say(mem, "club", "wl", "王磊", "周六打球吗", 2)
    mem.drain()
    assert named(mem, "王老师讲的课真好", "study") == []  # the case: some teacher
    assert named(mem, "老王今天来吗", "study") == ["wl"]  # the one 王 of the group
    # a reply the platform ties to 王磊 calls him 王老师: that is what this group calls him
    say(mem, "study", "zn", "周霓", "王老师，这道题怎么做", 3, metadata={"reply_to_person": "wl"})
    mem.drain()
    assert named(mem, "王老师讲的课真好", "study") == ["wl"]
    assert named(mem, "王老师讲的课真好", "club") == []  # not said in the club
    (alias,) = [a for a in mem.person("wl").aliases if a.alias == "王老师"]
    assert (alias.source, alias.learned_in) == ("mention", "g:study")
    # only the form a message opens with is said to them: 老王 later in a reply may be someone else
    say(mem, "club", "zn", "周霓", "好的，老王也这么说", 4, metadata={"reply_to_person": "wl"})
    say(mem, "club", "zn", "周霓", "@王工 周六来吗", 5, metadata={"mentions": ["wl"]})
    mem.drain()
    said = {(a.alias, a.learned_in) for a in mem.person("wl").aliases if a.source == "mention"}
    assert said == {("王老师", "g:study"), ("王工", "g:club")}


def test_brother_and_sister_forms_follow_the_platform_and_the_messages(mem: SyncMemory) -> None:
    say(mem, "club", "zw", "张伟", "周六几点", 0, metadata={"gender": "male"})
    say(mem, "club", "zm", "张敏", "两点吧", 1)
    mem.drain()
    assert named(mem, "张哥今天来吗", "club") == []  # nothing known of 张敏: either could be 张哥
    say(mem, "club", "zw", "张伟", "张敏说她晚点到", 2)
    say(mem, "club", "hx", "何欣", "张敏今天加班，她说晚点到", 3)
    mem.drain()
    assert named(mem, "张哥今天来吗", "club") == ["zw"]
    assert named(mem, "张姐今天来吗", "club") == ["zm"]
    assert named(mem, "张老师今天来吗", "club") == []
    say(mem, "club", "hx", "何欣", "我一个女生搬不动这个", 4)
    mem.drain()
    assert named(mem, "何哥帮个忙", "club") == [] and named(mem, "何姐帮个忙", "club") == ["hx"]


def test_a_nickname_learned_in_one_group_names_nobody_in_another(mem: SyncMemory) -> None:
    say(mem, "club", "lj", "李静怡", "叫我静静就行", 0)
    say(mem, "study", "lj", "李静怡", "大家好", 1)
    mem.drain()
    assert named(mem, "静静来了吗", "club") == ["lj"]
    assert named(mem, "静静来了吗", "study") == []
    assert mem.resolve_people("静静最近怎么样", user_id="lj")[0].person_ids == ("lj",)  # her private chat


def test_the_settings_bring_back_the_old_reading(tmp_path: Path) -> None:
    m = SyncMemory.open(tmp_path / "data", embedder="hashing",
                        settings=Settings(data=str(tmp_path / "data"), aliases_per_chat=False, alias_guesses="any"))
    try:
        say(m, "club", "lj", "李静怡", "叫我静静就行", 0)
        say(m, "study", "wl", "王磊", "大家好", 1)
        m.drain()
        assert named(m, "静静来了吗", "study") == ["lj"]
        assert named(m, "王老师讲的课真好", "study") == ["wl"]
    finally:
        m.close()
