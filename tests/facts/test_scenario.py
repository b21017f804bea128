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
    # "我叫林美，在上海做产品经理": the job is said too, though the script annotates only the name
    assert result["unexpected_keys"] in ([], ["job"])
    assert result["current_facts_stored"] - len(result["unexpected_keys"]) == result["facts_stated"]
    assert result["current_value_right"] == f"{result['facts_stated']}/{result['facts_stated']}"
    assert (
        result["history_keeps_every_value"].split("/")[0]
        == result["history_keeps_every_value"].split("/")[1]
    )
    assert result["wrong"] == {}
    assert result["episodes"] == 3  # sessions 1-3 closed when the next one began
