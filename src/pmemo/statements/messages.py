"""Messages of several clauses, as group members write them (issue 44 §1, third round): pure, seeded.

A statement with how its writer feels about it ("我下个月换工作了，压力好大"), with a clause that
goes on with it ("我妹妹在北京读大学，学医的"), two statements of different kinds, a question, a
wish, a joke, a report or a denial with a comment, or chatter alone; the parts joined with a
comma, a full stop, a space, an emoji, a line break or nothing, then cut by ``clauses`` as the
reader cuts a message. Every clause is an example, labelled by the part it holds: a clause that
holds a statement glued to chatter ("累死了我下个月换工作了") is the statement's; chatter alone,
next to a statement or not, is none; a clause that goes on with the one before ("学医的") is a
statement with no subject of its own, whose person the reader takes from the clause before.

The statements draw from the first two rounds' templates and the third round's (``phrases_zh``,
``phrases_en``), the words from ``lexicon`` and its third-round lists.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from types import SimpleNamespace

from . import lexicon, phrases_en, phrases_zh, templates_en, templates_zh
from .clauses import clauses
from .draw import (
    Draw,
    Example,
    Part,
    Render,
    Words,
    correction,
    denied,
    of,
    piece_label,
    plain,
    question,
    typed,
    wrapped,
)
from .labels import Label

NONE = Label("none", "other", "plain", "asserted")
_SEP = {"zh": ("，", "，", "，", "。", "！", " ", "", "", "~", "\n", "…", "😂", "！！"),
        "en": (", ", ", ", ", ", ". ", "! ", " ", " ", " - ", "\n", "... ", " 😂 ", "!! ")}


@cache
def templates(lang: str) -> SimpleNamespace:
    """The templates of both earlier rounds and the third round's, as one set of lists (the earlier
    items first, so each keeps its split)."""
    old, new = (templates_zh, phrases_zh) if lang == "zh" else (templates_en, phrases_en)
    state = {k: v + new.STATE.get(k, ()) for k, v in old.STATE.items()}
    deny = {k: v + new.DENY.get(k, ()) for k, v in old.DENY.items()}
    return SimpleNamespace(STATE=state, DENY=deny, ASK=old.ASK, HYPOTHETICAL=old.HYPOTHETICAL + new.HYPOTHETICAL,
                           JOKE=old.JOKE + new.JOKE, REPORT=old.REPORT + new.REPORT, CORRECT=old.CORRECT,
                           NONE=old.NONE + new.NONE, FOLLOW=new.FOLLOW, COMMENT=new.COMMENT)


@cache
def words(lang: str) -> Words:
    old, new = (lexicon.ZH, lexicon.MORE_ZH) if lang == "zh" else (lexicon.EN, lexicon.MORE_EN)
    return {k: (train + new.get(k, ((), ()))[0], dev + new.get(k, ((), ()))[1]) for k, (train, dev) in old.items()}


def message(rng: random.Random, lang: str, split: str) -> list[Example]:
    """The clauses of one message, each labelled."""
    t = templates(lang)
    d = Draw(rng, lang, split, t, Render(rng, lang, split, words(lang)), rng.choice(sorted(t.STATE)))
    return _cut(rng, _compose(d), lang)


def _compose(d: Draw) -> list[Part]:
    rng = d.rng
    roll = rng.random()
    if roll < 0.2:
        return [plain(d)]
    if roll < 0.42:  # a statement and how its writer feels about it, mostly after it
        parts = [plain(d), _comment(d)]
        return parts if rng.random() < 0.75 else parts[::-1]
    if roll < 0.56:  # a statement and a clause going on with it
        parts = [plain(d), _follow(d)]
        return parts + [_comment(d)] if rng.random() < 0.3 else parts
    if roll < 0.63:  # two statements of different kinds
        other = Draw(rng, d.lang, d.split, d.t, d.r, rng.choice(sorted(set(d.t.STATE) - {d.kind})))
        return [plain(d), plain(other)]
    if roll < 0.82:  # something said that does not hold, alone or with a comment
        shape = rng.choices((denied, question, wrapped, correction), (0.3, 0.3, 0.32, 0.08))[0]
        parts = [shape(d)]
        return parts + [_comment(d)] if rng.random() < 0.5 else parts
    parts = [_chatter(d) for _ in range(rng.randint(1, 3))]
    return parts


def _comment(d: Draw) -> Part:
    i, text = d.rng.choice(of(d.t.COMMENT, d.split))
    return Part(text, (), NONE, f"{d.lang}:comment:{i}")


def _chatter(d: Draw) -> Part:
    if d.rng.random() < 0.4:
        return _comment(d)
    i, tpl = d.rng.choice(of(d.t.NONE, d.split))
    text, names = d.r.fill(tpl, "speaker")
    return Part(text, tuple(names), NONE, f"{d.lang}:none:{i}")


def _follow(d: Draw) -> Part:
    """A clause with no subject that goes on with a statement of the draw's kind ("学医的")."""
    i, tpl = d.rng.choice(of(d.t.FOLLOW[d.kind], d.split))
    text, names = d.r.fill(tpl, "speaker")
    return Part(text, tuple(names), Label(d.kind, "speaker", "plain", "asserted"), f"{d.lang}:{d.kind}:FOLLOW:{i}")


