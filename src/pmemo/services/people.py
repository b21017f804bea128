"""People: the registry (a person, their names and aliases), a chat's members, the people a
text names, their dated plans and what is known about them. The checks of names and aliases
and the rules of who sees which plan and fact live here; the rows in the store, the resolving
in ``tiers.people``.

>>> await mem.registry.add_person("p-ni", name="周霓", aliases=["霓霓"], group_id="study")  # doctest: +SKIP
>>> [(m.person.id, m.messages) for m in await mem.registry.members(group_id="study")]  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Any

from .. import validate
from ..blocks.model import where_of
from ..config import Settings
from ..errors import InvalidInput, NotFound
from ..models import AgendaItem, Fact, Member, Person, Scope, check_id
from ..people.aliases import check_alias
from ..people.resolve import Match
from ..retrieval.asof import epoch, stated_by
from ..retrieval.people_section import agenda_window
from ..stores.base import FullStore
from ..tiers.people import People, profile_view
from .args import names_chat, scope_of, tenant_agent


class PeopleService:
    """The people of a tenant, as ``mem.registry``."""

    def __init__(self, store: FullStore, people: People, settings: Settings) -> None:
        self._store = store
        self._people = people  # the registry's resolver (aliases, members first)
        self.settings = settings

    async def add_person(self, /, person_id: str, *, name: str | None = None,
                         aliases: list[str] | tuple[str, ...] = (), **scope: Any) -> Person:
        """Register a person (idempotent; aliases are merged). With ``group_id`` or ``user_id``
        they also count as a member there before they speak.

        >>> await mem.add_person("p-ni", name="周霓", aliases=["霓霓"], group_id="study")  # doctest: +SKIP
        """
        check_id("person_id", person_id)
        clean = None if name is None else check_alias(name, "name")
        if isinstance(aliases, str) or not isinstance(aliases, list | tuple):
            raise InvalidInput("aliases must be a list of names, e.g. ['霓霓', 'Neko']")
        given = [check_alias(a) for a in aliases]
        tenant, _ = tenant_agent(scope)
        member = scope_of(scope) if names_chat(scope) else None
        await asyncio.to_thread(self._store.add_person, tenant, person_id, clean, given, member)
        return await self.person(person_id, tenant_id=tenant)

    async def person(self, person_id: str, *, tenant_id: str = "default") -> Person:
        """A person with their display names (oldest first) and aliases (with their source)."""
        found = await asyncio.to_thread(self._people.person, check_id("tenant_id", tenant_id),
                                        check_id("person_id", person_id))
        if found is None:
            raise NotFound(f"person {person_id!r} does not exist in tenant {tenant_id!r}")
        return found

    async def members(self, /, **scope: Any) -> list[Member]:
        """The members of a group (``group_id``) or private chat (``user_id``): display names,
        aliases, first and last seen, message count; latest speaker first."""
        return await asyncio.to_thread(self._store.members, scope_of(scope))

    async def remove_alias(self, person_id: str, alias: str, *, tenant_id: str = "default") -> Person:
        """Stop resolving ``alias`` to the person (it is not learned again)."""
        person = await self.person(person_id, tenant_id=tenant_id)
        removed = await asyncio.to_thread(self._store.remove_alias, tenant_id, person.id, check_alias(alias))
        if not removed:
            raise NotFound(f"person {person_id!r} has no alias {alias!r}")
        return await self.person(person_id, tenant_id=tenant_id)

    async def resolve(self, /, text: str, **scope: Any) -> list[Match]:
        """The people ``text`` names: each match with its alias, span and person id(s); an alias
        two people share is reported with both (``ambiguous``); members of ``group_id`` first."""
        return await asyncio.to_thread(self._people.resolve, validate.query(text), scope_of(scope))

    async def agenda(self, /, person_id: str | None = None, *, at: datetime | str | None = None,
                     **scope: Any) -> list[AgendaItem]:
        """Dated plans people mentioned in a group or chat ("12月23日考研"), by day. With ``at``:
        only the open ones near that time (``agenda_ahead_days`` before their day to
        ``agenda_after_days`` after), as ``context`` shows them. Without ``group_id`` or
        ``user_id``: those of every group and private chat of the tenant and agent, each with
        its own ``scope`` — what an agent looks through to bring a plan up unasked (an exam the
        evening before) in the chat where it was said, and only there; and of those, the ones
        stated by ``at`` (a plan said later is not known then).

        >>> [(i.day, i.what, i.status) for i in await mem.agenda("ni", group_id="study")]  # doctest: +SKIP
        """
        where = where_of(scope)
        owners = None if where.listing else [Scope.of(user_id=where.user, group_id=where.group).owner]
        people = None if person_id is None else [check_id("person_id", person_id)]
        when = None if at is None else validate.timestamp(at, "at")
        near = () if when is None else (*agenda_window(when.date(), self.settings), "open")
        found = await asyncio.to_thread(self._store.plans.agenda, where.tenant, where.agent, owners, people, *near)
        # asked at a time, the plans stated after it are not known yet
        return found if when is None else await asyncio.to_thread(stated_by, self._store.turns, found, epoch(when))

    async def profile(self, /, person_id: str | None = None, *, history: bool = False,
                      **scope: Any) -> list[Fact]:
        """What is known about a person: current facts; ``history=True`` adds superseded and
        conflicting ones. With ``group_id``: only what was learned in that group (and their
        private chat's facts if ``PMEMO_PRIVATE_FACTS_IN_GROUPS``); without: everywhere, the
        newest value of each fact current. With no person: every fact of the user or group.

        >>> facts = await mem.profile("alice", group_id="study")  # doctest: +SKIP
        >>> [(f.key, f.value, f.confidence) for f in facts]  # doctest: +SKIP
        """
        if person_id is None:
            return await asyncio.to_thread(self._store.profile.facts, scope_of(scope), history)
        check_id("person_id", person_id)
        tenant, agent = tenant_agent(scope)
        owner = scope_of(scope).owner if names_chat(scope) else None
        return await asyncio.to_thread(profile_view, self._store, tenant, agent, person_id, owner,
                                       history, self.settings.private_facts_in_groups)
