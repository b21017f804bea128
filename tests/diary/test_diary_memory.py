"""The daily diary through the library on real SQLite: written for every day that is over (an
imported history too), on demand, in the persona's voice with an LLM and as a digest without
one or when it fails; idempotent, transactional, rewritten when a turn is forgotten, found by
search and context in its own chat only."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pmemo import InvalidInput, NotFound, Settings, SyncMemory
from pmemo.embedders.cached import cache_key
from pmemo.embedders.hashing import HashingEmbedder
from pmemo.llms.fake import TIMEOUT, ScriptedLLM
from pmemo.tiers.mid_term import centroid_of

CST = timezone(timedelta(hours=8))
D1, D2, D3 = date(2024, 12, 20), date(2024, 12, 21), date(2024, 12, 22)
DAY1 = [("ni", "周霓", "下周三考高数，最近压力好大"), ("bo", "Bo", "霓霓加油！高数不难的，多做真题"),
        ("wt", "许文涛", "我周五去杭州出差，住西湖边的酒店"), ("ni", "周霓", "考完请你们吃芝士蛋糕")]
DAY2 = [("bo", "Bo", "明天一起去爬山吗"), ("ni", "周霓", "好呀，爬完山吃火锅")]


def at(day: date, hour: int, minute: int = 0, tz: timezone = CST) -> datetime:
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=tz)


def say(m: SyncMemory, day: date, said: list[tuple[str, str, str]], hour: int = 10, role: str = "user",
        **owner: str) -> list[Any]:
    where = owner or {"group_id": "study"}
    return m.add_many([{**where, "session_id": "s", "actor_id": who, "actor": name, "content": text, "role": role,
                        "timestamp": at(day, hour) + timedelta(minutes=4 * n)}
                       for n, (who, name, text) in enumerate(said)])


def chatter(day: date, n: int = 12) -> list[tuple[str, str, str]]:
    """A busy day's other messages: more than the best hits a read keeps (HIT_DEPTH), so the
    digest of the day says more than the hits (a quiet day's digest gives way to its turns)."""
    return [("bo", "Bo", f"第{k}条闲聊：{day:%m月%d日}天气{'晴阴雨雪'[k % 4]}，路上车{'多少'[k % 2]}")
            for k in range(n)]


def open_memory(path: Path, **settings: Any) -> SyncMemory:
    llm = settings.pop("llm", None)
    embedder = settings.pop("embedder", "hashing")
    return SyncMemory.open(path, embedder=embedder, llm=llm, settings=Settings(**settings))


@pytest.fixture
def m(tmp_path: Path) -> Any:
    with open_memory(tmp_path / "data", diary_tz="Asia/Shanghai") as mem:
        yield mem


def diary_rows(m: SyncMemory) -> int:
    return int(m._memory._store._read.execute("SELECT COUNT(*) FROM diaries").fetchone()[0])


# ---- written for every day that is over ----------------------------------------------------
def test_every_past_day_of_an_imported_chat_gets_one_entry(m: SyncMemory) -> None:
    one = say(m, D1, DAY1)
    two = say(m, D2, DAY2, hour=20)
    say(m, D3, [("bot", "Bot", "大家早上好")], role="assistant")  # only the assistant spoke that day
    mine = say(m, D1, [("alice", "Alice", "I will fly to Lisbon on Friday.")], user_id="alice")
    m.drain()
    entries = m.diaries(group_id="study")
    assert [(d.day, d.method) for d in entries] == [(D1, "digest"), (D2, "digest")]
    assert entries[0].source_ids == tuple(t.id for t in one) and entries[1].source_ids == tuple(t.id for t in two)
    first = entries[0].text
    assert first.startswith("2024年12月20日（周五）：4 条消息，3 人发言。")
    assert "- 周霓（2 条）：" in first and "下周三考高数，最近压力好大" in first
    assert "12月25日 高数考试（周霓）" in first
    assert m.diary("2024-12-21", group_id="study").id == entries[1].id
    with pytest.raises(NotFound, match="no diary entry for 2024-12-22"):
        m.diary(D3, group_id="study")
    (private,) = m.diaries(user_id="alice")
    assert private.source_ids == (mine[0].id,) and private.text.startswith("Friday 20 December 2024: 1 message")
    assert m.stats()["failed_jobs"] == 0
    # a range, both ends included; a start after the end is an empty range
    assert [d.day for d in m.diaries("2024-12-21", group_id="study")] == [D2]
    assert [d.day for d in m.diaries(end=D1, group_id="study")] == [D1]
    assert m.diaries("2024-12-22", "2024-12-01", group_id="study") == []


def test_today_is_written_once_the_diary_time_has_passed(tmp_path: Path) -> None:
    # the schedule asked at given moments (its own clock is the wall's): 21:00 in Shanghai
    with open_memory(tmp_path, diary_tz="Asia/Shanghai", diary_time="21:00", diary_enabled=False) as m:
        first = say(m, D1, DAY1[:2])
        m.drain()
        schedule, store = m._memory._worker.diary_schedule, m._memory._store
        assert schedule.look(at(D1, 20, 59).timestamp()) == 0  # not yet
        # the day waits, noted with when it is due; its turns are read once (the mark is past them)
        assert store.diary.next_waiting() == schedule.next_look == at(D1, 21).timestamp()
        assert store.meta.get_meta("diary_mark") == str(first[-1].id)
        assert schedule.look(at(D1, 21, 1).timestamp()) == 1
        assert store.diary.next_waiting() is None
        assert schedule.look(at(D1, 21, 2).timestamp()) == 0  # its job waits: not queued twice
        m.drain()
        assert m.diary(D1, group_id="study").source_ids == tuple(t.id for t in first)
        assert schedule.look(at(D1, 21, 3).timestamp()) == 0  # the entry holds them
        late = say(m, D1, [("wt", "许文涛", "我周五去杭州出差")], hour=22)  # a late message rewrites the day
        m.drain()
        assert schedule.look(at(D1, 23, 0).timestamp()) == 1
        m.drain()
        entry = m.diary(D1, group_id="study")
        assert entry.source_ids == (*(t.id for t in first), late[0].id) and "杭州" in entry.text
        assert diary_rows(m) == 1


def test_the_diary_time_zone_decides_the_day(tmp_path: Path) -> None:
    night = datetime(2024, 12, 20, 17, 30, tzinfo=UTC)  # 01:30 on the 21st in Shanghai
    for zone, day in (("Asia/Shanghai", D2), ("UTC", D1)):
        with open_memory(tmp_path / zone.replace("/", "_"), diary_tz=zone) as m:
            m.add(group_id="g", session_id="s", content="还不睡？明天考高数", timestamp=night)
            m.drain()
            assert [d.day for d in m.diaries(group_id="g")] == [day]


def test_no_entries_when_the_diary_is_off_but_one_can_be_written(tmp_path: Path) -> None:
    with open_memory(tmp_path, diary_enabled=False) as m:
        say(m, D1, DAY1)
        m.drain()
        assert m.diaries(group_id="study") == []
        assert m.write_diary(D1, group_id="study").method == "digest"


# ---- on demand, idempotent, transactional ------------------------------------------------
def test_writing_a_day_again_replaces_its_entry(m: SyncMemory) -> None:
    say(m, D1, DAY1[:2])
    m.drain()
    first = m.diary(D1, group_id="study")
    again = m.write_diary("2024-12-20", group_id="study")
    assert (again.id, again.text, again.source_ids) == (first.id, first.text, first.source_ids)
    added = say(m, D1, DAY1[2:3], hour=15)
    rewritten = m.write_diary(D1, group_id="study")
    assert rewritten.id == first.id and added[0].id in rewritten.source_ids and "杭州" in rewritten.text
    assert rewritten.created_at == first.created_at and rewritten.updated_at >= first.updated_at
    assert diary_rows(m) == 1
    today = m.add(group_id="study", session_id="s", content="今天天气不错")
    assert m.write_diary(group_id="study").source_ids[-1] == today.id  # no day: today, in the diary's zone


def test_a_day_without_a_person_speaking_has_no_entry(m: SyncMemory) -> None:
    say(m, D1, [("bot", "Bot", "早上好")], role="assistant")
    with pytest.raises(NotFound, match="no message from a person on 2024-12-20"):
        m.write_diary(D1, group_id="study")
    with pytest.raises(NotFound):
        m.write_diary(D2, group_id="study")


def test_an_entry_is_written_whole_or_not_at_all(m: SyncMemory) -> None:
    turns = say(m, D1, DAY1[:1])
    store = m._memory._store
    where = turns[0].scope.owner_scope()
    with pytest.raises(ValueError):  # the vector fails after the row and its sources are in
        store.diary.put_diary(where, D1, "half", "digest", [turns[0].id], np.array(["not a number"]), "hashing-256")
    assert store.diary.get_diary(where, D1) is None
    assert store._read.execute("SELECT COUNT(*) FROM sources WHERE kind='diary'").fetchone()[0] == 0


class FlakyEmbedder(HashingEmbedder):
    """The hashing embedder, failing the first time it embeds the LLM's entry (as a provider might)."""

    def __init__(self) -> None:
        super().__init__()
        self.failed = 0

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        if not self.failed and any(ENTRY in t for t in texts):
            self.failed += 1
            raise RuntimeError("embedding service unavailable")
        return super().embed_passages(texts)


def test_a_diary_job_that_fails_midway_is_retried(tmp_path: Path) -> None:
    embedder = FlakyEmbedder()
    llm = diary_llm(json.dumps({"entry": ENTRY}, ensure_ascii=False))
    with open_memory(tmp_path, embedder=embedder, llm=llm, diary_tz="Asia/Shanghai") as m:
        say(m, D1, DAY1)
        m.drain()  # the job fails after the LLM wrote its entry, and runs again
        assert embedder.failed == 1 and sum("private diary" in system for system, _ in llm.calls) == 2
        (entry,) = m.diaries(group_id="study")
        assert (entry.method, len(entry.source_ids)) == ("llm", 4) and m.stats()["failed_jobs"] == 0
        assert diary_rows(m) == 1


def test_a_diary_job_killed_midway_runs_again_after_a_restart(tmp_path: Path) -> None:
    with open_memory(tmp_path, diary_enabled=False) as m:
        say(m, D1, DAY1)
        m.drain()
        store = m._memory._store
        store.jobs.enqueue("diary", {"tenant": "default", "agent": "default", "owner": "g:study", "day": "2024-12-20"})
        assert [j.kind for j in store.jobs.claim(10)] == ["diary"]  # taken, and the process dies with it
    with open_memory(tmp_path, diary_enabled=False) as m:
        m.drain()
        assert [d.day for d in m.diaries(group_id="study")] == [D1]


# ---- with an LLM -------------------------------------------------------------------------
PERSONA = "---\nlabel: persona\ndescription: who I am\n---\n我是小满，学习群里的搭子，说话简短。\n"
ENTRY = "今天霓霓说下周三考高数，压力很大。我给她打了气。"


def diary_llm(reply: object) -> ScriptedLLM:
    """Writes the diary entry as told; anything else (summaries, facts) is not its business."""

    def answer(system: str, user: str) -> str:
        if "private diary" not in system:
            return "{}"
        if reply is TIMEOUT or callable(reply):
            return reply() if callable(reply) else _raise_timeout()
        return str(reply)

    return ScriptedLLM(answer)


def _raise_timeout() -> str:
    from pmemo.errors import LLMError

    raise LLMError("the LLM timed out")


def test_with_an_llm_the_entry_is_in_the_persona_voice(tmp_path: Path) -> None:
    blocks = tmp_path / "blocks"
    blocks.mkdir()
    (blocks / "persona.md").write_text(PERSONA, "utf-8")
    llm = diary_llm(json.dumps({"entry": ENTRY}, ensure_ascii=False))
    with SyncMemory.open(tmp_path / "data", embedder="hashing", llm=llm, blocks_dir=blocks,
                         settings=Settings(diary_tz="Asia/Shanghai")) as m:
        turns = say(m, D1, DAY1)
        m.drain()
        entry = m.diary(D1, group_id="study")
        assert (entry.method, entry.text, entry.source_ids) == ("llm", ENTRY, tuple(t.id for t in turns))
        (system, user) = next(c for c in llm.calls if "private diary" in c[0])
        assert system.startswith("我是小满，学习群里的搭子，说话简短。")
        assert "[10:00] 周霓: 下周三考高数，最近压力好大" in user  # the day's messages, at Shanghai's time
        hit = next(h for h in m.search("高数压力", group_id="study") if h.kind == "diary")
        assert ENTRY in hit.text


def test_without_a_persona_block_the_entry_is_in_the_assistant_voice(tmp_path: Path) -> None:
    llm = diary_llm(json.dumps({"entry": ENTRY}, ensure_ascii=False))
    with open_memory(tmp_path, llm=llm) as m:
        say(m, D1, DAY1[:1])
        assert m.write_diary(D1, group_id="study").method == "llm"
        (system, _) = next(c for c in llm.calls if "private diary" in c[0])
        assert system.startswith("You are the assistant who takes part in this chat.")


def _explode() -> str:
    raise RuntimeError("provider exploded")


@pytest.mark.parametrize("reply", [TIMEOUT, "garbage, not json", '{"entry": ""}', '{"wrong": "shape"}', _explode])
def test_an_llm_that_fails_leaves_the_digest(tmp_path: Path, reply: object) -> None:
    llm = diary_llm(reply)
    with open_memory(tmp_path, llm=llm, diary_tz="Asia/Shanghai") as m:
        say(m, D1, DAY1)
        m.drain()
        entry = m.diary(D1, group_id="study")
        assert entry.method == "digest" and "谁说了什么：" in entry.text
        assert any("private diary" in system for system, _ in llm.calls)
        assert m.stats()["failed_jobs"] == 0


# ---- forgetting ----------------------------------------------------------------------------
def test_forgetting_a_turn_rewrites_its_day_and_restore_brings_it_back(m: SyncMemory) -> None:
    turns = say(m, D1, DAY1)
    m.drain()
    store = m._memory._store
    before = m.diary(D1, group_id="study")
    assert "芝士蛋糕" in before.text
    old_vec = store.vectors.get_vectors("diary", [before.id])[before.id]
    report = m.forget([turns[3].id])
    assert report["diaries"] == {before.id: "rebuilt"}
    after = m.diary(D1, group_id="study")
    assert after.id == before.id and "芝士蛋糕" not in after.text and turns[3].id not in after.source_ids
    new_vec = store.vectors.get_vectors("diary", [after.id])[after.id]
    assert not np.allclose(new_vec, old_vec)
    left = store.vectors.get_vectors("turn", [t.id for t in turns[:3]])  # a digest's vector: its turns' centroid
    assert turns[3].id not in store.vectors.get_vectors("turn", [turns[3].id])
    assert np.allclose(new_vec, centroid_of(np.stack([left[t.id] for t in turns[:3]])))
    for hit in m.search("芝士蛋糕", group_id="study"):
        assert "芝士蛋糕" not in hit.text and all("芝士蛋糕" not in t.content for t in hit.sources)
    packed = m.context("芝士蛋糕", group_id="study", budget_tokens=4000).text
    assert "芝士蛋糕" not in packed.split("## 当前消息")[0]  # a Chinese chat's input header (issue 44 §5)
    restored = m.restore(report["batch"])
    assert restored["diaries"] == [before.id] and "芝士蛋糕" in m.diary(D1, group_id="study").text


def test_forgetting_rewrites_an_llm_entry_and_its_embedding(tmp_path: Path) -> None:
    def echo(system: str, user: str) -> str:  # an entry that retells the day's messages
        if "private diary" not in system:
            return "{}"
        said = [line.split(": ", 1)[1] for line in user.splitlines() if line.startswith("[")]
        return json.dumps({"entry": "今天：" + "；".join(said)}, ensure_ascii=False)

    with open_memory(tmp_path, llm=ScriptedLLM(echo), diary_tz="Asia/Shanghai") as m:
        turns = say(m, D1, DAY1)
        m.drain()
        store, model = m._memory._store, m._memory._embed.model_id
        before = m.diary(D1, group_id="study")
        assert before.method == "llm" and "芝士蛋糕" in before.text
        assert store.embed_cache.cache_get([cache_key(model, before.text)])  # its own text was embedded
        m.forget([turns[3].id], hard=True)
        after = m.diary(D1, group_id="study")
        assert after.method == "llm" and "芝士蛋糕" not in after.text
        assert np.allclose(store.vectors.get_vectors("diary", [after.id])[after.id],
                           m._memory._embed.passages([after.text])[0])
        # the forgotten text's cached vector is gone
        assert store.embed_cache.cache_get([cache_key(model, before.text)]) == {}
        for hit in m.search("芝士蛋糕", group_id="study"):
            assert "芝士蛋糕" not in hit.text


def test_forgetting_a_whole_day_deletes_its_entry(m: SyncMemory) -> None:
    turns = say(m, D1, DAY1[:2])
    m.drain()
    entry = m.diary(D1, group_id="study")
    m.delete_turn(turns[0].id)
    assert m.diary(D1, group_id="study").source_ids == (turns[1].id,)
    report = m.forget(person_id="bo", group_id="study", hard=True)
    assert report["diaries"] == {entry.id: "deleted"}
    with pytest.raises(NotFound):
        m.diary(D1, group_id="study")
    assert m._memory._store.vectors.get_vectors("diary", [entry.id]) == {}
    assert all(h.kind != "diary" for h in m.search("高数", group_id="study"))
    log = [r for r in m.forget_log() if r["kind"] == "diary"]
    assert [(r["action"], r["ref"]) for r in log] == [("forget:deleted", entry.id)]


# ---- read paths: search, context, and one chat only ---------------------------------------
def test_entries_are_the_long_term_tier_of_their_own_chat_only(m: SyncMemory) -> None:
    say(m, D1, DAY1)
    other = say(m, D1, [("zz", "Zed", "zebrafish 秘密：我们下个月搬去成都"), *chatter(D1)], group_id="other")
    say(m, D1, [("alice", "Alice", "I will fly to Lisbon on Friday.")], user_id="alice")
    m.drain()
    hit = next(h for h in m.search("zebrafish 搬家", group_id="other", limit=30) if h.kind == "diary")
    assert hit.tier == "long_term" and hit.text.startswith("[diary 2024-12-20] ")
    assert [t.id for t in hit.sources] == [t.id for t in other]
    pack = m.context("zebrafish 搬家", group_id="other", budget_tokens=4000)
    # a digest whose messages the context shows word for word goes; since issue 44 §5 the context
    # shows only the relevant ones (no filler, nothing far below the best): a digest of them and of
    # messages recalled and left out as far below the best tells nothing more, and goes too
    shown = {t.id for i in pack.items if i.tier == "mid_term" for t in i.sources}
    assert other[0].id in shown and not {t.id for t in other} <= shown
    assert not any(i.kind == "diary" for i in pack.items)
    for owner in ({"group_id": "study"}, {"user_id": "alice"}):
        assert all("zebrafish" not in d.text for d in m.diaries(**owner))
        assert all("zebrafish" not in h.text for h in m.search("zebrafish 搬家", **owner))
        assert "zebrafish" not in m.context("what now", budget_tokens=4000, **owner).text
    with pytest.raises(NotFound):
        m.diary(D1, group_id="nobody")
    with pytest.raises(NotFound):  # another tenant's chat of the same name is not this one
        m.diary(D1, group_id="other", tenant_id="t2")


def test_a_query_that_names_a_day_recalls_that_days_entry(m: SyncMemory) -> None:
    for day, dish in ((D1, "a mushroom risotto"), (D2, "a vegetable curry"), (D3, "a beef stew")):
        say(m, day, [("ann", "Ann", f"I cooked {dish} for dinner."), *chatter(day)], hour=19, user_id="ann")
    m.drain()

    def days(query: str, at: str) -> list[str]:
        return [h.text.split("]")[0] for h in m.search(query, user_id="ann", at=at, limit=60) if h.kind == "diary"]

    assert days("What did I cook yesterday?", "2024-12-22T09:00:00+08:00") == ["[diary 2024-12-21"]
    assert days("昨天做了什么菜？", "2024-12-21T09:00:00+08:00") == ["[diary 2024-12-20"]
    assert days("What did I cook on 22 December 2024?", "2025-01-05T09:00:00+08:00") == ["[diary 2024-12-22"]
    assert len(days("What did I cook for dinner?", "2025-01-05T09:00:00+08:00")) == 3  # no day named: the nearest
    pack = m.context("What did I cook yesterday?", user_id="ann", at="2024-12-22T09:00:00+08:00", budget_tokens=1000)
    # the day's digest restates its 13 messages, all in a context of 1,000 tokens: they stand for it
    assert not [i for i in pack.items if i.kind == "diary"] and "curry" in pack.text


def test_a_search_in_one_session_says_the_entry_is_owner_wide(m: SyncMemory) -> None:
    say(m, D1, DAY1)
    m.drain()
    say(m, D1, chatter(D1), hour=11)
    m.drain()
    hit = next(h for h in m.search("高数", group_id="study", session_id="s", limit=30) if h.kind == "diary")
    assert hit.why.endswith("(owner-wide: not limited to one session)")


@pytest.mark.parametrize(("call", "name"), [
    (lambda m: m.diary("2024-13-01", group_id="g"), "date"),
    (lambda m: m.diary(date="yesterday", group_id="g"), "date"),
    (lambda m: m.write_diary("20241220", group_id="g"), "day"),
    (lambda m: m.diaries(start="2024/12/01", group_id="g"), "start"),
    (lambda m: m.diaries(end=20241231, group_id="g"), "end"),
])
def test_a_bad_day_is_named(m: SyncMemory, call: Any, name: str) -> None:
    with pytest.raises(InvalidInput, match=f"^{name} must be a calendar day as YYYY-MM-DD"):
        call(m)


def test_an_entry_gets_the_new_embedder_vector_after_a_change(tmp_path: Path) -> None:
    with open_memory(tmp_path) as m:
        say(m, D1, [*DAY1, *chatter(D1)])
        m.drain()
        (entry,) = m.diaries(group_id="study")
    with open_memory(tmp_path, embedder=HashingEmbedder(128)) as m:
        m.drain()
        row = m._memory._store._read.execute("SELECT model, length(vec) FROM vectors WHERE kind='diary' AND ref=?",
                                             (entry.id,)).fetchone()
        assert tuple(row) == ("hashing-128", 128 * 4)
        assert any(h.kind == "diary" for h in m.search("高数", group_id="study", limit=30))


def test_a_quiet_days_digest_gives_way_to_its_turns(m: SyncMemory) -> None:
    """A digest only restates its day's messages: when they are all among the best hits, the
    turns stand for it (the same words twice cost twice the budget); an LLM's entry stays."""
    quiet = say(m, D1, [("ann", "Ann", "I cooked a mushroom risotto for dinner.")], hour=19, user_id="ann")
    m.drain()
    assert [d.source_ids for d in m.diaries(user_id="ann")] == [(quiet[0].id,)]  # written all the same
    hits = m.search("What did I cook for dinner?", user_id="ann")
    assert [h.kind for h in hits] == ["turn"] and hits[0].sources[0].id == quiet[0].id
    pack = m.context("What did I cook for dinner?", user_id="ann", budget_tokens=1000)
    assert "[diary" not in pack.text and "risotto" in pack.text
    say(m, D1, chatter(D1), hour=20, user_id="ann")  # a busy day: its digest says more than the hits
    m.drain()
    assert any(h.kind == "diary" for h in m.search("What did I cook for dinner?", user_id="ann", limit=30))
