"""A reply is tied to what it answers (issue 44 §2), on every backend: by a turn id (checked to be
of the same chat), by the platform's message id (in the same write or an earlier one), by the
quote its text opens with; ``reply_links`` reads the ties both ways."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from pmemo.errors import NotFound
from pmemo.models import Scope
from pmemo.stores.base import FullStore, NewTurn
from pmemo.text.quotes import addressed, quoted

T0 = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)
CHAT = Scope.of(group_id="study", session_id="s")


def _new(text: str, minute: int, actor: str = "周霓", *, scope: Scope = CHAT, mid: str | None = None,
         **reply: object) -> NewTurn:
    meta = {"message_id": mid} if mid else {}
    return NewTurn(scope, "user", text, actor, T0 + timedelta(minutes=minute), meta, text, None, **reply)  # type: ignore[arg-type]


def test_replies_by_id_message_id_and_quote(full_store: FullStore) -> None:
    q, other = full_store.turns.add_turns([_new("明天几点集合？", 0, mid="m1"), _new("我晚点到", 1, "王磊", mid="m2")])
    a, b, c = full_store.turns.add_turns([
        _new("八点", 2, "王磊", reply_to=q.id),
        _new("收到", 3, "李琴", reply_message="m2"),
        _new("「周霓：明天几点集合？」校门口见", 4, "陈宇", quote=quoted("「周霓：明天几点集合？」校门口见"))])
    assert (a.reply_to, b.reply_to, c.reply_to) == (q.id, other.id, q.id)
    got = full_store.turns.get_turns([a.id, b.id, c.id])
    assert [got[i].reply_to for i in (a.id, b.id, c.id)] == [q.id, other.id, q.id]
    # within one write: the answer names a message of the same batch
    x, y = full_store.turns.add_turns([_new("谁有充电宝？", 5, mid="m9"), _new("我有", 6, "王磊", reply_message="m9")])
    assert y.reply_to == x.id
    links = full_store.turns.reply_links([q.id, a.id, x.id, other.id])
    assert links[q.id] == sorted([a.id, c.id]) and links[a.id] == [q.id] and links[x.id] == [y.id]
    assert links[other.id] == [b.id]
    # an unknown message id or a quote of nothing: no tie
    (z,) = full_store.turns.add_turns([_new("嗯", 7, reply_message="nope")])
    assert z.reply_to is None


def test_a_reply_to_another_chats_turn_is_refused(full_store: FullStore) -> None:
    (elsewhere,) = full_store.turns.add_turns([_new("hi", 0, scope=Scope.of(group_id="other", session_id="s"))])
    with pytest.raises(NotFound, match="reply_to"):
        full_store.turns.add_turns([_new("hello", 1, reply_to=elsewhere.id)])


def test_an_answer_opening_with_a_mention_answers_that_persons_question(full_store: FullStore) -> None:
    q, _ = full_store.turns.add_turns([_new("周末谁能帮我搬家？", 0), _new("今晚打球吗", 1, "李琴")])
    (a,) = full_store.turns.add_turns([_new("@周霓 我可以", 2, "王磊", address=addressed("@周霓 我可以"))])
    x, y = full_store.turns.add_turns([_new("谁有伞？", 3, "陈宇"),
                                 _new("@陈宇 我有", 4, "王磊", address=addressed("@陈宇 我有"))])
    assert a.reply_to == q.id and y.reply_to == x.id
