"""Whose a job is, on PostgreSQL, is found by key seeks (issue 21): every search queues a 'hits'
job, and its insert trigger (``job_scopes_of``) once read the whole clusters table for it (an
OR of two IN lists, which no index answers): 25-40 ms at 50k turns, growing with the store.

The plans are read with sequential scans disabled: a plan that can seek takes the index, one
that cannot still scans the table (a wall-clock assert would be flaky). What the function
returns is the contract suite's (tests/contract/test_jobs_contract.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pmemo.stores.postgres.store import PostgresStore


@pytest.fixture
def store(postgres_url: str) -> Iterator[PostgresStore]:
    s = PostgresStore.open(postgres_url)
    yield s
    s.close()


@pytest.mark.parametrize(("kind", "payload", "table"), [
    ("hits", '{"clusters": [1, 2, 3], "at": 1.0}', "clusters"),
    ("promote", '{"cluster_id": 1}', "clusters"),
    ("embed", "[1, 2]", "turns"),
    ("touch", '{"episodes": [1, 2]}', "episodes"),
])
def test_a_job_finds_its_owners_by_key_seeks(store: PostgresStore, kind: str, payload: str, table: str) -> None:
    with store._db.tx() as cur:  # noqa: SLF001 - the plan of the trigger's function
        cur.execute("SET LOCAL enable_seqscan = off")
        plan = "\n".join(r[0] for r in cur.execute("EXPLAIN SELECT * FROM job_scopes_of(%s, %s::jsonb)",
                                                    (kind, payload)))
    assert f"using {table}_pkey on {table}" in plan, plan
    assert "Seq Scan" not in plan, plan
