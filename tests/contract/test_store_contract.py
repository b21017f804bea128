"""The Store Protocol contract (stores/base.py): every backend must pass all of this."""

from __future__ import annotations

import time
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from functools import partial

import numpy as np
import pytest

from pmemo.decay import decayed
from pmemo.models import Scope
from pmemo.stores.base import NewTurn, Store
from pmemo.text.segment import query_terms, segment

CST = timezone(timedelta(hours=8))
T0 = datetime(2024, 3, 4, 9, 0, tzinfo=CST)
ALICE = Scope.of(user_id="alice", session_id="s1")
ALICE_S2 = Scope.of(user_id="alice", session_id="s2")
BOB = Scope.of(user_id="bob", session_id="s1")
TEAM = Scope.of(group_id="alice", session_id="s1")  # same name, group owner
OTHER_TENANT = Scope.of(user_id="alice", session_id="s1", tenant_id="t2")
OTHER_AGENT = Scope.of(user_id="alice", session_id="s1", agent_id="bot2")
ALL_SCOPES = [ALICE, BOB, TEAM, OTHER_TENANT, OTHER_AGENT]


def new(scope: Scope, content: str, minutes: int = 0, **kw) -> NewTurn:
    return NewTurn(
        scope,
        kw.get("role", "user"),
        content,
        kw.get("actor"),
        T0 + timedelta(minutes=minutes),
        kw.get("metadata", {}),
        segment(content),
    )


def vec(*values: float) -> np.ndarray:
    v = np.asarray(values, dtype=np.float32)
    return v / np.linalg.norm(v)


def owner(scope: Scope) -> Scope:
    return scope.owner_scope()


def max_steps(store: Store, scope: Scope, sessions: list[str]) -> dict[str, int]:
    # the Protocol is gaining a ``sessions`` argument (only the sessions asked about)
    try:
        return store.turns.max_steps(scope, sessions)  # type: ignore[call-arg]
    except TypeError:
        return {s: n for s, n in store.turns.max_steps(scope).items() if s in sessions}  # type: ignore[call-arg]


# ---- turns ------------------------------------------------------------------------------
def test_add_turns_returns_durable_turns_with_steps(store: Store):
    turns = store.turns.add_turns(
        [
            new(ALICE, "预算不能超过10万元", 0, actor="Louis", metadata={"msg_id": "3"}),
            new(ALICE, "Launch is April 15", 1, role="assistant"),
            new(ALICE_S2, "new session", 2),
        ]
    )
    assert [t.step for t in turns] == [1, 2, 1]
    assert len({t.id for t in turns}) == 3
    more = store.turns.add_turns([new(ALICE, "third", 3)])
    assert more[0].step == 3
    got = store.turns.get_turns([t.id for t in turns])
    first = got[turns[0].id]
    assert (first.content, first.actor, first.role, first.metadata) == (
        "预算不能超过10万元",
        "Louis",
        "user",
        {"msg_id": "3"},
    )
    assert first.timestamp == T0 and first.timestamp.utcoffset() == timedelta(hours=8)
    assert first.scope == ALICE and first.session_id == "s1"
    assert got[turns[1].id].role == "assistant"


def test_naive_timestamps_round_trip(store: Store):
    naive = datetime(2024, 1, 2, 3, 4, 5)
    (t,) = store.turns.add_turns([NewTurn(ALICE, "user", "x", None, naive, {}, "x")])
    assert store.turns.get_turns([t.id])[t.id].timestamp == naive


def test_get_turns_skips_missing_ids(store: Store):
    (t,) = store.turns.add_turns([new(ALICE, "hello")])
    assert set(store.turns.get_turns([t.id, t.id, 999_999])) == {t.id}
    assert store.turns.get_turns([]) == {}


def test_turn_refs_carry_what_ranking_needs_and_reach_neighbours(store: Store):
    a = store.turns.add_turns([new(ALICE, f"a{i}", i, actor="Louis" if i == 1 else None)
                         for i in range(5)])
    other = store.turns.add_turns([new(ALICE_S2, "s2", 9), new(BOB, "bob", 9)])
    (naive,) = store.turns.add_turns([NewTurn(TEAM, "user", "x", None, datetime(2024, 1, 2, 23, 30),
                                        {}, "x")])
    refs = store.turns.turn_refs([a[1].id, a[1].id, naive.id, 999_999])
    assert set(refs) == {a[1].id, naive.id}
    ref = refs[a[1].id]
    assert (ref.id, ref.scope_key, ref.session, ref.step) == (a[1].id, ALICE.key, "s1", 2)
    assert ref.actor == "Louis" and ref.content == "a1" and ref.role == "user"
    assert ref.epoch == a[1].timestamp.timestamp() and ref.offset == 8 * 3600
    late = T0.replace(hour=23, minute=30)
    (t,) = store.turns.add_turns([NewTurn(OTHER_AGENT, "user", "late", None, late, {}, "late")])
    assert store.turns.turn_refs([t.id])[t.id].day == late.date()  # the day where it was said, not in UTC
    assert refs[naive.id].offset is None and refs[naive.id].day == naive.timestamp.date()
    assert set(store.turns.turn_refs([], radius=1, around=[a[2].id])) == {a[1].id, a[2].id, a[3].id}
    assert set(store.turns.turn_refs([], radius=2, around=[a[0].id, a[4].id])) == {t.id for t in a}
    assert set(store.turns.turn_refs([], radius=1, around=[other[0].id])) == {other[0].id}
    # the plain ids and the neighbours of ``around`` in one read; radius 0 reads no neighbours
    both = store.turns.turn_refs([other[0].id], radius=1, around=[a[2].id])
    assert set(both) == {other[0].id, a[1].id, a[2].id, a[3].id}
    assert set(store.turns.turn_refs([other[0].id], around=[a[2].id])) == {other[0].id}
    assert store.turns.turn_refs([]) == {} and store.turns.turn_refs([], radius=1) == {}


