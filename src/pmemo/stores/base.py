"""Store Protocols: what the tiers need from a database.

Being split into ports, one per concern (issue 45 §1, ``pmemo.ports``): the graph's and the
people's are there, and their values (``EntityRef``, ``NewTriple``, ``TripleView``, ``NewAlias``,
``NewSign``) are re-exported from them here.

One contract test suite (tests/contract) runs against every implementation; SQLite is
the embedded default, Postgres the scale-out one. Methods are blocking; the async core
calls them off the event loop.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import date
from typing import NamedTuple, Protocol

import numpy as np

from ..models import (
    AgendaItem,
    Diary,
    Fact,
    KeyLine,
    Member,
    Person,
    Scope,
    Summary,
    Task,
)
from ..ports.agenda import AgendaPort
from ..ports.batches import BatchPort
from ..ports.clusters import ClusterPort
from ..ports.clusters import HitDecay as HitDecay  # re-exported: the clusters port's value
from ..ports.diary import DiaryPort
from ..ports.diary import TurnStamp as TurnStamp  # re-exported: the diary port's values
from ..ports.diary import Waiting as Waiting
from ..ports.episodes import EpisodePort
from ..ports.episodes import EpisodeSignal as EpisodeSignal  # re-exported: the episodes port's value
from ..ports.facts import FactPort
from ..ports.forget import ForgetPort
from ..ports.graph import EntityRef as EntityRef  # re-exported: the graph port's values
from ..ports.graph import GraphPort
from ..ports.graph import NewTriple as NewTriple
from ..ports.graph import TripleView as TripleView
from ..ports.jobs import Job as Job  # re-exported: the job port's values
from ..ports.jobs import JobPort
from ..ports.key_lines import KeyLinePort
from ..ports.locks import OWNER_WAIT_S as OWNER_WAIT_S  # re-exported: the lock port's wait
from ..ports.locks import LockPort
from ..ports.owners import OwnerPort
from ..ports.people import NewAlias as NewAlias  # re-exported: the people port's values
from ..ports.people import NewSign as NewSign
from ..ports.people import PeoplePort
from ..ports.person_forget import HeldRows as HeldRows  # re-exported: the person-forget port's value
from ..ports.person_forget import PersonForgetPort
from ..ports.records import RecordPort
from ..ports.summaries import SummaryPort
from ..ports.tasks import TaskPort
from ..ports.turns import IDEMPOTENCY_HOURS as IDEMPOTENCY_HOURS  # re-exported: the turns port's values
from ..ports.turns import NewTurn as NewTurn
from ..ports.turns import Once as Once
from ..ports.turns import TurnPort
from ..ports.turns import TurnRef as TurnRef
from ..ports.usage import Usage as Usage  # re-exported: the usage port's value
from ..ports.usage import UsagePort
from ..ports.vectors import EmbedCachePort, MetaPort, VectorPort
from ..ports.windows import WindowPort


class TurnStore(Protocol):
    @property
    def turns(self) -> TurnPort:
        """The turns (``pmemo.ports.turns``)."""
        ...


# Vector kinds whose ref is a turn id: "turn" (the embedder's) and "turn2" (the second
# encoder's, setting second_encoder). A deleted turn takes its vectors of each along.
TURN_VECTOR_KINDS = ("turn", "turn2")


class VectorStore(Protocol):
    """A store's vectors (``store.vectors``), settings (``store.meta``) and embedding cache
    (``store.embed_cache``): ports of ``pmemo.ports.vectors``."""

    @property
    def vectors(self) -> VectorPort:
        """The stored vectors and their search (``pmemo.ports.vectors``)."""
        ...

    @property
    def meta(self) -> MetaPort: ...

    @property
    def embed_cache(self) -> EmbedCachePort: ...


class DerivedStore(Protocol):
    """What the tiers derive from turns, each a port keeping the turn ids it came from: the mid-term
    clusters (``pmemo.ports.clusters``), the long-term summaries (``summaries``), the key lines."""

    @property
    def clusters(self) -> ClusterPort: ...
    @property
    def summaries(self) -> SummaryPort: ...
    @property
    def key_lines(self) -> KeyLinePort: ...


# the job port's retry policy (``JobPort.fail``): here, where the stores' shared SQL reads it
BACKOFF_BASE_S = 1.0  # a job failed with retry is due again after 1, 2, 4 … seconds
BACKOFF_MAX_S = 600.0  # and never later than this


def backoff_s(attempts: int) -> float:
    """How long a job that failed on try number ``attempts`` waits before the next one.

    >>> [backoff_s(n) for n in (1, 2, 3)], backoff_s(40)
    ([1.0, 2.0, 4.0], 600.0)
    """
    return min(BACKOFF_BASE_S * 2.0 ** min(max(attempts - 1, 0), 30), BACKOFF_MAX_S)


class LockStore(Protocol):
    """A store with named locks every process on it shares: the port (``pmemo.ports.locks``) is
    its ``locks`` attribute (``store.locks.hold(names)``)."""

    @property
    def locks(self) -> LockPort: ...


class Store(TurnStore, VectorStore, DerivedStore, LockStore, Protocol):
    @property
    def jobs(self) -> JobPort:
        """The job queue (``pmemo.ports.jobs``)."""
        ...

    def stats(self, tenant_id: str | None = None, *, agent_id: str | None = None,
              owner: str | None = None) -> dict[str, int]: ...
    def size_bytes(self) -> int:
        """Bytes the store's files take on disk."""
        ...
    def close(self) -> None: ...


