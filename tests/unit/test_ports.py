"""The ports (issue 45 §1): small Protocols that import only the models, which both stores give
as attributes; the graph's SQL is written once (``stores/graph_sql.py``) and each backend's
graph module keeps only its dialect."""

from __future__ import annotations

import ast
import inspect
import sys
from pathlib import Path

import pytest

import pmemo.ports
from pmemo.ports import (
    DiaryPort,
    GraphPort,
    KeyLinePort,
    LockPort,
    PeoplePort,
    PersonForgetPort,
    UnitOfWork,
    WindowPort,
)
from pmemo.ports.agenda import AgendaPort
from pmemo.ports.api_keys import KeyStore
from pmemo.ports.batches import BatchPort
from pmemo.ports.clusters import ClusterPort
from pmemo.ports.episodes import EpisodePort
from pmemo.ports.facts import FactPort
from pmemo.ports.forget import ForgetPort
from pmemo.ports.jobs import JobPort, JobSignals
from pmemo.ports.owners import OwnerPort
from pmemo.ports.records import RecordPort
from pmemo.ports.summaries import SummaryPort
from pmemo.ports.tasks import TaskPort
from pmemo.ports.turns import TurnPort
from pmemo.ports.usage import UsagePort
from pmemo.ports.vectors import EmbedCachePort, MetaPort, VectorPort
from pmemo.stores.agenda_sql import SQLAgenda
from pmemo.stores.api_keys_sql import SQLKeyStore
from pmemo.stores.batches_sql import SQLBatches
from pmemo.stores.clusters_sql import SQLClusters
from pmemo.stores.diary_sql import SQLDiary
from pmemo.stores.episodes_sql import SQLEpisodes
from pmemo.stores.facts_sql import SQLFacts
from pmemo.stores.forget_sql import SQLForget
from pmemo.stores.graph_sql import SQLGraph
from pmemo.stores.jobs_sql import SQLJobs
from pmemo.stores.key_lines_sql import SQLKeyLines
from pmemo.stores.locks import Locks
from pmemo.stores.owners_sql import SQLOwners
from pmemo.stores.people_sql import PeopleNames, SQLPeople
from pmemo.stores.person_forget_sql import SQLPersonForget
from pmemo.stores.postgres.graph import PostgresGraph
from pmemo.stores.postgres.jobs import PostgresJobs
from pmemo.stores.postgres.locks import PostgresLocks
from pmemo.stores.postgres.people import PostgresPeople
from pmemo.stores.postgres.person_forget import PostgresPersonForget
from pmemo.stores.records_sql import SQLRecords
from pmemo.stores.sqlite.graph_store import SQLiteGraph
from pmemo.stores.sqlite.jobs import SQLiteJobs
from pmemo.stores.sqlite.locks import NamedLocks
from pmemo.stores.sqlite.person_forget import SQLitePersonForget
from pmemo.stores.summaries_sql import SQLSummaries
from pmemo.stores.tasks_sql import SQLTasks
from pmemo.stores.turns_sql import SQLTurns
from pmemo.stores.usage_sql import SQLUsage
from pmemo.stores.vectors_sql import SQLEmbedCache, SQLMeta, SQLVectors
from pmemo.stores.windows_sql import SQLWindows, WindowNames

PORTS = Path(pmemo.ports.__file__).parent
MAX_METHODS = 20


def methods(protocol: type) -> set[str]:
    return {m for m, v in vars(protocol).items() if inspect.isfunction(v) and not m.startswith("_")}


