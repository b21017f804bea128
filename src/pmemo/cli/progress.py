"""Progress bars for the long CLI steps: writing turns, and waiting for background jobs.

Bars go to stderr and show only on a terminal, so piped output and scripts stay clean. A
background job can hold a whole import's embedding, and can make more jobs (an embedded turn
joins a cluster, which may need a summary), so on the store the bar counts the texts
embedded (``Memory.on_embed``) and says how many jobs are left; beside a server, which runs
the jobs itself, it counts jobs done, its total growing as new ones appear.

>>> with bar("Importing", total=3, unit="turns") as show:  # doctest: +SKIP
...     show(3)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from . import target

POLL_S = 0.25  # how often the bar asks how many jobs are left
REMOTE_POLL_S = 0.5  # a server is asked less often: each ask counts against the key's rate


def console() -> Any:
    from rich.console import Console

    return Console(stderr=True, highlight=False)


@contextmanager
def bar(label: str, *, total: int, unit: str = "") -> Iterator[Callable[..., None]]:
    """A bar of ``total`` steps; yields ``show(done, total=None, note="")`` to move it."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    out = console()
    if not out.is_terminal:  # piped or captured: no bar, and not even the blank lines of one
        yield lambda done, new_total=None, note="": None
        return
    columns = [SpinnerColumn(), TextColumn(label), BarColumn(), MofNCompleteColumn(),
               TextColumn(unit), TextColumn("{task.fields[note]}"), TimeElapsedColumn()]
    with Progress(*columns, console=out, transient=True) as progress:
        task = progress.add_task(label, total=total, note="")

        def show(done: int, new_total: int | None = None, note: str = "") -> None:
            progress.update(task, completed=done, total=new_total, note=note)

        yield show


def wait_for_jobs(mem: Any, label: str = "Finishing background jobs", *, texts: int = 0) -> int:
    """Wait until the background jobs are done, under a progress bar; returns how many there
    were. ``texts``: how many texts the jobs embed (an import's turns), to count those instead.

    On the store the jobs run here (``mem.drain()`` in a thread, while the bar watches);
    beside a server the server runs them and the bar only watches.
    """
    left = mem.pending()
    if not left:
        return 0
    remote = target.is_remote(mem)
    embedded = _count_embedded(mem) if texts and not remote else None
    failed: list[BaseException] = []
    worker = None
    if not remote:
        worker = threading.Thread(target=_run, args=(mem.drain, failed), name="pmemo-drain",
                                  daemon=True)
        worker.start()
    jobs = left
    total, unit = (texts, "texts embedded") if embedded is not None else (jobs, "jobs")
    with bar(label, total=total, unit=unit) as show:
        while left:
            if worker is not None:
                worker.join(POLL_S)
                if not worker.is_alive():
                    break
            else:
                time.sleep(REMOTE_POLL_S)
            now = mem.pending()
            jobs += max(now - left, 0)  # new jobs, made by the ones just done
            left = now
            if embedded is not None:
                show(min(embedded[0], texts), note=f"· {left} job(s) left")
            else:
                show(jobs - left, jobs)
        show(total, total)
    if worker is not None:
        worker.join()
    if failed:
        raise failed[0]
    return jobs


def _count_embedded(mem: Any) -> list[int] | None:
    """A counter of the passages the store's embedder embeds from now on (None if it cannot
    tell): one list cell, added to from the worker's thread."""
    hook = getattr(mem, "on_embed", None)
    if hook is None:
        return None
    counter = [0]

    def count(kind: str, texts: int, seconds: float) -> None:
        if kind == "passage":
            counter[0] += texts

    hook(count)
    return counter


def _run(fn: Callable[[], Any], failed: list[BaseException]) -> None:
    try:
        fn()
    except BaseException as exc:  # noqa: BLE001 - handed to the main thread, raised there
        failed.append(exc)
