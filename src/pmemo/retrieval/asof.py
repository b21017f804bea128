"""A read asked at a time T knows nothing said after T (issue 44 §5, "Time").

``search(at=T)`` and ``context(at=T)`` look only at what had been said by T, so a replayed
history gets the answers it would have got live. Without ``at`` nothing is cut (a turn stamped
in the future by a skewed clock still counts). What each tier keeps:

- turns: those said at or before T (keyword and vector candidates, their neighbours, the
  session's recent turns);
- records made from turns (summaries, episodes, diary days, key lines promoted from a cluster):
  left out when any turn they were made from was said after T, since they may tell of it; key
  lines set by hand have no turns and stay, as memory blocks do;
- people's facts: the ones stated by T (``valid_from``), as they stood then: a value superseded
  after T is still the current one (``tiers.people.facts_at``);
- the agenda: plans stated by T; "last spoke" and message counts: what a member had said by T;
- the graph: triples that held at T.

Clusters only rank (a recalled cluster lifts its turns); their centroids may hold later turns,
but nothing of a cluster is shown.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from typing import Protocol, TypeVar

from ..models import SAID_IN_A_CHAT, AgendaItem, Member, Person

R = TypeVar("R")


class _Times(Protocol):  # a store's turns (``ports.turns.TurnPort``)
    def turn_times(self, ids: Iterable[int]) -> dict[int, float]: ...


def aware(at: datetime) -> datetime:
    """``at`` with its time zone; a naive time is UTC, as a turn's is."""
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def epoch(at: datetime) -> float:
    """``at`` in seconds since 1970 (a naive time is UTC)."""
    return aware(at).timestamp()


def made_by(turns: _Times, records: Sequence[R], sources: Callable[[R], Iterable[int]],
            until: float | None) -> list[R]:
    """The ``records`` none of whose ``sources`` (turn ids) was said after ``until``: one read
    of their turns' times for all of them. A record without sources stays."""
    if until is None or not records:
        return list(records)
    ids = {i for r in records for i in sources(r)}
    later = {i for i, said in turns.turn_times(ids).items() if said > until} if ids else set()
    return [r for r in records if later.isdisjoint(sources(r))]


def first_made(turns: _Times, fetch: Callable[[int], list[R]], depth: int, sources: Callable[[R], Iterable[int]],
               until: float | None) -> list[R]:
    """The first ``depth`` records ``fetch(n)`` gives (best first, at most n) that were made by
    ``until`` (``made_by``): ``depth`` are read, and five times as many only when some of them
    were made later. Without ``until``, ``fetch(depth)``."""
    found = fetch(depth)
    if until is None:
        return found
    kept = made_by(turns, found, sources, until)
    if len(kept) == len(found) or len(found) < depth:
        return kept
    return made_by(turns, fetch(depth * 5), sources, until)[:depth]


def stated_by(turns: _Times, items: Sequence[AgendaItem], until: float | None) -> list[AgendaItem]:
    """The plans among ``items`` stated by ``until`` (their turn said at or before it)."""
    return made_by(turns, items, lambda i: () if i.turn_id is None else (i.turn_id,), until)


SIGHTED = ("name", *SAID_IN_A_CHAT)  # names met on a turn, with its time; registered and generated ones have none


def person_at(person: Person, at: datetime) -> Person:
    """A person with the names they went by at ``at``: a display name or nickname first met on
    a turn after it is not known yet, and their name is the latest display name they had taken
    by then. Names registered by hand or generated from a name stay.

    >>> from pmemo.models import Alias
    >>> d = lambda day: datetime(2026, 12, day, tzinfo=UTC)
    >>> ni = Person("ni", "default", "Neko", ("周霓", "Neko"), (Alias("周霓", "name", None, d(1), d(9)),
    ...             Alias("霓霓", "learned", "g:g", d(3), d(3)), Alias("Neko", "name", None, d(9), d(9))),
    ...             d(1), d(9), 5)
    >>> then = person_at(ni, d(5))
    >>> then.name, then.names, [a.alias for a in then.aliases]
    ('周霓', ('周霓',), ['周霓', '霓霓'])
    """
    known = tuple(a for a in person.aliases if a.source not in SIGHTED or a.first_seen <= at)
    names = {a.alias: a.first_seen for a in known if a.source == "name"}
    name = max(names, key=lambda n: names[n]) if names else person.name
    return dataclasses.replace(person, aliases=known, names=tuple(n for n in person.names if n in names), name=name)


def member_at(member: Member | None, spoken: tuple[float, float, int] | None) -> Member | None:
    """A member as they were at the time ``spoken`` was read for (``FullStore.spoken``: their
    first and last time and count of turns by then): None before they said anything; how
    they talk is scaled to what they had said."""
    if member is None or spoken is None or not spoken[2]:
        return None
    first, last, n = spoken
    share = n / member.messages if member.messages else 1.0
    return dataclasses.replace(member, first_seen=datetime.fromtimestamp(first, UTC),
                               last_seen=datetime.fromtimestamp(last, UTC), messages=n,
                               chars=round(member.chars * share), han=round(member.han * share),
                               asks=round(member.asks * share))
