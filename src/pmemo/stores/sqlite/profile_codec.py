"""Conversions between SQLite rows and the task / record models (a fact's is
``stores.facts_sql.fact_of``)."""

from __future__ import annotations

import json
import sqlite3

from ...models import Record, Scope, Task, TaskStep
from .codec import scope_of, utc


def steps_json(steps: tuple[TaskStep, ...] | list[TaskStep]) -> str:
    return json.dumps([s.__dict__ for s in steps], ensure_ascii=False)


def task(row: sqlite3.Row) -> Task:
    steps = tuple(TaskStep(**s) for s in json.loads(row["steps"]))
    return Task(
        id=row["id"],
        scope=scope_of(row, row["session"] or None),
        goal=row["goal"],
        steps=steps,
        scratchpad=row["scratchpad"],
        status=row["status"],
        feedback=row["feedback"],
        episode_id=row["episode_id"],
        version=row["version"],
        created_at=utc(row["created"]),
        updated_at=utc(row["updated"]),
    )


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