def test_turns_by_text_and_words_are_queries_of_the_store(store: Store):
    """list_turns(text=): a substring in any case (not only ASCII), the asker's own first with
    ``first``; turns_with_terms: the turns whose own words hold every term, in one scope."""
    said = [("ni", "Mon Budget ÉTÉ 预算不能超过10万元"), ("bo", "the budget is tight"), ("ni", "plan B"),
            ("bo", "预算 again, été")]
    turns = store.turns.add_turns([replace(new(ALICE, text, i), actor_id=who) for i, (who, text) in enumerate(said)]
                            + [new(BOB, "budget of bob", 9)])
    ids = [t.id for t in turns]
    listed = partial(store.turns.list_turns, owner(ALICE), session_id=None, limit=100, offset=0, since=None, until=None)
    assert [t.id for t in listed(text="BUDGET")] == [ids[0], ids[1]]
    assert [t.id for t in listed(text="été")] == [ids[0], ids[3]]  # É is é, as str.lower has it
    assert [t.id for t in listed(text="预算")] == [ids[0], ids[3]]
    assert [t.id for t in listed(text="预算", first="bo")] == [ids[3], ids[0]]
    assert [t.id for t in listed(text="budget", first="bo", limit=1, offset=1)] == [ids[0]]
    assert listed(text="nothing like it") == []
    assert sorted(store.turns.turns_with_terms(owner(ALICE), list(query_terms("budget tight")))) == [ids[1]]
    assert sorted(store.turns.turns_with_terms(owner(ALICE), list(query_terms("预算")))) == [ids[0], ids[3]]
    assert store.turns.turns_with_terms(owner(BOB), list(query_terms("tight"))) == []
    assert store.turns.turns_with_terms(owner(ALICE), []) == []


def test_list_last_turn_at(store: Store):
    turns = store.turns.add_turns(
        [new(ALICE, f"turn {i}", i) for i in range(6)] + [new(ALICE_S2, "other session", 10)]
    )
    listed = store.turns.list_turns(
        owner(ALICE), session_id=None, limit=100, offset=0, since=None, until=None
    )
    assert [t.id for t in listed] == [t.id for t in turns]  # oldest first
    s1 = store.turns.list_turns(owner(ALICE), session_id="s1", limit=2, offset=1, since=None, until=None)
    assert [t.content for t in s1] == ["turn 1", "turn 2"]
    window = store.turns.list_turns(
        owner(ALICE),
        session_id=None,
        limit=100,
        offset=0,
        since=T0 + timedelta(minutes=2),
        until=T0 + timedelta(minutes=4),
    )
    assert [t.content for t in window] == ["turn 2", "turn 3", "turn 4"]
    assert [t.content for t in store.turns.last_turns(owner(ALICE), "s1", 3)] == [
        "turn 3",
        "turn 4",
        "turn 5",
    ]
    assert store.turns.turn_at(owner(ALICE), "s1", 2).content == "turn 1"
    assert store.turns.turn_at(owner(ALICE), "s1", 99) is None
    assert store.turns.turn_at(owner(ALICE), "nope", 1) is None
    assert max_steps(store, owner(ALICE), ["s1", "s2"]) == {"s1": 6, "s2": 1}
    assert sorted(store.turns.turn_ids(owner(ALICE))) == sorted(t.id for t in turns)
    assert sorted(store.turns.turn_ids(owner(ALICE), "s2")) == [turns[-1].id]


def test_actors_are_the_scopes_speakers_and_go_with_their_turns(store: Store):
    ann, _, bo, _ = store.turns.add_turns([new(ALICE, "a", 0, actor="Ann"), new(ALICE, "b", 1),
                                     new(ALICE_S2, "c", 2, actor="Bo"),
                                     new(BOB, "d", 3, actor="Cy")])
    store.turns.add_turns([new(ALICE, "e", 4, actor="Ann")])
    assert store.turns.actors(owner(ALICE)) == ["Ann", "Bo"]
    assert store.turns.actors(owner(BOB)) == ["Cy"]
    store.turns.delete_turns([bo.id])
    assert store.turns.actors(owner(ALICE)) == ["Ann"]  # nothing of a deleted speaker stays behind
    assert store.turns.actors(owner(TEAM)) == []


