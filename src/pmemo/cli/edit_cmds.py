"""Editing what is stored: key lines (list, add, edit, delete), summaries and turns (list, delete).

    pmemo key add "Louis prefers answers in Chinese" --user demo
    pmemo summaries list --user demo --session s1
    pmemo turns delete 42 --user demo

The shared options and helpers are ``core_cmds``'; each command runs on the store or beside
the server that holds it, as the everyday commands do.
"""

from __future__ import annotations

from collections import Counter
from typing import Annotated, Any

import typer

from .. import errors
from ..models import KeyLine, Summary
from .core_cmds import (
    Chat,
    DataOpt,
    EmbedderOpt,
    JsonOpt,
    SessionOpt,
    TenantOpt,
    _errors_to_exit,
    _list_chat,
    _memory,
    _minute,
    _short,
    _tenant,
    _turn_json,
    add_commands,
    chat_command,
)

# ---- key memory --------------------------------------------------------------------------


KeyId = Annotated[int, typer.Argument(metavar="ID", help="The key line's id (see key list).")]


@chat_command
def key_list(chat: Chat, as_json: JsonOpt = False) -> None:
    """List key lines, user-set ones first."""
    _list_chat(chat, as_json, lambda mem, scope: mem.key_memory(**scope), json_of=_key_json, empty="no key lines",
               columns=("id", "origin", "text", "updated"),
               cells=lambda k: (k.id, k.origin, k.text, _minute(k.updated_at)))


def _key_json(k: KeyLine) -> dict[str, Any]:
    return {"id": k.id, "text": k.text, "origin": k.origin, "source_ids": k.source_ids,
            "updated_at": k.updated_at.isoformat()}


@chat_command
def key_add(text: Annotated[str, typer.Argument(help="A short fact to always keep in context.")], chat: Chat) -> None:
    """Add a user-set key line."""
    scope = chat.scope()
    with chat.memory(must_exist=False) as mem:
        line = mem.add_key(text, **scope)
    typer.echo(f"key line {line.id} added")


def _owned_key(mem: Any, key_id: int, chat: Chat) -> int:
    """The key line's id; with --user/--group, it must belong to them (ids alone are tenant-wide)."""
    if (chat.user is not None or chat.group is not None) and key_id not in {
            k.id for k in mem.key_memory(**chat.scope())}:
        raise errors.NotFound(f"key line {key_id} does not belong to {chat.user or chat.group}")
    return key_id


@chat_command
def key_edit(key_id: KeyId, text: Annotated[str, typer.Argument(help="The new text.")], chat: Chat) -> None:
    """Replace the text of a key line."""
    with chat.memory() as mem:
        line = mem.update_key(_owned_key(mem, key_id, chat), text, tenant_id=_tenant(chat.tenant))
    typer.echo(f"key line {line.id} updated")


@chat_command
def key_delete(key_id: KeyId, chat: Chat) -> None:
    """Delete a key line."""
    with chat.memory() as mem:
        mem.delete_key(_owned_key(mem, key_id, chat), tenant_id=_tenant(chat.tenant))
    typer.echo(f"key line {key_id} deleted")


# ---- summaries ---------------------------------------------------------------------------


@chat_command
def summaries_list(chat: Chat, session: SessionOpt = None, as_json: JsonOpt = False) -> None:
    """List summaries with the steps they cover."""
    _list_chat(chat, as_json, lambda mem, scope: mem.summaries(session_id=session, **scope), json_of=_summary_json,
               empty="no summaries", columns=("id", "session", "steps", "method", "text"),
               cells=lambda s: (s.id, s.scope.session_id, f"{s.step_from}-{s.step_to}", s.method, _short(s.text, 300)))


def _summary_json(s: Summary) -> dict[str, Any]:
    return {"id": s.id, "session_id": s.scope.session_id, "step_from": s.step_from, "step_to": s.step_to,
            "method": s.method, "text": s.text, "source_ids": s.source_ids}


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


@chat_command
def turns_list(
    chat: Chat,
    session: SessionOpt = None,
    limit: Annotated[int, typer.Option(help="How many turns.")] = 100,
    offset: Annotated[int, typer.Option(help="Skip this many first.")] = 0,
    as_json: JsonOpt = False,
) -> None:
    """List raw turns, oldest first."""
    _list_chat(chat, as_json, lambda mem, scope: mem.turns(session_id=session, limit=limit, offset=offset, **scope),
               catch_up=False, json_of=lambda t: {**_turn_json(t), "content": t.content}, empty="no turns in {where}",
               columns=("id", "session", "step", "role", "actor", "time", "text"),
               cells=lambda t: (t.id, t.session_id, t.step, t.role, t.actor, _minute(t.timestamp),
                                _short(t.content, 120)))


@chat_command
def turns_delete(
    turn_id: Annotated[int | None, typer.Argument(metavar="[ID]", help="The turn's id.")] = None,
    session: Annotated[str | None, typer.Option("--session", help="With --step: delete by position.")] = None,
    step: Annotated[int | None, typer.Option(help="Step in --session (from 1).")] = None,
    *, chat: Chat,
) -> None:
    """Delete a turn from every tier: by ID, or by --session S --step N --user U."""
    by_step = session is not None or step is not None
    if (turn_id is None) == (not by_step):
        raise errors.InvalidInput("give a turn ID, or --session S --step N --user U (not both)")
    if by_step and (session is None or step is None):
        raise errors.InvalidInput("deleting by position needs both --session S and --step N")
    with chat.memory() as mem:
        if turn_id is not None:
            report = mem.delete_turn(turn_id, tenant_id=_tenant(chat.tenant))
        else:
            report = mem.delete_turn_at(session, step, **chat.scope())
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
    add_commands(app, {}, {
        "key": ("Key memory: short facts always first in the context.",
                {"list": key_list, "add": key_add, "edit": key_edit, "delete": key_delete}),
        "summaries": ("Long-term summaries: list and delete.",
                      {"list": summaries_list, "delete": summaries_delete}),
        "turns": ("Raw turns: list and delete.", {"list": turns_list, "delete": turns_delete}),
    })
