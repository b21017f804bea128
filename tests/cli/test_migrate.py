"""``pmemo migrate`` and the versioned Postgres migrations under it (the store factory is tested in
tests/unit/test_open_store.py)."""

from __future__ import annotations

import threading
from pathlib import Path

import psycopg
import pytest
import typer
from typer.testing import CliRunner

from pmemo.cli import migrate_cmd
from pmemo.cli.main import _register
from pmemo.cli.main import app as main_app
from pmemo.errors import StoreError
from pmemo.stores.postgres.migrate import migrate, migrations
from pmemo.stores.postgres.store import PostgresStore


@pytest.fixture
def app() -> typer.Typer:
    """The ``pmemo`` command, as installed."""
    if not main_app.registered_commands:
        _register()
    return main_app


def test_migrate_applies_each_file_once_and_says_so(app: typer.Typer, postgres_url: str):
    first = CliRunner().invoke(app, ["migrate", "--store", postgres_url])
    assert first.exit_code == 0, first.output
    names = [m.name for m in migrations()]
    assert names[0] == "0001_core.sql"
    assert [line.removeprefix("applied ") for line in first.stdout.splitlines()[:-1]] == names
    assert first.stdout.splitlines()[-1].endswith(f"{len(names)} migration(s) applied")
    again = CliRunner().invoke(app, ["migrate"], env={"PMEMO_STORE": postgres_url})
    assert again.exit_code == 0 and again.stdout.strip().endswith("up to date, nothing to apply"), again.output


def test_two_processes_migrating_at_once_apply_each_file_once(postgres_url: str):
    start, applied = threading.Barrier(3), []

    def run() -> None:
        start.wait()
        applied.extend(migrate(postgres_url))

    threads = [threading.Thread(target=run) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(applied) == [m.name for m in migrations()]
    with psycopg.connect(postgres_url) as conn:
        assert conn.execute("SELECT COUNT(*) FROM schema_migrations").fetchone() == (len(applied),)


def test_a_database_newer_than_this_pmemo_is_refused(postgres_url: str):
    migrate(postgres_url)
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute("INSERT INTO schema_migrations VALUES(9999, '9999_future.sql', 0)")
    with pytest.raises(StoreError, match="newer than this pmemo"):
        PostgresStore.open(postgres_url)


def test_migrate_names_a_server_it_cannot_reach_without_its_password(app: typer.Typer):
    url = "postgresql://pmemo:secret@127.0.0.1:1/pmemo?connect_timeout=2"
    result = CliRunner().invoke(app, ["migrate", "--store", url])
    assert result.exit_code == 4, result.output
    assert "127.0.0.1:1/pmemo" in result.stderr and "secret" not in result.output
    assert migrate_cmd.redact(url) == "postgresql://pmemo:***@127.0.0.1:1/pmemo?connect_timeout=2"


def test_migrate_on_sqlite_opens_the_directory(app: typer.Typer, tmp_path: Path):
    result = CliRunner().invoke(app, ["migrate", "--data", str(tmp_path / "d")], env={"PMEMO_STORE": ""})
    assert result.exit_code == 0 and "SQLite schema up to date" in result.stdout, result.output
    assert (tmp_path / "d" / "pmemo.db").exists()