def _cut(rng: random.Random, parts: list[Part], lang: str) -> list[Example]:
    """The parts typed, joined and cut into clauses; each clause labelled by the parts it holds (a
    clause whose label the typing blurred is left out)."""
    text, placed, names = "", [], []
    for k, part in enumerate(parts):
        core = (0, len(part.text))
        shaped, at = typed(rng, part.text, [*part.names, core, part.inner or core], lang)
        if k:
            text += rng.choice(_SEP[lang])
        base = len(text)
        names += [(a + base, b + base) for a, b in (x for x in at[:-2] if x is not None)]
        core_at, inner_at = ((x[0] + base, x[1] + base) if x is not None else None for x in at[-2:])
        placed.append(_Placed(part, base, base + len(shaped), core_at, inner_at))
        text += shaped
    out, pos = [], 0
    for clause in clauses(text):
        start = text.find(clause, pos)
        end = pos = start + len(clause)
        mine = tuple((a - start, b - start) for a, b in names if start <= a and b <= end)
        held = [_label_in(p, start, end, clause, bool(mine)) for p in placed if p.start < end and start < p.end]
        if any(h is None for h in held):
            continue
        label, tid = _first([h for h in held if h is not None])
        out.append(Example(clause, label, lang, mine, f"{tid}:m"))
    return out


@dataclass(frozen=True)
class _Placed:
    """A part in the message: where its typed text is, where its own words (without the opener or
    the emoji typing added) are, and where the statement a wrapper holds is."""

    part: Part
    start: int
    end: int
    core: tuple[int, int] | None
    inner: tuple[int, int] | None


def _meets(span: tuple[int, int] | None, start: int, end: int) -> bool:
    return span is not None and span[0] < end and start < span[1]


def _label_in(p: _Placed, start: int, end: int, clause: str, named: bool) -> tuple[Label, str] | None:
    """What the part ``p`` makes of the clause [start, end) it shares: its label when the clause
    holds all of it; cut, the piece that holds a wrapped statement says it plainly ("{S}，才怪":
    "我升职了，"), the rest is how it is meant ("才怪": no fact, a joke), and what typing added
    (an emoji, "233") is none; a piece of a statement without the words that say whom it is about
    goes on with the clause before (``speaker``: no subject of its own), one that names a relative
    is the relative's (as ``draw.done``). None: the typing hid where the statement is."""
    label, tid = p.part.label, p.part.tid
    if start <= p.start and p.end <= end or label.kind == "none":
        return label, tid
    if p.core is None or p.inner is None:
        return None
    if not _meets(p.core, start, end):
        return NONE, tid
    if label.mode not in ("plain", "correction"):
        if not _meets(p.inner, start, end):
            return Label("none", "other", label.mode, "asserted"), tid
        label = Label(label.kind, label.subject, "plain", "asserted", label.change)
    return piece_label(label, clause, named, later=start > p.core[0]), tid


def _first(held: list[tuple[Label, str]]) -> tuple[Label, str]:
    """A clause of several parts glued is the first that says something ("累死了我换工作了": the
    statement; "你妈妈在芝加哥住一个月了" with what goes on: still "you"'s); chatter alone is none."""
    return next((x for x in held if x[0].kind != "none" or x[0].mode != "plain"), None) or (held[0] if held else
                                                                                          (NONE, "none"))
