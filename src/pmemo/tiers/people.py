"""People: the registry of a tenant, resolving the names a text uses, learning nicknames.

The resolver of a tenant is one Aho-Corasick automaton over every alias (people/resolve.py),
built when the tenant's aliases changed (the store counts alias writes) and shared by every
read; a text is read in its chat (``resolve.Chat``: its members, where a nickname counts, who is
a woman or a man where known). Learning runs in the background job of a batch of turns: the
display names seen give generated forms (老周, 霓霓), messages give learned nicknames ("叫我霓霓
就行", "everyone calls her Neko"), @mentions whose person the turn's metadata names, generated
forms said to the one person a turn's metadata ties it to ("王老师，这题怎么做" replying to 王磊),
and evidence of gender (people/guesses.py); roles a chat gives ("我是班长", "@小王 是群主",
people/roles.py) are names of that member in that chat.
"""

from __future__ import annotations

import contextlib
import dataclasses
import threading
from collections.abc import Hashable, Iterable, Sequence
from datetime import datetime
from typing import Any

from ..models import SAID_IN_A_CHAT, Fact, Person, Scope, Turn, epoch_of
from ..people.aliases import Learned, generated_aliases, learned_aliases, mentions
from ..people.guesses import gender_of, platform_gender, pronoun_gender, self_gender
from ..people.resolve import AliasEntry, AliasIndex, Chat, Match
from ..people.roles import role_claims
from ..ports.unit import unit_of
from ..stores.base import ChatState, FullStore, NewAlias, NewSign, PeopleStore
from ..text import notices
from .held import Held
from .profile import settled

__all__ = ["People", "as_viewed", "fact_owners", "profile_view"]

_BEFORE_ADDRESS = " \t@＠「“\"'"  # what may come before the name a message opens with