class ProfileStoreProtocol(Protocol):
    """Records and forgetting (issue 5); the facts, episodes, tasks, records, forget batches and
    their tombstones are ports (``profile``, ``episodes``, ``tasks``, ``records``, ``batches``,
    ``forget``), and so are the owners and their clock (``owners``).

    Updates take the version read and raise ``pmemo.errors.Conflict`` when it moved on.
    """

    @property
    def profile(self) -> FactPort:
        """The facts (``pmemo.ports.facts``)."""
        ...

    @property
    def episodes(self) -> EpisodePort:
        """The episodes (``pmemo.ports.episodes``)."""
        ...

    @property
    def owners(self) -> OwnerPort:
        """Whose rows there are and each owner's conversation clock (``pmemo.ports.owners``)."""
        ...

    @property
    def tasks(self) -> TaskPort:
        """The tasks (``pmemo.ports.tasks``)."""
        ...

    @property
    def records(self) -> RecordPort:
        """The long-term records (``pmemo.ports.records``)."""
        ...

    @property
    def batches(self) -> BatchPort:
        """The forget batches and their log (``pmemo.ports.batches``)."""
        ...

    @property
    def forget(self) -> ForgetPort:
        """The tombstones of forget batches and the soft deletes (``pmemo.ports.forget``)."""
        ...


# the person registry (issue 17) is a port: ``pmemo.ports.people``; ``PeopleStore`` is its old name
PeopleStore = PeoplePort


class AgendaStore(Protocol):
    """Dated plans of people: the port (``pmemo.ports.agenda``) is its ``plans`` attribute."""

    @property
    def plans(self) -> AgendaPort: ...


class UsageStore(Protocol):
    """A store that keeps each tenant's usage as turns are written and deleted: the port
    (``pmemo.ports.usage``) is its ``quotas`` attribute."""

    @property
    def quotas(self) -> UsagePort: ...


# ---- diary (issue 20) ------------------------------------------------------------------------
class DiaryStore(Protocol):
    """A store with a diary: the port (``pmemo.ports.diary``) is its ``diary`` attribute."""

    @property
    def diary(self) -> DiaryPort: ...


# ---- L2 windows (issue 20) -------------------------------------------------------------------
# L2 windows are a port: ``pmemo.ports.windows``; ``WindowStore`` is its old name
WindowStore = WindowPort


CLUSTERS = "cluster"  # ``ReadPlanStore.nearest_kinds``: the nearest by centroid (``clusters.nearest_clusters``)


class ChatState(NamedTuple):
    """The small state of one chat a read checks its caches against and collects ids from,
    read in one call (``ReadPlanStore.chat_state``): each field is what the named call gives."""

    aliases: int  # the tenant's alias version (``alias_version``)
    signs: int  # its gender evidence's (``sign_version``)
    entities: int  # its entity names' (``graph.entity_version``)
    members: frozenset[str]  # the chat's members (``member_ids`` of the owner)
    actors: tuple[str, ...]  # who speaks in its turns, sorted (``actors``)
    now: float | None  # its newest turn's time (``conversation_now``)
    owners: tuple[str, ...]  # a private chat's person's chats, oldest first (``person_owners``); () in a group
    latest: tuple[int, ...]  # the session's newest summaries' ids, oldest first (``summaries.of_scope``)
    keys: tuple[KeyLine, ...]  # its key lines (``keys``)


class TurnPool(NamedTuple):
    """What ranking needs of its candidates, in one call (``ReadPlanStore.turn_pool``)."""

    refs: dict[int, TurnRef]  # the candidates, the turns their replies tie them to, their neighbours
    links: dict[int, list[int]]  # ``reply_links`` of every ref
    vectors: dict[int, np.ndarray]  # the refs' stored vectors of the kind asked (``get_vectors``)
    last_steps: dict[str, int]  # each ref's session's last step (``max_steps``)