def test_a_port_imports_only_the_models_and_the_standard_library():
    for path in sorted(PORTS.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:  # relative: inside pmemo
                assert node.module in ("models", *(p.stem for p in PORTS.glob("*.py"))), (path.name, node.module)
            elif isinstance(node, ast.ImportFrom | ast.Import):
                names = [node.module] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
                assert all(str(n).split(".")[0] in sys.stdlib_module_names for n in names), (path.name, names)


SMALL_PORTS = (  # every port with at most MAX_METHODS methods
    GraphPort, PeoplePort, WindowPort, PersonForgetPort, DiaryPort, KeyLinePort, KeyStore, AgendaPort,
    UsagePort, RecordPort, FactPort, EpisodePort, TaskPort, BatchPort, JobPort, VectorPort, TurnPort,
    MetaPort, EmbedCachePort, ClusterPort, SummaryPort, ForgetPort,
)


def test_each_port_is_small():
    for port in SMALL_PORTS:
        assert 0 < len(methods(port)) <= MAX_METHODS, port.__name__
    assert methods(LockPort) == {"hold"}
    assert methods(JobSignals) == {"listen_jobs"}
    assert methods(OwnerPort) == {"conversation_now", "owner_scopes"}
    assert methods(UnitOfWork) == {"tx"}


def test_each_backend_gives_every_method_of_the_graph_port_from_the_shared_sql():
    for backend in (SQLiteGraph, PostgresGraph):
        assert methods(GraphPort) <= {m for m in dir(backend) if not m.startswith("_")}
        own = methods(backend) - {"queue_insights"}  # the job queue is the backend's
        assert own == set(), f"{backend.__name__} writes {own} again: they belong in stores/graph_sql.py"
    assert methods(GraphPort) - {"queue_insights"} <= methods(SQLGraph)


def test_the_people_port_is_written_once():
    assert methods(PeoplePort) <= methods(SQLPeople)
    # Postgres's own: a batch of aliases in one statement (SQLite has no writing CTE)
    assert methods(PostgresPeople) == {"add_aliases"}
    assert methods(PeoplePort) == methods(PeopleNames)  # the store's old names, each the port's call


def test_the_windows_port_is_written_once():
    assert methods(WindowPort) <= methods(SQLWindows)  # both stores build SQLWindows itself
    assert methods(WindowPort) == methods(WindowNames)


def test_the_person_forget_port_is_written_once():
    assert methods(PersonForgetPort) <= methods(SQLPersonForget)
    for backend in (SQLitePersonForget, PostgresPersonForget):  # each keeps only its catalogue
        assert methods(backend) == set() and set(vars(backend)) - {"__module__", "__doc__", "__qualname__"} \
            <= {"_columns", "__firstlineno__", "__static_attributes__"}


def test_the_diary_port_is_written_once():
    assert methods(DiaryPort) <= methods(SQLDiary)  # both stores build SQLDiary itself


def test_the_key_lines_port_is_written_once():
    assert methods(KeyLinePort) <= methods(SQLKeyLines)  # both stores build SQLKeyLines itself


def test_the_lock_port_is_written_once():
    assert methods(LockPort) <= methods(Locks)
    for backend in (NamedLocks, PostgresLocks):  # each gives only the block it holds the names in
        assert methods(backend) == set() and "_held" in vars(backend)


def test_the_key_port_is_written_once():
    from pmemo.stores.postgres.api_keys import PostgresKeyStore
    from pmemo.stores.sqlite.api_keys import SQLiteKeyStore

    assert methods(KeyStore) - {"close"} <= methods(SQLKeyStore)
    assert methods(SQLiteKeyStore) == {"close", "rows"}  # besides opening: moving keys out
    assert methods(PostgresKeyStore) == {"close", "adopt"}  # and in


def test_the_agenda_port_is_written_once():
    assert methods(AgendaPort) <= methods(SQLAgenda)  # both stores build SQLAgenda itself


def test_the_usage_port_is_written_once():
    assert methods(UsagePort) <= methods(SQLUsage)  # both stores build SQLUsage itself


def test_the_facts_port_is_written_once():
    assert methods(FactPort) <= methods(SQLFacts)  # both stores build SQLFacts itself


def test_the_episodes_port_is_written_once():
    from pmemo.stores.postgres.episodes import PostgresEpisodes
    from pmemo.stores.sqlite.episodes import SQLiteEpisodes

    assert methods(EpisodePort) <= methods(SQLEpisodes)
    for backend in (SQLiteEpisodes, PostgresEpisodes):  # each gives only where the vectors are compared
        assert methods(backend) == {"episode_signals"}


def test_the_tasks_port_is_written_once():
    assert methods(TaskPort) <= methods(SQLTasks)  # both stores build SQLTasks itself


def test_the_batches_port_is_written_once():
    assert methods(BatchPort) <= methods(SQLBatches)  # both stores build SQLBatches itself


def test_the_records_port_is_written_once():
    assert methods(RecordPort) <= methods(SQLRecords)  # both stores build SQLRecords itself


def test_the_job_port_is_written_once():
    # a backend's own: how it queues a job once and which triggers a fact change queues it with
    own = {"enqueue_once", "queue_on_fact_change"}
    assert methods(JobPort) - own <= methods(SQLJobs)
    assert methods(SQLiteJobs) == own  # besides _due: which due jobs a claim ranks and holds
    assert methods(PostgresJobs) == own | {"listen_jobs"}  # and the wake-ups (LISTEN/NOTIFY)
    assert isinstance(PostgresJobs.__new__(PostgresJobs), JobSignals)
    assert not isinstance(SQLiteJobs.__new__(SQLiteJobs), JobSignals)


def test_the_vectors_port_is_written_once():
    from pmemo.stores.postgres.vectors import PostgresVectors
    from pmemo.stores.sqlite.vectors import SQLiteVectors

    assert methods(VectorPort) - {"nearest"} <= methods(SQLVectors)  # the search is each backend's
    assert methods(SQLiteVectors) == {"get_vectors", "nearest"}  # the in-memory index first
    assert methods(PostgresVectors) == {"nearest", "nearest_ann", "approximate"}  # pgvector, exact or HNSW
    assert methods(MetaPort) <= methods(SQLMeta) and methods(EmbedCachePort) <= methods(SQLEmbedCache)


def test_the_clusters_port_is_written_once():
    from pmemo.stores.postgres.clusters import PostgresClusters
    from pmemo.stores.sqlite.clusters import SQLiteClusters

    assert methods(ClusterPort) - {"centroids", "nearest_clusters"} <= methods(SQLClusters)
    # each gives where a query meets the centroids; Postgres writes an ingest's three writes in one
    # statement each (SQLite has no writing CTE)
    assert methods(SQLiteClusters) == {"centroids", "nearest_clusters"}
    assert methods(PostgresClusters) == {"centroids", "nearest_clusters", "add_cluster", "join_cluster",
                                         "merge_clusters"}


def test_the_summaries_port_is_written_once():
    assert methods(SummaryPort) <= methods(SQLSummaries)  # both stores build SQLSummaries itself


def test_the_turns_port_reads_are_written_once():
    from pmemo.stores.postgres.turns import PostgresTurns
    from pmemo.stores.sqlite.turns import SQLiteTurns

    own = {"add_turns", "delete_turns", "lexical", "turns_with_terms"}  # steps and the keyword index
    assert methods(TurnPort) <= methods(SQLTurns)
    for backend in (SQLiteTurns, PostgresTurns):
        assert methods(backend) == own, methods(backend)


def test_the_forget_port_is_written_once():
    from pmemo.stores.postgres.forget import PostgresForget
    from pmemo.stores.sqlite.forget_store import SQLiteForget

    # a backend's own: how a row is snapshotted and put back, and its privacy switches
    own = {"snapshot", "restore_snapshot", "secure_delete", "scrub"}
    assert methods(ForgetPort) - own <= methods(SQLForget)
    assert methods(SQLiteForget) == own and methods(PostgresForget) == own


def test_the_owners_port_is_written_once():
    assert methods(OwnerPort) <= methods(SQLOwners)  # both stores build SQLOwners itself


@pytest.mark.parametrize("port", [FactPort, RecordPort, VectorPort, MetaPort, EmbedCachePort, JobPort,
                                  ClusterPort, SummaryPort, TurnPort, ForgetPort, OwnerPort])
def test_no_store_keeps_a_call_of_a_port_every_consumer_takes(port: type) -> None:
    from pmemo.stores.postgres.store import PostgresStore
    from pmemo.stores.sqlite.store import SQLiteStore

    for store in (SQLiteStore, PostgresStore):
        assert not methods(port) & set(dir(store)), methods(port) & set(dir(store))