class People:
    """Registry operations and name resolution over a store (blocking; run off the loop)."""

    def __init__(self, store: PeopleStore, *, per_chat: bool = True, guesses: str = "fit") -> None:
        """``per_chat`` and ``guesses``: the settings ``aliases_per_chat`` and ``alias_guesses``."""
        self.store = store
        self.per_chat = per_chat
        self.guesses = guesses
        self._lock = threading.Lock()
        self._indexes: dict[str, tuple[int, AliasIndex]] = {}
        self._genders: dict[str, tuple[int, dict[str, str]]] = {}
        self._held = Held()

    # ---- resolution ------------------------------------------------------------------------
    def batch(self) -> contextlib.AbstractContextManager[None]:
        """Within it, this thread reads each tenant's alias version and each chat's members once:
        a background batch resolves all its turns against one state of the registry (held.py)."""
        return self._held.batch()

    def reading(self, scope: Scope, state: ChatState) -> contextlib.AbstractContextManager[None]:
        """Within it, this thread resolves names in ``scope``'s chat against ``state`` (read by the
        caller, ``ReadPlanStore.chat_state``): its alias and sign versions and the chat's members
        are not read again (a context reads each once, issue 45 §4)."""
        owner = scope.owner_scope()
        tenant = owner.tenant_id
        known: dict[Hashable, object] = {("aliases", tenant): state.aliases, ("signs", tenant): state.signs,
                                         ("members", owner.key): set(state.members)}
        if owner.user_id is not None:
            known["owners", owner.key] = list(state.owners)
        return self._held.batch(known)

    def index(self, tenant: str) -> AliasIndex:
        """The tenant's resolver, rebuilt only when its aliases changed."""
        version = self._held.get(("aliases", tenant), lambda: self.store.alias_version(tenant))
        cached = self._indexes.get(tenant)
        if cached is not None and cached[0] == version:
            return cached[1]
        with self._lock:
            cached = self._indexes.get(tenant)
            if cached is None or cached[0] != version:
                entries = [AliasEntry(a, p, s, o if s in SAID_IN_A_CHAT else None)
                           for a, p, s, o in self.store.alias_rows(tenant)]
                cached = (version, AliasIndex(entries))
                self._indexes[tenant] = cached
        return cached[1]

    def genders(self, tenant: str) -> dict[str, str]:
        """Person id -> "f" / "m" where the evidence says (guesses.gender_of), read again only
        when new evidence came."""
        version = self._held.get(("signs", tenant), lambda: self.store.sign_version(tenant))
        cached = self._genders.get(tenant)
        if cached is None or cached[0] != version:
            by: dict[str, list[tuple[str, str, int]]] = {}
            for person, source, gender, n in self.store.signs(tenant):
                by.setdefault(person, []).append((source, gender, n))
            known = {p: g for p, signs in by.items() if (g := gender_of(signs)) is not None}
            cached = (version, known)
            self._genders[tenant] = cached
        return cached[1]

    def chat(self, scope: Scope) -> Chat:
        """The chat a text of ``scope`` is read in: its members (a group's; a private chat has
        none, so its person may speak of anyone), where a nickname said counts (the chat; a
        private chat's person's other chats too) and the genders known."""
        owner = scope.owner_scope()
        members = self._held.get(("members", owner.key), lambda: self.store.member_ids(owner))
        owners = {owner.owner}
        user = owner.user_id
        if user is not None:
            owners.update(self._held.get(("owners", owner.key),
                                         lambda: self.store.person_owners(owner.tenant_id, user)))
        return Chat(frozenset(owners), None if user is not None else frozenset(members),
                    self.genders(scope.tenant_id), self.per_chat, self.guesses)

    def resolve(self, text: str, scope: Scope) -> list[Match]:
        """The people ``text`` names, read in its chat (``chat``): members first, a nickname said
        elsewhere not at all, a generated form only for a member it fits (issue 44 §6)."""
        index = self.index(scope.tenant_id)
        if index.empty:
            return []
        return index.find(text, chat=self.chat(scope))

    def named(self, text: str, scope: Scope) -> list[str]:
        """The unambiguous person ids ``text`` names, in order of first appearance."""
        return list(dict.fromkeys(m.person_ids[0] for m in self.resolve(text, scope) if not m.ambiguous))

    # ---- learning (background) -------------------------------------------------------------
    def learn(self, turns: Sequence[Turn]) -> int:
        """Aliases from a batch of new turns; returns how many are new."""
        by_tenant: dict[str, list[NewAlias]] = {}
        names_done: set[tuple[str, str, str]] = set()
        for turn in turns:
            rows = by_tenant.setdefault(turn.scope.tenant_id, [])
            at, owner = epoch_of(turn.timestamp), turn.scope.owner
            if turn.actor_id and turn.actor and (turn.scope.tenant_id, turn.actor_id, turn.actor) not in names_done:
                names_done.add((turn.scope.tenant_id, turn.actor_id, turn.actor))
                rows.extend(NewAlias(turn.actor_id, form, "generated", owner, at, turn.id)
                            for form in generated_aliases(turn.actor))
        added = sum(self.store.add_aliases(tenant, rows) for tenant, rows in by_tenant.items())
        # messages are read once the batch's names are in: "叫我霓霓" can follow a first message
        signs: dict[str, list[NewSign]] = {}
        for turn in turns:
            if turn.role == "user":
                rows = self._from_message(turn)
                added += self.store.add_aliases(turn.scope.tenant_id, rows) if rows else 0
                signs.setdefault(turn.scope.tenant_id, []).extend(self._signs(turn))
        for tenant, found in signs.items():
            self.store.add_signs(tenant, found)
        return added

    def _signs(self, turn: Turn) -> list[NewSign]:
        """Evidence of gender in a user turn: the platform's word and what the speaker says of
        themself, for the speaker; the 她 / 他 after the one other person the text names, for them."""
        at, speaker, out = epoch_of(turn.timestamp), turn.actor_id, []
        if speaker:
            given = platform_gender(turn.metadata)
            if given is not None:
                out.append(NewSign(speaker, "platform", given, 0, at))
            said = self_gender(turn.content)
            if said is not None:
                out.append(NewSign(speaker, "self", said, turn.id, at))
        if "他" in turn.content or "她" in turn.content:
            found = self.resolve(turn.content, turn.scope)
            named = [m for m in found if not m.ambiguous and m.person_ids[0] != speaker]
            if len({m.person_ids[0] for m in named}) == 1:
                told = pronoun_gender(turn.content, named[0].start)
                if told is not None:
                    out.append(NewSign(named[0].person_ids[0], "pronoun", told, turn.id, at))
        return out

    def _from_message(self, turn: Turn) -> list[NewAlias]:
        at, owner = epoch_of(turn.timestamp), turn.scope.owner
        speaker = turn.actor_id
        out: list[NewAlias] = []
        found: list[Match] | None = None
        # nicknames, and roles the chat gives ("我是班长", "@小王 是群主": names of theirs here)
        for learned in [*learned_aliases(turn.content), *role_claims(turn.content)]:
            if learned.about == "speaker":
                person = speaker
            else:
                found = self.resolve(turn.content, turn.scope) if found is None else found
                person = _other(learned, found, speaker, turn.metadata)
            if person is not None:
                out.append(NewAlias(person, learned.alias, "learned", owner, at, turn.id))
        tagged = [p for p in turn.metadata.get("mentions", []) if isinstance(p, str)]
        handles = mentions(turn.content)
        if len(tagged) == 1 and len(handles) == 1:  # the platform says whom "@霓霓" is
            out.append(NewAlias(tagged[0], handles[0][0], "mention", owner, at, turn.id))
        return out + self._called(turn, tagged)

    def _called(self, turn: Turn, tagged: list[str]) -> list[NewAlias]:
        """A generated form of theirs a message opens with, said to the one person the platform
        ties it to (``mentions``, else ``reply_to_person``): "王老师，这题怎么做" replying to 王磊
        makes 王老师 his in this chat. Elsewhere in the message the form may be someone else's."""
        reply = turn.metadata.get("reply_to_person")
        tied = tagged[0] if len(tagged) == 1 else reply if isinstance(reply, str) and not tagged else None
        if tied is None or tied == turn.actor_id:
            return []
        opening = len(turn.content) - len(turn.content.lstrip(_BEFORE_ADDRESS))
        return [NewAlias(tied, m.alias, "mention", turn.scope.owner, epoch_of(turn.timestamp), turn.id)
                for m in self.index(turn.scope.tenant_id).find(turn.content)
                if m.start == opening and m.source == "generated" and tied in m.person_ids]

    def notices(self, turns: Sequence[Turn]) -> int:
        """The registry as a batch's system notices leave it (issue 44 §2): a rename ("周霓 修改群名片为
        霓霓") gives the person its new display name (an alias of the same id, with its generated
        forms), a join makes a known person a member of the chat again; a leave keeps the person
        and their names, so one who comes back under a new card is the same id. Whom a notice is
        about: the platform's ``metadata["person"]``, else the one member its name resolves to.
        Returns how many aliases are new."""
        added = 0
        for turn in turns:
            found = notices.notice(turn.content, turn.metadata)
            if found is None or found.type not in ("rename", "join"):
                continue
            given = turn.metadata.get("person")
            person = given if isinstance(given, str) and given else self._named(found.who, turn.scope)
            if person is None:
                continue
            tenant, at, owner = turn.scope.tenant_id, epoch_of(turn.timestamp), turn.scope.owner
            with unit_of(self.store):  # a member under the new name, or neither
                self.store.add_person(tenant, person, None, [], member_of=turn.scope.owner_scope())
                if found.type == "rename" and found.other:
                    rows = [NewAlias(person, found.other, "name", owner, at, turn.id)]
                    rows += [NewAlias(person, form, "generated", owner, at, turn.id)
                             for form in generated_aliases(found.other)]
                    added += self.store.add_aliases(tenant, rows)
        return added

    def mentioned(self, turn: Turn) -> list[str]:
        """The people a turn @-mentions, as person ids (issue 44 §2): the platform's
        ``metadata["mentions"]`` when it gives them, else each "@群名片" of the text read as the
        longest name of the chat's registry right after the "@" (a card with spaces or one never
        seen is nobody), in order.

        "@霓霓-备考中 我可以" names 周霓 once the rename notice gave her that card."""
        given = turn.metadata.get("mentions")
        if isinstance(given, list) and any(isinstance(p, str) for p in given):
            return list(dict.fromkeys(p for p in given if isinstance(p, str)))
        text = turn.content
        starts = {i + 1 for i, c in enumerate(text) if c in "@＠"}
        if not starts:
            return []
        found = [m for m in self.resolve(text, turn.scope) if m.start in starts and not m.ambiguous]
        return list(dict.fromkeys(m.person_ids[0] for m in found))

    def _named(self, name: str, scope: Scope) -> str | None:
        """The one person ``name`` (a whole display name or alias) is in the chat, or None."""
        if not name:
            return None
        people = {p for m in self.resolve(name, scope) if m.start == 0 and m.end == len(name) for p in m.person_ids}
        return people.pop() if len(people) == 1 else None

    # ---- registry --------------------------------------------------------------------------
    def person(self, tenant: str, person_id: str) -> Person | None:
        return self.store.get_people(tenant, [person_id]).get(person_id)


