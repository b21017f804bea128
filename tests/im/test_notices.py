"""System notices and media placeholders are structure, not content (issue 44 §2): the pure
classifier, the registry they update (renames, joins, a leave and return), and that they are
never a fact, a key line or a context line. Real SQLite, the hashing embedder."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from pmemo import Settings, SyncMemory
from pmemo.text.notices import content_free, notice, placeholder_only

T0 = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize("text, kind, who, other", [
    ("周霓 修改群名片为 霓霓", "rename", "周霓", "霓霓"),
    ("\u201c周霓\u201d修改群名片为\u201c霓霓-考研中\u201d", "rename", "周霓", "霓霓-考研中"),
    ("Tom changed his group nickname to Tommy", "rename", "Tom", "Tommy"),
    ("小王 加入了群聊", "join", "小王", ""),
    ("老李邀请小王加入了群聊", "join", "小王", ""),
    ("Bob joined the group", "join", "Bob", ""),
    ("Ann added Bob to the group", "join", "Bob", ""),
    ("老张 退出了群聊", "leave", "老张", ""),
    ("老张被群主移出群聊", "leave", "老张", ""),
    ("Tom left the group", "leave", "Tom", ""),
    ("小王 撤回了一条消息", "recall", "小王", ""),
    ("Ann unsent a message", "recall", "Ann", ""),
    ("拍一拍", "poke", "", ""),
    ("小王 拍了拍 老张 的肩膀", "poke", "小王", "老张"),
    ("Ann nudged Bob", "poke", "Ann", "Bob"),
])
def test_notices_are_read_in_chinese_and_english(text: str, kind: str, who: str, other: str) -> None:
    found = notice(text)
    assert found is not None and (found.type, found.who, found.other) == (kind, who, other)


@pytest.mark.parametrize("text", ["我跟他说公司改名为字节了", "今天加入了群聊的都是新人吗？", "我明天退出这个项目",
                                  "[图片] 好看吗", "[链接] 考研英语真题下载", "哈哈哈 我到了",
                                  "I left the office early"])
def test_messages_with_words_are_content(text: str) -> None:
    assert not content_free(SimpleNamespace(content=text, metadata={}))


@pytest.mark.parametrize("text", ["[图片]", "[语音] 12\"", "[表情]", "[动画表情]", "[链接]", "[图片][图片]",
                                  "https://b23.tv/x8Yq", "😂😂", "[Sticker]", "  [视频]  "])
def test_media_without_words_is_not(text: str) -> None:
    assert placeholder_only(text) and content_free(SimpleNamespace(content=text, metadata={}))


def test_the_platform_says_it_in_metadata() -> None:
    free = [{"kind": "notice"}, {"kind": "recall"}, {"kind": "join", "person": "wl"}]
    assert all(content_free(SimpleNamespace(content="xx", metadata=m)) for m in free)
    # an image sent with words: the words are content
    assert not content_free(SimpleNamespace(content="我家猫", metadata={"kind": "image"}))
    assert notice("任意文字", {"kind": "rename", "name": "霓霓"}).other == "霓霓"  # type: ignore[union-attr]


def _chat() -> list[dict[str, Any]]:
    lines = [("ni", "周霓", "大家好，我是周霓，我对花粉过敏"), ("wl", "王磊", "[图片]"),
             (None, None, "周霓 修改群名片为 霓霓-备考中"), ("wl", "王磊", "王磊 撤回了一条消息"),
             ("wl", "王磊", "[语音] 8\""), (None, None, "王磊 退出了群聊"),
             ("wl", "王磊回来了", "我又回来了，我在腾讯上班"), (None, None, "王磊回来了 修改群名片为 磊哥")]
    return [{"group_id": "study", "actor_id": pid, "actor": name, "content": text,
             "role": "system" if pid is None else "user",
             "timestamp": (T0 + timedelta(minutes=n)).isoformat()} for n, (pid, name, text) in enumerate(lines)]


def test_renames_joins_and_leaves_update_the_registry(mem: SyncMemory) -> None:
    mem.add_many(_chat())
    mem.drain()
    ni, wl = mem.person("ni"), mem.person("wl")
    assert ni.name == "霓霓-备考中" and "周霓" in ni.names
    assert {"王磊", "王磊回来了", "磊哥"} <= set(wl.names)  # left and came back: one person, every name
    assert [m.person_ids for m in mem.resolve_people("磊哥明天来吗", group_id="study")] == [("wl",)]
    assert {m.person.id for m in mem.people(group_id="study")} == {"ni", "wl"}


def test_a_join_the_platform_names_makes_a_member(mem: SyncMemory) -> None:
    mem.add_person("cy", name="陈宇")
    mem.add(group_id="study", role="system", content="陈宇 加入了群聊", metadata={"kind": "join", "person": "cy"})
    mem.drain()
    assert "cy" in {m.person.id for m in mem.people(group_id="study")}


def test_notices_and_media_never_reach_facts_search_or_a_context(mem: SyncMemory) -> None:
    mem.add_many(_chat())
    mem.drain()
    for query in ["图片", "撤回了一条消息", "语音", "退出了群聊"]:
        assert not [h for h in mem.search(query, group_id="study") if h.kind == "turn" and h.text in
                    {"[图片]", "王磊 撤回了一条消息", "[语音] 8\"", "王磊 退出了群聊"}]
    pack = mem.context("图片 语音 撤回", group_id="study", session_id=mem.turns(group_id="study")[0].session_id,
                       budget_tokens=2000)
    assert "[图片]" not in pack.text and "撤回了一条消息" not in pack.text and "退出了群聊" not in pack.text
    assert "花粉" in pack.text  # what people said is still there
    assert all("图片" not in f.value and "群聊" not in f.value for f in mem.profile("wl", group_id="study"))


def test_a_cluster_of_placeholders_is_never_a_key_line(tmp_path: Path) -> None:
    with SyncMemory.open(tmp_path, settings=Settings(embedder="hashing", data=str(tmp_path))) as mem:
        turns = mem.add_many([{"group_id": "g", "actor_id": "wl", "content": c, "timestamp": T0.isoformat()}
                              for c in ["[图片]", "[表情]", "[图片]"]])
        mem.drain()
        core = mem._memory  # the tiers, as the worker's promotion job calls them
        store, scope = core._store, turns[0].scope.owner_scope()
        cid = store.clusters.add_cluster(scope, core._embed.passages(["[图片]"])[0], [t.id for t in turns], "x")
        assert core._tiers.promote(cid) is None and store.clusters.is_promoted(cid)
        assert mem.key_memory(group_id="g") == []
