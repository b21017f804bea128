"""Request and response bodies of the REST API: pydantic at the edge, with limits and examples.

Bodies mirror the library's calls (``add``, ``search``, ``context``); the tenant is
never in a body, it comes from the API key.
"""

from __future__ import annotations

import math
from datetime import date, datetime
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..models import (
    AgendaItem,
    Alias,
    ContextPack,
    Episode,
    Fact,
    Hit,
    KeyLine,
    Kind,
    Member,
    Person,
    Summary,
    Task,
    Tier,
    Turn,
)
from ..models import Cluster as ClusterModel
from ..people.aliases import MAX_ALIAS_CHARS
from ..people.resolve import Match
from ..retrieval.sentences import fact_sentence

ID = r"^[A-Za-z0-9_.:@\-]{1,128}$"
MAX_CONTENT = 100_000
MAX_BATCH = 500
MAX_BUDGET = 32_000
MAX_QUERY = 20_000  # the library's own limit on a query or a text to resolve
MAX_RECENT = 50
MAX_ALIASES = 100


def _id(default: Any = ..., **kw: Any) -> Any:
    return Field(default, pattern=ID, min_length=1, max_length=128, **kw)


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ScopeIn(Strict):
    """Who the memory belongs to: exactly one of ``user_id`` / ``group_id``."""

    user_id: str | None = _id(None, examples=["alice"])
    group_id: str | None = _id(None, examples=[None])
    agent_id: str = _id("default")

    @model_validator(mode="after")
    def _one_owner(self) -> ScopeIn:
        if (self.user_id is None) == (self.group_id is None):
            raise ValueError("give exactly one of user_id or group_id")
        return self

    def scope(self) -> dict[str, Any]:
        return {"user_id": self.user_id, "group_id": self.group_id, "agent_id": self.agent_id}


