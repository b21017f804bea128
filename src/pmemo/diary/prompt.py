"""The diary prompt (pure), paired with the reply's model: the persona as the system text, the
day's messages as the user text, within a cap (the least telling messages are left out first).

>>> from datetime import datetime
>>> from pmemo.models import Scope, Turn
>>> t = Turn(1, Scope.of(group_id="study"), 1, "user", "下周三考高数", "周霓", datetime(2024, 3, 4, 20, 5))
>>> system, user = diary_prompt("我是小满，群里的学习搭子。", date(2024, 3, 4), [t], 600, 4000)
>>> system.splitlines()[0], user.splitlines()[-1]
('我是小满，群里的学习搭子。', '[20:05] 周霓: 下周三考高数')
>>> laughter = Turn(2, Scope.of(group_id="study"), 2, "user", "哈哈哈哈", "周霓", datetime(2024, 3, 4, 20, 6))
>>> diary_prompt(None, date(2024, 3, 4), [laughter], 600, 4000) is None  # nothing to write from: no call
True
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime, tzinfo

from pydantic import BaseModel, Field

from ..models import Turn, epoch_of
from ..prompts.sift import kept
from ..text.segment import segment
from .digest import cut, speaker

NO_PERSONA = "You are the assistant who takes part in this chat."
DIARY_SYSTEM = (
    "You keep a private diary. Write your entry for the day of the chat below, in the first person, "
    "in your own voice as described above: what happened, who said what (call people by their names), "
    "the plans and dates they mentioned, and what you made of it. Write in the chat's own language "
    "(Chinese for a Chinese chat); say nothing the messages do not say; at most {limit} characters."
)
MESSAGE_CHARS = 500  # one message's share of the user text at most


class DiaryOut(BaseModel):
    entry: str = Field(min_length=1)


def diary_prompt(persona: str | None, day: date, turns: Sequence[Turn], max_chars: int,
                 input_chars: int, zone: tzinfo = UTC, sift: bool = True) -> tuple[str, str] | None:
    """(system, user) for the entry of ``day`` from its turns, the user text within
    ``input_chars``; each message with its time of day in the diary's ``zone``. With ``sift``
    (``llm_prefilter``) only the lines worth reading (``prompts.sift``: no laughter, sticker,
    notice or greeting; a line said again once, with who else said it); None when the day has
    none: a day of only filler needs no call (its digest says what there is)."""
    told = kept(turns, sift, _who)
    if not told:
        return None
    system = f"{(persona or NO_PERSONA).strip()}\n\n{DIARY_SYSTEM.format(limit=max_chars)}"
    where = f"the group chat {turns[0].scope.group_id}" if turns[0].scope.group_id else "a private chat"
    lines = [f"[{datetime.fromtimestamp(epoch_of(t.turn.timestamp), zone):%H:%M}] {_who(t.turn)}: "
             f"{cut(' '.join(t.turn.content.split()), MESSAGE_CHARS)}{t.note}" for t in told]
    return system, f"The day: {day:%A} {day.isoformat()}, in {where}.\n\n" + "\n".join(fit_lines(lines, input_chars))


def fit_lines(lines: Sequence[str], cap: int) -> list[str]:
    """The lines within ``cap`` characters (newlines counted), in their order: when they do not
    all fit, the ones with the fewest words are left out first."""
    if sum(len(line) + 1 for line in lines) <= cap:
        return list(lines)
    words = [len(set(segment(line).split())) for line in lines]
    kept: set[int] = set()
    used = 0
    for i in sorted(range(len(lines)), key=lambda i: (-words[i], i)):
        if used + len(lines[i]) + 1 <= cap:
            kept.add(i)
            used += len(lines[i]) + 1
    return [line for i, line in enumerate(lines) if i in kept]


def _who(turn: Turn) -> str:
    return "you (the assistant)" if turn.role == "assistant" else speaker(turn)