def test_sessions_and_owners(store: Store):
    store.turns.add_turns(
        [
            new(ALICE, "a", 0),
            new(ALICE, "b", 5),
            new(ALICE_S2, "c", 10),
            new(TEAM, "d", 1),
            new(OTHER_TENANT, "e", 1),
        ]
    )
    sessions = store.turns.sessions(owner(ALICE))
    assert [s["session_id"] for s in sessions] == ["s1", "s2"]
    assert sessions[0]["turns"] == 2
    assert sessions[0]["first"] == T0 and sessions[0]["last"] == T0 + timedelta(minutes=5)
    assert store.turns.owners("default", "default") == ["g:alice", "u:alice"]
    assert store.turns.owners("t2", "default") == ["u:alice"]
    assert store.turns.owners("t3", "default") == []
    store.key_lines.add_key(Scope.of(user_id="carol"), "only a key line", "user", [])
    assert "u:carol" in store.turns.owners("default", "default")


def test_a_reply_is_found_by_the_words_it_answers_until_they_are_deleted(store: Store):
    asked, told, later = store.turns.add_turns([new(ALICE, "Do you still keep turtles?", 0),
                                          new(ALICE, "Yes! I like holding them.", 1),
                                          new(ALICE, "Time for lunch.", 2)])
    assert [i for i, _ in store.turns.lexical(owner(ALICE), ["turtl"], 10)] == [asked.id, told.id]
    store.turns.delete_turns([asked.id])
    assert store.turns.lexical(owner(ALICE), ["turtl"], 10) == []  # no word of it is left behind
    store.turns.delete_turns([told.id])  # the next turn's context is now the turn before it: none
    assert store.turns.lexical(owner(ALICE), ["hold"], 10) == []


def test_lexical_chinese_and_english(store: Store):
    turns = store.turns.add_turns(
        [
            new(ALICE, "第一，项目总预算不能超过10万元人民币，这是老板定的硬上限。", 0),
            new(ALICE, "上线日期定在4月15日，周一。", 1),
            new(
                ALICE, "The payment service retries the order and some users get charged twice.", 2
            ),
            new(ALICE, "Lucky cannot eat grapes or chocolate.", 3),
            new(ALICE_S2, "预算上调到13万元。", 4),
        ]
    )
    hits = store.turns.lexical(owner(ALICE), list(query_terms("项目预算是多少")), 10)
    ranked = [i for i, _ in hits]
    assert ranked[0] == turns[0].id and turns[4].id in ranked
    # the turn after the budget line is found through its context (项目…预算), below that line
    assert ranked.index(turns[1].id) > 0
    scores = [s for _, s in hits]
    assert scores == sorted(scores, reverse=True)  # higher is better
    en = store.turns.lexical(
        owner(ALICE), list(query_terms("Who was charged twice by the payment service?")), 10
    )
    # the line itself, and the reply after it by its context
    assert {i for i, _ in en[:2]} == {turns[2].id, turns[3].id}
    assert [i for i, _ in store.turns.lexical(owner(ALICE), list(query_terms("grapes")), 10)] == [turns[3].id]
    only_s2 = store.turns.lexical(owner(ALICE), ["预算"], 10, session_id="s2")
    assert [i for i, _ in only_s2] == [turns[4].id]
    assert store.turns.lexical(owner(ALICE), [], 10) == []
    assert store.turns.lexical(owner(ALICE), ["nothing-like-this"], 10) == []
    assert len(store.turns.lexical(owner(ALICE), ["预算", "lucky", "payment"], 2)) == 2


def test_lexical_reads_a_large_scope_through_its_index_alike(store: Store, monkeypatch: pytest.MonkeyPatch):
    """Postgres matches a small scope's turns row by row and a large one's through the GIN
    index (``SCAN_ROWS``): both give the same hits, scores and order."""
    store.turns.add_turns([new(ALICE, "预算上调到13万元。", 0), new(ALICE, "the budget was raised", 1),
                     new(ALICE_S2, "预算还要再谈", 2), new(BOB, "预算 budget", 3)])
    asks = [(["预算", "budget"], None), (["预算"], "s2"), (["budget", "预算", "预算"], "s1")]
    small = [store.turns.lexical(owner(ALICE), terms, 10, session_id=session) for terms, session in asks]
    monkeypatch.setattr("pmemo.stores.postgres.turns.SCAN_ROWS", 1)
    assert [store.turns.lexical(owner(ALICE), terms, 10, session_id=session) for terms, session in asks] == small
    assert [len(found) for found in small] == [3, 1, 2]


