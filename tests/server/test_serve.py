"""``pmemo serve`` as a person runs it: first start, the printed URLs, Ctrl-C, a restart."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

from pmemo.cli.serve_cmd import sample_turns

from .live import free_port


def start(data: Path, port: int) -> tuple[subprocess.Popen[str], list[str]]:
    pmemo = Path(sys.executable).with_name("pmemo")
    env = {**os.environ, "PMEMO_EMBEDDER": "hashing"}
    proc = subprocess.Popen(
        [str(pmemo), "serve", "--data", str(data), "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    lines: list[str] = []
    assert proc.stdout is not None
    while not any(line.startswith("MCP:") for line in lines):
        line = proc.stdout.readline()
        if not line:
            raise AssertionError(f"serve exited early: {proc.stderr.read() if proc.stderr else ''}")
        lines.append(line.strip())
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc, lines
        except httpx.HTTPError:
            time.sleep(0.1)
    raise AssertionError("server did not answer")


def stop(proc: subprocess.Popen[str], sig: int = signal.SIGINT) -> int:
    proc.send_signal(sig)  # SIGINT is what Ctrl-C sends; SIGTERM what systemd/docker send
    return proc.wait(30)


def test_serve_first_start_ctrl_c_and_restart(tmp_path: Path) -> None:
    data, port = tmp_path / "data", free_port()
    proc, lines = start(data, port)
    try:
        page = next(line for line in lines if line.startswith("Inspector:"))
        key = re.search(r"#key=(\S+)", page).group(1)  # type: ignore[union-attr]
        assert any(line.endswith(f"127.0.0.1:{port}/docs") for line in lines)
        base = f"http://127.0.0.1:{port}"
        assert httpx.get(f"{base}/").status_code == 200
        assert httpx.get(f"{base}/docs").status_code == 200
        r = httpx.get(f"{base}/v1/stats", headers={"Authorization": f"Bearer {key}"})
        assert r.json()["tenant"] == "demo"
        assert r.json()["stats"]["turns"] == len(sample_turns())
    finally:
        assert stop(proc) == 0
    assert "Traceback" not in (proc.stderr.read() if proc.stderr else "")

    proc, lines = start(data, port)  # a restart finds everything again
    try:
        assert f"#key={key}" in next(line for line in lines if line.startswith("Inspector:"))
        r = httpx.get(f"{base}/v1/stats", headers={"Authorization": f"Bearer {key}"})
        assert r.json()["stats"]["turns"] == len(sample_turns())
    finally:
        assert stop(proc, signal.SIGTERM) == 0
