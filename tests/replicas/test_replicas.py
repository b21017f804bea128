"""Replicas (issue 21 §4): real ``pmemo serve`` and ``pmemo worker`` processes on one
PostgreSQL, spoken to over real HTTP.

Two servers that only queue jobs (``PMEMO_RUN_JOBS=false``) and two workers that run them:
a write through either server is read through either, the answers are those of one process
on the same input, and a worker killed (SIGKILL) in the middle of a job loses nothing: the
other finishes the job once its lease runs out. The faults of three workers, a Postgres restart
and a Redis restart are in test_faults.py.
"""

from __future__ import annotations

import signal
import time
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from pg import with_search_path
from pmemo import Settings, SyncMemory
from pmemo.stores.postgres.api_keys import PostgresKeyStore

from .procs import MODEL, Embeddings, Proc, environment, free_port, serve, stopped_at_end, worker

T0 = datetime(2025, 3, 3, 9, 0, tzinfo=timezone(timedelta(hours=8)))
AT = (T0 + timedelta(days=1)).isoformat()
LEASE_S = "2"
U1 = [
    "项目总预算不能超过10万元人民币，这是老板定的硬上限。",
    "The launch date is Monday April 15, confirmed by the team.",
    "Lucky cannot eat grapes or chocolate, they are poisonous for dogs.",
    "去杭州出差是3月20日到22日，住在西湖边的酒店。",
    "The payment service double-charges users when the WeChat callback times out.",
    "后端岗位决定录用小陈，月薪两万五。",
    "下周三要交季度报告，记得提醒我。",
    "My sister Anna lives in Lisbon and works as an architect.",
    "The staging database password rotates every 30 days.",
    "周末想去爬山，天气好的话去黄山。",
    "We agreed to move the weekly sync to Thursday 10am.",
    "我最喜欢的咖啡是燕麦拿铁，少糖。",
]
GROUP = [("ni", "周霓", "大家好，叫我霓霓就行。我对花生过敏"), ("wt", "许文涛", "我在字节工作，不吃香菜"),
         ("ni", "周霓", "我家猫叫年糕"), ("wt", "许文涛", "霓霓是我同学")]
QUERIES = [("预算上限是多少", {"user_id": "u1"}), ("grapes chocolate dog", {"user_id": "u1"}),
           ("霓霓对什么过敏", {"group_id": "study"})]


def items() -> list[list[dict[str, Any]]]:
    """The input, in batches of three, as POST /v1/turns bodies take them."""
    turns = [{"user_id": "u1", "session_id": "s1", "content": c, "timestamp": (T0 + timedelta(minutes=i)).isoformat()}
             for i, c in enumerate(U1)]
    turns += [{"group_id": "study", "session_id": "chat", "actor_id": who, "actor": name, "content": text,
               "timestamp": (T0 + timedelta(minutes=30 + i)).isoformat()} for i, (who, name, text) in enumerate(GROUP)]
    return [turns[i : i + 3] for i in range(0, len(turns), 3)]


def answers(call: Any) -> dict[str, Any]:
    """What a memory says about the input: each query's hits (kind, text, score) and context,
    and the profiles. ``call(path, body)`` asks it (a REST server, or the library)."""
    out: dict[str, Any] = {}
    for query, scope in QUERIES:
        hits = call("search", {"query": query, "limit": 5, "at": AT, **scope})["hits"]
        out[f"search {query}"] = [(h["kind"], h["text"], round(h["score"], 4)) for h in hits]
        pack = call("context", {"query": query, "budget_tokens": 400, "at": AT, **scope})
        out[f"context {query}"] = pack["text"]
    return out


def pg_schema(server: str) -> Iterator[str]:
    schema = f"r_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    yield with_search_path(server, schema)
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture
def reference_url(postgres_server: str) -> Iterator[str]:
    """A second empty schema: the single process's store."""
    yield from pg_schema(postgres_server)


def make_key(url: str, tenant: str | None = None) -> str:
    """A key of ``tenant`` (None: an admin key), made where the servers look: the database."""
    keys = PostgresKeyStore.open(url)
    try:
        return keys.create_key(tenant, admin=tenant is None)
    finally:
        keys.close()


def client(proc: Proc, key: str) -> httpx.Client:
    return httpx.Client(base_url=proc.url, headers={"Authorization": f"Bearer {key}"}, timeout=60)


def settle(c: httpx.Client, timeout: float = 90) -> None:
    """Wait until the tenant's background jobs are done (by the workers)."""
    deadline = time.monotonic() + timeout
    while c.get("/v1/stats").json()["stats"]["pending_jobs"]:
        assert time.monotonic() < deadline, "the workers did not finish the jobs"
        time.sleep(0.2)


def idle(url: str, timeout: float = 90) -> None:
    """Wait until no job of any tenant is left to run."""
    deadline = time.monotonic() + timeout
    while [j for j in jobs(url) if j[1] in ("pending", "running")]:
        assert time.monotonic() < deadline, "the workers did not finish the jobs"
        time.sleep(0.2)


