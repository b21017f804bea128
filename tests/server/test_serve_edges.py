"""Clean edges of ``pmemo serve`` and ``pmemo mcp``, run as a person runs them: a data
directory another process holds, and an empty ``--data``, each one line and a non-zero exit."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .live import free_port
from .test_serve import start, stop

PMEMO = Path(sys.executable).with_name("pmemo")


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PMEMO_EMBEDDER": "hashing"}
    return subprocess.run(
        [str(PMEMO), *args], capture_output=True, text=True, env=env, cwd=cwd, stdin=subprocess.DEVNULL, timeout=60
    )


def test_second_serve_or_mcp_on_a_locked_directory(tmp_path: Path) -> None:
    data = tmp_path / "data"
    proc, _ = start(data, free_port())
    try:
        for args in (["serve", "--port", str(free_port())], ["mcp"], ["mcp", "--tenant", "t1"]):
            r = run(*args, "--data", str(data))
            assert r.returncode == 4, (args, r.stderr)
            assert r.stdout == "" and "Traceback" not in r.stderr
            lines = r.stderr.strip().splitlines()
            assert len(lines) == 1, (args, r.stderr)
            assert "in use by another pmemo process" in lines[0] and "--data" in lines[0]
    finally:
        assert stop(proc) == 0


EMPTY_DATA = [
    ["serve", "--port", str(free_port())],
    ["mcp"],
    ["keys", "list"],
    ["add", "hi", "--user", "u", "--session", "s"],
    ["search", "hi", "--user", "u"],
]


@pytest.mark.parametrize("command", EMPTY_DATA)
def test_empty_data_is_an_error_not_the_current_directory(tmp_path: Path, command: list[str]) -> None:
    r = run(*command, "--data", "", cwd=tmp_path)
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "--data" in lines[0] and "Traceback" not in r.stderr
    assert list(tmp_path.iterdir()) == []  # nothing was made in the current directory
