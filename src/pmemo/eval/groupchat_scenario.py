"""A synthetic, deterministic group-chat scenario for the agent pmemo is built for (DESIGN §6).

Three IM groups (a Chinese exam-prep group, a Chinese badminton group, an English coffee
club) and private chats over five months: mostly small talk, with facts embedded sparsely
in varied phrasings, nicknames introduced before they are used, display-name changes,
members silent for months, group-scoped and private facts, job and city changes and dated
plans. Every check (questions, profile views, follow-ups, alias and subject checks, leak
probes) is derived from the same script as the messages, so its evidence is true by
construction.

This module holds the models, their JSON form and ``summary``; the cast and the script are
data in ``groupchat_data`` and ``groupchat_gen`` builds a scenario from them (``generate`` is
re-exported here). Pure: ``random.Random(seed)`` is the only source of variation and nothing
is read or written; files are the caller's business
(``json.dump(to_json(s), f, ensure_ascii=False)``).

>>> from pmemo.eval.groupchat_gen import generate
>>> s = generate(0, messages=500)
>>> len(s.messages) >= 500 and len(s.people) >= 20
True
>>> from_json(to_json(s)) == s
True
"""

from __future__ import annotations

import types
from collections import Counter
from dataclasses import MISSING, dataclass, fields, is_dataclass
from datetime import date, datetime
from typing import Any, Union, get_args, get_origin, get_type_hints

from pmemo.errors import InvalidInput

from .groupchat_data import START

FORMAT = "pmemo-groupchat/1"
QUESTION_KINDS = ("fact", "nickname", "silent", "rename", "job_change", "who")
PERSON_KINDS = ("who", "fact", "pronoun")  # person questions (groupchat_person.py)
IM_KINDS = ("reply",)  # asked only of a scenario with IM shapes (groupchat_im.py): the answer to a question


# -- the scenario -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Person:
    """A member: display names over time (a rename appends one), the nicknames others use.

    >>> Person("p1", (("王静", "2025-09-01"), ("静静想上岸", "2025-11-12")), ("静静",), "zh", ("g1",)).names[-1][0]
    '静静想上岸'
    """

    id: str
    names: tuple[tuple[str, str], ...]  # (display name, ISO date from which it is used), in order
    nicknames: tuple[str, ...]  # what others call them in messages, learned there
    lang: str  # "zh" | "en"
    groups: tuple[str, ...]


@dataclass(frozen=True)
class Group:
    """An IM group. ``Group("g1", "考研互助群", ("p1", "p2")).members[0]`` is ``'p1'``."""

    id: str
    name: str
    members: tuple[str, ...]


@dataclass(frozen=True)
class Message:
    """One chat message: in a group (``group_id``) or a private chat with ``user_id``, never both.

    >>> Message(0, "g1", None, "g1:2025-09-01", "p1", "周霓", "user", "早", "2025-09-01T08:00:00+08:00").role
    'user'
    """

    idx: int
    group_id: str | None
    user_id: str | None  # the person of a private chat
    session_id: str
    actor_id: str | None  # None for the agent's own replies
    actor: str | None  # display name at that moment
    role: str  # "user" | "assistant"
    content: str
    timestamp: str  # ISO 8601, +08:00
    metadata: dict[str, Any] | None = None  # as a platform sends it (message_id, reply_to_message), or none


@dataclass(frozen=True)
class Question:
    """A question asked in the group (or private chat) where its evidence was said.

    ``asker`` is a person id; ``evidence`` message idx; ``answer`` a substring of the evidence.

    >>> Question("q1", "霓霓对什么过敏？", "g1", None, "p2", "2026-01-29T10:00:00+08:00", (5,), "nickname", "花生").kind
    'nickname'
    """

    id: str
    query: str
    group_id: str | None
    user_id: str | None
    asker: str
    at: str
    evidence: tuple[int, ...]
    kind: str  # one of QUESTION_KINDS
    answer: str = ""


