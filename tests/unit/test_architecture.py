"""Layers point one way (STYLE.md 10): the import-linter contracts in pyproject.toml hold.

A store imports no tier, pipeline, retrieval, forgetting, server or the facade; forgetting,
pipelines, retrieval and tiers stack in that order over the pure modules (rules, prompts,
embedders, decay), with no cycle among them. grimp counts imports inside functions too, so a
lazy import does not hide a cycle.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_import_contracts_are_kept() -> None:
    lint_imports = Path(sys.executable).parent / "lint-imports"
    done = subprocess.run([str(lint_imports), "--no-cache", "--no-logo"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "KEPT" in done.stdout and "0 broken" in done.stdout, done.stdout  # the contracts were read
