"""What the contexts of a group-chat replay hold (issue 44 §5, §9): tokens per context, the share
of the questions' evidence messages whose text is in them, filler lines (there should be none),
and how often consecutive contexts of a chat open with the
same bytes (blocks, key lines, people: the prefix a provider's prompt cache reuses). And the
person card (§3): the share of person questions whose 600-token context holds the asked
person's fact, and whether each fact stands under its own person's card.

Each chat's questions are asked in time order, by their asker, with the chat's last messages
as ``recent``, at the default budget: the contexts a bot replying in that chat would get.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from statistics import mean
from typing import Any

from ..models import ContextPack, Hit
from ..retrieval.context import HEADERS_BY_LANGUAGE, TURN_TIERS, leading
from ..text.filler import content_free
from .groupchat_scenario import PersonQuestion, Question, Scenario
from .metrics import evidence_in_context

INPUT_HEADERS = tuple(dict.fromkeys(h["input"] for h in HEADERS_BY_LANGUAGE.values()))


def filler_lines(pack: ContextPack) -> int:
    """The lines of a context that show a turn with nothing in it ("哈哈哈", "[图片]", "在吗")."""
    return sum(1 for h in pack.items if h.tier in TURN_TIERS and any(content_free(t) for t in h.sources))


def people_of(pack: ContextPack) -> tuple[str, ...]:
    """Who the people section is about, in order: what its cards depend on besides the facts."""
    return tuple(h.id for h in pack.items if h.kind == "person")


def prefix_shares(packs: Sequence[ContextPack]) -> dict[str, float | int | None]:
    """Over consecutive pairs of one chat's contexts: the share whose leading sections are the
    same bytes, and the same among the pairs about the same people (nothing about them changed
    but what was said meanwhile).

    >>> a = ContextPack("q", "## Key memory\\n- x\\n\\n## Relevant memories\\n- y", (), 9, 100)
    >>> b = ContextPack("q", "## Key memory\\n- x\\n\\n## Relevant memories\\n- z", (), 9, 100)
    >>> prefix_shares([a, b, a])["stable_prefix"]
    1.0
    """
    same, same_people = [], []
    for before, after in zip(packs, packs[1:], strict=False):
        alike = leading(before.text) == leading(after.text)
        same.append(alike)
        if people_of(before) == people_of(after):
            same_people.append(alike)
    return {"pairs": len(same), "stable_prefix": sum(same) / len(same) if same else None,
            "pairs_same_people": len(same_people), "stable_prefix_same_people":
                sum(same_people) / len(same_people) if same_people else None}


async def context_shape(ask: Callable[[Question, list[str]], Any], s: Scenario,
                        recent: Callable[[Question], list[str]]) -> dict[str, Any]:
    """Tokens, evidence, filler lines and prefix stability of the contexts ``ask(question,
    recent)`` gives for every question of ``s``, chat by chat in time order."""
    chats: dict[tuple[str | None, str | None], list[Question]] = {}
    for q in sorted(s.questions, key=lambda q: datetime.fromisoformat(q.at)):
        chats.setdefault((q.group_id, q.user_id), []).append(q)
    tokens: list[int] = []
    evidence: list[float] = []
    filler: list[int] = []
    pairs: list[dict[str, Any]] = []
    for asked in chats.values():
        packs = [await ask(q, recent(q)) for q in asked]
        tokens += [p.tokens for p in packs]
        evidence += [evidence_in_context([s.messages[i].content for i in q.evidence], p.text)
                     for q, p in zip(asked, packs, strict=True) if q.evidence]
        filler += [filler_lines(p) for p in packs]
        pairs.append(prefix_shares(packs))
    n = sum(p["pairs"] for p in pairs)
    n_people = sum(p["pairs_same_people"] for p in pairs)
    return {
        "contexts": len(tokens),
        "tokens": mean(tokens) if tokens else None,
        "evidence": mean(evidence) if evidence else None,
        "filler_lines": sum(filler),
        "contexts_with_filler": sum(1 for f in filler if f),
        "pairs": n,
        "stable_prefix": sum(p["stable_prefix"] * p["pairs"] for p in pairs if p["pairs"]) / n if n else None,
        "pairs_same_people": n_people,
        "stable_prefix_same_people": sum(p["stable_prefix_same_people"] * p["pairs_same_people"] for p in pairs
                                         if p["pairs_same_people"]) / n_people if n_people else None,
    }


# -- the person card (issue 44 §3) ---------------------------------------------------------------

PERSON_BUDGET = 600  # the context a person question is read into (issue 44 §9)


def memory_text(pack: ContextPack) -> str:
    """What a context holds from memory: its text without the current input (the question)."""
    ends = [pack.text.find("\n\n" + h) for h in INPUT_HEADERS]
    ends += [0] if any(pack.text.startswith(h) for h in INPUT_HEADERS) else []
    cut = min((e for e in ends if e >= 0), default=len(pack.text))
    return pack.text[:cut]


def cards(pack: ContextPack) -> dict[str, list[Hit]]:
    """The people section's lines by the card they stand under: person id → the facts after
    that person's line (a fact before any card stands under "")."""
    out: dict[str, list[Hit]] = {}
    under = ""
    for h in pack.items:
        if h.tier != "people":
            continue
        if h.kind == "person":
            under = h.id.removeprefix("person:")
            out.setdefault(under, [])
        else:
            out.setdefault(under, []).append(h)
    return out


