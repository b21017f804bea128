"""The group-chat commands: people, the diary, the graph and memory blocks, over ``SyncMemory``.

    pmemo people list --group study
    pmemo people resolve 霓霓 --group study
    pmemo agenda --at 2024-12-22T20:00:00+08:00        # every chat's plans near then
    pmemo diary --group study --date 2024-12-20 --write
    pmemo graph 霓霓 --group study --hops 2
    pmemo triples --group study --subject ni --history
    pmemo blocks --group study

Like the everyday commands (``core_cmds``) they take ``--data``, ``--embedder``, ``--tenant``
and ``--agent``, run on the store or beside the server that holds it, and end a pmemo error
with one line and the exit code of ``core_cmds.EXIT_CODES``. Flags are checked here (a day,
a time, the hops) so the message names the flag, on the store and beside a server alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Annotated, Any

import typer

from .. import errors
from ..blocks.model import Block
from ..diary.days import parse_day
from ..models import AgendaItem, Diary, Entity, Member, Triple
from ..people.resolve import Match
from . import target
from .core_cmds import (
    AtOpt,
    Chat,
    JsonOpt,
    _at,
    _catch_up,
    _console,
    _list_chat,
    _listing,
    _minute,
    _print_json,
    _row,
    _short,
    _table,
    _tenant,
    _where,
    add_commands,
    chat_command,
)

HOPS = (1, 2)


def _day(flag: str, value: str | None) -> date | None:
    return None if value is None else parse_day(flag, value)


def _one_or_every(chat: Chat) -> dict[str, Any]:
    """Scope arguments for at most one of --user / --group (neither: every chat of the tenant)."""
    if chat.user is None and chat.group is None:
        return {"tenant_id": _tenant(chat.tenant), "agent_id": chat.agent}
    if chat.user is not None and chat.group is not None:
        raise errors.InvalidInput("give at most one of --user U or --group G (neither: every chat)")
    return chat.scope()


def _whose(mem: Any, scope: dict[str, Any]) -> str:
    """``tenant demo, group study``, or ``tenant demo`` for every chat of it."""
    if "user_id" in scope or "group_id" in scope:
        return _where(mem, scope)
    return f"tenant {mem.tenant if target.is_remote(mem) else scope['tenant_id']}"


# ---- people ------------------------------------------------------------------------------
def _member_json(m: Member) -> dict[str, Any]:
    p = m.person
    return {"person_id": p.id, "name": p.name, "names": list(p.names),
            "aliases": [{"alias": a.alias, "source": a.source, "learned_in": a.learned_in}
                        for a in p.aliases],
            "messages": m.messages, "first_seen": m.first_seen.isoformat(),
            "last_seen": m.last_seen.isoformat(), "owner": m.owner}


def _aliases(m: Member) -> str:
    """Earlier display names and the names they go by, ones said in chat before the generated
    ones (老周, 小霓): ``周小霓 · 霓霓 (learned); generated: 周哥, 小周``."""
    names = set(m.person.names)
    earlier = [n for n in m.person.names if n != m.person.name]
    said = [f"{a.alias} ({a.source})" for a in m.person.aliases
            if a.source != "generated" and a.alias not in names]
    made = [a.alias for a in m.person.aliases if a.source == "generated" and a.alias not in names]
    parts = [" · ".join(earlier + said)] if earlier or said else []
    if made:
        parts.append("generated: " + ", ".join(made))
    return "; ".join(parts)


@chat_command
def people_list(chat: Chat, as_json: JsonOpt = False) -> None:
    """List the people of a group or private chat: id, name, other names, messages; latest speaker first."""
    _list_chat(chat, as_json, lambda mem, scope: mem.people(**scope), json_of=_member_json,
               empty="no people in {where} yet: add turns with --actor-id",
               columns=("person", "name", "other names", "messages", "first", "last"), title="{where}",
               cells=lambda m: (m.person.id, m.person.name, _aliases(m), m.messages, _minute(m.first_seen),
                                _minute(m.last_seen)))


@chat_command
def people_resolve(
    text: Annotated[str, typer.Argument(help="A name or nickname, or a message that names people.")],
    chat: Chat,
    as_json: JsonOpt = False,
) -> None:
    """Which person or people a name resolves to (members of the chat first)."""
    with chat.read() as (mem, scope):
        matches: list[Match] = mem.resolve_people(text, **scope)
        names = {m.person.id: m.person.name for m in mem.people(**scope)} if matches else {}
        where = _where(mem, scope)
    _listing(matches, as_json, json_of=lambda m: {
        "alias": m.alias, "start": m.start, "end": m.end, "person_ids": list(m.person_ids),
        "names": {i: names.get(i) for i in m.person_ids}, "source": m.source, "ambiguous": m.ambiguous},
        empty=f"nobody known in {where} is named in {_short(text, 60)!r}",
        columns=("name", "person", "source", "ambiguous"), title=where,
        cells=lambda m: (m.alias, ", ".join(f"{i} ({names[i]})" if names.get(i) else i for i in m.person_ids),
                         m.source, "yes" if m.ambiguous else ""))


# ---- agenda ------------------------------------------------------------------------------
def _agenda_json(i: AgendaItem) -> dict[str, Any]:
    return {"id": i.id, "day": i.day.isoformat(), "what": i.what, "person_id": i.person_id,
            "user_id": i.scope.user_id, "group_id": i.scope.group_id, "agent_id": i.scope.agent_id,
            "status": i.status, "outcome": i.outcome, "text": i.text, "turn_id": i.turn_id}


@chat_command(user=Annotated[str | None, typer.Option("--user", help="Only this private chat's plans.")],
              group=Annotated[str | None, typer.Option("--group", help="Only this group's plans.")])
def agenda(
    chat: Chat,
    person: Annotated[str | None, typer.Option("--person", help="Only this person's plans (a person id).")] = None,
    at: Annotated[str | None, typer.Option(
        "--at", help="Only the open plans near this time, ISO 8601 (default: every plan, any status).")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Dated plans people mentioned, by day: a chat's, or without --user/--group every chat's.

    Each comes with the chat it was said in, to bring it up there, unasked, the evening before."""
    scope = _one_or_every(chat)
    when = _at(at)
    with chat.memory() as mem:
        _catch_up(mem)
        items: list[AgendaItem] = mem.agenda(person, at=when, **scope)
        where = _whose(mem, scope)
    _listing(items, as_json, json_of=_agenda_json, empty=f"no plans in {where}" + (f" near {when}" if when else ""),
             columns=("day", "what", "person", "chat", "status", "said"), title=f"plans in {where}",
             cells=_agenda_cells)