def test_lexical_counts_a_term_given_twice_twice(store: Store):
    # two sessions: neither turn is the context of the other
    grandma, drawing = store.turns.add_turns([new(ALICE, "爷爷奶奶周末来吃饭", 0), new(ALICE_S2, "我们一起画画", 1)])
    once = [i for i, _ in store.turns.lexical(owner(ALICE), ["奶奶", "画画"], 10)]
    assert set(once) == {grandma.id, drawing.id}
    # a chat that comes back to grandma twice is about her: the query's term frequency
    for terms in (["奶奶", "画画", "奶奶"], ["奶奶", "画画", "奶奶", "奶奶"]):
        hits = store.turns.lexical(owner(ALICE), terms, 10)
        assert [i for i, _ in hits] == [grandma.id, drawing.id]
        assert hits[0][1] > hits[1][1]
    # and the other way round
    assert [i for i, _ in store.turns.lexical(owner(ALICE), ["画画", "奶奶", "画画"], 10)] == [drawing.id, grandma.id]


def test_lexical_terms_with_fts_syntax_are_literal(store: Store):
    (t,) = store.turns.add_turns([new(ALICE, 'He said "OR" AND NOT near(x) *star* -minus')])
    for term in ['"', "or", "and", "not", "near", "*", "star", "-", "minus", "(", "scope:"]:
        store.turns.lexical(owner(ALICE), [term], 10)  # never a syntax error
    assert [i for i, _ in store.turns.lexical(owner(ALICE), ["star"], 10)] == [t.id]


def test_reads_never_cross_scopes(store: Store):
    by_scope = {
        s: store.turns.add_turns([new(s, "预算 budget 10万元", 0), new(s, "second budget", 1)])
        for s in ALL_SCOPES
    }
    v = vec(1, 0, 0, 0)
    for s in ALL_SCOPES:
        ids = [t.id for t in by_scope[s]]
        cid = store.clusters.add_cluster(owner(s), v, ids, "label")
        store.summaries.add_summary(s, 1, 2, "budget summary", "extractive", ids)
        store.key_lines.add_key(owner(s), "budget key", "user", [])
        store.vectors.put_vectors("turn", [(i, s.key, v) for i in ids], "m")
        assert cid > 0
    for s in ALL_SCOPES:
        mine = {t.id for t in by_scope[s]}
        o = owner(s)
        assert {
            t.id
            for t in store.turns.list_turns(
                o, session_id=None, limit=100, offset=0, since=None, until=None
            )
        } == mine
        assert {t.id for t in store.turns.last_turns(o, "s1", 10)} == mine
        assert store.turns.turn_at(o, "s1", 1).id in mine
        assert set(store.turns.turn_ids(o)) == mine
        assert {i for i, _ in store.turns.lexical(o, ["预算", "budget"], 100)} == mine
        assert [x["turns"] for x in store.turns.sessions(o)] == [2]
        assert max_steps(store, o, ["s1"]) == {"s1": 2}
        assert [set(c.member_ids) for c in store.clusters.of_scope(o)] == [mine]
        assert len(store.clusters.centroids(o)[0]) == 1
        assert [set(x.source_ids) for x in store.summaries.of_scope(o)] == [mine]
        assert [set(x.source_ids) for x in store.summaries.of_scope(o, "s1")] == [mine]
        assert len(store.key_lines.keys(o)) == 1 and all(k.scope.key == s.key for k in store.key_lines.keys(o))
        assert all(c.scope.key == s.key for c in store.clusters.of_scope(o))
    assert {sk for _, sk, _ in store.vectors.scan_vectors("turn", "m")} == {s.key for s in ALL_SCOPES}


def test_delete_turns_removes_rows_fts_vectors_and_membership(store: Store):
    a, b = store.turns.add_turns([new(ALICE, "预算不能超过10万元"), new(ALICE, "预算上调到13万元")])
    store.vectors.put_vectors("turn", [(a.id, ALICE.key, vec(1, 0)), (b.id, ALICE.key, vec(0, 1))], "m")
    cid = store.clusters.add_cluster(owner(ALICE), vec(1, 1), [a.id, b.id], "budget")
    assert store.turns.delete_turns([a.id, 424242]) == 1
    assert store.turns.get_turns([a.id]) == {}
    assert [i for i, _ in store.turns.lexical(owner(ALICE), ["预算"], 10)] == [b.id]
    assert set(store.vectors.get_vectors("turn", [a.id, b.id])) == {b.id}
    assert store.clusters.get_cluster(cid).member_ids == (b.id,)
    assert store.turns.turn_ids(owner(ALICE)) == [b.id]
    # the next turn of the session still gets a fresh step
    (c,) = store.turns.add_turns([new(ALICE, "later")])
    assert c.step == 3


