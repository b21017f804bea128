"""The REST reference (docs/REST.md), written from the OpenAPI document, so it cannot drift:
``python -m pmemo.server.reference > docs/REST.md``; a test compares the file with it.

>>> text = markdown({"info": {"title": "t", "version": "0"}, "paths": {}})
>>> text.splitlines()[0]
'# pmemo REST reference'
"""

from __future__ import annotations

import asyncio
import json
import tempfile
from typing import Any

METHODS = ("get", "post", "put", "delete", "patch")


def markdown(spec: dict[str, Any]) -> str:
    """Every operation of ``spec``, grouped by tag, with its parameters, body and answers."""
    out = [
        "# pmemo REST reference",
        "",
        "Generated from the OpenAPI document (`python -m pmemo.server.reference > docs/REST.md`);",
        "the live document is at `/openapi.json` and browsable at `/docs` on a running server.",
        "Every `/v1` route needs `Authorization: Bearer <key>`; errors are",
        "`application/problem+json` bodies `{type, title, status, code, detail}`.",
        "",
    ]
    by_tag: dict[str, list[tuple[str, str, dict[str, Any]]]] = {}
    for path, item in spec.get("paths", {}).items():
        for method in METHODS:
            if method in item:
                op = item[method]
                by_tag.setdefault((op.get("tags") or ["other"])[0], []).append((method, path, op))
    for tag, ops in sorted(by_tag.items(), key=lambda kv: kv[0] != "memory"):  # the pinned routes first
        out += [f"## {tag}", ""]
        for method, path, op in ops:
            out += _operation(spec, method, path, op)
    return "\n".join(out).rstrip() + "\n"


def _operation(spec: dict[str, Any], method: str, path: str, op: dict[str, Any]) -> list[str]:
    lines = [f"### `{method.upper()} {path}`", ""]
    if op.get("description") or op.get("summary"):
        lines += [" ".join(str(op.get("description") or op.get("summary")).split()), ""]
    params = op.get("parameters", [])
    if params:
        lines += ["| parameter | in | type | required | description |", "|---|---|---|---|---|"]
        for p in params:
            schema = p.get("schema", {})
            lines.append(
                f"| `{p['name']}` | {p.get('in', '')} | {_type(spec, schema)} | "
                f"{'yes' if p.get('required') else 'no'} | {_cell(p.get('description') or schema.get('description'))} |"
            )
        lines.append("")
    body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
    if body:
        lines += [f"Body: {_type(spec, body)}", ""]
        fields = _fields(spec, body)
        if fields:
            lines += ["| field | type | required | description |", "|---|---|---|---|"]
            lines += [f"| `{n}` | {t} | {r} | {_cell(d)} |" for n, t, r, d in fields]
            lines.append("")
    answers = [f"{status} {_cell(r.get('description'))}" for status, r in sorted(op.get("responses", {}).items())]
    lines += ["Answers: " + "; ".join(answers) + ".", ""]
    return lines


def _fields(spec: dict[str, Any], schema: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    target = _resolve(spec, schema)
    required = set(target.get("required", []))
    return [(name, _type(spec, prop), "yes" if name in required else "no", prop.get("description", ""))
            for name, prop in target.get("properties", {}).items()]


def _resolve(spec: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    if not ref:
        return schema
    found: Any = spec
    for part in ref.lstrip("#/").split("/"):
        found = found.get(part, {})
    return found  # type: ignore[no-any-return]


def _type(spec: dict[str, Any], schema: dict[str, Any]) -> str:
    if "$ref" in schema:
        return f"`{schema['$ref'].rsplit('/', 1)[1]}`"
    for key in ("anyOf", "oneOf"):
        if key in schema:
            kinds = [_type(spec, s) for s in schema[key] if s.get("type") != "null"]
            return " or ".join(dict.fromkeys(kinds)) + (" or null" if any(
                s.get("type") == "null" for s in schema[key]) else "")
    kind = schema.get("type", "any")
    if kind == "array":
        return f"array of {_type(spec, schema.get('items', {}))}"
    if "enum" in schema:
        return " \\| ".join(f"`{json.dumps(v)}`" for v in schema["enum"])
    bounds = [f"{k} {schema[k]}" for k in ("minimum", "maximum", "exclusiveMinimum", "maxLength") if k in schema]
    return f"{kind}" + (f" ({', '.join(bounds)})" if bounds else "")


def _cell(text: Any) -> str:
    return " ".join(str(text or "").split()).replace("|", "\\|")


async def _spec() -> dict[str, Any]:
    from .. import Memory
    from . import SQLiteKeyStore, create_app

    with tempfile.TemporaryDirectory() as tmp:
        memory = await Memory.open(tmp, embedder="hashing")
        keys = SQLiteKeyStore.in_dir(tmp)
        try:
            return create_app(memory, keys).openapi()  # type: ignore[no-any-return]
        finally:
            await memory.close()
            keys.close()


def main() -> None:
    print(markdown(asyncio.run(_spec())), end="")


if __name__ == "__main__":
    main()
