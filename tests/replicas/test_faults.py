"""Faults across processes (issue 21): two ``pmemo serve`` and three ``pmemo worker`` processes on
one PostgreSQL and one Redis, as the replicas test runs them, and what each fault must not break.

- Workers killed (SIGKILL) in the middle of a batch, again and again: once the jobs are done,
  every turn was processed exactly once: no derived record twice, none missing, the same records
  as one process made of the same turns on SQLite.
- PostgreSQL stopped and started under load: 503 with Retry-After while it is down, never a 500
  nor a hang; the processes reconnect by themselves; no acknowledged turn is lost.
- Redis stopped and started: the servers answer and the workers work without it, and use it
  again once it is back.
- A nickname taught in one chat and used in another that a worker read first: the triples end
  as one process's, which read the chats in the order they were queued.
- A nickname given to a display name before its person first spoke ("kk_0823就是凯哥"): read as
  the batches come or once all are stored, the same aliases and triples.
"""

from __future__ import annotations

import random
import signal
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from pmemo import Settings, SyncMemory
from pmemo.eval.groupchat_gen import generate
from pmemo.eval.groupchat_run import chat_runs, turn_item

from .conftest import OwnPostgres, OwnRedis
from .derived import Derived, derived
from .procs import MODEL, Embeddings, Proc, environment, free_port, serve, started, stopped_at_end, worker
from .test_replicas import client, idle, jobs, make_key

LEASE_S = "2"  # a killed worker's jobs wait this long for the next claim
TENANT = "t1"  # the order test's
PREFIX = "faults:"  # the Redis keys of the servers and workers
CLIENT_TIMEOUT_S = 20  # a request unanswered this long hangs (the pool waits database.WAIT_S = 5 s)


def runs(messages: int, seed: int = 0, size: int = 25) -> list[list[dict[str, Any]]]:
    """A generated group-chat scenario (three groups, private chats, nicknames, facts about
    oneself and others, dated plans, relations) as POST /v1/turns bodies of one chat each."""
    return [[turn_item(m) for m in run] for run in chat_runs(generate(seed, messages=messages).messages, size)]


@dataclass
class Replicas:
    """server-a and server-b (they only queue jobs) and three workers on one store and one Redis,
    shared by the tests of this module (their starts cost more than the tests): each test writes
    as a tenant of its own, and leaves both servers and three workers running."""

    url: str
    postgres: OwnPostgres
    redis: OwnRedis
    embeddings: Embeddings
    folder: Path
    procs: list[Proc]
    killed: list[Proc] = field(default_factory=list)

    def env(self, name: str) -> dict[str, str]:
        return environment(self.url, self.folder / name, self.embeddings.url, PMEMO_JOB_LEASE_S=LEASE_S,
                           PMEMO_REDIS_URL=self.redis.url, PMEMO_REDIS_PREFIX=PREFIX)

    @property
    def servers(self) -> list[Proc]:
        return self.procs[:2]

    @property
    def workers(self) -> list[Proc]:
        return [p for p in self.procs[2:] if p not in self.killed]

    def kill(self, victim: Proc) -> None:
        """SIGKILL ``victim`` (a worker) and start another in its place."""
        victim.popen.send_signal(signal.SIGKILL)
        victim.popen.wait(30)
        self.killed.append(victim)
        name = f"worker-{len(self.procs) - 1}"
        self.procs.append(worker(name, self.env(name)))

    def alive(self) -> list[str]:
        """The processes that ended without being killed (none, while all is well)."""
        return [p.log() for p in self.procs if p not in self.killed and p.popen.poll() is not None]


@pytest.fixture(scope="module")
def replicas(own_postgres: OwnPostgres, own_redis: OwnRedis, tmp_path_factory: pytest.TempPathFactory
             ) -> Iterator[Replicas]:
    embeddings = Embeddings().start()
    with stopped_at_end([]) as procs:
        r = Replicas(own_postgres.url, own_postgres, own_redis, embeddings, tmp_path_factory.mktemp("faults"), procs)

        def queues(name: str) -> dict[str, str]:
            return {**r.env(name), "PMEMO_RUN_JOBS": "false"}

        # the first server alone: it loads the demo tenant, which the others then find there
        procs += [serve("server-a", queues("server-a"), free_port())]
        procs += started({"server-b": (queues("server-b"), free_port())},
                         {f"worker-{n}": r.env(f"worker-{n}") for n in (1, 2, 3)})
        yield r
    embeddings.stop()


def running(url: str) -> dict[str, int]:
    """The jobs in status 'running', by the pid in their owner id (host:pid:random)."""
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT owner, COUNT(*) FROM jobs WHERE status = 'running' GROUP BY owner").fetchall()
    return {owner.split(":")[-2]: n for owner, n in rows}


def on_postgres(url: str, tenant: str) -> Derived:
    with psycopg.connect(url) as conn:
        return derived(lambda sql: conn.execute(sql).fetchall(), tenant)


