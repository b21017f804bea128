"""A reply is tied to what it answers (issue 44 §2), through the library: ``reply_to``, the
platform's message ids, the quote in the text; a search for the question finds an answer that
has none of its words. Real SQLite, the hashing embedder."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from pmemo import InvalidInput, NotFound, SyncMemory

T0 = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)
WHO = {"ni": "周霓", "wl": "王磊", "lq": "李琴", "cy": "陈宇"}


def _chat() -> list[dict[str, Any]]:
    lines: list[tuple[str, str, dict[str, Any]]] = [
        ("ni", "周末谁能帮我搬家？东西不多，从望京搬到回龙观", {"message_id": "m1"}),
        ("lq", "今晚的羽毛球还打吗", {"message_id": "m2"}),
        ("cy", "打啊，七点老地方", {"message_id": "m3", "reply_to_message": "m2"}),
        ("lq", "好的", {"message_id": "m4"}),
        ("wl", "@周霓 我可以，周六上午有空", {"message_id": "m5", "reply_to_message": "m1"}),
        ("cy", "「李琴：今晚的羽毛球还打吗」我带拍子", {"message_id": "m6"}),
    ]
    return [{"group_id": "study", "actor_id": pid, "actor": WHO[pid], "content": text, "metadata": meta,
             "timestamp": (T0 + timedelta(minutes=n)).isoformat()} for n, (pid, text, meta) in enumerate(lines)]


def test_replies_are_tied_by_message_id_and_by_quote(mem: SyncMemory) -> None:
    turns = mem.add_many(_chat())
    by = {t.metadata["message_id"]: t for t in turns}
    assert by["m3"].reply_to == by["m2"].id and by["m5"].reply_to == by["m1"].id
    assert by["m6"].reply_to == by["m2"].id  # 「李琴：…」 quotes her message
    again = mem.add(group_id="study", content="那我也去", reply_to=by["m3"].id)
    assert again.reply_to == by["m3"].id and mem.get_turn(again.id).reply_to == by["m3"].id


def test_a_search_for_the_question_finds_the_answer(mem: SyncMemory) -> None:
    mem.add_many(_chat())
    mem.drain()
    hits = [h for h in mem.search("周末搬家谁能帮忙", group_id="study", limit=5) if h.kind == "turn"]
    texts = [h.text for h in hits]
    assert "@周霓 我可以，周六上午有空" in texts  # none of the question's words
    answer = next(h for h in hits if h.text.startswith("@周霓"))
    assert "answers it" in answer.why
    pack = mem.context("周末搬家谁能帮忙", group_id="study", budget_tokens=600)
    assert "周六上午有空" in pack.text


def test_a_bad_reply_to_is_refused(mem: SyncMemory) -> None:
    other = mem.add(group_id="elsewhere", content="hi")
    with pytest.raises(NotFound, match="reply_to"):
        mem.add(group_id="study", content="x", reply_to=other.id)
    with pytest.raises(InvalidInput, match="reply_to must be an integer"):
        mem.add(group_id="study", content="x", reply_to="m1")  # type: ignore[arg-type]


def test_asked_before_the_answer_the_answer_is_unknown(mem: SyncMemory) -> None:
    mem.add_many(_chat())
    mem.drain()
    before = (T0 + timedelta(minutes=3)).isoformat()  # after the question, before 王磊's answer
    texts = [h.text for h in mem.search("周末搬家谁能帮忙", group_id="study", limit=5, at=before)]
    assert any("搬家" in t for t in texts) and "@周霓 我可以，周六上午有空" not in texts