# ---- vectors and the embed cache --------------------------------------------------------
def test_vectors_put_get_scan_stale_delete(store: Store):
    a, b, c = store.turns.add_turns([new(ALICE, "a"), new(ALICE, "b"), new(BOB, "c")])
    store.vectors.put_vectors(
        "turn", [(a.id, ALICE.key, vec(1, 0, 0)), (b.id, ALICE.key, vec(0, 1, 0))], "old"
    )
    got = store.vectors.get_vectors("turn", [a.id, b.id, c.id])
    assert set(got) == {a.id, b.id}
    assert got[a.id].dtype == np.float32 and np.allclose(got[a.id], vec(1, 0, 0))
    assert sorted(store.vectors.stale_turns("old", 100)) == [c.id]
    assert sorted(store.vectors.stale_turns("new", 100)) == sorted([a.id, b.id, c.id])
    assert len(store.vectors.stale_turns("new", 2)) == 2
    # re-embedding with another model replaces the row and its model id
    store.vectors.put_vectors("turn", [(a.id, ALICE.key, vec(0, 0, 1, 0))], "new")
    assert np.allclose(store.vectors.get_vectors("turn", [a.id])[a.id], vec(0, 0, 1, 0))
    assert [r for r, _, _ in store.vectors.scan_vectors("turn", "new")] == [a.id]
    assert sorted(r for r, _, _ in store.vectors.scan_vectors("turn", "old")) == [b.id]
    assert list(store.vectors.scan_vectors("summary", "old")) == []
    # kinds are separate namespaces
    store.vectors.put_vectors("summary", [(a.id, ALICE.key, vec(1, 1))], "new")
    assert np.allclose(store.vectors.get_vectors("turn", [a.id])[a.id], vec(0, 0, 1, 0))
    store.vectors.delete_vectors("turn", [a.id, b.id])
    assert store.vectors.get_vectors("turn", [a.id, b.id]) == {}
    assert set(store.vectors.get_vectors("summary", [a.id])) == {a.id}


def test_embed_cache(store: Store):
    store.embed_cache.cache_put([("k1", vec(1, 2)), ("k2", vec(3, 4))])
    got = store.embed_cache.cache_get(["k1", "k2", "k3"])
    assert set(got) == {"k1", "k2"} and np.allclose(got["k2"], vec(3, 4))
    store.embed_cache.cache_put([("k1", vec(5, 6))])
    assert np.allclose(store.embed_cache.cache_get(["k1"])["k1"], vec(5, 6))
    store.embed_cache.cache_delete(["k1", "missing"])
    assert set(store.embed_cache.cache_get(["k1", "k2"])) == {"k2"}
    many = [(f"key{i}", vec(1, i)) for i in range(1200)]  # beyond one IN (...) chunk
    store.embed_cache.cache_put(many)
    assert len(store.embed_cache.cache_get([k for k, _ in many])) == 1200


# ---- clusters -----------------------------------------------------------------------------
def test_clusters_lifecycle_and_provenance(store: Store):
    a, b, c = store.turns.add_turns([new(ALICE, "a"), new(ALICE, "b"), new(ALICE, "c")])
    cid = store.clusters.add_cluster(owner(ALICE), vec(1, 0), [a.id], "label a")
    other = store.clusters.add_cluster(owner(ALICE), vec(0, 1), [c.id], "label c")
    cluster = store.clusters.get_cluster(cid)
    assert (cluster.size, cluster.hits, cluster.label, cluster.member_ids) == (
        1,
        0.0,
        "label a",
        (a.id,),
    )
    assert cluster.scope.key == ALICE.key
    found = store.clusters.centroids(owner(ALICE))
    ids, centroids = found[0], found[1]
    assert ids == [cid, other] and centroids.shape == (2, 2)
    if len(found) == 3:  # sizes, where the backend returns them
        assert list(found[2]) == [1, 1]
    store.clusters.save_cluster(cid, vec(1, 1), [a.id, b.id], "label ab")
    cluster = store.clusters.get_cluster(cid)
    assert (cluster.size, cluster.label, cluster.member_ids) == (2, "label ab", (a.id, b.id))
    assert np.allclose(store.clusters.centroids(owner(ALICE))[1][0], vec(1, 1))
    assert [x.id for x in store.clusters.clusters_with([b.id])] == [cid]
    assert {x.id for x in store.clusters.clusters_with([a.id, c.id])} == {cid, other}
    assert store.clusters.clusters_with([999]) == []
    store.clusters.delete_cluster(other)
    assert store.clusters.get_cluster(other) is None
    assert store.clusters.centroids(owner(ALICE))[0] == [cid]
    assert store.clusters.clusters_with([c.id]) == []
    assert [x.id for x in store.clusters.of_scope(owner(ALICE))] == [cid]
    assert store.clusters.centroids(owner(BOB))[0] == []


