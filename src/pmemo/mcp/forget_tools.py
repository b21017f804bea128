"""Forgetting over MCP: ``forget`` what was said (restorable), ``restore`` it, and ``profile``:
what is known about the user."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import Context
from pydantic import Field
from pydantic_core import to_jsonable_python

from .. import errors
from ..schemas import MAX_ID, FactOut
from .common import AgentId, GroupId, History, RowId, Tools, UserId, _dump, _mapped


def _memory_id(text: str) -> tuple[str, int]:
    """``"turn:12"`` (or ``"12"``), ``"key:3"``, ``"summary:5"`` → (kind, number), the number
    within the bounds of a stored id."""
    kind, _, num = text.rpartition(":")
    if not (num.isascii() and num.isdigit()):
        raise errors.InvalidInput(f"id {text[:60]!r} is not an id like 'turn:12'")
    # compared as text first: int() of a huge string is slow, and refused past 4300 digits
    if len(num.lstrip("0")) > len(str(MAX_ID)) or not 1 <= int(num) <= MAX_ID:
        raise errors.InvalidInput(
            f"id {text[:60]!r} is out of range: ids are whole numbers from 1 to {MAX_ID}, as other tools return them"
        )
    return kind, int(num)


class ForgetTools(Tools):
    NAMES = ("forget", "restore", "profile")

    async def forget(
        self, ctx: Context,
        id: Annotated[
            str,
            Field(
                description="What to delete: 'turn:12' (or just 12), "
                "'key:3' or 'summary:5', as ids appear in other tools' results."
            ),
        ],
        hard: Annotated[
            bool,
            Field(description="For a turn: erase at once instead of a restorable forget."),
        ] = False,
    ) -> dict[str, Any]:
        """Delete one memory by id. Forgetting a turn also removes what was derived from it
        and is restorable (pass the returned `batch` to `restore`) unless `hard`."""
        with _mapped():
            t = await self.tenant_of(ctx)
            kind, n = _memory_id(id)
            if kind in ("", "turn"):
                report = await self.memory.forget([n], hard=hard, tenant_id=t)
                return {
                    "batch": None if hard else report.get("batch"),
                    "mode": report.get("mode", "hard" if hard else "soft"),
                    "removed": to_jsonable_python(report),
                }
            if kind == "key":
                await self.memory.delete_key(n, tenant_id=t)
            elif kind == "summary":
                await self.memory.delete_summary(n, tenant_id=t)
            else:
                raise errors.InvalidInput(f"cannot forget a {kind!r}; use turn:, key: or summary:")
            return {"removed": {kind: [n]}}

    async def restore(
        self, ctx: Context,
        batch: Annotated[
            int | None, Field(description="The `batch` a forget returned.", ge=1, le=MAX_ID, strict=True)
        ] = None,
        turn_ids: Annotated[
            list[RowId] | None,
            Field(description="Or: ids of forgotten turns to bring back.", max_length=1000),
        ] = None,
    ) -> dict[str, Any]:
        """Undo a restorable forget: give its `batch`, or the forgotten `turn_ids`."""
        with _mapped():
            if (batch is None) == (turn_ids is None):
                raise errors.InvalidInput("give the batch a forget returned, or turn_ids")
            out = await self.memory.restore(
                batch,
                turn_ids=None if turn_ids is None else sorted(set(turn_ids)),
                tenant_id=await self.tenant_of(ctx),
            )
            return {"restored": to_jsonable_python(out)}

    async def profile(
        self, ctx: Context,
        user_id: UserId = None,
        history: History = False,
        group_id: GroupId = None,
        agent_id: AgentId = "default",
    ) -> dict[str, Any]:
        """What is known about the person: facts (category, key, value, confidence)."""
        with _mapped():
            facts = await self.memory.profile(history=history, **await self.scope(ctx, user_id, group_id, agent_id))
            return {"facts": [_dump(FactOut.of(f)) for f in facts]}
