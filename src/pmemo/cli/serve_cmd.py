"""``pmemo serve``, ``pmemo keys …`` and ``pmemo mcp``: thin shells over the server adapters."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shlex
import shutil
import signal
import sys
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from .. import errors
from . import server_file, target
from .core_cmds import _errors_to_exit, add_commands

if TYPE_CHECKING:
    from ..api import MemoryAPI

DEMO_TENANT = "demo"
DEMO_USER = "demo"
DEMO_LABEL = "demo"
OLD_DEMO_KEY_FILE = "demo.key"  # where an older pmemo kept the demo key in plain text
SAMPLE = Path(__file__).resolve().parent.parent / "data" / "sample_conversation.jsonl"

DataOpt = Annotated[
    str | None,
    typer.Option("--data", help="Data directory (default: $PMEMO_DATA, then ./pmemo_data)."),
]


def _logging(settings: Any, default: str = "text") -> None:
    # Entry points only: log lines (PMEMO_LOG_LEVEL, warnings unless set) go to stderr, which
    # is also what keeps stdout clean for MCP over stdio; PMEMO_LOG_FORMAT, else ``default``.
    from ..logs import configure

    configure(settings.log_format or default, settings.log_level)


def _settings(data: str | None) -> Any:
    from ..config import Settings

    return Settings.from_env(data=data)


def _key_store(settings: Any) -> Any:
    from ..server.keys import open_key_store

    # Beside the memory: <data>/keys.sqlite3, or the database every replica shares. The admin
    # key may come from the environment; it is compared by hash, never stored.
    return open_key_store(settings, admin_key=os.environ.get("PMEMO_ADMIN_KEY") or None)


def register(app: typer.Typer) -> None:
    add_commands(app, {"serve": serve, "mcp": mcp},
                 {"keys": ("Tenants and API keys.", {"create": keys_create, "list": keys_list, "revoke": keys_revoke})})


# pmemo serve ---------------------------------------------------------------
@_errors_to_exit
def serve(
    host: Annotated[str, typer.Option(help="Address to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8765,
    data: DataOpt = None,
    cors: Annotated[
        list[str] | None, typer.Option(help="An origin to allow (CORS is off by default).")
    ] = None,
    sweep_every: Annotated[
        float,
        typer.Option(
            "--sweep-every",
            min=0,
            help="Run the forgetting sweeper every SECONDS (0 disables).",
            metavar="SECONDS",
        ),
    ] = 3600,
    show_demo_key: Annotated[
        bool,
        typer.Option(
            "--show-demo-key",
            help="Make a new demo key (revoking the old one) and print the inspector link with it.",
        ),
    ] = False,
) -> None:
    """Run the REST API, MCP (/mcp) and the web inspector (/). Ctrl-C stops it."""
    settings = _settings(data)
    _logging(settings, default="json")  # JSON lines with request ids, for a log collector
    try:
        asyncio.run(_serve(settings, host, port, cors or [], sweep_every, show_demo_key))
    except KeyboardInterrupt:
        pass


async def _serve(
    settings: Any,
    host: str,
    port: int,
    cors: list[str],
    sweep_every: float = 3600,
    show_demo_key: bool = False,
) -> None:
    import uvicorn

    from .. import Memory
    from ..server import create_app

    memory = await Memory.open(settings=settings)
    keys = _key_store(settings)
    announce: asyncio.Task[None] | None = None
    try:
        demo_key = await ensure_demo(memory, keys, Path(settings.data), fresh=show_demo_key)
        app = create_app(memory, keys, host=host, cors_origins=cors, sweep_every=sweep_every)
        # log_config=None: uvicorn's own lines go through pmemo's handler (JSON, request ids)
        server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning", log_config=None))
        base = f"http://{'[' + host + ']' if ':' in host else host}:{port}"
        typer.echo(f"pmemo data: {Path(settings.data).resolve()}")
        typer.echo(f"Demo:      {await demo_summary(memory)}")
        typer.echo(f"Try:       {_program()} search 预算 --tenant {DEMO_TENANT} --user {DEMO_USER}"
                   f"{_data_flag(settings.data)}   (beside this server, the CLI talks to it)")
        if demo_key:
            typer.echo(f"Inspector: {base}/#key={demo_key}")
            typer.echo("           (the demo key is shown only now; only its hash is kept)")
        else:
            typer.echo(f"Inspector: {base}/   (a new demo link: pmemo serve --show-demo-key)")
        typer.echo(f"API docs:  {base}/docs")
        typer.echo(f"MCP:       {base}/mcp   (Ctrl-C to stop)")
        # uvicorn re-raises the signal that stopped it once it has shut down; for SIGTERM
        # (systemd, docker) that would kill the process before the memory is closed.
        signal.signal(signal.SIGTERM, _exit_on_term)
        announce = asyncio.create_task(_announce(server, settings.data, host))
        await server.serve()
    finally:
        if announce is not None:
            announce.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await announce
        server_file.remove(settings.data)
        typer.echo("Stopping (first finishing any background batch in progress)…", err=True)
        await memory.close()
        keys.close()


async def _announce(server: Any, data_dir: str, host: str) -> None:
    """Once the server accepts connections, write ``server.json`` so that CLI commands on
    this data directory talk to it instead of opening the store it holds."""
    while not server.started:
        await asyncio.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]  # the real one, also for --port 0
    server_file.write(data_dir, server_file.client_url(host, port))


async def demo_summary(memory: MemoryAPI) -> str:
    """What the demo holds: ``tenant demo, user demo: 114 turns in 5 sessions``."""
    sessions = await memory.sessions(tenant_id=DEMO_TENANT, user_id=DEMO_USER)
    turns = sum(int(s["turns"]) for s in sessions)
    held = f"{turns} turns in {len(sessions)} sessions" if turns else "no turns (deleted)"
    return f"tenant {DEMO_TENANT}, user {DEMO_USER}: {held}, from {SAMPLE.name}"


def _data_flag(data: str) -> str:
    """`` --data PATH`` when the data is not where a command looks by default."""
    from ..config import Settings

    if Path(data).resolve() == Path(Settings.from_env().data).resolve():
        return ""
    return f" --data {shlex.quote(data)}"


def _program() -> str:
    """How this pmemo was started, to print commands that work as shown: ``pmemo`` when that
    is on PATH, else the path it was run by (``.venv/bin/pmemo`` under ``make run``)."""
    argv0 = sys.argv[0] if sys.argv and sys.argv[0] else "pmemo"
    on_path = shutil.which("pmemo")
    if on_path and Path(on_path).resolve() == Path(argv0).resolve():
        return "pmemo"
    try:
        return str(Path(argv0).resolve().relative_to(Path.cwd()))
    except ValueError:
        return argv0


def _exit_on_term(signum: int, frame: Any) -> None:
    raise SystemExit(0)


async def ensure_demo(memory: MemoryAPI, keys: Any, data_dir: Path, *, fresh: bool = False) -> str | None:
    """On first start: load the sample conversation for user "demo" and make a demo key.

    Returns the key only when it is made, so that it is printed once: like every key, only
    its hash is kept. Later starts return None, as do starts after the demo key was revoked
    (the revocation stands). ``fresh`` makes a new demo key, revoking the demo keys before it.

    >>> await ensure_demo(memory, keys, Path("pmemo_data"))  # doctest: +SKIP
    'pm_…'
    """
    (data_dir / OLD_DEMO_KEY_FILE).unlink(missing_ok=True)  # an older pmemo's plain-text copy
    made = [k for k in keys.keys(DEMO_TENANT) if k["label"] == DEMO_LABEL]
    if made and not fresh:
        return None
    for old in made:
        keys.revoke(old["id"])
    if not await memory.sessions(tenant_id=DEMO_TENANT, user_id=DEMO_USER):
        await memory.add_many(sample_turns())
    return str(keys.create_key(DEMO_TENANT, label=DEMO_LABEL))


def sample_turns(path: Path = SAMPLE) -> list[dict[str, Any]]:
    """The shipped sample conversation as ``add`` arguments for the demo tenant and user."""
    items = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            row.pop("group_id", None)
            row.update(tenant_id=DEMO_TENANT, user_id=DEMO_USER)
            if isinstance(row.get("timestamp"), str):
                row["timestamp"] = datetime.fromisoformat(row["timestamp"])
            items.append(row)
    return items


# pmemo keys ----------------------------------------------------------------
@_errors_to_exit
def keys_create(
    tenant: Annotated[str | None, typer.Option(help="The tenant the key is for.")] = None,
    admin: Annotated[
        bool, typer.Option("--admin", help="Make an admin key (manages tenants).")
    ] = False,
    label: Annotated[str, typer.Option(help="A note to remember the key by.")] = "",
    data: DataOpt = None,
) -> None:
    """Make an API key. It is printed once, on the last line; only its hash is stored."""
    if admin == (tenant is not None):
        typer.echo("give either --tenant T or --admin", err=True)
        raise typer.Exit(2)
    store = _key_store(_settings(data))
    try:
        made = store.issue_key(tenant, admin=admin, label=label)
    finally:
        store.close()
    whose = "admin key" if admin else f"key for tenant {tenant}"
    typer.echo(f"{whose}, id {made.id} (the key is shown once):")
    typer.echo(made.key)


@_errors_to_exit
def keys_list(
    tenant: Annotated[str | None, typer.Option(help="Only this tenant's keys.")] = None,
    data: DataOpt = None,
) -> None:
    """List API keys, revoked ones too: id, tenant, admin, label, created, last used, revoked
    (times in UTC). The keys themselves are never stored, so never shown."""
    store = _key_store(_settings(data))
    try:
        rows = store.keys(tenant)
    finally:
        store.close()
    if not rows:
        typer.echo("no API keys yet: pmemo keys create --tenant T")
        return
    table = [("ID", "TENANT", "ADMIN", "LABEL", "CREATED", "LAST USED", "REVOKED")]
    for k in rows:
        table.append((
            k["id"], k["tenant"] or "-", "yes" if k["admin"] else "no", k["label"] or "-",
            _utc(k["created_at"]), _utc(k["last_used_at"]), _utc(k["revoked_at"]),
        ))
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    for row in table:
        typer.echo("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())


def _utc(when: str | None) -> str:
    """``2026-11-26T05:59:44.03+00:00`` → ``2026-11-26 05:59:44``; None → ``-``."""
    return when[:19].replace("T", " ") if when else "-"


@_errors_to_exit
def keys_revoke(
    key_id: Annotated[str, typer.Argument(help="The key's id, as pmemo keys list shows it.")],
    data: DataOpt = None,
) -> None:
    """Revoke one API key by its id. A running server refuses it from its next request on."""
    store = _key_store(_settings(data))
    try:
        k = store.revoke(key_id)
    finally:
        store.close()
    whose = "admin key" if k["admin"] else f"key of tenant {k['tenant']}"
    typer.echo(f"revoked {whose} {k['id']} (since {_utc(k['revoked_at'])} UTC)")


# pmemo mcp -----------------------------------------------------------------
@_errors_to_exit
def mcp(
    data: DataOpt = None,
    tenant: Annotated[
        str | None, typer.Option(help="Tenant to serve (default: the key's, else 'default').")
    ] = None,
    key: Annotated[
        str | None, typer.Option(envvar="PMEMO_API_KEY", help="Use this key's tenant.")
    ] = None,
    embedder: Annotated[str | None, typer.Option(help="Embedder name (default: settings).")] = None,
) -> None:
    """Run the MCP server over stdio (for Claude Desktop, IDEs, agent frameworks)."""
    settings = _settings(data)
    server = target.find_server(settings, {})  # PMEMO_URL is for the other commands
    if server is not None:
        raise errors.StoreLocked(
            f"{settings.data} is in use by another pmemo process, the server at {server.url}: "
            f"point your MCP client at {server.url}/mcp (streamable HTTP, header Authorization: "
            "Bearer <key>), or stop the server, or use another --data directory"
        )
    if embedder:
        settings = settings.replace(embedder=embedder)
    if key:
        store = _key_store(settings)
        try:
            info = store.verify(key)
        finally:
            store.close()
        if info.tenant is None:
            typer.echo("an admin key has no tenant; use a tenant key", err=True)
            raise typer.Exit(2)
        tenant = info.tenant
    _logging(settings)
    asyncio.run(_mcp(settings, tenant or "default"))


async def _mcp(settings: Any, tenant: str) -> None:
    from .. import Memory
    from ..mcp import build_server

    memory = await Memory.open(settings=settings)
    try:
        await build_server(memory, tenant=tenant).run_stdio_async()
    finally:
        await memory.close()
