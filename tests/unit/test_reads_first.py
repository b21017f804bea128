"""reads_first: the background gives way to a read under way, and only the background does."""

from __future__ import annotations

import threading

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
        assert reads_first.give_way(most_s=60) == 0.0  # no read under way
