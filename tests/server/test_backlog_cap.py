"""The cap on a tenant's turns waiting for the background (PMEMO_MAX_PENDING_TURNS) on the real
app: past it, 429 with Retry-After and a problem body naming the setting, nothing of the refused
request stored, another tenant untouched; once the worker catches up, writes are taken again.

``run_jobs=False`` keeps the queue as it is (nothing digests it in this process), so the
backlog is exactly the turns written; the library test at the end lets the worker drain it.
"""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from pmemo import Memory, Settings, errors
from pmemo.server import KeyStore

from .test_limits import contents, http, refused, serving, turn


async def test_a_flood_past_the_cap_gets_429_with_retry_after(tmp_path: Path, keys: KeyStore, key: str,
                                                              other_key: str) -> None:
    async with serving(tmp_path, keys, max_pending_turns=5, run_jobs=False) as (memory, app), \
            http(app, key) as h, http(app, other_key) as other:
        r = await h.post("/v1/turns", json={"turns": [turn(f"t{i}") for i in range(4)]})
        assert r.status_code == 201, r.text
        r = await h.post("/v1/turns", json={"turns": [turn("x1"), turn("x2")]})
        body = refused(r, 429, "PMEMO_MAX_PENDING_TURNS")
        assert body["code"] == "backlog_full" and body["limit"] == 5
        assert 1 <= int(r.headers["Retry-After"]) <= 60
        assert "nothing was stored" in body["detail"]
        assert await contents(memory, "t1") == ["t0", "t1", "t2", "t3"]  # the refused two are not there
        assert await memory.pending(tenant_id="t1") == 1  # and queued nothing: one job, the first batch's
        r = await h.post("/v1/turns", json=turn("one more fits"))
        assert r.status_code == 201, r.text  # 4 + 1 = 5: at the cap, not past it
        assert (await h.post("/v1/turns", json=turn("past it"))).status_code == 429
        # another tenant's writes do not wait on t1's backlog
        assert (await other.post("/v1/turns", json=turn("hello"))).status_code == 201
        assert await contents(memory, "t2") == ["hello"]


async def test_an_idempotent_retry_of_a_stored_write_is_not_refused(tmp_path: Path, keys: KeyStore,
                                                                    key: str) -> None:
    """A retry after a lost reply replays what the first call stored, whatever the backlog now."""
    async with serving(tmp_path, keys, max_pending_turns=2, run_jobs=False) as (memory, app), http(app, key) as h:
        once = {"Idempotency-Key": "msg-1"}
        first = await h.post("/v1/turns", json={"turns": [turn("a"), turn("b")]}, headers=once)
        assert first.status_code == 201, first.text
        assert (await h.post("/v1/turns", json=turn("c"))).status_code == 429
        again = await h.post("/v1/turns", json={"turns": [turn("a"), turn("b")]}, headers=once)
        assert again.status_code in (200, 201) and again.json()["turns"] == first.json()["turns"]
        assert await contents(memory, "t1") == ["a", "b"]


async def test_the_library_refuses_then_takes_writes_once_the_worker_caught_up(tmp_path: Path) -> None:
    """``Memory.add`` itself refuses (every adapter honours it): a BacklogFull, a RateLimited that
    names the setting; a batch into an empty backlog is taken whatever its size; after drain()
    the backlog is empty and writes go in again."""
    memory = await Memory.open(tmp_path / "m", settings=Settings(max_pending_turns=10), embedder="hashing")
    try:
        async with memory._worker.exclusive():  # the worker holds off: the backlog stays as written
            await memory.add_many([turn(f"m{i}") for i in range(25)])  # over the cap: taken
            with pytest.raises(errors.BacklogFull, match="PMEMO_MAX_PENDING_TURNS") as caught:
                await memory.add(content="one more", user_id="alice", session_id="s1")
            assert isinstance(caught.value, errors.RateLimited) and caught.value.retry_after >= 1
            assert (caught.value.setting, caught.value.limit) == ("PMEMO_MAX_PENDING_TURNS", 10)
            await memory.add(content="another tenant", tenant_id="t2", user_id="alice", session_id="s1")
        await memory.drain()
        await memory.add(content="one more", user_id="alice", session_id="s1")
        assert len(await memory.turns(user_id="alice")) == 26
    finally:
        await memory.close()


def test_the_cap_is_off_at_zero() -> None:
    from pmemo.backlog import check

    check("t1", 10**9, 10**9, Settings(max_pending_turns=0))
    check("t1", 0, 10**9, Settings(max_pending_turns=1))  # nothing waiting: any batch goes in
    with pytest.raises(errors.BacklogFull):
        check("t1", 1, 1, Settings(max_pending_turns=1))


def test_the_remote_client_knows_a_full_backlog() -> None:
    """The CLI's client maps the problem code back to the error (its one table)."""
    from pmemo.cli.remote import error_of

    response = httpx.Response(429, json={"code": "backlog_full", "detail": "tenant 't1' has …"},
                              headers={"Retry-After": "7"})
    assert isinstance(error_of(response), errors.BacklogFull)
