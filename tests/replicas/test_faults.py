"""Faults across processes (issue 21): two ``pmemo serve`` and three ``pmemo worker`` processes on
one PostgreSQL and one Redis, as the replicas test runs them, and what each fault must not break.

- Workers killed (SIGKILL) in the middle of a batch, again and again: once the jobs are done,
  every turn was processed exactly once: no derived record twice, none missing, the same records
  as one process made of the same turns on SQLite.
- PostgreSQL stopped and started under load: 503 with Retry-After while it is down, never a 500
  nor a hang; the processes reconnect by themselves; no acknowledged turn is lost.
- Redis stopped and started: the servers answer and the workers work without it, and use it
  again once it is back.
"""

from __future__ import annotations

import random
import signal
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psycopg

from pmemo import Settings, SyncMemory
from pmemo.eval.groupchat_run import chat_runs, turn_item
from pmemo.eval.groupchat_scenario import generate

from .conftest import OwnPostgres, OwnRedis
from .derived import Derived, derived
from .procs import MODEL, Embeddings, Proc, environment, free_port, serve, stopped_at_end, worker, workers
from .test_replicas import client, idle, jobs, make_key

LEASE_S = "2"  # a killed worker's jobs wait this long for the next claim
TENANT = "t1"
CLIENT_TIMEOUT_S = 20  # a request unanswered this long hangs (the pool waits database.WAIT_S = 5 s)


def runs(messages: int, seed: int = 0, size: int = 25) -> list[list[dict[str, Any]]]:
    """A generated group-chat scenario (three groups, private chats, nicknames, facts about
    oneself and others, dated plans, relations) as POST /v1/turns bodies of one chat each."""
    return [[turn_item(m) for m in run] for run in chat_runs(generate(seed, messages=messages).messages, size)]


@contextmanager
def replicas(store: str, redis: str, embeddings: Embeddings, folder: Path) -> Iterator[list[Proc]]:
    """server-a, server-b (they only queue jobs), worker-1..3; stopped at the end."""
    with stopped_at_end([]) as procs:
        # one server after the other: the first loads the demo tenant, the second finds it there
        procs += [serve(name, {**env(store, redis, embeddings, folder / name), "PMEMO_RUN_JOBS": "false"}, free_port())
                  for name in ("server-a", "server-b")]
        procs += workers({f"worker-{n}": env(store, redis, embeddings, folder / f"w{n}") for n in (1, 2, 3)})
        yield procs


def env(store: str, redis: str, embeddings: Embeddings, data: Path) -> dict[str, str]:
    return environment(store, data, embeddings.url, PMEMO_JOB_LEASE_S=LEASE_S, PMEMO_REDIS_URL=redis,
                       PMEMO_REDIS_PREFIX="faults:")


def running(url: str) -> dict[str, int]:
    """The jobs in status 'running', by the pid in their owner id (host:pid:random)."""
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT owner, COUNT(*) FROM jobs WHERE status = 'running' GROUP BY owner").fetchall()
    return {owner.split(":")[-2]: n for owner, n in rows}


def on_postgres(url: str) -> Derived:
    with psycopg.connect(url) as conn:
        return derived(lambda sql: conn.execute(sql).fetchall(), TENANT)


def one_process(folder: Path, embeddings: Embeddings, batches: list[list[dict[str, Any]]]) -> Derived:
    """The same turns through one process on SQLite, each batch's jobs run before the next."""
    settings = Settings(embedder="openai", embedder_base_url=embeddings.url, embedder_model=MODEL,
                        cluster_threshold=0.25, diary_enabled=False)
    with SyncMemory.open(folder, settings=settings) as one:
        for batch in batches:
            one.add_many([{**t, "tenant_id": TENANT} for t in batch])
        one.drain()
    with sqlite3.connect(folder / "pmemo.db") as conn:
        return derived(lambda sql: conn.execute(sql).fetchall(), TENANT)


