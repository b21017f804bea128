"""Editing what is stored: key lines (list, add, edit, delete), summaries and turns (list, delete).

    pmemo key add "Louis prefers answers in Chinese" --user demo
    pmemo summaries list --user demo --session s1
    pmemo turns delete 42 --user demo

The shared options and helpers are ``core_cmds``'; each command runs on the store or beside
the server that holds it, as the everyday commands do.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Annotated, Any

import typer

from .. import errors
from ..models import KeyLine, Summary, Turn
from .core_cmds import (
    AgentOpt,
    DataOpt,
    EmbedderOpt,
    GroupOpt,
    JsonOpt,
    SessionOpt,
    TenantOpt,
    UserOpt,
    _chat_memory,
    _errors_to_exit,
    _listing,
    _memory,
    _owner,
    _short,
    _tenant,
    _turn_json,
    _where,
)

# ---- key memory --------------------------------------------------------------------------


@_errors_to_exit
def key_list(
    user: UserOpt = None, group: GroupOpt = None,
    as_json: JsonOpt = False,
    tenant: TenantOpt = None, agent: AgentOpt = "default", data: DataOpt = None, embedder: EmbedderOpt = None,
) -> None:
    """List key lines, user-set ones first."""
    with _chat_memory(user, group, tenant, agent, data, embedder) as (mem, scope):
        lines: list[KeyLine] = mem.key_memory(**scope)
    _listing(lines, as_json, json_of=lambda k: {"id": k.id, "text": k.text, "origin": k.origin,
                                                "source_ids": k.source_ids, "updated_at": k.updated_at.isoformat()},
             empty="no key lines", columns=("id", "origin", "text", "updated"),
             cells=lambda k: (k.id, k.origin, k.text, f"{k.updated_at:%Y-%m-%d %H:%M}"))


@_errors_to_exit
def key_add(
    text: Annotated[str, typer.Argument(help="A short fact to always keep in context.")],
    user: UserOpt = None, group: GroupOpt = None,
    tenant: TenantOpt = None, agent: AgentOpt = "default", data: DataOpt = None, embedder: EmbedderOpt = None,
) -> None:
    """Add a user-set key line."""
    scope = _owner(user, group, tenant, agent)
    with _memory(data, embedder, must_exist=False, tenant=tenant) as mem:
        line = mem.add_key(text, **scope)
    typer.echo(f"key line {line.id} added")


def _check_key_owner(mem: Any, key_id: int, user: str | None, group: str | None,
                     tenant: str | None, agent: str) -> None:
    """With --user/--group, the key line must belong to them (ids alone are tenant-wide)."""
    if user is None and group is None:
        return
    if key_id not in {k.id for k in mem.key_memory(**_owner(user, group, tenant, agent))}:
        raise errors.NotFound(f"key line {key_id} does not belong to {user or group}")


@_errors_to_exit
def key_edit(
    key_id: Annotated[int, typer.Argument(metavar="ID", help="The key line's id (see key list).")],
    text: Annotated[str, typer.Argument(help="The new text.")],
    user: UserOpt = None, group: GroupOpt = None,
    tenant: TenantOpt = None, agent: AgentOpt = "default", data: DataOpt = None, embedder: EmbedderOpt = None,
) -> None:
    """Replace the text of a key line."""
    with _memory(data, embedder, tenant=tenant) as mem:
        _check_key_owner(mem, key_id, user, group, tenant, agent)
        line = mem.update_key(key_id, text, tenant_id=_tenant(tenant))
    typer.echo(f"key line {line.id} updated")


@_errors_to_exit
def key_delete(
    key_id: Annotated[int, typer.Argument(metavar="ID", help="The key line's id (see key list).")],
    user: UserOpt = None, group: GroupOpt = None,
    tenant: TenantOpt = None, agent: AgentOpt = "default", data: DataOpt = None, embedder: EmbedderOpt = None,
) -> None:
    """Delete a key line."""
    with _memory(data, embedder, tenant=tenant) as mem:
        _check_key_owner(mem, key_id, user, group, tenant, agent)
        mem.delete_key(key_id, tenant_id=_tenant(tenant))
    typer.echo(f"key line {key_id} deleted")


# ---- summaries ---------------------------------------------------------------------------


@_errors_to_exit
def summaries_list(
    user: UserOpt = None, group: GroupOpt = None,
    session: SessionOpt = None,
    as_json: JsonOpt = False,
    tenant: TenantOpt = None, agent: AgentOpt = "default", data: DataOpt = None, embedder: EmbedderOpt = None,
) -> None:
    """List summaries with the steps they cover."""
    with _chat_memory(user, group, tenant, agent, data, embedder) as (mem, scope):
        found: list[Summary] = mem.summaries(session_id=session, **scope)
    _listing(found, as_json, json_of=lambda s: {"id": s.id, "session_id": s.scope.session_id, "step_from": s.step_from,
                                                "step_to": s.step_to, "method": s.method, "text": s.text,
                                                "source_ids": s.source_ids},
             empty="no summaries", columns=("id", "session", "steps", "method", "text"),
             cells=lambda s: (s.id, s.scope.session_id, f"{s.step_from}-{s.step_to}", s.method, _short(s.text, 300)))


@_errors_to_exit
def summaries_delete(
    summary_id: Annotated[int, typer.Argument(metavar="ID", help="The summary's id.")],
    tenant: TenantOpt = None, data: DataOpt = None, embedder: EmbedderOpt = None,
) -> None:
    """Delete a summary (its turns stay)."""
    with _memory(data, embedder, tenant=tenant) as mem:
        mem.delete_summary(summary_id, tenant_id=_tenant(tenant))
    typer.echo(f"summary {summary_id} deleted")


# ---- turns -------------------------------------------------------------------------------


@_errors_to_exit
def turns_list(
    user: UserOpt = None, group: GroupOpt = None,
    session: SessionOpt = None,
    limit: Annotated[int, typer.Option(help="How many turns.")] = 100,
    offset: Annotated[int, typer.Option(help="Skip this many first.")] = 0,
    as_json: JsonOpt = False,
    tenant: TenantOpt = None, agent: AgentOpt = "default", data: DataOpt = None, embedder: EmbedderOpt = None,
) -> None:
    """List raw turns, oldest first."""
    with _chat_memory(user, group, tenant, agent, data, embedder, catch_up=False) as (mem, scope):
        found: list[Turn] = mem.turns(session_id=session, limit=limit, offset=offset, **scope)
        where = _where(mem, scope)
    _listing(found, as_json, json_of=lambda t: {**_turn_json(t), "content": t.content}, empty=f"no turns in {where}",
             columns=("id", "session", "step", "role", "actor", "time", "text"),
             cells=lambda t: (t.id, t.session_id, t.step, t.role, t.actor, f"{t.timestamp:%Y-%m-%d %H:%M}",
                              _short(t.content, 120)))


@_errors_to_exit
def turns_delete(
    turn_id: Annotated[int | None, typer.Argument(metavar="[ID]", help="The turn's id.")] = None,
    session: Annotated[
        str | None, typer.Option("--session", help="With --step: delete by position.")
    ] = None,
    step: Annotated[int | None, typer.Option(help="Step in --session (from 1).")] = None,
    user: UserOpt = None, group: GroupOpt = None,
    tenant: TenantOpt = None, agent: AgentOpt = "default", data: DataOpt = None, embedder: EmbedderOpt = None,
) -> None:
    """Delete a turn from every tier: by ID, or by --session S --step N --user U."""
    by_step = session is not None or step is not None
    if (turn_id is None) == (not by_step):
        raise errors.InvalidInput("give a turn ID, or --session S --step N --user U (not both)")
    if by_step and (session is None or step is None):
        raise errors.InvalidInput("deleting by position needs both --session S and --step N")
    with _memory(data, embedder, tenant=tenant) as mem:
        if turn_id is not None:
            report = mem.delete_turn(turn_id, tenant_id=_tenant(tenant))
        else:
            report = mem.delete_turn_at(session, step, **_owner(user, group, tenant, agent))
    typer.echo(_deleted(report))


def _deleted(report: dict[str, Any]) -> str:
    """One line from delete_turn's report: what went, what was rebuilt."""
    ids = ", ".join(str(i) for i in report.get("turns", []))
    extra = []
    for kind, one in (("clusters", "cluster"), ("summaries", "summary")):
        outcomes = Counter(str(v) for v in report.get(kind, {}).values())
        extra += [f"{n} {one if n == 1 else kind} {what}" for what, n in sorted(outcomes.items())]
    if report.get("key_lines"):
        extra.append(f"{len(report['key_lines'])} promoted key line(s) deleted")
    return f"deleted turn {ids}" + (f" ({'; '.join(extra)})" if extra else "")


def register(app: typer.Typer) -> None:
    """Add key, summaries and turns (each a group of commands) to ``app``."""
    groups: dict[str, tuple[str, dict[str, Callable[..., Any]]]] = {
        "key": ("Key memory: short facts always first in the context.",
                {"list": key_list, "add": key_add, "edit": key_edit, "delete": key_delete}),
        "summaries": ("Long-term summaries: list and delete.",
                      {"list": summaries_list, "delete": summaries_delete}),
        "turns": ("Raw turns: list and delete.", {"list": turns_list, "delete": turns_delete}),
    }
    for name, (help_text, commands) in groups.items():
        sub = typer.Typer(no_args_is_help=True, help=help_text)
        for command, fn in commands.items():
            sub.command(command)(fn)
        app.add_typer(sub, name=name)
