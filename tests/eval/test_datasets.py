"""Loaders on the repo's own synthetic fixtures (never benchmark data)."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest

from pmemo.errors import InvalidInput
from pmemo.eval.datasets import (
    load,
    madial_lines,
    parse_lme_date,
    parse_locomo_date,
)

FIX = Path(__file__).resolve().parents[1] / "fixtures"


def test_dates() -> None:
    assert parse_locomo_date("1:56 pm on 8 May, 2023") == datetime(2023, 5, 8, 13, 56)
    assert parse_locomo_date("12:09 am on 13 September, 2023") == datetime(2023, 9, 13, 0, 9)
    assert parse_lme_date("2023/12/21 (Thu) 21:31") == datetime(2023, 12, 21, 21, 31)
    with pytest.raises(InvalidInput):
        parse_locomo_date("yesterday")


def test_locomo_units_sessions_images_and_evidence_quirks() -> None:
    (ep,) = load("locomo", FIX / "eval_locomo.json")
    assert ep.owner == {"group_id": "fx-1"}
    assert len(ep.units) == 15
    first = ep.units[0]
    assert (first.uid, first.session, first.actor) == ("D1:1", "session_1", "Ana")
    assert first.timestamp == datetime(2023, 3, 3, 10, 5)
    assert ep.units[1].timestamp > first.timestamp
    photo = next(u for u in ep.units if u.uid == "D2:5")
    # a shared picture is an attachment (metadata), indexed with the text, never written into it
    assert "[image" not in photo.text
    assert photo.metadata == {"attachments": [{"type": "image", "caption": "a small dog running on grass"}]}
    assert photo.indexed == f"{photo.text} [image: a small dog running on grass]"
    # annotations are never part of what gets ingested
    assert not any("SECRET" in u.text for u in ep.units)
    probes = {p.query.text: p for p in ep.probes}
    assert probes["Where did Ana's sister Clara move?"].gold.evidence == ("D1:3", "D3:1")
    assert probes["Where did Ana's sister Clara move?"].gold.sessions == ("session_1", "session_3")
    violin = probes["What instrument is Ana learning?"]
    assert violin.gold.evidence == ("D2:4", "D3:3")
    adopt = probes["When did Ben adopt Pepper?"]
    assert adopt.gold.evidence == ("D2:1",) and adopt.gold.dropped == ("D",)
    bike = probes["What did Ben fix over the weekend?"]
    assert bike.gold.evidence == ("D1:2",) and bike.gold.dropped == ("D9:9",)
    assert probes["Would Ana enjoy a seaside holiday?"].apart == "no-evidence"
    adversarial = probes["What breed is Ana's puppy?"]
    assert adversarial.apart == "adversarial" and adversarial.gold.answer is None
    assert probes["What race is Ben training for?"].gold.answer == "21"
    assert sum(p.apart is None for p in ep.probes) == 6


def test_longmemeval_sorts_sessions_hides_ids_and_flags() -> None:
    first, abstention = load("longmemeval", FIX / "eval_longmemeval.json")
    sessions = [u.session for u in first.units]
    assert sessions == ["S1", "S1", "S2", "S2", "S3", "S3"]
    assert [u.timestamp.day for u in first.units[::2]] == [2, 10, 20]  # sorted by date
    assert first.probes[0].gold.sessions == ("S1",)
    assert first.probes[0].gold.evidence == ("S1:T1",)
    assert first.probes[0].query.asked_at == datetime(2023, 6, 1, 10, 0)
    everything = " ".join(f"{u.uid} {u.session} {u.text}" for u in first.units)
    assert "answer_" not in everything and "sess_" not in everything
    assert abstention.probes[0].apart == "abstention"
    assert first.owner["user_id"] != abstention.owner["user_id"]


def test_longmemeval_asks_after_the_whole_haystack(tmp_path: Path) -> None:
    # upstream dates a few sessions after their question: the question still follows them, so a
    # search asked `at` it (which knows nothing said later) sees the whole haystack
    data = json.loads((FIX / "eval_longmemeval.json").read_text(encoding="utf-8"))[:1]
    data[0]["question_date"] = "2023/05/15 (Mon) 09:00"  # before the sessions of the 20th
    path = tmp_path / "lme.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    (episode,) = load("longmemeval", path)
    assert episode.probes[0].query.asked_at == max(u.timestamp for u in episode.units)
    assert episode.probes[0].query.asked_at.day == 20


def test_longmemeval_leaves_out_turns_with_no_text(tmp_path: Path) -> None:
    data = json.loads((FIX / "eval_longmemeval.json").read_text(encoding="utf-8"))[:1]
    data[0]["haystack_sessions"][0].append({"role": "assistant", "content": "  "})
    path = tmp_path / "lme.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    (episode,) = load("longmemeval", path)
    assert all(u.text.strip() for u in episode.units)
    assert len(episode.units) == sum(len(s) for s in data[0]["haystack_sessions"]) - 1


def test_madial_memories_are_units_and_the_dialogue_is_the_query() -> None:
    bart, lisa = load("madial", FIX / "eval_madial.json")
    assert [u.uid for u in bart.units] == ["1", "2", "3"]  # date order
    # each memory event is its own record, not a turn of one long dialogue
    assert [u.session for u in bart.units] == ["memory-1", "memory-2", "memory-3"]
    assert {u.actor for u in bart.units} == {"Bart"} and bart.owner == {"user_id": "Bart"}
    (probe,) = bart.probes
    assert (
        probe.query.text
        == "Bart: 周末我想去公园放风筝。\nAssistant: 好主意！天气不错。\nBart: 可是我没有新的风筝。"
    )
    assert probe.gold.evidence == ("2",) and probe.gold.dropped == ("99",)
    assert lisa.probes[0].gold.evidence == ("4",)
    assert [u.uid for u in lisa.units] == ["4", "5"]


def test_madial_lines_strip_and_split() -> None:
    assert madial_lines([" <BOD>\n", ' <Lisa>:"你好"\n', "<EOD>\n"]) == [
        ("BOD", ""),
        ("Lisa", "你好"),
        ("EOD", ""),
    ]


def test_limit_and_errors(tmp_path: Path) -> None:
    assert len(load("longmemeval", FIX / "eval_longmemeval.json", limit=1)) == 1
    with pytest.raises(InvalidInput, match="does not exist"):
        load("locomo", tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    with pytest.raises(InvalidInput, match="not valid JSON"):
        load("locomo", bad)
    with pytest.raises(InvalidInput, match="unknown dataset kind"):
        load("nope", bad)
