"""Log lines as JSON or text, each carrying the id of the request it was written for.

The server sets ``request_id`` for each HTTP request (``server/observe.py``); every line
logged while it is set, by pmemo or by a library, in the request's task or in a thread it
started with ``asyncio.to_thread``, carries it. Entry points call ``configure`` once.

>>> configure("json", "info")  # doctest: +SKIP
>>> logging.getLogger("pmemo").warning("store is %d%% full", 91)  # doctest: +SKIP
{"time": "2026-11-26T06:50:01.123Z", "level": "WARNING", "logger": "pmemo", "message": "store is 91% full"}
"""

from __future__ import annotations

import json
import logging
import re
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import IO, Any

FORMATS = ("json", "text")

request_id: ContextVar[str | None] = ContextVar("pmemo_request_id", default=None)

# What a caller may send as X-Request-ID: it is echoed in a header and written to logs, so
# no spaces, quotes or control characters (no forged log lines, no header injection).
_VALID_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:/+=-]{0,127}")
# the attributes every LogRecord has; any other one came from ``extra=`` and is logged too
_STANDARD = frozenset(logging.makeLogRecord({}).__dict__) | {"message", "asctime", "request_id", "rid"}


def accept_request_id(raw: str | None) -> str:
    """The caller's request id when it is a safe token (1-128 characters of letters, digits
    and ``._:/+=-``), else a new one.

    >>> accept_request_id("trace-42")
    'trace-42'
    >>> len(accept_request_id('bad id"\\n'))
    32
    """
    if raw and _VALID_ID.fullmatch(raw):
        return raw
    return uuid.uuid4().hex


@contextmanager
def bound(rid: str | None) -> Iterator[None]:
    """Log lines written inside carry ``rid`` as their request id."""
    token = request_id.set(rid)
    try:
        yield
    finally:
        request_id.reset(token)


class RequestIdFilter(logging.Filter):
    """Puts the current request id on each record (``record.request_id``, None outside a request)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (UTC), level, logger, message, request_id when in a
    request, the fields given with ``extra=``, and the traceback as ``exc``."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds")
            .replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        rid = getattr(record, "request_id", None)
        if rid:
            line["request_id"] = rid
        for name, value in record.__dict__.items():
            if name not in _STANDARD and not name.startswith("_"):
                line[name] = value
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exc"] = record.exc_text
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False, default=str)


class TextFormatter(logging.Formatter):
    """``time LEVEL logger [request id]: message`` (the id only within a request)."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s%(rid)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        rid = getattr(record, "request_id", None)
        record.rid = f" [{rid}]" if rid else ""
        return super().format(record)


_installed: logging.Handler | None = None


def configure(fmt: str = "text", level: str = "warning", stream: IO[str] | None = None) -> logging.Handler:
    """Send the root logger's lines to ``stream`` (stderr) as ``fmt`` ("json" or "text"), from
    ``level`` up; a second call replaces the handler the first one added."""
    global _installed
    if fmt not in FORMATS:
        raise ValueError(f"log format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    root = logging.getLogger()
    if _installed is not None:
        root.removeHandler(_installed)
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.addFilter(RequestIdFilter())
    handler.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    root.addHandler(handler)
    root.setLevel(level.upper())
    _installed = handler
    return handler
