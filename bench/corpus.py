"""A synthetic conversation corpus for the speed benchmarks, shaped like real chat text.

Search cost depends on how long the posting lists of the query's terms are, so the corpus
has to have natural word frequencies: a few very common words, a long tail of rare ones.
Repeating a hundred sample sentences (the old generator) made every query term hit tens
of thousands of rows, which no real conversation does. Here:

- words are drawn from a Zipf distribution (p ∝ 1/(rank + 2.7)) over a vocabulary of
  ~15k generated English-like words and ~12k Chinese words (jieba's own dictionary,
  the most frequent 2-3 character entries), with stopwords at the top ranks and the
  shipped sample conversation's words at random ranks, so the sample questions' terms
  match a natural number of turns (a handful to thousands);
- turns are English (50%), Chinese (40%, no spaces: jieba segments them as it would real
  text) or mixed (10%), 6-40 words long;
- each session drifts through topics, and a quarter of a turn's words are its topic's
  words, so turns cluster as real ones do: the bench embedder gives each turn its topic's
  centroid plus noise (see ``BenchEmbedder`` in core.py), and mid-term clustering joins
  clusters instead of opening a new one per turn.

Nothing is read from the evaluation data (../shared/data): only pmemo's own sample and
jieba's dictionary.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from importlib import resources
from pathlib import Path

import numpy as np

from pmemo.text.segment import STOPWORDS, has_cjk, tokens

ENGLISH_WORDS = 15_000
CHINESE_WORDS = 12_000
TOPICS = 150
TOPIC_WORDS = 30  # per language
TOPIC_SHARE = 0.25  # of a turn's words
TURNS_PER_SESSION = 100

_ONSETS = "b c d f g h j k l m n p r s t v w z br cl dr fl gr pl st tr sh ch th sk".split()
_VOWELS = "a e i o u ai ea ou io ee".split()
_CODAS = ["", "", "n", "r", "s", "t", "l", "m", "nd", "st", "ck"]


@dataclass(frozen=True)
class Turn:
    session: str
    text: str
    topic: int
    timestamp: datetime


def sample_rows() -> list[dict]:
    raw = resources.files("pmemo").joinpath("data/sample_conversation.jsonl").read_text("utf-8")
    return [json.loads(line) for line in raw.splitlines() if line.strip()]


def _english(rng: random.Random, n: int, taken: set[str]) -> list[str]:
    out: list[str] = []
    while len(out) < n:
        word = "".join(rng.choice(_ONSETS) + rng.choice(_VOWELS) + rng.choice(_CODAS)
                       for _ in range(rng.choice((1, 2, 2, 3))))
        if word not in taken and len(word) > 2:
            taken.add(word)
            out.append(word)
    return out


def _jieba_frequencies() -> dict[str, int]:
    import jieba

    out = {}
    for line in (Path(jieba.__file__).parent / "dict.txt").read_text("utf-8").splitlines():
        word, freq, *_ = line.split(" ")
        out[word] = int(freq)
    return out


def _english_ranks(rng: random.Random, stop: list[str], sample: list[str],
                   rest: list[str]) -> list[str]:
    """Stopwords first; the sample's words at log-uniform ranks among the generated ones
    (content words of a conversation lean towards the common end)."""
    ranked = list(rest)
    for word in sample:
        ranked.insert(int(math.exp(rng.uniform(math.log(60), math.log(len(ranked))))), word)
    return [*stop, *ranked]


def _chinese_ranks(rng: random.Random, stop: list[str], sample: list[str], n: int) -> list[str]:
    """Stopwords first, then jieba's 2-3 character words by jieba's own frequency, the
    sample's words among them at their frequency (or a log-uniform one if jieba lacks them)."""
    freq = _jieba_frequencies()
    common = sorted((w for w in freq if 2 <= len(w) <= 3 and all(has_cjk(c) for c in w)),
                    key=lambda w: -freq[w])[:n]
    low, high = math.log(freq[common[-1]]), math.log(freq[common[60]])
    own = {w: freq.get(w) or math.exp(rng.uniform(low, high)) for w in sample}
    words = {w: float(freq[w]) for w in common if w not in STOPWORDS} | own
    return [*stop, *sorted(words, key=lambda w: -words[w])]


