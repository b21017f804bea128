"""Two connections at once: what server replicas and worker processes do to one store.

On Postgres each side is its own ``PostgresStore`` (its own pool) on one database, as two
processes are. A SQLite directory admits one process, so there both sides are the one store,
used from several threads at once: its writer lock is what keeps them apart.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import TypeVar

import pytest

from pmemo.models import Scope, Turn
from pmemo.stores.base import NewTurn, Once, Store

T = TypeVar("T")
ALICE = Scope.of(user_id="alice", session_id="s1")
THREADS = 4


@pytest.fixture
def two(store: Store, request: pytest.FixtureRequest) -> Iterator[tuple[Store, Store]]:
    """Two handles on one store: two stores on one database, or the one SQLite store twice."""
    from pmemo.stores.postgres.store import PostgresStore

    if not isinstance(store, PostgresStore):
        yield store, store
        return
    other = PostgresStore.open(request.getfixturevalue("postgres_url"))  # the schema ``store`` is in
    yield store, other
    other.close()


def new(content: str) -> NewTurn:
    return NewTurn(ALICE, "user", content, None, datetime(2024, 3, 4, tzinfo=UTC), {}, content)


def at_once(work: list[Callable[[], T]]) -> list[T]:
    """Run each callable in its own thread, started together; their results in order."""
    results: list[T | None] = [None] * len(work)
    errors: list[BaseException] = []
    start = threading.Barrier(len(work))

    def run(i: int) -> None:
        start.wait()
        try:
            results[i] = work[i]()
        except BaseException as exc:  # reported in the test's thread below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(work))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    return results  # type: ignore[return-value]


def test_concurrent_claims_run_each_chats_batches_one_at_a_time_in_order(two: tuple[Store, Store]):
    chats = [Scope.of(group_id=f"g{n}", session_id="s") for n in range(3)]
    chat_of = {}
    for n in range(8):
        for chat in chats:
            (turn,) = two[0].turns.add_turns([NewTurn(chat, "user", f"{n}", None, datetime(2024, 3, 4, tzinfo=UTC),
                                                      {}, "")])
            chat_of[turn.id] = chat.owner
    busy: dict[str, str] = {}  # chat -> the worker holding one of its batches
    seen: dict[str, list[int]] = {}  # chat -> its turns in the order workers started them
    faults: list[str] = []
    lock = threading.Lock()

    def worker(store: Store, name: str) -> Callable[[], None]:
        def run() -> None:
            while batch := store.jobs.claim(2, name):
                mine = {chat_of[i] for j in batch for i in j.payload}
                with lock:
                    faults.extend(f"{chat} held by {busy[chat]} and {name}" for chat in mine if chat in busy)
                    busy.update(dict.fromkeys(mine, name))
                    for j in batch:
                        seen.setdefault(chat_of[j.payload[0]], []).extend(j.payload)
                time.sleep(0.005)
                with lock:
                    for chat in mine:
                        busy.pop(chat, None)
                for j in batch:
                    store.jobs.finish(j.id)
        return run

    at_once([worker(two[i % 2], f"worker-{i}") for i in range(THREADS)])
    assert faults == []
    assert seen == {chat.owner: sorted(i for i, c in chat_of.items() if c == chat.owner) for chat in chats}
    assert two[0].jobs.pending() == 0


def test_concurrent_claims_never_hand_out_one_job_twice(two: tuple[Store, Store]):
    jobs = {two[0].jobs.enqueue("promote", {"cluster_id": n}) for n in range(60)}

    def worker(store: Store, name: str) -> Callable[[], list[int]]:
        def drain() -> list[int]:
            taken: list[int] = []
            while batch := store.jobs.claim(3, name):
                taken += [j.id for j in batch]
            return taken
        return drain

    got = at_once([worker(two[i % 2], f"worker-{i}") for i in range(THREADS)])
    claimed = [job for taken in got for job in taken]
    assert sorted(claimed) == sorted(jobs)  # every job once, none twice
    assert two[1].jobs.claim(10, "late") == [] and two[0].jobs.pending() == len(jobs)


def test_concurrent_writes_to_one_session_get_consecutive_steps(two: tuple[Store, Store]):
    def writer(store: Store, name: str) -> Callable[[], list[Turn]]:
        return lambda: [t for i in range(10)
                        for t in store.turns.add_turns([new(f"{name} {i} a"), new(f"{name} {i} b")])]

    written = at_once([writer(two[i % 2], f"w{i}") for i in range(THREADS)])
    steps = sorted(t.step for turns in written for t in turns)
    assert steps == list(range(1, 2 * 10 * THREADS + 1))  # no step twice, none skipped
    for turns in written:  # a batch's two turns are next to each other
        assert all(b.step == a.step + 1 for a, b in zip(turns[::2], turns[1::2], strict=True))
    listed = two[1].turns.list_turns(ALICE.owner_scope(), session_id="s1", limit=1000, offset=0, since=None, until=None)
    assert len(listed) == len(steps)


def test_a_retry_racing_its_first_attempt_stores_the_turns_once(two: tuple[Store, Store]):
    once = Once("default", "request-7", "fingerprint")
    first, second = at_once([lambda: two[0].turns.add_turns([new("only once")], once),
                             lambda: two[1].turns.add_turns([new("only once")], once)])
    assert [t.id for t in first] == [t.id for t in second]
    assert two[0].turns.turn_ids(ALICE.owner_scope()) == [first[0].id]



def test_concurrent_first_turns_of_one_owner_count_it_once(two: tuple[Store, Store]):
    """Usage (``store.quotas``) is kept by the store as turns are written: writers adding the first turns
    of one owner scope at once, in sessions of their own, count the scope once. The race is
    narrow (a few rounds in a hundred lost it before the tenant's row was locked first), so
    there are many rounds, a new owner each."""
    def writer(store: Store, owner: str, session: str) -> Callable[[], list[Turn]]:
        said = NewTurn(Scope.of(user_id=owner, session_id=session), "user", "hi", None, datetime(2024, 3, 4), {}, "hi")
        return lambda: store.turns.add_turns([said])

    rounds = 30
    for n in range(rounds):
        at_once([writer(two[i % 2], f"u{n}", f"s{i}") for i in range(THREADS)])
    assert two[1].quotas.usage("default") == (rounds * THREADS, 2 * rounds * THREADS, rounds)  # type: ignore[attr-defined]
