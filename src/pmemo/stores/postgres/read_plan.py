"""The reads of one context in few calls on PostgreSQL (``ReadPlanStore``, issue 45 §4): the
statements of a call that do not depend on each other go together in one round trip
(``Database.reads``), written with the SQL and the row codecs of the single calls they stand for.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import date
from typing import TYPE_CHECKING, Any

import numpy as np

from ...models import Diary, Fact, Scope, Summary, Task
from ..agenda_sql import agenda_item_of, agenda_read
from ..base import CLUSTERS, ChatState, EpisodeSignal, PeopleKnown, TurnPool, TurnRef
from ..diary_sql import diary_of
from ..facts_sql import by_subject, fact_of
from ..key_lines_sql import key_line_of
from ..people_sql import member_of, members_read, people_of, people_reads
from ..summaries_sql import summary_of
from ..tasks_sql import task_of
from ..turns_sql import ACTORS, links_from, links_read, refs_from, refs_read, steps_read
from . import codec
from .clusters import NEAREST as NEAREST_CLUSTERS
from .database import Database
from .dialect import POSTGRES, placeholders
from .episodes import signal_of, signals_read
from .provenance import WITH_SOURCES
from .vectors import PostgresVectors

Read = tuple[str, Any, str]  # (sql, args, shape): one statement of ``Database.reads``
_NEAREST = ("SELECT ref, -(vec <#> %(q)s) FROM vectors WHERE kind=%(kind)s AND model=%(model)s"
            " AND scope_key=%(scope)s ORDER BY vec <#> %(q)s, ref LIMIT %(k)s")


class ReadPlanRows:
    if TYPE_CHECKING:
        _db: Database

        vectors: PostgresVectors

    def chat_state(self, scope: Scope, session_id: str | None = None, latest: int = 0,
                   key_sources: bool = False) -> ChatState:
        tenant, owner = scope.tenant_id, scope.owner_scope()
        reads: list[Read] = [
            ("SELECT key, value FROM meta WHERE key = ANY(%s::text[])",
             ([f"aliases:{tenant}", f"signs:{tenant}", f"entities:{tenant}"],), "rows"),
            ("SELECT person FROM members WHERE tenant=%s AND agent=%s AND owner=%s",
             (tenant, owner.agent_id, owner.owner), "rows"),
            (placeholders(ACTORS), {"s": scope.key}, "rows"),
            ("SELECT MAX(ts) FROM turns WHERE scope_key=%s", (scope.key,), "rows"),
            ("SELECT owner FROM members WHERE tenant=%s AND person=%s ORDER BY first_seen",
             (tenant, owner.user_id), "rows"),
            ("SELECT id FROM summaries WHERE scope_key=%s AND (%s::text IS NULL OR session=%s)"
             " ORDER BY created DESC, id DESC LIMIT %s", (scope.key, session_id, session_id, latest), "rows"),
            (f"SELECT {WITH_SOURCES if key_sources else 't.*'} FROM key_lines t WHERE scope_key=%s"
             " ORDER BY origin='user' DESC, id", ("key", scope.key) if key_sources else (scope.key,), "dicts")]
        versions, members, actors, now, owners, newest, keys = self._db.reads(reads)
        version = {str(r[0]).partition(":")[0]: int(r[1]) for r in versions}
        return ChatState(version.get("aliases", 0), version.get("signs", 0), version.get("entities", 0),
                         frozenset(r[0] for r in members), tuple(r[0] for r in actors),
                         None if now[0][0] is None else float(now[0][0]),
                         tuple(r[0] for r in owners) if owner.user_id is not None else (),
                         tuple(r[0] for r in reversed(newest)),
                         tuple(key_line_of(r, tuple(r.pop("source_ids", ()))) for r in keys))

    def nearest_kinds(self, scope: Scope, query: np.ndarray, wanted: Sequence[tuple[str, int]],
                      model: str) -> dict[str, list[tuple[int, float]]]:
        vec = codec.f32(query)
        out: dict[str, list[tuple[int, float]]] = {}
        together: list[tuple[str, Read]] = []
        for kind, k in wanted:
            args = {"q": vec, "kind": kind, "model": model, "scope": scope.key, "k": k, "s": scope.key,
                    "dim": len(vec)}
            if k <= 0:
                out[kind] = []
            elif kind != CLUSTERS and (kind, model, scope.key) in self.vectors.approximate():
                out[kind] = self.vectors.nearest_ann(args, len(vec))  # its own transaction: SET LOCAL
            else:
                together.append((kind, (NEAREST_CLUSTERS if kind == CLUSTERS else _NEAREST, args, "rows")))
        for (kind, _), rows in zip(together, self._db.reads([read for _, read in together]), strict=True):
            out[kind] = [(r[0], float(r[1])) for r in rows]
        return {kind: out[kind] for kind, _ in wanted}

    def turn_pool(self, ids: Iterable[int], radius: int = 0, around: Iterable[int] = (), tied: bool = False,
                  vectors: str | None = None, known: Iterable[int] = ()) -> TurnPool:
        wanted = list(dict.fromkeys(int(i) for i in ids))
        seeds = list(dict.fromkeys(int(i) for i in around)) if radius > 0 else []
        if tied and wanted:
            sql, args = links_read(POSTGRES, wanted)
            wanted = list(dict.fromkeys([*wanted, *(i for linked in links_from(
                self._db.rows(placeholders(sql), args)).values() for i in linked)]))
        if not wanted and not seeds:
            return TurnPool({}, {}, {}, {})
        sql, args = refs_read(POSTGRES, wanted, seeds, radius)
        refs = refs_from(self._db.rows(placeholders(sql), args))
        return TurnPool(refs, *self._pool_rest(refs, vectors, set(known)))

    def _pool_rest(self, refs: dict[int, TurnRef], kind: str | None,
                   known: set[int]) -> tuple[dict[int, list[int]], dict[int, np.ndarray], dict[str, int]]:
        """The reply links, vectors and sessions' last steps of ``refs``, in one round trip."""
        ids = list(refs)
        sessions: dict[str, set[str]] = {}
        for ref in refs.values():
            sessions.setdefault(ref.scope_key, set()).add(ref.session)
        lacking = [i for i in sorted(refs) if i not in known] if kind else []
        links_sql, links_args = links_read(POSTGRES, ids)
        reads: list[Read] = [(placeholders(links_sql), links_args, "rows"),
                             ("SELECT ref, vec FROM vectors WHERE kind=%s AND ref = ANY(%s)", (kind, lacking),
                              "binary"),
                             *((placeholders(sql), args, "rows") for sql, args in
                               (steps_read(POSTGRES, key, names) for key, names in sessions.items()))]
        links, vecs, *steps = self._db.reads(reads)
        return (links_from(links), {r[0]: codec.vector(r[1]) for r in vecs} if lacking else {},
                {r[0]: r[1] or 0 for rows in steps for r in rows})

    def long_term(self, summaries: Iterable[int], diaries: Iterable[int]) -> tuple[dict[int, Summary],
                                                                                  dict[int, Diary]]:
        sids, dids = list(dict.fromkeys(int(i) for i in summaries)), list(dict.fromkeys(int(i) for i in diaries))
        found, days = self._db.reads([
            (f"SELECT {WITH_SOURCES} FROM summaries t WHERE t.id = ANY(%s)", ("summary", sids), "dicts"),
            (f"SELECT {WITH_SOURCES} FROM diaries t WHERE t.id = ANY(%s)", ("diary", dids), "dicts")])
        by_summary, by_day = {r["id"]: r for r in found}, {r["id"]: r for r in days}
        return ({i: summary_of(r, tuple(r.pop("source_ids"))) for i in sids if (r := by_summary.get(i))},
                {i: diary_of(r, tuple(r.pop("source_ids"))) for i in dids if (r := by_day.get(i))})

    def facts_about_many(self, tenant: str, agent: str, owners: Mapping[str, Sequence[str] | None],
                         history: bool = False) -> dict[str, list[Fact]]:
        return _facts_of(owners, self._db.reads([_facts_read(tenant, agent, list(owners), history)])[0])

    def people_known(self, scope: Scope, ids: Sequence[str], facts: Mapping[str, Sequence[str] | None],
                     agenda: tuple[list[str] | None, date, date] | None = None) -> PeopleKnown:
        owner, wanted = scope.owner_scope(), list(dict.fromkeys(ids))
        tenant = owner.tenant_id
        reads: list[Read] = [(placeholders(sql), args, "dicts") for sql, args in
                             [members_read(POSTGRES, owner, wanted), *people_reads(POSTGRES, tenant, wanted)]]
        reads.append(_facts_read(tenant, owner.agent_id, list(facts), True))
        if agenda is not None:
            sql, args = agenda_read(POSTGRES, tenant, owner.agent_id, agenda[0], wanted, agenda[1], agenda[2], "open")
            reads.append((placeholders(sql), args, "dicts"))
        found = self._db.reads(reads)
        rows, fact_rows, plan_rows = found[0], found[4], found[5] if agenda is not None else []
        people = people_of(tenant, *found[1:4])
        members = {r["person"]: member_of(r, people[r["person"]], owner.owner) for r in rows if r["person"] in people}
        plans = [agenda_item_of(r) for r in plan_rows if r["person"] in people]
        return PeopleKnown(members, {p: people[p] for p in wanted if p in people}, _facts_of(facts, fact_rows), plans)

    def episodic(self, scope: Scope, query: np.ndarray | None) -> tuple[list[EpisodeSignal], list[Task]]:
        sql, args = signals_read(scope, query)
        signals, tasks = self._db.reads([
            (placeholders(sql), args, "dicts"),
            ("SELECT * FROM tasks WHERE scope_key=%s AND deleted IS NULL AND status=%s ORDER BY id",
             (scope.key, "running"), "dicts")])
        return [signal_of(r) for r in signals], [task_of(r) for r in tasks]


def _facts_read(tenant: str, agent: str, subjects: list[str], history: bool) -> Read:
    """The facts of ``subjects``, each with its source turns, in ``facts_about``'s order."""
    current = "" if history else " AND t.status='current'"
    return (f"SELECT {WITH_SOURCES} FROM facts t WHERE t.tenant=%s AND t.agent=%s AND t.subject = ANY(%s::text[])"
            f" AND t.deleted IS NULL{current} ORDER BY category, key, version, id",
            ("fact", tenant, agent, subjects), "dicts")


def _facts_of(owners: Mapping[str, Sequence[str] | None], rows: list[dict[str, Any]]) -> dict[str, list[Fact]]:
    return by_subject(owners, [fact_of(r, tuple(r.pop("source_ids"))) for r in rows])