def _zipf_cdf(n: int) -> np.ndarray:
    p = np.cumsum(1.0 / (np.arange(n) + 2.7))
    return p / p[-1]


class Vocabulary:
    def __init__(self, seed: int) -> None:
        rng = random.Random(seed)
        sample = [t for row in sample_rows() for t in tokens(row["content"])]
        en_sample = sorted({t for t in sample
                            if not has_cjk(t) and t not in STOPWORDS and not t.isdigit()})
        zh_sample = sorted({t for t in sample if has_cjk(t) and t not in STOPWORDS})
        en_stop = sorted(w for w in STOPWORDS if not has_cjk(w))
        zh_stop = sorted(w for w in STOPWORDS if has_cjk(w))
        rng.shuffle(en_stop)
        rng.shuffle(zh_stop)
        generated = _english(rng, ENGLISH_WORDS, set(STOPWORDS) | set(sample))
        self.en = _english_ranks(rng, en_stop, en_sample, generated)
        self.zh = _chinese_ranks(rng, zh_stop, zh_sample, CHINESE_WORDS)
        self.cdf_en, self.cdf_zh = _zipf_cdf(len(self.en)), _zipf_cdf(len(self.zh))
        # topical words come from the middle of the ranks: frequent enough to recur
        self.topics_en = [rng.sample(self.en[100:5000], TOPIC_WORDS) for _ in range(TOPICS)]
        self.topics_zh = [rng.sample(self.zh[100:5000], TOPIC_WORDS) for _ in range(TOPICS)]


def _words(vocab: list[str], cdf: np.ndarray, topic_words: list[str], n: int,
           rng: np.random.Generator) -> list[str]:
    background = [vocab[i] for i in np.searchsorted(cdf, rng.random(n))]
    for k in np.flatnonzero(rng.random(n) < TOPIC_SHARE):
        background[int(k)] = topic_words[int(rng.integers(len(topic_words)))]
    return background


def _sentence(words: list[str], chinese: bool, rng: np.random.Generator) -> str:
    end = "？" if chinese and rng.random() < 0.2 else "?" if rng.random() < 0.2 else None
    if chinese:
        parts = ["".join(words[i : i + 6]) for i in range(0, len(words), 6)]
        return "，".join(parts) + (end or "。")
    text = " ".join(words)
    return text[:1].upper() + text[1:] + (end or ".")


def _text(vocab: Vocabulary, topic: int, rng: np.random.Generator) -> str:
    length = int(np.clip(rng.lognormal(2.6, 0.5), 6, 40))
    en = (vocab.en, vocab.cdf_en, vocab.topics_en[topic])
    zh = (vocab.zh, vocab.cdf_zh, vocab.topics_zh[topic])
    lang = rng.random()
    if lang < 0.5:
        return _sentence(_words(*en, length, rng), False, rng)
    if lang < 0.9:
        return _sentence(_words(*zh, length, rng), True, rng)
    words = _words(*en, length - 3, rng)
    at = int(rng.integers(len(words) + 1))
    return _sentence([*words[:at], "".join(_words(*zh, 3, rng)), *words[at:]], False, rng)


def generate(n: int, seed: int = 7) -> list[Turn]:
    """``n`` turns in sessions of ``TURNS_PER_SESSION``, timestamps increasing."""
    vocab = Vocabulary(seed)
    rng = np.random.default_rng(seed)
    start = datetime(2024, 1, 1, tzinfo=UTC)
    out: list[Turn] = []
    topic = 0
    for i in range(n):
        session = i // TURNS_PER_SESSION
        if i % TURNS_PER_SESSION == 0 or rng.random() < 0.08:  # the conversation drifts
            topic = int(rng.integers(TOPICS))
        stamp = start + timedelta(days=session, seconds=40 * (i % TURNS_PER_SESSION))
        out.append(Turn(f"s{session}", _text(vocab, topic, rng), topic, stamp))
    return out
