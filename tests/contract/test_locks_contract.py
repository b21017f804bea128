"""The lock port (``ports.locks``, ``store.locks.hold``): named locks every process on a store
shares, and ``batch_owners``.

On Postgres the two sides are two stores (two pools) on one database, as two processes are; on
SQLite the one store from two threads (its directory admits one process:
tests/e2e/test_forget_exclusion.py shows the second one kept out). A hold that cannot wait
(``wait_s=0``) says at once whether the name is free, so exclusion is asserted without a clock.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from typing import TypeVar

import pytest

from pmemo.errors import StoreLocked
from pmemo.models import Scope
from pmemo.stores.base import Store

T = TypeVar("T")
ANN = Scope.of(tenant_id="acme", agent_id="bot", user_id="ann").key
BOB = Scope.of(tenant_id="acme", agent_id="bot", user_id="bob").key


@pytest.fixture
def two(store: Store, request: pytest.FixtureRequest) -> Iterator[tuple[Store, Store]]:
    """Two handles on one store: two stores on one database, or the one SQLite store twice."""
    from pmemo.stores.postgres.store import PostgresStore

    if not isinstance(store, PostgresStore):
        yield store, store
        return
    other = PostgresStore.open(request.getfixturevalue("postgres_url"))
    yield store, other
    other.close()


def elsewhere(work: Callable[[], T]) -> T:
    """``work`` run in another thread (another caller of the store), its result or its error here."""
    out: list[T] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            out.append(work())
        except BaseException as exc:
            errors.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(60)
    if errors:
        raise errors[0]
    return out[0]


def try_hold(store: Store, names: list[str], shared: bool = False) -> bool:
    """Whether another caller gets ``names`` at once (and lets them go again)."""
    def attempt() -> bool:
        try:
            with store.locks.hold(names, shared=shared, wait_s=0):
                return True
        except StoreLocked:
            return False
    return elsewhere(attempt)


def test_an_exclusive_hold_keeps_out_every_other_hold_of_its_names(two: tuple[Store, Store]):
    a, b = two
    with a.locks.hold([ANN]):
        assert not try_hold(b, [ANN]) and not try_hold(b, [ANN], shared=True)
        assert not try_hold(b, [BOB, ANN])  # all of a hold's names, or none
        assert try_hold(b, [BOB])  # another owner is free
    assert try_hold(b, [ANN]) and try_hold(b, [BOB, ANN])  # and after, so is this one


def test_shared_holds_admit_each_other_but_no_exclusive_one(two: tuple[Store, Store]):
    a, b = two
    with a.locks.hold([ANN, BOB], shared=True):
        assert try_hold(b, [ANN], shared=True)
        assert not try_hold(b, [ANN])
        with b.locks.hold([BOB], shared=True, wait_s=0):
            assert not try_hold(a, [BOB])
    assert try_hold(b, [ANN, BOB])


def test_a_waiting_hold_gets_the_name_once_the_holder_lets_go(two: tuple[Store, Store]):
    a, b = two
    events: list[str] = []
    started = threading.Event()

    def wait_for_it() -> None:
        started.set()
        with b.locks.hold([ANN]):
            events.append("b holds")

    with a.locks.hold([ANN], shared=True):
        thread = threading.Thread(target=wait_for_it)
        thread.start()
        started.wait(30)
        thread.join(0.3)  # time to reach the lock and wait there (a wait, not a timing assert)
        assert events == []  # it waits, for as long as the hold lasts
        events.append("a lets go")
    thread.join(60)
    assert events == ["a lets go", "b holds"]


def test_a_hold_that_waits_too_long_says_what_is_held(two: tuple[Store, Store]):
    a, b = two
    with a.locks.hold([ANN]):
        with pytest.raises(StoreLocked, match=re.escape(ANN)):
            elsewhere(lambda: b.locks.hold([ANN], wait_s=0.2).__enter__())
    with b.locks.hold([]):  # no names: nothing to wait for
        assert try_hold(a, [ANN])


def test_an_error_in_the_block_lets_the_names_go(two: tuple[Store, Store]):
    a, b = two
    with pytest.raises(ValueError), a.locks.hold([ANN, BOB]):
        raise ValueError("the forget failed half way")
    assert try_hold(b, [ANN, BOB])


def test_batch_owners_are_the_scopes_its_log_and_its_row_name(full_store):
    s = full_store
    batch = s.batches.new_batch("forget", "soft", ANN, "forget", "acme")
    other = s.batches.new_batch("forget", "soft", "acme|bot|u:cy", "forget", "acme")
    s.batches.log_actions(batch, [("forget", "turn", 1, BOB, "forget", {}), ("forget", "turn", 2, ANN, "forget", {}),
                          ("forget:deleted", "cluster", 3, None, "forget", {})])
    s.batches.log_actions(other, [("forget", "turn", 4, "acme|bot|g:team", "forget", {})])
    assert s.batches.batch_owners(batch) == sorted([ANN, BOB])
    assert s.batches.batch_owners(other) == ["acme|bot|g:team", "acme|bot|u:cy"]
    sweep = s.batches.new_batch("sweep", "soft", None, "sweeper", None)
    assert s.batches.batch_owners(sweep) == []
