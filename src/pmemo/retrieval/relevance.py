"""Which recalled turns earn a line of the context (pure; issue 44 §5).

Two rules, each defined once here:

- ``above``: a recalled turn far below the best one stays out, unless it names a person the
  query asks about (the caller's ``keep``: "听说涛哥换到蓝鲸数据了" for "涛哥现在在哪上班"; a
  context is about the people in it). A turn's fused score is a sum of
  standard scores over the candidate pool (``signals.zscores``; a hit shows it squashed to 0..1,
  ``pool._squash``, which ``fused`` undoes), so 0 is the pool's average and the best stands
  some way above it; a turn is in when it stands at least ``cut`` of that height above the pool
  (``fused >= cut × best``). Nothing is cut when the best does not stand above the pool at all:
  then there is no "far below" to speak of.
- ``once``: the same words said many times are one line, the best-ranked occurrence, carrying
  the others as its sources (``line`` says how many times and by whom); words said on
  ``CHATTER_DAYS`` days or more are chatter ("周末补一补进度" every weekend) and stay out. It
  holds whatever the context's fill; ``above`` only with ``context_fill`` relevant or lean.

>>> from pmemo.models import Hit
>>> hits = [Hit(f"turn:{i}", "turn", "mid_term", "", s, "", ()) for i, s in enumerate([0.95, 0.88, 0.73, 0.4])]
>>> [h.id for h in above(hits, 0.5)]
['turn:0', 'turn:1']
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TypeVar

from ..models import Hit
from ..text.filler import said_key

T = TypeVar("T")

CHATTER_DAYS = 3  # the same words on this many days are a habit of talk ("on my way", "今天谁来？"), not news
CHATTER_CHARS = 40  # longer words said again are read, not taken for a habit (filler.MAX_CHARS)


def fused(score: float) -> float:
    """The fused score a hit's 0..1 score shows (the inverse of ``pool._squash``).

    >>> round(fused(0.5), 6), round(fused(0.880797), 3)
    (0.0, 2.0)
    """
    score = min(max(score, 5e-7), 1.0 - 5e-7)  # hits keep 6 decimals: past ±14.5 they read the same
    return math.log(score / (1.0 - score))


def above(items: Sequence[T], cut: float, score: Callable[[T], float] = lambda h: fused(h.score),  # type: ignore[attr-defined]
          keep: Callable[[T], bool] = lambda _: False) -> list[T]:
    """``items`` (any order) without those whose fused score is below ``cut`` × the best one's,
    in their order; all of them when the best is 0 or less. The best is always kept, and so is
    an item ``keep`` says is in whatever its score (what is said of a person the query asks about).

    >>> above([1.0, 4.0, 2.0, 1.9], 0.5, float)
    [4.0, 2.0]
    >>> above([1.0, 4.0, 2.0, 1.9], 0.5, float, keep=lambda x: x == 1.0)
    [1.0, 4.0, 2.0]
    >>> above([-1.0, -2.0], 0.9, float)
    [-1.0, -2.0]
    """
    if not items:
        return []
    best = max(score(i) for i in items)
    if best <= 0:
        return list(items)
    floor = cut * best
    return [i for i in items if score(i) >= floor or keep(i)]


def once(hits: Sequence[Hit]) -> list[Hit]:
    """Recalled turns with each set of the same words as one hit, where the first of them ranks:
    its ``sources`` all the turns that said them (the first its own), best ranked first; the
    chatter among them (words of up to ``CHATTER_CHARS`` said on ``CHATTER_DAYS`` days or more) left out. Other hits
    (windows, summaries) pass as they are.

    >>> from datetime import datetime
    >>> from pmemo.models import Scope, Turn
    >>> def turn(i, text, day): return Turn(i, Scope(session_id="s"), i, "user", text, "Mei", datetime(2026, 1, day))
    >>> said = [turn(1, "周末补一补进度", 3), turn(2, "我下周考雅思", 3), turn(3, "周末补一补进度！", 10),
    ...         turn(4, "周末补一补进度", 17), turn(5, "我下周考雅思", 4)]
    >>> hits = [Hit(f"turn:{t.id}", "turn", "mid_term", t.content, 1.0, "", (t,)) for t in said]
    >>> [(h.id, len(h.sources)) for h in once(hits)]
    [('turn:2', 2)]
    """
    groups: dict[str, list[Hit]] = {}
    out: list[Hit | str] = []
    for hit in hits:
        if hit.kind != "turn" or not hit.sources:
            out.append(hit)
            continue
        key = said_key(hit.sources[0].content) or hit.id
        if key not in groups:
            groups[key] = []
            out.append(key)
        groups[key].append(hit)
    kept: list[Hit] = []
    for item in out:
        if isinstance(item, Hit):
            kept.append(item)
            continue
        group = groups[item]
        said = tuple({t.id: t for h in group for t in h.sources}.values())  # a search hit may hold repeats already
        days = {t.timestamp.date() for t in said}
        if len(days) >= CHATTER_DAYS and len(item) <= CHATTER_CHARS:
            continue
        first = group[0]
        kept.append(first if len(group) == 1 else
                    replace(first, sources=said, why=f"{first.why}; said {len(said)} times"))
    return kept


def repeats(hit: Hit) -> tuple[int, list[str]]:
    """How many times a hit's words were said (``once``), and by whom (the best ranked first).

    >>> repeats(Hit("turn:1", "turn", "mid_term", "", 1.0, "", ()))
    (1, [])
    """
    if hit.kind != "turn" or len(hit.sources) < 2:
        return 1, []
    return len(hit.sources), list(dict.fromkeys(t.actor or t.role for t in hit.sources))
