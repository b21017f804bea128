"""``pmemo migrate``: bring a store's schema up to this pmemo's, and say what changed.

    pmemo migrate --store postgresql://pmemo@db/pmemo

A PostgreSQL store gets the migration files it lacks, each once, under an advisory lock (two
processes migrating at once apply them once). A SQLite store is migrated whenever it is opened;
here it is opened, so a directory can be upgraded before a server starts on it.
"""

from __future__ import annotations

import re
from typing import Annotated

import typer

from ..config import Settings
from .core_cmds import DataOpt, _errors_to_exit

StoreOpt = Annotated[
    str | None,
    typer.Option("--store", help="The store: a postgresql:// URL or sqlite:///path (default: $PMEMO_STORE,"
                                 " then SQLite in --data)."),
]


def redact(url: str) -> str:
    """A URL fit to print: its password hidden. ``redact("postgresql://u:pw@h/db")`` → ``postgresql://u:***@h/db``."""
    return re.sub(r"^([a-z]+://[^:/@]*):[^@/]*@", r"\1:***@", url)


@_errors_to_exit
def migrate(store: StoreOpt = None, data: DataOpt = None) -> None:
    """Apply the schema migrations the store lacks and print each one applied."""
    from ..stores import is_postgres, open_store, target_of

    settings = Settings.from_env(data=data, store=store)
    target = target_of(settings)
    if not is_postgres(target):
        open_store(target, settings).close()
        typer.echo(f"{target}: SQLite schema up to date (it is migrated whenever it is opened)")
        return
    from ..stores.postgres.migrate import migrate as apply

    applied = apply(target)
    for name in applied:
        typer.echo(f"applied {name}")
    typer.echo(f"{redact(target)}: {len(applied)} migration(s) applied" if applied
               else f"{redact(target)}: up to date, nothing to apply")


def register(app: typer.Typer) -> None:
    app.command("migrate")(migrate)
