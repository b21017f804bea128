"""The MCP tools, in the spirit of MemGPT's memory functions, over the public Memory API.

Over stdio the server speaks for one tenant (chosen when it starts). Over HTTP the
caller's ``Authorization: Bearer <key>`` picks the tenant on every call. pmemo errors
come back as MCP tool errors (``is_error``) whose text starts with the error code.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context, MCPServer
from pydantic import Field
from pydantic_core import to_jsonable_python

from .. import errors
from ..api import MemoryAPI
from ..schemas import (
    MAX_ID,
    MAX_RECENT,
    AgendaItemOut,
    ContextOut,
    FactOut,
    HitOut,
    KeyLineOut,
    MatchOut,
    MemberOut,
    PersonOut,
    TurnOut,
    owner_kw,
)
from ..schemas.profile import profile_of
from ..stores.api_keys import KeyStore
from . import blocks_tools, diary_tools, graph_tools, person_tools
from .common import (
    MAX_OFFSET,
    MAX_PAGE,
    AgentId,
    Asker,
    GroupId,
    PersonId,
    RowId,
    UserId,
    _dt,
    _mapped,
)

TOOLS = (
    "remember",
    "recall",
    "get_context",
    "core_memory_append",
    "core_memory_replace",
    "conversation_search",
    "forget",
    "restore",
    "profile",
    "add_person",
    "person",
    "people",
    "remove_alias",
    "forget_person",
    "resolve_people",
    "person_profile",
    "agenda",
    "blocks",
    "graph",
    "triples",
    "diary",
)

REPLACE_TRIES = 8  # compare-and-swap rounds of core_memory_replace under concurrent writers

INSTRUCTIONS = (
    "pmemo keeps what was said across sessions. Call `remember` with each message, "
    "`get_context` before answering, `recall` or `conversation_search` to look things up, "
    "`core_memory_append`/`core_memory_replace` for facts that must always be in context, "
    "`profile` for what is known about the person, `forget` when the user asks to delete "
    "something, and `restore` to undo a forget. In a group chat, pass each speaker's stable "
    "`actor_id`, and `asker`/`recent` to `get_context`; `people`, `person`, `resolve_people`, "
    "`person_profile` and `agenda` tell who is who, what was learned about them in this group "
    "and their dated plans; `add_person`/`remove_alias` fix the names people go by, and "
    "`forget_person` forgets someone who asks to be forgotten (here or everywhere). `blocks` lists "
    "the memory blocks always in your context; give `core_memory_append`/`core_memory_replace` a "
    "block's `label` to edit an editable one. `graph` and `triples` tell who and what people are "
    "linked to (employers, homes, friends, pets) and how that changed over time. `diary` reads "
    "your diary of a chat: one entry per day, by date or a range of dates."
)

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


def _offset(page: int, limit: int) -> int:
    offset = page * limit
    if offset > MAX_OFFSET:
        raise errors.InvalidInput(
            f"page {page} of {limit} is past the {MAX_OFFSET:,}th message: narrow the search (query, dates) instead"
        )
    return offset


def _dump(model: Any) -> dict[str, Any]:
    return model.model_dump(mode="json")  # type: ignore[no-any-return]


def build_server(
    memory: MemoryAPI, *, tenant: str | None = "default", keys: KeyStore | None = None
) -> MCPServer:
    """An MCPServer whose tools call ``memory``.

    ``tenant`` is used when the transport has no headers (stdio); over HTTP, ``keys``
    resolves the caller's bearer key to its tenant on each call.
    """
    server = MCPServer("pmemo", instructions=INSTRUCTIONS, log_level="WARNING")

    async def tenant_of(ctx: Context | None) -> str:
        """The caller's tenant. Checked again at each tool call, not only by the HTTP guard: a
        key revoked since the request arrived is refused. The check is a query on PostgreSQL,
        so it runs off the event loop, which every other request shares."""
        headers = ctx.headers if ctx is not None else None
        if headers is None:
            if tenant is None:
                raise errors.AuthError("this MCP server needs an API key")
            return tenant
        if keys is None:
            raise errors.AuthError("this MCP server has no key store")
        auth = headers.get("authorization") or ""
        scheme, _, key = auth.partition(" ")
        info = await asyncio.to_thread(keys.verify, key.strip() if scheme.lower() == "bearer" else None)
        if info.tenant is None:
            raise errors.Forbidden("admin keys cannot read memory; use a tenant key")
        return info.tenant

    async def scope(ctx: Context, user_id: str | None, group_id: str | None, agent_id: str) -> dict:
        return {
            "tenant_id": await tenant_of(ctx),
            "user_id": user_id,
            "group_id": group_id,
            "agent_id": agent_id,
        }

    @server.tool()
    async def remember(
        ctx: Context,
        content: Annotated[str, Field(description="The message text to store.", min_length=1)],
        session_id: Annotated[str | None, Field(
            description="The conversation (session) id; leave it out in a chat that has none: the message"
            " joins the chat's current session (a new one after PMEMO_SESSION_GAP_MINUTES of silence or"
            " at the day's turn), and the turn returned names it.")] = None,
        user_id: UserId = None,
        role: Annotated[
            str, Field(description="'user', 'assistant', 'system' or 'tool'.")
        ] = "user",
        actor: Annotated[
            str | None, Field(description="Who spoke, in a group chat: their display name now.")
        ] = None,
        group_id: GroupId = None,
        agent_id: AgentId = "default",
        actor_id: Annotated[
            str | None, Field(description="The speaker's stable person id, in a group chat.")
        ] = None,
        idempotency_key: Annotated[
            str | None,
            Field(
                description="A unique string for this message (e.g. the chat's message id): calling"
                " again with it stores nothing twice and returns the first call's turn.",
                max_length=255,
            ),
        ] = None,
        timestamp: Annotated[
            str | None,
            Field(
                description="When it was said, ISO 8601 with a zone (2024-05-01T10:00:00+08:00);"
                " default now. For backfilling history.",
                max_length=64,
            ),
        ] = None,
        metadata: Annotated[
            dict[str, Any] | None,
            Field(description="Small JSON object kept with the turn: message_id (the chat's id of this message),"
                  " reply_to_message (the chat's id of the message it answers), kind (notice, recall, image …)."),
        ] = None,
        reply_to: Annotated[
            int | None,
            Field(description="The id of the stored turn this message answers (a turn of the same chat).", ge=1,
                  le=MAX_ID, strict=True),
        ] = None,
    ) -> dict[str, Any]:
        """Store one message of the conversation in long-lived memory. Returns the stored turn."""
        with _mapped():
            turn = await memory.add(
                session_id=session_id,
                content=content,
                role=role,
                actor=actor,
                actor_id=actor_id,
                idempotency_key=idempotency_key,
                timestamp=timestamp,
                metadata=metadata,
                reply_to=reply_to,
                **await scope(ctx, user_id, group_id, agent_id),
            )
            return _dump(TurnOut.of(turn))

    @server.tool()
    async def recall(
        ctx: Context,
        query: Annotated[str, Field(description="What to look for, in plain words.")],
        user_id: UserId = None,
        limit: Annotated[int, Field(description="How many items (1-50).", ge=1, le=50, strict=True)] = 10,
        session_id: Annotated[str | None, Field(description="Only this session.")] = None,
        group_id: GroupId = None,
        agent_id: AgentId = "default",
        asker: Asker = None,
    ) -> dict[str, Any]:
        """Search every memory tier; returns ranked items with their tier, score and why."""
        with _mapped():
            hits = await memory.search(
                query, limit=limit, session_id=session_id, asker=asker,
                **await scope(ctx, user_id, group_id, agent_id),
            )
            return {"hits": [_dump(HitOut.of(h)) for h in hits]}

    @server.tool()
    async def get_context(
        ctx: Context,
        query: Annotated[str, Field(description="The new message you are about to answer.")],
        user_id: UserId = None,
        session_id: Annotated[str | None, Field(description="The current session.")] = None,
        budget_tokens: Annotated[
            int | None, Field(description="Token budget for the context.", ge=16, le=32000, strict=True)
        ] = None,
        group_id: GroupId = None,
        agent_id: AgentId = "default",
        asker: Annotated[
            str | None,
            Field(description="The person id of who asks: their profile and plans come in."),
        ] = None,
        recent: Annotated[
            list[str] | None,
            Field(
                description="The last messages of the chat, newest last: the people they name "
                "come in too.",
                max_length=MAX_RECENT,
            ),
        ] = None,
        format: Annotated[
            Literal["markdown", "memgpt"],
            Field(description="How the memory blocks are written: markdown, or `memgpt` for the"
                  " `<memory_blocks>` layout of MemGPT/Letta prompts."),
        ] = "markdown",
        with_input: Annotated[
            bool,
            Field(description="End the pack with the message itself; false if you send it on your own,"
                  " so the whole budget goes to memory."),
        ] = True,
    ) -> dict[str, Any]:
        """The packed memory context for a message, within a token budget.

        Put its `text` in the prompt; `items` say where each part came from and why. Memory
        blocks come first, always whole (`over_budget` if they alone exceed the budget).
        """
        with _mapped():
            pack = await memory.context(
                query,
                session_id=session_id,
                budget_tokens=budget_tokens,
                asker=asker,
                recent=recent,
                format=format,
                with_input=with_input,
                **await scope(ctx, user_id, group_id, agent_id),
            )
            return _dump(ContextOut.of(pack))

    @server.tool()
    async def core_memory_append(
        ctx: Context,
        text: Annotated[str, Field(description="A short line to keep always in context.")],
        user_id: UserId = None,
        group_id: GroupId = None,
        agent_id: AgentId = "default",
        label: blocks_tools.Label = None,
    ) -> dict[str, Any]:
        """Add a line to key (core) memory: it is put first in every context. With a `label`:
        add it to the end of that memory block instead."""
        with _mapped():
            if label is not None:
                return await blocks_tools.append(memory, label, text, await scope(ctx, user_id, group_id, agent_id))
            line = await memory.add_key(text, **await scope(ctx, user_id, group_id, agent_id))
            return _dump(KeyLineOut.of(line))

    @server.tool()
    async def core_memory_replace(
        ctx: Context,
        old_text: Annotated[
            str,
            Field(
                description="Text of the key-memory line to change (a unique part of it is enough)."
            ),
        ],
        new_text: Annotated[str, Field(description="What that line should say instead.")],
        user_id: UserId = None,
        group_id: GroupId = None,
        agent_id: AgentId = "default",
        version: Annotated[
            int | None,
            Field(
                description="The line's (or block's) version as you read it: if it changed since, nothing is"
                " changed and the error says the current version. Without it the replacement is"
                " made on the line's latest text.",
                ge=1,
                le=MAX_ID,
                strict=True,
            ),
        ] = None,
        label: blocks_tools.Label = None,
    ) -> dict[str, Any]:
        """Replace `old_text` with `new_text` in the one key-memory line that contains it. With a
        `label`: in that memory block, where `old_text` must occur exactly once."""
        with _mapped():
            sc = await scope(ctx, user_id, group_id, agent_id)
            if label is not None:
                return await blocks_tools.replace(memory, label, old_text, new_text, version, sc)
            for _ in range(REPLACE_TRIES):
                lines = [k for k in await memory.key_memory(**sc) if old_text in k.text]
                if len(lines) != 1:
                    what = "no" if not lines else f"{len(lines)}"
                    raise errors.InvalidInput(
                        f"{what} key-memory lines contain {old_text[:60]!r}; quote one line exactly"
                    )
                line = lines[0]
                try:
                    updated = await memory.update_key(
                        line.id,
                        line.text.replace(old_text, new_text),
                        version=version or line.version,
                        tenant_id=sc["tenant_id"],
                    )
                except errors.Conflict:
                    if version is not None:
                        raise
                    continue  # changed between the read and the write: apply it to the new text
                return _dump(KeyLineOut.of(updated))
            raise errors.Conflict("the line kept changing while it was being replaced; try again")

    @server.tool()
    async def conversation_search(
        ctx: Context,
        user_id: UserId = None,
        query: Annotated[str | None, Field(description="Words the message contains.")] = None,
        start_date: Annotated[str | None, Field(description="ISO date/time, inclusive.")] = None,
        end_date: Annotated[str | None, Field(description="ISO date/time, inclusive.")] = None,
        session_id: Annotated[str | None, Field(description="Only this session.")] = None,
        limit: Annotated[int, Field(description="Page size (1-100).", ge=1, le=100, strict=True)] = 20,
        page: Annotated[
            int, Field(description=f"Page number from 0 (at most {MAX_PAGE:,}).", ge=0, le=MAX_PAGE, strict=True)
        ] = 0,
        group_id: GroupId = None,
        agent_id: AgentId = "default",
        asker: Asker = None,
    ) -> dict[str, Any]:
        """Raw past messages by text and date range, oldest first (with `asker` and a query in
        the first person, the asker's own first)."""
        with _mapped():
            turns = await memory.turns(
                session_id=session_id,
                limit=limit,
                offset=_offset(page, limit),
                since=_dt(start_date),
                until=_dt(end_date, end=True),
                text=query,
                asker=asker,
                **await scope(ctx, user_id, group_id, agent_id),
            )
            return {"turns": [_dump(TurnOut.of(t)) for t in turns], "page": page}

    @server.tool()
    async def forget(
        ctx: Context,
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
            t = await tenant_of(ctx)
            kind, n = _memory_id(id)
            if kind in ("", "turn"):
                report = await memory.forget([n], hard=hard, tenant_id=t)
                return {
                    "batch": None if hard else report.get("batch"),
                    "mode": report.get("mode", "hard" if hard else "soft"),
                    "removed": to_jsonable_python(report),
                }
            if kind == "key":
                await memory.delete_key(n, tenant_id=t)
            elif kind == "summary":
                await memory.delete_summary(n, tenant_id=t)
            else:
                raise errors.InvalidInput(f"cannot forget a {kind!r}; use turn:, key: or summary:")
            return {"removed": {kind: [n]}}

    @server.tool()
    async def restore(
        ctx: Context,
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
            out = await memory.restore(
                batch,
                turn_ids=None if turn_ids is None else sorted(set(turn_ids)),
                tenant_id=await tenant_of(ctx),
            )
            return {"restored": to_jsonable_python(out)}

    @server.tool()
    async def profile(
        ctx: Context,
        user_id: UserId = None,
        history: Annotated[
            bool, Field(description="Also superseded, conflicting and expired facts.")
        ] = False,
        group_id: GroupId = None,
        agent_id: AgentId = "default",
    ) -> dict[str, Any]:
        """What is known about the person: facts (category, key, value, confidence)."""
        with _mapped():
            facts = await memory.profile(history=history, **await scope(ctx, user_id, group_id, agent_id))
            return {"facts": [_dump(FactOut.of(f)) for f in facts]}

    _people_tools(server, memory, tenant_of)
    blocks_tools.register(server, memory, tenant_of)
    graph_tools.register(server, memory, tenant_of)
    diary_tools.register(server, memory, tenant_of)
    person_tools.register(server, memory, tenant_of)
    return server


def _people_tools(server: MCPServer, memory: MemoryAPI, tenant_of: Any) -> None:
    """Who is who in a group chat (issue 17): the registry, members, names, profiles, agenda."""

    async def where(ctx: Context, user_id: str | None, group_id: str | None, agent_id: str) -> dict:
        """The scope with an owner only when one is given (no owner: the whole tenant)."""
        return {"tenant_id": await tenant_of(ctx), **owner_kw(user_id, group_id, agent_id)}

    @server.tool()
    async def add_person(
        ctx: Context,
        person_id: PersonId,
        name: Annotated[str | None, Field(description="Their display name now.")] = None,
        aliases: Annotated[
            list[str] | None,
            Field(description="Other names they go by (merged with the ones known).", max_length=100),
        ] = None,
        user_id: Annotated[str | None, Field(description="A private chat they belong to.")] = None,
        group_id: Annotated[str | None, Field(description="A group they belong to.")] = None,
        agent_id: AgentId = "default",
    ) -> dict[str, Any]:
        """Register a person or update them: idempotent, aliases are merged. With a group they
        are a member there before they speak. Returns the person with every alias."""
        with _mapped():
            person = await memory.add_person(
                person_id, name=name, aliases=aliases or [], **await where(ctx, user_id, group_id, agent_id)
            )
            return _dump(PersonOut.of(person))

    @server.tool()
    async def person(ctx: Context, person_id: PersonId) -> dict[str, Any]:
        """One person: display names (oldest first) and aliases, each with its source
        (registered, name, learned, mention, generated)."""
        with _mapped():
            return _dump(PersonOut.of(await memory.person(person_id, tenant_id=await tenant_of(ctx))))

    @server.tool()
    async def people(
        ctx: Context,
        user_id: UserId = None,
        group_id: GroupId = None,
        agent_id: AgentId = "default",
    ) -> dict[str, Any]:
        """The members of a group or private chat, latest speaker first: names, aliases, when
        they spoke first and last here and how often."""
        with _mapped():
            members = await memory.people(**await where(ctx, user_id, group_id, agent_id))
            return {"members": [_dump(MemberOut.of(m)) for m in members]}

    @server.tool()
    async def remove_alias(
        ctx: Context,
        person_id: PersonId,
        alias: Annotated[str, Field(description="The name to stop resolving to them.")],
    ) -> dict[str, Any]:
        """Stop resolving a name to a person (it is not learned again). Returns the person."""
        with _mapped():
            return _dump(PersonOut.of(await memory.remove_alias(person_id, alias, tenant_id=await tenant_of(ctx))))

    @server.tool()
    async def resolve_people(
        ctx: Context,
        text: Annotated[str, Field(description="A message that may name people.")],
        user_id: UserId = None,
        group_id: GroupId = None,
        agent_id: AgentId = "default",
    ) -> dict[str, Any]:
        """The people a text names, by any of their names (nicknames, old display names):
        each match with its span and person id(s); `ambiguous` when two people share it."""
        with _mapped():
            matches = await memory.resolve_people(text, **await where(ctx, user_id, group_id, agent_id))
            return {"matches": [_dump(MatchOut.of(m)) for m in matches]}

    @server.tool()
    async def person_profile(
        ctx: Context,
        person_id: PersonId,
        group_id: Annotated[
            str | None, Field(description="Only what was learned in this group (default: everywhere).")
        ] = None,
        history: Annotated[
            bool, Field(description="Also superseded, conflicting and expired facts.")
        ] = False,
        user_id: Annotated[
            str | None, Field(description="Or: only what was learned in this private chat.")
        ] = None,
        agent_id: AgentId = "default",
    ) -> dict[str, Any]:
        """What is known about one person: facts whose subject they are, each with a
        `sentence` in words; with `group_id`, only what was learned in that group."""
        with _mapped():
            facts = await profile_of(memory, person_id, history, await where(ctx, user_id, group_id, agent_id))
            return {"facts": [_dump(f) for f in facts]}

    @server.tool()
    async def agenda(
        ctx: Context,
        person_id: Annotated[str | None, Field(description="Only this person's plans.")] = None,
        at: Annotated[
            str | None,
            Field(description="ISO date/time: only the open plans near it (default: all plans)."),
        ] = None,
        user_id: UserId = None,
        group_id: GroupId = None,
        agent_id: AgentId = "default",
    ) -> dict[str, Any]:
        """Dated plans people mentioned in a group or chat ("12月23日考研"), by day, with their
        status ("open" until someone says how it went). Without user_id or group_id: those of
        every chat, each with its own, to bring a plan up unasked (an exam the evening before)
        in the chat where it was said, and only there."""
        with _mapped():
            items = await memory.agenda(person_id, at=_dt(at), **await where(ctx, user_id, group_id, agent_id))
            return {"items": [_dump(AgendaItemOut.of(i)) for i in items]}
