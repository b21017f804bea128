"""The phrasing set: IM messages that state (or do not state) facts about people, written by hand
to measure how pmemo's fact extraction generalises (issue 44 §1, §9).

It was written from the issue's description alone, by a hand that never saw the statement model's
training generator, and must never be trained on: every line is its own wording, the frames vary
within each kind, and the chats have the shapes real groups have (openers glued to the statement,
"[图片]", emoji, typos, mixed scripts, corrections, third-person statements about members, relatives).

Chinese chats (``phrasing_zh``, ``phrasing_zh_more``) and English ones (``phrasing_en``,
``phrasing_en_more``), group chats and private chats, each line labelled with the facts it states
(``phrasing_spec``: whom, kind, words, the value it ends) or, for a negative, why it states none.
Nothing is random: ``build()`` always gives the same lines, ids and timestamps.

Set "b" (``build("b")``: ``phrasing_b_zh``, ``phrasing_b_en``) is a second, independent set in the
same grammar, written later by another hand that saw neither the model nor set "a"; it measures
whether what was learned on the first set's misses generalises. Set "c" (``build("c")``:
``phrasing_c_zh``, ``phrasing_c_en``) is a third, held out, written by a third hand that saw neither the
model nor sets "a" and "b", and never tuned on.

>>> chats = build()
>>> counts(chats)["labels"] >= 300 and counts(chats)["negatives"] >= 300
True
>>> [c.id for c in quick(chats)]
['g_kaoyan', 'g_climb']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import datetime, timedelta

from . import (
    phrasing_b_en,
    phrasing_b_zh,
    phrasing_c_en,
    phrasing_c_zh,
    phrasing_en,
    phrasing_en_more,
    phrasing_zh,
    phrasing_zh_more,
)
from .phrasing_spec import Chat, Line, RawChat, parse_spec

DAY = "2026-11-04T09:00:00"  # a Wednesday: the day every chat is said on
STEP = timedelta(minutes=5)
ZONES = {"zh": "+08:00", "en": "+00:00"}
QUICK_LINES = 18  # --quick: this many lines of the first chat of each language
SETS = ("a", "b", "c")


def _halves(which: str) -> tuple[tuple[str, tuple[RawChat, ...]], tuple[str, tuple[RawChat, ...]]]:
    if which == "a":
        return ("zh", phrasing_zh.CHATS + phrasing_zh_more.CHATS), ("en", phrasing_en.CHATS + phrasing_en_more.CHATS)
    if which == "b":
        return ("zh", phrasing_b_zh.CHATS), ("en", phrasing_b_en.CHATS)
    if which == "c":
        return ("zh", phrasing_c_zh.CHATS), ("en", phrasing_c_en.CHATS)
    raise ValueError(f"unknown phrasing set {which!r}: use one of {', '.join(SETS)}")


def build(which: str = "a") -> tuple[Chat, ...]:
    """Every chat of set ``which`` ("a", the first, "b" or "c"), the Chinese ones first; line ``idx``
    counts over the whole set.

    >>> build("b")[0].id
    'b_zh_dorm'
    """
    chats: list[Chat] = []
    start = 0
    for lang, raw in _halves(which):
        for r in raw:
            chats.append(_chat(r, start, ZONES[lang]))
            start += len(chats[-1].lines)
    ids = [c.id for c in chats]
    if len(set(ids)) != len(ids):
        raise ValueError(f"chat ids repeat: {sorted(i for i, n in Counter(ids).items() if n > 1)}")
    return tuple(chats)


def quick(chats: Sequence[Chat], lines: int = QUICK_LINES) -> tuple[Chat, ...]:
    """A small slice for a smoke run: the first ``lines`` lines of the first chat of each language
    (of either set: their chat ids differ)."""
    firsts = [half[1][0][0] for which in SETS for half in _halves(which)]
    return tuple(Chat(c.id, c.group_id, c.user_id, c.members, c.lines[:lines]) for c in chats if c.id in firsts)


def _chat(raw: RawChat, start: int, zone: str) -> Chat:
    chat_id, shape, members, raw_lines = raw
    names = dict(members)
    if shape not in ("group", "private") or (shape == "private" and len(members) != 1):
        raise ValueError(f"chat {chat_id}: a private chat has one member, a group any number")
    begin = datetime.fromisoformat(DAY + zone)
    lines = []
    for n, (speaker, text, spec) in enumerate(raw_lines):
        if speaker not in names:
            raise ValueError(f"chat {chat_id} line {n}: {speaker!r} is not a member")
        try:
            labels, why = parse_spec(spec, speaker, tuple(names))
        except ValueError as exc:
            raise ValueError(f"chat {chat_id} line {n} ({text!r}): {exc}") from exc
        at = (begin + n * STEP).isoformat()
        lines.append(Line(start + n, chat_id, speaker, names[speaker], text, at, labels, why))
    group, user = (chat_id, None) if shape == "group" else (None, members[0][0])
    return Chat(chat_id, group, user, tuple(members), tuple(lines))


def counts(chats: Sequence[Chat]) -> dict[str, int]:
    """How many chats, lines, labels (positive statements) and negatives the set holds, per language too.

    >>> c = counts(build()); c["labels"] == c["labels_zh"] + c["labels_en"]
    True
    """
    lines = [line for c in chats for line in c.lines]
    out = {
        "chats": len(chats),
        "lines": len(lines),
        "labels": sum(len(line.labels) for line in lines),
        "negatives": sum(line.why is not None for line in lines),
        "corrections": sum(bool(label.ends) for line in lines for label in line.labels),
    }
    for lang in ("zh", "en"):
        mine = [line for line in lines if line.lang == lang]
        out[f"labels_{lang}"] = sum(len(line.labels) for line in mine)
        out[f"negatives_{lang}"] = sum(line.why is not None for line in mine)
    return out
