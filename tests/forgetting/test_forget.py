"""Explicit forget: after it, no query, tier, index or export returns the text."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from pmemo import Settings, SyncMemory
from pmemo.embedders.cached import cache_key
from pmemo.errors import Conflict, InvalidInput, NotFound
from pmemo.models import Scope
from pmemo.stores.sqlite import fts as fts_index

SECRET = "I love purple giraffes, my locker code is zebra-7731"
NEEDLES = ("giraffe", "zebra-7731", "7731")


def _settings() -> Settings:
    return Settings(short_term_turns=2, summary_every=3, promote_hits=2, budget_tokens=4000)


def _fill(mem: SyncMemory) -> int:
    base = [
        "We are planning the spring trip to Yunnan.",
        SECRET,
        "The giraffes at the zoo were purple in my dream, zebra-7731 again.",
        "Budget for the trip is 8000 yuan.",
        "Train tickets are booked for April 2.",
        "我喜欢喝茶。",
    ]
    turns = [
        mem.add(user_id="u1", session_id="s1", content=t, timestamp=f"2024-03-0{i + 1}T10:00:00")
        for i, t in enumerate(base)
    ]
    mem.add(
        user_id="u1",
        session_id="s2",
        content="New day, new plans.",
        timestamp="2024-03-09T10:00:00",
    )
    mem.drain()
    for _ in range(3):  # recall the cluster so it is promoted to a key line
        mem.search("purple giraffes zebra-7731", user_id="u1")
    mem.drain()
    return turns[1].id


def _texts(mem: SyncMemory) -> list[str]:
    """Every text a user of the library can get back, from every tier and read path."""
    out: list[str] = []
    out += [t.content for t in mem.turns(user_id="u1", limit=1000)]
    for q in ("purple giraffes", "zebra-7731", "locker code", "giraffe"):
        for hit in mem.search(q, user_id="u1", limit=100):
            out += [hit.text, *(s.content for s in hit.sources)]
        ctx = mem.context(q, user_id="u1", session_id="s1", budget_tokens=4000)
        out += [h.text for h in ctx.items if h.tier != "input"]  # the query itself is echoed
        out.append(ctx.text.rsplit("## Current input", 1)[0])
        out += [s.content for h in ctx.items for s in h.sources]
    out += [s.text for s in mem.summaries(user_id="u1")]
    out += [c.label for c in mem.clusters(user_id="u1")]
    out += [k.text for k in mem.key_memory(user_id="u1")]
    out += [f"{f.key} {f.value}" for f in mem.profile("u1", history=True)]
    for e in mem.episodes(user_id="u1"):
        out += [e.summary, *e.topics, *e.actions, *e.outcomes]
    out += [t.content for t in mem.turns(user_id="u1", text="giraffe")]
    return out


def _db_hits(data: Path, model: str, texts: list[str]) -> dict[str, int]:
    conn = sqlite3.connect(data / "pmemo.db")
    try:
        token = fts_index.scope_token(Scope.of(user_id="u1").key)
        words = fts_index.match(token, ["giraffes", "zebra"])
        fts = conn.execute(
            "SELECT COUNT(*) FROM turns_fts WHERE turns_fts MATCH ?", (words,)
        ).fetchone()[0]
        cache = sum(
            conn.execute(
                "SELECT COUNT(*) FROM embed_cache WHERE key=?", (cache_key(model, t),)
            ).fetchone()[0]
            for t in texts
        )
        raw = conn.execute("SELECT COUNT(*) FROM turns WHERE content LIKE '%giraffe%'").fetchone()[
            0
        ]
        facts = conn.execute("SELECT COUNT(*) FROM facts WHERE key LIKE '%giraffe%'").fetchone()[0]
    finally:
        conn.close()
    return {"fts": fts, "cache": cache, "turns": raw, "facts": facts}


def _vectors(data: Path, ids: list[int]) -> int:
    conn = sqlite3.connect(data / "pmemo.db")
    try:
        return sum(
            conn.execute(
                "SELECT COUNT(*) FROM vectors WHERE kind='turn' AND ref=?", (i,)
            ).fetchone()[0]
            for i in ids
        )
    finally:
        conn.close()


def _leaks(mem: SyncMemory) -> list[str]:
    return [t for t in _texts(mem) if any(n in t.lower() for n in NEEDLES)]


@pytest.fixture
def filled(tmp_path: Path) -> Any:
    data = tmp_path / "data"
    mem = SyncMemory.open(data, settings=_settings(), embedder="hashing")
    secret_id = _fill(mem)
    yield mem, data, secret_id
    mem.close()


def test_before_forget_the_text_is_everywhere(filled: Any) -> None:
    mem, data, _ = filled
    assert _leaks(mem)
    # two turns say it; the turn after one of them has it as context
    assert _db_hits(data, mem._memory._embed.model_id, [SECRET])["fts"] == 3
    assert any("giraffe" in f.key for f in mem.profile("u1"))
    assert any("giraffe" in s.text.lower() for s in mem.summaries(user_id="u1"))
    assert any("giraffe" in k.text.lower() for k in mem.key_memory(user_id="u1"))
    assert any(
        "giraffe" in (e.summary + " ".join(e.topics)).lower() for e in mem.episodes(user_id="u1")
    )


def test_soft_forget_by_query_leaves_no_trace_and_restore_brings_it_back(filled: Any) -> None:
    mem, data, secret_id = filled
    before_turns = {t.id for t in mem.turns(user_id="u1", limit=1000)}
    before_facts = {(f.key, f.value) for f in mem.profile("u1", history=True)}
    plan = mem.forget(query="zebra-7731", user_id="u1", dry_run=True)
    assert secret_id in plan["turns"] and len(plan["turns"]) == 2
    report = mem.forget(query="zebra-7731", user_id="u1")
    assert report["mode"] == "soft" and set(report["turns"]) == set(plan["turns"])
    assert report["facts"] and report["summaries"] and report["episodes"] and report["key_lines"]
    assert _leaks(mem) == []
    secret_texts = [SECRET, "The giraffes at the zoo were purple in my dream, zebra-7731 again."]
    assert _db_hits(data, mem._memory._embed.model_id, secret_texts) == {
        "fts": 0,
        "cache": 0,
        "turns": 0,
        "facts": 0,
    }
    assert _vectors(data, report["turns"]) == 0
    embed, u1 = mem._memory._embed, Scope.of(user_id="u1").key
    found = mem._memory._store.vectors.nearest("turn", u1, embed.query(SECRET), 50, embed.model_id)
    assert found and set(report["turns"]).isdisjoint(ref for ref, _ in found)
    log = mem.forget_log(batch=report["batch"])
    assert {row["kind"] for row in log} >= {"turn", "fact", "summary", "episode", "key"}

    restored = mem.restore(report["batch"])
    assert set(restored["turns"]) == set(report["turns"])
    assert {t.id for t in mem.turns(user_id="u1", limit=1000)} == before_turns
    assert {(f.key, f.value) for f in mem.profile("u1", history=True)} == before_facts
    assert any(SECRET == h.text for h in mem.search("purple giraffes", user_id="u1"))
    assert _db_hits(data, mem._memory._embed.model_id, [SECRET])["fts"] == 3  # context too
    assert any("giraffe" in k.text.lower() for k in mem.key_memory(user_id="u1"))
    with pytest.raises(Conflict):
        mem.restore(report["batch"])  # a batch is restored once


def test_hard_forget_erases_the_bytes(tmp_path: Path) -> None:
    data = tmp_path / "data"
    mem = SyncMemory.open(data, settings=_settings(), embedder="hashing")
    try:
        secret_id = _fill(mem)
        ids = mem.forget(query="zebra-7731", user_id="u1", dry_run=True)["turns"]
        report = mem.forget(turn_ids=ids, hard=True)
        assert report["mode"] == "hard" and secret_id in report["turns"]
        assert _leaks(mem) == []
        with pytest.raises(Conflict):
            mem.restore(report["batch"])  # purged: nothing to bring back
    finally:
        mem.close()
    blob = b"".join(p.read_bytes() for p in data.iterdir() if p.name.startswith("pmemo.db"))
    for needle in NEEDLES:
        assert needle.encode() not in blob


def test_restore_by_turn_ids_and_purge(filled: Any) -> None:
    mem, data, secret_id = filled
    report = mem.forget(turn_ids=[secret_id])
    assert secret_id not in {t.id for t in mem.turns(user_id="u1", limit=1000)}
    mem.restore(turn_ids=[secret_id])
    assert secret_id in {t.id for t in mem.turns(user_id="u1", limit=1000)}
    again = mem.forget(turn_ids=[secret_id])
    assert mem.purge(again["batch"])["purged_rows"] >= 1
    with pytest.raises(NotFound):
        mem.restore(turn_ids=[secret_id])
    assert report["batch"] != again["batch"]


def test_forget_input_errors(filled: Any) -> None:
    mem, _, _ = filled
    with pytest.raises(InvalidInput):
        mem.forget()
    with pytest.raises(InvalidInput):
        mem.forget(turn_ids=[1], query="x", user_id="u1")
    with pytest.raises(NotFound):
        mem.forget(turn_ids=[999_999])
    assert mem.forget(query="nothing like this at all", user_id="u1")["turns"] == []