@dataclass(frozen=True)
class PersonQuestion:
    """A member asks about another (issue 44 §3): who they are, one of their facts, or either with
    a pronoun after ``recent`` named them; the context should hold one of ``answers``.

    >>> PersonQuestion("p1", "她对什么过敏来着", "g1", "p2", "2026-01-29T10:00:00+08:00", ("刚看到周霓了",),
    ...                "p1", "pronoun", ("花生",), "zh").person_id
    'p1'
    """

    id: str
    query: str
    group_id: str
    asker: str
    at: str
    recent: tuple[str, ...]  # the chat's last lines before the question, oldest first
    person_id: str  # whom it asks about
    kind: str  # one of PERSON_KINDS
    answers: tuple[str, ...]  # what the person said in this chat that answers it: any one
    lang: str


@dataclass(frozen=True)
class ProfileCheck:
    """Substrings that must / must not be among a person's current fact values in one view.

    ``group_id`` None is the global view. ``ProfileCheck("p1", "g1", ("花生",), ("螺蛳粉",), "…").absent``
    is ``('螺蛳粉',)``.
    """

    person_id: str
    group_id: str | None
    present: tuple[str, ...]
    absent: tuple[str, ...]
    why: str


@dataclass(frozen=True)
class FollowUp:
    """An unrelated message a person sends at ``at``; ``expect`` the plan label the context must show.

    >>> FollowUp("p1", "g1", "2025-12-21T22:30:00+08:00", "还不睡？", "考研", "two days before").expect
    '考研'
    """

    person_id: str
    group_id: str
    at: str
    query: str
    expect: str | None  # None: no plan may surface (long past, or its outcome was reported)
    why: str


@dataclass(frozen=True)
class AliasCheck:
    """The people a text names, in order of first mention; () for ordinary words that look like names.

    >>> AliasCheck("别问了，让我静静", "g1", ()).expected
    ()
    """

    text: str
    group_id: str
    expected: tuple[str, ...]


@dataclass(frozen=True)
class SubjectCheck:
    """A message stating a fact and the person it is about (the speaker, or the person named).

    >>> SubjectCheck(12, "p1", "花生").expected_subject
    'p1'
    """

    message_idx: int
    expected_subject: str
    fact_hint: str


@dataclass(frozen=True)
class LeakProbe:
    """A query in a group whose results must never include ``forbidden`` (other groups' or private idx).

    >>> LeakProbe("g1", "霓霓现在还在上班吗？", (40,)).forbidden
    (40,)
    """

    group_id: str
    query: str
    forbidden: tuple[int, ...]


@dataclass(frozen=True)
class Scenario:
    """Messages plus every check derived from them. See ``generate``."""

    seed: int
    people: tuple[Person, ...]
    groups: tuple[Group, ...]
    messages: tuple[Message, ...]
    questions: tuple[Question, ...]
    profile_checks: tuple[ProfileCheck, ...]
    followups: tuple[FollowUp, ...]
    alias_checks: tuple[AliasCheck, ...]
    subject_checks: tuple[SubjectCheck, ...]
    leak_probes: tuple[LeakProbe, ...] = ()
    cues: tuple[Question, ...] = ()  # kind "cue": the chat's last lines as the query
    person_questions: tuple[PersonQuestion, ...] = ()  # about one member, for the person card (issue 44 §3)


# -- JSON ---------------------------------------------------------------------------------------


def to_json(s: Scenario) -> dict[str, Any]:
    """The scenario as plain JSON data (lists, dicts, str, int, None), tagged with ``FORMAT``.

    >>> from pmemo.eval.groupchat_gen import generate
    >>> to_json(generate(0, messages=0))["format"]
    'pmemo-groupchat/1'
    """
    return {"format": FORMAT, **{f.name: _plain(getattr(s, f.name)) for f in fields(s)}}


