"""The shipped multi-session scenario: current value wins, history keeps the old, duplicates collapse."""

from __future__ import annotations

import importlib.util
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "scenario.py"


def _bench():
    spec = importlib.util.spec_from_file_location("scenario_bench", BENCH)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_scenario_profile_matches_the_script() -> None:
    result = _bench().run("hashing")
    assert result["statements"] > result["facts_stated"] >= 10
    assert result["facts_stored_per_fact_stated"] == 1.0
    assert result["current_value_right"] == f"{result['facts_stated']}/{result['facts_stated']}"
    assert (
        result["history_keeps_every_value"].split("/")[0]
        == result["history_keeps_every_value"].split("/")[1]
    )
    assert result["wrong"] == {} and result["unexpected_keys"] == []
    assert result["episodes"] == 3  # sessions 1-3 closed when the next one began
