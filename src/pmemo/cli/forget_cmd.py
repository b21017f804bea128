"""``pmemo forget``, ``pmemo restore`` and ``pmemo profile``: a thin shell over the library.

pmemo forget --dry-run                       # what the sweeper would soft-delete
pmemo forget                                 # run the sweeper (logged, restorable)
pmemo forget --query 咖啡 --user mei          # forget what mei said about 咖啡
pmemo forget --turn 12 --turn 13 --hard      # erase two turns and what came from them
pmemo forget --person ni [--group study]     # forget a person everywhere (or in one group)
pmemo restore 3                              # undo forget/sweep batch 3
pmemo profile --user mei --history
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from .. import errors
from .core_cmds import (
    AgentOpt,
    DataOpt,
    EmbedderOpt,
    GroupOpt,
    JsonOpt,
    TenantOpt,
    UserOpt,
    _catch_up,
    _console,
    _errors_to_exit,
    _listing,
    _memory,
    _owner,
    _print_json,
    _row,
    _short,
    _table,
    _tenant,
    add_commands,
)


@_errors_to_exit
def forget(
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Show what would go; change nothing.")
    ] = False,
    query: Annotated[
        str | None, typer.Option("--query", help="Forget turns that mention this.")
    ] = None,
    turn: Annotated[
        list[int] | None, typer.Option("--turn", help="A turn id to forget (repeatable).")
    ] = None,
    person: Annotated[
        str | None,
        typer.Option("--person", help="Forget a person: what they said and what is about them, with"
                     " every name (with --group or --user: only in that chat)."),
    ] = None,
    hard: Annotated[bool, typer.Option("--hard", help="Erase at once (not restorable).")] = False,
    user: UserOpt = None, group: GroupOpt = None,
    tenant: TenantOpt = None, agent: AgentOpt = "default", as_json: JsonOpt = False,
    data: DataOpt = None, embedder: EmbedderOpt = None,
) -> None:
    """Run the sweeper, forget turns (by --query or --turn) and everything derived, or a person."""
    if person is not None and (query is not None or turn):
        raise errors.InvalidInput("give one of --person P, --query Q or --turn ID")
    with _memory(data, embedder, tenant=tenant) as mem:
        _catch_up(mem)
        if person is not None:
            where = {} if user is None and group is None else _owner(user, group, tenant, agent)
            report = mem.forget(person_id=person, hard=hard, dry_run=dry_run,
                                **{"tenant_id": _tenant(tenant), **where})
        elif query is None and not turn:
            report = mem.sweep(dry_run=dry_run, tenant_id=tenant)
        elif query is not None:
            scope = _owner(user, group, tenant, agent)
            report = mem.forget(query=query, hard=hard, dry_run=dry_run, **scope)
        else:
            report = mem.forget(
                turn_ids=list(turn or []), hard=hard, dry_run=dry_run, tenant_id=_tenant(tenant)
            )
    if as_json:
        _print_json(report)
        return
    _show(report, tenant)


def _show(report: dict[str, Any], tenant: str | None = None) -> None:
    if "actions" in report:
        verb = "would" if report["dry_run"] else "did"
        if not report["actions"]:
            typer.echo(f"the sweeper {'would archive' if report['dry_run'] else 'archived'} nothing:"
                       " every record is above its strength threshold")
            return
        table = _table("action", "kind", "id", "strength", "reason",
                       title=f"sweeper ({verb}; batch {report['batch'] or '-'})")
        for a in report["actions"]:
            _row(table, a["action"], a["kind"], a["ref"], a["strength"], a["reason"])
        _console().print(table)
        return
    if report.get("dry_run"):
        table = _table("id", "text", title="would forget")
        for tid, text in zip(report["turns"], report["texts"], strict=True):
            _row(table, tid, _short(text))
        _console().print(table)
        return
    parts = [f"{len(report['turns'])} turn(s)"]
    if "record" in report:  # a person (forget --person)
        parts.append(f"{len(report.get('aliases') or [])} name(s)")
        parts.append("the person record" if report["record"] else
                     f"their membership of {', '.join(report.get('memberships') or []) or 'nothing'}")
    for name in ("summaries", "clusters", "facts", "episodes"):
        if report.get(name):
            parts.append(f"{len(report[name])} {name}")
    if report.get("key_lines"):
        parts.append(f"{len(report['key_lines'])} key line(s)")
    how = (
        "erased"
        if report.get("mode") == "hard"
        else f"forgot (restore with: pmemo restore {report['batch']}{_tenant_flag(tenant)})"
    )
    typer.echo(f"{how}: " + ", ".join(parts))


def _tenant_flag(tenant: str | None) -> str:
    return "" if tenant is None else f" --tenant {tenant}"


@_errors_to_exit
def restore(
    batch: Annotated[int, typer.Argument(help="The batch a forget or sweep printed.")],
    tenant: TenantOpt = None, data: DataOpt = None, embedder: EmbedderOpt = None,
) -> None:
    """Undo a soft forget or a sweep."""
    with _memory(data, embedder, tenant=tenant) as mem:
        report = mem.restore(batch, tenant_id=_tenant(tenant))
    counts = ", ".join(f"{len(v)} {k}" for k, v in report.items() if k != "batches")
    typer.echo(f"restored batch {batch}: {counts or 'nothing'}")


@_errors_to_exit
def profile(
    user: Annotated[str, typer.Option("--user", help="The person.")],
    history: Annotated[
        bool, typer.Option("--history", help="Also superseded/conflicting facts.")
    ] = False,
    tenant: TenantOpt = None, agent: AgentOpt = "default", as_json: JsonOpt = False,
    data: DataOpt = None, embedder: EmbedderOpt = None,
) -> None:
    """What is known about a person: facts with confidence, mentions and validity."""
    with _memory(data, embedder, tenant=tenant) as mem:
        _catch_up(mem)
        facts = mem.profile(user, history=history, tenant_id=_tenant(tenant), agent_id=agent)
    _listing(facts, as_json, json_of=lambda f: {**f.__dict__, "scope": None}, empty=f"no facts about {user} yet",
             columns=("id", "category", "key", "value", "confidence", "mentions", "status", "since"),
             title=f"profile of {user}",
             cells=lambda f: (f.id, f.category, f.key, _short(f.value, 80), f"{f.confidence:.2f}", f.mentions, f.status,
                              f"{f.valid_from:%Y-%m-%d}"))


def register(app: typer.Typer) -> None:
    """Add forget, restore and profile to ``app``."""
    add_commands(app, {"forget": forget, "restore": restore, "profile": profile})
