"""Every bench script still imports: a module it uses that moved or was renamed breaks it here,
not on the day someone runs it (bench/second_query.py imported a name that had moved)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.mark.parametrize("script", sorted(p.stem for p in BENCH.glob("*.py")))
def test_the_script_imports(script: str) -> None:
    done = subprocess.run([sys.executable, "-c", f"import {script}"], cwd=BENCH, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
