"""Which recalled turns and records earn a line of the context (pure; issue 44 §5).

The rules, each defined once here:

- ``above``: a recalled turn far below the best one stays out, unless something known of a
  person the query names was learned from it (the caller's ``keep``, ``About.told_of``:
  "听说涛哥换到蓝鲸数据了" for "涛哥现在在哪上班"; a context is about the people in it). A
  turn's fused score is a sum of standard scores over the candidate pool (``signals.zscores``;
  a hit shows it squashed to 0..1, ``pool._squash``, which ``fused`` undoes), so 0 is the
  pool's average and the best stands
  some way above it; a turn is in when it stands at least ``cut`` of that height above the pool
  (``fused >= cut × best``). Nothing is cut when the best does not stand above the pool at all:
  then there is no "far below" to speak of.
- ``once``: the same words said many times are one line, the best-ranked occurrence, carrying
  the others as its sources (``line`` says how many times and by whom); words said on
  ``CHATTER_DAYS`` days or more are chatter ("周末补一补进度" every weekend) and stay out
  (``habits``: counted by their words to or of anyone, ``unnamed``, over the whole candidate pool).
  It holds whatever the context's fill; ``above`` only with ``context_fill`` relevant or lean.
- ``About``: when the query names people, a recalled turn none of them said, that names none
  of them and told nothing of them is about other people and stays out ("陈浩饮食上有什么忌口吗"
  is not answered by what 黄丽 had for lunch), and a summary, episode or diary day in by its words
  must name one of them.
- ``earned``: a summary, episode or diary day is in when it restates a turn kept as a line or
  its words share the query's (with ``context_fill`` relevant or lean).

>>> from pmemo.models import Hit
>>> hits = [Hit(f"turn:{i}", "turn", "mid_term", "", s, "", ()) for i, s in enumerate([0.95, 0.88, 0.73, 0.4])]
>>> [h.id for h in above(hits, 0.5)]
['turn:0', 'turn:1']
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence, Set
from dataclasses import dataclass, replace
from datetime import date
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


@dataclass(frozen=True)
class About:
    """The people a query names (``named``, person ids) and how a line bears on them. ``told``:
    the turns something known of them was learned from (a fact, a name, a relation); ``names``:
    the people a text names beyond doubt. When the query names no one, every line bears on it.

    >>> from pmemo.models import Turn
    >>> about = About(frozenset({"cl"}), {7}, lambda text: frozenset({"cl"} if "Chloe" in text else ()))
    >>> def turn(i, text, who): return Turn(i, None, i, "user", text, who, None, actor_id=who)
    >>> [about.bears_on(Hit("", "turn", "", "", 0, "", (turn(*t),))) for t in
    ...  [(1, "I'm vegan", "cl"), (2, "Chloe's vegan", "bo"), (3, "lunch was great", "bo"), (7, "she's vegan", "bo")]]
    [True, True, False, True]
    """

    named: frozenset[str]
    told: Set[int]
    names: Callable[[str], frozenset[str]]

    def told_of(self, hit: Hit) -> bool:
        """A recalled turn something known of them was learned from (in whatever its score)."""
        return hit.kind == "turn" and hit.sources[0].id in self.told

    def bears_on(self, hit: Hit) -> bool:
        """Not a turn about other people: one of them said it, it names one, or it told of them."""
        if not self.named or hit.kind != "turn" or self.told_of(hit):
            return True
        turn = hit.sources[0]
        said_by = {turn.actor_id} if turn.actor_id else self.names(turn.actor or "")
        return not self.named.isdisjoint(said_by) or self.names_them(turn.content)

    def names_them(self, text: str) -> bool:
        """A text names one of them (any text, when the query names no one)."""
        return not self.named or not self.named.isdisjoint(self.names(text))


def unnamed(text: str, names: Sequence[tuple[int, int]]) -> str:
    """``text`` without the people it names (``names``: their spans) and with one third person:
    what is left is what was said to or of them ("高峰你今天来吗" and "黄丽你今天来吗" say the same;
    "thanks Alex!" is thanks). ``once`` counts a habit of talk by it, and a line that is filler
    but for the names is filler.

    >>> unnamed("黄丽今天没来，她是不是感冒了", [(0, 2)]) == unnamed("刘洋今天没来，他是不是感冒了", [(0, 2)])
    True
    >>> unnamed("thanks Alex!", [(7, 11)])
    'thanks !'
    """
    for start, end in sorted(names, reverse=True):
        text = text[:start] + text[end:]
    return text.translate(_THIRD_PERSON)


_THIRD_PERSON = str.maketrans({"她": "他", "它": "他"})


def earned(records: Sequence[Hit], restates: Mapping[str, frozenset[int]], kept: Set[int],
           says: Callable[[str], bool], kinds: Set[str] = frozenset({"summary", "episode", "diary"}),
           copies: Set[str] = frozenset(), shown: Sequence[str] = ()) -> list[Hit]:
    """The records of ``kinds`` (summaries, episodes, diary days) that earn a line as a recalled
    turn does: one that restates a turn ``kept`` as a line, or whose words ``says`` something the
    query asks (the caller's test: its words, the people it names aside, share the query's).
    Others (tasks) pass. A summary of the chat's small talk is not about the query however near
    its vector: a text of many short lines stands near any short question. One of the ``copies``
    (made of its turns' own words: an extractive summary, a digest) earns by the words it adds to
    the lines ``shown`` (the kept turns' texts): the kept turn is a line already, and a copy whose
    only words the query asks are that turn's adds just the lines around it.

    >>> s = [Hit(f"summary:{i}", "summary", "long_term", t, 0, "", ()) for i, t in enumerate(["雅思 7 分", "哈哈"])]
    >>> [h.id for h in earned(s, {"summary:1": frozenset({9})}, {9}, lambda t: False)]
    ['summary:1']
    >>> [h.id for h in earned(s, {}, set(), lambda t: "雅思" in t)]
    ['summary:0']
    >>> [h.id for h in earned(s, {}, set(), lambda t: "雅思" in t, copies={"summary:0"}, shown=["雅思 7 分"])]
    []
    """
    longest_first = sorted((line for line in shown if line.strip()), key=len, reverse=True)

    def said(hit: Hit) -> str:  # a copy without the lines already shown
        return functools.reduce(lambda text, line: text.replace(line, " "), longest_first, hit.text) \
            if hit.id in copies else hit.text

    return [h for h in records if h.kind not in kinds or h.id not in copies and restates.get(h.id, frozenset()) & kept
            or says(said(h))]


def once(hits: Sequence[Hit], frame: Callable[[str], str] = lambda text: text,
         heard: Iterable[tuple[str, date]] = ()) -> list[Hit]:
    """Recalled turns with each set of the same words as one hit, where the first of them ranks:
    its ``sources`` all the turns that said them (the first its own), best ranked first; the
    chatter among them left out (``habits``). Other hits (windows, summaries) pass as they are.

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
    habit = habits([(t.content, t.timestamp.date()) for h in hits if h.kind == "turn" for t in h.sources], frame, heard)
    kept: list[Hit] = []
    for item in out:
        if isinstance(item, Hit):
            kept.append(item)
        elif not habit(groups[item][0].sources[0].content):
            group = groups[item]
            first, said = group[0], tuple({t.id: t for h in group for t in h.sources}.values())
            kept.append(first if len(group) == 1 else
                        replace(first, sources=said, why=f"{first.why}; said {len(said)} times"))
    return kept


def habits(said: Iterable[tuple[str, date]], frame: Callable[[str], str],
           heard: Iterable[tuple[str, date]] = ()) -> Callable[[str], bool]:
    """Whether a text is a habit of talk: words of up to ``CHATTER_CHARS`` said on
    ``CHATTER_DAYS`` days or more, by their ``frame`` (``unnamed``: the same words to or of other
    people are the same), among what was ``said`` (the recalled turns' words and days) and
    ``heard`` (the other candidates': a habit shows in the whole pool, not only in the lines that rank).

    >>> habit = habits([("高峰在吗", date(2026, 1, 1)), ("黄丽在吗", date(2026, 1, 2))], lambda t: t[2:],
    ...                [("刘洋在吗", date(2026, 1, 5))])
    >>> habit("周霓在吗"), habit("周霓在家")
    (True, False)
    """
    def words(text: str) -> str:  # a bare name is its own words
        return said_key(frame(text)) or said_key(text)

    days: dict[str, set[date]] = {}
    for text, day in (*said, *heard):
        days.setdefault(words(text), set()).add(day)
    return lambda text: len(days.get(key := words(text), ())) >= CHATTER_DAYS and len(key) <= CHATTER_CHARS


def repeats(hit: Hit) -> tuple[int, list[str]]:
    """How many times a hit's words were said (``once``), and by whom (the best ranked first).

    >>> repeats(Hit("turn:1", "turn", "mid_term", "", 1.0, "", ()))
    (1, [])
    """
    if hit.kind != "turn" or len(hit.sources) < 2:
        return 1, []
    return len(hit.sources), list(dict.fromkeys(t.actor or t.role for t in hit.sources))