def one_process(folder: Path, embeddings: Embeddings, tenant: str, batches: list[list[dict[str, Any]]]) -> Derived:
    """The same turns through one process on SQLite."""
    settings = Settings(embedder="openai", embedder_base_url=embeddings.url, embedder_model=MODEL,
                        cluster_threshold=0.25, diary_enabled=False)
    with SyncMemory.open(folder, settings=settings) as one:
        for batch in batches:
            one.add_many([{**t, "tenant_id": tenant} for t in batch])
        one.drain()
    with closing(sqlite3.connect(folder / "pmemo.db")) as conn:
        return derived(lambda sql: conn.execute(sql).fetchall(), tenant)


def test_workers_killed_mid_batch_leave_each_turn_processed_exactly_once(replicas: Replicas, tmp_path: Path) -> None:
    r, tenant = replicas, "t-kill"
    key = make_key(r.url, tenant)
    batches = runs(1200)
    rng = random.Random(7)
    held_at_kill: list[int] = []  # the 'running' jobs each victim held as it was killed

    def kill_mid_batch() -> None:
        # a worker holding 'running' jobs is in the middle of a batch: killed there, after a
        # random part of it, and replaced, so that three workers run until the end
        for _ in range(3):
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                held = running(r.url)
                busy = [w for w in r.workers if str(w.popen.pid) in held]
                if busy:
                    victim = max(busy, key=lambda w: held[str(w.popen.pid)])
                    time.sleep(rng.uniform(0.02, 0.3))
                    # still in that batch (a quick box may have finished it meanwhile): kill it there
                    if still := running(r.url).get(str(victim.popen.pid), 0):
                        break
                time.sleep(0.02)
            else:
                raise AssertionError(f"no worker took a batch: {[w.log() for w in r.workers]}")
            held_at_kill.append(still)
            r.kill(victim)

    killer = threading.Thread(target=kill_mid_batch)
    killer.start()
    began = time.monotonic()
    clients = [client(s, key) for s in r.servers]
    for n, batch in enumerate(batches):
        answer = clients[n % 2].post("/v1/turns", json={"turns": batch})
        assert answer.status_code == 201, answer.text
    # a quick box may process every batch before the third kill: more work, a batch whenever no
    # worker holds one, until the killer is done (what was written is what one process reads)
    more = iter(runs(1200, seed=1))
    while killer.is_alive():
        if not running(r.url) and (batch := next(more, None)):
            answer = clients[len(batches) % 2].post("/v1/turns", json={"turns": batch})
            assert answer.status_code == 201, answer.text
            batches.append(batch)
        killer.join(0.2)
    for c in clients:
        c.close()
    killer.join(300)
    assert not killer.is_alive() and len(held_at_kill) == 3, held_at_kill
    idle(r.url, timeout=300)
    done = time.monotonic()
    assert sum(1 for held in held_at_kill if held) >= 2, held_at_kill  # most kills landed inside a batch
    assert not [j for j in jobs(r.url) if j[1] == "failed"]
    many = on_postgres(r.url, tenant)
    assert many.turns == sum(len(b) for b in batches)
    assert many.vectors == {1: many.turns} and not many.sizes_off  # each turn embedded once, filed once
    assert not many.duplicates("summaries")  # a summary per step range, once
    alone = one_process(tmp_path / "one", r.embeddings, tenant, batches)
    print(f"written and processed with 3 kills in {done - began:.1f} s; one process on SQLite:"
          f" {time.monotonic() - done:.1f} s")
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
    # a nickname the tenant shares across its chats (aliases_per_chat off): the order dependence
    # is that of a name learned in one chat and used in another
    settings = Settings.from_env().replace(aliases_per_chat=False)
    with SyncMemory.open(folder, embedder="hashing", settings=settings) as one:
        batches = {"A": TAUGHT, "B": NAMED}
        for name in order:
            one.add_many([{**t, "tenant_id": TENANT} for t in batches[name]])
            one.drain()
    with closing(sqlite3.connect(folder / "pmemo.db")) as conn:
        return derived(lambda sql: conn.execute(sql).fetchall(), TENANT)


def test_a_name_learned_after_another_chat_used_it_gives_the_triples_of_one_process(tmp_path: Path) -> None:
    queued = read_in_order(tmp_path / "ab", "AB")
    assert ("g:g2", "ni", "classmate_of", "wt", None) in {r[:5] for r in queued.triples}
    assert any(f[1] == "ni" and f[3].startswith("allergy") for f in queued.facts)
    late = read_in_order(tmp_path / "ba", "BA")
    assert late.triples == queued.triples
    assert {f for f in late.facts if f[1] == "ni"} == {f for f in queued.facts if f[1] == "ni"}