class TurnIn(ScopeIn):
    """One message, as ``Memory.add`` takes it."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "user_id": "alice",
                    "session_id": "s1",
                    "role": "user",
                    "content": "I moved to Lisbon last spring.",
                }
            ]
        },
    )

    session_id: str = _id(examples=["s1"])
    content: str = Field(min_length=1, max_length=MAX_CONTENT)
    role: str = Field("user", min_length=1, max_length=32, pattern=r"^[A-Za-z_\-]+$")
    actor: str | None = Field(None, max_length=128, description="The speaker's display name at the time.")
    actor_id: str | None = _id(
        None, description="The speaker's stable person id (see /v1/people); `actor` is only their name then."
    )
    timestamp: datetime | None = None
    metadata: dict[str, Any] | None = Field(None, max_length=50)

    def args(self, tenant: str) -> dict[str, Any]:
        return {
            **self.scope(),
            "tenant_id": tenant,
            "session_id": self.session_id,
            "content": self.content,
            "role": self.role,
            "actor": self.actor,
            "actor_id": self.actor_id,
            "timestamp": self.timestamp,
            "metadata": self.metadata,
        }


class TurnBatch(Strict):
    """Many turns in one call (``Memory.add_many``), stored in order."""

    turns: list[TurnIn] = Field(min_length=1, max_length=MAX_BATCH)


AT = "when the query is asked (default now): 'yesterday' or 'last week' in it is read from that day"


class SearchIn(ScopeIn):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"user_id": "alice", "query": "where do I live?"}]},
    )

    query: str = Field(min_length=1, max_length=4_000)
    limit: int = Field(10, ge=1, le=100)
    session_id: str | None = _id(None)
    at: datetime | None = Field(None, description=AT)


class ContextIn(ScopeIn):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "user_id": "alice",
                    "session_id": "s1",
                    "query": "where do I live?",
                    "budget_tokens": 1000,
                },
                {
                    "group_id": "study",
                    "session_id": "study-chat",
                    "query": "你认识霓霓吗？",
                    "asker": "wt",
                    "recent": ["今天谁去图书馆？", "我下午去"],
                },
            ]
        },
    )

    query: str = Field(min_length=1, max_length=MAX_CONTENT)
    session_id: str | None = _id(None)
    budget_tokens: int | None = Field(None, ge=16, le=MAX_BUDGET)
    at: datetime | None = Field(None, description=AT)
    asker: str | None = _id(
        None, description="The person id of who asks: their profile here and their plans near `at` come in."
    )
    recent: list[Annotated[str, Field(max_length=MAX_QUERY)]] | None = Field(
        None,
        max_length=MAX_RECENT,
        description="The last messages of the chat, newest last: the people they name come in too.",
    )


class KeyIn(ScopeIn):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"user_id": "alice", "text": "Prefers short answers."}]},
    )

    text: str = Field(min_length=1, max_length=2_000)


class KeyUpdate(Strict):
    text: str = Field(min_length=1, max_length=2_000, examples=["Prefers answers in Portuguese."])


class TenantIn(Strict):
    tenant: str = _id(examples=["acme"])
    label: str = Field("", max_length=200)


# responses ---------------------------------------------------------------


def _finite(x: float) -> float:
    return x if math.isfinite(x) else 0.0


class TurnOut(BaseModel):
    id: int
    session_id: str
    user_id: str | None
    group_id: str | None
    agent_id: str
    step: int
    role: str
    content: str
    actor: str | None
    actor_id: str | None
    timestamp: datetime
    metadata: dict[str, Any]

    @classmethod
    def of(cls, t: Turn) -> TurnOut:
        return cls(
            id=t.id,
            session_id=t.session_id,
            user_id=t.scope.user_id,
            group_id=t.scope.group_id,
            agent_id=t.scope.agent_id,
            step=t.step,
            role=t.role,
            content=t.content,
            actor=t.actor,
            actor_id=t.actor_id,
            timestamp=t.timestamp,
            metadata=dict(t.metadata or {}),
        )


class TurnsOut(BaseModel):
    turns: list[TurnOut]


class HitOut(BaseModel):
    id: str = Field(examples=["turn:12"])
    kind: Kind  # the models' own literals: a new tier or kind needs no change here
    tier: Tier
    text: str
    score: float
    why: str
    source_ids: list[int]
    sources: list[TurnOut]
    timestamp: datetime | None

    @classmethod
    def of(cls, h: Hit) -> HitOut:
        return cls(
            id=h.id,
            kind=h.kind,
            tier=h.tier,
            text=h.text,
            score=_finite(float(h.score)),
            why=h.why,
            source_ids=[s.id for s in h.sources],
            sources=[TurnOut.of(s) for s in h.sources],
            timestamp=h.timestamp,
        )


class HitsOut(BaseModel):
    hits: list[HitOut]


class ContextOut(BaseModel):
    query: str
    text: str
    items: list[HitOut]
    tokens: int
    budget: int

    @classmethod
    def of(cls, p: ContextPack) -> ContextOut:
        return cls(
            query=p.query,
            text=p.text,
            items=[HitOut.of(h) for h in p.items],
            tokens=p.tokens,
            budget=p.budget,
        )


class KeyLineOut(BaseModel):
    id: int
    text: str
    origin: str
    source_ids: list[int]
    created_at: datetime
    updated_at: datetime

    @classmethod
    def of(cls, k: KeyLine) -> KeyLineOut:
        return cls(
            id=k.id,
            text=k.text,
            origin=k.origin,
            source_ids=list(k.source_ids),
            created_at=k.created_at,
            updated_at=k.updated_at,
        )


class KeyLinesOut(BaseModel):
    lines: list[KeyLineOut]


class SummaryOut(BaseModel):
    id: int
    session_id: str | None
    step_from: int
    step_to: int
    text: str
    method: str
    source_ids: list[int]
    created_at: datetime

    @classmethod
    def of(cls, s: Summary) -> SummaryOut:
        return cls(
            id=s.id,
            session_id=s.scope.session_id,
            step_from=s.step_from,
            step_to=s.step_to,
            text=s.text,
            method=s.method,
            source_ids=list(s.source_ids),
            created_at=s.created_at,
        )


class SummariesOut(BaseModel):
    summaries: list[SummaryOut]


class ClusterOut(BaseModel):
    id: int
    size: int
    hits: float
    label: str
    member_ids: list[int]
    updated_at: datetime

    @classmethod
    def of(cls, c: ClusterModel) -> ClusterOut:
        return cls(
            id=c.id,
            size=c.size,
            hits=_finite(float(c.hits)),
            label=c.label,
            member_ids=list(c.member_ids),
            updated_at=c.updated_at,
        )


class ClustersOut(BaseModel):
    clusters: list[ClusterOut]


class SessionOut(BaseModel):
    session_id: str
    turns: int
    first: datetime | None = None
    last: datetime | None = None


class SessionsOut(BaseModel):
    sessions: list[SessionOut]


class OwnersOut(BaseModel):
    owners: list[str] = Field(examples=[["u:alice", "g:team"]])


class Removed(BaseModel):
    """What a delete removed or rebuilt, as the library reports it."""

    removed: dict[str, Any]


class StatsOut(BaseModel):
    tenant: str
    stats: dict[str, Any]


class KeyCreated(BaseModel):
    tenant: str
    key: str = Field(description="Shown once; only its hash is stored.")


class TenantOut(BaseModel):
    tenant: str
    created_at: str
    active_keys: int


class TenantsOut(BaseModel):
    tenants: list[TenantOut]


class Problem(BaseModel):
    """RFC 9457 problem body; every error has this shape."""

    type: str = "about:blank"
    title: str
    status: int
    code: str
    detail: str
    errors: list[dict[str, Any]] | None = None


# profile, episodes, tasks, forgetting (issue 5) ----------------------------

MAX_FORGET_IDS = 1_000


class ForgetIn(Strict):
    """``Memory.forget``: ``turn_ids`` or ``query`` (the latter with exactly one owner)."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [{"user_id": "alice", "query": "my sister"}, {"turn_ids": [12, 13]}]
        },
    )

    turn_ids: list[int] | None = Field(None, min_length=1, max_length=MAX_FORGET_IDS)
    query: str | None = Field(None, min_length=1, max_length=4_000)
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
            if any(not 1 <= i <= 2**62 for i in self.turn_ids):
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


