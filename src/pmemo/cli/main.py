"""The ``pmemo`` command: a thin shell over the library.

Each command group lives in its own module and registers itself on ``app``.
"""

from __future__ import annotations

import typer

app = typer.Typer(no_args_is_help=True, add_completion=False, help="pmemo: memory for LLM agents.")


def _register() -> None:
    from . import (
        core_cmds,
        edit_cmds,
        eval_cmd,
        forget_cmd,
        import_cmd,
        jobs_cmd,
        migrate_cmd,
        people_cmds,
        serve_cmd,
        worker_cmd,
    )

    for module in (core_cmds, edit_cmds, import_cmd, people_cmds, eval_cmd, serve_cmd, forget_cmd,
                   migrate_cmd, worker_cmd, jobs_cmd):
        module.register(app)


def main() -> None:
    _register()
    app()
