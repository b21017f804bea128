"""Store reads that do not depend on each other, run at once where the store allows it.

A PostgreSQL store answers from a pool of connections: the reads of a context's sections (the
people, the graph, the episodes, the recent turns) can be on the wire together. A SQLite store
reads in the process, where a read costs less than the thread hop that would run it beside
another: there each read runs when it is started, in the caller's thread.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")
WORKERS = 4  # a context's section reads at once: people, graph, episodes, recent turns


class Together:
    """``start(call, *args)`` → a future of its result: on a thread of its own when ``parallel``,
    else run at once (the future is done when ``start`` returns).

    >>> reads = Together(parallel=False)
    >>> reads.start(sum, [1, 2]).result()
    3
    """

    def __init__(self, parallel: bool, name: str = "pmemo-reads") -> None:
        self._pool = ThreadPoolExecutor(WORKERS, thread_name_prefix=name) if parallel else None

    def start(self, call: Callable[..., T], *args: Any) -> Future[T]:
        if self._pool is not None:
            return self._pool.submit(call, *args)
        done: Future[T] = Future()
        try:
            done.set_result(call(*args))
        except BaseException as exc:  # raised where the result is asked for, as a thread's would be
            done.set_exception(exc)
        return done

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
