"""What forgetting a person takes besides their turns, on both stores (issue 44 §7).

``HeldRows`` names the rows (``PersonForgetStore.person_rows`` reads them; ``forget_person``
snapshots and deletes them in one transaction). The registry rows (the person, aliases,
memberships, the insight counters about them) are one tombstone of kind ``PERSON_KIND``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..models import Scope
from ..text.lang import has_cjk

PERSON_KIND = "person"


@dataclass(frozen=True)
class HeldRows:
    """The rows about one person a forget takes: ids of facts (about them, or naming them in
    their value or a triple: ``naming_facts``), of facts that keep but lose the mention,
    triples (theirs, or saying such a fact), agenda items, insights and their graph entities
    (everywhere only); the aliases and the owners (memberships) that go; the owner scopes the
    rows are in; whether the person record itself goes; and the system notices about them (turns
    whose metadata names them as ``person``), which go with their turns."""

    person: bool
    facts: tuple[int, ...] = ()
    unnamed: tuple[int, ...] = ()  # facts about someone else that only mention them: the mention goes
    triples: tuple[int, ...] = ()
    agenda: tuple[int, ...] = ()
    insights: tuple[int, ...] = ()
    entities: tuple[int, ...] = ()
    aliases: tuple[str, ...] = ()
    owners: tuple[str, ...] = ()
    scopes: tuple[str, ...] = ()
    notices: tuple[int, ...] = ()  # system notices about them (metadata "person": "X 修改群名片为 Y")
    names: tuple[str, ...] = ()  # the names they went by (not the generated forms): out of kept clauses

    @property
    def empty(self) -> bool:
        return not (self.person or self.facts or self.triples or self.agenda or self.insights or self.entities
                    or self.aliases or self.owners or self.notices)


def naming_facts(naming: Iterable[tuple[int, str]], names: Iterable[str], in_their_triples: set[int]
                 ) -> tuple[list[int], list[int]]:
    """Of the facts about others that mention a person ((id, value) pairs), those that go (a
    value naming them, "女朋友: 周霓", or a triple of theirs saying it) and those that keep but
    lose the mention (an @-mention in "@霓霓 我在字节工作": wt's job is not about ni).

    >>> naming_facts([(1, "周霓"), (2, "字节"), (3, "同学")], ["周霓", "霓霓"], {3})
    ([1, 3], [2])
    """
    folded = [n.casefold() for n in names if n]
    gone, kept = [], []
    for ref, value in naming:
        if ref in in_their_triples or any(n in value.casefold() for n in folded):
            gone.append(ref)
        else:
            kept.append(ref)
    return gone, kept


def without_names(said: str, names: Iterable[str]) -> str:
    """A kept fact's clause with a forgotten person's names put out: "某人" in Chinese, else
    "someone" (longest name first, any case), so that the clause keeps its sense and not them.

    >>> without_names("许文涛：@霓霓 我在字节工作，和周霓是同事", ["周霓", "霓霓"])
    '许文涛：@某人 我在字节工作，和某人是同事'
    >>> without_names("Bo: Mei and I work at Acme", ["Mei"])
    'Bo: someone and I work at Acme'
    """
    for name in sorted({n for n in names if n and n.strip()}, key=len, reverse=True):
        stand_in = "某人" if has_cjk(name) else "someone"
        said = re.sub(re.escape(name), stand_in, said, flags=re.IGNORECASE)
    return said


def without_person(metadata: dict[str, Any], person: str) -> dict[str, Any]:
    """A turn's metadata with ``person`` out of ``mentions``, ``reply_to_person`` and ``person``.

    >>> without_person({"mentions": ["ni", "bo"], "reply_to_person": "ni", "x": 1}, "ni")
    {'mentions': ['bo'], 'x': 1}
    """
    out = dict(metadata)
    if isinstance(out.get("mentions"), list):
        out["mentions"] = [p for p in out["mentions"] if p != person]
    for key in ("reply_to_person", "person"):
        if out.get(key) == person:
            del out[key]
    return out


def insight_keys(keys: Iterable[str], tenant: str, person: str, where: Scope | None) -> list[str]:
    """Those of ``keys`` (``meta`` keys) that count insights about ``person``: in ``where``'s
    owner scope, or anywhere in the tenant (the graph's ``queue_insights`` names them so)."""
    if where is not None:
        wanted = f"insight:{where.key}:{person}"
        return [k for k in keys if k == wanted]
    return [k for k in keys if k.startswith(f"insight:{tenant}|") and k.endswith(f":{person}")]