class RestoreIn(Strict):
    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"batch": 3}, {"turn_ids": [12]}]}
    )

    batch: int | None = Field(None, ge=1, le=2**62)
    turn_ids: list[int] | None = Field(None, min_length=1, max_length=MAX_FORGET_IDS)

    @model_validator(mode="after")
    def _one(self) -> RestoreIn:
        if (self.batch is None) == (self.turn_ids is None):
            raise ValueError("give the batch a forget/sweep returned, or turn_ids")
        if self.turn_ids is not None and any(not 1 <= i <= 2**62 for i in self.turn_ids):
            raise ValueError("turn ids are positive integers")
        return self


class RestoredOut(BaseModel):
    batches: list[int]
    restored: dict[str, Any]


class ForgetLogOut(BaseModel):
    entries: list[dict[str, Any]]


class SweepIn(Strict):
    dry_run: bool = Field(True, description="Only plan (the default); false soft-deletes.")


class SweepOut(BaseModel):
    dry_run: bool
    batch: int | None
    actions: list[dict[str, Any]]


class FactOut(BaseModel):
    id: int
    user_id: str | None
    group_id: str | None
    agent_id: str
    category: str
    key: str
    value: str
    confidence: float
    mentions: int
    status: str
    source: str
    source_ids: list[int]
    importance: float
    version: int
    first_seen: datetime
    last_seen: datetime
    valid_from: datetime
    valid_to: datetime | None
    expires_at: datetime | None
    subject_id: str | None = Field(description="The person it is about; null: the scope's owner.")
    mentioned: list[str] = Field(description="Other people the statement names (person ids).")
    learned_in: str = Field(description="Where it was said: `g:<group_id>` or `u:<user_id>`.", examples=["g:study"])
    sentence: str = Field(
        description="The fact in words, in the language it was said in, about the person by name (by id "
                    "when the name is not known; 'the user' for a user's own facts).",
        examples=["周霓对花生过敏"],
    )

    @classmethod
    def of(cls, f: Fact, name: str | None = None) -> FactOut:
        """``name``: the person's display name, to say the fact as a sentence about them."""
        return cls(
            id=f.id,
            user_id=f.scope.user_id,
            group_id=f.scope.group_id,
            agent_id=f.scope.agent_id,
            category=f.category,
            key=f.key,
            value=f.value,
            confidence=_finite(float(f.confidence)),
            mentions=f.mentions,
            status=f.status,
            source=f.source,
            source_ids=list(f.sources),
            importance=_finite(float(f.importance)),
            version=f.version,
            first_seen=f.first_seen,
            last_seen=f.last_seen,
            valid_from=f.valid_from,
            valid_to=f.valid_to,
            expires_at=f.expires_at,
            subject_id=f.subject_id,
            mentioned=list(f.mentioned),
            learned_in=f.learned_in,
            sentence=fact_sentence(name or f.subject_id, f.category, f.key, f.value),
        )


