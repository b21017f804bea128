"""Issue 18, what held, on the real server: kill -9 during batch ingest, N times, with every
acknowledged turn found after each restart and a retried batch (same Idempotency-Key) never
stored twice; and eight concurrent writers into one session."""

from __future__ import annotations

import asyncio
import signal
import threading
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

from pmemo import SyncMemory
from pmemo.server import SQLiteKeyStore

from .live import LiveServer, free_port
from .test_serve import start

KILLS = 5
BATCH = 20


def _batch(n: int) -> dict[str, Any]:
    return {"turns": [{"user_id": "crash", "session_id": "s", "content": f"batch {n} turn {k}"} for k in range(BATCH)]}


def _kill(proc: Any, stop: threading.Event) -> None:
    stop.set()
    proc.send_signal(signal.SIGKILL)


def test_kill_9_during_batch_ingest_loses_no_acknowledged_turn(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setenv("PMEMO_RATE_LIMIT", "off")
    data = tmp_path / "data"
    keys = SQLiteKeyStore.in_dir(data)
    key = keys.create_key("t1")
    keys.close()
    acknowledged: dict[int, str] = {}
    sent = 0  # batches whose content was sent at least once
    for round_ in range(KILLS + 1):
        port = free_port()
        proc, _ = start(data, port, "--sweep-every", "0")
        client = httpx.Client(base_url=f"http://127.0.0.1:{port}", headers={"Authorization": f"Bearer {key}"})
        stop = threading.Event()
        first = n = sent
        last = first + 3  # the last round sends three more batches and stops
        try:
            while not stop.is_set() and (round_ < KILLS or n < last):
                # the batch a kill may have cut off is sent again first, with the same key
                reply = client.post("/v1/turns", json=_batch(n), headers={"Idempotency-Key": f"batch-{n}"})
                assert reply.status_code == 201, reply.text
                for t in reply.json()["turns"]:
                    assert acknowledged.setdefault(t["id"], t["content"]) == t["content"]
                if n == first and round_ < KILLS:
                    # kill while requests are in flight, a little later each round; timed from the
                    # round's first acknowledged batch so a slow start cannot make a round empty
                    threading.Timer(0.1 + 0.1 * round_, _kill, (proc, stop)).start()
                n += 1
                sent = n
        except httpx.TransportError:
            pass  # the reply was lost: the next round retries batch ``n``
        finally:
            client.close()
        if round_ < KILLS:
            assert proc.wait(30) == -signal.SIGKILL
        else:
            proc.send_signal(signal.SIGINT)
            assert proc.wait(30) == 0
    assert sent >= KILLS, "too few batches were acknowledged to mean anything"
    with SyncMemory.open(data, embedder="hashing") as m:
        stored = m.turns(user_id="crash", tenant_id="t1", limit=10_000)
    by_id = {t.id: t.content for t in stored}
    assert all(by_id.get(i) == c for i, c in acknowledged.items())  # every acknowledged turn is there
    counts = Counter(t.content for t in stored)
    assert max(counts.values()) == 1, "a retried batch was stored twice"
    assert {f"batch {n} turn {k}" for n in range(sent) for k in range(BATCH)} <= set(counts)
    assert [t.step for t in stored] == list(range(1, len(stored) + 1))  # no holes, no half batches


async def test_eight_concurrent_writers_into_one_session(live: LiveServer) -> None:
    writers, each = 8, 12
    user = f"writers-{uuid.uuid4().hex[:6]}"

    async def writer(w: int, c: httpx.AsyncClient) -> list[int]:
        ids = []
        for i in range(each):
            if i % 3 == 0:  # singles and batches, interleaved
                r = await c.post("/v1/turns", json={"user_id": user, "session_id": "s", "content": f"w{w} m{i}"})
                ids.append(r.json()["id"])
            else:
                r = await c.post(
                    "/v1/turns",
                    json={"turns": [{"user_id": user, "session_id": "s", "content": f"w{w} m{i} part {k}"}
                                    for k in range(2)]},
                )
                ids += [t["id"] for t in r.json()["turns"]]
            assert r.status_code == 201, r.text
        return ids

    started = time.monotonic()
    async with httpx.AsyncClient(base_url=live.url, headers={"Authorization": f"Bearer {live.key}"},
                                 timeout=60) as c:
        results = await asyncio.gather(*(writer(w, c) for w in range(writers)))
        listed = (await c.get("/v1/turns", params={"user_id": user, "session_id": "s", "limit": 1000})).json()
    assert time.monotonic() - started < 300  # a hang guard, not a timing claim
    ids = [i for r in results for i in r]
    assert len(ids) == len(set(ids)) == writers * (each // 3 + 2 * (each - each // 3))
    turns = listed["turns"]
    assert sorted(t["id"] for t in turns) == sorted(ids)
    assert sorted(t["step"] for t in turns) == list(range(1, len(ids) + 1))  # one step each, no gaps
    for w in range(writers):  # each writer's own turns in the order it wrote them
        mine = [t for t in sorted(turns, key=lambda t: t["step"]) if t["content"].startswith(f"w{w} ")]
        assert [t["id"] for t in mine] == sorted(t["id"] for t in mine)
