"""An answer is read with its question (issue 44 §2): "@提问的人 对，我也是" gives its speaker the
question's fact, and a pronoun answering a question about someone is about them. Real SQLite,
the hashing embedder, the default (offline) extraction."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from pmemo import SyncMemory
from pmemo.text.answers import restated

T0 = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)
WHO = {"ni": "周霓", "wl": "王磊", "lq": "李琴", "cy": "陈宇"}


@pytest.mark.parametrize("question, answer, named, said", [
    ("有人对花粉过敏吗？", "@周霓 对，我也是", None, "我对花粉过敏"),
    ("@王磊 你是不是在腾讯上班？", "是的", None, "我在腾讯上班"),
    ("谁养猫了", "我", None, None),
    ("有人对花粉过敏吗？", "没有", None, None),
    ("周霓对什么过敏？", "@李琴 她对花粉过敏", "周霓", "周霓对花粉过敏"),
    ("Does anyone here have a cat?", "yes, me too", None, "I have a cat"),
    ("明天几点集合？", "八点", None, None),
    ("你去哪了？", "对", None, None),
])
def test_restated(question: str, answer: str, named: str | None, said: str | None) -> None:
    assert restated(question, answer, named) == said


def _say(lines: list[tuple[str, str]]) -> list[dict[str, object]]:
    return [{"group_id": "g", "actor_id": pid, "actor": WHO[pid], "content": text,
             "timestamp": (T0 + timedelta(minutes=n)).isoformat()} for n, (pid, text) in enumerate(lines)]


def test_the_subject_comes_from_the_question(mem: SyncMemory) -> None:
    turns = mem.add_many(_say([("ni", "大家好"), ("wl", "你好"), ("lq", "hi"), ("cy", "在"),
                               ("ni", "有人对花粉过敏吗？春天好难受"), ("cy", "今天好冷"),
                               ("wl", "@周霓 对，我也是"),
                               ("lq", "周霓在哪里上班？"), ("cy", "@李琴 她在腾讯上班")]))
    assert turns[6].reply_to == turns[4].id and turns[8].reply_to == turns[7].id
    mem.drain()
    mine = " ".join(f"{f.key} {f.value}" for f in mem.profile("wl", group_id="g"))
    assert "花粉" in mine
    hers = " ".join(f"{f.key} {f.value}" for f in mem.profile("ni", group_id="g"))
    assert "腾讯" in hers
    assert "腾讯" not in " ".join(f"{f.key} {f.value}" for f in mem.profile("cy", group_id="g"))
