"""The reads of one context in few calls on SQLite (``ReadPlanStore``, issue 45 §4): each call
runs its statements on the thread's read connection, through the same private reads the single
calls use, so a call of the plan and the calls it stands for give the same records."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import date
from typing import TYPE_CHECKING, Any

import numpy as np

from ...models import Diary, Fact, Scope, Summary, Task
from ...ports.agenda import AgendaPort
from ...ports.clusters import ClusterPort
from ...ports.diary import DiaryPort
from ...ports.episodes import EpisodePort
from ...ports.key_lines import KeyLinePort
from ...ports.people import PeoplePort
from ...ports.summaries import SummaryPort
from ...ports.tasks import TaskPort
from ..base import CLUSTERS, ChatState, EpisodeSignal, PeopleKnown, TurnPool
from ..facts_sql import by_subject, fact_of, subjects_read
from ..sql import with_sources
from ..turns_sql import links_of, steps_of
from .dialect import SQLITE, SQLiteExec
from .turns import SQLiteTurns
from .vectors import SQLiteVectors


class ReadPlanRows:
    if TYPE_CHECKING:
        vectors: SQLiteVectors

        @property
        def _read(self) -> sqlite3.Connection: ...
        def _select_in(self, sql: str, args: list[Any], values: list[Any]) -> Iterator[sqlite3.Row]: ...
        diary: DiaryPort
        key_lines: KeyLinePort
        clusters: ClusterPort
        summaries: SummaryPort
        turns: SQLiteTurns
        people: PeoplePort
        plans: AgendaPort
        episodes: EpisodePort
        tasks: TaskPort

    def chat_state(self, scope: Scope, session_id: str | None = None, latest: int = 0,
                   key_sources: bool = False) -> ChatState:
        conn, tenant, owner = self._read, scope.tenant_id, scope.owner_scope()
        versions = {r[0].partition(":")[0]: int(r[1]) for r in conn.execute(
            "SELECT key, value FROM meta WHERE key IN (?,?,?)", (f"aliases:{tenant}", f"signs:{tenant}",
                                                                f"entities:{tenant}"))}
        members = frozenset(r[0] for r in conn.execute(
            "SELECT person FROM members WHERE tenant=? AND agent=? AND owner=?", (tenant, owner.agent_id, owner.owner)))
        now = conn.execute("SELECT MAX(ts) FROM turns WHERE scope_key=?", (scope.key,)).fetchone()[0]
        owners = tuple(r[0] for r in conn.execute(
            "SELECT owner FROM members WHERE tenant=? AND person=? ORDER BY first_seen",
            (tenant, owner.user_id))) if owner.user_id is not None else ()
        session = "" if session_id is None else " AND session=?"
        newest = [r[0] for r in conn.execute(
            f"SELECT id FROM summaries WHERE scope_key=?{session} ORDER BY created DESC, id DESC LIMIT ?",
            (scope.key, *(() if session_id is None else (session_id,)), latest))] if latest > 0 else []
        return ChatState(versions.get("aliases", 0), versions.get("signs", 0), versions.get("entities", 0),
                         members, tuple(self.turns.actors(scope)), None if now is None else float(now), owners,
                         tuple(reversed(newest)), tuple(self.key_lines.keys(scope, key_sources)))

    def nearest_kinds(self, scope: Scope, query: np.ndarray, wanted: Sequence[tuple[str, int]],
                      model: str) -> dict[str, list[tuple[int, float]]]:
        return {kind: self.clusters.nearest_clusters(scope, query, k) if kind == CLUSTERS
                else self.vectors.nearest(kind, scope.key, query, k, model) for kind, k in wanted}

    def turn_pool(self, ids: Iterable[int], radius: int = 0, around: Iterable[int] = (), tied: bool = False,
                  vectors: str | None = None, known: Iterable[int] = ()) -> TurnPool:
        wanted = list(dict.fromkeys(int(i) for i in ids))
        if tied:
            wanted += [i for linked in self.turns.reply_links(wanted).values() for i in linked]
        refs = self.turns.turn_refs(wanted, radius, around)
        skip = set(known)
        found = self.vectors.get_vectors(vectors, [i for i in sorted(refs) if i not in skip]) if vectors else {}
        sessions: dict[str, set[str]] = {}
        for ref in refs.values():
            sessions.setdefault(ref.scope_key, set()).add(ref.session)
        x = SQLiteExec(self._read)
        steps = {s: n for key, names in sessions.items() for s, n in steps_of(x, SQLITE, key, names).items()}
        return TurnPool(refs, links_of(x, SQLITE, list(refs)), found, steps)

    def long_term(self, summaries: Iterable[int], diaries: Iterable[int]) -> tuple[dict[int, Summary],
                                                                                  dict[int, Diary]]:
        return self.summaries.get_summaries(summaries), self.diary.get_diaries(diaries)

    def facts_about_many(self, tenant: str, agent: str, owners: Mapping[str, Sequence[str] | None],
                         history: bool = False) -> dict[str, list[Fact]]:
        return self._facts_about_many(tenant, agent, owners, history)

    def _facts_about_many(self, tenant: str, agent: str, owners: Mapping[str, Sequence[str] | None],
                          history: bool = False) -> dict[str, list[Fact]]:
        if not owners:
            return {}
        x = SQLiteExec(self._read)
        return by_subject(owners, with_sources(x, SQLITE, "fact", x.rows(*subjects_read(
            SQLITE, tenant, agent, list(owners), history)), fact_of))

    def people_known(self, scope: Scope, ids: Sequence[str], facts: Mapping[str, Sequence[str] | None],
                     agenda: tuple[list[str] | None, date, date] | None = None) -> PeopleKnown:
        owner = scope.owner_scope()
        members = {m.person.id: m for m in self.people.members(owner, list(ids))}
        people = self.people.get_people(owner.tenant_id, ids)
        known = self._facts_about_many(owner.tenant_id, owner.agent_id, facts, True)
        plans = self.plans.agenda(owner.tenant_id, owner.agent_id, agenda[0], [p for p in ids if p in people],
                             agenda[1], agenda[2], "open") if agenda is not None else []
        return PeopleKnown(members, people, known, plans)

    def episodic(self, scope: Scope, query: np.ndarray | None) -> tuple[list[EpisodeSignal], list[Task]]:
        return self.episodes.episode_signals(scope, query), self.tasks.tasks(scope, "running")
