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
                    "context_p50_ms", "nearest_p50_ms", "floor_p50_ms", "lexical_p50_ms", "rss_mb",
                    "disk_bytes_per_turn"):
            assert run[key] > 0, (run["store"], key)
        # the query embedding is counted apart: never more than the whole search
        assert run["search_noembed_p50_ms"] <= run["search_p50_ms"]
        assert 1000 < run["disk_bytes_per_turn"] < 100_000


def test_scale_bench_reads_scopes_holding_turns(tmp_path: Path) -> None:
    """Reads go to the scopes that hold turns (sessions of 100 turns): 5 of 20 at 500 turns."""
    out = tmp_path / "scale.json"
    subprocess.run([sys.executable, str(BENCH), "--turns", "500", "--scopes", "20", "--store", "sqlite",
                    "--queries", "5", "--batch", "250", "--no-e5-queries", "--out", str(out)],
                   check=True, capture_output=True, timeout=600)
    (run,) = json.loads(out.read_text())["runs"]
    assert run["scopes_searched"] == 5


def test_scale_bench_times_the_reads_of_a_store_it_kept_without_filling_it_again(
        postgres_server: str, tmp_path: Path) -> None:
    def run(name: str) -> list[dict]:
        out = tmp_path / name
        subprocess.run([sys.executable, str(BENCH), "--turns", "500", "--scopes", "20", "--store",
                        "sqlite,postgres", "--queries", "5", "--batch", "250", "--no-e5-queries",
                        "--pg-url", postgres_server, "--keep", str(tmp_path / "kept"), "--out", str(out)],
                       check=True, capture_output=True, timeout=600)
        return json.loads(out.read_text())["runs"]

    first, again = run("first.json"), run("again.json")
    assert [r["reopened"] for r in first] == [False, False]
    assert [r["reopened"] for r in again] == [True, True]
    for before, after in zip(first, again, strict=True):
        assert "turns_per_s" in before and "turns_per_s" not in after  # not filled twice
        assert after["search_noembed_p50_ms"] > 0 and after["lexical_p50_ms"] > 0
        # the same store: as many bytes a turn, give or take what the reads wrote (hit counts)
        assert abs(after["disk_bytes_per_turn"] - before["disk_bytes_per_turn"]) < 0.2 * before["disk_bytes_per_turn"]
    import psycopg

    with psycopg.connect(postgres_server, autocommit=True) as conn:
        conn.execute("DROP SCHEMA reads_500 CASCADE")


def test_search_reads_times_each_store_call_and_explains_postgres(postgres_server: str, tmp_path: Path) -> None:
    out = tmp_path / "reads.json"
    subprocess.run([sys.executable, str(BENCH.parent / "search_reads.py"), "--turns", "300,600", "--scopes", "20",
                    "--store", "sqlite,postgres", "--queries", "5", "--batch", "300", "--explain", "2",
                    "--pg-url", postgres_server, "--keep", str(tmp_path / "kept"), "--out", str(out)],
                   check=True, capture_output=True, timeout=600, cwd=BENCH.parent)
    rows = json.loads(out.read_text())
    assert [(r["store"], r["turns"]) for r in rows] == [("sqlite", 300), ("sqlite", 600),
                                                        ("postgres", 300), ("postgres", 600)]
    for row in rows:
        for method in ("turns.lexical", "nearest_kinds", "turn_pool"):  # the read plan's (issue 45 §4)
            calls, ms = row["per"][method]
            assert calls >= 1 and ms > 0, (row["store"], method)
    assert any("Execution Time" in plan for plan in rows[-1]["plans"].values())
    import psycopg

    with psycopg.connect(postgres_server, autocommit=True) as conn:  # the filled stores it kept
        for n in (300, 600):
            conn.execute(f"DROP SCHEMA reads_{n} CASCADE")


def test_search_reads_reads_the_stores_scale_kept(postgres_server: str, tmp_path: Path) -> None:
    """``scale.py --keep DIR`` leaves its stores where ``search_reads.py --keep DIR`` reads them
    without filling them again (a 1M store takes most of an hour to fill)."""
    kept = tmp_path / "kept"
    subprocess.run([sys.executable, str(BENCH), "--turns", "400", "--scopes", "20", "--store", "sqlite,postgres",
                    "--queries", "5", "--batch", "200", "--no-e5-queries", "--pg-url", postgres_server,
                    "--keep", str(kept), "--out", str(tmp_path / "scale.json")], check=True, capture_output=True,
                   timeout=600)
    done = subprocess.run([sys.executable, str(BENCH.parent / "search_reads.py"), "--turns", "400", "--scopes", "20",
                           "--store", "sqlite,postgres", "--queries", "5", "--explain", "0",
                           "--pg-url", postgres_server, "--keep", str(kept), "--out", str(tmp_path / "reads.json")],
                          check=True, capture_output=True, text=True, timeout=600, cwd=BENCH.parent)
    assert "filled in" not in done.stdout  # read as kept, not filled again
    for row in json.loads((tmp_path / "reads.json").read_text()):
        assert row["per"]["turns.lexical"][0] >= 1, row["store"]
    import psycopg

    with psycopg.connect(postgres_server, autocommit=True) as conn:
        conn.execute("DROP SCHEMA reads_400 CASCADE")


def test_fold_ab_times_old_and_new_statements_on_one_kept_store(postgres_server: str, tmp_path: Path) -> None:
    kept = tmp_path / "kept"
    subprocess.run([sys.executable, str(BENCH.parent / "search_reads.py"), "--turns", "600", "--scopes", "20",
                    "--store", "postgres", "--queries", "3", "--batch", "300", "--explain", "0",
                    "--pg-url", postgres_server, "--keep", str(kept)],
                   check=True, capture_output=True, timeout=600, cwd=BENCH.parent)
    done = subprocess.run([sys.executable, str(BENCH.parent / "fold_ab.py"), "--keep", str(kept), "--turns", "600",
                           "--scopes", "20", "--queries", "5", "--rounds", "1", "--pg-url", postgres_server],
                          check=False, capture_output=True, text=True, timeout=600, cwd=BENCH.parent)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    for name in ("candidates' refs", "recalled clusters", "keyword search"):
        (line,) = [line for line in lines if line.startswith(name)]
        assert "before" in line and "after" in line, done.stdout
    assert any(line.startswith("a context's episodes") for line in lines)  # a small store may have none
    import psycopg

    with psycopg.connect(postgres_server, autocommit=True) as conn:
        conn.execute("DROP SCHEMA reads_600 CASCADE")
