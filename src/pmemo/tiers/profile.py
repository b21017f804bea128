"""Profile upsert rules (pure): how a newly stated fact changes what is known about a person.

* same value again → confidence + step (capped), mentions + 1;
* a different value with *higher* confidence → supersedes the current fact (its
  ``valid_to`` is set, it stays in history, the new one has version + 1);
* a different value with lower or equal confidence → recorded as a conflict, not applied,
  unless the candidate holds one value at a time (``newer_wins``: a job, a home, a school, a
  partner), whose newer statement supersedes;
  Restating a conflicting value reinforces the conflict; once its confidence passes
  the current fact's, it takes over (the person changed their mind, consistently);
* before any of this, a key that nearly duplicates an existing one in the same category
  is merged into it, so saying the same thing ten times makes one stronger fact.

>>> c = Candidate("preference", "opinion:tea", "likes", 0.8)
>>> decide(c, [], turn_id=1).action
'insert'
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from collections.abc import Callable, Sequence

from ..models import Candidate, Decision, Fact

ACTIVE = ("current", "conflict")

_ARTICLES = re.compile(r"^(?:the|a|an|my|some)\s+")
_PUNCT = re.compile(r"[\W_]+", re.UNICODE)


def normalise(text: str) -> str:
    """Case-, width- and punctuation-insensitive form of a key or value."""
    text = unicodedata.normalize("NFKC", text).casefold()
    text = _PUNCT.sub(" ", text).strip()
    text = _ARTICLES.sub("", text)
    if text.endswith("s") and len(text) > 3 and not text.endswith("ss"):
        text = text[:-1]  # "coffees" ~ "coffee": crude, but keys are short nouns
    return " ".join(text.split())


def _grams(text: str) -> set[str]:
    squashed = text.replace(" ", "")
    if len(squashed) < 2:
        return {squashed}
    return {squashed[i : i + 2] for i in range(len(squashed) - 1)}


def similarity(a: str, b: str) -> float:
    """Character-bigram Jaccard of the normalised texts (1.0 when equal); works for CJK too."""
    na, nb = normalise(a), normalise(b)
    if na == nb:
        return 1.0
    ga, gb = _grams(na), _grams(nb)
    return len(ga & gb) / max(len(ga | gb), 1)


def reinforced(confidence: float, step: float = 0.05, cap: float = 0.95) -> float:
    """Confidence after one more mention: + step, capped; never lowered by the cap."""
    return max(confidence, min(cap, confidence + step))


def resolve_key(
    candidate: Candidate,
    facts: Sequence[Fact],
    threshold: float = 0.9,
    sim: Callable[[str, str], float] = similarity,
) -> str:
    """The stored key ``candidate`` nearly duplicates (same category), else its own key."""
    best, best_sim = candidate.key, 0.0
    for fact in facts:
        if fact.category != candidate.category or fact.status not in ACTIVE:
            continue
        score = 1.0 if fact.key == candidate.key else sim(fact.key, candidate.key)
        if score >= threshold and score > best_sim:
            best, best_sim = fact.key, score
    return best


def decide(
    candidate: Candidate,
    facts: Sequence[Fact],
    turn_id: int,
    *,
    step: float = 0.05,
    cap: float = 0.95,
    threshold: float = 0.9,
    sim: Callable[[str, str], float] = similarity,
) -> Decision:
    """What to do with ``candidate`` given the scope's stored facts (any category/key)."""
    key = resolve_key(candidate, facts, threshold, sim)
    same = [
        f for f in facts if f.category == candidate.category and f.key == key and f.status in ACTIVE
    ]
    current = next((f for f in same if f.status == "current"), None)
    # a re-run job is idempotent: the turn said this already, whatever became of what it said
    # since (a later turn superseded it, it expired): read again after the later turns (a name
    # learned later, pipelines/reread.py), it must not come back as a new value
    if any(turn_id in f.sources for f in facts if f.category == candidate.category and f.key == key):
        return Decision("skip", key, current.confidence if current else candidate.confidence, current)
    if current is None:
        return Decision("insert", key, candidate.confidence)
    if sim(current.value, candidate.value) >= threshold:
        conf = reinforced(max(current.confidence, candidate.confidence), step, cap)
        return Decision("reinforce", key, conf, current, reinforce=current)
    rival = next(
        (f for f in same if f.status == "conflict" and sim(f.value, candidate.value) >= threshold),
        None,
    )
    # a stated change ("我跳槽到蓝鲸数据了") replaces a value as sure as itself: two changes in a row
    # must not stall as a conflict
    changes = candidate.source == "corrected" and candidate.confidence >= current.confidence
    # a job, a home, a school, a partner stated anew: the newer statement holds (issue 44 §1)
    changes = changes or candidate.newer_wins
    if candidate.confidence > current.confidence or changes:
        if rival is not None:  # the value stated before as a conflict now wins: one row, not two
            conf = max(candidate.confidence, reinforced(rival.confidence, step, cap))
            return Decision("supersede", key, conf, current, promote=rival)
        return Decision("supersede", key, candidate.confidence, current)
    if rival is None:
        return Decision("conflict", key, candidate.confidence, current)
    conf = reinforced(max(rival.confidence, candidate.confidence), step, cap)
    if conf > current.confidence:
        return Decision("supersede", key, conf, current, promote=rival)
    return Decision("conflict", key, conf, current, reinforce=rival)


