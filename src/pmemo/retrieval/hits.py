"""Building ``Hit``s from scored turns, summaries and key lines (pure but for a turn lookup)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Sequence

import numpy as np

from ..config import Settings
from ..diary.excerpt import excerpt
from ..models import Diary, Episode, Hit, KeyLine, Summary, Turn
from ..text.filler import content_free
from ..text.overlap import overlap
from ..text.segment import query_terms
from .pool import Scored

TurnLookup = Callable[[Iterable[int]], dict[int, Turn]]


def tier_of(turn: Turn, last_steps: dict[str, int], short_term: int) -> str:
    """A turn is short-term while it is among the last N of its session, then mid-term."""
    return "short_term" if turn.step > last_steps.get(turn.session_id, 0) - short_term else "mid_term"


def turn_hits(scored: list[Scored], last_steps: dict[str, int], short_term: int) -> list[Hit]:
    return [Hit(f"turn:{s.turn.id}", "turn", tier_of(s.turn, last_steps, short_term),  # type: ignore[arg-type]
                s.turn.content, round(s.score, 6), s.why, (s.turn, *s.also), s.turn.timestamp) for s in scored]


def _relative(cosine: float, low: float, high: float) -> float:
    """A derived record's cosine on the scale of the turn candidates (0 = weakest, 1 = best,
    between ``low`` and ``high``, the candidates' cosines)."""
    return min(max((cosine - low) / max(high - low, 1e-9), 0.0), 1.0)  # np.clip: 5 µs a call


def derived_hits(query: str, summaries: list[tuple[Summary, float]], keys: list[KeyLine],
                 key_vecs: np.ndarray | None, qvec: np.ndarray, sims: list[float],
                 settings: Settings, lookup: TurnLookup,
                 diaries: Sequence[tuple[Diary, float]] = ()) -> list[Hit]:
    """Summary, key and diary hits, scored like turns (vector + lexical overlap)."""
    out: list[Hit] = []
    low, high = (min(sims), max(sims)) if sims else (0.0, 0.0)

    def relative(cosine: float) -> float:
        return _relative(cosine, low, high) if sims else 1.0

    for summary, cosine in summaries:
        score = (settings.w_vector * relative(cosine)
                 + settings.w_lexical * overlap(query, summary.text))
        sources = lookup(summary.source_ids)
        out.append(Hit(f"summary:{summary.id}", "summary", "long_term",
                       summary_text(summary), round(score, 6),
                       f"summary of steps {summary.step_from}-{summary.step_to} (cosine {cosine:.3f})",
                       tuple(sources[i] for i in summary.source_ids if i in sources), summary.created_at))
    for n, key in enumerate(keys):
        cosine = float(key_vecs[n] @ qvec) if key_vecs is not None else 0.0
        score = settings.w_vector * relative(cosine) + settings.w_lexical * overlap(query, key.text)
        out.append(key_hit(key, lookup, round(score, 6)))
    for diary, cosine in diaries:  # the long-term (L3) tier's days (issue 20)
        score = settings.w_vector * relative(cosine) + settings.w_lexical * overlap(query, diary.text)
        out.append(Hit(f"diary:{diary.id}", "diary", "long_term",
                       f"[diary {diary.day}] {excerpt(diary.text, query_terms(query))}",
                       round(score, 6), f"diary entry of {diary.day} (cosine {cosine:.3f})", (),
                       diary.updated_at))
    return out


def restating(kind: str, records: Iterable[Summary | Diary | Episode]) -> dict[str, frozenset[int]]:
    """Hit id → the turns each record was made from (``context.assemble``'s ``restates``)."""
    return {f"{kind}:{r.id}": frozenset(r.source_ids) for r in records}


def copies(summaries: Iterable[Summary], diaries: Iterable[Diary] = ()) -> Iterator[str]:
    """The hit ids of the records made of their turns' own words: extractive summaries, diary digests."""
    yield from (f"summary:{x.id}" for x in summaries if x.method == "extractive")
    yield from (f"diary:{d.id}" for d in diaries if d.method == "digest")


