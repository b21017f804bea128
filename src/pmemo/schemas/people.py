"""People (issue 17): register, resolve, profiles, members and the agenda."""

from __future__ import annotations

from datetime import date, datetime
from typing import TYPE_CHECKING, Annotated, Any, Self

from pydantic import BaseModel, Field, model_validator

from ..models import AgendaItem, Alias, Member, Person
from ..people.aliases import MAX_ALIAS_CHARS
from ..people.resolve import Match
from .common import MAX_ALIASES, MAX_QUERY, Out, ScopeIn, Strict, _id, either, examples, owner_of

# The control and format characters (Unicode Cc and Cf, as of Python 3.11's Unicode 14) that
# check_alias refuses in a name; tests/server/test_clean_edges.py holds this to unicodedata.
CONTROL_RANGES = (
    (0x00, 0x1F), (0x7F, 0x9F), (0xAD, 0xAD), (0x600, 0x605), (0x61C, 0x61C), (0x6DD, 0x6DD),
    (0x70F, 0x70F), (0x890, 0x891), (0x8E2, 0x8E2), (0x180E, 0x180E), (0x200B, 0x200F),
    (0x202A, 0x202E), (0x2060, 0x2064), (0x2066, 0x206F), (0xFEFF, 0xFEFF), (0xFFF9, 0xFFFB),
    (0x110BD, 0x110BD), (0x110CD, 0x110CD), (0x13430, 0x13438), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0001, 0xE0001), (0xE0020, 0xE007F),
)


def _char(code: int) -> str:
    # \xNN and \uNNNN read the same in Python, Rust and ECMA regexes; a character past the
    # BMP is written as itself, which all three read too
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else chr(code)


_CONTROL = "".join(_char(a) if a == b else f"{_char(a)}-{_char(b)}" for a, b in CONTROL_RANGES)
# A name: no control or format character, and something besides spaces
NAME_PATTERN = f"^[^{_CONTROL}]*[^\\s{_CONTROL}][^{_CONTROL}]*$"

AliasText = Annotated[str, Field(min_length=1, max_length=MAX_ALIAS_CHARS, pattern=NAME_PATTERN)]


class AtMostOneOwner(Strict):
    """A body whose owner is optional: at most one of ``user_id`` / ``group_id``, which the
    subclass declares (with its own descriptions, in its own place among its fields)."""

    body_rule = either({"absent": ["user_id"]}, {"absent": ["group_id"]})

    if TYPE_CHECKING:  # declared by each subclass: here they would come first in its schema
        user_id: str | None
        group_id: str | None
        agent_id: str

    @model_validator(mode="after")
    def _at_most_one_owner(self) -> Self:
        if self.user_id is not None and self.group_id is not None:
            raise ValueError("give at most one of user_id or group_id")
        return self

    def scope(self) -> dict[str, Any]:
        """The owner given, if any: the library takes no owner keys for none."""
        return owner_kw(self.user_id, self.group_id, self.agent_id)


class PersonIn(AtMostOneOwner):
    """``Memory.add_person``: register a person or update them (aliases are merged, never
    replaced). With ``group_id`` or ``user_id`` they are also a member there before they speak."""

    model_config = examples({"name": "周霓", "aliases": ["霓霓", "Neko"], "group_id": "study"}, {"aliases": ["Neko"]})

    name: str | None = Field(
        None, min_length=1, max_length=MAX_ALIAS_CHARS, pattern=NAME_PATTERN, description="Their display name now."
    )
    aliases: list[AliasText] = Field(
        default_factory=list, max_length=MAX_ALIASES, description="Other names they go by."
    )
    user_id: str | None = _id(None, description="A private chat they belong to.")
    group_id: str | None = _id(None, description="A group they belong to.")
    agent_id: str = _id("default")


def owner_kw(user_id: str | None, group_id: str | None, agent_id: str) -> dict[str, Any]:
    """Scope keyword arguments with an owner only when one is given (``add_person``,
    ``profile`` read "no owner" from the absence of the keys)."""
    owner = {"user_id": user_id} if user_id is not None else {}
    if group_id is not None:
        owner["group_id"] = group_id
    return {**owner, "agent_id": agent_id}


class ResolveIn(ScopeIn):
    """``Memory.resolve_people``: the people a text names, members of the chat first."""

    model_config = examples({"group_id": "study", "text": "你认识霓霓吗？"})

    text: str = Field(min_length=1, max_length=MAX_QUERY, pattern=r"\S")


class AliasOut(Out):
    alias: str = Field(examples=["霓霓"])
    source: str = Field(
        description="registered (by hand), name (a display name seen on their turns), learned "
        "(from a message), mention (an @handle) or generated (from a name).",
        examples=["learned"],
    )
    learned_in: str | None = Field(description="The chat it came from; null: tenant-wide. A nickname learned or "
                                   "@-mentioned in several chats is listed once for each.", examples=["g:study"])
    first_seen: datetime
    last_seen: datetime
    turn_id: int | None = Field(description="The turn it was learned from.")

    @classmethod
    def of(cls, a: Alias) -> AliasOut:
        return cls.read(a)


class PersonOut(Out):
    id: str = Field(examples=["ni"])
    name: str | None = Field(description="Their latest display name.", examples=["周霓"])
    names: list[str] = Field(description="Their display names, oldest first.", examples=[["周霓"]])
    aliases: list[AliasOut]
    first_seen: datetime | None
    last_seen: datetime | None
    messages: int

    @classmethod
    def of(cls, p: Person) -> PersonOut:
        return cls.read(p, aliases=[AliasOut.of(a) for a in p.aliases])


class MemberOut(Out):
    """A person as seen in one group or private chat."""

    person: PersonOut
    owner: str = Field(examples=["g:study"])
    first_seen: datetime
    last_seen: datetime
    messages: int = Field(description="How many messages they sent here.")

    @classmethod
    def of(cls, m: Member) -> MemberOut:
        return cls.read(m, person=PersonOut.of(m.person))


class MembersOut(BaseModel):
    members: list[MemberOut] = Field(description="Latest speaker first.")


class MatchOut(Out):
    alias: str = Field(description="The name as the text writes it, at `text[start:end]`.", examples=["霓霓"])
    start: int
    end: int
    person_ids: list[str] = Field(description="One id, or several when the name is ambiguous.", examples=[["ni"]])
    source: str = Field(description="The strongest source of the alias among them.", examples=["learned"])
    ambiguous: bool

    @classmethod
    def of(cls, m: Match) -> MatchOut:
        return cls.read(m)


class MatchesOut(BaseModel):
    matches: list[MatchOut]


class AgendaItemOut(Out):
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
        return cls.read(i, **owner_of(i))


class AgendaOut(BaseModel):
    items: list[AgendaItemOut] = Field(description="By day.")
