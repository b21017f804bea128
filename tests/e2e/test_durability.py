"""Restart, unfinished jobs, model change and a hard kill in the middle of a batch."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np

from pmemo import SyncMemory
from pmemo.embedders.hashing import HashingEmbedder
from pmemo.stores.sqlite.store import SQLiteStore

TEXTS = [
    "项目总预算不能超过10万元人民币。",
    "The launch date is Monday April 15.",
    "Lucky cannot eat grapes or chocolate.",
    "去杭州出差是3月20日到22日。",
    "The payment service double-charges users.",
    "后端岗位决定录用小陈。",
    "预算上调到13万元。",
    "The train to Hangzhou leaves at 8:05.",
]


def fill(m: SyncMemory, n: int = 8) -> list:
    return [
        m.add(
            user_id="u1",
            session_id="s1",
            content=TEXTS[i % len(TEXTS)] + f" #{i}",
            metadata={"msg_id": str(i)},
        )
        for i in range(n)
    ]


def snapshot(m: SyncMemory) -> tuple:
    return (
        m.turns(user_id="u1"),
        m.summaries(user_id="u1"),
        m.clusters(user_id="u1"),
        m.key_memory(user_id="u1"),
        m.stats(),
    )


def test_restart_keeps_everything(tmp_path, small_settings):
    with SyncMemory.open(tmp_path, embedder="hashing", settings=small_settings) as m:
        turns = fill(m)
        m.drain()
        m.add_key("预算上限13万元", user_id="u1")
        hits_before = [h.id for h in m.search("杭州出差", user_id="u1") if h.kind == "turn"]
        m.drain()
        before = snapshot(m)
    with SyncMemory.open(tmp_path, embedder="hashing", settings=small_settings) as m:
        after = snapshot(m)
        assert after == before
        assert [t.id for t in after[0]] == [t.id for t in turns]
        assert before[1] and before[2] and before[3]
        # the vector index is rebuilt on open: the same hits come back
        # (searching counts cluster hits and may promote a key line, so compare the turn hits)
        assert [h.id for h in m.search("杭州出差", user_id="u1") if h.kind == "turn"] == hits_before
        assert m.add(user_id="u1", session_id="s1", content="after restart").step == 9


def test_unfinished_jobs_run_after_reopen(tmp_path, small_settings):
    with SyncMemory.open(tmp_path, embedder="hashing", settings=small_settings) as m:
        turns = fill(m)
        m.drain()
    # simulate a crash with jobs queued and one left running
    store = SQLiteStore.open(tmp_path)
    store.vectors.delete_vectors("turn", [t.id for t in turns[-4:]])
    store.turns.add_turns([])  # an empty batch still leaves a (harmless) job
    job = store.jobs.enqueue("embed", [t.id for t in turns[-4:]])
    assert [j.id for j in store.jobs.claim(100)][-1] == job  # now 'running', as if the process died
    store.close()
    with SyncMemory.open(tmp_path, embedder="hashing", settings=small_settings) as m:
        m.drain(timeout=60)
        store = m._memory._store
        assert store.jobs.pending() == 0 and store.stats()["failed_jobs"] == 0
        assert set(store.vectors.get_vectors("turn", [t.id for t in turns])) == {t.id for t in turns}
        assert m.search("grapes chocolate", user_id="u1")[0].sources[0].id == turns[2].id


def test_jobs_queued_at_close_are_processed_next_time(tmp_path, small_settings):
    # close() right after add: the job may be queued, in flight or done; each round must
    # end with exactly one summary per span (repeated because the timing varies)
    for round_ in range(6):
        path = tmp_path / str(round_)
        m = SyncMemory.open(path, embedder="hashing", settings=small_settings)
        turns = m.add_many([{"user_id": "u1", "session_id": "s1", "content": t} for t in TEXTS])
        m.close()  # no drain
        with SyncMemory.open(path, embedder="hashing", settings=small_settings) as m:
            m.drain(timeout=60)
            spans = [(s.step_from, s.step_to) for s in m.summaries(user_id="u1")]
            assert spans == [(1, 4), (5, 8)], f"round {round_}: {spans}"
            vectors = m._memory._store.vectors.get_vectors("turn", [t.id for t in turns])
            assert len(vectors) == len(turns)
            members = [i for c in m.clusters(user_id="u1") for i in c.member_ids]
            assert len(members) == len(set(members))


def test_a_turns_job_rerun_after_a_crash_is_idempotent(tmp_path, small_settings):
    # a crash after the job's work was written but before it was marked done: on reopen the
    # job runs again and must not duplicate summaries or clusters
    with SyncMemory.open(tmp_path, embedder="hashing", settings=small_settings) as m:
        turns = fill(m)
        m.drain()
        before = (m.summaries(user_id="u1"), m.clusters(user_id="u1"))
    store = SQLiteStore.open(tmp_path)
    store.jobs.enqueue("turns", [t.id for t in turns])
    store.jobs.claim(10)  # left 'running' by the "crashed" process
    store.close()
    with SyncMemory.open(tmp_path, embedder="hashing", settings=small_settings) as m:
        m.drain(timeout=60)
        spans = [(s.step_from, s.step_to) for s in m.summaries(user_id="u1")]
        assert spans == [(s.step_from, s.step_to) for s in before[0]]
        assert sorted(i for c in m.clusters(user_id="u1") for i in c.member_ids) == sorted(
            i for c in before[1] for i in c.member_ids
        )


def test_model_change_triggers_reembedding(tmp_path, small_settings):
    with SyncMemory.open(tmp_path, embedder="hashing", settings=small_settings) as m:
        turns = fill(m)
        m.drain()
    with SyncMemory.open(tmp_path, embedder=HashingEmbedder(dim=128), settings=small_settings) as m:
        m.drain(timeout=60)
        store = m._memory._store
        models = {r: sk for r, sk, _ in store.vectors.scan_vectors("turn", "hashing-128")}
        assert set(models) == {t.id for t in turns}
        assert list(store.vectors.scan_vectors("turn", "hashing-256")) == []
        assert all(
            v.shape == (128,) for v in store.vectors.get_vectors("turn", [t.id for t in turns]).values()
        )
        assert store.vectors.stale_turns("hashing-128", 10) == []
        # everything derived from vectors must be usable with the new model too
        hits = m.search("grapes chocolate", user_id="u1")
        assert hits[0].sources[0].id == turns[2].id
        more = fill(m, 3)
        m.drain(timeout=60)
        assert store.stats()["failed_jobs"] == 0
        assert all(c.member_ids for c in m.clusters(user_id="u1"))
        _, centroids, _sizes = store.clusters.centroids(turns[0].scope.owner_scope())
        assert centroids.shape[1] == 128
        assert all(
            v.shape == (128,)
            for v in store.vectors.get_vectors(
                "summary", [s.id for s in m.summaries(user_id="u1")]
            ).values()
        )
        assert more[0].id in {t.id for t in m.turns(user_id="u1")}


CHILD = textwrap.dedent("""
    import sys
    from pmemo import SyncMemory
    m = SyncMemory.open(sys.argv[1], embedder="hashing")
    i = 0
    while True:
        batch = [{"user_id": "u1", "session_id": "s1", "content": f"turn {i + k} 预算 budget",
                  "metadata": {"n": i + k}} for k in range(5)]
        for turn in m.add_many(batch):
            print(turn.id, turn.content, sep="\\t", flush=True)
        t = m.add(user_id="u1", session_id="s1", content=f"single {i}")
        print(t.id, t.content, sep="\\t", flush=True)
        i += 5
