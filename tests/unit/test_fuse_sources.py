"""Fusion reads candidate vectors from the store (its vector cache); derived hits get their
sources only once they are kept."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from pmemo import Settings, SyncMemory
from pmemo.embedders.hashing import HashingEmbedder
from pmemo.models import Scope
from pmemo.retrieval.pool import Asked, Evidence, rank, seeds, wanted
from pmemo.retrieval.pool import scored as pool_scored
from pmemo.retrieval.search import stored_vectors
from pmemo.stores.base import NewTurn
from pmemo.stores.sqlite.store import SQLiteStore
from pmemo.text.segment import segment

ALICE = Scope.of(user_id="alice", session_id="s1")


def test_lexical_only_candidates_get_their_exact_cosine_from_the_store(tmp_path: Path) -> None:
    store = SQLiteStore.open(tmp_path)
    texts = ["budget is 10k", "the cat sleeps", "launch on Monday", "not embedded yet"]
    turns = store.turns.add_turns([NewTurn(ALICE, "user", t, None, datetime(2024, 1, 1, tzinfo=UTC), {},
                                     segment(t)) for t in texts])
    emb = HashingEmbedder(64)
    vecs = emb.embed_passages(texts)
    store.vectors.put_vectors("turn", [(t.id, ALICE.key, v) for t, v in list(zip(turns, vecs, strict=True))[:3]],
                      emb.model_id)
    qvec = emb.embed_query("budget launch")
    a, b, c, d = (t.id for t in turns)
    store.vectors.nearest("turn", ALICE.key, qvec, 1, emb.model_id)  # the search before fusion: vectors in memory
    e = Evidence(lexical=[(a, 3.0), (c, 2.0), (d, 1.0)], vector=[(b, float(vecs[1] @ qvec))], clusters=[],
                 summaries=[])
    found, around = seeds(e)
    pool = store.turn_pool(found, 2, around, tied=True)  # the pool read: refs and links, no vectors
    ranked = rank(pool, stored_vectors(store, "turn", len(qvec)), e, Asked("budget launch", qvec), Settings())
    scored = pool_scored(ranked, store.turns.get_turns(wanted(ranked)))
    why = {s.turn.id: s.why for s in scored}
    assert set(why) == {a, b, c, d}
    for turn_id, vec in ((a, vecs[0]), (c, vecs[2])):  # lexical only: cosine from the store
        assert f"meaning (cosine {float(vec @ qvec):.3f})" in why[turn_id]
    assert "meaning" not in why[d]  # no vector yet: keywords only
    assert "rank 1" in why[b]
    store.close()


def test_derived_hits_keep_their_sources(tmp_path: Path) -> None:
    mem = SyncMemory.open(tmp_path, settings=Settings(summary_every=3), embedder="hashing")
    turns = [mem.add(user_id="u", session_id="s1", content=t)
             for t in ("budget is 10k yuan", "budget raised to 13k", "the launch is in May")]
    mem.drain()
    key = mem.add_key("budget cap is 13k", user_id="u")
    mem._memory._store.key_lines.add_key(key.scope, "budget line promoted", "promoted",  # noqa: SLF001
                               [turns[0].id, turns[1].id])
    hits = mem.search("budget", user_id="u", limit=50)
    by_kind = {h.id.split(":")[0]: h for h in hits if h.kind != "turn"}
    promoted = next(h for h in hits if h.text == "budget line promoted")
    assert [t.id for t in promoted.sources] == [turns[0].id, turns[1].id]
    assert [t.id for t in by_kind["summary"].sources] == [t.id for t in turns]
    ctx = mem.context("budget", user_id="u", session_id="s1", budget_tokens=2000)
    packed = next(h for h in ctx.items if h.text == "budget line promoted")
    assert [t.id for t in packed.sources] == [turns[0].id, turns[1].id]
    # the summary restates its three turns, which the context shows word for word: they stand for it
    assert {t.id for t in turns} <= {t.id for h in ctx.items if h.kind == "turn" for t in h.sources}
    assert not [h for h in ctx.items if h.kind == "summary"]
    mem.close()
