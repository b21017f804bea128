"""The embedded store: one SQLite file in WAL mode, one writer, readers per thread.

Writes go through a single connection under a lock (SQLite allows one writer);
reads use a connection per thread, which WAL lets run beside the writer.
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from ...errors import Conflict, InvalidInput, StoreCorrupt, StoreError, StoreLocked
from ...files import private_dir, private_file, private_sqlite, sqlite_bytes, warn_if_open
from ...models import Scope, Turn
from .. import replies
from ..agenda_sql import SQLAgenda
from ..base import IDEMPOTENCY_HOURS, TURN_VECTOR_KINDS, NewTurn, Once, TurnRef
from ..batches_sql import SQLBatches
from ..diary_sql import SQLDiary
from ..facts_sql import SQLFacts
from ..fair_share import job_batches
from ..key_lines_sql import SQLKeyLines
from ..people_sql import PeopleNames, SQLPeople, note_speakers
from ..records_sql import SQLRecords
from ..summaries_sql import SQLSummaries
from ..tasks_sql import SQLTasks
from ..unit import Unit
from ..usage_sql import SQLUsage
from ..vectors_sql import SQLEmbedCache, SQLMeta
from ..windows_sql import SQLWindows, WindowNames
from . import codec, fts
from .centroid_cache import CentroidCache
from .clusters import SQLiteClusters
from .dialect import SQLITE, SQLiteExec, SQLiteLink
from .episodes import SQLiteEpisodes
from .graph_store import SQLiteGraph
from .jobs import SQLiteJobs
from .locks import NamedLocks
from .person_forget import SQLitePersonForget
from .profile_store import ProfileStore
from .read_plan import ReadPlanRows
from .schema import migrate
from .vectors import BLOBS, SQLiteVectors

T = TypeVar("T")

DB_NAME = "pmemo.db"
CENTROID_SCOPES = 256  # scopes whose centroids are kept between writes


class SQLiteStore(ProfileStore, PeopleNames, WindowNames, ReadPlanRows):
    """``SQLiteStore.open(dir)`` → a store over ``dir/pmemo.db``."""

    parallel_reads = False  # a read costs less than a thread hop to run it beside another

    def __init__(self, path: Path, lock_fd: int, *, faiss_min_vectors: int = 20_000,
                 index_memory_mb: int = 512) -> None:
        self.path = path
        self._lock_fd = lock_fd
        self._write_lock = threading.RLock()
        self._local = threading.local()
        self._readers: list[sqlite3.Connection] = []
        self._unit: Unit | None = None  # the open write transaction, which a nested one joins
        self.locks = NamedLocks()  # this process's threads; the directory lock keeps other processes out
        self._writer = self._connect()
        migrate(self._writer)
        fts.ensure_current(self._writer)
        # nearest(): scopes read on their first search, kept in step with every write of the
        # vectors table, the least recently searched dropped past index_memory_mb (0: no bound)
        self.vectors = SQLiteVectors(SQLiteLink(lambda: self._read, self._tx), faiss_min_vectors,
                                     index_memory_mb << 20)
        self.vector_cache = self.vectors.cache
        self.vector_cache.watch(self._writer)
        self.meta = SQLMeta(SQLiteLink(lambda: self._read, self._tx))
        self.embed_cache = SQLEmbedCache(SQLiteLink(lambda: self._read, self._tx), SQLITE, BLOBS)
        # the directory lock keeps other processes out, so every write goes through _writer
        self.centroid_cache = CentroidCache(CENTROID_SCOPES)
        self.centroid_cache.watch(self._writer)
        self.graph = SQLiteGraph(SQLiteLink(lambda: self._read, self._tx), SQLITE)
        self.people = SQLPeople(SQLiteLink(lambda: self._read, self._tx), SQLITE)
        self.l2 = SQLWindows(SQLiteLink(lambda: self._read, self._tx), SQLITE)
        self.diary = SQLDiary(SQLiteLink(lambda: self._read, self._tx), SQLITE, codec.blob)
        self.key_lines = SQLKeyLines(SQLiteLink(lambda: self._read, self._tx), SQLITE)
        self.clusters = SQLiteClusters(SQLiteLink(lambda: self._read, self._tx), SQLITE, self.centroid_cache)
        self.summaries = SQLSummaries(SQLiteLink(lambda: self._read, self._tx), SQLITE)
        self.plans = SQLAgenda(SQLiteLink(lambda: self._read, self._tx), SQLITE)
        self.profile = SQLFacts(SQLiteLink(lambda: self._read, self._tx), SQLITE)
        self.episodes = SQLiteEpisodes(SQLiteLink(lambda: self._read, self._tx), SQLITE, self.vectors.get_vectors)
        self.tasks = SQLTasks(SQLiteLink(lambda: self._read, self._tx), SQLITE)
        self.records = SQLRecords(SQLiteLink(lambda: self._read, self._tx), SQLITE)
        self.batches = SQLBatches(SQLiteLink(lambda: self._read, self._tx), SQLITE)
        self.quotas = SQLUsage(SQLiteLink(lambda: self._read, self._tx), SQLITE)
        self.jobs = SQLiteJobs(SQLiteLink(lambda: self._read, self._tx), SQLITE)
        self.person_forget = SQLitePersonForget(SQLiteLink(lambda: self._read, self._tx), SQLITE, self.graph,
                                                self.snapshot)
        # the directory lock admits one process: a job left 'running' is a dead one's, so it is
        # due now, not when its lease runs out (a store that many processes share waits for that)
        self.jobs.requeue_running()

    @classmethod
    def open(cls, directory: str | os.PathLike[str], *, faiss_min_vectors: int = 20_000,
             index_memory_mb: int = 512) -> SQLiteStore:
        """``faiss_min_vectors``, ``index_memory_mb``: the vector cache's, as the settings."""
        root = Path(directory)
        if root.exists() and not root.is_dir():
            raise InvalidInput(f"data path {root} is a file; give a directory (--data / PMEMO_DATA)")
        try:
            existed = root.is_dir()
            private_dir(root)
            private_file(root / ".lock")
        except OSError as exc:
            raise StoreError(f"cannot create data directory {root}: {exc.strerror}") from exc
        lock_fd = os.open(root / ".lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            os.close(lock_fd)
            raise StoreLocked(
                f"{root} is in use by another pmemo process; stop it or use another --data directory"
            ) from exc
        if existed:
            warn_if_open(root)
        try:
            # before SQLite opens it: its -wal and -shm files are made with the file's mode
            return cls(private_sqlite(root / DB_NAME), lock_fd, faiss_min_vectors=faiss_min_vectors,
                       index_memory_mb=index_memory_mb)
        except sqlite3.DatabaseError as exc:
            os.close(lock_fd)
            raise StoreCorrupt(
                f"{root / DB_NAME} is not a readable pmemo database ({exc}); restore it from a "
                "backup or point --data at another directory. The file was not modified."
            ) from exc
        except OSError as exc:
            os.close(lock_fd)
            raise StoreError(f"cannot open {root / DB_NAME}: {exc.strerror}") from exc
        except Exception:
            os.close(lock_fd)
            raise

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=5.0)
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")  # durable across process crashes in WAL mode
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("PRAGMA busy_timeout=5000")
        # Python's lower(): SQLite's own lower() leaves every letter outside ASCII as it is
        conn.create_function("py_lower", 1, lambda text: None if text is None else str(text).lower(),
                             deterministic=True)
        return conn

    @property
    def _read(self) -> sqlite3.Connection:
        unit = self._unit
        if unit is not None and unit.reads and unit.mine:  # inside tx(): read what it wrote
            return self._writer
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._connect()
            self._local.conn = conn
            with self._write_lock:
                self._readers.append(conn)
        return conn

    def _select_in(self, sql: str, args: list[Any], values: list[Any]) -> Iterator[sqlite3.Row]:
        """Rows of ``sql`` whose ``IN ({})`` takes ``values``, in chunks SQLite accepts."""
        for start in range(0, len(values), 500):
            chunk = values[start : start + 500]
            yield from self._read.execute(sql.format(",".join("?" * len(chunk))), [*args, *chunk])

    @contextmanager
    def _tx(self, reads: bool = False) -> Iterator[sqlite3.Connection]:
        """A write transaction; the read caches hear of what it changed once it commits. One
        opened inside another on the same thread joins it (``stores.unit``)."""
        with self._write_lock:
            conn, unit = self._writer, self._unit
            if unit is not None:  # the lock is this thread's: it is in a transaction already
                with unit.step():
                    yield conn
                return
            conn.execute("BEGIN IMMEDIATE")
            self.vector_cache.begin()
            self.centroid_cache.begin()
            self._unit = Unit(reads=reads)
            try:
                yield conn
                self._unit.check()
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            finally:
                self._unit = None
            conn.execute("COMMIT")
            self.vector_cache.commit()
            self.centroid_cache.commit()

    @contextmanager
    def tx(self) -> Iterator[None]:
        """The unit of work (``ports.unit``): every call on this thread in the block is one
        write transaction, and reads in it see its writes."""
        with self._tx(reads=True):
            yield

    def close(self) -> None:
        with self._write_lock:
            for conn in [*self._readers, self._writer]:
                conn.close()
            self._readers.clear()
            if self._lock_fd >= 0:
                os.close(self._lock_fd)
                self._lock_fd = -1

    def size_bytes(self) -> int:
        return sqlite_bytes(self.path)

    # ---- turns -------------------------------------------------------------------------
    def add_turns(self, turns: list[NewTurn], once: Once | None = None) -> list[Turn]:
        now = time.time()
        out: list[Turn] = []
        with self._tx() as conn:
            if once is not None:
                conn.execute("DELETE FROM idempotency WHERE created < ?", (now - IDEMPOTENCY_HOURS * 3600,))
                if (done := self._replay(conn, once)) is not None:
                    return done
            last: dict[tuple[str, str], tuple[int, str | None]] = {}  # step and content
            for new in turns:
                sk, session = new.scope.key, new.scope.session_id or ""
                if (sk, session) not in last:
                    row = conn.execute("SELECT step, content FROM turns WHERE scope_key=? AND session=?"
                                       " ORDER BY step DESC LIMIT 1", (sk, session)).fetchone()
                    last[(sk, session)] = (row[0], row[1]) if row else (0, None)
                step, before = last[(sk, session)][0] + 1, last[(sk, session)][1]
                last[(sk, session)] = (step, new.content)
                epoch, offset = codec.to_epoch(new.timestamp)
                reply = self._reply(conn, new, out, epoch)
                cur = conn.execute(
                    "INSERT INTO turns(scope_key, tenant, agent, owner, session, step, role, actor,"
                    " content, ts, tz, metadata, created, actor_id, reply_to)"
                    " VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (sk, new.scope.tenant_id, new.scope.agent_id, new.scope.owner, session, step,
                     new.role, new.actor, new.content, epoch, offset,
                     json.dumps(new.metadata, ensure_ascii=False), now, new.actor_id, reply),
                )
                turn_id = int(cur.lastrowid or 0)
                fts.insert(conn, turn_id, sk, new.index_text, before)
                out.append(Turn(turn_id, new.scope, step, new.role, new.content, new.actor,
                                new.timestamp, dict(new.metadata), new.actor_id, reply))
            note_speakers(SQLiteExec(conn), SQLITE, out)  # who spoke where, with the turns
            # one job per chat and per JOB_TURNS turns, in order (fair_share.py); `tenant` counts
            # its turns in the tenant's backlog (tenant_backlog, the pending cap)
            conn.executemany(
                "INSERT INTO jobs(kind, payload, created, updated, tenant) VALUES('turns', ?, ?, ?, ?)",
                [(json.dumps([t.id for t in batch]), now, now, batch[0].scope.tenant_id)
                 for batch in job_batches(out, [t.scope.key for t in out])],
            )
            if once is not None:
                conn.execute("INSERT INTO idempotency(tenant, key, fingerprint, turns, created) VALUES(?,?,?,?,?)",
                             (once.tenant, once.key, once.fingerprint, json.dumps([t.id for t in out]), now))
        return out

    def _reply(self, conn: sqlite3.Connection, new: NewTurn, batch: list[Turn], epoch: float) -> int | None:
        if new.reply_to is None and new.reply_message is None and new.quote is None and new.address is None:
            return None
        sk = new.scope.key

        def chat_of(turn_id: int) -> str | None:
            row = conn.execute("SELECT scope_key FROM turns WHERE id=?", (turn_id,)).fetchone()
            return row[0] if row else None

        def by_message(mid: str) -> int | None:
            row = conn.execute("SELECT id FROM turns WHERE scope_key=? AND json_extract(metadata, '$.message_id')=?"
                               " ORDER BY id DESC LIMIT 1", (sk, mid)).fetchone()
            return int(row[0]) if row else None

        def recent() -> list[Turn]:
            rows = conn.execute(f"SELECT {codec.TURN_COLUMNS} FROM turns WHERE scope_key=? AND ts<=?"
                                " ORDER BY ts DESC, id DESC LIMIT ?", (sk, epoch, replies.RECENT)).fetchall()
            return [codec.turn(r) for r in reversed(rows)]

        return replies.link(new, batch, chat_of, by_message, recent)

    def reply_links(self, ids: Iterable[int]) -> dict[int, list[int]]:
        return self._reply_links(ids)

    def _reply_links(self, ids: Iterable[int]) -> dict[int, list[int]]:
        wanted = list(dict.fromkeys(ids))
        out: dict[int, list[int]] = {i: [] for i in wanted}
        for start in range(0, len(wanted), 500):
            part = wanted[start:start + 500]
            marks = ",".join("?" * len(part))
            for a, b in self._read.execute(
                    f"SELECT id, reply_to FROM turns WHERE id IN ({marks}) AND reply_to IS NOT NULL"
                    f" UNION SELECT reply_to, id FROM turns WHERE reply_to IN ({marks})", [*part, *part]):
                out.setdefault(int(a), []).append(int(b))
        return {k: sorted(set(v)) for k, v in out.items() if v}

    def replay(self, once: Once) -> list[Turn] | None:
        return self._replay(self._read, once)

    def _replay(self, conn: sqlite3.Connection, once: Once) -> list[Turn] | None:
        """The turns an earlier write with this idempotency key stored (those not forgotten
        since), or None for a new key; the same key for other turns is a Conflict."""
        row = conn.execute("SELECT fingerprint, turns FROM idempotency WHERE tenant=? AND key=?",
                           (once.tenant, once.key)).fetchone()
        if row is None:
            return None
        if row[0] != once.fingerprint:
            raise Conflict(f"idempotency key {once.key!r} was used for other turns; use a new key for a new write")
        ids = json.loads(row[1])
        marks = ",".join("?" * len(ids))
        found = {r[0]: codec.turn(r) for r in conn.execute(
            f"SELECT {codec.TURN_COLUMNS} FROM turns WHERE id IN ({marks})", ids)}
        return [found[i] for i in ids if i in found]

    def get_turns(self, ids: Iterable[int]) -> dict[int, Turn]:
        ids = list(dict.fromkeys(int(i) for i in ids))
        sql = f"SELECT {codec.TURN_COLUMNS} FROM turns WHERE id IN ({{}})"
        return {row[0]: codec.turn(row) for row in self._select_in(sql, [], ids)}

    def turn_refs(self, ids: Iterable[int], radius: int = 0, around: Iterable[int] = ()) -> dict[int, TurnRef]:
        return self._turn_refs(ids, radius, around)

    def _turn_refs(self, ids: Iterable[int], radius: int = 0, around: Iterable[int] = ()) -> dict[int, TurnRef]:
        sql = f"SELECT {codec.ref_columns('turns')} FROM turns WHERE id IN ({{}})"
        refs = {row[0]: TurnRef(*row) for row in self._select_in(sql, [], list(dict.fromkeys(int(i) for i in ids)))}
        seeds = list(dict.fromkeys(int(i) for i in around)) if radius > 0 else []
        sql = (f"SELECT DISTINCT {codec.ref_columns('n')} FROM turns t JOIN turns n"
               " ON n.scope_key=t.scope_key AND n.session=t.session"
               " AND n.step BETWEEN t.step-? AND t.step+? WHERE t.id IN ({})")
        refs.update((row[0], TurnRef(*row)) for row in self._select_in(sql, [radius, radius], seeds))
        return refs

    def turn_times(self, ids: Iterable[int]) -> dict[int, float]:
        wanted = list(dict.fromkeys(int(i) for i in ids))
        return {r[0]: r[1] for r in self._select_in("SELECT id, ts FROM turns WHERE id IN ({})", [], wanted)}

    def list_turns(self, scope: Scope, *, session_id: str | None = None, limit: int = 100,
                   offset: int = 0, since: Any = None, until: Any = None, actor_id: str | None = None,
                   actor: str | None = None, text: str | None = None, first: str | None = None) -> list[Turn]:
        sql = f"SELECT {codec.TURN_COLUMNS} FROM turns WHERE scope_key=?"
        args: list[Any] = [scope.key]
        for column, value in (("session", session_id), ("actor_id", actor_id), ("actor", actor)):
            if value is not None:
                sql, args = sql + f" AND {column}=?", [*args, value]
        if since is not None:
            sql, args = sql + " AND ts>=?", [*args, codec.to_epoch(since)[0]]
        if until is not None:
            sql, args = sql + " AND ts<=?", [*args, codec.to_epoch(until)[0]]
        if text is not None:
            sql, args = sql + " AND instr(py_lower(content), ?) > 0", [*args, text.lower()]
        order = "ts, session, step" if first is None else "actor_id IS ? DESC, ts, session, step"
        sql += f" ORDER BY {order} LIMIT ? OFFSET ?"
        return [codec.turn(r) for r in self._read.execute(sql, [*args, *([] if first is None else [first]),
                                                                 limit, offset])]

    def turns_with_terms(self, scope: Scope, terms: Sequence[str]) -> list[int]:
        if not terms:
            return []
        query = "body : (" + " AND ".join(fts.match(fts.scope_token(scope.key), [t]) for t in terms) + ")"
        return [r[0] for r in self._read.execute("SELECT rowid FROM turns_fts WHERE turns_fts MATCH ?", (query,))]

    def last_turns(self, scope: Scope, session_id: str, n: int, until: float | None = None) -> list[Turn]:
        before = "" if until is None else " AND ts<=?"
        rows = self._read.execute(
            f"SELECT {codec.TURN_COLUMNS} FROM turns WHERE scope_key=? AND session=?{before}"
            " ORDER BY step DESC LIMIT ?",
            (scope.key, session_id, *(() if until is None else (until,)), n),
        ).fetchall()
        return [codec.turn(r) for r in reversed(rows)]

    def spoken(self, scope: Scope, people: Sequence[str], until: float) -> dict[str, tuple[float, float, int]]:
        if not people:
            return {}
        rows = self._read.execute(
            "SELECT actor_id, MIN(ts), MAX(ts), COUNT(*) FROM turns WHERE tenant=? AND agent=? AND owner=?"
            f" AND actor_id IN ({','.join('?' * len(people))}) AND ts<=? GROUP BY actor_id",
            (scope.tenant_id, scope.agent_id, scope.owner, *people, until))
        return {r[0]: (r[1], r[2], r[3]) for r in rows}

    def chat_latest(self, scope: Scope, until: float) -> tuple[str, float] | None:
        row = self._read.execute("SELECT session, ts FROM turns WHERE scope_key=? AND ts<=?"
                                 " ORDER BY ts DESC, id DESC LIMIT 1", (scope.key, until)).fetchone()
        return (row[0], float(row[1])) if row else None

    def turn_at(self, scope: Scope, session_id: str, step: int) -> Turn | None:
        row = self._read.execute(f"SELECT {codec.TURN_COLUMNS} FROM turns"
                                 " WHERE scope_key=? AND session=? AND step=?",
                                 (scope.key, session_id, step)).fetchone()
        return codec.turn(row) if row else None

    def max_steps(self, scope: Scope, sessions: Iterable[str]) -> dict[str, int]:
        return self._max_steps(scope.key, sessions)

    def _max_steps(self, scope_key: str, sessions: Iterable[str]) -> dict[str, int]:
        # one statement, one index seek per session (GROUP BY would read every step)
        rows = self._read.execute(
            "SELECT j.value, (SELECT MAX(step) FROM turns WHERE scope_key=? AND session=j.value)"
            " FROM json_each(?) j", (scope_key, json.dumps(list(set(sessions)))))
        return {r[0]: r[1] or 0 for r in rows}

    def actors(self, scope: Scope) -> list[str]:
        return self._actors(scope)

    def _actors(self, scope: Scope) -> list[str]:
        # one index seek per speaker (turns_actor), not a read of every turn: a search asks
        rows = self._read.execute(
            "WITH RECURSIVE a(actor) AS (SELECT MIN(actor) FROM turns WHERE scope_key=:s"
            " UNION ALL SELECT (SELECT MIN(actor) FROM turns WHERE scope_key=:s AND actor>a.actor)"
            " FROM a WHERE a.actor IS NOT NULL) SELECT actor FROM a WHERE actor IS NOT NULL",
            {"s": scope.key})
        return [r[0] for r in rows]

    def sessions(self, scope: Scope) -> list[dict[str, Any]]:
        rows = self._read.execute(
            "SELECT session, COUNT(*) n, MIN(ts) first, MAX(ts) last, MAX(step) steps FROM turns"
            " WHERE scope_key=? GROUP BY session ORDER BY first", (scope.key,))
        return [{"session_id": r["session"], "turns": r["n"], "last_step": r["steps"],
                 "first": codec.utc(r["first"]), "last": codec.utc(r["last"])} for r in rows]

    def owners(self, tenant_id: str, agent_id: str) -> list[str]:
        rows = self._read.execute("SELECT DISTINCT owner FROM turns WHERE tenant=? AND agent=?"
                                  " UNION SELECT DISTINCT owner FROM key_lines WHERE tenant=? AND agent=?"
                                  " ORDER BY 1", (tenant_id, agent_id, tenant_id, agent_id))
        return [r[0] for r in rows]

    def turn_ids(self, scope: Scope, session_id: str | None = None) -> list[int]:
        if session_id is None:
            rows = self._read.execute("SELECT id FROM turns WHERE scope_key=?", (scope.key,))
        else:
            rows = self._read.execute("SELECT id FROM turns WHERE scope_key=? AND session=?",
                                      (scope.key, session_id))
        return [r[0] for r in rows]

    def lexical(self, scope: Scope, terms: list[str], limit: int,
                session_id: str | None = None, until: float | None = None) -> list[tuple[int, float]]:
        if not terms:
            return []
        query = fts.match(fts.scope_token(scope.key), terms)
        if session_id is None and until is None:
            rows = self._read.execute(
                f"SELECT rowid, {fts.BM25} AS score FROM turns_fts WHERE turns_fts MATCH ?"
                " ORDER BY score LIMIT ?", (query, limit))
        else:
            where = [(" AND t.session=?", session_id), (" AND t.ts<=?", until)]
            rows = self._read.execute(
                f"SELECT f.rowid, {fts.BM25} AS score FROM turns_fts f JOIN turns t ON t.id=f.rowid"
                f" WHERE turns_fts MATCH ?{''.join(c for c, v in where if v is not None)} ORDER BY score LIMIT ?",
                (query, *(v for _, v in where if v is not None), limit))
        return [(r[0], -r[1]) for r in rows]

    def delete_turns(self, ids: list[int]) -> int:
        with self._tx() as conn:
            count = 0
            gone = set(ids)
            after = fts.following(conn, ids)  # their words are these turns' context
            for turn_id in ids:
                count += conn.execute("DELETE FROM turns WHERE id=?", (turn_id,)).rowcount
                conn.execute("DELETE FROM turns_fts WHERE rowid=?", (turn_id,))
                conn.executemany("DELETE FROM vectors WHERE kind=? AND ref=?",
                                 [(kind, turn_id) for kind in TURN_VECTOR_KINDS])
                conn.execute("DELETE FROM cluster_members WHERE turn_id=?", (turn_id,))
            fts.reindex(conn, [i for i in after if i not in gone])
            return count

    def stats(self, tenant_id: str | None = None, *, agent_id: str | None = None,
              owner: str | None = None) -> dict[str, int]:
        """Counts over the store, or over a tenant, an agent and an owner where given. Jobs
        are counted by whose rows they are about (job_scopes), so no tenant sees another's."""
        filters = [(col, value) for col, value in (("tenant", tenant_id), ("agent", agent_id),
                                                    ("owner", owner)) if value is not None]
        where = ("WHERE " + " AND ".join(f"{col}=?" for col, _ in filters)) if filters else ""
        args = [value for _, value in filters]
        out = {}
        for name, table in (("turns", "turns"), ("clusters", "clusters"), ("summaries", "summaries"),
                            ("key_lines", "key_lines")):
            out[name] = self._read.execute(f"SELECT COUNT(*) FROM {table} {where}", args).fetchone()[0]
        out["owners"] = self._read.execute(f"SELECT COUNT(DISTINCT owner) FROM turns {where}", args).fetchone()[0]
        out["sessions"] = self._read.execute(
            f"SELECT COUNT(*) FROM (SELECT DISTINCT scope_key, session FROM turns {where})", args).fetchone()[0]
        jobs = f"AND id IN (SELECT job FROM job_scopes {where})" if filters else ""
        for name, status in (("pending_jobs", "('pending','running')"), ("failed_jobs", "('failed')")):
            out[name] = self._read.execute(f"SELECT COUNT(*) FROM jobs WHERE status IN {status} {jobs}",
                                           args).fetchone()[0]
        return out
