"""Forget, restore and the background across processes: the store's locks (``store.locks.hold``)
keep them from interleaving on one owner.

On PostgreSQL the other side is a real second process (``python -c``) on the same database: a
test sees it wait in ``pg_locks`` and checks that it has changed nothing meanwhile, then lets
go and reads what it did. On SQLite a second process cannot open the data directory at all
while the first has it open. No assertion reads a clock: the order is what the store shows
at each point.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np

from pmemo import Conflict, Settings, SyncMemory
from pmemo.embedders.hashing import HashingEmbedder

SECOND = r"""
import json, sys
from pmemo import Conflict, Settings, StoreLocked, SyncMemory
target, data, action, arg = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
settings = Settings(run_jobs=False, data=data)
try:
    if target.startswith("postgresql"):
        mem = SyncMemory.open(settings=settings.replace(store=target), embedder="hashing")
    else:
        mem = SyncMemory.open(target, settings=settings, embedder="hashing")
except StoreLocked as exc:
    print(json.dumps({"error": "StoreLocked", "message": str(exc)}))
    sys.exit(0)
try:
    done = mem.forget(arg) if action == "forget" else mem.restore(arg)
    print(json.dumps({"ok": done}, default=str))
except Conflict as exc:
    print(json.dumps({"error": "Conflict", "message": str(exc)}))
finally:
    mem.close()
