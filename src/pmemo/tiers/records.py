"""Long-term records: field checks, access control and ranking (pure).

A record is read by its owner; a "shared" one also by ``allowed_users`` and holders of
``allowed_roles``; a "public" one by anyone in its tenant. The store filters in SQL;
``can_read`` checks every row again before it leaves the library.

>>> from datetime import datetime
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import InvalidInput
from ..models import Record

VISIBILITY = ("private", "shared", "public")
FIELDS = {
    "type": str,
    "visibility": str,
    "content": str,
    "summary": str,
    "structured": dict,
    "importance": float,
    "confidence": float,
    "tags": list,
    "source": str,
    "relations": list,
    "allowed_users": list,
    "allowed_roles": list,
}


def can_read(record: Record, viewer: str, roles: tuple[str, ...] = ()) -> bool:
    if record.user_id == viewer or record.visibility == "public":
        return True
    if record.visibility == "shared":
        return viewer in record.allowed_users or bool(set(roles) & set(record.allowed_roles))
    return False


def check_fields(fields: dict[str, Any], partial: bool = False) -> dict[str, Any]:
    """Validated record fields; names what to fix."""
    unknown = set(fields) - set(FIELDS)
    if unknown:
        raise InvalidInput(f"unknown record field(s): {', '.join(sorted(unknown))}")
    out: dict[str, Any] = {}
    for name, value in fields.items():
        kind = FIELDS[name]
        if kind is float:
            if (
                isinstance(value, bool)
                or not isinstance(value, (int, float))
                or not 0 <= value <= 1
            ):
                raise InvalidInput(f"record {name} must be a number in [0, 1]")
            value = float(value)
        elif kind is list:
            if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
                raise InvalidInput(f"record {name} must be a list")
            value = list(value)
        elif not isinstance(value, kind):
            raise InvalidInput(f"record {name} must be a {kind.__name__}")
        out[name] = value
    if "visibility" in out and out["visibility"] not in VISIBILITY:
        raise InvalidInput(f"visibility must be one of {', '.join(VISIBILITY)}")
    if not partial and not str(out.get("content", "")).strip():
        raise InvalidInput("a record needs content (non-empty text)")
    return out


def ranked(found: list[Record], vecs: dict[int, np.ndarray], qvec: np.ndarray) -> list[Record]:
    """Best match first: cosine × (0.5 + 0.5 × decay score) — decay lowers, never hides."""

    def score(r: Record) -> float:
        vec = vecs.get(r.id)
        cos = float(vec @ qvec) if vec is not None and vec.shape == qvec.shape else 0.0
        return cos * (0.5 + 0.5 * r.decay_score)

    return sorted(found, key=lambda r: (-score(r), r.id))
