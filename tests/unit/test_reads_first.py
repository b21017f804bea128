"""reads_first: the background gives way to a read under way, and only the background does."""

from __future__ import annotations

import threading
import time

from pmemo import reads_first


def test_a_background_thread_waits_until_the_read_is_over() -> None:
    read_started, read_may_end, given = threading.Event(), threading.Event(), threading.Event()
    order: list[str] = []

    def reader() -> None:
        with reads_first.reading():
            read_started.set()
            read_may_end.wait(30)
            order.append("read over")

    def background() -> None:
        read_started.wait(30)
        with reads_first.background():
            reads_first.give_way(most_s=60)  # far longer than the read: it ends the wait
        order.append("background on")
        given.set()

    threads = [threading.Thread(target=reader), threading.Thread(target=background)]
    for t in threads:
        t.start()
    read_started.wait(30)
    assert not given.wait(0.2)  # still waiting while the read is under way
    read_may_end.set()
    for t in threads:
        t.join(30)
    assert order == ["read over", "background on"] and reads_first.reads_under_way() == 0


def test_only_the_background_waits_and_never_past_most_s() -> None:
    with reads_first.reading():
        assert reads_first.give_way(most_s=60) == 0.0  # a read's own thread, or a writer's: no wait
        with reads_first.background():
            assert reads_first.give_way(most_s=0.01) > 0  # bounded: the read is still under way
        assert reads_first.reads_under_way() == 1
    with reads_first.background():
        assert reads_first.give_way(most_s=60, quiet_s=0.0) == 0.0  # no read under way
        assert reads_first.give_way(most_s=60, quiet_s=0.01) < 60  # quiet once the last read is 0.01 s old


def test_the_background_waits_out_a_reader_that_asks_again_at_once() -> None:
    """A client that asks again as soon as it has its answer leaves gaps of a few microseconds:
    the background waits for a calm, not for the end of one read."""
    stop, rounds, gaps = threading.Event(), [0], []

    def reader() -> None:
        while not stop.is_set():
            with reads_first.reading():
                rounds[0] += 1
                time.sleep(0.001)

    thread = threading.Thread(target=reader)
    thread.start()
    try:
        with reads_first.background():
            while rounds[0] < 3:
                time.sleep(0.001)
            before = rounds[0]
            reads_first.give_way(most_s=0.2, quiet_s=0.05)  # reads never calm: the whole 0.2 s
            gaps.append(rounds[0] - before)
    finally:
        stop.set()
        thread.join(30)
    assert gaps[0] > 1  # it let more than the one read under way go first
