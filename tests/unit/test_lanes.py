"""Reads' queries never queue behind passages (embedders/lanes.py); a long text is cut into
pieces the model reads in one pass (embedders/pieces.py), and a passage batch into bounded slices."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pmemo.embedders.lanes import Lanes, slices
from pmemo.embedders.pieces import split


def test_a_query_is_answered_while_the_passage_lane_is_held():
    lanes = Lanes("test")
    gate, entered = threading.Event(), threading.Event()

    def held() -> str:
        entered.set()
        assert gate.wait(30)
        return "passages"

    behind = threading.Thread(target=lambda: lanes.passage(held))
    behind.start()
    try:
        assert entered.wait(30)
        assert lanes.passages_busy
        assert lanes.query(str.upper, "asked") == "ASKED"  # not behind the held passage call
    finally:
        gate.set()
        behind.join()
    assert not lanes.passages_busy


@given(st.lists(st.integers(1, 900), max_size=40), st.integers(1, 600))
def test_slices_cover_every_text_in_order_within_the_budget(tokens, budget):
    runs = slices(tokens, budget)
    assert [i for a, b in runs for i in range(a, b)] == list(range(len(tokens)))
    for a, b in runs:
        assert b - a == 1 or sum(tokens[a:b]) <= budget  # only a text longer than it goes alone


def words(text: str) -> int:
    return len(text.split())


@given(st.lists(st.sampled_from(["word", "two words.", "end.\n", "a, b", "七个汉字的句子。"]), max_size=200),
       st.integers(3, 40))
def test_pieces_join_back_to_the_text_and_keep_within_the_limit(parts, limit):
    text = " ".join(parts)
    pieces = split(text, words, limit)
    assert "".join(p for p, _ in pieces) == text
    assert all(n == words(p) for p, n in pieces)
    assert all(n <= limit + 1 for p, n in pieces)  # a sentence's mark may end just past the guess


def test_a_piece_ends_at_a_sentence_when_one_is_near():
    text = "Mei flew to Lisbon in May. " * 30
    pieces = [p for p, _ in split(text, words, 40)]
    assert len(pieces) > 1 and all(p.endswith("May. ") for p in pieces[:-1])


def test_e5_pieces_are_one_pass_each_and_its_text_vector_is_their_mean():
    from pmemo.embedders import e5

    model = e5.E5Embedder()
    text = "我们昨天去了北京的一家老餐馆，吃了烤鸭和炸酱面，味道非常好。" * 60  # ~1,800 characters
    pieces = model.pieces(text)
    assert len(pieces) > 1 and "".join(pieces) == text
    assert all(model.token_count(p) <= e5.PIECE_TOKENS + 2 for p in pieces)
    rows = model.embed_passages(pieces)  # in slices of SLICE_TOKENS: each piece as if alone
    assert np.array_equal(rows[1], model.embed_passages([pieces[1]])[0])
    whole = model.embed_passages([text])[0]
    mean = rows.sum(axis=0)
    assert np.allclose(whole, mean / np.linalg.norm(mean), atol=1e-6)
    assert model.pieces("short") == ["short"]


@pytest.mark.parametrize("text", ["", "one"])
def test_a_short_text_is_one_piece(text):
    assert split(text, words, 4) == [(text, words(text))]
