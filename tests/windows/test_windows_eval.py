"""``pmemo eval --window-tokens``: windowed pmemo beside one embedding per turn, in one run,
with the embeddings each made (fixtures and the hashing embedder)."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from typer.testing import CliRunner

from pmemo.cli import eval_cmd
from pmemo.eval.datasets import load
from pmemo.eval.groupchat_gen import generate
from pmemo.eval.harness import evaluate

FIX = Path(__file__).resolve().parents[1] / "fixtures"


def test_locomo_with_windows_reports_both_runs_and_their_embeddings(tmp_path: Path) -> None:
    report = evaluate("locomo", FIX / "eval_locomo.json", systems=["pmemo", "bm25"], window_tokens=[48],
                      embedder="hashing", data=tmp_path / "data", out=tmp_path / "out", show=False)
    assert list(report["systems"]) == ["pmemo", "pmemo-w48", "bm25"]
    units = load("locomo", FIX / "eval_locomo.json")[0].units
    per_turn = report["systems"]["pmemo"]["ingest"]
    windowed = report["systems"]["pmemo-w48"]["ingest"]
    assert per_turn["message_embeddings_per_1k"] == 1000 * len({u.text for u in units}) / len(units)
    assert 0 < windowed["message_embeddings_per_1k"] < per_turn["message_embeddings_per_1k"] / 2
    assert windowed["embeddings_per_1k"] < per_turn["embeddings_per_1k"]
    assert report["systems"]["bm25"]["ingest"]["embeddings_per_1k"] is None
    assert report["systems"]["pmemo-w48"]["overall"]["R@5"] is not None
    assert "turn embeds/1k turns" in (tmp_path / "out" / "locomo.md").read_text("utf-8")


def cli() -> typer.Typer:
    app = typer.Typer()
    eval_cmd.register(app)
    app.command("noop")(lambda: None)  # a second command keeps typer from collapsing the group
    return app


def test_the_groupchat_cli_measures_windows_against_per_message(tmp_path: Path) -> None:
    runner, app = CliRunner(), cli()
    bad = runner.invoke(app, ["eval", "groupchat", "--window-tokens", "big"])
    assert bad.exit_code != 0 and "--window-tokens" in bad.output
    done = runner.invoke(app, ["eval", "groupchat", "--messages", "300", "--embedder", "hashing", "--ingest-turns", "0",
                               "--window-tokens", "120", "--data", str(tmp_path / "d"), "--out", str(tmp_path / "o"),
                               "--quiet"])
    assert done.exit_code == 0, done.output
    report = json.loads((tmp_path / "o" / "groupchat.json").read_text("utf-8"))
    per_message, windowed = report["windows"]
    assert (per_message["window_tokens"], windowed["window_tokens"]) == (0, 120)
    assert per_message["message_embeddings"] == len({m.content for m in generate(0, messages=300).messages})
    assert windowed["message_embeddings"] < per_message["message_embeddings"] / 2
    assert all(0.0 <= r[k] <= 1.0 for r in report["windows"] for k in ("R@5", "R@10", "ctx@2k"))
    assert "L2 windows" in (tmp_path / "o" / "groupchat.md").read_text("utf-8")
