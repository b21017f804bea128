"""What an LLM is sent for facts and for the graph's triples (issue 44 §8): each turn's
candidate clauses, a neighbouring message either side as context, one batch per chat (pure).

A clause is a candidate when the statement model reads it as a statement at its own threshold
(``Label.states`` and ``stating`` ≥ ``read.MIN_STATING``) or as a correction, or when a rule
reads a value from the statement it belongs to. A memory that does not embed with e5 reads with
the model's lexical weights (``extraction.lexical_screen``); without the model (``fact_extractor``
"rules", or its file missing) the rules' candidates alone. Everything else (small
talk, questions, jokes, what the model and the rules both pass over) is never sent: the
extraction call reads a few clauses instead of every message. The graph's triples call reads
the same clauses and those its rules read a link from (``linked``: "霓霓是我同学", "我是四川人"),
which attribution leaves out of the statements.

>>> from datetime import datetime, UTC
>>> from pmemo.models import Scope
>>> def turn(i, text):
...     return Turn(i, Scope.of(group_id="g"), i, "user", text, "周霓", datetime(2026, 3, 1, tzinfo=UTC))
>>> chat = [turn(1, "早"), turn(2, "哈哈，我对花生过敏"), turn(3, "真的假的"), turn(4, "吃了吗")]
>>> [(line.number, line.text) for line in chat_batches(chat, {2: ["我对花生过敏"]})[0]]
[(None, '早'), (0, '我对花生过敏'), (None, '真的假的')]
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from ..graph.rules import origins, relations
from ..models import Turn
from ..people.resolve import Resolver
from ..prompts.facts import Line, shown
from ..rules.attribution import Attributed
from ..rules.extract_rules import extract
from ..statements.clauses import clauses
from ..statements.read import MIN_STATING, Said
from ..tokens import estimate_tokens

BATCH_CLAUSES = 30  # candidate clauses per extraction call: a chat with more makes several calls
# the shown lines of one call at most (estimated tokens): several small chats share a call up to it
CALL_TOKENS = 1200
SECTION_TOKENS = 5  # a section's header ("## chat 2")
_SURE = 0.5  # how sure of a correction the model must be (``read.corrections``)
_CARRIES = 3  # word characters a correction needs to carry a value: "是的", "不对" alone correct nothing
# what links a person to nothing (the people registry learns names): the graph's call is not sent a
# clause only for these, the model's kind or a rule's key
NAMES_KIND = "name"
NAME_KEYS = frozenset({"name", "preferred_name", "tone"})
_NOISE = re.compile(r"\s+|[^\w]")


def marked(turn: Turn, read: Sequence[Said] | None, parts: Sequence[Attributed], links: bool = False) -> list[str]:
    """The clauses of ``turn`` worth the LLM's reading, in order: the model's statements and
    corrections (``read``: the turn read clause by clause, or None without the model; a
    correction of fewer than ``_CARRIES`` word characters carries no value), and the clauses of
    each statement a rule reads a value from (``parts``: the turn's statements). ``links``: for
    the graph, not a clause that only names someone (``NAMES_KIND``, ``NAME_KEYS``)."""
    said = [s.clause for s in read] if read is not None else clauses(turn.content)
    keep = [False] * len(said)
    if read is not None:
        for i, s in enumerate(read):
            label = s.reading.label
            keep[i] = not (links and label.kind == NAMES_KIND) and (
                (label.states and s.reading.stating >= MIN_STATING)
                or (label.mode == "correction" and s.reading.sure["mode"] >= _SURE
                    and len(_NOISE.sub("", s.clause)) >= _CARRIES))

    def values(text: str) -> bool:
        return any(not (links and c.key in NAME_KEYS) for c in extract(text, turn.timestamp))

    for part in parts:
        if values(part.text):
            spans = _clauses_of(part.text, said)  # of those, the ones a rule reads alone, if any
            for i in [i for i in spans if values(said[i])] or spans:
                keep[i] = True
    return [c for c, k in zip(said, keep, strict=True) if k]


def linked(turn: Turn, read: Sequence[Said] | None, parts: Sequence[Attributed],
           people: Resolver | None) -> list[str]:
    """The clauses of ``turn`` worth the graph's triples call: those ``marked`` keeps for links
    (not a name alone), and those the graph's rules read a link from (a relation between two
    people the resolver finds in the clause, where someone comes from), in order.

    >>> from datetime import datetime, UTC
    >>> from pmemo.models import Scope
    >>> said = "哈哈，我是四川人，你们呢"
    >>> t = Turn(1, Scope.of(group_id="g"), 1, "user", said, "周霓", datetime(2026, 3, 1, tzinfo=UTC))
    >>> linked(t, None, [Attributed(None, said, ())], None)  # an opener stays with its clause
    ['哈哈，我是四川人，']
    """
    said = [s.clause for s in read] if read is not None else clauses(turn.content)
    keep = set(marked(turn, read, parts, links=True))
    for i, clause in enumerate(said):
        found = people.resolve(clause, turn.scope) if people is not None else []
        mentions = [(m.start, m.end, m.person_ids[0]) for m in found if not m.ambiguous]
        if mentions and relations(clause, mentions, turn.subject or "\x01speaker"):
            keep.add(said[i])
    for part in parts:
        if origins(part.text):
            spans = _clauses_of(part.text, said)
            keep.update(said[i] for i in [i for i in spans if origins(said[i])] or spans)
    return [c for c in said if c in keep]


def _clauses_of(part: str, said: Sequence[str]) -> list[int]:
    """The clauses a statement spans (the attribution rewrites a named subject into the first
    person, "霓霓对花生过敏" → "我对花生过敏", so by shared character pairs, not by equality):
    those it shares half their pairs with, else the one it shares most with.

    >>> _clauses_of("我对花生过敏", ["哈哈，", "霓霓对花生过敏", "你们呢"])
    [1]
    """
    mine = _pairs(part)
    shared = [len(_pairs(c) & mine) for c in said]
    half = [i for i, c in enumerate(said) if shared[i] and 2 * shared[i] >= len(_pairs(c))]
    if half or not shared or max(shared) == 0:
        return half
    return [shared.index(max(shared))]


def _pairs(text: str) -> set[str]:
    flat = _NOISE.sub("", text.casefold())
    return {flat[i : i + 2] for i in range(len(flat) - 1)} or ({flat} if flat else set())


def chat_batches(turns: Sequence[Turn], chosen: dict[int, list[str]], size: int = BATCH_CLAUSES,
                 tokens: int = CALL_TOKENS) -> list[list[Line]]:
    """The lines of each extraction call: each chat's section (``chat_sections``), and small
    sections of several chats packed into one call (``pack``: at most ``size`` clauses and
    ``tokens`` of lines a call), the clauses numbered from 0 across the call."""
    return pack(chat_sections(turns, chosen, size), size, tokens)


def chat_sections(turns: Sequence[Turn], chosen: dict[int, list[str]], size: int = BATCH_CLAUSES
                  ) -> list[list[Line]]:
    """Per chat (in the order its turns were said), each turn's chosen clauses numbered from 0,
    after the chat's message before it and followed by the one after it, as context (the
    neighbours within ``turns``: the batch); at most ``size`` clauses a section, a chat with more
    gets several."""
    chats: dict[str, list[Turn]] = {}
    for t in turns:
        chats.setdefault(t.scope.key, []).append(t)
    out: list[list[Line]] = []
    for said in chats.values():
        said = sorted(said, key=lambda t: (t.timestamp, t.id))
        lines: list[Line] = []
        shown: set[int] = set()
        n = 0
        for i, t in enumerate(said):
            mine = chosen.get(t.id, [])[:size]
            if not mine:
                continue
            if n and n + len(mine) > size:
                out.append(lines)
                lines, shown, n = [], set(), 0
            if i > 0 and said[i - 1].id not in shown:
                lines.append(Line(said[i - 1], said[i - 1].content))
                shown.add(said[i - 1].id)
            for clause in mine:
                lines.append(Line(t, clause, n))
                n += 1
            shown.add(t.id)
            after = said[i + 1] if i + 1 < len(said) else None
            if after is not None and not chosen.get(after.id):
                lines.append(Line(after, after.content))
                shown.add(after.id)
        if n:
            out.append(lines)
    return out


def pack(sections: Sequence[Sequence[Line]], size: int = BATCH_CLAUSES, tokens: int = CALL_TOKENS
         ) -> list[list[Line]]:
    """Sections into calls, each into the first call it fits (at most ``size`` clauses and
    ``tokens`` of shown lines a call; a section larger than that is a call of its own), its
    clauses renumbered after those already in the call. A call carries one system prompt: a
    section of two clauses sent alone is mostly that prompt (issue 44 §8, catching up).

    >>> from datetime import datetime
    >>> from pmemo.models import Scope
    >>> def said(i, group):
    ...     return Line(Turn(i, Scope.of(group_id=group), i, "user", "x", "Bo", datetime(2026, 3, 1)), "x", 0)
    >>> [[(line.turn.scope.group_id, line.number) for line in call] for call in pack([[said(1, "a")], [said(2, "b")]])]
    [[('a', 0), ('b', 1)]]
    """
    calls: list[tuple[list[Line], int, int]] = []  # lines, clauses, tokens
    for section in sections:
        clauses_in = sum(1 for line in section if line.number is not None)
        cost = estimate_tokens(shown(section)) + SECTION_TOKENS
        for k, (lines, n, used) in enumerate(calls):
            if n + clauses_in <= size and used + cost <= tokens:
                renumbered = [line if line.number is None else replace(line, number=n + line.number)
                              for line in section]
                calls[k] = (lines + renumbered, n + clauses_in, used + cost)
                break
        else:
            calls.append((list(section), clauses_in, cost))
    return [lines for lines, _, _ in calls]