def test_nearest_clusters_by_centroid_in_their_scope(store: Store):
    (a, b, c, d) = store.turns.add_turns([new(ALICE, "a"), new(ALICE, "b"), new(ALICE, "c"), new(BOB, "d")])
    east = store.clusters.add_cluster(owner(ALICE), vec(1, 0), [a.id], "east")
    north = store.clusters.add_cluster(owner(ALICE), vec(0, 1), [b.id], "north")
    twin = store.clusters.add_cluster(owner(ALICE), vec(0, 1), [c.id], "north again")
    store.clusters.add_cluster(owner(BOB), vec(1, 0), [d.id], "bob's")
    found = store.clusters.nearest_clusters(owner(ALICE), vec(1, 3), 2)
    assert [i for i, _ in found] == [north, twin]  # equal centroids: the lower id first
    assert found[0][1] == pytest.approx(float(vec(1, 3) @ vec(0, 1)), abs=1e-6)
    assert [i for i, _ in store.clusters.nearest_clusters(owner(ALICE), vec(1, 0), 5)] == [east, north, twin]
    assert store.clusters.nearest_clusters(owner(ALICE), vec(1, 0), 0) == []
    assert store.clusters.nearest_clusters(owner(ALICE), vec(1, 0, 0), 5) == []  # another embedder's size
    assert store.clusters.nearest_clusters(Scope.of(user_id="nobody"), vec(1, 0), 5) == []


def test_join_cluster_and_cluster_of(store: Store):
    if not hasattr(store.clusters, "join_cluster"):
        pytest.skip("backend predates join_cluster / cluster_of")
    a, b, c = store.turns.add_turns([new(ALICE, "a"), new(ALICE, "b"), new(ALICE, "c")])
    cid = store.clusters.add_cluster(owner(ALICE), vec(1, 0), [a.id], "label a")
    assert store.clusters.join_cluster(cid, b.id, vec(1, 1), None) is True
    cluster = store.clusters.get_cluster(cid)
    assert (cluster.size, cluster.label, cluster.member_ids) == (2, "label a", (a.id, b.id))
    assert np.allclose(store.clusters.centroids(owner(ALICE))[1][0], vec(1, 1))
    store.clusters.join_cluster(cid, c.id, vec(1, 2), "new label")
    assert store.clusters.get_cluster(cid).label == "new label"
    assert [x.id for x in store.clusters.clusters_with([c.id])] == [cid]
    assert store.clusters.cluster_of([a.id, c.id, 999]) == {a.id: cid, c.id: cid}
    (d,) = store.turns.add_turns([new(ALICE, "d")])
    # a search reads each candidate's cluster with its ref (and with its neighbours' refs)
    refs = store.turns.turn_refs([a.id, d.id], radius=1, around=[b.id])
    assert {i: r.cluster for i, r in refs.items()} == {a.id: cid, b.id: cid, c.id: cid, d.id: None}
    store.clusters.delete_cluster(cid)  # gone meanwhile (another process): nothing is written, and it says so
    assert store.clusters.join_cluster(cid, d.id, vec(1, 3), None) is False
    assert store.clusters.cluster_of([d.id]) == {} and store.clusters.clusters_with([d.id]) == []


def test_cluster_hits_decay_and_promotion_flag(store: Store):
    (a,) = store.turns.add_turns([new(ALICE, "a")])
    cid = store.clusters.add_cluster(owner(ALICE), vec(1, 0), [a.id], "a")
    now, day = 1_700_000_000.0, 86_400.0
    halving = partial(decayed, half_life_s=day)  # the caller's policy: the store only applies it
    assert store.clusters.add_hits([cid], now, halving) == {cid: pytest.approx(1.0)}
    assert store.clusters.add_hits([cid], now, halving) == {cid: pytest.approx(2.0)}
    # 2 halves to 1, plus this hit
    assert store.clusters.add_hits([cid], now + day, halving) == {cid: pytest.approx(2.0)}
    assert store.clusters.add_hits([cid, 424242], now + 3 * day, halving) == {cid: pytest.approx(1.5)}
    assert store.clusters.get_cluster(cid).hits == pytest.approx(1.5)
    assert store.clusters.add_hits([424242], now, halving) == {}
    # the policy sees the stored count and the time since the last hit, and its answer is kept
    seen: list[tuple[float, float]] = []

    def recorded(hits: float, elapsed: float) -> float:
        seen.append((hits, elapsed))
        return 0.5

    assert store.clusters.add_hits([cid], now + 4 * day, recorded) == {cid: pytest.approx(1.5)}
    assert seen == [(pytest.approx(1.5), pytest.approx(day))]
    # busiest cluster first
    (b,) = store.turns.add_turns([new(ALICE, "b")])
    busy = store.clusters.add_cluster(owner(ALICE), vec(0, 1), [b.id], "b")
    for _ in range(5):
        store.clusters.add_hits([busy], now + 3 * day, halving)
    assert [x.id for x in store.clusters.of_scope(owner(ALICE))] == [busy, cid]
    assert not store.clusters.is_promoted(cid)
    store.clusters.mark_promoted(cid)
    assert store.clusters.is_promoted(cid) and not store.clusters.is_promoted(busy)
    assert not store.clusters.is_promoted(424242)


