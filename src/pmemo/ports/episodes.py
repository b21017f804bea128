"""The episodes port: what happened in a finished session, a compacted span or a finished task,
with the turns it came from and how often a context showed it.

A store gives it as ``store.episodes`` (``store.episodes(scope)`` was the store's listing method:
it is ``store.episodes.episodes(scope)``). It imports only the models.
tests/contract/test_profile_contract.py runs it on SQLite and Postgres.

>>> store.episodes.episode_signals(scope.owner_scope(), qvec)  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple, Protocol

from ..models import Episode, Scope, Turn


class EpisodeSignal(NamedTuple):
    """What ranking an episode needs, without reading it: a context weighs every episode of
    its owner and shows two or three."""

    id: int
    ended: float  # seconds since 1970, UTC
    importance: float
    similarity: float | None  # its stored vector's inner product with the query; None: no query or no such vector


class NewEpisode(NamedTuple):
    """An episode to write (``add_episodes``): ``add_episode``'s arguments."""

    scope: Scope
    kind: str
    fields: dict[str, Any]
    source_ids: list[int]


class OpenSession(NamedTuple):
    """A session ``open_turns`` found finished: when it was last spoken in, and its turns past
    what its episodes cover, by step."""

    session: str
    last: float  # seconds since 1970, UTC
    turns: list[Turn]


class EpisodePort(Protocol):
    def add_episode(self, scope: Scope, kind: str, fields: dict[str, Any], source_ids: list[int]) -> Episode:
        """An episode of ``kind`` ("session", "compaction", "task") of ``scope``'s session, with its
        source turns, in one transaction. ``fields``: summary, started, ended (epoch seconds) and
        optionally topics, actions, outcomes, lessons, importance, step_from, step_to."""
        ...

    def add_episodes(self, new: list[NewEpisode]) -> list[Episode]:
        """``add_episode`` of each of ``new``, in one transaction (a few statements however many),
        in ``new``'s order."""
        ...

    def update_episode(self, episode_id: int, fields: dict[str, Any], source_ids: list[int]) -> None:
        """New text and sources; the vector of the old text goes (it is made again from the new)."""
        ...

    def get_episode(self, episode_id: int) -> Episode | None: ...

    def get_episodes(self, ids: Iterable[int]) -> list[Episode]:
        """The live ones of these episodes, in ``ids``' order."""
        ...

    def episodes(self, scope: Scope, session_id: str | None = None) -> list[Episode]:
        """The owner ``scope``'s live episodes (of one session), by when they ended."""
        ...

    def episode_signals(self, scope: Scope, query: Any) -> list[EpisodeSignal]:
        """Each live episode of ``scope``, as its ranking needs it (``EpisodeSignal``): one read,
        with its vector's similarity to ``query`` (a vector, or None) worked out where the vector is."""
        ...

    def episodes_with(self, turn_ids: list[int]) -> list[Episode]:
        """The episodes one of ``turn_ids`` is a source of (read after the turns are gone too), by id."""
        ...

    def delete_episode(self, episode_id: int) -> None:
        """The episode, its sources and its vector are gone."""
        ...

    def touch_episodes(self, ids: list[int], now: float) -> None:
        """One read each (an id given twice was read twice), the last at ``now``."""
        ...

    def covered_steps(self, scope: Scope, session_id: str, kinds: tuple[str, ...]) -> int:
        """The last step of a session already folded into an episode of these kinds (0: none)."""
        ...

    def open_sessions(self, scope: Scope, before: float, kind: str) -> list[str]:
        """The scope's sessions last spoken in before ``before`` (epoch seconds) that hold turns past
        what its episodes of ``kind`` cover, oldest first (one query, not one per session)."""
        ...

    def open_turns(self, scope: Scope, before: float, kind: str) -> list[OpenSession]:
        """``open_sessions``, oldest first, each with its turns that no episode of ``kind`` covers:
        one read for what closing them needs."""
        ...
