"""The conversation over MCP: ``remember`` a message, ``recall`` and ``conversation_search`` what was
said, ``get_context`` before answering."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context
from pydantic import Field

from ..schemas import MAX_ID, MAX_RECENT, ContextOut, HitOut, TurnOut
from .common import MAX_PAGE, AgentId, Asker, GroupId, Tools, UserId, _dt, _dump, _mapped, _offset

Content = Annotated[str, Field(description="The message text to store.", min_length=1)]
TurnSession = Annotated[str | None, Field(
    description="The conversation (session) id; leave it out in a chat that has none: the message"
    " joins the chat's current session (a new one after PMEMO_SESSION_GAP_MINUTES of silence or"
    " at the day's turn), and the turn returned names it.")]
Role = Annotated[str, Field(description="'user', 'assistant', 'system' or 'tool'.")]
Actor = Annotated[str | None, Field(description="Who spoke, in a group chat: their display name now.")]
ActorId = Annotated[str | None, Field(description="The speaker's stable person id, in a group chat.")]
IdempotencyKey = Annotated[str | None, Field(
    description="A unique string for this message (e.g. the chat's message id): calling"
    " again with it stores nothing twice and returns the first call's turn.", max_length=255)]
Timestamp = Annotated[str | None, Field(
    description="When it was said, ISO 8601 with a zone (2024-05-01T10:00:00+08:00);"
    " default now. For backfilling history.", max_length=64)]
Metadata = Annotated[dict[str, Any] | None, Field(
    description="Small JSON object kept with the turn: message_id (the chat's id of this message),"
    " reply_to_message (the chat's id of the message it answers), kind (notice, recall, image …).")]
ReplyTo = Annotated[int | None, Field(
    description="The id of the stored turn this message answers (a turn of the same chat).", ge=1,
    le=MAX_ID, strict=True)]
OnlySession = Annotated[str | None, Field(description="Only this session.")]
Budget = Annotated[int | None, Field(description="Token budget for the context.", ge=16, le=32000, strict=True)]
ContextAsker = Annotated[str | None, Field(
    description="The person id of who asks: their profile and plans come in.")]
Recent = Annotated[list[str] | None, Field(
    description="The last messages of the chat, newest last: the people they name come in too.",
    max_length=MAX_RECENT)]
Format = Annotated[Literal["markdown", "memgpt"], Field(
    description="How the memory blocks are written: markdown, or `memgpt` for the"
    " `<memory_blocks>` layout of MemGPT/Letta prompts.")]
WithInput = Annotated[bool, Field(
    description="End the pack with the message itself; false if you send it on your own,"
    " so the whole budget goes to memory.")]
Page = Annotated[int, Field(description=f"Page number from 0 (at most {MAX_PAGE:,}).", ge=0, le=MAX_PAGE,
                            strict=True)]


class MemoryTools(Tools):
    NAMES = ("remember", "recall", "get_context", "conversation_search")

    async def remember(
        self, ctx: Context,
        content: Content,
        session_id: TurnSession = None,
        user_id: UserId = None,
        role: Role = "user",
        actor: Actor = None,
        group_id: GroupId = None,
        agent_id: AgentId = "default",
        actor_id: ActorId = None,
        idempotency_key: IdempotencyKey = None,
        timestamp: Timestamp = None,
        metadata: Metadata = None,
        reply_to: ReplyTo = None,
    ) -> dict[str, Any]:
        """Store one message of the conversation in long-lived memory. Returns the stored turn."""
        with _mapped():
            turn = await self.memory.add(
                session_id=session_id, content=content, role=role, actor=actor, actor_id=actor_id,
                idempotency_key=idempotency_key, timestamp=timestamp, metadata=metadata, reply_to=reply_to,
                **await self.scope(ctx, user_id, group_id, agent_id),
            )
            return _dump(TurnOut.of(turn))

    async def recall(
        self, ctx: Context,
        query: Annotated[str, Field(description="What to look for, in plain words.")],
        user_id: UserId = None,
        limit: Annotated[int, Field(description="How many items (1-50).", ge=1, le=50, strict=True)] = 10,
        session_id: OnlySession = None,
        group_id: GroupId = None,
        agent_id: AgentId = "default",
        asker: Asker = None,
    ) -> dict[str, Any]:
        """Search every memory tier; returns ranked items with their tier, score and why."""
        with _mapped():
            hits = await self.memory.search(
                query, limit=limit, session_id=session_id, asker=asker,
                **await self.scope(ctx, user_id, group_id, agent_id),
            )
            return {"hits": [_dump(HitOut.of(h)) for h in hits]}

    async def get_context(
        self, ctx: Context,
        query: Annotated[str, Field(description="The new message you are about to answer.")],
        user_id: UserId = None,
        session_id: Annotated[str | None, Field(description="The current session.")] = None,
        budget_tokens: Budget = None,
        group_id: GroupId = None,
        agent_id: AgentId = "default",
        asker: ContextAsker = None,
        recent: Recent = None,
        format: Format = "markdown",
        with_input: WithInput = True,
    ) -> dict[str, Any]:
        """The packed memory context for a message, within a token budget.

        Put its `text` in the prompt; `items` say where each part came from and why. Memory
        blocks come first, always whole (`over_budget` if they alone exceed the budget).
        """
        with _mapped():
            pack = await self.memory.context(
                query, session_id=session_id, budget_tokens=budget_tokens, asker=asker, recent=recent,
                format=format, with_input=with_input, **await self.scope(ctx, user_id, group_id, agent_id),
            )
            return _dump(ContextOut.of(pack))

    async def conversation_search(
        self, ctx: Context,
        user_id: UserId = None,
        query: Annotated[str | None, Field(description="Words the message contains.")] = None,
        start_date: Annotated[str | None, Field(description="ISO date/time, inclusive.")] = None,
        end_date: Annotated[str | None, Field(description="ISO date/time, inclusive.")] = None,
        session_id: OnlySession = None,
        limit: Annotated[int, Field(description="Page size (1-100).", ge=1, le=100, strict=True)] = 20,
        page: Page = 0,
        group_id: GroupId = None,
        agent_id: AgentId = "default",
        asker: Asker = None,
    ) -> dict[str, Any]:
        """Raw past messages by text and date range, oldest first (with `asker` and a query in
        the first person, the asker's own first)."""
        with _mapped():
            turns = await self.memory.turns(
                session_id=session_id, limit=limit, offset=_offset(page, limit), since=_dt(start_date),
                until=_dt(end_date, end=True), text=query, asker=asker,
                **await self.scope(ctx, user_id, group_id, agent_id),
            )
            return {"turns": [_dump(TurnOut.of(t)) for t in turns], "page": page}
