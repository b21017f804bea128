"""A real ``pmemo serve`` in a subprocess, and the ``pmemo`` command run as a person runs it
(for the client-mode and README tests)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

PMEMO = Path(sys.executable).with_name("pmemo")


def clean_env(**extra: str) -> dict[str, str]:
    """The environment without any PMEMO_* setting, on the hashing embedder, wide tables."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PMEMO_")}
    return {**env, "PMEMO_EMBEDDER": "hashing", "COLUMNS": "200", **extra}


@dataclass
class Served:
    proc: subprocess.Popen[str]
    lines: list[str]  # what serve printed on stdout before it listened
    url: str  # from server.json: the port it really listens on

    @property
    def demo_key(self) -> str | None:
        page = next(line for line in self.lines if line.startswith("Inspector:"))
        found = re.search(r"#key=(\S+)", page)
        return found.group(1) if found else None


@contextmanager
def serving(data: Path | None, *args: str, cwd: Path | None = None, exe: str | Path = PMEMO,
            env: dict[str, str] | None = None) -> Iterator[Served]:
    """``pmemo serve --port 0`` on ``data`` (None: the default, ``./pmemo_data`` in ``cwd``),
    until the block ends; then Ctrl-C, and it must stop cleanly and remove its server.json."""
    where = ["--data", str(data)] if data is not None else []
    proc = subprocess.Popen([str(exe), "serve", *where, "--port", "0", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env or clean_env(), cwd=cwd)
    root = Path(cwd or ".") / (data if data is not None else "pmemo_data")
    try:
        yield _started(proc, root)
    finally:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(30) == 0
    assert "Traceback" not in (proc.stderr.read() if proc.stderr else "")
    assert not (root / "server.json").exists()  # removed when it stopped


def _started(proc: subprocess.Popen[str], data: Path) -> Served:
    lines: list[str] = []
    assert proc.stdout is not None
    while not any(line.startswith("MCP:") for line in lines):
        line = proc.stdout.readline()
        if not line:
            raise AssertionError(f"serve exited early: {proc.stderr.read() if proc.stderr else ''}")
        lines.append(line.rstrip("\n"))
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            url = json.loads((data / "server.json").read_text())["url"]
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return Served(proc, lines, url)
        except (OSError, ValueError, httpx.HTTPError):
            pass
        time.sleep(0.1)
    raise AssertionError("the server wrote no server.json, or does not answer")


def pmemo(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None,
          code: int = 0) -> subprocess.CompletedProcess[str]:
    """Run ``pmemo ARGS``; it must exit with ``code`` and never print a traceback."""
    done = subprocess.run([str(PMEMO), *args], capture_output=True, text=True, cwd=cwd,
                          env=env or clean_env(), stdin=subprocess.DEVNULL, timeout=180)
    assert done.returncode == code, (args, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr, done.stderr
    return done


def one_line_error(done: subprocess.CompletedProcess[str]) -> str:
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    return lines[0]
