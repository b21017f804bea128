"""Sessions a chat does not send (pure): a message without a ``session_id`` joins its chat's
current session; a new one starts after ``session_gap_minutes`` of silence or when the day
turns in the chat's time zone (``diary_tz``, the diary's days).

The id pmemo gives a session is derived from the chat and the instant of its first message
only, so two servers (or a replay of the same history) give the same id:

>>> from zoneinfo import ZoneInfo
>>> first = datetime(2026, 12, 7, 9, 0, tzinfo=UTC).timestamp()
>>> auto_id("t|a|g:study", first)
'auto-20261207T090000Z-864c5c'
>>> rule = Rule(gap_s=180 * 60, zone=ZoneInfo("Asia/Shanghai"))
>>> rule.session(("auto-x", first), first + 3600, "t|a|g:study")  # an hour later: the same
'auto-x'
>>> rule.session(("auto-x", first), first + 4 * 3600, "t|a|g:study")  # 4 hours: a new one
'auto-20261207T130000Z-864c5c'
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from .diary.days import local_day
from .models import Scope
from .stores.base import NewTurn

PREFIX = "auto-"  # a session pmemo named; a caller's own ids never need to start so


def auto_id(chat: str, epoch: float) -> str:
    """The session id of a session whose first message was at ``epoch`` in ``chat`` (the
    owner scope key): the instant to the second in UTC and six hex digits of the chat."""
    when = datetime.fromtimestamp(int(epoch), UTC).strftime("%Y%m%dT%H%M%SZ")
    return f"{PREFIX}{when}-{hashlib.sha1(chat.encode('utf-8')).hexdigest()[:6]}"


@dataclass(frozen=True)
class Rule:
    """When a session ends: ``gap_s`` seconds of silence (0: never by silence), or a new day
    in ``zone`` (None: never by the day)."""

    gap_s: float
    zone: ZoneInfo | None

    def continues(self, before: float, epoch: float) -> bool:
        """Whether a message at ``epoch`` continues a session whose last message was at ``before``."""
        if epoch < before:  # older than the chat's last message: a late delivery, same session
            return True
        if self.gap_s and epoch - before >= self.gap_s:
            return False
        return self.zone is None or local_day(before, self.zone) == local_day(epoch, self.zone)

    def session(self, latest: tuple[str, float] | None, epoch: float, chat: str) -> str:
        """The session of a message at ``epoch``, given the chat's latest message before it
        (its session and instant) or None for a chat's first message."""
        if latest is not None and self.continues(latest[1], epoch):
            return latest[0]
        return auto_id(chat, epoch)


Latest = Callable[[Scope, float], tuple[str, float] | None]  # the store's chat_latest


def assign(news: list[NewTurn], latest: Latest, rule: Rule) -> list[NewTurn]:
    """``news`` with a session for each turn sent without one, in the order given: the first
    of a chat continues from ``latest(scope, epoch)`` (the store's chat_latest), each next one
    from the turn before it in the batch."""
    if all(n.scope.session_id is not None for n in news):
        return news
    last: dict[str, tuple[str, float] | None] = {}
    out = []
    for new in news:
        chat, epoch = new.scope.key, _epoch(new.timestamp)
        if chat not in last:
            last[chat] = latest(new.scope, epoch)
        if new.scope.session_id is None:
            session = rule.session(last[chat], epoch, chat)
            new = dataclasses.replace(new, scope=dataclasses.replace(new.scope, session_id=session))
        before = last[chat]
        if before is None or epoch >= before[1]:
            last[chat] = (new.scope.session_id or "", epoch)
        out.append(new)
    return out


def _epoch(ts: datetime) -> float:
    """A turn's instant in epoch seconds (a naive timestamp is UTC, as the stores keep it)."""
    return (ts if ts.tzinfo is not None else ts.replace(tzinfo=UTC)).timestamp()
