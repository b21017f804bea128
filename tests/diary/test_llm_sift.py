"""With an LLM, the diary, summary and episode prompts carry only the lines worth reading
(``prompts.sift``, issue 44 §8): a day or a span of only filler makes no call and still gets
its entry, summary and episode offline; a day with content sends every content line once."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from pmemo import Settings, SyncMemory
from pmemo.llms.fake import ScriptedLLM
from pmemo.prompts.episode import EPISODE_SYSTEM
from pmemo.prompts.summary import SUMMARY_SYSTEM

DAY = date(2024, 12, 20)
FILLER = [("ni", "周霓", "早"), ("bo", "Bo", "哈哈哈哈"), ("wt", "许文涛", "[图片]"), ("ni", "周霓", "好的👍"),
          ("bo", "Bo", "在吗"), ("wt", "许文涛", "收到")]
CONTENT = [("ni", "周霓", "下周三考高数"), ("bo", "Bo", "哈哈哈"), ("wt", "许文涛", "周末补一补进度"),
           ("bo", "Bo", "周末补一补进度！"), ("ni", "周霓", "好的，周六我带相机")]


def answering() -> ScriptedLLM:
    def answer(system: str, user: str) -> str:
        if "private diary" in system:
            return json.dumps({"entry": "今天大家聊了考试。"}, ensure_ascii=False)
        if system == SUMMARY_SYSTEM or system == EPISODE_SYSTEM:
            return json.dumps({"summary": "考试和周末"}, ensure_ascii=False)
        return "{}"

    return ScriptedLLM(answer)


def say(m: SyncMemory, said: list[tuple[str, str, str]], session: str) -> None:
    start = datetime(DAY.year, DAY.month, DAY.day, 10, tzinfo=UTC)
    m.add_many([{"group_id": "study", "session_id": session, "actor_id": who, "actor": name, "content": text,
                 "timestamp": start + timedelta(minutes=n)} for n, (who, name, text) in enumerate(said)])


def calls(llm: ScriptedLLM, what: str) -> list[str]:
    return [user for system, user in llm.calls if what in system]


def test_a_day_and_a_span_of_only_filler_make_no_call(tmp_path: Path) -> None:
    llm = answering()
    with SyncMemory.open(tmp_path, embedder="hashing", llm=llm, settings=Settings(summary_every=3)) as m:
        say(m, FILLER, "s1")
        m.drain()
        m.end_session("s1", group_id="study")
        m.drain()
        entry = m.diary(DAY, group_id="study")
        assert entry is not None and entry.method == "digest"  # the day keeps its entry
        assert m.summaries(group_id="study") and m.episodes(group_id="study")  # written offline
    assert calls(llm, "private diary") == [] and calls(llm, "You summarise") == [] and calls(llm, "episode") == []


def test_a_day_with_content_sends_each_content_line_once(tmp_path: Path) -> None:
    llm = answering()
    with SyncMemory.open(tmp_path, embedder="hashing", llm=llm, settings=Settings(summary_every=3)) as m:
        say(m, CONTENT, "s1")
        m.drain()
        m.end_session("s1", group_id="study")
        m.drain()
        assert m.diary(DAY, group_id="study").method == "llm"
    [diary] = calls(llm, "private diary")[-1:]
    assert diary.splitlines()[2:] == ["[10:00] 周霓: 下周三考高数", "[10:02] 许文涛: 周末补一补进度 (×2; also Bo)",
                                      "[10:04] 周霓: 好的，周六我带相机"]
    for user in calls(llm, "You summarise") + calls(llm, "episode"):
        assert "哈哈哈" not in user and user.count("周末补一补进度") <= 1


def test_without_the_prefilter_every_line_goes_as_before(tmp_path: Path) -> None:
    llm = answering()
    settings = Settings(summary_every=3, llm_prefilter=False)
    with SyncMemory.open(tmp_path, embedder="hashing", llm=llm, settings=settings) as m:
        say(m, FILLER, "s1")
        m.drain()
        m.end_session("s1", group_id="study")
        m.drain()
    assert all(text in calls(llm, "private diary")[-1] for *_, text in FILLER)
    assert calls(llm, "You summarise") and calls(llm, "episode")  # the calls the filter saves
