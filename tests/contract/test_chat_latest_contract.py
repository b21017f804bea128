"""Where a turn sent without a session joins (issue 44 §2): ``chat_latest`` reads the owner's
latest turn at or before an instant, whatever its session, on every backend."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from pmemo.models import Scope
from pmemo.stores.base import FullStore, NewTurn

T0 = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)


def _add(store: FullStore, scope: Scope, when: datetime, text: str = "x") -> None:
    store.turns.add_turns([NewTurn(scope, "user", text, "周霓", when, {}, text)])


def test_the_latest_turn_at_or_before_an_instant(full_store: FullStore) -> None:
    chat = Scope.of(group_id="study", session_id="a")
    assert full_store.turns.chat_latest(chat, T0.timestamp()) is None
    _add(full_store, chat, T0)
    _add(full_store, Scope.of(group_id="study", session_id="b"), T0 + timedelta(hours=1))
    _add(full_store, Scope.of(group_id="other", session_id="c"), T0 + timedelta(hours=2))
    shanghai = timezone(timedelta(hours=8))  # a zoned timestamp is the same instant
    assert full_store.turns.chat_latest(chat, (T0 + timedelta(hours=5)).astimezone(shanghai).timestamp()) == (
        "b", (T0 + timedelta(hours=1)).timestamp())
    assert full_store.turns.chat_latest(chat, (T0 + timedelta(minutes=59)).timestamp()) == ("a", T0.timestamp())
    assert full_store.turns.chat_latest(chat.owner_scope(), T0.timestamp() - 1) is None
