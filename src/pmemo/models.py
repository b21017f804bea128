"""Frozen records pmemo hands out. No I/O here.

>>> Scope.of(user_id="u1").owner
'u:u1'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any, Literal

from .errors import InvalidInput
from .text import attachments

Tier = Literal["blocks", "key", "people", "agenda", "profile", "long_term", "mid_term", "episodic", "graph",
              "short_term", "input"]
Kind = Literal["block", "turn", "cluster", "summary", "key", "fact", "episode", "task", "person", "agenda", "diary",
              "triple", "window"]
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
    actor_id: str | None = None  # the speaker's stable person id; ``actor`` is their name then
    reply_to: int | None = None  # the id of the turn of its chat it answers (issue 44 §2)

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
    def subject(self) -> str | None:
        """Whom a first-person statement in this turn is about: the speaker's person id; in a
        private chat without one, the user; in a group without one, the display name as a key
        of its own (``name:<actor>``), so two members' facts never meet; else the owner (None).

        >>> Turn(1, Scope.of(user_id="u1"), 1, "user", "hi", None, datetime(2026, 1, 1)).subject
        'u1'
        """
        if self.actor_id is not None:
            return self.actor_id
        if self.scope.user_id is not None:
            return self.scope.user_id
        return f"name:{self.actor}" if self.actor else None

    @property
    def indexed(self) -> str:
        """What the lexical and vector indexes see: the words and the captions of the turn's
        attachments (``text.attachments``). Who said them is data (``actor_id``, ``actor``) that
        the speaker signal matches, so a rename changes no vector and every turn of one speaker
        does not look alike."""
        return attachments.indexed(self.content, self.metadata)


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
    version: int = 1  # +1 on every change: an update may name the version it read


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
    """The packed context for one message: ``text`` is ready to put in a prompt.

    ``over_budget``: the memory blocks and key lines, always whole, alone take more than
    ``budget``; the pack is then only those (``tokens`` > ``budget``) and ``note`` says so."""

    query: str
    text: str
    items: tuple[Hit, ...]
    tokens: int
    budget: int
    over_budget: bool = False
    note: str = ""


# ---- profile, episodes, tasks, records (issue 5) ---------------------------------------------
FACT_CATEGORIES = ("preference", "fact", "habit", "skill", "relationship", "profile", "procedural")
# explicit: stated outright (by a message, or by add_fact); corrected: a stated change;
# edited: set by hand with update_fact
FACT_SOURCES = ("explicit", "inferred", "system", "corrected", "edited")


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
    subject_id: str | None = None  # the person it is about; None: the scope's owner
    mentioned: tuple[str, ...] = ()  # other people the statement names
    said: str = ""  # the clause it came from, in the person's words, its subject made explicit

    @property
    def text(self) -> str:
        return f"{self.category} · {self.key}: {self.value}"

    @property
    def learned_in(self) -> str:
        """Where it was said: the owner of its scope ("g:<group>" or "u:<user>")."""
        return self.scope.owner


FactAction = Literal["insert", "reinforce", "supersede", "conflict", "skip"]


@dataclass(frozen=True)
class Candidate:
    """A fact as one turn states it, before the upsert rules (``tiers.profile.decide``) meet
    what is stored. A model, not a tier's private type: the extractors make it and the stores
    write it."""

    category: str
    key: str
    value: str
    confidence: float
    source: str = "explicit"  # explicit | inferred | system | corrected
    importance: float = 0.5
    expires_epoch: float | None = None
    subject: str | None = None  # the person it is about (None: the scope's owner)
    mentioned: tuple[str, ...] = ()  # other people the statement names
    said: str = ""  # the clause it came from, its subject made explicit ("周霓：花粉过敏")
    # one value at a time (a job, a home, a school, a partner): a newer statement replaces the
    # current value whatever the confidences (``tiers.profile.decide``)
    newer_wins: bool = False


@dataclass(frozen=True)
class Decision:
    """What the upsert rules decided for a candidate; the store applies it as decided."""

    action: FactAction
    key: str  # the key to store under (after near-duplicate merging)
    confidence: float  # confidence of the fact that ends up current (or of the conflict)
    target: Fact | None = None  # the current fact acted on
    promote: Fact | None = None  # a conflict row that becomes current (supersede)
    reinforce: Fact | None = None  # the row whose mentions grow (reinforce / conflict)


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


# ---- people (issue 17) ----------------------------------------------------------------------
# strongest first: what a developer or the person said beats what pmemo saw, and everything
# beats a guess; one person's alias from several sources counts as its strongest
ALIAS_SOURCES = ("registered", "name", "learned", "mention", "generated")
ALIAS_STRENGTH = {source: rank for rank, source in enumerate(ALIAS_SOURCES)}


@dataclass(frozen=True)
class Alias:
    """A name a person goes by, and where pmemo got it: ``registered`` by hand, a display
    ``name`` seen on their turns, ``learned`` from a message, an @``mention``, or ``generated``
    from a name (老周, 霓霓). ``learned_in`` is the owner scope it came from (None: tenant-wide)."""

    alias: str
    source: str
    learned_in: str | None
    first_seen: datetime
    last_seen: datetime
    turn_id: int | None = None


SAID_IN_A_CHAT = ("learned", "mention")  # sources kept apart for each chat they were said in


def strongest(aliases: Sequence[Alias]) -> tuple[Alias, ...]:
    """One entry per alias, from its strongest source; a nickname learned or @-mentioned in
    several chats is one entry per chat (each chat's card shows and cites its own), in order.

    >>> t = datetime(2026, 1, 1)
    >>> [(a.source, a.learned_in) for a in strongest([Alias("霓霓", "generated", "g:a", t, t),
    ...     Alias("霓霓", "learned", "g:a", t, t), Alias("霓霓", "learned", "g:b", t, t)])]
    [('learned', 'g:a'), ('learned', 'g:b')]
    """
    top = {a.alias: min(ALIAS_STRENGTH[b.source] for b in aliases if b.alias == a.alias) for a in aliases}
    best: dict[tuple[str, str | None], Alias] = {}
    for a in aliases:
        if ALIAS_STRENGTH[a.source] == top[a.alias]:
            best.setdefault((a.alias, a.learned_in if a.source in SAID_IN_A_CHAT else None), a)
    return tuple(best.values())


@dataclass(frozen=True)
class Person:
    """Someone the agent knows, by a stable id per tenant. ``names`` are their display names
    oldest first (a rename adds one); ``aliases`` every other name that resolves to them."""

    id: str
    tenant_id: str
    name: str | None
    names: tuple[str, ...]
    aliases: tuple[Alias, ...]
    first_seen: datetime | None
    last_seen: datetime | None
    messages: int


@dataclass(frozen=True)
class Member:
    """A person as seen in one group or private chat: when they spoke first and last, how often,
    and how they talk there (characters said, messages mostly in Chinese, questions asked)."""

    person: Person
    owner: str
    first_seen: datetime
    last_seen: datetime
    messages: int
    chars: int = 0
    han: int = 0
    asks: int = 0

    @property
    def traits(self) -> tuple[str, ...]:
        """How they talk in this group: message size ("short", "medium", "long"), language
        ("zh", "en", "zh+en") and "asks" when they often ask questions; () before a message."""
        if not self.messages:
            return ()
        size = self.chars / self.messages
        share = self.han / self.messages
        return ("short" if size < 20 else "long" if size > 80 else "medium",
                "zh" if share > 0.8 else "en" if share < 0.2 else "zh+en",
                *(("asks",) if self.asks / self.messages > 0.3 else ()))

    @property
    def style(self) -> str:
        """How they talk in this group, in words: "short messages, in Chinese, often asks"."""
        words = {"short": "short messages", "medium": "medium messages", "long": "long messages",
                 "zh": "in Chinese", "en": "in English", "zh+en": "in Chinese and English",
                 "asks": "often asks questions"}
        return ", ".join(words[t] for t in self.traits)


@dataclass(frozen=True)
class AgendaItem:
    """A dated plan or event someone mentioned ("12月23日考研", "interview on Friday"): whose,
    when, and the turn that said it. ``status`` is "open" until a later message reports how
    it went ("done", with ``outcome``)."""

    id: int
    scope: Scope
    person_id: str | None
    day: date
    what: str
    text: str
    turn_id: int | None
    status: str = "open"
    outcome: str | None = None


# ---- diary (issue 20) -------------------------------------------------------------------------
@dataclass(frozen=True)
class Diary:
    """One day of a group or private chat, written once the day is over: by the LLM in the
    agent's own voice (``method`` "llm"), or offline as a digest of what was said ("digest").
    ``day`` is the calendar day in the diary's time zone (``diary_tz``); ``source_ids`` are
    the turns it was written from, so forgetting one rewrites it."""

    id: int
    scope: Scope
    day: date
    text: str
    method: str  # "llm" | "digest"
    source_ids: tuple[int, ...]
    created_at: datetime
    updated_at: datetime


# ---- graph (issue 20) -------------------------------------------------------------------------
ENTITY_KINDS = ("person", "place", "org", "thing")


@dataclass(frozen=True)
class Entity:
    """A node of the graph: a person of the registry (``person_id`` set; their names are the
    registry's aliases), or a place, an organisation or a thing with its own ``aliases``.
    ``key`` is how triples and reads name it: the person id, else the entity's name."""

    id: int
    kind: str  # one of ENTITY_KINDS
    name: str  # a person's display name; another entity's name as first said
    person_id: str | None = None
    aliases: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        return self.person_id or self.name


@dataclass(frozen=True)
class Triple:
    """(subject, predicate, object) with the time it held: ``valid_to`` is set once a newer
    statement replaced it (a new employer closes the old one). ``subject`` and ``object`` are
    entity keys (a person id, or a name); a literal value ("后端工程师") has no ``object_kind``.
    ``qualifier`` refines a predicate (a pet's species). ``sources`` are the turns that said it;
    ``learned_in`` the group or private chat it was said in.

    >>> t = Triple(1, Scope.of(group_id="g"), "ni", "person", "works_at", "腾讯", "org", None,
    ...            datetime(2026, 1, 1), None, 0.8, (3,))
    >>> t.current, t.learned_in
    (True, 'g:g')
    """

    id: int
    scope: Scope
    subject: str
    subject_kind: str
    predicate: str
    object: str
    object_kind: str | None  # None: a literal value
    qualifier: str | None
    valid_from: datetime
    valid_to: datetime | None
    confidence: float
    sources: tuple[int, ...]
    subject_name: str = ""  # display names (a person's name now), for sentences
    object_name: str = ""
    fact_id: int | None = None  # the profile fact it was derived from, if any
    subject_entity: int = 0
    object_entity: int | None = None

    @property
    def current(self) -> bool:
        return self.valid_to is None

    @property
    def learned_in(self) -> str:
        return self.scope.owner


@dataclass(frozen=True)
class Graph:
    """An entity and its neighbourhood: the nodes the triples connect, and the triples."""

    entity: Entity
    nodes: tuple[Entity, ...]
    triples: tuple[Triple, ...]


@dataclass(frozen=True)
class Insight:
    """What a language model inferred about a person from what they said ("often complains
    about math exams → probably a student"): never a fact, always labelled as inferred, with
    the turns it was inferred from (``sources``)."""

    id: int
    scope: Scope
    person_id: str
    text: str
    confidence: float
    sources: tuple[int, ...]
    created_at: datetime


@dataclass(frozen=True)
class PersonSummary:
    """A short portrait of a person in one group or chat, from their facts and (with a language
    model) the insights about them; ``method`` "llm" or "facts" (offline: the facts only)."""

    person_id: str
    text: str
    method: str
    facts: tuple[int, ...]
    insights: tuple[int, ...]


# ---- L2 windows (issue 20) ------------------------------------------------------------------
@dataclass(frozen=True)
class Window:
    """Consecutive turns of one user or group embedded as one unit: its members are the owner's
    turns with an id in [turn_from, turn_to] (so a forgotten turn leaves it at once). An
    ``open`` window is still growing and has no vector yet; ``text_hash`` is that of the text
    its vector was made from."""

    id: int
    scope: Scope  # the owner scope
    turn_from: int
    turn_to: int
    open: bool
    text_hash: str


def epoch_of(ts: datetime) -> float:
    """Epoch seconds of a turn time; naive times are UTC (as the store keeps them)."""

    return (ts if ts.tzinfo is not None else ts.replace(tzinfo=UTC)).timestamp()