def _plain(value: Any) -> Any:
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def from_json(data: Any) -> Scenario:
    """Read what ``to_json`` wrote; InvalidInput names the first bad field (``messages[3].role``).

    >>> from_json({"format": "nope"})
    Traceback (most recent call last):
    ...
    pmemo.errors.InvalidInput: format: expected 'pmemo-groupchat/1', got 'nope'
    """
    if not isinstance(data, dict):
        raise InvalidInput(f"scenario: expected an object, got {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise InvalidInput(f"format: expected {FORMAT!r}, got {data.get('format')!r}")
    body = {k: v for k, v in data.items() if k != "format"}
    scenario = _decode(Scenario, body, "")
    _validate(scenario)
    return scenario


def _decode(tp: Any, value: Any, path: str) -> Any:
    """Check value against a type hint of our dataclasses and rebuild it (lists become tuples)."""
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        if value is None and type(None) in get_args(tp):
            return None
        (inner,) = [a for a in get_args(tp) if a is not type(None)]
        return _decode(inner, value, path)
    if origin is tuple:
        if not isinstance(value, list):
            raise InvalidInput(f"{path}: expected a list, got {type(value).__name__}")
        args = get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], v, f"{path}[{i}]") for i, v in enumerate(value))
        if len(value) != len(args):
            raise InvalidInput(f"{path}: expected {len(args)} items, got {len(value)}")
        return tuple(_decode(a, v, f"{path}[{i}]") for i, (a, v) in enumerate(zip(args, value, strict=True)))
    if is_dataclass(tp):
        return _decode_object(tp, value, path)
    if tp is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise InvalidInput(f"{path}: expected an integer, got {value!r}")
    if tp is str and not isinstance(value, str):
        raise InvalidInput(f"{path}: expected a string, got {value!r}")
    return value


def _decode_object(cls: Any, value: Any, path: str) -> Any:
    if not isinstance(value, dict):
        raise InvalidInput(f"{path or cls.__name__}: expected an object, got {type(value).__name__}")
    hints = get_type_hints(cls)
    known = {f.name for f in fields(cls)}
    unknown = sorted(set(value) - known)
    if unknown:
        raise InvalidInput(f"{path}.{unknown[0]}".lstrip(".") + ": unknown field")
    kwargs = {}
    for f in fields(cls):
        sub = f"{path}.{f.name}".lstrip(".")
        if f.name in value:
            kwargs[f.name] = _decode(hints[f.name], value[f.name], sub)
        elif f.default is MISSING:
            raise InvalidInput(f"{sub}: missing")
    return cls(**kwargs)


def _validate(s: Scenario) -> None:
    """The rules a type hint cannot say: enums, one scope per message, references that exist."""
    people = {p.id for p in s.people}
    groups = {g.id for g in s.groups}
    for i, p in enumerate(s.people):
        _require(p.lang in ("zh", "en"), f"people[{i}].lang", f"'zh' or 'en', got {p.lang!r}")
        _require(bool(p.names), f"people[{i}].names", "at least one display name")
        for j, (_, since) in enumerate(p.names):
            _require(_is_date(since), f"people[{i}].names[{j}][1]", f"an ISO date, got {since!r}")
    for i, m in enumerate(s.messages):
        where = f"messages[{i}]"
        _require(m.idx == i, f"{where}.idx", f"{i} (messages in idx order), got {m.idx}")
        _require(m.role in ("user", "assistant", "system"), f"{where}.role",
                 f"'user', 'assistant' or 'system' (a notice), got {m.role!r}")
        _require((m.group_id is None) != (m.user_id is None), f"{where}.group_id", "exactly one of group_id, user_id")
        _require(m.group_id is None or m.group_id in groups, f"{where}.group_id", f"a known group, got {m.group_id!r}")
        _require(m.user_id is None or m.user_id in people, f"{where}.user_id", f"a known person, got {m.user_id!r}")
        _require((m.actor_id is None) == (m.role != "user"), f"{where}.actor_id",
                 "None exactly for the agent and notices")
        _require(m.actor_id is None or m.actor_id in people, f"{where}.actor_id", f"a known person, got {m.actor_id!r}")
        _require(_is_time(m.timestamp), f"{where}.timestamp", f"ISO 8601 with an offset, got {m.timestamp!r}")
    for name, asked, kinds in (("questions", s.questions, QUESTION_KINDS + IM_KINDS), ("cues", s.cues, ("cue",))):
        for i, q in enumerate(asked):
            _require(q.kind in kinds, f"{name}[{i}].kind", f"one of {kinds}, got {q.kind!r}")
            _require(_is_time(q.at), f"{name}[{i}].at", f"ISO 8601 with an offset, got {q.at!r}")
            bad = [e for e in q.evidence if not 0 <= e < len(s.messages)]
            _require(not bad, f"{name}[{i}].evidence", f"message idx, got {bad}")
    for i, pq in enumerate(s.person_questions):
        where = f"person_questions[{i}]"
        _require(pq.kind in PERSON_KINDS, f"{where}.kind", f"one of {PERSON_KINDS}, got {pq.kind!r}")
        _require(pq.group_id in groups, f"{where}.group_id", f"a known group, got {pq.group_id!r}")
        _require(pq.person_id in people, f"{where}.person_id", f"a known person, got {pq.person_id!r}")
        _require(bool(pq.answers), f"{where}.answers", "at least one answer")
    for i, f in enumerate(s.followups):
        _require(_is_time(f.at), f"followups[{i}].at", f"ISO 8601 with an offset, got {f.at!r}")
        _require(f.group_id in groups, f"followups[{i}].group_id", f"a known group, got {f.group_id!r}")
    for i, a in enumerate(s.alias_checks):
        _require(a.group_id in groups, f"alias_checks[{i}].group_id", f"a known group, got {a.group_id!r}")
    for i, c in enumerate(s.subject_checks):
        _require(0 <= c.message_idx < len(s.messages), f"subject_checks[{i}].message_idx", "a message idx")
    for i, probe in enumerate(s.leak_probes):
        _require(probe.group_id in groups, f"leak_probes[{i}].group_id", f"a known group, got {probe.group_id!r}")