class FactsOut(BaseModel):
    facts: list[FactOut]


class EpisodeOut(BaseModel):
    id: int
    kind: str
    session_id: str | None
    summary: str
    topics: list[str]
    actions: list[str]
    outcomes: list[str]
    lessons: list[str]
    importance: float
    started_at: datetime
    ended_at: datetime
    source_ids: list[int]
    step_from: int
    step_to: int
    access_count: int

    @classmethod
    def of(cls, e: Episode) -> EpisodeOut:
        return cls(
            id=e.id,
            kind=e.kind,
            session_id=e.scope.session_id,
            summary=e.summary,
            topics=list(e.topics),
            actions=list(e.actions),
            outcomes=list(e.outcomes),
            lessons=list(e.lessons),
            importance=_finite(float(e.importance)),
            started_at=e.started_at,
            ended_at=e.ended_at,
            source_ids=list(e.source_ids),
            step_from=e.step_from,
            step_to=e.step_to,
            access_count=e.access_count,
        )


class EpisodesOut(BaseModel):
    episodes: list[EpisodeOut]


class TaskStepOut(BaseModel):
    text: str
    status: str
    result: str | None
    error: str | None


class TaskOut(BaseModel):
    id: int
    session_id: str | None
    goal: str
    steps: list[TaskStepOut]
    scratchpad: str
    status: str
    feedback: str | None
    episode_id: int | None
    version: int
    created_at: datetime
    updated_at: datetime

    @classmethod
    def of(cls, t: Task) -> TaskOut:
        return cls(
            id=t.id,
            session_id=t.scope.session_id,
            goal=t.goal,
            steps=[
                TaskStepOut(text=s.text, status=s.status, result=s.result, error=s.error)
                for s in t.steps
            ],
            scratchpad=t.scratchpad,
            status=t.status,
            feedback=t.feedback,
            episode_id=t.episode_id,
            version=t.version,
            created_at=t.created_at,
            updated_at=t.updated_at,
        )


class TasksOut(BaseModel):
    tasks: list[TaskOut]


# people (issue 17) ---------------------------------------------------------------

AliasText = Annotated[str, Field(min_length=1, max_length=MAX_ALIAS_CHARS)]


class PersonIn(Strict):
    """``Memory.add_person``: register a person or update them (aliases are merged, never
    replaced). With ``group_id`` or ``user_id`` they are also a member there before they speak."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {"name": "周霓", "aliases": ["霓霓", "Neko"], "group_id": "study"},
                {"aliases": ["Neko"]},
            ]
        },
    )

    name: str | None = Field(
        None, min_length=1, max_length=MAX_ALIAS_CHARS, description="Their display name now."
    )
    aliases: list[AliasText] = Field(
        default_factory=list, max_length=MAX_ALIASES, description="Other names they go by."
    )
    user_id: str | None = _id(None, description="A private chat they belong to.")
    group_id: str | None = _id(None, description="A group they belong to.")
    agent_id: str = _id("default")

    @model_validator(mode="after")
    def _at_most_one_owner(self) -> PersonIn:
        if self.user_id is not None and self.group_id is not None:
            raise ValueError("give at most one of user_id or group_id")
        return self

    def scope(self) -> dict[str, Any]:
        """The membership to record, if any: the library takes no owner keys for none."""
        return owner_kw(self.user_id, self.group_id, self.agent_id)


def owner_kw(user_id: str | None, group_id: str | None, agent_id: str) -> dict[str, Any]:
    """Scope keyword arguments with an owner only when one is given (``add_person``,
    ``profile`` read "no owner" from the absence of the keys)."""
    owner = {"user_id": user_id} if user_id is not None else {}
    if group_id is not None:
        owner["group_id"] = group_id
    return {**owner, "agent_id": agent_id}


class ResolveIn(ScopeIn):
    """``Memory.resolve_people``: the people a text names, members of the chat first."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"group_id": "study", "text": "你认识霓霓吗？"}]},
    )

    text: str = Field(min_length=1, max_length=MAX_QUERY, pattern=r"\S")


