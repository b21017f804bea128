"""The data directory is private: 0700, and every file in it 0600, whatever the umask.

Memory holds every tenant's conversations and the key hashes; another local account
must not read them. Checked on ``pmemo serve`` run as a person runs it, with umask 0
(so only explicit modes keep the files private), after writes over REST.
"""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

import httpx
import pytest

from pmemo import Memory
from pmemo.server import SQLiteKeyStore

from .live import free_port
from .test_serve import printed_key, start, stop

FILES = ("pmemo.db", "pmemo.db-wal", "pmemo.db-shm", ".lock", "keys.sqlite3", "keys.sqlite3-wal", "keys.sqlite3-shm")


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_serve_makes_a_private_directory_and_files(tmp_path: Path) -> None:
    data, port = tmp_path / "data", free_port()
    proc, lines = start(data, port, umask=0)
    try:
        key = printed_key(lines)
        r = httpx.post(
            f"http://127.0.0.1:{port}/v1/turns",
            headers={"Authorization": f"Bearer {key}"},
            json={"user_id": "u1", "session_id": "s1", "role": "user", "content": "secret"},
        )
        assert r.status_code in (200, 201), r.text
        assert mode(data) == 0o700
        present = {p.name for p in data.iterdir()}
        assert set(FILES) <= present, present  # the WAL and SHM files exist while it runs
        for name in present:
            assert mode(data / name) == 0o600, (name, oct(mode(data / name)))
    finally:
        assert stop(proc) == 0
    for p in data.iterdir():
        assert mode(p) == 0o600, (p.name, oct(mode(p)))


async def test_files_an_older_pmemo_left_open_are_made_private(tmp_path: Path) -> None:
    data = tmp_path / "data"
    memory = await Memory.open(str(data), embedder="hashing")
    await memory.add(content="x", user_id="u", session_id="s")
    await memory.close()
    SQLiteKeyStore.in_dir(data).close()
    for p in data.iterdir():
        p.chmod(0o644)
    memory = await Memory.open(str(data), embedder="hashing")
    keys = SQLiteKeyStore.in_dir(data)
    try:
        for p in data.iterdir():
            assert mode(p) == 0o600, (p.name, oct(mode(p)))
    finally:
        keys.close()
        await memory.close()


async def test_open_warns_when_the_directory_is_readable_by_others(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    shared, own = tmp_path / "shared", tmp_path / "own"
    shared.mkdir(mode=0o755)
    os.chmod(shared, 0o755)
    with caplog.at_level(logging.WARNING, logger="pmemo"):
        await (await Memory.open(str(shared), embedder="hashing")).close()
        await (await Memory.open(str(own), embedder="hashing")).close()  # made here: 0700
        await (await Memory.open(str(own), embedder="hashing")).close()
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1, warnings
    assert str(shared) in warnings[0] and "chmod 700" in warnings[0]
    assert mode(shared) == 0o755  # an existing directory's mode is the owner's choice


def test_serve_warns_at_start_on_an_open_directory(tmp_path: Path) -> None:
    data, port = tmp_path / "data", free_port()
    data.mkdir()
    os.chmod(data, 0o750)
    proc, _ = start(data, port)
    assert stop(proc) == 0
    err = proc.stderr.read() if proc.stderr else ""
    assert "WARNING" in err and f"chmod 700 {data}" in err and "Traceback" not in err
