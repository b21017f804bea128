"""SQLite rows for profile facts, episodes and tasks: a mixin ``SQLiteStore`` inherits.

Updates carry a version check (``WHERE version=?``) and raise ``Conflict`` when another
writer got there first. Soft-deleted rows (``deleted`` set) are invisible to every read.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from ...errors import Conflict, InvalidInput, NotFound
from ...models import Candidate, Decision, Episode, Fact, Scope, Task, TaskStep
from .. import sessions_sql
from ..base import EpisodeSignal
from . import profile_codec as pc
from .forget_store import ForgetRows
from .records_store import RecordRows

FACT_COLS = (
    "scope_key, tenant, agent, owner, category, key, value, confidence, importance,"
    " mentions, first_seen, last_seen, valid_from, expires, source, status, version,"
    " created, updated, subject, mentioned, said"
)
ANY = "*"  # facts(subject=ANY): about anyone (no person id is "*")

T = TypeVar("T")
_FACTS_BY_ID = "SELECT * FROM facts WHERE id IN ({}) AND deleted IS NULL"
_EPISODES_BY_ID = "SELECT * FROM episodes WHERE id IN ({}) AND deleted IS NULL"


class ProfileStore(ForgetRows, RecordRows):
    if TYPE_CHECKING:
        @property
        def _read(self) -> sqlite3.Connection: ...

        def _tx(self) -> AbstractContextManager[sqlite3.Connection]: ...
        def _sources(self, kind: str, refs: list[int]) -> dict[int, tuple[int, ...]]: ...
        def _refs_with(self, kind: str, turn_ids: list[int]) -> list[int]: ...
        def _records(self, kind: str, sql: str, ids: list[int],
                     build: Callable[[sqlite3.Row, tuple[int, ...]], T]) -> list[T]: ...
        def get_vectors(self, kind: str, refs: Iterable[int]) -> dict[int, np.ndarray]: ...
        def _vectors(self, kind: str, refs: Iterable[int]) -> dict[int, np.ndarray]: ...

    # ---- facts -----------------------------------------------------------------------------
    def facts(self, scope: Scope, history: bool = False, subject: str | None = ANY) -> list[Fact]:
        """The scope's facts; ``subject``: only those about that person (None: about the owner)."""
        sql, args = "SELECT * FROM facts WHERE scope_key=? AND deleted IS NULL", [scope.key]
        if subject is None:
            sql += " AND subject IS NULL"
        elif subject != ANY:
            sql, args = sql + " AND subject=?", [*args, subject]
        return self._fact_rows(sql, args, history)

    def facts_about(self, tenant: str, agent: str, subject: str, owners: list[str] | None = None,
                    history: bool = False) -> list[Fact]:
        """A person's facts wherever they were learned, or only in ``owners`` (groups, chats)."""
        sql, args = "SELECT * FROM facts WHERE tenant=? AND agent=? AND subject=? AND deleted IS NULL", [
            tenant, agent, subject]
        if owners is not None:
            sql += f" AND owner IN ({','.join('?' * len(owners))})"
            args.extend(owners)
        return self._fact_rows(sql, args, history)

    def _fact_rows(self, sql: str, args: list[Any], history: bool) -> list[Fact]:
        if not history:
            sql += " AND status='current'"
        rows = self._read.execute(sql + " ORDER BY category, key, version, id", args).fetchall()
        sources = self._sources("fact", [r["id"] for r in rows])
        return [pc.fact(r, sources.get(r["id"], ())) for r in rows]

    def get_fact(self, fact_id: int) -> Fact | None:
        return next(iter(self._records("fact", _FACTS_BY_ID, [fact_id], pc.fact)), None)

    def facts_with(self, turn_ids: list[int]) -> list[Fact]:
        return self._records("fact", _FACTS_BY_ID, self._refs_with("fact", turn_ids), pc.fact)

    def upsert_fact(
        self, scope: Scope, decision: Decision, cand: Candidate, turn_id: int | None, at: float
    ) -> Fact | None:
        """Apply one upsert decision atomically; ``Conflict`` if a fact changed meanwhile."""
        if decision.action == "skip":
            return decision.target
        with self._tx() as conn:
            if decision.action == "insert":
                fid = self._insert_fact(conn, scope, decision, cand, at, "current", 1)
            elif decision.action == "reinforce":
                assert decision.reinforce is not None
                fid = self._reinforce(conn, decision.reinforce, decision.confidence, cand, at)
            elif decision.action == "supersede":
                fid = self._supersede(conn, scope, decision, cand, at)
            elif decision.reinforce is not None:  # a conflict stated again
                fid = self._reinforce(conn, decision.reinforce, decision.confidence, cand, at)
            else:
                fid = self._insert_fact(conn, scope, decision, cand, at, "conflict", 1)
            if turn_id is not None:
                conn.execute(
                    "INSERT OR IGNORE INTO sources(kind, ref, turn_id) VALUES('fact',?,?)",
                    (fid, turn_id),
                )
        return self.get_fact(fid)

    @staticmethod
    def _insert_fact(
        conn: sqlite3.Connection,
        scope: Scope,
        d: Decision,
        cand: Candidate,
        at: float,
        status: str,
        version: int,
    ) -> int:
        cur = conn.execute(
            f"INSERT INTO facts({FACT_COLS}) VALUES(?,?,?,?,?,?,?,?,?,1,?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                *pc.scope_cols(scope),
                cand.category,
                d.key,
                cand.value,
                d.confidence,
                cand.importance,
                at,
                at,
                at,
                cand.expires_epoch,
                cand.source,
                status,
                version,
                time.time(),
                time.time(),
                cand.subject,
                json.dumps(list(cand.mentioned), ensure_ascii=False),
                cand.said,
            ),
        )
        return int(cur.lastrowid or 0)

    @staticmethod
    def _reinforce(
        conn: sqlite3.Connection, fact: Fact, confidence: float, cand: Candidate, at: float
    ) -> int:
        changed = conn.execute(
            "UPDATE facts SET confidence=?, mentions=mentions+1, last_seen=MAX(last_seen, ?),"
            " importance=MAX(importance, ?), expires=COALESCE(?, expires), version=version+1,"
            " said=CASE WHEN said='' THEN ? ELSE said END,"  # the words it was first said in stay
            " updated=? WHERE id=? AND version=? AND deleted IS NULL",
            (
                confidence,
                at,
                cand.importance,
                cand.expires_epoch,
                cand.said,
                time.time(),
                fact.id,
                fact.version,
            ),
        ).rowcount
        if not changed:
            raise Conflict(f"fact {fact.id} changed while it was being updated; retry")
        return fact.id

    def _supersede(
        self, conn: sqlite3.Connection, scope: Scope, d: Decision, cand: Candidate, at: float
    ) -> int:
        old = d.target
        assert old is not None
        changed = conn.execute(
            "UPDATE facts SET status='superseded', valid_to=?, updated=? WHERE id=? AND version=?"
            " AND status='current' AND deleted IS NULL",
            (at, time.time(), old.id, old.version),
        ).rowcount
        if not changed:
            raise Conflict(f"fact {old.id} changed while it was being superseded; retry")
        if d.promote is None:
            return self._insert_fact(conn, scope, d, cand, at, "current", old.version + 1)
        changed = conn.execute(
            "UPDATE facts SET status='current', confidence=?, mentions=mentions+1, last_seen=?,"
            " valid_from=?, version=?, updated=? WHERE id=? AND version=? AND status='conflict'",
            (d.confidence, at, at, old.version + 1, time.time(), d.promote.id, d.promote.version),
        ).rowcount
        if not changed:
            raise Conflict(f"fact {d.promote.id} changed while it was being promoted; retry")
        return d.promote.id

    def expire_fact(self, fact_id: int, at: float) -> None:
        with self._tx() as conn:
            conn.execute(
                "UPDATE facts SET status='expired', valid_to=?, version=version+1"
                " WHERE id=? AND status='current'",
                (at, fact_id),
            )

    def unexpire_fact(self, fact_id: int) -> None:
        with self._tx() as conn:
            conn.execute(
                "UPDATE facts SET status='current', valid_to=NULL, version=version+1"
                " WHERE id=? AND status='expired'",
                (fact_id,),
            )

    def drop_fact_sources(self, fact_id: int, turn_ids: Iterable[int]) -> None:
        """A forgotten turn leaves a fact that other turns also stated: one mention less."""
        gone = list(turn_ids)
        with self._tx() as conn:
            conn.executemany(
                "DELETE FROM sources WHERE kind='fact' AND ref=? AND turn_id=?",
                [(fact_id, t) for t in gone],
            )
            conn.execute(
                "UPDATE facts SET mentions=MAX(1, mentions-?), version=version+1 WHERE id=?",
                (len(gone), fact_id),
            )

    def edit_fact(self, fact_id: int, value: str, version: int | None, at: float) -> Fact:
        """A current fact's value set by hand: the row keeps its id and sources, its version goes
        up by one and its source becomes "edited"; the value it had stays in the history as a
        superseded copy (with the same sources). ``version``: the one read (else ``Conflict``)."""
        with self._tx() as conn:
            row = conn.execute("SELECT * FROM facts WHERE id=? AND deleted IS NULL", (fact_id,)).fetchone()
            if row is None:
                raise NotFound(f"fact {fact_id} does not exist")
            if version is not None and row["version"] != version:
                raise Conflict(f"fact {fact_id} is at version {row['version']}, not {version}: read it again"
                               " and retry", current_version=row["version"])
            if row["status"] != "current":
                raise InvalidInput(f"fact {fact_id} is {row['status']}: it is history; edit the current value")
            if row["value"] != value:
                cols = [c for c in row.keys() if c != "id"]
                old = {**dict(row), "status": "superseded", "valid_to": at, "updated": time.time()}
                copy = conn.execute(f"INSERT INTO facts({','.join(cols)}) VALUES({','.join('?' * len(cols))})",
                                    [old[c] for c in cols]).lastrowid
                conn.execute("INSERT INTO sources(kind, ref, turn_id) SELECT 'fact', ?, turn_id FROM sources"
                             " WHERE kind='fact' AND ref=?", (copy, fact_id))
                conn.execute("UPDATE facts SET value=?, source='edited', valid_from=?, version=version+1,"
                             " updated=? WHERE id=?", (value, at, time.time(), fact_id))
        found = self.get_fact(fact_id)
        assert found is not None
        return found

    def delete_fact(self, fact_id: int) -> None:
        with self._tx() as conn:
            conn.execute("DELETE FROM facts WHERE id=?", (fact_id,))
            conn.execute("DELETE FROM sources WHERE kind='fact' AND ref=?", (fact_id,))

    def reinstate_fact(self, fact_id: int) -> None:
        """A superseded fact becomes current again (its successor was forgotten)."""
        with self._tx() as conn:
            conn.execute(
                "UPDATE facts SET status='current', valid_to=NULL, version=version+1"
                " WHERE id=? AND status='superseded'",
                (fact_id,),
            )

    def conversation_now(self, scope: Scope) -> float | None:
        """The newest turn's time in the owner scope: the clock decay and expiry run on."""
        row = self._read.execute(
            "SELECT MAX(ts) FROM turns WHERE scope_key=?", (scope.key,)
        ).fetchone()
        return None if row is None or row[0] is None else float(row[0])

    def owner_scopes(self, tenant: str | None = None) -> list[Scope]:
        """Every owner with turns, episodes or facts (optionally of one tenant)."""
        where = " WHERE tenant=?" if tenant else ""
        sql = " UNION ".join(
            f"SELECT DISTINCT tenant, agent, owner FROM {t}{where}"
            for t in ("turns", "episodes", "facts")
        )
        rows = self._read.execute(sql + " ORDER BY 1, 2, 3", [tenant] * 3 if tenant else [])
        return [Scope(r[0], r[1], r[2]) for r in rows]

    # ---- episodes --------------------------------------------------------------------------
    def add_episode(
        self, scope: Scope, kind: str, fields: dict[str, Any], source_ids: list[int]
    ) -> Episode:
        with self._tx() as conn:
            cur = conn.execute(
                "INSERT INTO episodes(scope_key, tenant, agent, owner, session, kind, summary, topics,"
                " actions, outcomes, lessons, importance, started, ended, step_from, step_to, created)"
                " VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    *pc.scope_cols(scope),
                    scope.session_id or "",
                    kind,
                    *_episode_values(fields),
                    time.time(),
                ),
            )
            eid = int(cur.lastrowid or 0)
            conn.executemany(
                "INSERT OR IGNORE INTO sources(kind, ref, turn_id) VALUES('episode',?,?)",
                [(eid, t) for t in source_ids],
            )
        found = self.get_episode(eid)
        assert found is not None
        return found

    def update_episode(
        self, episode_id: int, fields: dict[str, Any], source_ids: list[int]
    ) -> None:
        with self._tx() as conn:
            conn.execute(
                "UPDATE episodes SET summary=?, topics=?, actions=?, outcomes=?, lessons=?,"
                " importance=?, started=?, ended=?, step_from=?, step_to=? WHERE id=?",
                (*_episode_values(fields), episode_id),
            )
            conn.execute("DELETE FROM sources WHERE kind='episode' AND ref=?", (episode_id,))
            conn.executemany(
                "INSERT INTO sources(kind, ref, turn_id) VALUES('episode',?,?)",
                [(episode_id, t) for t in source_ids],
            )
            conn.execute("DELETE FROM vectors WHERE kind='episode' AND ref=?", (episode_id,))

    def get_episode(self, episode_id: int) -> Episode | None:
        return next(iter(self._records("episode", _EPISODES_BY_ID, [episode_id], pc.episode)), None)

    def get_episodes(self, ids: Iterable[int]) -> list[Episode]:
        return self._records("episode", _EPISODES_BY_ID, list(dict.fromkeys(int(i) for i in ids)), pc.episode)

    def episode_signals(self, scope: Scope, query: np.ndarray | None) -> list[EpisodeSignal]:
        return self._episode_signals(scope, query)

    def _episode_signals(self, scope: Scope, query: np.ndarray | None) -> list[EpisodeSignal]:
        rows = self._read.execute("SELECT id, ended, importance FROM episodes WHERE scope_key=?"
                                  " AND deleted IS NULL ORDER BY ended, id", (scope.key,)).fetchall()
        vecs = self._vectors("episode", [r[0] for r in rows]) if query is not None and rows else {}
        return [EpisodeSignal(r[0], r[1], r[2], float(vec @ query)
                              if query is not None and (vec := vecs.get(r[0])) is not None
                              and vec.shape == query.shape else None) for r in rows]

    def episodes(self, scope: Scope, session_id: str | None = None) -> list[Episode]:
        sql, args = "SELECT * FROM episodes WHERE scope_key=? AND deleted IS NULL", [scope.key]
        if session_id is not None:
            sql, args = sql + " AND session=?", [*args, session_id]
        rows = self._read.execute(sql + " ORDER BY ended, id", args).fetchall()
        sources = self._sources("episode", [r["id"] for r in rows])
        return [pc.episode(r, sources.get(r["id"], ())) for r in rows]

    def episodes_with(self, turn_ids: list[int]) -> list[Episode]:
        return self._records("episode", _EPISODES_BY_ID, self._refs_with("episode", turn_ids), pc.episode)

    def delete_episode(self, episode_id: int) -> None:
        with self._tx() as conn:
            conn.execute("DELETE FROM episodes WHERE id=?", (episode_id,))
            conn.execute("DELETE FROM sources WHERE kind='episode' AND ref=?", (episode_id,))
            conn.execute("DELETE FROM vectors WHERE kind='episode' AND ref=?", (episode_id,))

    def touch_episodes(self, ids: list[int], now: float) -> None:
        with self._tx() as conn:
            conn.executemany(
                "UPDATE episodes SET access_count=access_count+1, accessed=? WHERE id=?",
                [(now, i) for i in ids],
            )

    def open_sessions(self, scope: Scope, before: float, kind: str) -> list[str]:
        """The scope's sessions last spoken in before ``before`` (epoch seconds) that hold turns past
        what its episodes of ``kind`` cover, oldest first (one query, not one per session)."""
        rows = self._read.execute(sessions_sql.open_sessions("?"), (scope.key, scope.key, kind, before))
        return [r[0] for r in rows]

    def covered_steps(self, scope: Scope, session_id: str, kinds: tuple[str, ...]) -> int:
        """The last step of a session already folded into an episode of these kinds."""
        marks = ",".join("?" * len(kinds))
        row = self._read.execute(
            f"SELECT MAX(step_to) FROM episodes WHERE scope_key=? AND session=? AND kind IN ({marks})",
            (scope.key, session_id, *kinds),
        ).fetchone()
        return int(row[0] or 0)

    # ---- tasks -----------------------------------------------------------------------------
    def add_task(self, scope: Scope, goal: str, steps: list[TaskStep], scratchpad: str) -> Task:
        now = time.time()
        with self._tx() as conn:
            cur = conn.execute(
                "INSERT INTO tasks(scope_key, tenant, agent, owner, session, goal, steps, scratchpad,"
                " created, updated) VALUES(?,?,?,?,?,?,?,?,?,?)",
                (
                    *pc.scope_cols(scope),
                    scope.session_id or "",
                    goal,
                    pc.steps_json(steps),
                    scratchpad,
                    now,
                    now,
                ),
            )
            tid = int(cur.lastrowid or 0)
        found = self.get_task(tid)
        assert found is not None
        return found

    def get_task(self, task_id: int) -> Task | None:
        row = self._read.execute(
            "SELECT * FROM tasks WHERE id=? AND deleted IS NULL", (task_id,)
        ).fetchone()
        return pc.task(row) if row else None

    def tasks(self, scope: Scope, status: str | None = None) -> list[Task]:
        return self._tasks(scope, status)

    def _tasks(self, scope: Scope, status: str | None = None) -> list[Task]:
        sql, args = "SELECT * FROM tasks WHERE scope_key=? AND deleted IS NULL", [scope.key]
        if status is not None:
            sql, args = sql + " AND status=?", [*args, status]
        return [pc.task(r) for r in self._read.execute(sql + " ORDER BY id", args).fetchall()]

    def save_task(self, task: Task, version: int) -> Task:
        """Write ``task``'s mutable fields if the stored version is still ``version``."""
        with self._tx() as conn:
            changed = conn.execute(
                "UPDATE tasks SET steps=?, scratchpad=?, status=?, feedback=?, episode_id=?,"
                " version=version+1, updated=? WHERE id=? AND version=? AND deleted IS NULL",
                (
                    pc.steps_json(task.steps),
                    task.scratchpad,
                    task.status,
                    task.feedback,
                    task.episode_id,
                    time.time(),
                    task.id,
                    version,
                ),
            ).rowcount
        if not changed:
            raise Conflict(
                f"task {task.id} was changed by someone else (version {version} is "
                "stale); read it again and retry"
            )
        found = self.get_task(task.id)
        assert found is not None
        return found


def _episode_values(fields: dict[str, Any]) -> tuple[Any, ...]:
    def dump(name: str) -> str:
        return json.dumps(list(fields.get(name, ())), ensure_ascii=False)

    return (
        fields["summary"],
        dump("topics"),
        dump("actions"),
        dump("outcomes"),
        dump("lessons"),
        float(fields.get("importance", 0.5)),
        fields["started"],
        fields["ended"],
        int(fields.get("step_from", 0)),
        int(fields.get("step_to", 0)),
    )