def _agenda_cells(i: AgendaItem) -> tuple[Any, ...]:
    chat = f"group {i.scope.group_id}" if i.scope.group_id else f"user {i.scope.user_id}"
    return (i.day.isoformat(), i.what, i.person_id or "", chat,
            i.status if i.outcome is None else f"{i.status}: {_short(i.outcome, 40)}", _short(i.text, 60))


# ---- diary -------------------------------------------------------------------------------
def _diary_json(d: Diary) -> dict[str, Any]:
    return {"id": d.id, "day": d.day.isoformat(), "method": d.method, "text": d.text,
            "source_ids": list(d.source_ids), "user_id": d.scope.user_id, "group_id": d.scope.group_id,
            "agent_id": d.scope.agent_id, "created_at": d.created_at.isoformat(),
            "updated_at": d.updated_at.isoformat()}


def _print_diaries(entries: Sequence[Diary]) -> None:
    for n, d in enumerate(entries):
        if n:
            typer.echo("")
        typer.echo(f"## {d.day.isoformat()} ({d.method}, from {len(d.source_ids)} turns)")
        typer.echo(d.text)


def _diary_days(day: str | None, start: str | None, end: str | None,
                write: bool) -> tuple[date | None, date | None, date | None]:
    """--date, --start and --end as days, checked together before anything is opened."""
    one, first, last = _day("--date", day), _day("--start", start), _day("--end", end)
    ranged = first is not None or last is not None
    if one is not None and ranged:
        raise errors.InvalidInput("give --date D for one day, or --start D / --end D for a range, not both")
    if write and ranged:
        raise errors.InvalidInput("--write writes one day's entry: give --date D (default: today), "
                                  "not --start / --end")
    if first is not None and last is not None and first > last:
        raise errors.InvalidInput(f"--start {first} is after --end {last}: swap them")
    return one, first, last


