"""Issue 44 §5: filler never enters a context or key memory; a recalled turn far below the best
stays out; the same words said many times are one line; a Chinese chat gets Chinese scaffolding;
the leading sections read the same bytes from one message to the next."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from pmemo import Settings, SyncMemory
from pmemo.retrieval.context import HEADERS_BY_LANGUAGE, leading
from pmemo.text.filler import content_free, filler

T0 = datetime(2026, 11, 2, 12, 0, tzinfo=UTC)
FILLER_ZH = ["哈哈哈", "哈哈哈哈哈", "在吗", "在吗？", "好的", "好的👍", "收到", "嗯嗯", "早", "早上好", "晚安",
             "[图片]", "[语音] 8\"", "[表情]", "[捂脸]", "👍", "@周霓 收到", "谢谢大家", "+1", "666", "哈哈哈 好的～"]
FILLER_EN = ["lol", "haha", "hahaha", "ok", "OK thanks!", "thx", "good morning", "hi there", "hello everyone",
             "got it", "yep", "[photo]", "👍🙏", "yesss", "sooo true", "brb", "that's wild", "hahah"]
CONTENT = ["好的，周六我带相机", "哈哈我考过了", "我在吗啡科实习", "早上好，我下周一去上海出差",
           "在吗？周末搬家谁能帮忙", "ok, see you at 8 at the station", "haha I finally passed the bar exam",
           "thanks, I'm allergic to peanuts",
           "1", "不行", "hello kitty is my cat's name", "nowhere", "not now", "我也去", "中午吃啥"]


@pytest.mark.parametrize("text", FILLER_ZH + FILLER_EN)
def test_filler_is_filler(text: str) -> None:
    assert filler(text), text


@pytest.mark.parametrize("text", CONTENT)
def test_words_around_filler_are_content(text: str) -> None:
    assert not filler(text), text


def said(mem: SyncMemory, lines: list[tuple[str, str, str, int]]) -> None:
    mem.add_many([{"group_id": "study", "actor_id": pid, "actor": name, "content": text,
                   "timestamp": (T0 + timedelta(minutes=minute)).isoformat()} for pid, name, text, minute in lines])
    mem.drain()


@pytest.fixture
def chat(tmp_path: Path):
    settings = Settings(embedder="hashing", data=str(tmp_path), context_fill="relevant")
    with SyncMemory.open(tmp_path, settings=settings) as mem:
        lines = []
        for day in range(6):  # a week of a study group: small talk, a catchphrase, a few facts
            m = day * 24 * 60
            lines += [("wt", "许文涛", "在吗", m), ("ni", "周霓", "哈哈哈哈", m + 1), ("wt", "许文涛", "[图片]", m + 2),
                      ("ni", "周霓", "周末补一补进度", m + 3), ("wl", "王磊", "收到👍", m + 4),
                      ("wl", "王磊", "早上好", m + 5)]
        lines += [("ni", "周霓", "我对花生过敏，蛋糕别放花生", 3 * 24 * 60 + 30),
                  ("wt", "许文涛", "我下周六去上海面试", 4 * 24 * 60 + 30),
                  ("wl", "王磊", "下周六的面试加油", 4 * 24 * 60 + 31),
                  ("ni", "周霓", "下周六的面试加油", 4 * 24 * 60 + 32)]
        said(mem, lines)
        yield mem


def turn_lines(pack) -> list[str]:
    return [h.text for h in pack.items if h.tier in ("mid_term", "short_term")]


def test_no_context_holds_filler(chat: SyncMemory) -> None:
    for query, budget in (("在吗", 200), ("哈哈哈", 600), ("蛋糕放什么", 600), ("早上好", 2000)):
        pack = chat.context(query, group_id="study", budget_tokens=budget, asker="wt")
        assert not any(content_free(t) for h in pack.items if h.tier in ("mid_term", "short_term")
                       for t in h.sources), (query, pack.text)
        for bad in ("[图片]", "哈哈哈哈", "收到👍", "- 许文涛: 在吗"):
            assert bad not in pack.text, (query, pack.text)


def test_chatter_said_every_day_is_out_and_repeats_are_one_line(chat: SyncMemory) -> None:
    pack = chat.context("周末补一补进度 面试加油", group_id="study", budget_tokens=2000)
    assert not any("周末补一补进度" in t for t in turn_lines(pack))  # the same short words on six days: chatter
    lines = [t for t in turn_lines(pack) if "下周六的面试加油" in t]
    assert len(lines) == 1
    lines = [line for line in pack.text.split("## 相关记忆\n")[1].split("\n\n")[0].splitlines() if "面试加油" in line]
    assert len(lines) == 1 and "说了2次" in lines[0] and "王磊" in lines[0] and "周霓" in lines[0], pack.text


def test_the_fill_setting_keeps_the_budget_filled(tmp_path: Path) -> None:
    lines = [("p1", "Mei", f"note {i}: the blue kettle {i}", i) for i in range(40)]
    lines += [("p2", "Bo", "my kettle is the blue kettle from Osaka", 60)]
    out = {}
    for fill in ("relevant", "budget"):
        where = tmp_path / fill
        with SyncMemory.open(where, settings=Settings(embedder="hashing", data=str(where), context_fill=fill)) as mem:
            mem.add_many([{"group_id": "g", "actor_id": p, "actor": n, "content": c,
                           "timestamp": (T0 + timedelta(minutes=m)).isoformat()} for p, n, c, m in lines])
            mem.drain()
            out[fill] = mem.context("where is the blue kettle from?", group_id="g", budget_tokens=2000)
    assert "Osaka" in out["relevant"].text and "Osaka" in out["budget"].text
    recalled = {fill: {h.id for h in pack.items if h.tier == "mid_term"} for fill, pack in out.items()}
    assert recalled["relevant"] < recalled["budget"]  # the notes far below the answer stay out


@pytest.mark.parametrize("fill", ["relevant", "budget"])
def test_filler_but_for_names_and_a_habit_to_anyone_are_out(tmp_path: Path, fill: str) -> None:
    lines = [("gf", "高峰", "大家好，我是高峰", 0), ("hl", "黄丽", "我是黄丽", 1),
             ("ly", "刘洋", "我是刘洋，在南京上学", 2), ("al", "Alex", "hi all, Alex here", 3)]
    rounds = (("gf", "高峰", "黄丽"), ("hl", "黄丽", "刘洋"), ("ly", "刘洋", "高峰"))
    for day, (pid, name, other) in enumerate(rounds):
        m = (day + 1) * 24 * 60
        lines += [(pid, name, f"{other}你今天来吗", m), (pid, name, f"{other}在吗", m + 1),
                  ("al", "Alex", f"thanks {name}!", m + 2)]
    lines += [("hl", "黄丽", "刘洋下个月搬去杭州了，新公司在滨江", 5 * 24 * 60)]
    with SyncMemory.open(tmp_path, settings=Settings(embedder="hashing", data=str(tmp_path), context_fill=fill)) as mem:
        said(mem, lines)
        pack = mem.context("刘洋搬去哪了？你今天来吗", group_id="study", budget_tokens=2000)
    recalled = "\n".join(turn_lines(pack))
    assert "搬去杭州" in recalled, pack.text
    for habit in ("你今天来吗", "在吗", "thanks"):  # a roll call or thanks to anyone, on three days
        assert habit not in recalled, (habit, pack.text)


def test_a_summary_of_small_talk_is_no_line(tmp_path: Path) -> None:
    talk = ["今天地铁好挤", "外面下雨了", "带伞了吗", "中午吃啥", "楼下新开了家面馆", "困死了", "周五了！",
            "手腕有点酸", "今天好热", "刚下班", "晚上吃饺子吗", "降温了注意保暖"]
    out = {}
    for fill in ("relevant", "budget"):
        where = tmp_path / fill
        with SyncMemory.open(where, settings=Settings(embedder="hashing", data=str(where), context_fill=fill)) as mem:
            for day in range(4):  # four days of small talk, each its own session (and summary)
                mem.add_many([{"group_id": "g", "session_id": f"s{day}", "actor_id": f"p{i % 3}",
                               "actor": f"成员{i % 3}", "content": talk[(i + day) % len(talk)],
                               "timestamp": (T0 + timedelta(days=day, minutes=i)).isoformat()}
                              for i in range(len(talk))])
            mem.add_many([{"group_id": "g", "session_id": "s9", "actor_id": "p1", "actor": "成员1",
                           "content": "我对芒果过敏，蛋糕别放芒果", "timestamp": (T0 + timedelta(days=9)).isoformat()}])
            mem.drain()
            out[fill] = mem.context("谁对芒果过敏", group_id="g", budget_tokens=2000)
    summaries = {fill: [h for h in pack.items if h.kind == "summary"] for fill, pack in out.items()}
    assert summaries["budget"], out["budget"].text  # the budget filled with the small talk's summary
    assert not summaries["relevant"] and "芒果过敏" in out["relevant"].text, out["relevant"].text


def test_a_chinese_chat_gets_chinese_scaffolding_and_a_stable_prefix(chat: SyncMemory) -> None:
    chat.add_key("群规：考试周不刷屏", group_id="study")
    packs = [chat.context(q, group_id="study", budget_tokens=1000, at=T0 + timedelta(days=6, minutes=n))
             for n, q in enumerate(["蛋糕放什么", "谁去上海面试", "周末干嘛"])]
    zh, en = HEADERS_BY_LANGUAGE["zh"], HEADERS_BY_LANGUAGE["en"]
    for pack in packs:
        assert pack.text.startswith(zh["key"] + "\n- 群规：考试周不刷屏"), pack.text
        assert not any(line in en.values() for line in pack.text.splitlines()), pack.text
    assert len({leading(p.text) for p in packs}) == 1


def test_a_cluster_of_laughter_is_never_a_key_line(tmp_path: Path) -> None:
    with SyncMemory.open(tmp_path, settings=Settings(embedder="hashing", data=str(tmp_path))) as mem:
        turns = mem.add_many([{"group_id": "g", "actor_id": "wl", "content": c, "timestamp": T0.isoformat()}
                              for c in ["哈哈哈哈", "哈哈哈", "我周六去爬山", "哈哈哈哈哈"]])
        mem.drain()
        core = mem._memory  # the tiers, as the worker's promotion job calls them
        store, scope = core._store, turns[0].scope.owner_scope()
        cid = store.clusters.add_cluster(scope, core._embed.passages(["哈哈哈"])[0], [t.id for t in turns], "x")
        assert core._tiers.promote(cid) is None and store.clusters.is_promoted(cid)
        assert mem.key_memory(group_id="g") == []