def _require(ok: bool, path: str, expected: str) -> None:
    if not ok:
        raise InvalidInput(f"{path}: expected {expected}")


def _is_date(text: str) -> bool:
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return True


def _is_time(text: str) -> bool:
    try:
        return datetime.fromisoformat(text).tzinfo is not None
    except ValueError:
        return False


# -- summary ------------------------------------------------------------------------------------


def summary(s: Scenario) -> dict[str, Any]:
    """Counts a reviewer reads first: messages per group, renames, silent members, checks.

    >>> from pmemo.eval.groupchat_gen import generate
    >>> summary(generate(0, messages=300))["groups"]
    3
    """
    per_scope = Counter(m.group_id or "private" for m in s.messages)
    last_said: dict[str, str] = {}
    for m in s.messages:
        if m.actor_id:
            last_said[m.actor_id] = m.timestamp
    end = datetime.fromisoformat(s.messages[-1].timestamp) if s.messages else START
    silent = sorted(p for p, ts in last_said.items() if (end - datetime.fromisoformat(ts)).days >= 90)
    first = s.messages[0].timestamp if s.messages else None
    return {
        "seed": s.seed,
        "messages": len(s.messages),
        "messages_per_group": dict(sorted(per_scope.items())),
        "assistant_messages": sum(m.role == "assistant" for m in s.messages),
        "private_chats": len({m.user_id for m in s.messages if m.user_id}),
        "first": first,
        "last": s.messages[-1].timestamp if s.messages else None,
        "days": (end - datetime.fromisoformat(first)).days if first else 0,
        "people": len(s.people),
        "groups": len(s.groups),
        "people_in_several_groups": sum(len(p.groups) > 1 for p in s.people),
        "renames": sum(len(p.names) - 1 for p in s.people),
        "silent_members": silent,
        "questions": len(s.questions),
        "questions_per_kind": dict(sorted(Counter(q.kind for q in s.questions).items())),
        "profile_checks": len(s.profile_checks),
        "followups": len(s.followups),
        "alias_checks": len(s.alias_checks),
        "alias_negatives": sum(not a.expected for a in s.alias_checks),
        "subject_checks": len(s.subject_checks),
        "leak_probes": len(s.leak_probes),
        "cues": len(s.cues),
        "person_questions": len(s.person_questions),
    }
