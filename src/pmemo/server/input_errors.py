"""Validation errors in plain words: the field a client sent, what is wrong with it.

pydantic names a field by its path through the validators
(``body.function-after[_one_owner(), TurnIn].actor_id``) and says what it expected in its
own terms (``String should match pattern '^[A-Za-z0-9_.:@\\-]{1,128}$'``). A client wants
``actor_id: must be 1-128 letters, digits or . _ : @ - (no spaces)``.

>>> plain({"loc": ("body", "TurnIn", "actor_id"), "type": "missing", "msg": "Field required"})
{'field': 'actor_id', 'in': 'body', 'loc': ['body', 'actor_id'], 'msg': 'is required', 'type': 'missing'}
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ..schemas import ID

SOURCES = ("body", "query", "path", "header", "cookie")
# "function-after[_one_owner(), TurnIn]", "json-or-python[...]": a validator, not a field
_VALIDATOR = re.compile(r"^[a-z][a-z-]*\[.*\]$")
# A model's name or a union's tag (TurnIn, TurnBatch): our fields are all snake_case
_MODEL = re.compile(r"^[A-Z][A-Za-z0-9]*$")
# A union member's name in a field's path (the value failed each of ``str | None``'s members)
_MEMBER = frozenset({"str", "constrained-str", "int", "constrained-int", "float", "bool", "none",
                     "datetime", "date", "list", "dict", "bytes"})
_AS = {"query": "query parameter", "path": "path parameter", "header": "header", "cookie": "cookie"}
ISO = "an ISO 8601 date-time like 2026-05-01T10:00:00+08:00"


def plain_all(errors: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every error in plain words, without the ones of a union's ``None`` member (a value
    that is wrong is not wrong for not being null) and without repeats."""
    out = [plain(e) for e in errors]
    named = {e["field"] for e in out if e["type"] != "none_required"}
    seen: set[tuple[str, str]] = set()
    kept = []
    for e in out:
        if (e["type"] == "none_required" and e["field"] in named) or (e["field"], e["msg"]) in seen:
            continue
        seen.add((e["field"], e["msg"]))
        kept.append(e)
    return kept


def plain(error: dict[str, Any]) -> dict[str, Any]:
    """One pydantic/FastAPI error as ``{"field", "in", "loc", "msg", "type"}``."""
    loc = list(error.get("loc") or ())
    source = loc.pop(0) if loc and loc[0] in SOURCES else "body"
    kind = str(error.get("type", ""))
    ctx = error.get("ctx") or {}
    if kind == "json_invalid":  # FastAPI puts the character offset in loc, not a field
        ctx = {**ctx, "at": next((p for p in loc if isinstance(p, int)), None)}
        loc = []
    parts = [p for i, p in enumerate(loc) if isinstance(p, int)
             or not (_VALIDATOR.match(p) or _MODEL.match(p) or (i and p in _MEMBER))]
    if source == "header" and parts and isinstance(parts[0], str):
        parts[0] = "-".join(w.capitalize() for w in parts[0].split("-"))  # as HTTP writes it
    field = ""
    for p in parts:
        field += f"[{p}]" if isinstance(p, int) else (f".{p}" if field else str(p))
    if isinstance(ctx.get("path"), str):
        field += ctx["path"]  # where in a metadata dict, from the schema's own check
    msg = _message(error, kind, ctx, source)
    return {"field": field, "in": source, "loc": [source, *parts], "msg": msg, "type": kind}


def detail(errors: Sequence[dict[str, Any]]) -> str:
    """The problem body's ``detail``: the first error, named, and how many more there are."""
    if not errors:
        return "invalid request"
    first = errors[0]
    name = first["field"]
    if not name and first["in"] == "body" and first["type"] not in ("value_error", "json_invalid"):
        name = "the body"  # the body as a whole: not an object, or missing
    elif name and first["in"] != "body":
        name = f"{name} ({_AS.get(first['in'], first['in'])})"
    text = f"{name}: {first['msg']}" if name else first["msg"]
    more = len(errors) - 1
    return text + (f" (and {more} more problem{'s' * (more > 1)} in errors)" if more else "")


def _message(error: dict[str, Any], kind: str, ctx: dict[str, Any], source: str) -> str:
    msg = str(error.get("msg", ""))
    got = _got(error.get("input"), typed=source == "body")
    known = {
        "missing": "is required",
        "extra_forbidden": "is not a field of this request (check the spelling)",
        "int_type": f"must be an integer{got}",
        "int_parsing": f"must be an integer{got}",
        "int_from_float": f"must be a whole number{got}",
        "bool_type": f"must be true or false{got}",
        "bool_parsing": f"must be true or false{got}",
        "string_type": f"must be a string{got}",
        "list_type": f"must be a list{got}",
        "dict_type": f"must be a JSON object{got}",
        "model_type": f"must be a JSON object{got}",
        "model_attributes_type": f"must be a JSON object{got}",
        "datetime_type": f"must be {ISO}{got}",
        "datetime_parsing": f"must be {ISO}{got}",
        "datetime_from_date_parsing": f"must be {ISO}{got}",
        "string_unicode": "contains a lone surrogate, which is not valid Unicode; send the text as UTF-8",
        "json_invalid": f"the body is not valid JSON: {ctx.get('error', 'it cannot be parsed')}"
        + (f" (at character {ctx['at']})" if ctx.get("at") is not None else ""),
    }
    if kind in known and not (kind == "string_unicode" and "path" in ctx):
        return known[kind]
    if kind == "string_pattern_mismatch":
        pattern = ctx.get("pattern")
        if pattern == ID:
            return "must be 1-128 letters, digits or . _ : @ - (no spaces)"
        if pattern == r"\S":
            return "must not be blank"
        return f"must match the pattern {pattern}"
    if kind == "string_too_short":
        least = ctx.get("min_length")
        return "must not be empty" if least == 1 else f"needs at least {least} characters"
    if kind == "string_too_long":
        return f"has more than {ctx.get('max_length')} characters"
    if kind == "too_short":
        return f"needs at least {ctx.get('min_length')} item(s)"
    if kind == "too_long":
        return f"has more than {ctx.get('max_length')} items"
    bounds = {"greater_than_equal": "at least {ge}", "greater_than": "more than {gt}",
              "less_than_equal": "at most {le}", "less_than": "less than {lt}"}
    if kind in bounds:
        return f"must be {bounds[kind].format(**ctx)}{got}"
    if kind in ("literal_error", "enum"):
        return f"must be one of {ctx.get('expected', '')}{got}"
    return msg.removeprefix("Value error, ").removeprefix("Assertion failed, ")


def _got(value: Any, typed: bool = True) -> str:
    """What was sent, in JSON words, for a type error: ", not true". Outside the body (query,
    path, headers) every value is text: it is shown as it was written."""
    if not typed and isinstance(value, str):
        return f", not {value[:40]}" + ("…" if len(value) > 40 else "")
    if value is None:
        return ", not null"
    if isinstance(value, bool):
        return f", not {str(value).lower()}"
    if isinstance(value, (int, float)):
        text = str(value)
        return f", not {text if len(text) <= 24 else text[:20] + '…'}"
    if isinstance(value, str):
        return f", not the string {value[:40]!r}" + ("…" if len(value) > 40 else "")
    if isinstance(value, (list, tuple)):
        return ", not a list"
    if isinstance(value, dict):
        return ", not an object"
    return ""
