"""``pmemo worker``: run the background jobs of a shared store until stopped.

    PMEMO_STORE=postgresql://pmemo@db/pmemo PMEMO_RUN_JOBS=false pmemo serve   # servers only queue jobs
    PMEMO_STORE=postgresql://pmemo@db/pmemo pmemo worker                       # N of these run them

Each worker claims batches of jobs (embedding, clustering, summaries, extraction, diary …)
under its own id with a lease (``PMEMO_JOB_LEASE_S``), so the jobs of a worker that dies go
to another once its lease runs out. SIGTERM or SIGINT stops it: the batch in progress is
finished, or given back between two embedding calls, and its leases are released at once.

A SQLite data directory belongs to one process, which runs its own jobs: a worker runs on one
only while nothing else holds it, and says so.
"""

from __future__ import annotations

import asyncio
import os
import signal

import typer

from .. import errors
from ..config import Settings
from .core_cmds import DataOpt, EmbedderOpt, _errors_to_exit
from .migrate_cmd import StoreOpt, redact


@_errors_to_exit
def worker(store: StoreOpt = None, data: DataOpt = None, embedder: EmbedderOpt = None) -> None:
    """Run the store's background jobs until SIGTERM or Ctrl-C (for servers with PMEMO_RUN_JOBS=false)."""
    from .serve_cmd import _logging

    settings = Settings.from_env(data=data, store=store, embedder=embedder).replace(run_jobs=True)
    _logging(settings)
    asyncio.run(_work(settings))


async def _work(settings: Settings) -> None:
    from .. import Memory
    from ..stores import folder_of, target_of

    target = target_of(settings)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    from ..text.lang import zh

    # jieba's tables, before the first batch: not loaded by a step mid-batch (holding the GIL)
    await asyncio.to_thread(zh.warm, settings.diary_enabled)
    try:
        memory = await Memory.open(settings=settings)
    except errors.StoreLocked as exc:
        raise errors.StoreLocked(
            f"{exc} — a SQLite data directory belongs to one process, which runs its own background jobs;"
            " pmemo worker is for a store that processes share (PMEMO_STORE=postgresql://…)") from exc
    folder = folder_of(target)
    if folder is not None:
        typer.echo(f"note: {folder} is a SQLite data directory: no other process opens it until this worker"
                   " stops (several processes share a PostgreSQL store)",
                   err=True)
    typer.echo(f"pmemo worker (pid {os.getpid()}) running the background jobs of {redact(str(target))}"
               " (SIGTERM or Ctrl-C stops it)", err=True)
    try:
        await stop.wait()
    finally:
        typer.echo("Stopping (finishing or giving back the batch in progress)…", err=True)
        await memory.close()


def register(app: typer.Typer) -> None:
    app.command("worker")(worker)
