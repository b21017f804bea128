"""Scoring functions: pure, no I/O, each checked on hand-made cases in tests/eval.

>>> recall_at_k(["a", "b", "c"], {"b", "z"}, 2)
0.5
>>> full_hit_at_k(["a", "b"], {"a", "b"}, 2)
1.0
>>> round(token_f1("the cat sat", "a cat sat down"), 3)
0.8
"""

from __future__ import annotations

import math
import re
import string
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any, TypeVar

T = TypeVar("T", bound=Hashable)

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_ARTICLES = re.compile(r"\b(a|an|the|and)\b")
_SPACE = re.compile(r"\s+")
_PUNCT = frozenset(string.punctuation + "，。！？、：；“”‘’（）《》…")
STOPWORDS = frozenset(
    """a an the and or but if of to in on at by for with from as is are was were be been being
    do does did have has had i you he she it we they me him her us them my your his its our their
    this that these those what which who whom whose when where why how not no yes so than then
    there here can could would should will shall may might must about into over after before
    just also very too any some all more most other such only own same s t don doesn didn""".split()
)


# -- ranking ------------------------------------------------------------------------------------


def dedupe(items: Iterable[T]) -> list[T]:
    """Keep the first occurrence of each item, in order (rank order is preserved)."""
    return list(dict.fromkeys(items))


def recall_at_k(ranked: Sequence[Hashable], gold: AbstractSet[Any], k: int) -> float:
    """|top-k ∩ gold| / |gold|; ``ranked`` is deduplicated first. Empty gold is an error."""
    if not gold:
        raise ValueError("recall is undefined without evidence")
    top = set(dedupe(ranked)[:k])
    return len(top & set(gold)) / len(gold)


def full_hit_at_k(ranked: Sequence[Hashable], gold: AbstractSet[Any], k: int) -> float:
    """1.0 when every gold item is in the top k, else 0.0."""
    return 1.0 if recall_at_k(ranked, gold, k) == 1.0 else 0.0


def rank_groups(ranked_units: Sequence[str], group_of: Mapping[str, str]) -> list[str]:
    """Rank groups (e.g. sessions) by their best unit: a group sits where its first unit does."""
    return dedupe(group_of[u] for u in ranked_units if u in group_of)


def mrr(ranked: Sequence[Hashable], gold: AbstractSet[Any]) -> float:
    for i, item in enumerate(dedupe(ranked), start=1):
        if item in gold:
            return 1.0 / i
    return 0.0


# -- context ------------------------------------------------------------------------------------


def squash(text: str) -> str:
    """Whitespace collapsed to single spaces: the form substring checks compare."""
    return _SPACE.sub(" ", text).strip()


def evidence_in_context(evidence_texts: Sequence[str], context: str) -> float:
    """Share of evidence units whose own text is in the context (verbatim, whitespace squashed)."""
    if not evidence_texts:
        raise ValueError("evidence recall is undefined without evidence")
    ctx = squash(context)
    return sum(1 for t in evidence_texts if squash(t) and squash(t) in ctx) / len(evidence_texts)


def normalise_answer(text: str) -> str:
    """SQuAD-style: lower case, punctuation and articles removed, whitespace squashed."""
    text = str(text).lower()
    text = "".join(" " if ch in _PUNCT else ch for ch in text)
    return squash(_ARTICLES.sub(" ", text))


def answer_tokens(text: str) -> list[str]:
    """Tokens for answer scoring: words, and single characters for Chinese."""
    out: list[str] = []
    for word in normalise_answer(text).split():
        if _CJK.search(word):
            out.extend(ch for ch in word if ch.strip())
        else:
            out.append(word)
    return out


def answer_token_recall(answer: str, context: str) -> float | None:
    """Share of the gold answer's distinct tokens present in the context (None: no tokens)."""
    gold = set(answer_tokens(answer))
    if not gold:
        return None
    have = set(answer_tokens(context))
    return len(gold & have) / len(gold)


# -- answer mode ---------------------------------------------------------------------------------


def token_f1(prediction: str, gold: str) -> float:
    """Token-level F1 between a predicted and a gold answer (LoCoMo's QA metric)."""
    pred, ref = answer_tokens(prediction), answer_tokens(gold)
    if not pred or not ref:
        return float(pred == ref)
    common = sum((Counter(pred) & Counter(ref)).values())
    if common == 0:
        return 0.0
    p, r = common / len(pred), common / len(ref)
    return 2 * p * r / (p + r)


def bleu1(prediction: str, gold: str) -> float:
    """BLEU-1: clipped unigram precision times the brevity penalty."""
    pred, ref = answer_tokens(prediction), answer_tokens(gold)
    if not pred or not ref:
        return float(pred == ref)
    clipped = sum((Counter(pred) & Counter(ref)).values())
    precision = clipped / len(pred)
    bp = 1.0 if len(pred) > len(ref) else math.exp(1 - len(ref) / len(pred))
    return bp * precision


# -- tokens, latency, aggregation ---------------------------------------------------------------


def lexical_tokens(text: str) -> list[str]:
    """Tokens for the BM25 baseline: lower-cased words without English stopwords; Chinese
    runs as character bigrams."""
    out: list[str] = []
    for word in _WORD.findall(text.lower()):
        runs = _CJK_RUN.split(word)
        out.extend(r for r in runs if r and r not in STOPWORDS)
        for run in _CJK_RUN.findall(word):
            out.extend([run] if len(run) == 1 else [run[i : i + 2] for i in range(len(run) - 1)])
    return out


def percentile(values: Sequence[float], q: float) -> float | None:
    """Linear-interpolated percentile (q in 0..100); None for no values."""
    if not values:
        return None
    data = sorted(values)
    pos = (len(data) - 1) * q / 100.0
    lo, hi = math.floor(pos), math.ceil(pos)
    return data[lo] + (data[hi] - data[lo]) * (pos - lo)


def mean(values: Iterable[float | None]) -> float | None:
    """Mean over the values that are not None; None when there are none."""
    kept = [v for v in values if v is not None]
    return sum(kept) / len(kept) if kept else None


def aggregate(rows: Sequence[Mapping[str, float | None]]) -> dict[str, float | None]:
    """Per-metric mean over rows (missing/None values skipped), plus ``n`` = number of rows."""
    keys = dedupe(k for row in rows for k in row)
    out: dict[str, float | None] = {k: mean(row.get(k) for row in rows) for k in keys}
    out["n"] = float(len(rows))
    return out
