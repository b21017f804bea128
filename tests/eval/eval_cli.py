"""The ``pmemo eval`` command alone, as a typer app the eval tests invoke with ``CliRunner``."""

from __future__ import annotations

import typer

from pmemo.cli import eval_cmd


def app() -> typer.Typer:
    app = typer.Typer()
    eval_cmd.register(app)

    @app.command("noop")
    def noop() -> None:  # a second command keeps typer from collapsing the group
        pass

    return app
