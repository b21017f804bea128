"""The short-term cache (issue 21 §3): a session's last turns kept in Redis answer exactly as
the database does, through adds, deletes, forgets and restores made by two replicas that
share one database and one Redis; per tenant and session; and with Redis stopped or cut.

Two replicas are two ``RecentTurns`` over one real SQLite store (a data folder admits one
process), each with its own connection to Redis.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from pmemo import Memory, Settings
from pmemo.errors import Conflict
from pmemo.models import Scope
from pmemo.redis_link import RedisLink
from pmemo.stores.base import NewTurn
from pmemo.stores.recent_cache import RecentTurns, TurnCache, decode, encode
from pmemo.stores.sqlite.store import SQLiteStore

CAP = 4
SCOPES = [Scope.of(user_id=u, tenant_id=t) for t in ("t1", "t2") for u in ("u1", "u2")]
SESSIONS = ("s1", "s2")  # the same names in every tenant and owner
ZONE = timezone(timedelta(hours=8))


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    s = SQLiteStore.open(tmp_path / "data")
    yield s
    s.close()


@pytest.fixture
def replicas(store: SQLiteStore, redis_url: str, prefix: str) -> Iterator[list[RecentTurns]]:
    links = [RedisLink(redis_url, prefix, retry_s=0.2) for _ in range(2)]
    yield [RecentTurns(store, TurnCache(link, CAP)) for link in links]
    for link in links:
        link.close()


def new_turn(scope: Scope, session: str, n: int) -> NewTurn:
    # microseconds and an offset: the cache must give back the store's own rounding and zone
    at = datetime(2026, 3, 1, 9, 0, 0, 123457, tzinfo=ZONE) + timedelta(seconds=n, microseconds=n)
    text = f"{scope.tenant_id}/{scope.owner}/{session} turn {n} 你好"
    return NewTurn(replace(scope, session_id=session), "user", text, f"speaker{n % 3}", at,
                   {"n": n, "tags": ["x", n]}, text, f"p{n % 2}")


def agree(readers: list[RecentTurns], store: SQLiteStore) -> None:
    for reader in readers:
        for scope in SCOPES:
            for session in SESSIONS:
                for n in (1, CAP, CAP + 3):
                    assert reader.turns.last_turns(scope, session, n) == store.turns.last_turns(scope, session, n), \
                        (scope, session, n)


def random_steps(rng: random.Random, replicas: list[RecentTurns], store: SQLiteStore, steps: int,
                 check: Callable[[], None]) -> None:
    batches: list[int] = []
    for i in range(steps):
        r, scope, session = rng.choice(replicas), rng.choice(SCOPES), rng.choice(SESSIONS)
        ids = store.turns.turn_ids(scope, session)
        roll = rng.random()
        if roll < 0.5 or not ids:
            r.turns.add_turns([new_turn(scope, session, i * 10 + k) for k in range(rng.randint(1, 3))])
        elif roll < 0.7:
            r.turns.delete_turns(rng.sample(ids, min(len(ids), rng.randint(1, 2))))
        elif roll < 0.85:  # a soft forget, as the forget pipeline makes it: tombstones, then the delete
            gone = rng.sample(ids, min(len(ids), rng.randint(1, 3)))
            batch = r.batches.new_batch("forget", "soft", scope.key, "test", scope.tenant_id)
            r.forget.snapshot(batch, "turn", gone)
            r.turns.delete_turns(gone)
            batches.append(batch)
        elif batches:
            try:
                r.forget.restore_snapshot(batches.pop(rng.randrange(len(batches))))
            except Conflict:
                pass  # a newer turn took a forgotten one's step: the store refuses, nothing changes
        check()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_two_replicas_answer_as_the_database_over_random_operations(
        seed: int, replicas: list[RecentTurns], store: SQLiteStore, raw: Any, prefix: str) -> None:
    random_steps(random.Random(seed), replicas, store, 80, lambda: agree(replicas, store))
    assert list(raw.scan_iter(match=prefix + "recent:*")), "the sessions' turns were never cached"


def test_reads_come_from_redis_once_filled_and_a_delete_drops_them(
        replicas: list[RecentTurns], store: SQLiteStore) -> None:
    a, b = replicas
    scope = SCOPES[0]
    turns = a.turns.add_turns([new_turn(scope, "s1", n) for n in range(6)])
    assert [t.id for t in b.turns.last_turns(scope, "s1", CAP)] == [t.id for t in turns[-CAP:]]
    store.turns.delete_turns([turns[-1].id])  # behind the cache's back: Redis still answers
    assert b.turns.last_turns(scope, "s1", CAP)[-1].id == turns[-1].id
    a.turns.delete_turns([turns[-2].id])  # through a replica: the session's cached turns are dropped
    assert b.turns.last_turns(scope, "s1", CAP) == store.turns.last_turns(scope, "s1", CAP)
    assert [t.id for t in b.turns.last_turns(scope, "s1", CAP)] == [t.id for t in turns[:4]]


def test_added_turns_are_written_through_to_the_other_replica(
        replicas: list[RecentTurns], store: SQLiteStore) -> None:
    a, b = replicas
    scope = SCOPES[1]
    a.turns.add_turns([new_turn(scope, "s2", 0)])
    assert len(b.turns.last_turns(scope, "s2", CAP)) == 1  # filled from the database
    added = a.turns.add_turns([new_turn(scope, "s2", n) for n in range(1, 4)])
    store.turns.delete_turns([added[-1].id])  # gone behind the cache: only a write-through can show it
    assert b.turns.last_turns(scope, "s2", CAP)[-1].id == added[-1].id


def test_a_turn_redis_never_heard_of_drops_the_set_at_the_next_write(
        replicas: list[RecentTurns], store: SQLiteStore) -> None:
    a, b = replicas
    scope = SCOPES[3]
    a.turns.add_turns([new_turn(scope, "s1", n) for n in range(3)])
    b.turns.last_turns(scope, "s1", CAP)  # cached
    store.turns.add_turns([new_turn(scope, "s1", 3)])  # a writer that died between its commit and Redis
    a.turns.add_turns([new_turn(scope, "s1", 4)])  # its step does not follow the cached ones
    assert b.turns.last_turns(scope, "s1", CAP) == store.turns.last_turns(scope, "s1", CAP)


def test_tenants_and_sessions_never_share_turns(replicas: list[RecentTurns], store: SQLiteStore,
                                                raw: Any, prefix: str) -> None:
    a, _ = replicas
    t1, t2 = Scope.of(user_id="u1", tenant_id="t1"), Scope.of(user_id="u1", tenant_id="t2")
    a.turns.add_turns([new_turn(t1, "s1", n) for n in range(3)])
    a.turns.add_turns([new_turn(t2, "s1", 100)])
    assert {t.scope.tenant_id for t in a.turns.last_turns(t1, "s1", CAP)} == {"t1"}
    assert [t.content for t in a.turns.last_turns(t2, "s1", CAP)] == [new_turn(t2, "s1", 100).content]
    assert a.turns.last_turns(t1, "s2", CAP) == []
    # the keys name tenant, agent, owner and session
    assert raw.exists(f"{prefix}recent:t1|default|u:u1|s1") and raw.exists(f"{prefix}recent:t2|default|u:u1|s1")
    # a set that somehow holds another tenant's turn is not served: the database answers
    foreign = encode(a.turns.last_turns(t1, "s1", 1)[0])
    raw.zadd(f"{prefix}recent:t2|default|u:u1|s1", {foreign: 2})
    assert a.turns.last_turns(t2, "s1", CAP) == store.turns.last_turns(t2, "s1", CAP)


def test_a_stopped_redis_gives_the_same_answers_with_one_warning(
        store: SQLiteStore, redis_warnings: Callable[[], list[str]]) -> None:
    link = RedisLink("redis://127.0.0.1:1/0", "pmemo-down:", retry_s=0.01)
    try:
        down = [RecentTurns(store, TurnCache(link, CAP))]
        random_steps(random.Random(7), down, store, 40, lambda: agree(down, store))
    finally:
        link.close()
    assert len(redis_warnings()) == 1, redis_warnings()
    assert "127.0.0.1:1" in redis_warnings()[0]


def test_an_outage_in_the_middle_loses_nothing_and_redis_is_used_again(
        store: SQLiteStore, relay: Any, redis_url: str, prefix: str, raw: Any,
        redis_warnings: Callable[[], list[str]]) -> None:
    cut_link, direct = RedisLink(relay.url, prefix, retry_s=0.1), RedisLink(redis_url, prefix)
    try:
        a, b = RecentTurns(store, TurnCache(cut_link, CAP)), RecentTurns(store, TurnCache(direct, CAP))
        scope = SCOPES[2]
        a.turns.add_turns([new_turn(scope, "s1", n) for n in range(3)])
        assert b.turns.last_turns(scope, "s1", CAP) == store.turns.last_turns(scope, "s1", CAP)  # cached now
        relay.cut()
        added = a.turns.add_turns([new_turn(scope, "s1", 3)])  # Redis never hears of it
        assert a.turns.last_turns(scope, "s1", CAP) == store.turns.last_turns(scope, "s1", CAP)  # from the database
        a.turns.delete_turns([added[0].id - 1])
        assert a.turns.last_turns(scope, "s1", CAP) == store.turns.last_turns(scope, "s1", CAP)
        assert len(redis_warnings()) == 1
        relay.restore()
        time.sleep(0.15)
        # back: this replica's first use finds Redis and voids what was cached before the outage
        assert a.turns.last_turns(scope, "s1", CAP) == store.turns.last_turns(scope, "s1", CAP)
        assert b.turns.last_turns(scope, "s1", CAP) == store.turns.last_turns(scope, "s1", CAP)
        assert raw.get(prefix + "recent-gen") == b"1"
        a.turns.add_turns([new_turn(scope, "s1", 4)])
        assert [decode(m).content for m in raw.zrange(f"{prefix}recent:{scope.key}|s1", -1, -1)] == \
            [new_turn(scope, "s1", 4).content]  # written through again
        assert len(redis_warnings()) == 1, redis_warnings()
    finally:
        cut_link.close()
        direct.close()


async def test_memory_keeps_the_cache_in_step_with_its_writes_and_forgets(
        tmp_path: Path, settings: Settings, raw: Any, prefix: str) -> None:
    memory = await Memory.open(tmp_path / "m", settings=settings.replace(short_term_turns=3))
    key = f"{prefix}recent:acme|default|u:alice|s1"

    async def cached() -> list[str]:
        return [decode(m).content for m in raw.zrange(key, 0, -1)]

    async def newest() -> list[str]:
        return [t.content for t in await memory.turns(session_id="s1", user_id="alice", tenant_id="acme")][-3:]

    try:
        for n in range(5):
            await memory.add(session_id="s1", user_id="alice", tenant_id="acme", content=f"message {n}")
        await memory.context("message", session_id="s1", user_id="alice", tenant_id="acme")  # fills it
        assert await cached() == await newest() == ["message 2", "message 3", "message 4"]
        turn = await memory.add(session_id="s1", user_id="alice", tenant_id="acme", content="message 5")
        assert await cached() == await newest()  # written through
        forgotten = await memory.forget([turn.id], tenant_id="acme")
        assert await cached() == []  # dropped; the next context reads the database
        await memory.context("message", session_id="s1", user_id="alice", tenant_id="acme")
        assert await cached() == await newest() == ["message 2", "message 3", "message 4"]
        await memory.restore(forgotten["batch"], tenant_id="acme")
        await memory.context("message", session_id="s1", user_id="alice", tenant_id="acme")
        assert await cached() == await newest() == ["message 3", "message 4", "message 5"]
    finally:
        await memory.close()