# which way a fact about a thing goes: liking, eating or drinking it, or not (any other value: neither)
_POLARITY = {
    "likes": 1, "loves": 1, "enjoys": 1, "eats": 1, "drinks": 1,
    "dislikes": -1, "hates": -1, "no longer likes": -1, "does not eat": -1, "does not drink": -1,
}  # fmt: skip


def _stance(fact: Fact) -> tuple[str, int] | None:
    """The thing a like, a dislike, a food or a drink is about, and which way: ("咖啡", 1) for
    ``opinion:咖啡`` = likes and for ``favorite:drink`` = 咖啡, ("咖啡", -1) for ``diet:咖啡`` =
    does not drink."""
    family, _, obj = fact.key.partition(":")
    if family == "favorite":
        return normalise(fact.value), 1
    sign = _POLARITY.get(fact.value.casefold()) if family in ("opinion", "diet") and obj else None
    return (normalise(obj), sign) if sign else None


def settled(facts: Sequence[Fact]) -> list[Fact]:
    """A person's facts as a profile shows them: current first, the most recently said first,
    then history (newest first), so a stale value never leads.

    Of the current values of one (category, key), the newest stays current (``newest_of_each``);
    and a thing spoken of under two keys ("我爱喝咖啡" is ``opinion:咖啡``, "我现在不喝咖啡了"
    is ``diet:咖啡``) reads as the newest statement says: an older current fact that says the
    opposite about it reads as superseded by it. Nothing is written: forget the newer
    statement and the older one is current again.
    """
    facts = newest_of_each(facts)
    latest: dict[str, Fact] = {}  # thing -> the current fact about it said last
    for f in facts:
        stance = _stance(f) if f.status == "current" else None
        if stance is not None:
            prev = latest.get(stance[0])
            if prev is None or (f.last_seen, f.id) > (prev.last_seen, prev.id):
                latest[stance[0]] = f
    out = []
    for f in facts:
        stance = _stance(f) if f.status == "current" else None
        newer = latest.get(stance[0]) if stance is not None else None
        if stance is not None and newer is not None and _stance(newer) != stance:
            f = dataclasses.replace(f, status="superseded", valid_to=max(newer.valid_from, f.valid_from))
        out.append(f)
    return sorted(out, key=lambda f: (f.status != "current", -f.last_seen.timestamp(), -f.id))


def newest_of_each(facts: Sequence[Fact]) -> list[Fact]:
    """One person's facts from several groups and chats as one view: of the current values of
    one (category, key), the newest stays current and the others read as superseded by it."""
    newest: dict[tuple[str, str], Fact] = {}
    for f in facts:
        k = (f.category, f.key)
        if f.status == "current" and (k not in newest or (f.valid_from, f.id) > (newest[k].valid_from, newest[k].id)):
            newest[k] = f
    out = []
    for f in facts:
        winner = newest.get((f.category, f.key))
        if f.status == "current" and winner is not None and winner.id != f.id:
            f = dataclasses.replace(f, status="superseded", valid_to=winner.valid_from)
        out.append(f)
    return out
