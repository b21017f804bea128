"""What the contexts of a group-chat replay hold (issue 44 §5, §9): tokens per context, the share
of the questions' evidence messages whose text is in them, filler lines (there should be none),
and how often consecutive contexts of a chat open with the
same bytes (blocks, key lines, people: the prefix a provider's prompt cache reuses).

Each chat's questions are asked in time order, by their asker, with the chat's last messages
as ``recent``, at the default budget: the contexts a bot replying in that chat would get.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from statistics import mean
from typing import Any

from ..models import ContextPack
from ..retrieval.context import TURN_TIERS, leading
from ..text.filler import content_free
from .groupchat_scenario import Question, Scenario
from .metrics import evidence_in_context


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