class PeopleKnown(NamedTuple):
    """What a chat knows of some people, in one call (``ReadPlanStore.people_known``)."""

    members: dict[str, Member]  # those who are members of the chat (``members``)
    people: dict[str, Person]  # those who are registered, members or not (``get_people``)
    facts: dict[str, list[Fact]]  # each one's facts learned where asked (``facts_about``)
    agenda: list[AgendaItem]  # their plans asked for (``agenda``), by day


class ReadPlanStore(Protocol):
    """The reads of one ``context()`` or ``search()`` in few calls (issue 45 §4): the chat's small
    state first, then each kind of record for every section at once. Each call is one read of
    the store (on PostgreSQL its statements go in one round trip where they do not depend on
    each other); none writes. ``parallel_reads``: whether calls made at once from several threads
    go on at once (a pool of connections), or would only queue behind each other."""

    parallel_reads: bool

    def chat_state(self, scope: Scope, session_id: str | None = None, latest: int = 0,
                   key_sources: bool = False) -> ChatState:
        """``scope``'s chat state; ``latest``: how many of the session's newest summary ids (of
        the whole chat without ``session_id``); ``key_sources``: the key lines with their source
        turn ids."""
        ...
    def nearest_kinds(self, scope: Scope, query: np.ndarray, wanted: Sequence[tuple[str, int]],
                      model: str) -> dict[str, list[tuple[int, float]]]:
        """``nearest`` of each (kind, k) in ``wanted`` in ``scope``, by kind; kind ``CLUSTERS``:
        ``clusters.nearest_clusters``."""
        ...
    def turn_pool(self, ids: Iterable[int], radius: int = 0, around: Iterable[int] = (), tied: bool = False,
                  vectors: str | None = None, known: Iterable[int] = ()) -> TurnPool:
        """The refs of ``ids`` (``turn_refs`` with ``radius`` and ``around``), with, when ``tied``,
        the turns a reply ties one of ``ids`` to (and their refs); every ref's reply links; the
        stored vectors of kind ``vectors`` of the refs not in ``known``; their sessions' last steps."""
        ...
    def long_term(self, summaries: Iterable[int], diaries: Iterable[int]) -> tuple[dict[int, Summary],
                                                                                  dict[int, Diary]]:
        """``summaries.get_summaries`` and ``diary.get_diaries`` (with sources) in one call."""
        ...
    def facts_about_many(self, tenant: str, agent: str, owners: Mapping[str, Sequence[str] | None],
                         history: bool = False) -> dict[str, list[Fact]]:
        """``facts_about`` of each subject in ``owners`` (subject → the owners it is read in, None:
        anywhere), in one read; a subject without facts maps to []."""
        ...
    def people_known(self, scope: Scope, ids: Sequence[str], facts: Mapping[str, Sequence[str] | None],
                     agenda: tuple[list[str] | None, date, date] | None = None) -> PeopleKnown:
        """Of ``ids``: the members of ``scope``'s chat, the registered people, the facts of
        each one ``facts`` names (as ``facts_about_many``) and, with ``agenda`` (owners, first and
        last day), their open plans (``agenda(..., status="open")``) of the registered ones."""
        ...
    def episodic(self, scope: Scope, query: np.ndarray | None) -> tuple[list[EpisodeSignal], list[Task]]:
        """``episode_signals`` and the running ``tasks`` of ``scope``, in one call."""
        ...


class FullStore(Store, ProfileStoreProtocol, PeopleStore, AgendaStore, UsageStore, DiaryStore, WindowStore,
                ReadPlanStore, Protocol):
    """Everything the engine uses, tiers of issue 5 included. The concerns that have moved to a
    port (``pmemo.ports``) are its attributes: ``graph``, ``people``, ``l2`` (the windows; the
    store keeps the old method names of these two, each the port's call), ``person_forget``,
    ``diary``, ``jobs`` (declared by ``Store``), ``turns`` (``TurnStore``), ``vectors``, ``meta``,
    ``embed_cache`` (``VectorStore``), ``clusters``, ``summaries``, ``key_lines`` (declared by
    ``DerivedStore``), and (declared by ``ProfileStoreProtocol``) ``profile`` (the facts), ``episodes``,
    ``tasks``, ``records``, ``batches``.
    ``tx()`` makes the calls in its block one transaction (``ports.unit``)."""

    @property
    def graph(self) -> GraphPort: ...
    @property
    def people(self) -> PeoplePort: ...
    @property
    def l2(self) -> WindowPort: ...
    @property
    def person_forget(self) -> PersonForgetPort: ...
    def tx(self) -> AbstractContextManager[None]: ...
