"""The scoring functions on hand-made cases."""

from __future__ import annotations

import math

import pytest

from pmemo.eval.datasets import parse_evidence
from pmemo.eval.metrics import (
    aggregate,
    answer_token_recall,
    answer_tokens,
    bleu1,
    dedupe,
    evidence_in_context,
    full_hit_at_k,
    lexical_tokens,
    mrr,
    percentile,
    rank_groups,
    recall_at_k,
    token_f1,
)

VALID = {"D8:6", "D9:17", "D11:26", "D30:5", "D9:1", "D4:4", "D4:6", "D1:1"}


@pytest.mark.parametrize(
    ("raw", "kept", "dropped"),
    [
        (["D8:6; D9:17"], ["D8:6", "D9:17"], []),
        (["D9:1 D4:4 D4:6"], ["D9:1", "D4:4", "D4:6"], []),
        (["D:11:26"], ["D11:26"], []),
        (["D30:05"], ["D30:5"], []),
        (["D", "D1:1"], ["D1:1"], ["D"]),
        (["D10:19", "D1:1"], ["D1:1"], ["D10:19"]),
        (["D1:1", "D1:01"], ["D1:1"], []),
        ([], [], []),
        (["", "nonsense"], [], ["", "nonsense"]),
    ],
)
def test_parse_evidence_quirks(raw: list[str], kept: list[str], dropped: list[str]) -> None:
    assert parse_evidence(raw, VALID) == (kept, dropped)


def test_parse_evidence_without_valid_set_keeps_every_id() -> None:
    assert parse_evidence(["D10:19", "D2:03"]) == (["D10:19", "D2:3"], [])


def test_recall_counts_each_gold_item_once_after_dedupe() -> None:
    ranked = ["a", "a", "b", "c", "d"]
    assert recall_at_k(ranked, {"b", "d"}, 2) == 0.5  # top-2 after dedupe: a, b
    assert recall_at_k(ranked, {"b", "d"}, 4) == 1.0
    assert recall_at_k([], {"x"}, 10) == 0.0


def test_recall_without_evidence_is_an_error() -> None:
    with pytest.raises(ValueError):
        recall_at_k(["a"], set(), 5)


def test_full_hit_needs_every_item() -> None:
    assert full_hit_at_k(["a", "b", "c"], {"a", "c"}, 3) == 1.0
    assert full_hit_at_k(["a", "b", "c"], {"a", "c"}, 2) == 0.0


def test_dedupe_keeps_rank_order() -> None:
    assert dedupe(["b", "a", "b", "c", "a"]) == ["b", "a", "c"]


def test_rank_groups_ranks_sessions_by_their_best_turn() -> None:
    session_of = {"S1:T1": "S1", "S1:T2": "S1", "S2:T1": "S2", "S3:T1": "S3"}
    ranked = ["S2:T1", "S1:T2", "S2:T1", "S1:T1", "unknown", "S3:T1"]
    assert rank_groups(ranked, session_of) == ["S2", "S1", "S3"]


def test_mrr() -> None:
    assert mrr(["a", "b", "c"], {"c"}) == pytest.approx(1 / 3)
    assert mrr(["a"], {"z"}) == 0.0


def test_evidence_in_context_is_whitespace_insensitive_and_verbatim() -> None:
    ctx = "[2023-05-01] Ana: I  adopted\na puppy.\nBen: nice"
    assert evidence_in_context(["I adopted a puppy."], ctx) == 1.0
    assert evidence_in_context(["I adopted a puppy.", "I adopted a kitten."], ctx) == 0.5
    assert evidence_in_context([""], ctx) == 0.0
    with pytest.raises(ValueError):
        evidence_in_context([], ctx)


def test_answer_token_recall() -> None:
    assert answer_token_recall("The 7 May 2023", "she went on 7 May, 2023.") == 1.0
    assert answer_token_recall("sage green", "it was green") == 0.5
    assert answer_token_recall("...", "anything") is None
    assert answer_token_recall("熊猫", "去动物园看熊猫") == 1.0


def test_answer_tokens_normalise_case_punctuation_articles() -> None:
    assert answer_tokens("The Cat, a DOG!") == ["cat", "dog"]
    assert answer_tokens("看熊猫。") == ["看", "熊", "猫"]


def test_f1_and_bleu1() -> None:
    assert token_f1("Pepper", "pepper") == 1.0
    assert token_f1("a beagle", "golden retriever") == 0.0
    assert token_f1("", "") == 1.0
    assert bleu1("cat sat", "cat sat") == 1.0
    # one of two predicted words right, prediction as long as the reference: 0.5
    assert bleu1("cat ran", "cat sat") == 0.5
    # a short prediction pays the brevity penalty
    assert bleu1("cat", "cat sat on mat") == pytest.approx(math.exp(1 - 4))
    # clipped counts: repeating a right word does not help
    assert bleu1("cat cat cat cat", "cat sat on mat") == 0.25


def test_percentile_interpolates() -> None:
    assert percentile([], 50) is None
    assert percentile([5.0], 95) == 5.0
    assert percentile([1, 2, 3, 4], 50) == 2.5
    assert percentile(list(range(101)), 95) == 95


def test_aggregate_skips_missing_values() -> None:
    out = aggregate([{"R@5": 1.0, "ans": None}, {"R@5": 0.0}, {"R@5": 0.5, "ans": 1.0}])
    assert out == {"R@5": 0.5, "ans": 1.0, "n": 3.0}


def test_lexical_tokens_words_and_chinese_bigrams() -> None:
    assert lexical_tokens("The Puppy's name is Pepper") == ["puppy", "name", "pepper"]
    assert lexical_tokens("放风筝abc") == ["abc", "放风", "风筝"]
    assert lexical_tokens("猫") == ["猫"]