# ---- summaries ----------------------------------------------------------------------------
def test_summaries_lifecycle_and_provenance(store: Store):
    turns = store.turns.add_turns([new(ALICE, f"t{i}", i) for i in range(4)] + [new(ALICE_S2, "x", 9)])
    s1 = store.summaries.add_summary(
        ALICE, 1, 4, "预算10万元，4月15日上线", "extractive", [t.id for t in turns[:4]]
    )
    s2 = store.summaries.add_summary(ALICE_S2, 1, 1, "x", "llm", [turns[4].id])
    assert (s1.step_from, s1.step_to, s1.text, s1.method) == (
        1,
        4,
        "预算10万元，4月15日上线",
        "extractive",
    )
    assert s1.source_ids == tuple(t.id for t in turns[:4])
    assert s1.scope.session_id == "s1" and s2.scope.session_id == "s2"
    assert [s.id for s in store.summaries.of_scope(owner(ALICE))] == [s1.id, s2.id]
    assert [s.id for s in store.summaries.of_scope(owner(ALICE), "s2")] == [s2.id]
    assert store.summaries.get_summary(s1.id) == s1
    assert store.summaries.get_summaries([s2.id, 999_999, s1.id, s2.id]) == {s2.id: s2, s1.id: s1}
    assert store.summaries.get_summaries([]) == {}
    assert [s.id for s in store.summaries.summaries_with([turns[1].id])] == [s1.id]
    store.vectors.put_vectors("summary", [(s1.id, ALICE.key, vec(1, 0))], "m")
    store.summaries.update_summary(s1.id, "rebuilt", "llm", [turns[0].id])
    got = store.summaries.get_summary(s1.id)
    assert (got.text, got.method, got.source_ids) == ("rebuilt", "llm", (turns[0].id,))
    assert store.summaries.summaries_with([turns[1].id]) == []
    assert store.vectors.get_vectors("summary", [s1.id]) == {}  # a stale summary vector is dropped
    store.vectors.put_vectors("summary", [(s2.id, ALICE.key, vec(1, 0))], "m")
    store.summaries.delete_summary(s2.id)
    assert store.summaries.get_summary(s2.id) is None
    assert store.summaries.summaries_with([turns[4].id]) == []
    assert store.vectors.get_vectors("summary", [s2.id]) == {}


# ---- key memory ----------------------------------------------------------------------------
def test_key_lines_lifecycle_and_provenance(store: Store):
    a, b = store.turns.add_turns([new(ALICE, "a"), new(ALICE, "b")])
    promoted = store.key_lines.add_key(owner(ALICE), "promoted line", "promoted", [a.id, b.id])
    user = store.key_lines.add_key(owner(ALICE), "预算上限13万元", "user", [])
    assert [k.id for k in store.key_lines.keys(owner(ALICE))] == [user.id, promoted.id]  # user lines first
    assert [k.source_ids for k in store.key_lines.keys(owner(ALICE))] == [(), (a.id, b.id)]
    light = store.key_lines.keys(owner(ALICE), sources=False)
    assert [(k.id, k.text, k.source_ids) for k in light] == [(user.id, user.text, ()),
                                                              (promoted.id, promoted.text, ())]
    assert promoted.source_ids == (a.id, b.id) and promoted.origin == "promoted"
    assert user.source_ids == () and user.scope.key == ALICE.key
    assert store.key_lines.get_key(user.id) == user
    assert [k.id for k in store.key_lines.keys_with([b.id])] == [promoted.id]
    edited = store.key_lines.update_key(promoted.id, "edited by the user")
    assert (edited.text, edited.origin) == ("edited by the user", "user")
    assert edited.updated_at >= promoted.updated_at and edited.created_at == promoted.created_at
    store.key_lines.delete_key(promoted.id)
    assert store.key_lines.get_key(promoted.id) is None
    assert store.key_lines.keys_with([a.id, b.id]) == []
    assert [k.id for k in store.key_lines.keys(owner(ALICE))] == [user.id]
    assert store.key_lines.keys(owner(BOB)) == []


# ---- jobs ---------------------------------------------------------------------------------
def test_add_turns_enqueues_their_job_in_the_same_transaction(store: Store):
    assert store.jobs.pending() == 0
    turns = store.turns.add_turns([new(ALICE, "a"), new(ALICE, "b")])
    (job,) = store.jobs.claim(10)
    assert job.kind == "turns" and sorted(job.payload) == sorted(t.id for t in turns)
    store.jobs.finish(job.id)
    assert store.jobs.pending() == 0


