"""bench/neighbours.py --quick with the hashing embedder: a real ``pmemo serve``, both tenants, every
phase, and every figure printed and written; no time is asserted (STYLE.md, habit 9)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "neighbours.py"
PHASES = ["idle", "2k message", "5k article", "5k repeated", "300 import"]
HEADER = ["B n", "p50 ms", "p95 ms", "max ms", "p50 x", "p95 x", "max x", "t/o", "err", "hz max ms", "hz>=100",
          "hz t/o", "A post s", "A done s", "A rate", "load", "cpu bench/server s"]


def run(tmp_path: Path, *args: str) -> tuple[str, dict]:
    out = tmp_path / "neighbours.json"
    done = subprocess.run([sys.executable, str(BENCH), "--quick", "--embedder", "hashing", "--json", str(out), *args],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-5000:]
    return done.stdout, json.loads(out.read_text())


def check(stdout: str, runs: list[dict], stores: list[str]) -> None:
    assert [r["store"] for r in runs] == stores
    tables = stdout.split("\n\n")[1:]  # after the line about the box: one table per store
    assert len(tables) == len(stores), stdout
    for store, result, table in zip(stores, runs, tables, strict=True):
        lines = table.splitlines()
        assert lines[0].startswith(f"{store}: pmemo "), table
        assert all(name in lines[2] for name in HEADER), table
        assert [row["phase"] for row in result["phases"]] == PHASES
        for row, printed in zip(result["phases"], lines[3:], strict=False):
            assert printed.startswith(row["phase"] + " "), table
            assert len(printed.split()) >= len(HEADER) + 1, printed  # a figure (or "-") in every column
            assert row["context"]["n"] > 0 and row["healthz"]["n"] > 0, row
            if row["phase"] != "idle":
                assert row["a_done_s"] is not None, row  # A's work was done within the quick cap
        rest = [line for line in lines[3 + len(PHASES):] if not line.startswith("  ")]  # notes: a cap reached
        assert rest[0].startswith("target "), table
        assert rest[1].startswith("quiet chat during the import: "), table
        assert rest[2].startswith("the bench's own client: "), table
        assert result["quiet"]["n"] > 0 and result["quiet"]["found"] == result["quiet"]["n"], result["quiet"]


def test_neighbours_quick_on_sqlite(tmp_path: Path) -> None:
    stdout, out = run(tmp_path, "--store", "sqlite")
    check(stdout, out["runs"], ["sqlite"])


def test_neighbours_quick_on_postgres(postgres_server: str, tmp_path: Path) -> None:
    stdout, out = run(tmp_path, "--store", "postgres", "--pg", postgres_server)
    check(stdout, out["runs"], ["postgres"])
