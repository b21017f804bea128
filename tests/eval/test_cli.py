"""``pmemo eval`` through typer's test runner."""

from __future__ import annotations

import shutil
from pathlib import Path

from eval_cli import app
from typer.testing import CliRunner

FIX = Path(__file__).resolve().parents[1] / "fixtures"


def test_eval_one_file(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app(),
        [
            "eval",
            "locomo",
            str(FIX / "eval_locomo.json"),
            "--embedder",
            "hashing",
            "--out",
            str(tmp_path / "out"),
            "--data",
            str(tmp_path / "data"),
            "--quiet",
        ],
    )
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "locomo.json").exists()
    assert (tmp_path / "out" / "locomo.png").exists()


def test_eval_all_runs_the_three_dev_files(tmp_path: Path) -> None:
    data = tmp_path / "dev"
    data.mkdir()
    for src, dst in [
        ("eval_locomo.json", "locomo_dev.json"),
        ("eval_longmemeval.json", "longmemeval_s_dev.json"),
        ("eval_madial.json", "madial_dev.json"),
        ("eval_madial_memories.json", "madial_memories.json"),
    ]:
        shutil.copy(FIX / src, data / dst)
    result = CliRunner().invoke(
        app(),
        [
            "eval",
            "all",
            str(data),
            "--embedder",
            "hashing",
            "--systems",
            "pmemo,bm25",
            "--out",
            str(tmp_path / "out"),
            "--data",
            str(tmp_path / "cache"),
        ],
    )
    assert result.exit_code == 0, result.output
    for kind in ("locomo", "longmemeval", "madial"):
        assert (tmp_path / "out" / f"{kind}.md").exists()
    assert "R@10" in result.output


def test_eval_errors_are_clear(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(app(), ["eval", "nope", str(tmp_path)])
    assert result.exit_code != 0 and "unknown dataset kind" in result.output
    result = runner.invoke(
        app(),
        [
            "eval",
            "locomo",
            str(tmp_path / "missing.json"),
            "--embedder",
            "hashing",
            "--data",
            str(tmp_path / "d"),
        ],
    )
    assert result.exit_code == 2 and "does not exist" in result.output
    result = runner.invoke(
        app(),
        [
            "eval",
            "locomo",
            str(FIX / "eval_locomo.json"),
            "--embedder",
            "hashing",
            "--data",
            str(tmp_path / "d"),
            "--systems",
            "magic",
        ],
    )
    assert result.exit_code == 2 and "unknown system" in result.output