""")


def test_sigkill_mid_batch_loses_no_acknowledged_turn(tmp_path):
    data = tmp_path / "data"
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(data)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    acknowledged: dict[int, str] = {}
    try:
        deadline = time.monotonic() + 120  # a safety net, not a timing assertion
        while len(acknowledged) < 150 and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            turn_id, content = line.rstrip("\n").split("\t")
            acknowledged[int(turn_id)] = content
        proc.send_signal(signal.SIGKILL)
        rest, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    for line in rest.splitlines():  # acknowledged before the kill landed
        if line.count("\t") == 1:
            turn_id, content = line.split("\t")
            acknowledged[int(turn_id)] = content
    assert proc.returncode == -signal.SIGKILL
    assert len(acknowledged) >= 150, err
    with SyncMemory.open(data, embedder="hashing") as m:
        stored = {t.id: t.content for t in m.turns(user_id="u1", limit=10_000)}
        for turn_id, content in acknowledged.items():
            assert stored.get(turn_id) == content
        steps = [t.step for t in m.turns(user_id="u1", session_id="s1", limit=10_000)]
        assert steps == list(range(1, len(steps) + 1))  # no holes, no half batches
        m.drain(timeout=120)
        assert m.search("budget", user_id="u1")
        assert np.all([m._memory._store.stats()["failed_jobs"] == 0])
