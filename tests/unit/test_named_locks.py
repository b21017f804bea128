"""The SQLite store's in-process named locks: a waiting exclusive hold goes first, and one that
gives up lets the shared holds it held back go."""

from __future__ import annotations

import threading
import time

import pytest

from pmemo.errors import StoreLocked
from pmemo.stores.sqlite.locks import NamedLocks

X = "acme|bot|u:ann"


def queued(locks: NamedLocks) -> None:
    """Until an exclusive hold waits for X (it started in another thread)."""
    deadline = time.monotonic() + 60  # a bound on a hung test, not a timing assert
    while not locks._queued[X]:
        assert time.monotonic() < deadline, "the exclusive hold never queued"
        time.sleep(0.01)


def test_a_waiting_exclusive_hold_keeps_new_shared_ones_out():
    locks, events = NamedLocks(), list[str]()

    def forget() -> None:
        with locks.hold([X]):
            events.append("forget")

    with locks.hold([X], shared=True):
        waiter = threading.Thread(target=forget)
        waiter.start()
        queued(locks)
        with pytest.raises(StoreLocked), locks.hold([X], shared=True, wait_s=0):
            pass  # a stream of batches cannot starve the forget
        events.append("batch done")
    waiter.join(60)
    assert events == ["batch done", "forget"]


def test_an_exclusive_hold_that_gives_up_lets_the_shared_ones_go():
    locks, events = NamedLocks(), list[str]()
    gave_up = threading.Event()

    def forget() -> None:
        try:
            with locks.hold([X], wait_s=0.3):
                events.append("forget")
        except StoreLocked:
            gave_up.set()

    def batch() -> None:
        with locks.hold([X], shared=True):
            events.append("second batch")

    with locks.hold([X], shared=True):
        waiter = threading.Thread(target=forget)
        waiter.start()
        queued(locks)
        second = threading.Thread(target=batch)  # held back behind the forget
        second.start()
        second.join(60)  # it runs once the forget gives up, while the first batch still holds X
        assert gave_up.is_set() and events == ["second batch"]
    waiter.join(60)
