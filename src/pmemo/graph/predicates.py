"""What a triple can say (pure): the predicates, and the triples a profile fact stands for.

A predicate is *functional* when a person has one value at a time (an employer, a home
city, a job): a new value closes the old triple. Others accumulate (likes, friends). A
*symmetric* one reads the same either way round (A and B are friends); one with an
*opposite* ends it for the same object (now dislikes what they liked). Each fact whose key
names a link between a person and a thing maps to one triple: ``employer`` = 腾讯 is
(person, works_at, 腾讯 org), ``pet:cat`` = 年糕 is (person, has_pet, 年糕 thing, cat),
``opinion:火锅`` = likes is (person, likes, 火锅 thing); "no longer likes" ends that triple.

>>> [(s.predicate, s.object.name, s.object.kind) for s in from_fact("employer", "腾讯")]
[('works_at', '腾讯', 'org')]
>>> [(s.predicate, s.value, s.qualifier) for s in from_fact("pet:cat", "年糕")]
[('has_pet', '年糕', 'cat')]
"""

from __future__ import annotations

from dataclasses import dataclass

from ..stores.base import EntityRef


@dataclass(frozen=True)
class Predicate:
    """A predicate: ``object_kind`` of its objects (None: a literal value), whether it holds
    one value at a time, whether it reads the same both ways, and for a relation between
    people the sentence that says it (``{s}``, ``{o}``; a fact-like one is said as its fact)."""

    name: str
    object_kind: str | None
    functional: bool = False
    symmetric: bool = False
    zh: str = ""
    en: str = ""
    opposite: str | None = None  # it ends the open opposite about the same object (likes ↔ dislikes)


def _relation(name: str, zh: str, en: str, symmetric: bool = False) -> Predicate:
    return Predicate(name, "person", False, symmetric, zh, en)


PREDICATES: dict[str, Predicate] = {p.name: p for p in (
    Predicate("works_at", "org", functional=True),
    Predicate("lives_in", "place", functional=True),
    Predicate("from", "place", functional=True, zh="{s}来自{o}", en="{s} is from {o}"),
    Predicate("studies_at", "org", functional=True),
    Predicate("studies", None, functional=True),
    Predicate("job", None, functional=True),
    Predicate("diet", None, functional=True),
    Predicate("birthday", None, functional=True),
    Predicate("favorite", "thing", functional=True),  # one per qualifier: favorite food, colour…
    Predicate("has_pet", "thing"),
    Predicate("likes", "thing", opposite="dislikes"),
    Predicate("dislikes", "thing", opposite="likes"),
    Predicate("allergic_to", "thing"),
    Predicate("avoids", "thing"),
    _relation("friend_of", "{s}和{o}是朋友", "{s} and {o} are friends", True),
    _relation("classmate_of", "{s}和{o}是同学", "{s} and {o} are classmates", True),
    _relation("colleague_of", "{s}和{o}是同事", "{s} and {o} are colleagues", True),
    _relation("roommate_of", "{s}和{o}是室友", "{s} and {o} are roommates", True),
    _relation("partner_of", "{s}和{o}是一对", "{s} and {o} are a couple", True),
    _relation("sister_of", "{s}是{o}的姐妹", "{s} is {o}'s sister"),
    _relation("brother_of", "{s}是{o}的兄弟", "{s} is {o}'s brother"),
    _relation("parent_of", "{s}是{o}的父母", "{s} is {o}'s parent"),
    _relation("child_of", "{s}是{o}的孩子", "{s} is {o}'s child"),
    _relation("boss_of", "{s}是{o}的领导", "{s} is {o}'s boss"),
    _relation("teacher_of", "{s}是{o}的老师", "{s} is {o}'s teacher"),
)}
DEFAULT = Predicate("", "thing")  # a predicate a language model named that the table does not know


def predicate(name: str) -> Predicate:
    return PREDICATES.get(name, DEFAULT)


@dataclass(frozen=True)
class Said:
    """What one statement says of its subject, before it has a time and a turn."""

    predicate: str
    object: EntityRef | None  # None: ``value`` is a literal
    value: str
    qualifier: str | None = None
    ends: bool = False


def said(name: str, value: str, qualifier: str | None = None, ends: bool = False,
         kind: str | None = "") -> Said:
    """``name`` with ``value`` as its object: an entity of ``kind``, a literal (``kind`` None),
    or by default what the predicate's objects are."""
    value = " ".join(value.split())
    kind = predicate(name).object_kind if kind == "" else kind
    ref = None if kind is None else EntityRef(kind, value, value if kind == "person" else None)
    return Said(name, ref, value, qualifier, ends)


def person(person_id: str) -> EntityRef:
    """A person of the registry as an entity."""
    return EntityRef("person", person_id, person_id)


# a fact key's family → its predicate; the value is the object
_BY_FAMILY = {"employer": "works_at", "home_city": "lives_in", "school": "studies_at", "major": "studies",
              "job": "job", "birthday": "birthday", "hometown": "from"}
_LIKING = {"likes": ("likes", False), "loves": ("likes", False), "enjoys": ("likes", False),
           "dislikes": ("dislikes", False), "hates": ("dislikes", False), "no longer likes": ("likes", True)}
_AVOIDING = {"does not eat": ("eat", False), "does not drink": ("drink", False), "eats": ("eat", True),
             "drinks": ("drink", True)}


def from_fact(key: str, value: str) -> list[Said]:
    """The triples a fact ``key`` = ``value`` about a person stands for (none for a fact that
    links them to nothing: a name, a tone, a dated plan)."""
    family, _, obj = key.partition(":")
    low = value.casefold()
    if family in _BY_FAMILY and not obj:
        return [said(_BY_FAMILY[family], value)]
    if family == "pet" and obj:
        return [said("has_pet", value, obj)]
    if family == "allergy" and obj:
        return [said("allergic_to", obj)]
    if family == "opinion" and obj and low in _LIKING:
        name, ends = _LIKING[low]
        return [said(name, obj, ends=ends)]
    if family == "diet" and obj and low in _AVOIDING:
        verb, ends = _AVOIDING[low]
        return [said("avoids", obj, verb, ends)]
    if family == "diet" and not obj:
        return [said("diet", value)]
    if family == "favorite" and obj:
        return [said("favorite", value, obj)]
    return []