def jobs(url: str) -> list[tuple[str, str, int]]:
    with psycopg.connect(url) as conn:
        return conn.execute("SELECT kind, status, attempts FROM jobs ORDER BY id").fetchall()


def test_two_servers_two_workers_one_store(postgres_url: str, reference_url: str, embeddings: Embeddings,
                                           tmp_path: Path) -> None:
    admin = make_key(postgres_url)

    def env(name: str) -> dict[str, str]:  # each process its own folder: they share only the database
        return environment(postgres_url, tmp_path / name, embeddings.url, PMEMO_JOB_LEASE_S=LEASE_S)

    with stopped_at_end([]) as procs:
        # one after the other: the first loads the demo tenant, the second finds it there
        procs += [serve("server-a", {**env("a"), "PMEMO_RUN_JOBS": "false"}, free_port())]
        procs += [serve("server-b", {**env("b"), "PMEMO_RUN_JOBS": "false"}, free_port())]
        procs += [worker("worker-1", env("w1")), worker("worker-2", env("w2"))]
        # a key made through server-a's admin API is known to server-b: the keys are in Postgres
        with client(procs[0], admin) as ops:
            key = ops.post("/v1/admin/keys", json={"tenant": "t1"}).json()["key"]
        a, b = client(procs[0], key), client(procs[1], key)
        assert b.get("/v1/stats").status_code == 200
        # writes alternate between the servers; jobs queue up for the workers, which take a
        # chat's batches one after the other ("霓霓是我同学" is read after "叫我霓霓" is learned)
        for n, batch in enumerate(items()):
            assert (a if n % 2 else b).post("/v1/turns", json={"turns": batch}).status_code == 201
        settle(a)
        # each server reads what both wrote, and they agree
        for c in (a, b):
            assert [t["content"] for t in c.get("/v1/turns", params={"user_id": "u1", "limit": 100}).json()["turns"]] \
                == U1
        seen = {name: answers(lambda path, body, c=c: c.post(f"/v1/{path}", json=body).json())
                for name, c in (("a", a), ("b", b))}
        assert seen["a"] == seen["b"]
        assert seen["a"]["search 预算上限是多少"][0][1] == U1[0]
        assert "周霓对花生过敏" in seen["b"]["context 霓霓对什么过敏"]
        profile = {(f["key"], f["value"]) for f in b.get("/v1/profile", params={"group_id": "study"}).json()["facts"]}
        assert ("allergy:花生", "花生") in profile or any(k == "allergy:花生" for k, _ in profile)

        # the same input through one process: the same answers
        settings = Settings(store=reference_url, embedder="openai", embedder_base_url=embeddings.url,
                            embedder_model=MODEL, cluster_threshold=0.25, diary_enabled=False)
        with SyncMemory.open(settings=settings) as one:
            for batch in items():
                one.add_many([{**t, "tenant_id": "t1"} for t in batch])
            one.drain()
            alone = answers(lambda path, body: {"search": _hits, "context": _pack}[path](one, body))
            assert {(f.key, f.value) for f in one.profile(group_id="study", tenant_id="t1")} == profile
        assert alone == seen["a"]

        # a worker killed in the middle of a job: the other finishes it once the lease runs out
        idle(postgres_url)  # the demo tenant's jobs too: the next request for a vector is the new turn's
        procs[3].popen.send_signal(signal.SIGSTOP)  # worker-2 claims nothing for now
        embeddings.gate.clear()
        embeddings.waiting.clear()
        late = a.post("/v1/turns", json={"user_id": "u1", "session_id": "s2", "content": "The spare key is under the"
                                         " blue flowerpot by the back door."}).json()
        assert embeddings.waiting.wait(30)  # worker-1 asks for the new turn's vector: mid-job
        procs[2].popen.send_signal(signal.SIGKILL)
        procs[2].popen.wait(30)
        procs[3].popen.send_signal(signal.SIGCONT)
        embeddings.gate.set()
        settle(b)
        query = {"query": "where is the spare key?", "user_id": "u1", "limit": 1}
        hits = b.post("/v1/search", json=query).json()["hits"]
        assert hits[0]["source_ids"] == [late["id"]]
        done = jobs(postgres_url)
        assert not [j for j in done if j[1] == "failed"] and not [j for j in done if j[1] == "running"]
        assert b.get("/v1/jobs/failed").json()["jobs"] == []


def _hits(one: SyncMemory, body: dict[str, Any]) -> dict[str, Any]:
    hits = one.search(body["query"], limit=body["limit"], at=body["at"], tenant_id="t1",
                      **{k: v for k, v in body.items() if k.endswith("_id")})
    return {"hits": [{"kind": h.kind, "text": h.text, "score": h.score} for h in hits]}


def _pack(one: SyncMemory, body: dict[str, Any]) -> dict[str, Any]:
    pack = one.context(body["query"], budget_tokens=body["budget_tokens"], at=body["at"], tenant_id="t1",
                       **{k: v for k, v in body.items() if k.endswith("_id")})
    return {"text": pack.text}
