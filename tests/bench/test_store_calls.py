"""bench/store_calls.py on both stores: a group context reads each kind once (issue 45 §4's read
plan). The question naming three people is the process's first context: at most 12 store calls
(48 before the plan), and the pronoun question at most 10 (42 before); no method is called twice."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "store_calls.py"
MOST = {"你认识霓霓吗？周霓和高峰、许文涛最近怎么样": 12, "她对什么过敏来着": 10}


@pytest.mark.parametrize("store", ["sqlite", "postgres"])
def test_a_group_context_reads_each_kind_once(store: str, request: pytest.FixtureRequest) -> None:
    extra = ["--pg", request.getfixturevalue("postgres_url")] if store == "postgres" else []
    done = subprocess.run([sys.executable, str(BENCH), *extra], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    print(store, {q: {k: v for k, v in c.items() if k != "by_method"} for q, c in out.items() if q != "store"})
    assert out["store"] == store
    for query, most in MOST.items():
        counted = out[query]
        assert counted["calls"] == sum(counted["by_method"].values()) <= most, counted
        assert max(counted["by_method"].values()) == 1, counted  # each kind once
        assert {"chat_state", "people_known", "turn_pool", "turns.get_turns"} <= counted["by_method"].keys()
        if store == "postgres":  # the statements went to the server, fewer trips than statements
            assert 0 < counted["round_trips"] < counted["statements"], counted
