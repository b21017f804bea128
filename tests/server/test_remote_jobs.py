"""``pmemo jobs`` beside a running server: the CLI's remote client lists the tenant's failed
jobs as the library does (``updated`` in epoch seconds) and queues them again over REST, so the
command works on the store and beside the server that holds it alike (``api.CliAPI``)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pmemo import Settings
from pmemo.cli.main import _register, app
from pmemo.cli.remote import RemoteMemory
from pmemo.stores import base

from .live import LiveServer
from .test_jobs_routes import Outage


def until(check: Callable[[], Any], timeout: float = 60) -> Any:
    end = time.monotonic() + timeout
    while not (found := check()):
        assert time.monotonic() < end, "the job did not fail for good in time"
        time.sleep(0.05)
    return found


def test_pmemo_jobs_lists_and_retries_beside_a_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(base, "BACKOFF_BASE_S", 0.01)  # the server runs in this process: its tries come quick
    outage = Outage()
    # no diary: past its hour the day's entry would be one more job the outage fails
    live = LiveServer(tmp_path, embedder=outage, settings=Settings(diary_enabled=False)).start()  # type: ignore[arg-type]
    try:
        with RemoteMemory.connect(live.url, live.key, Settings()) as mem:
            turn = mem.add(user_id="alice", session_id="s", content="the budget is 100k")
            (job,) = until(mem.failed_jobs)
            assert (job["kind"], job["payload"], job["attempts"]) == ("turns", [turn.id], 3)
            assert job["error"] == "ConnectionError: embedding service down"
            assert abs(job["updated"] - time.time()) < 3600  # epoch seconds, as the library gives them
            assert mem.failed_jobs(agent_id="bot2") == [] and mem.retry_jobs([job["id"] + 1000]) == 0

        monkeypatch.setenv("PMEMO_URL", live.url)
        monkeypatch.setenv("PMEMO_API_KEY", live.key)
        _register()
        args = ["--data", str(tmp_path / "cli")]  # the server holds the memory: no store here
        listed = CliRunner().invoke(app, ["jobs", "failed", "--json", *args])
        assert listed.exit_code == 0, listed.output
        assert json.loads(listed.output) == [job]
        outage.down = False
        retried = CliRunner().invoke(app, ["jobs", "retry", *args])
        assert retried.exit_code == 0, retried.output
        assert "queued 1 failed job(s) again" in retried.output
        with RemoteMemory.connect(live.url, live.key, Settings()) as mem:
            mem.drain(timeout=60)
            assert mem.failed_jobs() == [] and mem.stats()["failed_jobs"] == 0
    finally:
        live.stop()
