"""A block file's bytes → a ``Block`` (pure): front matter read with python-frontmatter's YAML
handler (its boundary and safe loader), every field checked, and whatever is wrong said in
``problem`` with what to fix, never raised: one bad file must not take the others down.

The file is also split where its body starts (``Parts``), so an edit rewrites the body only
and leaves the front matter byte for byte as the person wrote it, comments included.

>>> b = parse("notes.md", b"---\\nlabel: notes\\nread_only: false\\n---\\nBuy milk.\\n")
>>> b.label, b.read_only, b.value, b.problem
('notes', False, 'Buy milk.', None)
>>> parse("x.md", b"---\\nlimit: 5\\n---\\ntoo long here\\n").problem
'no label: add `label: <name>` to the front matter (letters, digits, _ or -)'
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass, replace
from typing import Any

from ..models import ID_PATTERN
from .model import ANY_TENANT, LABEL, MAX_LIMIT, Block


@dataclass(frozen=True)
class Parts:
    """A file's text split where the body starts: ``head`` is everything before the body's
    text (front matter, its boundaries and the blank lines after them), ``tail`` the
    whitespace after it; ``front`` the YAML between the boundaries (None: no front matter),
    whose first line is line ``line`` of the file."""

    head: str
    front: str | None
    body: str
    tail: str
    line: int = 1


class Unusable(Exception):
    """A field that cannot be used; the message says which and what to write instead."""


@functools.cache
def _handler() -> Any:
    # python-frontmatter (and PyYAML) load on the first block file, not with ``import pmemo``
    from frontmatter.default_handlers import YAMLHandler

    return YAMLHandler()


def version_of(raw: bytes) -> int:
    """A number that changes with the file's bytes: 48 bits of their SHA-256 (exact in a
    JavaScript number, as every version the API hands out), never 0."""
    return int.from_bytes(hashlib.sha256(raw).digest()[:6], "big") or 1


def split(text: str) -> Parts:
    """Where the front matter ends and the body starts (python-frontmatter's ``---`` rule:
    front matter only if the file's first non-blank line is a boundary)."""
    boundary = _handler().FM_BOUNDARY
    lead = len(text) - len(text.lstrip())
    opening = boundary.match(text, lead)
    closing = boundary.search(text, opening.end()) if opening else None
    if opening is None:
        front, start = None, 0
    elif closing is None:
        raise Unusable("the front matter is not closed: end it with a line `---`")
    else:
        front, start = text[opening.end() : closing.start()], closing.end()
    rest = text[start:]
    body = rest.strip()
    begins = len(rest) - len(rest.lstrip())
    return Parts(text[: start + begins], front, body, rest[begins + len(body) :], text[:lead].count("\n") + 1)


def parse(path: str, raw: bytes, known: Block | None = None) -> Block:
    """The block in ``raw`` (the bytes of the file at ``path``). A file that cannot be used
    is a block with ``problem`` set: its label and scope are those its front matter still
    gives, else those of ``known`` (its last good version), else the file's name and the
    default tenant, so the problem is shown where the block was."""
    fallback = known or Block(path.rsplit("/", 1)[-1].removesuffix(".md")[:64] or "block")
    base = replace(Block(fallback.label), tenant=fallback.tenant, agent=fallback.agent, group=fallback.group,
                   user=fallback.user, path=path, version=version_of(raw))
    try:
        text = raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        return _broken(base, f"not UTF-8 text (byte {exc.start}): save the file as UTF-8")
    try:
        parts = split(text)
        meta = _front(parts.front, parts.line)
    except Unusable as exc:
        return _broken(base, str(exc))
    fields: dict[str, Any] = {}
    errors = []
    for name, check in _CHECKS.items():
        try:
            if name in meta:
                fields[name] = check(meta[name])
        except Unusable as exc:
            errors.append(f"{name}: {exc}")
    unknown = sorted(set(meta) - set(FIELDS))
    if unknown:
        errors.append(f"unknown field(s) {', '.join(map(str, unknown))}: the fields are {', '.join(FIELDS)}")
    if "label" not in meta:
        errors.insert(0, "no label: add `label: <name>` to the front matter (letters, digits, _ or -)")
    if fields.get("group") is not None and fields.get("user") is not None:
        errors.append("group and user are both set: a block is for one group or one user (or all)")
    block = replace(base, **fields, value=parts.body)
    if not errors and block.chars > block.limit:
        errors.append(f"the body is {block.chars} characters, over its limit of {block.limit}:"
                      " shorten it or raise `limit`")
    return _broken(block, "; ".join(errors)) if errors else block


def _broken(block: Block, problem: str) -> Block:
    return replace(block, problem=problem)


def _front(front: str | None, line: int) -> dict[str, Any]:
    if front is None:
        raise Unusable("no front matter: start the file with `---`, then `label: <name>` and"
                       " the other fields, then `---`")
    try:
        meta = _handler().load(front)
    except Exception as exc:  # noqa: BLE001 - every YAML error is the file's, shown with its place
        where = getattr(exc, "problem_mark", None)
        at = f" at line {line + where.line}, column {where.column + 1}" if where is not None else ""
        raise Unusable(f"invalid YAML in the front matter{at}: {getattr(exc, 'problem', None) or exc}") from exc
    if meta is None:
        return {}
    if not isinstance(meta, dict):
        raise Unusable("the front matter is not a mapping: write one `field: value` per line")
    return meta


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise Unusable(f"must be text, got {type(value).__name__} {value!r:.40}")
    return value


def _label(value: Any) -> str:
    if not isinstance(value, str) or not LABEL.match(value):
        raise Unusable(f"{value!r:.40} is not a label: use 1-64 letters, digits, _ or -")
    return value


def _whole(low: int, high: int) -> Any:
    def check(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise Unusable(f"must be a whole number from {low} to {high}, got {value!r:.40}")
        return value

    return check


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise Unusable(f"must be true or false, got {value!r:.40}")
    return value


def _id(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not ID_PATTERN.match(value):
        raise Unusable(f"{value!r:.40} is not an id: use 1-128 letters, digits or _ . : @ -")
    return value


def _tenant(value: Any) -> str:
    if value == ANY_TENANT:
        return ANY_TENANT
    found = _id(value)
    if found is None:
        raise Unusable("must be a tenant id, or '*' for every tenant")
    return found


_CHECKS = {
    "label": _label,
    "description": _text,
    "limit": _whole(1, MAX_LIMIT),
    "read_only": _flag,
    "order": _whole(-1_000_000, 1_000_000),
    "tenant": _tenant,
    "agent": _id,
    "group": _id,
    "user": _id,
}
FIELDS = tuple(_CHECKS)
