"""bench/store_calls.py on both stores: it counts the store calls of a group context by method
(issue 45 §4's measure); the counts are reported, not bounded, until the read plan lands."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "store_calls.py"


@pytest.mark.parametrize("store", ["sqlite", "postgres"])
def test_store_calls_are_counted_per_method(store: str, request: pytest.FixtureRequest) -> None:
    extra = ["--pg", request.getfixturevalue("postgres_url")] if store == "postgres" else []
    done = subprocess.run([sys.executable, str(BENCH), *extra], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    print(store, {q: v["calls"] for q, v in out.items() if q != "store"})
    assert out["store"] == store
    for query in ("你认识霓霓吗？周霓和高峰、许文涛最近怎么样", "她对什么过敏来着"):
        counted = out[query]
        assert counted["calls"] == sum(counted["by_method"].values()) > 0
        assert {"facts_about", "get_turns"} <= counted["by_method"].keys()  # the people, the turns
