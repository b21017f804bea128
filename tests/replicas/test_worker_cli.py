"""``pmemo worker`` on a SQLite data directory, which belongs to one process: refused, with a
message that says so, while another holds it; run alone, it does the queued jobs and stops
cleanly on SIGTERM."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

from pmemo import Settings, SyncMemory

from .procs import PMEMO, worker


def env() -> dict[str, str]:
    return {**{k: v for k, v in os.environ.items() if not k.startswith("PMEMO_")}, "PMEMO_EMBEDDER": "hashing"}


def test_a_held_sqlite_directory_is_refused(tmp_path: Path) -> None:
    with SyncMemory.open(tmp_path / "data", embedder="hashing"):
        done = subprocess.run([str(PMEMO), "worker", "--data", str(tmp_path / "data")], capture_output=True,
                              text=True, env=env(), timeout=120)
    assert done.returncode == 4, done.stderr
    assert "belongs to one process" in done.stderr and "PMEMO_STORE=postgresql://" in done.stderr
    assert "Traceback" not in done.stderr


def test_alone_on_sqlite_it_runs_the_queued_jobs_until_sigterm(tmp_path: Path) -> None:
    queued = Settings(run_jobs=False)
    with SyncMemory.open(tmp_path / "data", embedder="hashing", settings=queued) as m:
        m.add_many([{"user_id": "u1", "session_id": "s1", "content": f"turn {n} about the budget"} for n in range(5)])
        assert m.pending() == 1  # nothing here runs it
    proc = worker("worker", {**env(), "PMEMO_DATA": str(tmp_path / "data")})
    assert any("no other process opens it" in line for line in proc.err)
    time.sleep(3)  # it polls the queue every second
    assert proc.stop(signal.SIGTERM) == 0, proc.log()
    with SyncMemory.open(tmp_path / "data", embedder="hashing", settings=queued) as m:
        assert m.pending() == 0 and m.search("budget", user_id="u1")
