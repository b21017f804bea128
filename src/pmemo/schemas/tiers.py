"""What the inspector lists: summaries, clusters, sessions, owners, stats, facts, episodes, tasks."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from ..models import Cluster as ClusterModel
from ..models import Episode, Fact, Summary, Task
from ..rules.sentences import fact_sentence
from .common import RowId, Strict, _finite


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


class StatsOut(BaseModel):
    tenant: str
    stats: dict[str, Any]


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
    source: str = Field(
        description="How it was stated: `explicit` said outright (extracted from the `source_ids` turns; none:"
        " added with add_fact), `inferred`, `corrected` (a change the person stated), `edited` (corrected by"
        " hand), `system`."
    )
    source_ids: list[int]
    importance: float
    version: int = Field(description="+1 on every change; send it back to update safely")
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


class FactUpdate(Strict):
    """A fact's value corrected by hand (``Memory.update_fact``)."""

    value: str = Field(min_length=1, max_length=1_000, pattern=r"\S", examples=["腾讯"])
    version: RowId | None = Field(
        None,
        description="The version you read; a fact changed since then is left alone (409)."
        " Or send `If-Match: \"<version>\"`.",
    )


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
