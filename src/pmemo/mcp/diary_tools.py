"""The daily diary over MCP (issue 20): ``diary`` reads one day's entry of a chat, or its days
from one date to another, as ``GET /v1/diary`` and ``GET /v1/diaries`` answer them."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import Context
from pydantic import Field

from ..diary.days import parse_day
from ..errors import InvalidInput
from ..schemas.diary import DiaryOut
from .common import AgentId, GroupId, Tools, UserId, _mapped

Day = Annotated[str | None, Field(description="A day as YYYY-MM-DD (in the diary's time zone).", max_length=10)]


class DiaryTools(Tools):
    NAMES = ("diary",)

    async def diary(
        self, ctx: Context,
        day: Day = None,
        start: Annotated[str | None, Field(description="Or a range: its first day, YYYY-MM-DD.", max_length=10)] = None,
        end: Annotated[str | None, Field(description="And its last day, included.", max_length=10)] = None,
        user_id: UserId = None, group_id: GroupId = None, agent_id: AgentId = "default",
    ) -> dict[str, Any]:
        """Your diary of a group or private chat: with `day`, that day's entry (what happened, who
        said what, the plans and dates mentioned); else the entries from `start` to `end`,
        oldest first (each open: all of them). A day's entry is written once the day is over."""
        with _mapped():
            scope = await self.scope(ctx, user_id, group_id, agent_id)
            if day is not None:
                if start is not None or end is not None:
                    raise InvalidInput("give a day, or start and end for a range, not both")
                entry = await self.memory.diary(parse_day("day", day), **scope)  # the error names this tool's `day`
                return {"entry": DiaryOut.of(entry).model_dump(mode="json")}
            found = await self.memory.diaries(start, end, **scope)
            return {"entries": [DiaryOut.of(d).model_dump(mode="json") for d in found]}
