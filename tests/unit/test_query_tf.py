"""The keyword search weighs a word by how often the query says it (setting w_qtf)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from pmemo.models import Scope
from pmemo.retrieval.search import lexical
from pmemo.stores.base import NewTurn
from pmemo.stores.sqlite.store import SQLiteStore
from pmemo.text.segment import segment

CHAT = "Lisa: 奶奶生病了，我好担心。\nBot: 你可以画画给她。\nLisa: 奶奶会喜欢吗？我想去看奶奶"


def test_a_chat_that_comes_back_to_a_word_finds_its_turns_first(tmp_path: Path) -> None:
    store = SQLiteStore.open(tmp_path)
    when = datetime(2024, 1, 1, tzinfo=UTC)
    grandma, drawing = store.turns.add_turns(
        [NewTurn(Scope.of(user_id="lisa", session_id=s), "user", text, "Lisa", when, {}, segment(text))
         for s, text in (("a", "周末爷爷奶奶来家里吃饭"), ("b", "Lisa在美术课上画画"))])
    owner = Scope.of(user_id="lisa")
    said = dict(lexical(store, owner, CHAT, None))  # grandma three times, drawing once
    assert said[grandma.id] > said[drawing.id]
    once = dict(lexical(store, owner, CHAT, None, qtf=0.0))  # each word once, as before w_qtf
    assert said[grandma.id] - said[drawing.id] > once[grandma.id] - once[drawing.id]
    store.close()
