"""Frozen records pmemo hands out. No I/O here.

>>> Scope.of(user_id="u1").owner
'u:u1'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

from .errors import InvalidInput

Tier = Literal["key", "profile", "long_term", "mid_term", "episodic", "short_term", "input"]
Kind = Literal["turn", "cluster", "summary", "key", "fact", "episode", "task"]
ID_PATTERN = re.compile(r"^[A-Za-z0-9_.:@\-]{1,128}$")


def check_id(name: str, value: Any) -> str:
    """Validate one scope id: 1-128 chars of letters, digits and ``_ . : @ -``."""
    if not isinstance(value, str):
        raise InvalidInput(f"{name} must be a string, got {type(value).__name__}")
    if not ID_PATTERN.match(value):
        raise InvalidInput(
            f"{name}={value[:40]!r} is invalid: use 1-128 letters, digits or _ . : @ -"
        )
    return value


@dataclass(frozen=True)
class Scope:
    """Where a record lives: tenant → agent → owner (user or group) → session."""

    tenant_id: str = "default"
    agent_id: str = "default"
    owner: str = ""  # "u:<user_id>" or "g:<group_id>"
    session_id: str | None = None

    @classmethod
    def of(
        cls,
        *,
        user_id: str | None = None,
        group_id: str | None = None,
        session_id: str | None = None,
        tenant_id: str = "default",
        agent_id: str = "default",
    ) -> Scope:
        if (user_id is None) == (group_id is None):
            raise InvalidInput("give exactly one of user_id or group_id")
        owner = f"u:{check_id('user_id', user_id)}" if user_id is not None else (
            f"g:{check_id('group_id', group_id)}"
        )
        if session_id is not None:
            check_id("session_id", session_id)
        return cls(check_id("tenant_id", tenant_id), check_id("agent_id", agent_id), owner, session_id)

    @property
    def key(self) -> str:
        """The owner-level scope as one token (used to filter indexes)."""
        return f"{self.tenant_id}|{self.agent_id}|{self.owner}"

    def owner_scope(self) -> Scope:
        return Scope(self.tenant_id, self.agent_id, self.owner, None)

    @property
    def user_id(self) -> str | None:
        return self.owner[2:] if self.owner.startswith("u:") else None

    @property
    def group_id(self) -> str | None:
        return self.owner[2:] if self.owner.startswith("g:") else None


@dataclass(frozen=True)
class Turn:
    """One message, stored raw and durably. ``step`` counts turns within the session from 1."""

    id: int
    scope: Scope
    step: int
    role: str
    content: str
    actor: str | None
    timestamp: datetime
    metadata: dict[str, Any] = field(default_factory=dict)

    @property
    def session_id(self) -> str:
        return self.scope.session_id or ""

    @property
    def user_id(self) -> str | None:
        return self.scope.user_id

    @property
    def text(self) -> str:
        return self.content

    @property
    def indexed(self) -> str:
        """What the lexical and vector indexes see: the speaker's name with the words, so
        "what did Mei say about…" finds Mei's turns."""
        return indexed_text(self.actor, self.content)


def indexed_text(actor: str | None, content: str) -> str:
    return f"{actor}: {content}" if actor else content


@dataclass(frozen=True)
class Cluster:
    """A mid-term group of similar turns, with its hit count."""

    id: int
    scope: Scope
    size: int
    hits: float
    label: str
    member_ids: tuple[int, ...]
    updated_at: datetime


@dataclass(frozen=True)
class Summary:
    """A long-term summary of turns ``step_from..step_to`` of one session."""

    id: int
    scope: Scope
    step_from: int
    step_to: int
    text: str
    method: str  # "llm" or "extractive"
    source_ids: tuple[int, ...]
    created_at: datetime


@dataclass(frozen=True)
class KeyLine:
    """An always-in-context line: set by the user ("user") or promoted from a cluster."""

    id: int
    scope: Scope
    text: str
    origin: str  # "user" | "promoted"
    source_ids: tuple[int, ...]
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class Hit:
    """A ranked item from search or in a context pack; ``sources`` are the turns behind it."""

    id: str  # "<kind>:<id>"
    kind: Kind
    tier: Tier
    text: str
    score: float
    why: str
    sources: tuple[Turn, ...]
    timestamp: datetime | None = None


@dataclass(frozen=True)
class ContextPack:
    """The packed context for one message: ``text`` is ready to put in a prompt."""

    query: str
    text: str
    items: tuple[Hit, ...]
    tokens: int
    budget: int


# ---- profile, episodes, tasks, records (issue 5) ---------------------------------------------
FACT_CATEGORIES = ("preference", "fact", "habit", "skill", "relationship", "profile", "procedural")
FACT_SOURCES = ("explicit", "inferred", "system", "corrected")


@dataclass(frozen=True)
class Fact:
    """Something known about a person. ``status``: "current", "superseded", "conflict", "expired".

    ``sources`` are the ids of the turns that stated it; ``valid_to`` is set once a newer
    value superseded it (history keeps it), ``expires_at`` for facts about dated events.
    """

    id: int
    scope: Scope
    category: str
    key: str
    value: str
    confidence: float
    mentions: int
    first_seen: datetime
    last_seen: datetime
    valid_from: datetime
    valid_to: datetime | None
    expires_at: datetime | None
    source: str
    sources: tuple[int, ...]
    status: str = "current"
    version: int = 1
    importance: float = 0.5

    @property
    def text(self) -> str:
        return f"{self.category} · {self.key}: {self.value}"


@dataclass(frozen=True)
class Episode:
    """What happened in a session, a compacted span or a task: kept for later recall."""

    id: int
    scope: Scope
    kind: str  # "session" | "compaction" | "task"
    summary: str
    topics: tuple[str, ...]
    actions: tuple[str, ...]
    outcomes: tuple[str, ...]
    lessons: tuple[str, ...]
    importance: float
    started_at: datetime
    ended_at: datetime
    source_ids: tuple[int, ...]
    step_from: int = 0
    step_to: int = 0
    access_count: int = 0
    created_at: datetime | None = None


@dataclass(frozen=True)
class TaskStep:
    text: str
    status: str = "pending"  # pending | running | done | failed | skipped
    result: str | None = None
    error: str | None = None


@dataclass(frozen=True)
class Task:
    """Working memory of a task in progress: goal, plan steps, scratchpad."""

    id: int
    scope: Scope
    goal: str
    steps: tuple[TaskStep, ...]
    scratchpad: str
    status: str  # running | done | failed
    feedback: str | None
    episode_id: int | None
    version: int
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class Record:
    """A long-term record with the full envelope: content, trust, decay and access control.

    ``visibility`` is the record's scope: "private" (owner only), "shared" (owner, the
    ``allowed_users`` and holders of ``allowed_roles``) or "public" (anyone in the tenant).
    """

    id: int
    tenant_id: str
    agent_id: str
    user_id: str
    type: str
    visibility: str
    content: str
    summary: str
    structured: dict[str, Any]
    embedding_model: str | None
    importance: float
    confidence: float
    tags: tuple[str, ...]
    source: str
    version: int
    created_at: datetime
    updated_at: datetime
    accessed_at: datetime
    decay_score: float
    relations: tuple[dict[str, Any], ...]
    allowed_users: tuple[str, ...]
    allowed_roles: tuple[str, ...]

    @property
    def scope(self) -> str:
        return self.visibility


def epoch_of(ts: datetime) -> float:
    """Epoch seconds of a turn time; naive times are UTC (as the store keeps them)."""

    return (ts if ts.tzinfo is not None else ts.replace(tzinfo=UTC)).timestamp()
