"""Where a running ``pmemo serve`` says it listens: ``<data>/server.json``.

The server writes it once it accepts connections and removes it when it stops, so a CLI
command on the same data directory finds the server and talks to it over HTTP instead of
opening the store (which the server holds). The file holds no secret; like every file in
the data directory it is ``0600``. A file left by a killed server is harmless: the CLI
checks that the URL answers before it trusts it.

>>> import tempfile
>>> root = Path(tempfile.mkdtemp())
>>> _ = write(root, "http://127.0.0.1:8765")
>>> read(root).url
'http://127.0.0.1:8765'
>>> remove(root); read(root) is None
True
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from ..files import private_dir, private_file

FILE_NAME = "server.json"


@dataclass(frozen=True)
class ServerFile:
    """What a server wrote: its base URL (no trailing slash), process id and start time."""

    url: str
    pid: int
    started_at: str


def write(data_dir: str | os.PathLike[str], url: str) -> Path:
    """Say that this process serves ``data_dir`` at ``url`` (replacing an older file)."""
    # made if missing (0700): beside a PostgreSQL store nothing else may have made it
    path = private_dir(data_dir) / FILE_NAME
    body = {"url": url.rstrip("/"), "pid": os.getpid(), "started_at": datetime.now(UTC).isoformat()}
    private_file(path)  # 0600 before anything is written into it
    path.write_text(json.dumps(body) + "\n", encoding="utf-8")
    return path


def read(data_dir: str | os.PathLike[str]) -> ServerFile | None:
    """The server file of ``data_dir``, or None when there is none (or it cannot be read)."""
    try:
        raw = json.loads((Path(data_dir) / FILE_NAME).read_text(encoding="utf-8"))
        return ServerFile(url=str(raw["url"]).rstrip("/"), pid=int(raw["pid"]),
                          started_at=str(raw.get("started_at", "")))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def remove(data_dir: str | os.PathLike[str]) -> None:
    """Remove the file if this process wrote it (a second server's file is left alone)."""
    found = read(data_dir)
    if found is not None and found.pid == os.getpid():
        (Path(data_dir) / FILE_NAME).unlink(missing_ok=True)


def client_url(host: str, port: int) -> str:
    """The URL a local client uses for a server bound to ``host``: a wildcard address is
    reached on loopback. ``client_url("0.0.0.0", 8765)`` → ``http://127.0.0.1:8765``."""
    if host in ("", "0.0.0.0"):
        host = "127.0.0.1"
    elif host == "::":
        host = "::1"
    return f"http://{'[' + host + ']' if ':' in host else host}:{port}"