"""
WAIT_S = 120  # the longest a test waits for a process to get somewhere before it fails


def second(target: str, data: Path, action: str, arg: Any) -> subprocess.Popen[str]:
    """Another process that opens the store and runs ``forget(arg)`` or ``restore(arg)``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PMEMO_")}
    return subprocess.Popen([sys.executable, "-c", SECOND, target, str(data), action, json.dumps(arg)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def result(proc: subprocess.Popen[str]) -> dict[str, Any]:
    out, err = proc.communicate(timeout=WAIT_S)
    assert proc.returncode == 0, err
    return json.loads(out.strip().splitlines()[-1])  # type: ignore[no-any-return]


def waiting(url: str, count: int, procs: list[subprocess.Popen[str]]) -> None:
    """Until ``count`` sessions wait for an advisory lock (the other processes reached it)."""
    import psycopg

    deadline = time.monotonic() + WAIT_S  # a bound on a hung test, not a timing assert
    with psycopg.connect(url, autocommit=True) as conn:
        while True:
            row = conn.execute("SELECT COUNT(*) FROM pg_locks WHERE locktype='advisory' AND NOT granted").fetchone()
            if row and row[0] >= count:
                return
            for proc in procs:
                assert proc.poll() is None, f"it ended without waiting: {proc.communicate()}"
            assert time.monotonic() < deadline, "the other process never reached the lock"
            time.sleep(0.05)


def open_memory(target: str, data: Path, run_jobs: bool = False, **kwargs: Any) -> SyncMemory:
    settings = Settings(run_jobs=run_jobs, data=str(data))
    if target.startswith("postgresql"):
        return SyncMemory.open(settings=settings.replace(store=target), **kwargs)
    return SyncMemory.open(target, settings=settings, **kwargs)


def said(mem: SyncMemory, n: int = 3) -> list[int]:
    return [mem.add(user_id="ann", session_id="s", content=f"my locker code is {n}{k}{k}").id for k in range(n)]


class Gated(HashingEmbedder):
    """The hashing embedder, held at its next call (``gate`` closed) until the test opens it."""

    def __init__(self) -> None:
        super().__init__()
        self.gate, self.inside = threading.Event(), threading.Event()
        self.gate.set()

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        self.inside.set()
        assert self.gate.wait(WAIT_S)
        return super().embed_passages(texts)


def test_a_forget_in_another_process_waits_for_the_batch_embedding_its_turns(postgres_url: str, tmp_path: Path):
    embedder = Gated()
    mem = open_memory(postgres_url, tmp_path / "a", run_jobs=True, embedder=embedder)
    try:
        embedder.gate.clear()
        ids = said(mem)
        # the background takes the batch, holding ann (shared), and stops in it: turns read,
        # their vectors not written yet
        assert embedder.inside.wait(WAIT_S)
        forget = second(postgres_url, tmp_path / "b", "forget", ids)
        waiting(postgres_url, 1, [forget])
        assert [t.id for t in mem.turns(user_id="ann")] == ids  # it waits: nothing forgotten yet
        embedder.gate.set()
        done = result(forget)
        assert done["ok"]["turns"] == ids and done["ok"]["mode"] == "soft"
        # the forget ran after the batch: the vectors the batch wrote went with the turns
        assert mem.turns(user_id="ann") == [] and mem._store.vectors.get_vectors("turn", ids) == {}
        assert mem.search("locker code", user_id="ann") == []
    finally:
        embedder.gate.set()
        mem.close()


def test_two_processes_restoring_one_batch_one_wins_and_the_other_gets_conflict(postgres_url: str, tmp_path: Path):
    mem = open_memory(postgres_url, tmp_path / "a", embedder="hashing")
    try:
        ids = said(mem)
        owner = mem.get_turn(ids[0]).scope.key
        batch = mem.forget(ids)["batch"]
        with mem._store.locks.hold([owner], shared=True):  # as a batch of the background would
            procs = [second(postgres_url, tmp_path / f"r{n}", "restore", batch) for n in range(2)]
            waiting(postgres_url, 2, procs)  # both wait: they start together once it lets go
        outcomes = [result(p) for p in procs]
        won = [o["ok"] for o in outcomes if "ok" in o]
        lost = [o for o in outcomes if o.get("error") == "Conflict"]
        assert len(won) == 1 and len(lost) == 1, outcomes
        assert won[0]["turns"] == ids and "is restored" in lost[0]["message"]
        assert [t.id for t in mem.turns(user_id="ann")] == ids  # each turn back once
        restores = [line for line in mem.forget_log(batch=batch) if line["action"] == "restore"]
        assert sorted(line["ref"] for line in restores if line["kind"] == "turn") == ids
    finally:
        mem.close()


def test_restoring_one_batch_from_two_threads_at_once(tmp_path: Path):
    """SQLite: one process, its threads kept apart by the same holds (the directory keeps others out)."""
    mem = open_memory(str(tmp_path / "data"), tmp_path / "unused", embedder="hashing")
    try:
        ids = said(mem)
        owner = mem.get_turn(ids[0]).scope.key
        batch = mem.forget(ids)["batch"]
        forgetter, outcomes = mem._forgetter, list[Any]()

        def restore() -> None:
            try:
                outcomes.append(forgetter.restore(batch))
            except Conflict as exc:
                outcomes.append(exc)

        with mem._store.locks.hold([owner], shared=True):
            threads = [threading.Thread(target=restore) for _ in range(2)]
            for t in threads:
                t.start()
            threads[0].join(0.3)  # time for both to reach the lock (a wait, not a timing assert)
            assert outcomes == []
        for t in threads:
            t.join(WAIT_S)
        assert sorted(type(o).__name__ for o in outcomes) == ["Conflict", "dict"]
        assert [t.id for t in mem.turns(user_id="ann")] == ids
    finally:
        mem.close()


def test_a_second_process_cannot_forget_in_a_sqlite_directory_the_first_holds(tmp_path: Path):
    from pmemo.stores.sqlite.store import SQLiteStore

    data = tmp_path / "data"
    mem = open_memory(str(data), tmp_path / "unused", embedder="hashing")
    ids = said(mem)
    owner = mem.get_turn(ids[0]).scope.key
    mem.close()
    first = SQLiteStore.open(data)
    try:
        with first.locks.hold([owner], shared=True):
            kept_out = result(second(str(data), tmp_path / "b", "forget", ids))
            assert kept_out["error"] == "StoreLocked" and "in use by another pmemo process" in kept_out["message"]
            assert sorted(first.turns.get_turns(ids)) == ids
    finally:
        first.close()
    done = result(second(str(data), tmp_path / "b", "forget", ids))  # once it is closed, it may
    assert done["ok"]["turns"] == ids