def card_checks(pack: ContextPack, q: PersonQuestion, theirs: Mapping[str, set[str]]) -> dict[str, Any]:
    """One person question's context: whether it holds an answer (anywhere from memory, and as a
    line of the person's own card), the facts standing under another person's card (``theirs``:
    person id → the hit ids of their facts), and the facts shown twice."""
    said = memory_text(pack).lower()
    by_card = cards(pack)
    own = by_card.get(q.person_id, [])
    facts = [h.id for hits in by_card.values() for h in hits]
    return {
        "held": any(a.lower() in said for a in q.answers),
        "in_card": any(a.lower() in h.text.lower() for h in own for a in q.answers),
        "card": q.person_id in by_card,
        "misplaced": sum(1 for who, hits in by_card.items() for h in hits if h.id not in theirs.get(who, set())),
        "twice": len(facts) - len(set(facts)),
        "tokens": pack.tokens,
    }


async def person_cards(ask: Callable[[PersonQuestion], Any], questions: Sequence[PersonQuestion],
                       theirs: Callable[[str, str], Any]) -> dict[str, Any]:
    """The person questions' contexts (``ask(question)``, at ``PERSON_BUDGET``): the share whose
    context holds the asked person's fact, overall and per kind (who / fact / pronoun), the
    share with it in their own card, and the facts under another person's card or shown twice.
    ``theirs(person, group)``: the hit ids of the person's facts in that group."""
    known: dict[tuple[str, str], set[str]] = {}
    rows = []
    for q in questions:
        pack = await ask(q)
        for who in cards(pack):
            if (who, q.group_id) not in known:
                known[who, q.group_id] = set(await theirs(who, q.group_id)) if who else set()
        rows.append((q, card_checks(pack, q, {who: known[who, q.group_id] for who in cards(pack)})))

    def shares(mine: list[tuple[PersonQuestion, dict[str, Any]]]) -> dict[str, Any]:
        return {"n": len(mine), "held": mean(r["held"] for _, r in mine) if mine else None,
                "in_card": mean(r["in_card"] for _, r in mine) if mine else None}

    kinds = {kind: shares([r for r in rows if r[0].kind == kind]) for kind in dict.fromkeys(q.kind for q in questions)}
    return {
        **shares(rows),
        "by_kind": kinds,
        "misplaced": sum(r["misplaced"] for _, r in rows),
        "twice": sum(r["twice"] for _, r in rows),
        "tokens": mean(r["tokens"] for _, r in rows) if rows else None,
        "failures": [{"id": q.id, "kind": q.kind, "query": q.query, "recent": list(q.recent), "person": q.person_id,
                      "answers": list(q.answers), "card": r["card"]} for q, r in rows if not r["held"]],
    }
