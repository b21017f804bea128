"""``pmemo jobs``: the background jobs that failed every try, and trying them again.

pmemo jobs failed [--tenant acme] [--json]      # kind, tries and last error of each
pmemo jobs retry                                # every failed job (of --tenant) again
pmemo jobs retry --id 12 --id 13                # these ones

On the store, ``retry`` runs the jobs it queued before it returns and says which failed again;
beside a server, the server's worker runs them.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

import typer

from . import target
from .core_cmds import (
    DataOpt,
    EmbedderOpt,
    JsonOpt,
    TenantOpt,
    _catch_up,
    _console,
    _errors_to_exit,
    _memory,
    _print_json,
    _row,
    _short,
    _table,
)

jobs = typer.Typer(no_args_is_help=True, help="Background jobs that failed every try, and trying them again.")
LimitOpt = Annotated[int, typer.Option("--limit", help="At most this many, newest first.")]


def _scope(tenant: str | None, agent: str | None = None) -> dict[str, Any]:
    return {k: v for k, v in (("tenant_id", tenant), ("agent_id", agent)) if v is not None}


@jobs.command("failed")
@_errors_to_exit
def failed(
    tenant: TenantOpt = None,
    agent: Annotated[str | None, typer.Option("--agent", help="Only this agent's.")] = None,
    limit: LimitOpt = 100,
    as_json: JsonOpt = False,
    data: DataOpt = None,
    embedder: EmbedderOpt = None,
) -> None:
    """List the failed jobs: id, kind, tries, when, and the error of the last try."""
    with _memory(data, embedder, tenant=tenant) as mem:
        rows = mem.failed_jobs(limit=limit, **_scope(tenant, agent))
        if as_json:
            _print_json(rows)
            return
        table = _table("id", "kind", "tries", "when", "error", title=f"{len(rows)} failed job(s)")
        for r in rows:
            when = datetime.fromtimestamp(r["updated"], UTC).strftime("%Y-%m-%d %H:%M:%S")
            _row(table, r["id"], r["kind"], r["attempts"], when, _short(r["error"], 120))
        _console().print(table)


@jobs.command("retry")
@_errors_to_exit
def retry(
    job: Annotated[list[int] | None, typer.Option("--id", help="A failed job's id (repeatable; default: all).")] = None,
    tenant: TenantOpt = None,
    data: DataOpt = None,
    embedder: EmbedderOpt = None,
) -> None:
    """Queue failed jobs again, their tries counted from zero; on the store, run them now."""
    with _memory(data, embedder, tenant=tenant) as mem:
        count = mem.retry_jobs(job or None, **_scope(tenant))
        typer.echo(f"queued {count} failed job(s) again")
        if count and not target.is_remote(mem):
            _catch_up(mem)
            still = mem.failed_jobs(**_scope(tenant))
            again = [r for r in still if job is None or r["id"] in job]
            typer.echo(f"{len(again)} failed again" + (f": {_short(again[0]['error'], 120)}" if again else ""))


def register(app: typer.Typer) -> None:
    """Add ``pmemo jobs`` to ``app``."""
    app.add_typer(jobs, name="jobs")
