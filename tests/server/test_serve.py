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

PMEMO = Path(sys.executable).with_name("pmemo")


def start(
    data: Path, port: int, *args: str, umask: int = -1
) -> tuple[subprocess.Popen[str], list[str]]:
    env = {**os.environ, "PMEMO_EMBEDDER": "hashing"}
    proc = subprocess.Popen(
        [str(PMEMO), "serve", "--data", str(data), "--port", str(port), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        umask=umask,
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


def printed_key(lines: list[str]) -> str | None:
    page = next(line for line in lines if line.startswith("Inspector:"))
    found = re.search(r"#key=(\S+)", page)
    return found.group(1) if found else None


def stats(base: str, key: str) -> httpx.Response:
    return httpx.get(f"{base}/v1/stats", headers={"Authorization": f"Bearer {key}"})


def test_serve_first_start_ctrl_c_and_restart(tmp_path: Path) -> None:
    data, port = tmp_path / "data", free_port()
    base = f"http://127.0.0.1:{port}"
    proc, lines = start(data, port)
    try:
        key = printed_key(lines)
        assert key is not None
        assert any(line.endswith(f"127.0.0.1:{port}/docs") for line in lines)
        assert httpx.get(f"{base}/").status_code == 200
        assert httpx.get(f"{base}/docs").status_code == 200
        r = stats(base, key)
        assert r.json()["tenant"] == "demo"
        assert r.json()["stats"]["turns"] == len(sample_turns())
    finally:
        assert stop(proc) == 0
    assert "Traceback" not in (proc.stderr.read() if proc.stderr else "")

    proc, lines = start(data, port)  # a restart finds everything again, and prints no key
    try:
        assert printed_key(lines) is None
        assert not any(key in line for line in lines)
        assert "--show-demo-key" in next(line for line in lines if line.startswith("Inspector:"))
        r = stats(base, key)  # the key printed once still works: its hash was kept
        assert r.json()["stats"]["turns"] == len(sample_turns())
    finally:
        assert stop(proc, signal.SIGTERM) == 0


def test_demo_key_is_kept_only_as_a_hash(tmp_path: Path) -> None:
    """No plain-text demo key on disk (an old demo.key is removed); --show-demo-key makes a
    new one and revokes the one before."""
    data, port = tmp_path / "data", free_port()
    base = f"http://127.0.0.1:{port}"
    proc, lines = start(data, port)
    try:
        first = printed_key(lines)
        assert first is not None
    finally:
        assert stop(proc) == 0
    for path in (p for p in data.rglob("*") if p.is_file()):
        assert first.encode() not in path.read_bytes(), path
    (data / "demo.key").write_text(first + "\n")  # as an older pmemo left it

    proc, lines = start(data, port, "--show-demo-key")
    try:
        second = printed_key(lines)
        assert second is not None and second != first
        assert not (data / "demo.key").exists()
        assert stats(base, second).status_code == 200
        assert stats(base, first).status_code == 401
    finally:
        assert stop(proc) == 0
