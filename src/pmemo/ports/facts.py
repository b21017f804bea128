"""The facts port: what is known about people, one row per value, with its history (a changed
value supersedes the old one, ``valid_to`` set) and the turns that stated it.

A store gives it as ``store.profile`` (``store.facts`` … were the store's methods; the ones
``pipelines/extraction.py`` calls stay there, each the port's call). It imports only the models.
tests/contract/test_profile_contract.py runs it on SQLite and Postgres. A change that belongs
with other rows (a fact corrected with its triples, a fact dropped with its triples and its log)
is one ``store.tx()``.

Updates check the version that was read and raise ``pmemo.errors.Conflict`` when it moved on.

>>> store.profile.facts_about("acme", "bot", "ni", owners=["g:team"])  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from ..models import Candidate, Decision, Fact, Scope

ANY = "*"  # facts(subject=ANY): about anyone (no person id is "*")


class FactPort(Protocol):
    def facts(self, scope: Scope, history: bool = False, subject: str | None = ANY) -> list[Fact]:
        """The owner ``scope``'s facts by category, key, version; ``history``: superseded, expired and
        conflicting ones too; ``subject``: only about that person (None: about the owner; "*": anyone)."""
        ...

    def facts_about(self, tenant: str, agent: str, subject: str, owners: list[str] | None = None,
                    history: bool = False) -> list[Fact]:
        """A person's facts wherever they were learned, or only in ``owners`` (groups, chats)."""
        ...

    def get_fact(self, fact_id: int) -> Fact | None: ...

    def facts_with(self, turn_ids: list[int]) -> list[Fact]:
        """The facts one of ``turn_ids`` is a source of (read after the turns are gone too), by id."""
        ...

    def upsert_fact(self, scope: Scope, decision: Decision, cand: Candidate, turn_id: int | None,
                    at: float) -> Fact | None:
        """Apply one upsert decision (``tiers.profile.decide``) in one transaction; ``Conflict`` if a
        fact it read changed meanwhile."""
        ...

    def expire_fact(self, fact_id: int, at: float) -> None:
        """A current fact ends at ``at`` (status expired)."""
        ...

    def unexpire_fact(self, fact_id: int) -> None:
        """An expired fact is current again (a current one is left alone)."""
        ...

    def drop_fact_sources(self, fact_id: int, turn_ids: Iterable[int]) -> None:
        """A forgotten turn leaves a fact that other turns also stated: one mention less each."""
        ...

    def edit_fact(self, fact_id: int, value: str, version: int | None, at: float) -> Fact:
        """A current fact's value set by hand: the row keeps its id and sources, its version goes
        up by one and its source becomes "edited"; the value it had stays in the history as a
        superseded copy (with the same sources). ``version``: the one read (else ``Conflict``)."""
        ...

    def delete_fact(self, fact_id: int) -> None:
        """The fact and its sources are gone."""
        ...

    def reinstate_fact(self, fact_id: int) -> None:
        """A superseded fact becomes current again (its successor was forgotten)."""
        ...
