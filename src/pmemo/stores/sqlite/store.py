"""The embedded store: one SQLite file in WAL mode, one writer, readers per thread.

Writes go through a single connection under a lock (SQLite allows one writer);
reads use a connection per thread, which WAL lets run beside the writer.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from ...errors import InvalidInput, StoreCorrupt, StoreError, StoreLocked
from ...files import private_dir, private_file, private_sqlite, sqlite_bytes, warn_if_open
from ..agenda_sql import SQLAgenda
from ..batches_sql import SQLBatches
from ..diary_sql import SQLDiary
from ..facts_sql import SQLFacts
from ..key_lines_sql import SQLKeyLines
from ..owners_sql import SQLOwners
from ..people_sql import PeopleNames, SQLPeople
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
from .dialect import SQLITE, SQLiteLink
from .episodes import SQLiteEpisodes
from .forget_store import SQLiteForget
from .graph_store import SQLiteGraph
from .jobs import SQLiteJobs
from .locks import NamedLocks
from .person_forget import SQLitePersonForget
from .read_plan import ReadPlanRows
from .schema import migrate
from .turns import SQLiteTurns
from .vectors import BLOBS, SQLiteVectors

T = TypeVar("T")

DB_NAME = "pmemo.db"
CENTROID_SCOPES = 256  # scopes whose centroids are kept between writes


class SQLiteStore(PeopleNames, WindowNames, ReadPlanRows):
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
        self.turns = SQLiteTurns(lambda: self._read, self._tx)
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
        self.owners = SQLOwners(SQLiteLink(lambda: self._read, self._tx))
        self.forget = SQLiteForget(lambda: self._read, self._tx, self._writer, self._write_lock,
                                   lambda data: self.person_forget.put_back_person(data))
        self.person_forget = SQLitePersonForget(SQLiteLink(lambda: self._read, self._tx), SQLITE, self.graph,
                                                self.forget.snapshot)
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
