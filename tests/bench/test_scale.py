"""bench/scale.py at CI size (500 and 1,000 turns over 20 scopes, SQLite and PostgreSQL), so that it runs
and reports every number it promises; no time is asserted (STYLE.md, habit 9)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "scale.py"


def test_scale_bench_reports_both_stores(postgres_server: str, tmp_path: Path) -> None:
    out = tmp_path / "scale.json"
    subprocess.run([sys.executable, str(BENCH), "--turns", "500,1000", "--scopes", "20",
                    "--store", "sqlite,postgres", "--queries", "10", "--batch", "250", "--no-e5-queries",
                    "--pg-url", postgres_server, "--out", str(out)], check=True, capture_output=True,
                   timeout=600)
    runs = json.loads(out.read_text())["runs"]
    assert [(r["store"], r["turns"]) for r in runs] == [("sqlite", 500), ("sqlite", 1000),
                                                        ("postgres", 500), ("postgres", 1000)]
    for run in runs:
        for key in ("turns_per_s", "batch_first5_s", "batch_last5_s", "search_p50_ms", "search_noembed_p95_ms",
                    "context_p50_ms", "nearest_p50_ms", "floor_p50_ms", "rss_mb", "disk_bytes_per_turn"):
            assert run[key] > 0, (run["store"], key)
        # the query embedding is counted apart: never more than the whole search
        assert run["search_noembed_p50_ms"] <= run["search_p50_ms"]
        assert 1000 < run["disk_bytes_per_turn"] < 100_000
