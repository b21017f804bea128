"""Turning raw retrieval scores into comparable signals (pure)."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from datetime import date

import numpy as np


def zscores(scores: np.ndarray) -> np.ndarray:
    """Standard scores over the candidate pool, so signals of different units can be added.

    Embedding cosines sit in a narrow high band (e5: 0.75-0.9) and bm25 is unbounded; what
    separates candidates is how far each stands above the pool, in the pool's own spread.

    >>> zscores(np.array([1.0, 2.0, 3.0])).round(3).tolist()
    [-1.225, 0.0, 1.225]
    """
    values = np.asarray(scores, dtype=float)
    if not len(values):
        return values.copy()
    # the sums run left to right, as Python's sum(): the same inputs give the same bits
    mean = sum(values.tolist()) / len(values)
    deviation = values - mean
    spread = math.sqrt(sum((deviation * deviation).tolist()) / len(values))
    if spread <= 1e-9:
        return np.zeros(len(values))
    return deviation / spread


def above_floor(scores: np.ndarray) -> np.ndarray:
    """Scores rescaled so the weakest candidate is 0 and the best 1.

    >>> above_floor(np.array([2.0, 4.0, 3.0])).tolist()
    [0.0, 1.0, 0.5]
    """
    values = np.asarray(scores, dtype=float)
    if not len(values):
        return values.copy()
    low, high = float(values.min()), float(values.max())
    span = high - low
    if span <= 1e-9:
        return np.ones(len(values))
    return (values - low) / span


def recency(times: np.ndarray) -> np.ndarray:
    """Newest candidate 1, oldest 0 (conversation time, not wall-clock)."""
    return above_floor(times)


def neighbour_bonus(scores: np.ndarray, neighbours: np.ndarray,
                    reach: Sequence[float] | None = None) -> np.ndarray:
    """Each candidate's best neighbouring candidate's score: context often spans adjacent turns.

    ``neighbours[i]`` holds the positions of candidate i's neighbours, -1 where there is
    none; scores are finite and not negative. ``reach[j]`` scales what the j-th neighbour
    passes on (a turn two steps away counts for less than the next one); 1 by default.

    >>> neighbour_bonus(np.array([0.5, 0.9, 0.2]), np.array([[-1, 1], [0, 2], [1, -1]])).tolist()
    [0.9, 0.5, 0.9]
    >>> scores, neighbours = np.array([0.5, 0.9, 0.2]), np.array([[1, 2], [0, -1], [0, 1]])
    >>> neighbour_bonus(scores, neighbours, reach=[0.5, 1.0]).tolist()
    [0.45, 0.25, 0.9]
    """
    values = np.asarray(scores, dtype=float)
    links = np.asarray(neighbours, dtype=np.intp)
    if not len(values) or not links.size:
        return np.zeros(len(values))
    padded = np.append(values, 0.0)  # position -1: no neighbour, nothing passed on
    return (padded[links] * (1.0 if reach is None else np.asarray(reach, dtype=float))).max(axis=1)


def mentioned(names: set[str], text: str) -> set[str]:
    """The names (speakers) that ``text`` mentions as whole words, in any case.

    >>> sorted(mentioned({"Mei", "Bo", "李雷", "韩梅梅"}, "What did mei tell 李雷说 about Bob?"))
    ['Mei', '李雷']
    """
    return {name for name in names if re.search(_whole(re.escape(name)), text, re.IGNORECASE)}


def _whole(pattern: str) -> str:
    """``pattern`` as a whole word: no Latin letter or digit right before or after it
    (Chinese has no spaces, so "李雷说" still mentions 李雷)."""
    return rf"(?<![a-z0-9]){pattern}(?![a-z0-9])"


def without_spans(query: str, spans: Sequence[tuple[int, int]]) -> str:
    """The query without the people it names (their spans, a possessive with them); a query that
    is nothing but names stays whole.

    >>> without_spans("霓霓对什么过敏？", [(0, 2)]), without_spans("Neko's cat?", [(0, 4)])
    ('对什么过敏？', 'cat?')
    >>> without_spans("霓霓", [(0, 2)])
    '霓霓'
    """
    if not spans:
        return query
    out, last = [], 0
    for start, end in sorted(spans):
        out.append(query[last:start])
        last = end + (2 if query[end:end + 2] in ("'s", "’s") else 0)
    out.append(query[last:])
    left = re.sub(r"[ \t]{2,}", " ", "".join(out)).strip()
    return left if re.search(r"\w", left) else query


def without_speakers(query: str, speakers: Sequence[str]) -> str:
    """The query as the meaning search reads it: with several speakers in the scope, the
    ones it names are taken out (possessive too), since the speaker signal matches who and
    a stored turn reads "Name: what they said", so a name in the query would make every turn
    of that speaker look alike. A transcript label ("Bo: where?") stays; a query that is
    nothing but names stays whole.

    >>> without_speakers("What did Mei's kids like? Ask Bo.", ["Bo", "Mei", "Li"])
    'What did kids like? Ask .'
    >>> pair = ["Bo", "Mei"]
    >>> without_speakers("Mei: where was it?", pair), without_speakers("Mei?", pair)
    ('Mei: where was it?', 'Mei?')
    >>> without_speakers("What did Mei like?", ["Mei"])  # one speaker: nothing to tell apart
    'What did Mei like?'
    """
    named = mentioned(set(speakers), query) if len(speakers) > 1 else set()
    if not named:
        return query
    names = "|".join(re.escape(n) for n in sorted(named, key=len, reverse=True))
    left = re.sub(_whole(rf"(?:{names})(?:['’]s)?") + r"(?!\s*[:：])", "", query,
                  flags=re.IGNORECASE)
    left = re.sub(r"[ \t]{2,}", " ", left).strip()
    return left if re.search(r"\w", left) else query


# a question about money ("how much did I spend", "what did it cost", "多少钱"), and a sum of it
_ASKS_MONEY = re.compile(r"\b(?:spen[dt]|spending|cost|costs|price|prices|paid|pay|paying|expenses?|budget|"
                         r"money|dollars?|euros?|pounds|fees?|afford)\b|多少钱|花了|价格|费用|价钱|预算|"
                         r"[$€£¥￥]", re.IGNORECASE)
_MONEY = re.compile(r"[$€£¥￥]\s?\d|\d[\d,.]*\s?(?:dollars?|bucks|euros?|pounds|usd|eur|rmb|"
                    r"元|块|万元|美元|欧元|英镑)", re.IGNORECASE)


def asks_money(query: str) -> bool:
    """Whether a query asks about spending, prices or costs.

    >>> asks_money("How much have I spent on my bike?"), asks_money("我的相机多少钱？"), asks_money("How far?")
    (True, True, False)
    """
    return bool(_ASKS_MONEY.search(query))


def states_money(texts: Sequence[str]) -> np.ndarray:
    """1 for each text that states a sum of money ("$25", "40 euros", "300元", "¥99"), else 0.

    >>> states_money(["It cost me $25.", "It was 300元", "I biked 25 miles", "two dollars"]).tolist()
    [1.0, 1.0, 0.0, 0.0]
    """
    return np.array([float(bool(_MONEY.search(t))) for t in texts])


_ADDRESSED = re.compile(r"\byou(?:r|rs|rself)?\b|你|您", re.IGNORECASE)


def addresses_assistant(query: str) -> bool:
    """Whether a query speaks to the assistant ("what did you recommend?", "你说过…"): then the
    assistant's own replies may be what it asks for. Otherwise it asks about the people in
    the conversation, whose own turns say it first hand; the assistant's replies only restate.

    >>> addresses_assistant("Which hotel did you suggest?"), addresses_assistant("Where did I stay?")
    (True, False)
    """
    return bool(_ADDRESSED.search(query))


def asks(text: str) -> bool:
    """Whether a turn's words end by asking: "what about you?" passes relevance to the answer
    after it rather than holding the fact itself. ``text`` is what the person wrote; what they
    attached is metadata (``text.attachments``), never read here.

    >>> asks("Did you go?"), asks("你去了吗？"), asks("I went. Why not?!")
    (True, True, False)
    """
    return text.rstrip().endswith(("?", "？"))


def substance(texts: Sequence[str], full_bytes: int = 160) -> np.ndarray:
    """How much each text has to say, 0..1, saturating at ``full_bytes`` of UTF-8 (~40
    tokens in English or Chinese alike: a Chinese character is 3 bytes and about one token).
    "Wow, great!" holds no fact; past a few sentences, length says nothing more.

    >>> substance(["Wow!", "I adopted a puppy named Toby last week.", "我上周领养了一只小狗。", "x" * 500])
    array([0.025  , 0.24375, 0.20625, 1.     ])
    """
    return np.minimum(np.array([len(t.encode()) for t in texts], dtype=float) / full_bytes, 1.0)


def only_asks(texts: Sequence[str]) -> np.ndarray:
    """How much each turn only asks: 1 for a short question ("What about you?"), fading to
    0 at ~100 tokens (400 bytes), where a question tells as it asks ("I adopted a puppy
    last week and … what food should I buy?"); 0 for a turn that does not end by asking.

    >>> only_asks(["What about you?", "I went. You?!", "Lisbon, in May.", "x" * 399 + "?"]).round(3).tolist()
    [0.962, 0.0, 0.0, 0.0]
    """
    return np.array([float(asks(t)) for t in texts]) * (1.0 - substance(texts, 400))


def near_dates(days: Sequence[date], ranges: Sequence[tuple[date, date]],
               slack_days: int = 7) -> np.ndarray:
    """For each day, 1 inside one of ``ranges``, falling to 0 at ``slack_days`` outside it
    (what happened "last week" is told a few days later).

    >>> early_july = [(date(2023, 7, 1), date(2023, 7, 2))]
    >>> near_dates([date(2023, 7, 9), date(2023, 7, 20)], early_july).tolist()
    [0.0, 0.0]
    >>> near_dates([date(2023, 7, 5), date(2023, 7, 2)], early_july).tolist()
    [0.5714285714285714, 1.0]
    """
    def closeness(day: date) -> float:
        gaps = [max((start - day).days, (day - end).days, 0) for start, end in ranges]
        return max(0.0, 1.0 - min(gaps) / slack_days) if gaps else 0.0

    return np.array([closeness(day) for day in days], dtype=float)


# a span in quotes: '...' (no letter before the opening quote or after the closing one; an
# apostrophe between letters stays inside), "...", “...”, ‘...’, 「...」, 『...』, 《...》
_QUOTED = re.compile(r"(?<!\w)'((?:[^'\n]|(?<=\w)'(?=\w)){2,}?)'(?!\w)"
                     r"|\"([^\"\n]{2,}?)\"|“([^”\n]{2,}?)”|‘([^’\n]{2,}?)’"
                     r"|「([^」\n]{2,}?)」|『([^』\n]{2,}?)』|《([^》\n]{2,}?)》")


def quoted(text: str) -> list[str]:
    """The spans a query quotes, each once, in order.

    >>> quoted("Which came first, 'Rack Fest' or 'Hitchhiker's Guide'? I'm unsure")
    ['Rack Fest', "Hitchhiker's Guide"]
    >>> quoted('我先看了《三体》还是《活着》？')
    ['三体', '活着']
    >>> quoted("my parents' house")
    []
    """
    spans = (next(g for g in m.groups() if g is not None).strip() for m in _QUOTED.finditer(text))
    return list(dict.fromkeys(s for s in spans if s))


def unquoted(text: str) -> str:
    """``text`` with what it quotes blanked out: the words left are its writer's own.

    >>> unquoted('他说“我不去”，你呢？')
    '他说 ，你呢？'
    """
    return _QUOTED.sub(" ", text)


def facet_bonus(ids: Sequence[int], facets: Sequence[Sequence[tuple[int, float]]],
                depth: int) -> np.ndarray:
    """Per candidate: 1 for the best keyword match of one of the things a question quotes,
    falling to 1/depth for the depth-th, 0 past it; a question asking about several things
    gets each of them, not just more of the one most of its words match.

    >>> facet_bonus([7, 8, 9], [[(8, 3.0), (7, 1.0)], [(9, 2.0)]], 2).tolist()
    [0.5, 1.0, 1.0]
    """
    best: dict[int, float] = {}
    for found in facets:
        for rank, (turn_id, _) in enumerate(found[:depth]):
            best[turn_id] = max(best.get(turn_id, 0.0), 1.0 - rank / depth)
    return np.array([best.get(i, 0.0) for i in ids])

