"""The diary (issue 20): a group or private chat's entry per day, written by the background
schedule once a day is over or now on request, as ``mem.journal``.

>>> entry = await mem.journal.write("2024-12-20", group_id="study")  # doctest: +SKIP
>>> [(d.day, d.method) for d in await mem.journal.entries("2024-12-01", group_id="study")]  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from datetime import date
from typing import Any

from ..config import Settings, diary_zone
from ..diary.days import local_day, parse_day
from ..diary.writer import DiaryWriter
from ..errors import NotFound
from ..models import Diary
from ..stores.base import DiaryStore
from .args import scope_of


class DiaryService:
    """The diary entries of one store; ``exclusive`` holds the background off while one is written."""

    def __init__(self, store: DiaryStore, writer: DiaryWriter,
                 exclusive: Callable[[], AbstractAsyncContextManager[None]], settings: Settings) -> None:
        self._store = store
        self._writer = writer
        self._exclusive = exclusive
        self.settings = settings

    async def write(self, /, day: date | str | None = None, **scope: Any) -> Diary:
        """Write (or rewrite) the diary entry of a group or private chat for ``day`` now (default:
        today in ``diary_tz``), as the background schedule does once a day is over. NotFound
        when nobody but the assistant spoke that day."""
        where = scope_of(scope).owner_scope()
        when = local_day(time.time(), diary_zone(self.settings.diary_tz)) if day is None else parse_day("day", day)
        async with self._exclusive():
            found = await asyncio.to_thread(self._writer.write, where, when)
        if found is None:
            raise NotFound(f"{where.owner} has no message from a person on {when}: there is no day to write of")
        return found

    async def entry(self, /, date: date | str, **scope: Any) -> Diary:
        """The diary entry of a group or private chat for ``date`` (a date or "YYYY-MM-DD")."""
        where, when = scope_of(scope).owner_scope(), parse_day("date", date)
        found = await asyncio.to_thread(self._store.diary.get_diary, where, when)
        if found is None:
            raise NotFound(f"{where.owner} has no diary entry for {when}: a day's entry is written once the day"
                           f" is over ({self.settings.diary_time} in {self.settings.diary_tz} for today), or now"
                           " with write_diary")
        return found

    async def entries(self, /, start: date | str | None = None, end: date | str | None = None,
                      **scope: Any) -> list[Diary]:
        """The diary entries of a group or private chat from ``start`` to ``end`` (inclusive,
        either open; none when ``start`` is after ``end``), oldest first."""
        first = None if start is None else parse_day("start", start)
        last = None if end is None else parse_day("end", end)
        return await asyncio.to_thread(self._store.diary.diaries, scope_of(scope).owner_scope(), first, last)
