"""Request ids and JSON logs (issue 19, operations).

A caller's X-Request-ID comes back on the response and is on every log line written for
that request, an unexpected error's included; an unsafe one is replaced; a request without
one gets a fresh id. Log lines are one JSON object each, or text, as PMEMO_LOG_FORMAT says."""

from __future__ import annotations

import io
import json
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from pmemo import Settings, logs
from pmemo.cli.serve_cmd import _logging
from pmemo.server import KeyStore, create_app

from .conftest import BASE
from .live import free_port

PMEMO = Path(sys.executable).with_name("pmemo")


@pytest.fixture
def log_lines() -> Iterator[io.StringIO]:
    """JSON log lines from INFO up, as ``pmemo serve`` writes them, captured."""
    root = logging.getLogger()
    level = root.level
    out = io.StringIO()
    handler = logs.configure("json", "info", stream=out)
    yield out
    root.removeHandler(handler)
    root.setLevel(level)


def parsed(out: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.getvalue().splitlines() if line.strip()]


async def test_request_id_round_trip_and_in_the_log(client: httpx.AsyncClient, log_lines: io.StringIO) -> None:
    r = await client.post("/v1/turns", json={"user_id": "u1", "session_id": "s1", "content": "hello"},
                          headers={"X-Request-ID": "trace-42.a"})
    assert r.status_code == 201 and r.headers["x-request-id"] == "trace-42.a"
    lines = [line for line in parsed(log_lines) if line.get("request_id") == "trace-42.a"]
    access = [line for line in lines if line["logger"] == "pmemo.access"]
    assert len(access) == 1, parsed(log_lines)
    assert access[0]["route"] == "/v1/turns" and access[0]["status"] == 201 and access[0]["method"] == "POST"
    assert access[0]["level"] == "INFO" and access[0]["time"].endswith("Z")
    assert "hello" not in log_lines.getvalue()  # what users write stays out of the access log


async def test_ids_are_made_when_missing_or_unsafe(client: httpx.AsyncClient, log_lines: io.StringIO) -> None:
    first, second = (await client.get("/healthz")), (await client.get("/healthz"))
    made = {first.headers["x-request-id"], second.headers["x-request-id"]}
    assert len(made) == 2 and all(len(rid) == 32 for rid in made)
    for unsafe in (b'a"b', b"x" * 129, b"has space", b"{}", "\u00e9t\u00e9".encode(), b"-lead"):
        r = await client.get("/healthz", headers={"X-Request-ID": unsafe})
        assert r.headers["x-request-id"].encode() != unsafe and len(r.headers["x-request-id"]) == 32
    assert {line.get("request_id") for line in parsed(log_lines)} >= made


async def test_every_answer_has_an_id(anon: httpx.AsyncClient) -> None:
    for r in (await anon.get("/v1/stats"), await anon.get("/nowhere"), await anon.delete("/healthz"),
              await anon.post("/v1/turns", content=b"x" * (9 * 1024 * 1024))):
        assert r.status_code in (401, 404, 405, 413) and r.headers["x-request-id"], r.status_code


class Raising:
    """A stand-in memory whose every call fails unexpectedly."""

    async def stats(self, **kw: Any) -> Any:
        raise RuntimeError("boom")


async def test_an_unexpected_error_is_logged_with_the_id(keys: KeyStore, key: str, log_lines: io.StringIO) -> None:
    app = create_app(Raising(), keys, mcp=False, web=False)
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url=BASE) as c:
        r = await c.get("/v1/stats", headers={"Authorization": f"Bearer {key}", "X-Request-ID": "oops-1"})
    assert r.status_code == 500 and r.headers["x-request-id"] == "oops-1"
    mine = [line for line in parsed(log_lines) if line.get("request_id") == "oops-1"]
    error = [line for line in mine if line["level"] == "ERROR"]
    assert len(error) == 1 and "RuntimeError: boom" in error[0]["exc"]
    assert [line["status"] for line in mine if line["logger"] == "pmemo.access"] == [500]


def test_log_lines_outside_a_request_have_no_id(log_lines: io.StringIO) -> None:
    logging.getLogger("pmemo.test").warning("disk %d%% full", 91, extra={"disk": "/data"})
    with logs.bound("job-7"):
        logging.getLogger("pmemo.test").warning("inside")
    outside, inside = parsed(log_lines)
    assert outside["message"] == "disk 91% full" and outside["disk"] == "/data" and "request_id" not in outside
    assert inside["request_id"] == "job-7"


@pytest.mark.parametrize(("env", "default", "formatter"), [
    ({}, "json", logs.JsonFormatter),  # pmemo serve
    ({}, "text", logs.TextFormatter),  # every other command
    ({"PMEMO_LOG_FORMAT": "text"}, "json", logs.TextFormatter),
    ({"PMEMO_LOG_FORMAT": "json", "PMEMO_LOG_LEVEL": "info"}, "text", logs.JsonFormatter),
])
def test_the_log_format_setting(env: dict[str, str], default: str, formatter: type) -> None:
    root = logging.getLogger()
    level, before = root.level, list(root.handlers)
    try:
        settings = Settings.from_env(env)
        _logging(settings, default=default)
        added = [h for h in root.handlers if h not in before]
        assert len(added) == 1 and isinstance(added[0].formatter, formatter)
        assert root.level == getattr(logging, settings.log_level.upper())
    finally:
        for h in root.handlers:
            if h not in before:
                root.removeHandler(h)
        root.setLevel(level)


def test_text_lines_carry_the_id() -> None:
    out = io.StringIO()
    handler = logs.configure("text", "warning", stream=out)
    try:
        with logs.bound("r-1"):
            logging.getLogger("pmemo.test").warning("slow")
    finally:
        logging.getLogger().removeHandler(handler)
        logging.getLogger().setLevel(logging.WARNING)
    assert out.getvalue().rstrip().endswith("WARNING pmemo.test [r-1]: slow")


def test_bad_log_settings_fail_at_start() -> None:
    with pytest.raises(Exception, match="log_format"):
        Settings(log_format="yaml")
    with pytest.raises(Exception, match="log_level"):
        Settings(log_level="loud")


def test_pmemo_serve_writes_json_lines_with_the_id(tmp_path: Path) -> None:
    """The real command: uvicorn's lines and pmemo's go through one JSON handler on stderr."""
    port = free_port()
    env = {**os.environ, "PMEMO_EMBEDDER": "hashing", "PMEMO_LOG_LEVEL": "info"}
    env.pop("PMEMO_LOG_FORMAT", None)
    proc = subprocess.Popen([str(PMEMO), "serve", "--data", str(tmp_path / "data"), "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                r = httpx.get(f"http://127.0.0.1:{port}/healthz", headers={"X-Request-ID": "serve-1"}, timeout=1)
                break
            except httpx.HTTPError:
                assert proc.poll() is None and time.monotonic() < deadline, "pmemo serve did not answer"
                time.sleep(0.1)
        assert r.headers["x-request-id"] == "serve-1"
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    records = [json.loads(line) for line in err.splitlines() if line.startswith("{")]
    assert any(rec.get("request_id") == "serve-1" and rec["logger"] == "pmemo.access" for rec in records), err
    assert "Traceback" not in err
