"""Conversions between SQLite rows and records (``Record``); a fact's, an episode's and a task's
are their ports' SQL's (``stores/facts_sql.py`` …)."""

from __future__ import annotations

import json
import sqlite3

from ...models import Record, Scope
from .codec import utc


def record(row: sqlite3.Row) -> Record:
    return Record(
        id=row["id"],
        tenant_id=row["tenant"],
        agent_id=row["agent"],
        user_id=row["user_id"],
        type=row["type"],
        visibility=row["visibility"],
        content=row["content"],
        summary=row["summary"],
        structured=json.loads(row["structured"]),
        embedding_model=row["embedding_model"],
        importance=row["importance"],
        confidence=row["confidence"],
        tags=tuple(json.loads(row["tags"])),
        source=row["source"],
        version=row["version"],
        created_at=utc(row["created"]),
        updated_at=utc(row["updated"]),
        accessed_at=utc(row["accessed"]),
        decay_score=row["decay_score"],
        relations=tuple(json.loads(row["relations"])),
        allowed_users=tuple(json.loads(row["allowed_users"])),
        allowed_roles=tuple(json.loads(row["allowed_roles"])),
    )


def scope_cols(scope: Scope) -> tuple[str, str, str, str]:
    return scope.key, scope.tenant_id, scope.agent_id, scope.owner
