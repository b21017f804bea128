"""A clause read with the clause before it (issue 44 §1, third round): a clause with no subject of
its own goes on with whom the message spoke of last, a relative or an acquaintance too, and a
clause that only says "just kidding" takes the statement before it back. The readings come from a
scripted model (the reader's logic, not the weights, is under test)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

import numpy as np

from pmemo.models import Scope, Turn
from pmemo.statements.labels import Label
from pmemo.statements.model import Reading
from pmemo.statements.read import candidates, read_turn

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


class Scripted:
    """Reads each clause as the script says (by its words without the closing mark)."""

    def __init__(self, script: dict[str, Label]) -> None:
        self.script = script

    def read(self, texts: Sequence[str], names: Sequence[Sequence[tuple[int, int]]],
             vectors: np.ndarray | None = None) -> list[Reading]:
        out = []
        for text in texts:
            label = self.script[text.rstrip("，,。！!")]
            sure = {"kind": 0.9, "subject": 0.9, "mode": 0.9, "polarity": 0.9, "change": 0.9}
            out.append(Reading(label, sure, 0.9 if label.states else 0.05, 0.5))
        return out


def _turn(text: str) -> Turn:
    return Turn(1, Scope.of(group_id="g"), 1, "user", text, "周霓", T0, actor_id="ni")


STUDY = Label("study", "speaker", "plain", "asserted")


def test_a_clause_without_a_subject_goes_on_with_a_relative() -> None:
    model = Scripted({"我妹妹在北京读大学": Label("study", "relative", "plain", "asserted"), "学医的": STUDY})
    read = read_turn(_turn("我妹妹在北京读大学，学医的"), None, model)  # type: ignore[arg-type]
    assert [(s.role, s.who, s.relation) for s in read] == [("relative", "ni", "妹妹"), ("relative", "ni", "妹妹")]
    keys = [c.key for c in candidates(_turn("x"), read, [])]
    assert keys == ["family:妹妹:study", "family:妹妹:study"]


def test_a_clause_without_a_subject_after_a_friends_fact_is_nobodys() -> None:
    model = Scripted({"我室友在字节上班": Label("work", "other", "plain", "asserted"),
                      "做后端": Label("work", "speaker", "plain", "asserted")})
    read = read_turn(_turn("我室友在字节上班，做后端"), None, model)  # type: ignore[arg-type]
    assert [s.role for s in read] == ["other", "other"]
    assert candidates(_turn("x"), read, []) == []


def test_chatter_between_keeps_whom_the_message_spoke_of() -> None:
    model = Scripted({"我在腾讯上班": Label("work", "speaker", "plain", "asserted"),
                      "今天真的累死了": Label("none", "other", "plain", "asserted"), "做后端的": STUDY})
    read = read_turn(_turn("我在腾讯上班，今天真的累死了，做后端的"), None, model)  # type: ignore[arg-type]
    assert [(s.role, s.who) for s in read] == [("speaker", "ni"), ("other", None), ("speaker", "ni")]


def test_a_joke_said_after_takes_the_statement_back() -> None:
    model = Scripted({"我下个月升职了": Label("work", "speaker", "plain", "asserted"),
                      "才怪": Label("none", "other", "joke", "asserted")})
    read = read_turn(_turn("我下个月升职了，才怪"), None, model)  # type: ignore[arg-type]
    assert [s.states for s in read] == [False, False]
    assert candidates(_turn("x"), read, []) == []
    plain = read_turn(_turn("我下个月升职了"), None, model)  # type: ignore[arg-type]
    assert [s.states for s in plain] == [True]
