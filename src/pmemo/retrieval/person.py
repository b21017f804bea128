"""Context hits for the profile and episodic tiers (pure): facts, episodes, running tasks."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..config import Settings
from ..models import Episode, Fact, Hit, Task, Turn
from ..rules.sentences import asks_about, fact_sentence
from ..text.segment import query_terms, tokens
from ..tiers.episodes import episode_text
from ..tiers.profile import settled
from .people_hits import telling

TurnLookup = Callable[[Iterable[int]], dict[int, Turn]]
MARK = {"pending": "[ ]", "running": "[~]", "done": "[x]", "failed": "[!]", "skipped": "[-]"}


def _overlap(query: str, text: str) -> float:
    terms = query_terms(query)
    if not terms:
        return 0.0
    present = set(tokens(text))
    return sum(t in present for t in terms) / len(terms)


def usable(fact: Fact, now: float, min_confidence: float) -> bool:
    """A fact enters the context when current, confident enough and not expired."""
    expired = fact.expires_at is not None and fact.expires_at.timestamp() <= now
    return fact.status == "current" and fact.confidence >= min_confidence and not expired


def fact_hits(
    query: str, facts: list[Fact], now: float, settings: Settings, lookup: TurnLookup, relevant: bool = False
) -> list[Hit]:
    """At most ``fact_max_in_context`` usable facts, the ones the query names first, then the
    surest and the most recently said (a fact a newer one contradicts is left out: ``settled``).
    ``relevant`` (the fill of that name): the ones the query asks about (their words or their
    kind), then the most telling (``people_hits.telling``) up to ``facts_per_person``, as a
    person's card lists them: the rest of what is known of the user is not about this message."""
    candidates = [f for f in settled(facts) if usable(f, now, settings.fact_min_confidence)]
    named = {f.id: _overlap(query, f.text) for f in candidates}  # each fact's words read once
    ranked = sorted(
        candidates, key=lambda f: (-named[f.id], -f.confidence, -f.last_seen.timestamp(), -f.mentions, f.id)
    )
    out = []
    kept = ranked[: settings.fact_max_in_context]
    if relevant:
        asked = [f for f in kept if named[f.id] > 0 or asks_about(query, f.key)]
        rest = sorted((f for f in kept if f not in asked), key=lambda f: telling(f.key))  # stable: surest first
        kept = asked + rest[: max(0, settings.facts_per_person - len(asked))]
    found = lookup([i for fact in kept for i in fact.sources])  # one read for all of them
    for fact in kept:
        score = round(0.5 * named[fact.id] + 0.5 * fact.confidence, 6)
        why = f"profile fact, confidence {fact.confidence:.2f}, said {fact.mentions}×" + (
            f", {fact.source}" if fact.source != "explicit" else ""
        )
        out.append(
            Hit(
                f"fact:{fact.id}",
                "fact",
                "profile",
                fact_line(fact),
                score,
                why,
                tuple(found[i] for i in fact.sources if i in found),
                fact.last_seen,
            )
        )
    return out


def fact_line(fact: Fact) -> str:
    """The user's fact as one sentence in the language it was said in ("用户不吃香菜")."""
    return fact_sentence(None, fact.category, fact.key, fact.value)


def episode_hits(ranked: list[tuple[Episode, float, str]]) -> list[Hit]:
    # no ``sources``: an episode stands for a whole span, it does not quote its turns
    return [
        Hit(
            f"episode:{e.id}",
            "episode",
            "episodic",
            f"[{e.ended_at:%Y-%m-%d}] {episode_text(e)}",
            score,
            why,
            (),
            e.ended_at,
        )
        for e, score, why in ranked
    ]


def task_hits(tasks: list[Task]) -> list[Hit]:
    out = []
    for task in tasks:
        if task.status != "running":
            continue
        steps = "; ".join(
            f"{MARK.get(s.status, '[ ]')} {s.text}"
            + (f" → {s.result}" if s.result else "")
            + (f" (error: {s.error})" if s.error else "")
            for s in task.steps
        )
        text = f"Task in progress: {task.goal}" + (f" | plan: {steps}" if steps else "")
        if task.scratchpad:
            text += f" | notes: {task.scratchpad[:300]}"
        out.append(
            Hit(
                f"task:{task.id}",
                "task",
                "episodic",
                text,
                1.0,
                "running task",
                (),
                task.updated_at,
            )
        )
    return out
