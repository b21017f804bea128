"""The graph (issue 20): entities, triples with their validity times, insights."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field

from ..graph.sentences import triple_sentence
from ..models import Entity, Graph, Insight, Triple
from .common import Out


class EntityOut(Out):
    id: int = Field(description="0 for a person nothing is known about yet in the graph.")
    kind: str = Field(description="`person`, `place`, `org` or `thing`.", examples=["person"])
    name: str = Field(description="A person's display name now; another entity's name.", examples=["周霓"])
    key: str = Field(description="How triples name it: the person id, else the name.", examples=["ni"])
    person_id: str | None
    aliases: list[str] = Field(description="Other names of a place, organisation or thing (a person's are in"
                                           " `/v1/people/{person_id}`).")

    @classmethod
    def of(cls, e: Entity) -> EntityOut:
        return cls.read(e)


class TripleOut(Out):
    id: int
    subject: str = Field(description="The subject's key: a person id, else the entity's name.", examples=["ni"])
    subject_kind: str = Field(examples=["person"])
    subject_name: str = Field(examples=["周霓"])
    predicate: str = Field(description="`works_at`, `lives_in`, `from`, `studies_at`, `studies`, `job`, `has_pet`,"
                                       " `likes`, `dislikes`, `allergic_to`, `avoids`, `diet`, `favorite`,"
                                       " `birthday`, `friend_of`, `classmate_of`, `colleague_of`, `sister_of` …",
                           examples=["works_at"])
    object: str = Field(description="The object's key (a person id or an entity's name), or a literal value.",
                        examples=["腾讯"])
    object_kind: str | None = Field(description="The object entity's kind; null: `object` is a literal value.",
                                    examples=["org"])
    object_name: str = Field(examples=["腾讯"])
    qualifier: str | None = Field(description="What refines the predicate: a pet's species, a favourite's kind.")
    valid_from: datetime = Field(description="When it was first said.")
    valid_to: datetime | None = Field(description="When a newer statement replaced it; null: it still holds.")
    current: bool
    confidence: float
    sources: list[int] = Field(description="The turns that said it.")
    learned_in: str = Field(description="Where it was said: `g:<group_id>` or `u:<user_id>`.", examples=["g:study"])
    fact_id: int | None = Field(description="The profile fact it says, if it came from one.")
    sentence: str = Field(description="The triple in words, in the language it was said in.",
                          examples=["周霓在腾讯工作"])

    @classmethod
    def of(cls, t: Triple) -> TripleOut:
        return cls.read(t, sentence=triple_sentence(t))


class GraphOut(BaseModel):
    entity: EntityOut
    nodes: list[EntityOut] = Field(description="The entity first, then every entity the triples connect.")
    triples: list[TripleOut]

    @classmethod
    def of(cls, g: Graph) -> GraphOut:
        return cls(entity=EntityOut.of(g.entity), nodes=[EntityOut.of(n) for n in g.nodes],
                   triples=[TripleOut.of(t) for t in g.triples])


class TriplesOut(BaseModel):
    triples: list[TripleOut]


class InsightOut(Out):
    id: int
    person_id: str
    text: str = Field(examples=["often complains about math exams → probably a student"])
    inferred: bool = Field(default=True, description="Always true: an insight is a language model's inference,"
                                                     " never a stated fact.")
    confidence: float
    sources: list[int] = Field(description="The turns it was inferred from.")
    learned_in: str = Field(examples=["g:study"])
    created_at: datetime

    @classmethod
    def of(cls, i: Insight) -> InsightOut:
        return cls.read(i, learned_in=i.scope.owner)


class InsightsOut(BaseModel):
    insights: list[InsightOut]