def _other(learned: Learned, found: list[Match], speaker: str | None, metadata: dict[str, Any]) -> str | None:
    """Whom "大家都叫她霓霓" is about: the person the sentence names (its ``target``), else
    the one other person the message names, else the one the platform says it replies to."""
    start = learned.span[0]
    candidates = [m for m in found if not m.ambiguous and m.person_ids[0] != speaker
                  and not (m.start <= start < m.end)]
    if learned.target is not None:  # the sentence names them: that name, or nobody
        candidates = [m for m in candidates if m.alias == learned.target or learned.target.endswith(m.alias)]
        if not candidates:
            return None
        before = [m for m in candidates if m.start < start]
        candidates = before[-1:] or candidates
    people = list(dict.fromkeys(m.person_ids[0] for m in candidates))
    if len(people) == 1:
        return people[0]
    reply = metadata.get("reply_to_person")
    return reply if not people and isinstance(reply, str) else None


def profile_view(store: FullStore, tenant: str, agent: str, person: str, owner: str | None, history: bool,
                 private_in_groups: bool, at: datetime | None = None) -> list[Fact]:
    """A person's facts as seen from ``owner`` (a group: only what was learned there, plus their
    private chat when allowed; their private chat: what they said there), or from everywhere
    (``owner`` None), the newest value of each fact current and listed first (``settled``);
    with ``at``, as they stood then (``facts_at``)."""
    owners = None if owner is None else fact_owners(owner, person, private_in_groups)
    return as_viewed(store.profile.facts_about(tenant, agent, person, owners, True), history, at)


