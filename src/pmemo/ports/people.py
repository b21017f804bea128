"""The people port: each tenant's person registry, the names people go by, where they speak
(issue 17), and the gender evidence the pronoun resolver reads (people/guesses.py).

What the people tier, the resolvers and the read plan ask of a store; a store gives it as
``store.people`` (its old method names, ``store.add_person`` …, delegate to it). It imports only
the models. Who spoke where is written with the turns, in their transaction, not through this
port. One contract suite (tests/contract/test_people_contract.py) runs it on SQLite and Postgres.

>>> store.people.add_person("acme", "ni", "Ni Hao", ["xiao ni"])  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple, Protocol

from ..models import Member, Person, Scope


class NewAlias(NamedTuple):
    """An alias to record: whose, where it came from, and the turn that taught it."""

    person: str
    alias: str
    source: str  # models.ALIAS_SOURCES
    owner: str | None  # the group or private chat it came from; None: tenant-wide
    at: float
    turn_id: int | None = None


class NewSign(NamedTuple):
    """Evidence of a person's gender (people/guesses.py): ``source`` platform, self or pronoun;
    ``turn_id`` the turn that gave it (0 for the platform's word, kept once a value)."""

    person: str
    source: str
    gender: str  # "f" or "m"
    turn_id: int
    at: float


class PeoplePort(Protocol):
    """The person registry of each tenant: names, aliases, where people speak."""

    def add_person(self, tenant: str, person: str, name: str | None, aliases: Iterable[str],
                   member_of: Scope | None = None) -> None:
        """Create or update a person; aliases are merged (a removed one given again is back).
        ``member_of``: a group or private chat they belong to before they speak there."""
        ...

    def add_aliases(self, tenant: str, rows: Sequence[NewAlias]) -> int:
        """Aliases pmemo found (learned, mentions, generated); one a person had removed stays
        removed. Returns how many are new."""
        ...

    def remove_alias(self, tenant: str, person: str, alias: str) -> int:
        """Mark an alias removed (every source of it); returns how many rows it had."""
        ...

    def alias_version(self, tenant: str) -> int:
        """Counts the tenant's alias changes: a resolver built at one version is good until it moves."""
        ...

    def alias_rows(self, tenant: str) -> list[tuple[str, str, str, str | None]]:
        """(alias, person, source, owner) of every alias in use: a learned or @-mentioned one's
        owner is the chat it was said in; the other sources' is where they were first seen."""
        ...

    def add_signs(self, tenant: str, rows: Sequence[NewSign]) -> int:
        """Record gender evidence (a row again is nothing new); returns how many rows are new."""
        ...

    def sign_version(self, tenant: str) -> int:
        """Counts the tenant's new gender evidence, as ``alias_version`` counts aliases."""
        ...

    def signs(self, tenant: str) -> list[tuple[str, str, str, int]]:
        """(person, source, gender, how many) of the tenant's gender evidence."""
        ...

    def member_ids(self, scope: Scope) -> set[str]:
        """The ids of the members of the scope's owner (a group or private chat)."""
        ...

    def get_people(self, tenant: str, ids: Iterable[str]) -> dict[str, Person]:
        """The people with these ids that exist in the tenant, with their names and aliases."""
        ...

    def members(self, scope: Scope, people: Sequence[str] | None = None) -> list[Member]:
        """The members of the scope's owner, latest speaker first, then those who never spoke;
        ``people``: only those."""
        ...

    def person_owners(self, tenant: str, person: str) -> list[str]:
        """Where a person spoke (owners), oldest first."""
        ...

    def turns_naming(self, tenant: str, taught_by: list[int], first_names: bool = False) -> list[int]:
        """The tenant's user turns, other than ``taught_by``, whose text holds an alias one of them
        taught; with ``first_names``, a display name first used in one of them instead, and only the
        turns older than the newest of them."""
        ...

    def turns_by(self, tenant: str, person: str, scope: Scope | None = None) -> list[int]:
        """The turns a person said, in one group or chat (``scope``'s owner) or anywhere in the tenant."""
        ...
