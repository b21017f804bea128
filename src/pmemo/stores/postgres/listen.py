"""Job wake-ups across processes: LISTEN on ``pmemo_jobs`` (JobSignals, ports/jobs.py).

A trigger on the jobs table NOTIFYs ``pmemo_jobs`` whenever jobs become due
(migrations/0050_job_notify.sql), with the table's schema as payload, so a worker in one
process hears a job queued through any server at once instead of finding it at its next
poll. ``JobListener`` keeps one dedicated connection outside the pool (a pooled one would be
handed to other callers, and LISTEN is session state) in a thread of its own, and calls
``wake`` for each notification of its schema.

A connection that drops (a restart, a network cut, a terminated backend) is opened again
after ``RETRY_S`` seconds, and ``wake`` is called once it listens again, since jobs queued
meanwhile were not announced. While it is down ``live`` is false and the worker polls
faster (``wake`` is called as it drops, so a worker waiting out the slow poll hears of it):
notifications are a shortcut, the poll is what guarantees every job is found.

Why not Redis pub/sub: a NOTIFY is sent by the very transaction that queues the job, and
only if it commits, so no wake-up comes before the job is visible nor is one lost between
commit and publish; and it needs nothing besides the database, Redis being optional.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

import psycopg

CHANNEL = "pmemo_jobs"
RETRY_S = 1.0  # between two tries to listen again after the connection dropped
CHECK_S = 0.25  # how often the thread looks up from its wait to see whether it is closed
CONNECT_TIMEOUT_S = 10

log = logging.getLogger("pmemo")


class JobListener:
    """Calls ``wake()`` (from its own thread) each time jobs are queued in the store at ``url``.

    >>> listener = JobListener(url, lambda: print("jobs!"))  # doctest: +SKIP
    >>> listener.close()  # doctest: +SKIP
    """

    def __init__(self, url: str, wake: Callable[[], None]) -> None:
        self.url = url
        self.wake = wake
        self.received = 0  # notifications of our schema heard so far
        self.backend_pid: int | None = None  # the listening connection's server process
        self._live = threading.Event()
        self._closing = threading.Event()
        self._thread = threading.Thread(target=self._run, name="pmemo-job-listener", daemon=True)
        self._thread.start()

    @property
    def live(self) -> bool:
        """True while the connection listens: a queued job wakes the worker at once."""
        return self._live.is_set()

    def wait_live(self, timeout: float) -> bool:
        """Block until the connection listens (or ``timeout`` seconds): for tests and tools."""
        return self._live.wait(timeout)

    def close(self) -> None:
        """Stop listening and close the connection (blocks up to ``CHECK_S``)."""
        self._closing.set()
        self._thread.join()

    def _run(self) -> None:
        warned = False
        while not self._closing.is_set():
            try:
                self._listen()
            except psycopg.Error as exc:
                if self.live or not warned:  # once per outage, not once per retry
                    log.warning("job notifications off (%s): workers poll for jobs until they are back",
                                str(exc).strip() or type(exc).__name__)
                warned = True
            finally:
                was_live = self.live
                self._live.clear()
                self.backend_pid = None
                if was_live and not self._closing.is_set():
                    self.wake()  # the worker waits the slow poll of a live link: it polls fast now
            self._closing.wait(RETRY_S)

    def _listen(self) -> None:
        with psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S) as conn:
            row = conn.execute("SELECT current_schema(), pg_backend_pid()").fetchone()
            assert row is not None
            schema, self.backend_pid = row
            conn.execute(f"LISTEN {CHANNEL}")
            self._live.set()
            self.wake()  # what was queued while nobody listened was announced to no one
            while not self._closing.is_set():
                for note in conn.notifies(timeout=CHECK_S):
                    if note.payload == schema:
                        self.received += 1
                        self.wake()
