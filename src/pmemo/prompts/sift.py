"""What of a stretch of turns is worth an LLM's reading (issue 44 §8), for the prompts that
write from a whole stretch (a summary, an episode, a diary day): not the content-free turns
(laughter, stickers and images, system notices, greetings and acknowledgements:
``text.filler.content_free``), and the same words said again by anyone (``said_key``) once,
where first said, with how many times and who else said them. Nothing else is left out: every
line with content is sent once, its words as said.

>>> from datetime import datetime
>>> from pmemo.models import Scope
>>> def said(i, who, text):
...     return Turn(i, Scope.of(group_id="g"), i, "user", text, who, datetime(2026, 3, 1, 20, i))
>>> chat = [said(1, "周霓", "哈哈哈"), said(2, "周霓", "周末补一补进度"), said(3, "王磊", "[图片]"),
...         said(4, "王磊", "周末 补一补进度！"), said(5, "李娜", "周末补一补进度"), said(6, "李娜", "我下周考雅思")]
>>> [(t.turn.id, t.note) for t in sift(chat)]
[(2, ' (×3; also 王磊, 李娜)'), (6, '')]
>>> sift([said(1, "周霓", "哈哈哈"), said(2, "王磊", "早")])
[]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..models import Turn
from ..text.filler import content_free, said_key

KEY_CHARS = 500  # ``said_key`` reads this much: a longer line is the same only word for word


def name(turn: Turn) -> str:
    """Who said a turn, as a transcript shows them."""
    return turn.actor or turn.role


@dataclass(frozen=True)
class Told:
    """A line worth reading: the turn that first said it, how many turns said the same words
    (``times``), and who else did, each once, in the order they did (``also``)."""

    turn: Turn
    times: int = 1
    also: tuple[str, ...] = ()

    @property
    def note(self) -> str:
        """What follows the line's words: `` (×3; also 王磊, 李娜)``, or nothing for a line said once."""
        if self.times == 1:
            return ""
        return f" (×{self.times}" + (f"; also {', '.join(self.also)}" if self.also else "") + ")"


def sift(turns: Sequence[Turn], who: Callable[[Turn], str] = name) -> list[Told]:
    """The turns worth an LLM's reading, in order, each repeated line once (``who``: how a
    speaker is named in ``also``); empty when none is: then the prompt needs no call."""
    out: list[Told] = []
    first: dict[str, int] = {}  # a line's words -> its place in out
    for turn in turns:
        if content_free(turn):
            continue
        key = said_key(turn.content) if len(turn.content) <= KEY_CHARS else turn.content
        k = first.get(key) if key else None
        if k is None:
            if key:
                first[key] = len(out)
            out.append(Told(turn))
            continue
        told, speaker = out[k], who(turn)
        again = told.also if speaker == who(told.turn) or speaker in told.also else (*told.also, speaker)
        out[k] = Told(told.turn, told.times + 1, again)
    return out


def kept(turns: Sequence[Turn], sifting: bool, who: Callable[[Turn], str] = name) -> list[Told]:
    """``sift(turns)`` when ``sifting`` (``llm_prefilter``), else every turn as it is (the behaviour before)."""
    return sift(turns, who) if sifting else [Told(t) for t in turns]