def fact_owners(owner: str, person: str, private_in_groups: bool) -> list[str]:
    """Where ``profile_view`` reads a person's facts from ``owner``: there, and from a group,
    their private chat when allowed."""
    return [owner] + ([f"u:{person}"] if private_in_groups and owner.startswith("g:") else [])


def as_viewed(stored: Sequence[Fact], history: bool, at: datetime | None = None) -> list[Fact]:
    """``profile_view`` of a person's facts as read (every status): the newest value of each
    current and listed first (``settled``: a group and the private chat are two places too, the
    newest value leads, the stale never does); with ``at``, as they stood then."""
    facts = settled(list(stored) if at is None else facts_at(stored, at))
    return [f for f in facts if history or f.status == "current"]


def facts_at(facts: Iterable[Fact], at: datetime) -> list[Fact]:
    """A person's facts as they stood at ``at``: none stated after it, and one superseded or
    expired after it reads current again.

    >>> from datetime import UTC
    >>> from pmemo.models import Scope
    >>> def fact(i, value, since, until=None, status="current"):
    ...     return Fact(i, Scope(), "fact", "job", value, 0.9, 1, since, since, since, until, None, "explicit",
    ...                 (i,), status)
    >>> d = lambda day: datetime(2026, 12, day, tzinfo=UTC)
    >>> old, new = fact(1, "腾讯", d(1), d(10), "superseded"), fact(2, "字节", d(10))
    >>> [(f.value, f.status) for f in facts_at([old, new], d(5))]
    [('腾讯', 'current')]
    >>> [(f.value, f.status) for f in facts_at([old, new], d(12))]
    [('腾讯', 'superseded'), ('字节', 'current')]
    """
    out = []
    for f in facts:
        if f.valid_from > at:
            continue
        if f.status in ("superseded", "expired") and f.valid_to is not None and f.valid_to > at:
            f = dataclasses.replace(f, status="current", valid_to=None)
        out.append(f)
    return out

