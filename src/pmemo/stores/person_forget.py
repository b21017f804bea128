"""What forgetting a person takes besides their turns, on both stores (issue 44 §7): the pure
pieces of the person-forget port (``ports.person_forget``; its SQL is ``person_forget_sql.py``).

``HeldRows`` names the rows (the port's ``person_rows`` reads them; ``forget_person`` snapshots
and deletes them in one transaction). The registry rows (the person, aliases, memberships, the
insight counters about them) are one tombstone of kind ``PERSON_KIND``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..models import Scope
from ..ports.person_forget import HeldRows as HeldRows  # re-exported: the port's value
from ..text.lang import has_cjk

PERSON_KIND = "person"


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


def registry_of(columns: Iterable[tuple[str, str]]) -> dict[str, set[str]]:
    """The registry's tables and their columns, of every (table, column) of the schema: each
    table with a ``tenant`` and a ``person`` column and no ``id`` (people, aliases, members, and
    any added later), so that a table added for people is forgotten with them.

    >>> list(registry_of([("people", "tenant"), ("people", "person"), ("facts", "tenant"), ("facts", "person"),
    ...                   ("facts", "id")]))
    ['people']
    """
    found: dict[str, set[str]] = {}
    for table, column in columns:
        found.setdefault(table, set()).add(column)
    return {t: c for t, c in sorted(found.items()) if {"tenant", "person"} <= c and "id" not in c}
