"""Reads: ``search`` and ``context`` checked, run as reads under way (the background gives
way meanwhile), their recalls (hit counts, shown episodes) queued together as jobs.

>>> hits = await reads.search("预算", limit=5, group_id="study")  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

from .. import reads_first, validate
from ..blocks.render import check_style
from ..config import Settings
from ..models import ContextPack, Hit, check_id
from ..pipelines.recalls import Recalls
from ..retrieval.reader import ContextReader
from .args import MAX_LIMIT, scope_of

MAX_BUDGET = 200_000
T = TypeVar("T")


class Reads:
    """``Memory.search`` and ``Memory.context`` (their documentation is there)."""

    def __init__(self, reader: ContextReader, recalls: Recalls, settings: Settings) -> None:
        self._reader = reader
        self._recalls = recalls
        self.settings = settings

    async def search(self, query: str, *, limit: int = 10, session_id: str | None = None,
                     at: datetime | str | None = None, asker: str | None = None, **scope: Any) -> list[Hit]:
        validate.positive_int("limit", limit, MAX_LIMIT)
        where = scope_of(scope, session_id=session_id)
        asked = validate.timestamp(at, "at")
        if asker is not None:
            check_id("asker", asker)
        found = await asyncio.to_thread(_read, self._reader.search, validate.query(query), where, session_id, limit,
                                        asked, asker, at is not None)
        self._recalls.add(found.clusters)
        return found.hits

    async def context(self, query: str, *, session_id: str | None = None,
                      budget_tokens: int | None = None, at: datetime | str | None = None,
                      asker: str | None = None, recent: list[str] | None = None,
                      format: str = "markdown", with_input: bool = True, **scope: Any) -> ContextPack:
        budget = validate.positive_int("budget_tokens", budget_tokens or self.settings.budget_tokens,
                                       MAX_BUDGET)
        owner = scope_of(scope, session_id=session_id).owner_scope()
        if asker is not None:
            check_id("asker", asker)
        read = await asyncio.to_thread(_read, self._reader.read, validate.query(query), owner, session_id, budget,
                                       validate.timestamp(at, "at"), asker, validate.recent(recent), MAX_LIMIT,
                                       check_style(format), validate.flag("with_input", with_input), at is not None)
        self._recalls.add(read.clusters, read.episodes)
        return read.pack


def _read(call: Callable[..., T], *args: Any) -> T:
    """``call(*args)`` counted as a read under way: the background gives way meanwhile."""
    with reads_first.reading():
        return call(*args)