def _entry(mem: Any, day: date, scope: dict[str, Any]) -> Diary:
    try:
        found: Diary = mem.diary(day, **scope)
    except errors.NotFound as exc:  # the library names its method; say the flag that does it
        raise errors.NotFound(f"{exc} (here: pmemo diary --write --date {day})") from exc
    return found


@chat_command
def diary(
    chat: Chat,
    day: Annotated[
        str | None, typer.Option("--date", help="One day, YYYY-MM-DD (in the diary's time zone).")
    ] = None,
    start: Annotated[str | None, typer.Option("--start", help="The first day of a range.")] = None,
    end: Annotated[str | None, typer.Option("--end", help="The last day of a range (included).")] = None,
    write: Annotated[
        bool, typer.Option("--write", help="Write (or rewrite) the day's entry now (default day: today).")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Print the diary of a group or private chat: one day (--date), a range, or every entry."""
    one, first, last = _diary_days(day, start, end, write)
    with chat.read() as (mem, scope):
        if write:
            entries = [mem.write_diary(one, **scope)]
        elif one is not None:
            entries = [_entry(mem, one, scope)]
        else:
            entries = mem.diaries(first, last, **scope)
        where = _where(mem, scope)
    if as_json:
        _print_json([_diary_json(d) for d in entries])
        return
    if not entries:
        span = f" from {first or 'the first'} to {last or 'the latest'}" if first or last else ""
        typer.echo(f"no diary entries in {where}{span}: a day's entry is written once the day is "
                   "over, or now with --write")
        return
    if write:
        typer.echo(f"wrote the diary of {entries[0].day.isoformat()} in {where}")
    _print_diaries(entries)


# ---- graph -------------------------------------------------------------------------------
def _named(key: str, name: str) -> str:
    """``周霓 (ni)``: an entity by its name, with its key when that differs."""
    return key if not name or name == key else f"{name} ({key})"


def _triple_json(t: Triple) -> dict[str, Any]:
    return {"id": t.id, "subject": t.subject, "subject_name": t.subject_name, "subject_kind": t.subject_kind,
            "predicate": t.predicate, "qualifier": t.qualifier, "object": t.object,
            "object_name": t.object_name, "object_kind": t.object_kind,
            "valid_from": t.valid_from.isoformat(),
            "valid_to": None if t.valid_to is None else t.valid_to.isoformat(), "current": t.current,
            "confidence": t.confidence, "sources": list(t.sources), "learned_in": t.learned_in,
            "fact_id": t.fact_id}


def _entity_json(e: Entity) -> dict[str, Any]:
    return {"id": e.id, "kind": e.kind, "name": e.name, "key": e.key, "person_id": e.person_id,
            "aliases": list(e.aliases)}


TRIPLE_COLUMNS = ("subject", "predicate", "object", "valid_from", "valid_to", "sources")


def _triple_cells(t: Triple) -> tuple[Any, ...]:
    predicate = t.predicate if t.qualifier is None else f"{t.predicate} ({t.qualifier})"
    return (_named(t.subject, t.subject_name), predicate, _named(t.object, t.object_name),
            _minute(t.valid_from), _minute(t.valid_to), ", ".join(str(s) for s in t.sources))


@chat_command
def graph(
    entity: Annotated[str, typer.Argument(help="A person id, or a name of a person, place, organisation or thing.")],
    chat: Chat,
    hops: Annotated[int, typer.Option("--hops", help="1: the triples naming it; 2: also its neighbours'.")] = 1,
    at: AtOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Print an entity's neighbourhood in a group or private chat: the triples within --hops of it."""
    if hops not in HOPS:
        raise errors.InvalidInput(f"--hops must be 1 or 2, got {hops}")
    when = _at(at)
    with chat.read() as (mem, scope):
        found = mem.graph(entity, hops=hops, at=when, **scope)
        where = _where(mem, scope)
    if as_json:
        _print_json({"entity": _entity_json(found.entity), "nodes": [_entity_json(n) for n in found.nodes],
                     "triples": [_triple_json(t) for t in found.triples]})
        return
    node = f"{_named(found.entity.key, found.entity.name)}, a {found.entity.kind}"
    if not found.triples:
        typer.echo(f"nothing is known of {node} in {where}")
        return
    table = _table(*TRIPLE_COLUMNS, title=f"{node}: {len(found.triples)} triple(s) within {hops} hop(s) in {where}")
    for t in found.triples:
        _row(table, *_triple_cells(t))
    _console().print(table)


@chat_command
def triples(
    chat: Chat,
    subject: Annotated[str | None, typer.Option("--subject", help="Only about this person id or name.")] = None,
    predicate: Annotated[
        str | None, typer.Option("--predicate", help="Only this predicate: works_at, lives_in, friend_of …")
    ] = None,
    at: AtOpt = None,
    history: Annotated[bool, typer.Option("--history", help="Also the ones a newer statement replaced.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """List the triples a group or private chat learned, oldest first."""
    when = _at(at)
    _list_chat(chat, as_json, lambda mem, scope: mem.triples(subject, predicate=predicate, at=when, history=history,
                                                              **scope),
               json_of=_triple_json, empty="no triples in {where}", columns=TRIPLE_COLUMNS, cells=_triple_cells,
               title="triples in {where}")


# ---- blocks ------------------------------------------------------------------------------
def _block_json(b: Block) -> dict[str, Any]:
    return {"label": b.label, "description": b.description, "file": b.path, "tenant": b.tenant,
            "agent": b.agent, "group": b.group, "user": b.user, "read_only": b.read_only,
            "editable": b.editable, "chars": b.chars, "limit": b.limit, "order": b.order,
            "version": b.version, "problem": b.problem, "value": b.value}


def _for(b: Block) -> str:
    """Whose chat a block is for: ``group study``, ``user ann`` or ``every chat``."""
    return f"group {b.group}" if b.group else f"user {b.user}" if b.user else "every chat"


@chat_command(user=Annotated[str | None, typer.Option("--user", help="The blocks this user's chat shows.")],
              group=Annotated[str | None, typer.Option("--group", help="The blocks this group's chat shows.")])
def blocks(chat: Chat, as_json: JsonOpt = False) -> None:
    """List memory blocks (PMEMO_BLOCKS_DIR): a chat's, or without --user/--group every one."""
    scope = _one_or_every(chat)
    with chat.memory() as mem:
        found: list[Block] = mem.blocks(**scope)
        where = _whose(mem, scope)
    _listing(found, as_json, json_of=_block_json,
             empty=f"no memory blocks for {where}: put markdown files in the folder PMEMO_BLOCKS_DIR names",
             columns=("label", "file", "for", "read_only", "chars/limit", "problem"), title=f"blocks of {where}",
             cells=lambda b: (b.label, b.path, _for(b), "yes" if b.read_only else "no", f"{b.chars}/{b.limit}",
                              b.problem or ""))


def register(app: typer.Typer) -> None:
    """Add people (list, resolve), agenda, diary, graph, triples and blocks to ``app``."""
    add_commands(app, {"agenda": agenda, "diary": diary, "graph": graph, "triples": triples, "blocks": blocks},
                 {"people": ("People of a group or private chat: list and resolve names.",
                             {"list": people_list, "resolve": people_resolve})})
