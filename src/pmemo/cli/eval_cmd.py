"""placeholder: filled by its owner."""

import typer


def register(app: typer.Typer) -> None:
    return None
