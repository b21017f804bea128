"""Checks on user input at the API edge: each error names what to fix."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from .config import Settings
from .errors import InvalidInput
from .text import attachments

ROLES = ("user", "assistant", "system", "tool")

# A UTF-16 surrogate on its own (JSON's "\ud800" decodes to one) cannot be stored as UTF-8;
# a proper pair arrives already joined into one character.
_SURROGATE = re.compile("[\ud800-\udfff]")
_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_\-]*")


def unicode_problem(value: Any, path: str) -> str | None:
    """The first string in ``value`` (keys and values of dicts, items of lists, at any depth)
    that holds a lone surrogate, said as ``"<path>: …"``; None when all is valid Unicode.

    >>> unicode_problem({"a": {"b": [1, 2, "\\ud800"]}}, "metadata")
    'metadata.a.b[2]: contains a lone surrogate (U+D800), which is not valid Unicode; send the text as UTF-8'
    """
    found = lone_surrogate(value, path)
    return f"{found[0]}: {found[1]}" if found else None


def lone_surrogate(value: Any, path: str) -> tuple[str, str] | None:
    """``(where, what)`` for the first string in ``value`` with a lone surrogate, or None."""
    for where, text, is_key in _strings(value, path):
        found = _SURROGATE.search(text)
        if found:
            what = f"the key {text!r} contains" if is_key else "contains"
            return where, (f"{what} a lone surrogate (U+{ord(found.group()):04X}), which is not valid "
                           "Unicode; send the text as UTF-8")
    return None


def _strings(value: Any, path: str) -> Iterator[tuple[str, str, bool]]:
    """(path, string, is a dict key) for every string in a JSON-like value, depth first."""
    stack: list[tuple[str, Any]] = [(path, value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, str):
            yield where, item, False
        elif isinstance(item, dict):
            children = []
            for key, child in item.items():
                if isinstance(key, str):
                    yield where, key, True
                name = str(key)
                children.append((f"{where}.{name}" if _PLAIN_KEY.fullmatch(name) else f"{where}[{name!r}]", child))
            stack.extend(reversed(children))
        elif isinstance(item, (list, tuple)):
            stack.extend(reversed([(f"{where}[{i}]", child) for i, child in enumerate(item)]))


def text(name: str, value: str) -> str:
    """``value`` if it is valid Unicode, else InvalidInput naming ``name``."""
    _valid_unicode(value, name)
    return value


def _valid_unicode(value: Any, name: str) -> None:
    """InvalidInput naming where in ``value`` (a string, or any JSON-like value) a lone surrogate is."""
    problem = unicode_problem(value, name)
    if problem:
        raise InvalidInput(problem)


def content(value: Any, settings: Settings) -> str:
    if not isinstance(value, str):
        raise InvalidInput(f"content must be a string, got {type(value).__name__}")
    text("content", value)
    if not value.strip():
        raise InvalidInput("content is empty; give the text of the turn")
    if len(value) > settings.max_content_chars:
        raise InvalidInput(
            f"content has {len(value):,} characters; the limit is {settings.max_content_chars:,} "
            "(PMEMO_MAX_CONTENT_CHARS): split it into several turns"
        )
    return value


def role(value: Any) -> str:
    if value not in ROLES:
        raise InvalidInput(f"role={value!r} is invalid: use one of {', '.join(ROLES)}")
    return str(value)


def actor(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip() or len(value) > 128:
        raise InvalidInput("actor must be a non-empty string of at most 128 characters (the speaker)")
    return text("actor", value).strip()


def timestamp(value: Any, name: str = "timestamp") -> datetime:
    if value is None:
        return datetime.now(UTC)
    if isinstance(value, datetime):
        return value
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value)
        except ValueError as exc:
            raise InvalidInput(f"{name}={value!r} is not ISO 8601 (e.g. 2026-05-01T10:00:00+08:00)") from exc
    raise InvalidInput(f"{name} must be a datetime or ISO 8601 string, got {type(value).__name__}")


def metadata(value: Any) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InvalidInput(f"metadata must be a dict, got {type(value).__name__}")
    _valid_unicode(value, "metadata")
    try:
        encoded = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError) as exc:
        raise InvalidInput(f"metadata must be JSON-serialisable: {exc}") from exc
    if len(encoded) > 64_000:
        raise InvalidInput("metadata is over 64 kB when encoded; keep it small (ids, tags)")
    if "attachments" in value and (wrong := attachments.problem(value["attachments"])):
        raise InvalidInput(wrong)
    return value


def query(value: Any) -> str:
    if not isinstance(value, str):
        raise InvalidInput(f"query must be a string, got {type(value).__name__}")
    if not value.strip():
        raise InvalidInput("query is empty; give the text to search for")
    if len(value) > 20_000:
        raise InvalidInput("query is over 20,000 characters; shorten it")
    return text("query", value)


def recent(value: Any) -> list[str]:
    """The last messages of a chat, given as context for the people they name."""
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InvalidInput("recent must be a list of message texts (strings), newest last")
    if len(value) > 50 or sum(map(len, value)) > 50_000:
        raise InvalidInput("recent holds at most 50 messages and 50,000 characters; pass the last few")
    _valid_unicode(value, "recent")
    return value


def flag(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise InvalidInput(f"{name} must be true or false, got {type(value).__name__}")
    return value


def positive_int(name: str, value: Any, upper: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"{name} must be an integer, got {type(value).__name__}")
    if not 1 <= value <= upper:
        raise InvalidInput(f"{name}={value} is out of range: use 1..{upper}")
    return value


def fact_value(value: Any) -> str:
    return _short_text(value, "value", empty="a fact's value must be a non-empty string, e.g. 'does not eat' or '腾讯'",
                       long="a fact's value is over 1,000 characters; a fact is one short value")


def key_text(value: Any) -> str:
    return _short_text(value, "text", empty="key memory text must be a non-empty string",
                       long="key memory text is over 1,000 characters; key lines are short facts")


def _short_text(value: Any, name: str, *, empty: str, long: str) -> str:
    """A short text (at most 1,000 characters, not blank), stripped; ``empty`` and ``long`` say what is wrong."""
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput(empty)
    if len(value) > 1000:
        raise InvalidInput(long)
    return text(name, value).strip()
