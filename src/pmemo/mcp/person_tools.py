"""Who is who in a group chat over MCP (issue 17): the registry (``add_person``, ``person``,
``remove_alias``), a chat's members (``people``), names in a text (``resolve_people``), what was
learned about a person (``person_profile``) and dated plans (``agenda``); and forgetting a person
(issue 44 §7): ``forget_person``, as ``DELETE /v1/people/{id}`` answers it, undone by the
``restore`` tool with its ``batch``."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import Context
from pydantic import Field
from pydantic_core import to_jsonable_python

from ..errors import InvalidInput
from ..schemas import AgendaItemOut, MatchOut, MemberOut, PersonForgetOut, PersonOut
from ..schemas.profile import profile_of
from .common import AgentId, GroupId, History, PersonId, Tools, UserId, _dt, _dump, _mapped


class PersonTools(Tools):
    NAMES = ("forget_person", "add_person", "person", "people", "remove_alias", "resolve_people",
             "person_profile", "agenda")

    async def forget_person(
        self, ctx: Context,
        person_id: PersonId,
        group_id: Annotated[str | None, Field(description="Only in this group (default: everywhere).")] = None,
        user_id: Annotated[str | None, Field(description="Or: only in this private chat.")] = None,
        hard: Annotated[bool, Field(description="Erase at once: not restorable.")] = False,
        dry_run: Annotated[bool, Field(description="Only list what would go; nothing changes.")] = False,
        agent_id: AgentId = "default",
    ) -> dict[str, Any]:
        """Forget a person: what they said, the facts about them (whoever said them), their
        triples and plans, and their record with every name. With `group_id` (or `user_id`) only
        in that chat: what is there, their membership and the nicknames learned there. Restorable
        (pass the returned `batch` to `restore`) unless `hard`; `dry_run` lists what would go."""
        with _mapped():
            if user_id is not None and group_id is not None:
                raise InvalidInput("give at most one of user_id or group_id (neither: everywhere)")
            report = await self.memory.forget(person_id=person_id, hard=hard, dry_run=dry_run,
                                              **await self.where(ctx, user_id, group_id, agent_id))
            return PersonForgetOut.of(person_id, report, to_jsonable_python(report)).model_dump(mode="json")

    async def add_person(
        self, ctx: Context,
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
            person = await self.memory.add_person(
                person_id, name=name, aliases=aliases or [], **await self.where(ctx, user_id, group_id, agent_id)
            )
            return _dump(PersonOut.of(person))

    async def person(self, ctx: Context, person_id: PersonId) -> dict[str, Any]:
        """One person: display names (oldest first) and aliases, each with its source
        (registered, name, learned, mention, generated)."""
        with _mapped():
            return _dump(PersonOut.of(await self.memory.person(person_id, tenant_id=await self.tenant_of(ctx))))

    async def people(
        self, ctx: Context,
        user_id: UserId = None, group_id: GroupId = None, agent_id: AgentId = "default",
    ) -> dict[str, Any]:
        """The members of a group or private chat, latest speaker first: names, aliases, when
        they spoke first and last here and how often."""
        with _mapped():
            members = await self.memory.people(**await self.where(ctx, user_id, group_id, agent_id))
            return {"members": [_dump(MemberOut.of(m)) for m in members]}

    async def remove_alias(
        self, ctx: Context,
        person_id: PersonId,
        alias: Annotated[str, Field(description="The name to stop resolving to them.")],
    ) -> dict[str, Any]:
        """Stop resolving a name to a person (it is not learned again). Returns the person."""
        with _mapped():
            person = await self.memory.remove_alias(person_id, alias, tenant_id=await self.tenant_of(ctx))
            return _dump(PersonOut.of(person))

    async def resolve_people(
        self, ctx: Context,
        text: Annotated[str, Field(description="A message that may name people.")],
        user_id: UserId = None, group_id: GroupId = None, agent_id: AgentId = "default",
    ) -> dict[str, Any]:
        """The people a text names, by any of their names (nicknames, old display names):
        each match with its span and person id(s); `ambiguous` when two people share it."""
        with _mapped():
            matches = await self.memory.resolve_people(text, **await self.where(ctx, user_id, group_id, agent_id))
            return {"matches": [_dump(MatchOut.of(m)) for m in matches]}

    async def person_profile(
        self, ctx: Context,
        person_id: PersonId,
        group_id: Annotated[
            str | None, Field(description="Only what was learned in this group (default: everywhere).")
        ] = None,
        history: History = False,
        user_id: Annotated[
            str | None, Field(description="Or: only what was learned in this private chat.")
        ] = None,
        agent_id: AgentId = "default",
    ) -> dict[str, Any]:
        """What is known about one person: facts whose subject they are, each with a
        `sentence` in words; with `group_id`, only what was learned in that group."""
        with _mapped():
            where = await self.where(ctx, user_id, group_id, agent_id)
            facts = await profile_of(self.memory, person_id, history, where)
            return {"facts": [_dump(f) for f in facts]}

    async def agenda(
        self, ctx: Context,
        person_id: Annotated[str | None, Field(description="Only this person's plans.")] = None,
        at: Annotated[
            str | None,
            Field(description="ISO date/time: only the open plans near it (default: all plans)."),
        ] = None,
        user_id: UserId = None, group_id: GroupId = None, agent_id: AgentId = "default",
    ) -> dict[str, Any]:
        """Dated plans people mentioned in a group or chat ("12月23日考研"), by day, with their
        status ("open" until someone says how it went). Without user_id or group_id: those of
        every chat, each with its own, to bring a plan up unasked (an exam the evening before)
        in the chat where it was said, and only there."""
        with _mapped():
            items = await self.memory.agenda(person_id, at=_dt(at),
                                             **await self.where(ctx, user_id, group_id, agent_id))
            return {"items": [_dump(AgendaItemOut.of(i)) for i in items]}
