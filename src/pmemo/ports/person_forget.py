"""The person-forget port (issue 44 §7): what forgetting a person takes besides their turns.

Their turns go by the ordinary forget of turns; this port is the rest: the facts about them or
naming them (whoever said them), the triples whose subject or object they are, their agenda
items and insights, and the registry (everywhere: the person with every alias and membership;
in one chat: their membership there and the aliases learned or @-mentioned there). A store gives
it as ``store.person_forget``; the whole forget (this, their turns, what was derived from them,
the batch's log) is one ``store.tx()`` in ``forgetting.explicit.Forgetter``, and so is a restore.
It imports only the models. tests/contract/test_person_forget_contract.py runs it on SQLite and
Postgres.

>>> held = store.person_forget.person_rows("default", "zhou_ni")  # doctest: +SKIP
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from ..models import Scope


@dataclass(frozen=True)
class HeldRows:
    """The rows about one person a forget takes: ids of facts (about them, or naming them in
    their value or a triple: ``stores.person_forget.naming_facts``), of facts that keep but lose
    the mention, triples (theirs, or saying such a fact), agenda items, insights and their graph
    entities (everywhere only); the aliases and the owners (memberships) that go; the owner scopes
    the rows are in; whether the person record itself goes; and the system notices about them
    (turns whose metadata names them as ``person``), which go with their turns."""

    person: bool
    facts: tuple[int, ...] = ()
    unnamed: tuple[int, ...] = ()  # facts about someone else that only mention them: the mention goes
    triples: tuple[int, ...] = ()
    agenda: tuple[int, ...] = ()
    insights: tuple[int, ...] = ()
    entities: tuple[int, ...] = ()
    aliases: tuple[str, ...] = ()
    owners: tuple[str, ...] = ()
    scopes: tuple[str, ...] = ()
    notices: tuple[int, ...] = ()  # system notices about them (metadata "person": "X 修改群名片为 Y")
    names: tuple[str, ...] = ()  # the names they went by (not the generated forms): out of kept clauses

    @property
    def empty(self) -> bool:
        return not (self.person or self.facts or self.triples or self.agenda or self.insights or self.entities
                    or self.aliases or self.owners or self.notices)


class PersonForgetPort(Protocol):
    def person_rows(self, tenant: str, person: str, where: Scope | None = None) -> HeldRows:
        """The rows about ``person`` (everywhere in the tenant, or in ``where``'s owner scope)."""
        ...

    def forget_person(self, batch: int, tenant: str, person: str, where: Scope | None = None) -> HeldRows:
        """Snapshot those rows into ``batch`` (the registry's as one tombstone of kind ``person``)
        and delete them, in one transaction (the caller's ``tx()``, when one is open); the tenant's
        alias and entity versions move on."""
        ...

    def put_back_person(self, data: dict[str, Any]) -> None:
        """A ``person`` tombstone's registry rows back (a row made again meanwhile is kept): what a
        restore of the batch does with it, in the restore's transaction."""
        ...

    def scrub_mentions(self, tenant: str, person: str) -> int:
        """Their id out of other turns' metadata (a hard forget); returns how many turns changed."""
        ...
