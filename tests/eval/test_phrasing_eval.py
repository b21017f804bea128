"""The phrasing set, its scorer and ``pmemo eval phrasing`` (issue 44 §1, §9)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from eval_cli import app
from typer.testing import CliRunner

from pmemo.errors import InvalidInput
from pmemo.eval.phrasing_run import compare_settings
from pmemo.eval.phrasing_score import Produced, kind_of, score
from pmemo.eval.phrasing_set import build, counts, quick
from pmemo.eval.phrasing_spec import KINDS, NEGATIVE, Chat, Line, parse_spec

ROOT = Path(__file__).resolve().parents[2]

# what docs/PHRASING.md says the set holds
CLAIMED = {"chats": 35, "lines": 1054, "labels": 560, "negatives": 508, "corrections": 34,
           "labels_zh": 306, "negatives_zh": 260, "labels_en": 254, "negatives_en": 248}


# -- the set ------------------------------------------------------------------------------------


def test_the_set_holds_what_the_docs_claim_in_both_languages() -> None:
    got = counts(build())
    assert got == CLAIMED
    assert got["labels"] >= 300 and got["negatives"] >= 300
    doc = (ROOT / "docs" / "PHRASING.md").read_text(encoding="utf-8")
    for key in ("labels", "negatives", "labels_zh", "labels_en", "negatives_zh", "negatives_en"):
        assert str(CLAIMED[key]) in doc, key


def test_every_label_names_a_member_of_its_chat_who_could_be_known_by_then() -> None:
    for chat in build():
        members = {pid for pid, _ in chat.members}
        spoke: set[str] = set()
        for line in chat.lines:
            assert line.speaker in members
            spoke.add(line.speaker)
            for label in line.labels:
                assert label.person in members, (chat.id, line.text)
                assert label.kind in KINDS
                assert all(group for group in label.words)
                if label.about == "named":
                    # a third-person statement names someone the chat has already heard from
                    assert label.person != line.speaker and label.person in spoke, (chat.id, line.text)
                else:
                    assert label.person == line.speaker, (chat.id, line.text)


def test_negatives_have_a_reason_and_no_labels_and_every_line_one_or_the_other() -> None:
    for chat in build():
        for line in chat.lines:
            assert (line.why is None) == bool(line.labels), line.text
            assert line.why is None or line.why in NEGATIVE


def test_every_kind_and_reason_is_in_both_languages_and_the_issue_shapes_are_there() -> None:
    lines = [line for c in build() for line in c.lines]
    for lang in ("zh", "en"):
        mine = [line for line in lines if line.lang == lang]
        assert {lab.kind for line in mine for lab in line.labels} == set(KINDS), lang
        assert {line.why for line in mine if line.why} >= {"question", "hypothetical", "joke", "quote", "negated",
                                                           "media", "emoji", "smalltalk"}, lang
        assert {lab.about for line in mine for lab in line.labels} == {"self", "named", "relative"}, lang
    texts = {line.text for line in lines}
    assert "哈哈哈我上个月换工作了 现在在小红书做增长" in texts  # an opener glued on, no punctuation
    assert "那只柴犬不是我的，是我表姐寄养的" in texts  # disowned
    assert any("不对，是下周四" in t for t in texts)  # a correction in the same message


def test_the_set_is_the_same_every_time_and_private_chats_have_one_member() -> None:
    assert build() == build()
    for chat in build():
        assert (chat.group_id is None) == (chat.user_id is not None)
        if chat.user_id:
            assert chat.members == ((chat.user_id, chat.members[0][1]),)
        stamps = [line.timestamp for line in chat.lines]
        assert stamps == sorted(stamps)
    assert [c.id for c in quick(build())] == ["g_kaoyan", "g_climb"]


def test_the_label_grammar_says_what_is_wrong() -> None:
    labels, why = parse_spec("events:考试+周四|2026-11-12!周三; ^family:妹妹", "ni", ("ni", "jie"))
    assert why is None and labels[0].words == (("考试",), ("周四", "2026-11-12")) and labels[0].ends == ("周三",)
    assert labels[1].person == "ni" and labels[1].about == "relative"
    for bad in ("-chatter", "job:x", "@zed work:x", "@ni work:x", "work:"):
        with pytest.raises(ValueError):
            parse_spec(bad, "ni", ("ni", "jie"))


# -- the scorer ---------------------------------------------------------------------------------


def _chat(*lines: tuple[str, str, str]) -> Chat:
    built = []
    for i, (speaker, text, spec) in enumerate(lines):
        labels, why = parse_spec(spec, speaker, ("ni", "jie"))
        built.append(Line(i, "g", speaker, speaker, text, f"2026-11-04T09:0{i}:00+08:00", labels, why))
    return Chat("g", "g", None, (("ni", "周霓"), ("jie", "阿杰")), tuple(built))


def _fact(line: int, person: str | None, key: str, value: str, *, category: str = "fact",
          current: bool = True) -> Produced:
    return Produced("g", line, person, kind_of(category, key), f"{key} {value}", current, f"{key}={value}")


def test_a_hit_a_miss_a_wrong_subject_and_false_facts_are_counted_right() -> None:
    chat = _chat(
        ("ni", "我对花生过敏", "health:花生|peanut"),  # found
        ("ni", "I work at Shopify now", "work:shopify"),  # missed
        ("jie", "周霓养了只猫叫团子", "@ni pets:团子"),  # filed under the speaker: a subject error
        ("jie", "你吃饭了吗", "-question"),  # a fact from it is false
    )
    produced = [
        _fact(0, "ni", "allergy:花生", "allergic"),
        _fact(2, "jie", "pet:cat", "团子"),
        _fact(3, "jie", "event:吃饭", "2026-11-04"),
    ]
    s = score([chat], produced)
    assert s["recall"]["all"] == {"n": 3, "hits": 1, "rate": round(1 / 3, 4)}
    assert s["recall"]["zh"]["n"] == 2 and s["recall"]["en"] == {"n": 1, "hits": 0, "rate": 0.0}
    assert s["recall"]["by_kind"]["health"]["zh"]["hits"] == 1
    assert s["subjects"] == {"found": 1, "wrong": 1, "accuracy": 0.5}
    assert s["precision"]["all"] == {"n": 3, "hits": 1, "rate": round(1 / 3, 4)}
    assert s["negatives"]["lines"] == 1 and s["negatives"]["with_facts"] == 1 and s["negatives"]["facts"] == 1
    assert s["negatives"]["by_why"]["question"] == {"lines": 1, "with_facts": 1}
    assert [m["state"] for m in s["misses"]] == ["missed", "subject"]


def test_kind_is_lenient_where_kinds_are_close_and_person_is_strict() -> None:
    chat = _chat(("ni", "我在学校图书馆兼职", "work:图书馆"), ("ni", "我不吃香菜", "likes:香菜"))
    close = [_fact(0, "ni", "school", "图书馆兼职"), _fact(1, "ni", "diet:香菜", "does not eat")]
    assert score([chat], close)["recall"]["all"]["hits"] == 2
    far = [_fact(0, "ni", "pet:dog", "图书馆"), _fact(1, "jie", "diet:香菜", "does not eat")]
    s = score([chat], far)
    assert s["recall"]["all"]["hits"] == 0 and s["precision"]["all"]["hits"] == 0
    # a fact whose kind cannot be told fits any kind; its value still has to be there
    assert score([chat], [_fact(0, "ni", "note", "图书馆")])["recall"]["all"]["hits"] == 1
    assert score([chat], [_fact(0, "ni", "note", "食堂")])["recall"]["all"]["hits"] == 0


def test_a_correction_is_handled_only_when_the_old_value_is_no_longer_current() -> None:
    chat = _chat(("jie", "我下周三模考……不对，是下周四", "events:模考+周四|2026-11-12!周三|2026-11-11"))
    new = _fact(0, "jie", "event:模考", "2026-11-12")
    old = _fact(0, "jie", "event:模考", "2026-11-11")
    assert score([chat], [new])["corrections"] == {"n": 1, "right": 1, "old_current": 0, "rate": 1.0,
                                                   "failures": []}
    both = score([chat], [new, old])["corrections"]
    assert both["right"] == 0 and both["old_current"] == 1
    superseded = Produced("g", 0, "jie", "events", "event:模考 2026-11-11", False, "old")
    assert score([chat], [new, superseded])["corrections"]["right"] == 1
    # a value that keeps both words is not the old value
    kept = _fact(0, "jie", "event:模考", "下周四（原定周三）")
    assert score([chat], [kept])["corrections"]["right"] == 1


def test_compare_names_real_settings_only() -> None:
    runs = compare_settings("PMEMO_FACT_MIN_CONFIDENCE=0.8,fact_min_confidence=0.7+extract_graph=0", {}, "hashing")
    assert [n for n, _ in runs] == ["today", "PMEMO_FACT_MIN_CONFIDENCE=0.8", "fact_min_confidence=0.7+extract_graph=0"]
    assert [s.fact_min_confidence for _, s in runs] == [0.6, 0.8, 0.7]
    assert runs[2][1].extract_graph is False and runs[0][1].embedder == "hashing"
    with pytest.raises(InvalidInput, match="PMEMO_NO_SUCH_THING"):
        compare_settings("PMEMO_NO_SUCH_THING=1", {})
    with pytest.raises(InvalidInput, match="NAME=value"):
        compare_settings("PMEMO_FACT_MIN_CONFIDENCE", {})


# -- the command --------------------------------------------------------------------------------


def test_eval_phrasing_quick_runs_end_to_end_beside_a_compared_setting(tmp_path: Path) -> None:
    out = tmp_path / "phrasing.json"
    args = ["eval", "phrasing", "--quick", "--embedder", "hashing", "--data", str(tmp_path / "data"),
            "--json", str(out), "--compare", "PMEMO_EXTRACT_FACTS=0"]
    result = CliRunner().invoke(app(), args)
    assert result.exit_code == 0, result.output
    assert "R zh" in result.output and "negatives w/ facts" in result.output
    report = json.loads(out.read_text(encoding="utf-8"))
    assert [r["name"] for r in report["runs"]] == ["today", "PMEMO_EXTRACT_FACTS=0"]
    assert report["set"] == counts(quick(build()))
    today, off = (r["score"] for r in report["runs"])
    assert today["recall"]["all"]["n"] == off["recall"]["all"]["n"] == report["set"]["labels"]
    assert today["recall"]["all"]["hits"] > 0  # today's rules find some of it
    assert off["precision"]["all"]["n"] <= today["precision"]["all"]["n"]
    bad = CliRunner().invoke(app(), [*args[:-1], "PMEMO_NOT_A_SETTING=1"])
    assert bad.exit_code == 2 and "PMEMO_NOT_A_SETTING" in bad.output
