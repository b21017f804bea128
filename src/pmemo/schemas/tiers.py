"""What the inspector lists: summaries, clusters, sessions, owners, stats, facts, episodes, tasks."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from ..models import Cluster as ClusterModel
from ..models import Episode, Fact, Summary, Task
from ..rules.sentences import fact_sentence
from .common import Out, RowId, Strict, _finite, owner_of, read_version


class SummaryOut(Out):
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
        return cls.read(s, session_id=s.scope.session_id)


class SummariesOut(BaseModel):
    summaries: list[SummaryOut]


class ClusterOut(Out):
    id: int
    size: int
    hits: float
    label: str
    member_ids: list[int]
    updated_at: datetime

    @classmethod
    def of(cls, c: ClusterModel) -> ClusterOut:
        return cls.read(c, hits=_finite(float(c.hits)))


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


class FactOut(Out):
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
        return cls.read(f, **owner_of(f), confidence=_finite(float(f.confidence)), source_ids=list(f.sources),
                        importance=_finite(float(f.importance)),
                        sentence=fact_sentence(name or f.subject_id, f.category, f.key, f.value))


class FactsOut(BaseModel):
    facts: list[FactOut]


class FactUpdate(Strict):
    """A fact's value corrected by hand (``Memory.update_fact``)."""

    value: str = Field(min_length=1, max_length=1_000, pattern=r"\S", examples=["腾讯"])
    version: RowId | None = read_version("fact")


class EpisodeOut(Out):
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
        return cls.read(e, session_id=e.scope.session_id, importance=_finite(float(e.importance)))


class EpisodesOut(BaseModel):
    episodes: list[EpisodeOut]


class TaskStepOut(BaseModel):
    text: str
    status: str
    result: str | None
    error: str | None


class TaskOut(Out):
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
        return cls.read(t, session_id=t.scope.session_id, steps=[
            TaskStepOut(text=s.text, status=s.status, result=s.result, error=s.error) for s in t.steps])


class TasksOut(BaseModel):
    tasks: list[TaskOut]
