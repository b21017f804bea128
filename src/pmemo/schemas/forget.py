"""Forgetting: forget, restore, the forget log and the decay sweep."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, model_validator

from .common import MAX_ID, RowId, Strict, _id, either, examples

MAX_FORGET_IDS = 1_000


class ForgetIn(Strict):
    """``Memory.forget``: ``turn_ids`` or ``query`` (the latter with exactly one owner)."""

    model_config = examples({"user_id": "alice", "query": "my sister"}, {"turn_ids": [12, 13]})

    body_rule = either(
        {"given": {"turn_ids": "array"}, "absent": ["query", "user_id", "group_id"]},
        {"given": {"query": "string", "user_id": "string"}, "absent": ["turn_ids", "group_id"]},
        {"given": {"query": "string", "group_id": "string"}, "absent": ["turn_ids", "user_id"]},
    )

    turn_ids: list[RowId] | None = Field(None, min_length=1, max_length=MAX_FORGET_IDS)
    query: str | None = Field(None, min_length=1, max_length=4_000, pattern=r"\S")
    user_id: str | None = _id(None)
    group_id: str | None = _id(None)
    agent_id: str = _id("default")
    hard: bool = Field(False, description="Erase at once (not restorable).")
    reason: str = Field("", max_length=500)

    @model_validator(mode="after")
    def _what(self) -> ForgetIn:
        if (self.turn_ids is None) == (self.query is None):
            raise ValueError("give turn_ids or query (what to forget), not both")
        if self.turn_ids is not None:
            if any(not 1 <= i <= MAX_ID for i in self.turn_ids):
                raise ValueError("turn ids are positive integers")
            if self.user_id is not None or self.group_id is not None:
                raise ValueError("turn_ids need no user_id/group_id")
        elif (self.user_id is None) == (self.group_id is None):
            raise ValueError("a query needs exactly one of user_id or group_id")
        return self

    def scope(self) -> dict[str, Any]:
        if self.turn_ids is not None:
            return {}
        return {"user_id": self.user_id, "group_id": self.group_id, "agent_id": self.agent_id}


class ForgetOut(BaseModel):
    """What a forget removed; ``batch`` is what ``/v1/restore`` takes (null when hard or empty)."""

    batch: int | None
    mode: str
    turns: list[int]
    removed: dict[str, Any]


class PersonForgetOut(BaseModel):
    """What forgetting a person took (``Memory.forget(person_id=...)``); ``batch`` is what
    ``/v1/restore`` takes (null when hard or a dry run)."""

    person_id: str
    dry_run: bool
    batch: int | None
    mode: str = Field(description="soft (restorable), hard (erased), or dry_run (nothing changed)")
    turns: list[int] = Field(description="The turns they said (there).")
    facts: list[int] = Field(description="Facts about them or naming them, whoever said them.")
    triples: list[int]
    agenda: list[int]
    aliases: list[str] = Field(description="The names that no longer resolve to them (there).")
    memberships: list[str] = Field(description="The chats they are no longer a member of (g:… or u:…).")
    record: bool = Field(description="Whether the person record itself went (a forget everywhere).")
    removed: dict[str, Any] = Field(description="The whole report: what was deleted or rebuilt, by kind.")

    @classmethod
    def of(cls, person_id: str, report: dict[str, Any], removed: dict[str, Any]) -> PersonForgetOut:
        """From the library's report, and that report as JSON (``removed``)."""
        dry = bool(report.get("dry_run"))
        mode = "dry_run" if dry else str(report["mode"])
        return cls(person_id=person_id, dry_run=dry, batch=report.get("batch") if mode == "soft" else None,
                   mode=mode, turns=sorted(report.get("turns") or []),
                   facts=sorted(map(int, report.get("facts") or [])),
                   triples=sorted(map(int, report.get("triples") or [])), agenda=sorted(report.get("agenda") or []),
                   aliases=list(report.get("aliases") or []), memberships=list(report.get("memberships") or []),
                   record=bool(report.get("record")), removed=removed)


class RestoreIn(Strict):
    model_config = examples({"batch": 3}, {"turn_ids": [12]})

    body_rule = either(
        {"given": {"batch": "integer"}, "absent": ["turn_ids"]},
        {"given": {"turn_ids": "array"}, "absent": ["batch"]},
    )

    batch: RowId | None = None
    turn_ids: list[RowId] | None = Field(None, min_length=1, max_length=MAX_FORGET_IDS)

    @model_validator(mode="after")
    def _one(self) -> RestoreIn:
        if (self.batch is None) == (self.turn_ids is None):
            raise ValueError("give the batch a forget/sweep returned, or turn_ids")
        if self.turn_ids is not None and any(not 1 <= i <= MAX_ID for i in self.turn_ids):
            raise ValueError("turn ids are positive integers")
        return self


class RestoredOut(BaseModel):
    batches: list[int]
    restored: dict[str, Any]


class ForgetLogOut(BaseModel):
    entries: list[dict[str, Any]]


class PurgeIn(Strict):
    model_config = examples({"batch": 3})

    batch: RowId


class PurgedOut(BaseModel):
    batch: int
    purged_rows: int = Field(description="Rows erased: the batch's snapshots and soft-deleted rows.")


class SweepIn(Strict):
    dry_run: bool = Field(True, description="Only plan (the default); false soft-deletes.")


class SweepOut(BaseModel):
    dry_run: bool
    batch: int | None
    actions: list[dict[str, Any]]
