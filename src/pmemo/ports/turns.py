"""The turns port: what was said, in which chat and session, by whom and when, as the store keeps it.

A write stores its turns in one transaction, numbered per session, with who spoke where and the
jobs that digest them; with an idempotency key (``Once``) a retry stores nothing twice. Reads go by
id (``get_turns``, the lighter ``turn_refs``), by chat and time (``list_turns``, ``last_turns``,
``chat_latest``) and by words (``lexical``: the store's keyword index). A store gives it as
``store.turns``; it imports only the models. tests/contract/test_store_contract.py runs it on SQLite
and Postgres.

>>> store.turns.last_turns(Scope.of(user_id="u1"), "s1", 10)  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any, NamedTuple, Protocol

from ..models import Scope, Turn


@dataclass(frozen=True)
class NewTurn:
    scope: Scope  # session_id set
    role: str
    content: str
    actor: str | None
    timestamp: datetime
    metadata: dict[str, Any]
    index_text: str  # segmented text for the lexical index
    actor_id: str | None = None
    # what it answers (issue 44 §2), resolved by the store in the write's transaction (replies.py):
    # a turn id of its chat, else the platform's id of the message (metadata message_id of an
    # earlier turn), else the quote its text opens with
    reply_to: int | None = None
    reply_message: str | None = None
    quote: Any = None  # a text.quotes.Quote (the port names no type outside the models)
    address: Any = None  # a text.quotes.Address: it opens with "@提问的人": that person's latest question


@dataclass(frozen=True)
class Once:
    """An idempotency key: a write retried with the same ``key`` stores nothing twice and
    gets the first write's turns; the same key with another ``fingerprint`` (other turns)
    is a Conflict. Kept for ``IDEMPOTENCY_HOURS``."""

    tenant: str
    key: str
    fingerprint: str


IDEMPOTENCY_HOURS = 24


class TurnRef(NamedTuple):
    """What ranking needs of a turn, without its metadata or a Turn to build: a search
    weighs a few hundred candidates and shows ten (a tuple: it is built that often per
    search)."""

    id: int
    scope_key: str
    session: str
    step: int
    actor: str | None
    epoch: float  # seconds since 1970, UTC
    offset: int | None  # the turn's UTC offset in seconds; None for a naive (UTC) timestamp
    content: str
    role: str
    actor_id: str | None  # the speaker's person id, when the turn was added with one
    cluster: int | None  # the mid-term cluster the turn is in, if any

    @property
    def day(self) -> date:
        """The calendar day in the turn's own time zone, as ``Turn.timestamp.date()``."""
        utc = datetime.fromtimestamp(self.epoch, UTC)
        return (utc + timedelta(seconds=self.offset or 0)).date()



class TurnPort(Protocol):
    """The turns of every chat: written with their idempotency key, read by id, by chat and by time,
    and searched by their words."""


    def add_turns(self, turns: list[NewTurn], once: Once | None = None) -> list[Turn]:
        """Store turns in one transaction; with ``once``, a write already made returns its turns."""
        ...

    def replay(self, once: Once) -> list[Turn] | None:
        """The turns a write with this idempotency key stored, or None for a new key."""
        ...

    def get_turns(self, ids: Iterable[int]) -> dict[int, Turn]: ...

    def turn_refs(self, ids: Iterable[int], radius: int = 0, around: Iterable[int] = ()) -> dict[int, TurnRef]:
        """The refs of turns ``ids``, and with ``radius`` > 0 those of the turns up to that
        many steps before or after each turn of ``around`` in its session and scope (that
        turn included): one read for a search's candidates and its seeds' neighbours."""
        ...

    def turn_times(self, ids: Iterable[int]) -> dict[int, float]:
        """When each of the turns ``ids`` that exist was said, in epoch seconds: what a read
        asked at a time checks its candidates and records' sources against (``retrieval.asof``)."""
        ...

    def list_turns(self, scope: Scope, *, session_id: str | None, limit: int, offset: int,
                   since: datetime | None, until: datetime | None, actor_id: str | None = None,
                   actor: str | None = None, text: str | None = None, first: str | None = None) -> list[Turn]:
        """Oldest first; ``actor_id`` / ``actor``: only what that person id / display name said;
        ``text``: only the turns whose content holds it, in any case; ``first``: that person id's
        turns before the others'."""
        ...

    def turns_with_terms(self, scope: Scope, terms: Sequence[str]) -> list[int]:
        """The scope's turns whose own indexed words (``segment``) hold every one of ``terms``."""
        ...

    def last_turns(self, scope: Scope, session_id: str, n: int, until: float | None = None) -> list[Turn]:
        """The session's last ``n`` turns, oldest first; with ``until`` (epoch seconds), the last
        said at or before it (a context asked then)."""
        ...

    def spoken(self, scope: Scope, people: Sequence[str], until: float) -> dict[str, tuple[float, float, int]]:
        """Per person id, what they said in the scope's owner at or before ``until``: (first and
        last time, in epoch seconds, and how many turns); people who had not spoken yet are absent."""
        ...

    def reply_links(self, ids: Iterable[int]) -> dict[int, list[int]]:
        """For each of ``ids`` that has any, the turns it answers and that answer it (``reply_to``
        both ways), by id."""
        ...

    def chat_latest(self, scope: Scope, until: float) -> tuple[str, float] | None:
        """The session and instant (epoch seconds) of the owner's latest turn at or before
        ``until``, or None: where a turn sent without a session joins (chat_sessions.py)."""
        ...

    def turn_at(self, scope: Scope, session_id: str, step: int) -> Turn | None: ...

    def sessions(self, scope: Scope) -> list[dict[str, Any]]: ...

    def owners(self, tenant_id: str, agent_id: str) -> list[str]: ...

    def max_steps(self, scope: Scope, sessions: Iterable[str]) -> dict[str, int]: ...

    def actors(self, scope: Scope) -> list[str]: ...  # who speaks in the scope's turns, sorted

    def lexical(self, scope: Scope, terms: list[str], limit: int,
                session_id: str | None = None, until: float | None = None) -> list[tuple[int, float]]:
        """Turns with any of ``terms``, best first (higher score better); a term given n
        times counts n times (the query's term frequency). ``until`` (epoch seconds): only
        turns said at or before it."""
        ...

    def delete_turns(self, ids: list[int]) -> int: ...

    def turn_ids(self, scope: Scope, session_id: str | None = None) -> list[int]: ...