def with_sources(hits: list[Hit], source_ids: Callable[[list[Hit]], dict[str, tuple[int, ...]]],
                 lookup: TurnLookup) -> list[Hit]:
    """Summary, key and diary hits built without their sources, given them: ``source_ids`` reads
    the source ids of them all at once, ``lookup`` their turns in one call."""
    bare = [h for h in hits if h.kind in ("summary", "key", "diary") and not h.sources]
    wanted = source_ids(bare) if bare else {}
    turns = lookup([i for ids in wanted.values() for i in ids]) if wanted else {}
    return [dataclasses.replace(h, sources=tuple(turns[i] for i in wanted[h.id] if i in turns))
            if h.id in wanted else h for h in hits]


def summary_text(summary: Summary) -> str:
    return f"[{summary.scope.session_id} steps {summary.step_from}-{summary.step_to}] {summary.text}"


def key_hit(key: KeyLine, lookup: TurnLookup, score: float = 1.0) -> Hit:
    why = "key memory set by the user" if key.origin == "user" else "key memory promoted from a busy cluster"
    sources = lookup(key.source_ids) if key.source_ids else {}
    return Hit(f"key:{key.id}", "key", "key", key.text, score, why,
               tuple(sources[i] for i in key.source_ids if i in sources), key.updated_at)


def merge(turn_hits: list[Hit], derived: list[Hit], people: Sequence[Hit] = (), chat: bool = False) -> list[Hit]:
    """Turns first, then the summaries and key lines, each group best first. About the people
    the query names (``people``: their identity lines and facts): the facts it asks about go
    first; when it asks about none, the person themselves ("你认识霓霓吗"), and, when the query
    is a ``chat`` that names them in passing, all that is known of them; the rest last.

    A summary stands for many turns; ranked among them it would crowd out the single turns
    that hold the answer. Its relevance already lifts its own turns, and the context
    shows it in the long-term section.
    """
    asked = [h for h in people if h.kind == "fact" and h.score > 0.5]
    first = asked or (list(people) if chat else [h for h in people if h.kind == "person"])
    rest = [h for h in people if h not in first]
    return [*first, *turn_hits, *sorted(derived, key=lambda h: -h.score), *rest]


def context_tiers(turn_hits: list[Hit], derived: list[Hit], keys: list[KeyLine],
                  latest: list[Summary], recent: list[Turn], lookup: TurnLookup) -> dict[str, list[Hit]]:
    """Each tier's hits in priority order, ready for packing."""
    recent_ids = {t.id for t in recent}
    matching = [h for h in derived if h.kind in ("summary", "diary")]
    seen = {h.id for h in matching}
    for summary in reversed(latest):
        if f"summary:{summary.id}" not in seen:
            sources = lookup(summary.source_ids)
            matching.append(Hit(f"summary:{summary.id}", "summary", "long_term", summary_text(summary), 0.0,
                                "latest summary", tuple(sources[i] for i in summary.source_ids if i in sources),
                                summary.created_at))
    # a notice or a medium without words ("[图片]") is never a line of a context (issue 44 §2)
    short = [Hit(f"turn:{t.id}", "turn", "short_term", t.content, 0.0, "recent turn of this session",
                 (t,), t.timestamp) for t in reversed(recent) if not content_free(t)]
    mid = [h if h.tier == "mid_term" else _as_mid(h) for h in turn_hits
           if h.sources[0].id not in recent_ids and not (h.kind == "turn" and content_free(h.sources[0]))]
    return {"key": key_tier(keys, lookup), "long_term": matching, "mid_term": mid,
            "short_term": short}


def key_tier(keys: list[KeyLine], lookup: TurnLookup) -> list[Hit]:
    """Key lines: the user's own as they set them, then the promoted ones in the order they
    were promoted. Key lines are always whole, so no query reorders them: the section reads
    the same bytes from one message to the next (a provider's prompt cache reuses it)."""
    promoted = sorted((k for k in keys if k.origin != "user"), key=lambda k: k.id)
    return [key_hit(k, lookup) for k in [*(k for k in keys if k.origin == "user"), *promoted]]


def _as_mid(hit: Hit) -> Hit:
    """A short-term turn of another session, recalled by relevance, sits with the mid-term hits."""
    return Hit(hit.id, hit.kind, "mid_term", hit.text, hit.score, hit.why, hit.sources, hit.timestamp)