def test_workers_killed_mid_batch_leave_each_turn_processed_exactly_once(
        postgres_url: str, own_redis: OwnRedis, embeddings: Embeddings, tmp_path: Path) -> None:
    key = make_key(postgres_url, TENANT)
    batches = runs(1200)
    rng = random.Random(7)
    killed: list[tuple[str, int]] = []  # (worker, running jobs it held when killed)
    with replicas(postgres_url, own_redis.url, embeddings, tmp_path) as procs:
        servers, live = procs[:2], procs[2:]

        def kill_mid_batch() -> None:
            # a worker holding 'running' jobs is in the middle of a batch: killed there, after a
            # random part of it, and replaced, so that three workers run until the end
            for n in range(3):
                deadline = time.monotonic() + 120
                while time.monotonic() < deadline:
                    held = running(postgres_url)
                    busy = [w for w in live if str(w.popen.pid) in held]
                    if busy:
                        break
                    time.sleep(0.02)
                else:
                    raise AssertionError(f"no worker took a batch: {[w.log() for w in live]}")
                victim = max(busy, key=lambda w: held[str(w.popen.pid)])
                time.sleep(rng.uniform(0.05, 0.6))
                still = running(postgres_url).get(str(victim.popen.pid), 0)
                victim.popen.send_signal(signal.SIGKILL)
                victim.popen.wait(30)
                killed.append((victim.name, still))
                live.remove(victim)
                live.append(worker(f"worker-{4 + n}", env(postgres_url, own_redis.url, embeddings,
                                                           tmp_path / f"w{4 + n}")))
                procs.append(live[-1])

        killer = threading.Thread(target=kill_mid_batch)
        killer.start()
        began = time.monotonic()
        clients = [client(s, key) for s in servers]
        for n, batch in enumerate(batches):
            r = clients[n % 2].post("/v1/turns", json={"turns": batch})
            assert r.status_code == 201, r.text
        posted = time.monotonic()
        killer.join(300)
        assert not killer.is_alive() and len(killed) == 3, killed
        idle(postgres_url, timeout=300)
        done = time.monotonic()
        for c in clients:
            c.close()
    assert sum(1 for _, held in killed if held) >= 2, killed  # most kills landed inside a batch
    assert not [j for j in jobs(postgres_url) if j[1] == "failed"]
    many = on_postgres(postgres_url)
    assert many.turns == sum(len(b) for b in batches)
    assert many.vectors == {1: many.turns} and not many.sizes_off  # each turn embedded once, filed once
    assert not many.duplicates("summaries")  # a summary per step range, once
    alone = one_process(tmp_path / "one", embeddings, batches)
    print(f"posted in {posted - began:.1f} s, processed (3 kills) in {done - began:.1f} s;"
          f" one process on SQLite: {time.monotonic() - done:.1f} s")
    assert many.compared(alone) == {}  # nothing twice, nothing missing: what one process made

# a nickname taught in one group and used in another before a worker had read the first
TAUGHT = [{"group_id": "g1", "session_id": "a", "actor_id": "ni", "actor": "周霓",
           "content": "大家好，叫我年糕就行", "timestamp": "2025-03-03T09:00:00+08:00"}]
NAMED = [{"group_id": "g2", "session_id": "b", "actor_id": "wt", "actor": "许文涛", "content": text,
          "timestamp": f"2025-03-03T09:0{5 + n}:00+08:00"}
         for n, text in enumerate(["年糕是我同学", "年糕对花生过敏", "年糕是杭州人", "年糕下周三考高数"])]


def read_in_order(folder: Path, order: str) -> Derived:
    """The two chats' batches queued as ``TAUGHT`` then ``NAMED``, read by one process in
    ``order`` ("AB": as queued; "BA": the second chat's first, as a second worker may)."""
    with SyncMemory.open(folder, embedder="hashing") as one:
        batches = {"A": TAUGHT, "B": NAMED}
        for name in order:
            one.add_many([{**t, "tenant_id": TENANT} for t in batches[name]])
            one.drain()
    with sqlite3.connect(folder / "pmemo.db") as conn:
        return derived(lambda sql: conn.execute(sql).fetchall(), TENANT)


def test_a_name_learned_after_another_chat_used_it_gives_the_triples_of_one_process(tmp_path: Path) -> None:
    queued = read_in_order(tmp_path / "ab", "AB")
    assert ("g:g2", "ni", "classmate_of", "wt", None) in {r[:5] for r in queued.triples}
    assert any(f[1] == "ni" and f[3].startswith("allergy") for f in queued.facts)
    late = read_in_order(tmp_path / "ba", "BA")
    assert late.triples == queued.triples
    assert {f for f in late.facts if f[1] == "ni"} == {f for f in queued.facts if f[1] == "ni"}


def load(server: Proc, key: str, stop: threading.Event, writer: int, seen: Seen) -> None:
    """Turns written one by one (and each fifth request a read) until ``stop``: every answer's
    status in ``seen``, the content of every turn a 201 acknowledged, every Retry-After given."""
    with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {key}"}, timeout=CLIENT_TIMEOUT_S) as c:
        n = 0
        while not stop.is_set():
            content = f"writer {writer} turn {n}"
            try:
                if n % 5 == 4:
                    r = c.post("/v1/context", json={"query": "turn", "user_id": "u1", "session_id": f"w{writer}"})
                else:
                    r = c.post("/v1/turns", json={"user_id": "u1", "session_id": f"w{writer}", "content": content})
            except httpx.HTTPError as exc:  # no answer in time: a hang (and not acknowledged either)
                seen.statuses.append(f"{type(exc).__name__}")
                continue
            seen.statuses.append(r.status_code)
            if r.status_code == 201:
                seen.acknowledged.append(content)
            elif r.status_code == 503:
                seen.retry_after.add(r.headers.get("Retry-After"))
                time.sleep(0.2)
            n += 1


