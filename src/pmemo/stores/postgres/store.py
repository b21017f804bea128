"""The scale-out store: PostgreSQL with pgvector, shared by any number of processes.

``PostgresStore`` is composed of one mixin per concern (turns, vectors,
jobs), each reading and writing through the connection pool in ``database.py``;
the schema comes from the versioned files in ``migrations/``, applied at open. Nothing is
cached in the process: every read asks the database, so a write made through one process (a
server replica, a worker) is read by all.

>>> store = PostgresStore.open("postgresql://pmemo@db.example/pmemo")  # doctest: +SKIP
"""

from __future__ import annotations

from contextlib import AbstractContextManager

from ..agenda_sql import SQLAgenda
from ..batches_sql import SQLBatches
from ..diary_sql import SQLDiary
from ..facts_sql import SQLFacts
from ..jobs_sql import jobs_of
from ..key_lines_sql import SQLKeyLines
from ..owners_sql import SQLOwners
from ..people_sql import PeopleNames
from ..records_sql import SQLRecords
from ..summaries_sql import SQLSummaries
from ..tasks_sql import SQLTasks
from ..usage_sql import SQLUsage
from ..vectors_sql import SQLEmbedCache, SQLMeta
from ..windows_sql import SQLWindows, WindowNames
from . import codec
from .clusters import PostgresClusters
from .database import Database
from .dialect import POSTGRES, PostgresLink, placeholders
from .episodes import PostgresEpisodes
from .forget import PostgresForget
from .graph import PostgresGraph
from .jobs import PostgresJobs
from .locks import PostgresLocks
from .migrate import migrate
from .people import PostgresPeople
from .person_forget import PostgresPersonForget
from .read_plan import ReadPlanRows
from .turns import PostgresTurns
from .vectors import PGVECTOR, PostgresVectors


class PostgresStore(PeopleNames, WindowNames, ReadPlanRows):
    """``PostgresStore.open(url)`` → a store over the database at ``url`` (migrated first)."""

    parallel_reads = True  # a pool of connections: reads started at once go on at once

    def __init__(self, db: Database) -> None:
        self._db = db
        self.graph = PostgresGraph(PostgresLink(db), POSTGRES)
        self.people = PostgresPeople(db, POSTGRES)
        self.l2 = SQLWindows(PostgresLink(db), POSTGRES)
        self.diary = SQLDiary(PostgresLink(db), POSTGRES, codec.f32)
        self.locks = PostgresLocks(db)
        self.key_lines = SQLKeyLines(PostgresLink(db), POSTGRES)
        self.clusters = PostgresClusters(db)
        self.summaries = SQLSummaries(PostgresLink(db), POSTGRES)
        self.plans = SQLAgenda(PostgresLink(db), POSTGRES)
        self.profile = SQLFacts(PostgresLink(db), POSTGRES)
        self.episodes = PostgresEpisodes(PostgresLink(db), POSTGRES)
        self.tasks = SQLTasks(PostgresLink(db), POSTGRES)
        self.records = SQLRecords(PostgresLink(db), POSTGRES)
        self.batches = SQLBatches(PostgresLink(db), POSTGRES)
        self.quotas = SQLUsage(PostgresLink(db), POSTGRES)
        self.jobs = PostgresJobs(db)
        self.vectors = PostgresVectors(db)
        self.turns = PostgresTurns(db)
        self.meta = SQLMeta(PostgresLink(db))
        self.embed_cache = SQLEmbedCache(PostgresLink(db), POSTGRES, PGVECTOR)
        self.owners = SQLOwners(PostgresLink(db))
        self.forget = PostgresForget(db, lambda data: self.person_forget.put_back_person(data))
        self.person_forget = PostgresPersonForget(PostgresLink(db), POSTGRES, self.graph, self.forget.snapshot)

    def tx(self) -> AbstractContextManager[None]:
        """The unit of work (``ports.unit``): the calls in the block, in this context and
        thread, share one connection and one transaction."""
        return self._db.unit()

    @classmethod
    def open(cls, url: str) -> PostgresStore:
        migrate(url)
        return cls(Database(url))

    def close(self) -> None:
        self._db.close()

    def size_bytes(self) -> int:
        """Bytes the store's tables, their indexes and their TOAST take in the database."""
        row = self._db.one("SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0) FROM pg_class c"
                           " JOIN pg_namespace n ON n.oid = c.relnamespace"
                           " WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'm')")
        return int(row[0]) if row else 0

    def stats(self, tenant_id: str | None = None, *, agent_id: str | None = None,
              owner: str | None = None) -> dict[str, int]:
        """Counts over the store, or over a tenant, an agent and an owner where given. Jobs
        are counted by whose rows they are about (job_scopes), so no tenant sees another's."""
        mine, args = jobs_of(tenant_id, agent_id, owner)
        where = ("WHERE " + " AND ".join(f"{col}=%({col})s" for col in args)) if args else ""
        row = self._db.one(
            f"SELECT (SELECT COUNT(*) FROM turns {where}), (SELECT COUNT(*) FROM clusters {where}),"
            f" (SELECT COUNT(*) FROM summaries {where}), (SELECT COUNT(*) FROM key_lines {where}),"
            f" (SELECT COUNT(DISTINCT owner) FROM turns {where}),"
            f" (SELECT COUNT(*) FROM (SELECT DISTINCT scope_key, session FROM turns {where}) s),"
            f" (SELECT COUNT(*) FROM jobs WHERE status IN ('pending', 'running'){placeholders(mine)}),"
            f" (SELECT COUNT(*) FROM jobs WHERE status = 'failed'{placeholders(mine)})", dict(args))
        assert row is not None
        names = ("turns", "clusters", "summaries", "key_lines", "owners", "sessions", "pending_jobs", "failed_jobs")
        return {name: int(value) for name, value in zip(names, row, strict=True)}
