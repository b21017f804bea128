"""``pmemo import``: a JSONL conversation file into memory, checked line by line first.

    pmemo import chat.jsonl --tenant demo --user alice --session s1

Every line is checked before anything is written, so a bad line (named by its number)
leaves memory untouched; then the turns go in chunks of ``CHUNK`` (one transaction each on
the store, one request each to a server), and the command waits for the background jobs
(embedding, clusters, summaries) with a progress bar, so what it imported can be searched.
"""

from __future__ import annotations

import inspect
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer

from .. import errors
from ..config import Settings
from ..memory import Memory
from ..models import Scope
from . import progress, target
from .core_cmds import Chat, _memory, _settings, chat_command

CHUNK = 500  # turns per add_many transaction (and per request to a server)
CHUNK_BYTES = 4 * 1024 * 1024  # and about this much JSON: half a server's body cap
# The keys a JSONL line may carry are exactly add()'s keyword arguments.
TURN_FIELDS = frozenset(p for p in inspect.signature(Memory.add).parameters
                        if p not in ("self", "idempotency_key"))


@chat_command
def import_(
    file: Annotated[Path, typer.Argument(help="JSONL: one object with add()'s keys per line.")],
    chat: Chat,
    session: Annotated[str | None, typer.Option("--session", help="Session for lines without one.")] = None,
    role: Annotated[str | None, typer.Option(help="Role for lines without one.")] = None,
    actor: Annotated[str | None, typer.Option(help="Actor for lines without one.")] = None,
) -> None:
    """Import a conversation file; fields on a line win over the flags.

    Every line is checked before anything is written, so a bad line (reported with its
    number) leaves the store untouched. Turns are written in transactions of 500.
    """
    defaults = {"user_id": chat.user, "group_id": chat.group, "session_id": session, "role": role,
                "actor": actor, "tenant_id": chat.tenant, "agent_id": chat.agent}
    defaults = {k: v for k, v in defaults.items() if v is not None}
    started = time.perf_counter()
    settings = _settings(chat.data, chat.embedder)
    total = sum(1 for _ in _read_turns(file, defaults, settings))  # check all before writing
    if not total:
        raise errors.InvalidInput(f"{file} has no turns: it is empty")
    with _memory(settings, must_exist=False, tenant=chat.tenant) as mem:
        sessions = _write_turns(mem, file, defaults, total)
        progress.wait_for_jobs(mem, "Embedding, clustering, summarising", texts=total)
        where = f" (to the server at {mem.url})" if target.is_remote(mem) else ""
    typer.echo(f"imported {total} turns in {len(sessions)} session(s) from {file}{where} "
               f"in {time.perf_counter() - started:.1f}s")


def _write_turns(mem: Any, file: Path, defaults: dict[str, Any], total: int,
                 ) -> set[tuple[str, str]]:
    """add_many in chunks (each one transaction, or one request), under a progress bar."""
    sessions: set[tuple[str, str]] = set()
    done = 0
    with progress.bar("Importing", total=total, unit="turns") as show:
        for chunk in _chunks(_read_turns(file, defaults, mem.settings), CHUNK):
            try:
                while True:
                    try:
                        turns = mem.add_many([item for _, item in chunk])
                        break
                    except errors.BacklogFull as exc:  # the background is behind: wait as told, then again
                        time.sleep(exc.retry_after)
            except errors.InvalidInput as exc:  # a check the pre-scan does not know yet
                raise errors.InvalidInput(
                    f"{file} lines {chunk[0][0]}-{chunk[-1][0]}: {exc} (those lines were not "
                    f"written; {done} earlier turns were)") from exc
            sessions.update((t.scope.key, t.session_id) for t in turns)
            done += len(turns)
            show(done)
    return sessions


def _chunks(rows: Iterator[tuple[int, dict[str, Any]]], size: int,
            max_bytes: int = CHUNK_BYTES) -> Iterator[list[tuple[int, dict[str, Any]]]]:
    """Runs of at most ``size`` turns and about ``max_bytes`` of text: a server takes one
    batch of 500 turns and 8 MiB (``PMEMO_MAX_BATCH``, ``PMEMO_MAX_TURNS_BODY_BYTES``)."""
    chunk: list[tuple[int, dict[str, Any]]] = []
    weight = 0
    for row in rows:
        size_of = len(json.dumps(row[1], ensure_ascii=False, default=str).encode("utf-8"))
        if chunk and weight + size_of > max_bytes:
            yield chunk
            chunk, weight = [], 0
        chunk.append(row)
        weight += size_of
        if len(chunk) == size:
            yield chunk
            chunk, weight = [], 0
    if chunk:
        yield chunk


def _read_turns(file: Path, defaults: dict[str, Any], settings: Settings,
                ) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, add() arguments) for each non-blank line; a bad line raises InvalidInput."""
    if not file.is_file():
        problem = "is not a file" if file.exists() else "does not exist"
        raise errors.InvalidInput(f"{file} {problem}: give the path of a .jsonl file")
    with file.open("rb") as fh:
        for number, raw in enumerate(fh, 1):
            try:
                line = raw.decode("utf-8-sig" if number == 1 else "utf-8")
                if not line.strip():
                    continue
                row = _parse_line(line)
                item = _merge(defaults, row)
                _check(item, settings)
            except UnicodeDecodeError:
                raise errors.InvalidInput(f"{file} line {number}: not UTF-8 text") from None
            except errors.InvalidInput as exc:
                raise errors.InvalidInput(f"{file} line {number}: {exc}") from None
            yield number, item


def _parse_line(line: str) -> dict[str, Any]:
    try:
        row = json.loads(line)
    except json.JSONDecodeError as exc:
        raise errors.InvalidInput(f"malformed JSON ({exc.msg} at column {exc.colno})") from None
    if not isinstance(row, dict):
        raise errors.InvalidInput(f"expected a JSON object, got {type(row).__name__}")
    return row


def _merge(defaults: dict[str, Any], row: dict[str, Any]) -> dict[str, Any]:
    item = dict(defaults)
    if "user_id" in row or "group_id" in row:  # the line names its owner: drop the flag's
        item.pop("user_id", None)
        item.pop("group_id", None)
    item.update(row)
    return item


def _check(item: dict[str, Any], settings: Settings) -> None:
    """The checks add() makes, run early so an error can name its line."""
    from .. import validate

    unknown = set(item) - TURN_FIELDS
    if unknown:
        raise errors.InvalidInput(f"unknown field(s) {', '.join(sorted(unknown))}: "
                                  f"use {', '.join(sorted(TURN_FIELDS))}")
    if item.get("user_id") is None and item.get("group_id") is None:
        raise errors.InvalidInput("no user_id or group_id: put one on the line or pass --user")
    Scope.of(**{k: item[k] for k in ("user_id", "group_id", "session_id", "tenant_id",
                                        "agent_id") if k in item})
    validate.content(item.get("content"), settings)
    validate.role(item.get("role", "user"))
    validate.actor(item.get("actor"))
    validate.timestamp(item.get("timestamp"))
    validate.metadata(item.get("metadata"))


def register(app: typer.Typer) -> None:
    """Add import to ``app``."""
    app.command("import")(import_)
