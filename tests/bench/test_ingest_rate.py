"""bench/ingest_rate.py at CI size (300 group-chat messages, SQLite and PostgreSQL, the hashing
embedder, profiled too), so that it runs and reports every number it promises; no time is
asserted (STYLE.md, habit 9)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "ingest_rate.py"


def test_ingest_rate_reports_both_stores(postgres_server: str, tmp_path: Path) -> None:
    out = tmp_path / "ingest.json"
    done = subprocess.run([sys.executable, str(BENCH), "--messages", "300", "--store", "sqlite,postgres",
                           "--embedder", "hashing", "--profile", "5", "--pg-url", postgres_server,
                           "--out", str(out)], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    runs = json.loads(out.read_text())["runs"]
    assert [(r["store"], r["profiled"]) for r in runs] == [("sqlite", False), ("sqlite", True),
                                                           ("postgres", False), ("postgres", True)]
    for run in runs:
        # every message searchable by meaning, nothing left or failed
        assert (run["messages"], run["embedded"], run["pending"], run["failed"]) == (300, 300, 0, 0)
        for key in ("msgs_per_s", "ack_msgs_per_s", "msgs_per_cpu_s", "worker_s", "people_batch_s"):
            assert run[key] > 0, (run["store"], key)
        assert run["jobs_s"]["turns"] > 0 and run["texts_embedded"] > 0
        assert ("profile" in run) == run["profiled"]
    assert "msgs/s" in done.stdout and "cumulative" in done.stdout