class AliasOut(BaseModel):
    alias: str = Field(examples=["霓霓"])
    source: str = Field(
        description="registered (by hand), name (a display name seen on their turns), learned "
        "(from a message), mention (an @handle) or generated (from a name).",
        examples=["learned"],
    )
    learned_in: str | None = Field(description="The chat it came from; null: tenant-wide.", examples=["g:study"])
    first_seen: datetime
    last_seen: datetime
    turn_id: int | None = Field(description="The turn it was learned from.")

    @classmethod
    def of(cls, a: Alias) -> AliasOut:
        return cls(
            alias=a.alias,
            source=a.source,
            learned_in=a.learned_in,
            first_seen=a.first_seen,
            last_seen=a.last_seen,
            turn_id=a.turn_id,
        )


class PersonOut(BaseModel):
    id: str = Field(examples=["ni"])
    name: str | None = Field(description="Their latest display name.", examples=["周霓"])
    names: list[str] = Field(description="Their display names, oldest first.", examples=[["周霓"]])
    aliases: list[AliasOut]
    first_seen: datetime | None
    last_seen: datetime | None
    messages: int

    @classmethod
    def of(cls, p: Person) -> PersonOut:
        return cls(
            id=p.id,
            name=p.name,
            names=list(p.names),
            aliases=[AliasOut.of(a) for a in p.aliases],
            first_seen=p.first_seen,
            last_seen=p.last_seen,
            messages=p.messages,
        )


class MemberOut(BaseModel):
    """A person as seen in one group or private chat."""

    person: PersonOut
    owner: str = Field(examples=["g:study"])
    first_seen: datetime
    last_seen: datetime
    messages: int = Field(description="How many messages they sent here.")

    @classmethod
    def of(cls, m: Member) -> MemberOut:
        return cls(
            person=PersonOut.of(m.person),
            owner=m.owner,
            first_seen=m.first_seen,
            last_seen=m.last_seen,
            messages=m.messages,
        )


class MembersOut(BaseModel):
    members: list[MemberOut] = Field(description="Latest speaker first.")


class MatchOut(BaseModel):
    alias: str = Field(description="The name as the text writes it, at `text[start:end]`.", examples=["霓霓"])
    start: int
    end: int
    person_ids: list[str] = Field(description="One id, or several when the name is ambiguous.", examples=[["ni"]])
    source: str = Field(description="The strongest source of the alias among them.", examples=["learned"])
    ambiguous: bool

    @classmethod
    def of(cls, m: Match) -> MatchOut:
        return cls(
            alias=m.alias,
            start=m.start,
            end=m.end,
            person_ids=list(m.person_ids),
            source=m.source,
            ambiguous=m.ambiguous,
        )


class MatchesOut(BaseModel):
    matches: list[MatchOut]


class AgendaItemOut(BaseModel):
    """A dated plan someone mentioned; ``status`` is "open" until a later message says how it went."""

    id: int
    user_id: str | None
    group_id: str | None
    agent_id: str
    person_id: str | None = Field(examples=["ni"])
    day: date = Field(examples=["2026-12-23"])
    what: str = Field(examples=["考研"])
    text: str = Field(description="The message that said it.", examples=["12月23日考研，最近压力好大"])
    turn_id: int | None
    status: str = Field(examples=["open"])
    outcome: str | None

    @classmethod
    def of(cls, i: AgendaItem) -> AgendaItemOut:
        return cls(
            id=i.id,
            user_id=i.scope.user_id,
            group_id=i.scope.group_id,
            agent_id=i.scope.agent_id,
            person_id=i.person_id,
            day=i.day,
            what=i.what,
            text=i.text,
            turn_id=i.turn_id,
            status=i.status,
            outcome=i.outcome,
        )


class AgendaOut(BaseModel):
    items: list[AgendaItemOut] = Field(description="By day.")