@dataclass
class Seen:
    statuses: list[int | str] = field(default_factory=list)
    acknowledged: list[str] = field(default_factory=list)
    retry_after: set[str | None] = field(default_factory=set)


@contextmanager
def under_load(servers: list[Proc], key: str, writers: int = 4) -> Iterator[Seen]:
    seen, stop = Seen(), threading.Event()
    threads = [threading.Thread(target=load, args=(servers[n % 2], key, stop, n, seen)) for n in range(writers)]
    for t in threads:
        t.start()
    try:
        yield seen
    finally:
        stop.set()
        for t in threads:
            t.join(60)


def acknowledged_more(seen: Seen, than: int, timeout: float = 60) -> bool:
    deadline = time.monotonic() + timeout
    while len(seen.acknowledged) < than and time.monotonic() < deadline:
        time.sleep(0.2)
    return len(seen.acknowledged) >= than


def stored_and_embedded(url: str) -> tuple[set[str], int]:
    """The contents of the tenant's turns, and how many of them have no 'turn' vector."""
    with psycopg.connect(url) as conn:
        contents = {r[0] for r in conn.execute("SELECT content FROM turns WHERE tenant = %s", (TENANT,))}
        bare = conn.execute("SELECT COUNT(*) FROM turns t WHERE tenant = %s AND NOT EXISTS (SELECT 1 FROM vectors v"
                            " WHERE v.kind = 'turn' AND v.ref = t.id)", (TENANT,)).fetchone()
    return contents, int(bare[0]) if bare else 0


def test_a_postgres_restart_under_load_gives_503_and_loses_no_acknowledged_turn(
        own_postgres: OwnPostgres, own_redis: OwnRedis, embeddings: Embeddings, tmp_path: Path) -> None:
    key = make_key(own_postgres.url, TENANT)
    with replicas(own_postgres.url, own_redis.url, embeddings, tmp_path) as procs:
        with under_load(procs[:2], key) as seen:
            assert acknowledged_more(seen, 20)
            before = len(seen.acknowledged)
            own_postgres.stop()
            time.sleep(7)  # past the pool's wait for a connection (database.WAIT_S): calls end in 503
            own_postgres.start()
            assert acknowledged_more(seen, before + 40)  # writes work again once it is back
        # every request had an answer in time: a success, or 503 with Retry-After while it was down
        assert 503 in seen.statuses and seen.retry_after == {"1"}
        assert set(seen.statuses) <= {200, 201, 503}, sorted(map(str, set(seen.statuses)))
        # the same processes reconnected (none was restarted) and the workers did every job
        assert all(p.popen.poll() is None for p in procs), [p.log() for p in procs if p.popen.poll() is not None]
        idle(own_postgres.url)
        stored, bare = stored_and_embedded(own_postgres.url)
        assert set(seen.acknowledged) <= stored and bare == 0
    assert not [j for j in jobs(own_postgres.url) if j[1] == "failed"]


def test_redis_stopped_and_started_servers_and_workers_carry_on_and_use_it_again(
        postgres_url: str, own_redis: OwnRedis, embeddings: Embeddings, tmp_path: Path) -> None:
    key = make_key(postgres_url, TENANT)
    with replicas(postgres_url, own_redis.url, embeddings, tmp_path) as procs:
        with under_load(procs[:2], key) as seen:
            assert acknowledged_more(seen, 20)
            assert own_redis.keys("faults:recent*")  # the sessions' last turns are cached there
            own_redis.stop()
            down = len(seen.acknowledged)
            assert acknowledged_more(seen, down + 40)  # without it: written and read all the same
            own_redis.start()  # empty, as a restarted cache is
            # used again once a probe finds it back (every redis_link.RETRY_S): the servers
            # cache the sessions they read there again
            deadline = time.monotonic() + 60
            while not own_redis.keys("faults:recent*") and time.monotonic() < deadline:
                time.sleep(0.2)
            assert own_redis.keys("faults:recent*")
            back = len(seen.acknowledged)
            assert acknowledged_more(seen, back + 20)
        assert set(seen.statuses) <= {200, 201}, sorted(map(str, set(seen.statuses)))
        idle(postgres_url)  # the workers did every job, with Redis and without
        stored, bare = stored_and_embedded(postgres_url)
        assert set(seen.acknowledged) <= stored and bare == 0
