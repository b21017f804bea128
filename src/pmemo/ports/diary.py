"""The diary port (issue 20): one entry per owner scope and local day, with its source turns and
vector, and what the diary schedule reads and writes (the days waiting to come due).

A store gives it as ``store.diary``. It imports only the models. One contract suite
(tests/contract/test_diary_contract.py) runs it on SQLite and Postgres.

>>> store.diary.diaries(scope, date(2026, 12, 1), date(2026, 12, 7), sources=False)  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date
from typing import Any, NamedTuple, Protocol

from ..models import Diary, Scope, Turn


class TurnStamp(NamedTuple):
    """What the diary schedule needs of a new turn: whose it is, when, and who spoke."""

    id: int
    tenant: str
    agent: str
    owner: str
    epoch: float  # seconds since 1970, UTC
    role: str


class Waiting(NamedTuple):
    """A day of a chat with turns the diary schedule saw before the day was due."""

    tenant: str
    agent: str
    owner: str
    day: str  # ISO date
    due: float  # epoch seconds
    last: int  # the last turn id seen of that day


class NewDiary(NamedTuple):
    """An entry to write (``put_diaries``): ``put_diary``'s arguments but the model."""

    scope: Scope
    day: date
    text: str
    method: str
    source_ids: list[int]
    vector: Any


class DiaryPort(Protocol):
    def put_diary(self, scope: Scope, day: date, text: str, method: str, source_ids: list[int],
                  vector: Any, model: str) -> Diary:
        """Write or replace (same id) the day's entry with its sources and vector (a float32 row of
        embedding ``model``), in one transaction."""
        ...

    def put_diaries(self, new: Sequence[NewDiary], model: str) -> list[Diary]:
        """``put_diary`` of each of ``new`` (days of different chats or dates), in one transaction
        of a few statements however many, in ``new``'s order."""
        ...

    def get_diary(self, scope: Scope, day: date) -> Diary | None: ...

    def diaries_on(self, days: Sequence[tuple[Scope, date]]) -> dict[tuple[str, date], Diary]:
        """The entries of these (owner scope, day) pairs that exist, without their sources, by
        (scope key, day): one read."""
        ...

    def diaries(self, scope: Scope, start: date | None = None, end: date | None = None,
                sources: bool = True) -> list[Diary]:
        """Oldest first, ``start`` to ``end`` inclusive (either open); ``sources=False``: without
        source turns (a day has hundreds: ranking needs none)."""
        ...

    def get_diaries(self, ids: Iterable[int], sources: bool = True) -> dict[int, Diary]:
        """The ones found, by id."""
        ...

    def diaries_with(self, turn_ids: list[int]) -> list[Diary]:
        """Entries written from any of these turns (also once the turns are deleted)."""
        ...

    def delete_diary(self, diary_id: int) -> None: ...

    def stale_diaries(self, model: str) -> list[int]:
        """Entries with no vector of ``model`` (the embedder changed since they were written), by id."""
        ...

    def day_turns(self, scope: Scope, start: float, end: float) -> list[Turn]:
        """Turns with ``start <= ts < end`` (epoch seconds), in time order."""
        ...

    def days_turns(self, days: Sequence[tuple[Scope, float, float]]) -> list[list[Turn]]:
        """``day_turns`` of each (scope, start, end), in one read."""
        ...

    def turns_after(self, turn_id: int, limit: int) -> list[TurnStamp]:
        """Turns with an id above ``turn_id``, by id: the ones stored since a scan."""
        ...

    def diary_queued(self, payload: dict[str, Any]) -> bool:
        """Whether a diary job for this payload waits or runs already."""
        ...

    def queue_diaries(self, payloads: list[dict[str, Any]], mark_key: str, mark: int,
                      waiting: Sequence[Waiting] = (), ripe: Sequence[Waiting] = ()) -> None:
        """In one transaction: queue diary jobs, set the schedule's mark, note the days ``waiting``
        (their last turn seen is kept) and drop the ``ripe`` ones."""
        ...

    def diaries_waiting(self, until: float) -> list[Waiting]:
        """The waiting days due by ``until``, soonest first."""
        ...

    def next_waiting(self) -> float | None:
        """When the first waiting day is due."""
        ...
