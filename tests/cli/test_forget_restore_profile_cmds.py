"""``pmemo forget`` / ``restore`` / ``profile`` through the CLI."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from pmemo import SyncMemory
from pmemo.cli import forget_cmd


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith("PMEMO_"):
            monkeypatch.delenv(name)


def run(data: Path, *args: str) -> str:
    app = typer.Typer()
    forget_cmd.register(app)
    result = CliRunner().invoke(app, [*args, "--data", str(data), "--embedder", "hashing"])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_profile_forget_restore_and_sweep(tmp_path: Path) -> None:
    data = tmp_path / "d"
    with SyncMemory.open(data, embedder="hashing") as m:
        m.add(
            user_id="mei",
            session_id="s1",
            content="我喜欢喝咖啡。",
            timestamp="2023-01-01T10:00:00",
        )
        m.add(user_id="mei", session_id="s2", content="hello", timestamp="2024-06-01T10:00:00")
        m.drain()
    assert "profile of mei" in run(data, "profile", "--user", "mei")
    facts = json.loads(run(data, "profile", "--user", "mei", "--json"))
    assert facts[0]["value"] == "likes"
    plan = json.loads(run(data, "forget", "--dry-run", "--json"))
    assert plan["dry_run"] and plan["batch"] is None
    assert "would" in run(data, "forget", "--dry-run")
    preview = run(data, "forget", "--query", "咖啡", "--user", "mei", "--dry-run")
    assert "咖啡" in preview
    done = json.loads(run(data, "forget", "--query", "咖啡", "--user", "mei", "--json"))
    assert len(done["turns"]) == 1
    assert json.loads(run(data, "profile", "--user", "mei", "--json")) == []
    assert "restored" in run(data, "restore", str(done["batch"]))
    assert [f["key"] for f in json.loads(run(data, "profile", "--user", "mei", "--json"))] == [
        "opinion:咖啡"
    ]