def test_jobs_claim_finish_fail_requeue(store: Store):
    first = store.jobs.enqueue("promote", {"cluster_id": 1})
    second = store.jobs.enqueue("embed", [1, 2, 3])
    third = store.jobs.enqueue("promote", {"cluster_id": 2})
    assert store.jobs.pending() == 3
    claimed = store.jobs.claim(2)
    assert [(j.id, j.kind, j.payload, j.attempts) for j in claimed] == [
        (first, "promote", {"cluster_id": 1}, 1),
        (second, "embed", [1, 2, 3], 1),
    ]
    assert store.jobs.pending() == 3  # running jobs still count as pending work
    assert [j.id for j in store.jobs.claim(10)] == [third]  # a claimed job is not handed out twice
    assert store.jobs.claim(10) == []
    store.jobs.finish(first)
    store.jobs.fail(second, "boom", retry=True)
    store.jobs.fail(third, "bad payload", retry=False)
    assert store.jobs.pending() == 1
    assert store.stats()["failed_jobs"] == 1
    assert store.jobs.claim(10) == []  # a retry waits out its backoff (a second)
    give_up = time.monotonic() + 30
    while not (found := store.jobs.claim(10)) and time.monotonic() < give_up:
        time.sleep(0.05)
    (again,) = found
    assert (again.id, again.attempts) == (second, 2)
    assert store.jobs.requeue_running() == 1  # what a crashed process left running
    (again,) = store.jobs.claim(10)
    assert (again.id, again.attempts) == (second, 3)
    store.jobs.finish(second)
    assert store.jobs.pending() == 0 and store.jobs.requeue_running() == 0


def test_stats(store: Store):
    turns = store.turns.add_turns(
        [new(ALICE, "a"), new(ALICE_S2, "b"), new(BOB, "c"), new(OTHER_TENANT, "d")]
    )
    store.clusters.add_cluster(owner(ALICE), vec(1, 0), [turns[0].id], "a")
    store.summaries.add_summary(ALICE, 1, 1, "a", "extractive", [turns[0].id])
    store.key_lines.add_key(owner(BOB), "k", "user", [])
    stats = store.stats()
    assert {
        k: stats[k] for k in ("turns", "clusters", "summaries", "key_lines", "owners", "sessions")
    } == {"turns": 4, "clusters": 1, "summaries": 1, "key_lines": 1, "owners": 2, "sessions": 4}
    assert stats["pending_jobs"] == 1 and stats["failed_jobs"] == 0
    t2 = store.stats("t2")
    assert (t2["turns"], t2["owners"], t2["sessions"], t2["clusters"]) == (1, 1, 1, 0)
    assert store.stats("nobody")["turns"] == 0


def test_merge_clusters_moves_members_provenance_and_hits(store: Store):
    a, b, c = store.turns.add_turns([new(ALICE, "one"), new(ALICE, "two"), new(ALICE, "three")])
    keep = store.clusters.add_cluster(owner(ALICE), vec(1, 0), [a.id], "keep")
    gone = store.clusters.add_cluster(owner(ALICE), vec(0, 1), [b.id, c.id], "gone")
    store.clusters.add_hits([gone], 1000.0, partial(decayed, half_life_s=0.0))
    store.clusters.merge_clusters(keep, gone, vec(1, 1), None)
    merged = store.clusters.get_cluster(keep)
    assert store.clusters.get_cluster(gone) is None
    assert (merged.size, merged.label, merged.member_ids) == (3, "keep", (a.id, b.id, c.id))
    assert merged.hits == 1.0
    ids, centroids = store.clusters.centroids(owner(ALICE))[:2]
    assert ids == [keep] and np.allclose(centroids[0], vec(1, 1))
    assert store.clusters.cluster_of([b.id]) == {b.id: keep}
    assert [x.id for x in store.clusters.clusters_with([c.id])] == [keep]
    store.clusters.merge_clusters(keep, gone, vec(0, 1), "again")  # gone already (another process): nothing happens
    assert (store.clusters.get_cluster(keep).size, store.clusters.get_cluster(keep).label) == (3, "keep")
    assert np.allclose(store.clusters.centroids(owner(ALICE))[1][0], vec(1, 1))


def test_scope_vectors_reads_one_scope_of_one_model_by_id(store: Store):
    """What a scope's vector index is read back from (stores/sqlite/vector_cache.py)."""
    a, b, c, d = store.turns.add_turns([new(ALICE, "a"), new(ALICE, "b"), new(BOB, "c"), new(ALICE, "d")])
    store.vectors.put_vectors("turn", [(d.id, ALICE.key, vec(0, 0, 1)), (a.id, ALICE.key, vec(1, 0, 0)),
                               (c.id, BOB.key, vec(0, 1, 0))], "m")
    store.vectors.put_vectors("turn", [(b.id, ALICE.key, vec(0, 1, 0))], "old")
    ids, rows = store.vectors.scope_vectors("turn", ALICE.key, "m")
    assert ids.dtype == np.int64 and rows.dtype == np.float32 and rows.flags.writeable
    assert ids.tolist() == [a.id, d.id]
    assert np.allclose(rows, [vec(1, 0, 0), vec(0, 0, 1)])
    assert store.vectors.scope_vectors("summary", ALICE.key, "m")[0].tolist() == []
    ids, rows = store.vectors.scope_vectors("turn", "nobody", "m")
    assert len(ids) == 0 and len(rows) == 0