# a nickname given to a display name before its person first spoke, and used before that too:
# a worker reading each batch as it comes reads the first two before anyone is called kk_0823
INTRODUCED = [{"group_id": "g3", "session_id": "c", "actor_id": "zw", "actor": "张伟", "content": text,
               "timestamp": f"2025-03-04T10:0{n}:00+08:00"}
              for n, text in enumerate(["跟新人介绍下，kk_0823就是凯哥", "凯哥是我同学"])]
FIRST_WORDS = [{"group_id": "g3", "session_id": "c", "actor_id": "kk", "actor": "kk_0823", "content": "大家好",
                "timestamp": "2025-03-04T10:05:00+08:00"}]


def read_as(folder: Path, batches: list[list[dict[str, Any]]], each: bool) -> Derived:
    """``batches`` stored in order by one process, each read before the next is stored (``each``),
    as a quick worker does, or all stored before any is read, as a slow one does."""
    with SyncMemory.open(folder, embedder="hashing", settings=Settings.from_env()) as one:
        for batch in batches:
            one.add_many([{**t, "tenant_id": TENANT} for t in batch])
            if each:
                one.drain()
        one.drain()
    with closing(sqlite3.connect(folder / "pmemo.db")) as conn:
        return derived(lambda sql: conn.execute(sql).fetchall(), TENANT)


def test_a_name_introduced_before_its_person_spoke_gives_the_aliases_and_triples_of_any_order(tmp_path: Path) -> None:
    # one chat, so its batches run in the order they were stored (chat_order.py): what differs is
    # only how far the registry got when each was read, as between a quick and a slow worker
    batches = [INTRODUCED[:1], INTRODUCED[1:], FIRST_WORDS]
    slow = read_as(tmp_path / "slow", batches, each=False)
    assert ("kk", "凯哥", "learned", "g:g3") in slow.aliases
    assert ("g:g3", "kk", "classmate_of", "zw", None) in {r[:5] for r in slow.triples}
    quick = read_as(tmp_path / "quick", batches, each=True)
    assert quick.compared(slow) == {}


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
                time.sleep(0.2)
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


def stored_and_embedded(url: str, tenant: str) -> tuple[set[str], int]:
    """The contents of the tenant's turns, and how many of them have no 'turn' vector."""
    with psycopg.connect(url) as conn:
        contents = {row[0] for row in conn.execute("SELECT content FROM turns WHERE tenant = %s", (tenant,))}
        bare = conn.execute("SELECT COUNT(*) FROM turns t WHERE tenant = %s AND NOT EXISTS (SELECT 1 FROM vectors v"
                            " WHERE v.kind = 'turn' AND v.ref = t.id)", (tenant,)).fetchone()
    return contents, int(bare[0]) if bare else 0


def test_a_postgres_restart_under_load_gives_503_and_loses_no_acknowledged_turn(replicas: Replicas) -> None:
    r, tenant = replicas, "t-pg"
    key = make_key(r.url, tenant)
    with under_load(r.servers, key) as seen:
        assert acknowledged_more(seen, 20)
        before = len(seen.acknowledged)
        r.postgres.stop()
        time.sleep(7)  # past the pool's wait for a connection (database.WAIT_S): calls end in 503
        r.postgres.start()
        assert acknowledged_more(seen, before + 40)  # writes work again once it is back
    # every request had an answer in time: a success, or 503 with Retry-After while it was down
    assert 503 in seen.statuses and seen.retry_after == {"1"}
    assert set(seen.statuses) <= {200, 201, 503}, sorted(map(str, set(seen.statuses)))
    assert not r.alive()  # the same processes reconnected: none ended, none was started again
    idle(r.url)  # and the workers did every job
    stored, bare = stored_and_embedded(r.url, tenant)
    assert set(seen.acknowledged) <= stored and bare == 0
    assert not [j for j in jobs(r.url) if j[1] == "failed"]


def test_redis_stopped_and_started_servers_and_workers_carry_on_and_use_it_again(replicas: Replicas) -> None:
    r, tenant = replicas, "t-redis"
    key = make_key(r.url, tenant)
    cached = f"{PREFIX}recent*"  # the sessions' last turns, as the servers cache them for each other
    with under_load(r.servers, key) as seen:
        assert acknowledged_more(seen, 20)
        assert r.redis.keys(cached)
        r.redis.stop()
        down = len(seen.acknowledged)
        assert acknowledged_more(seen, down + 30)  # without it: written and read all the same
        r.redis.start()  # empty, as a restarted cache is
        # used again once a probe finds it back (every redis_link.RETRY_S): the servers cache
        # the sessions they read there again
        deadline = time.monotonic() + 60
        while not r.redis.keys(cached) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert r.redis.keys(cached)
        assert acknowledged_more(seen, len(seen.acknowledged) + 10)
    assert set(seen.statuses) <= {200, 201}, sorted(map(str, set(seen.statuses)))
    assert not r.alive()
    idle(r.url)  # the workers did every job, with Redis and without
    stored, bare = stored_and_embedded(r.url, tenant)
    assert set(seen.acknowledged) <= stored and bare == 0
