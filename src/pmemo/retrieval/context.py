"""Context assembly (pure): ranked hits per section → one packed, ordered text within budget.

The sections are data (``SECTIONS``): name, header, budget share, and who gets unused budget
first; a new one is one entry. Order: key → people → agenda → profile → long-term →
mid-term → episodic → short-term → current input. Recalled turns (mid-term) are shown in
time order under one date line per day: the story reads in order, and the date is paid for
once, not on every line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from ..models import ContextPack, Hit, Turn
from ..text.dates import resolve_relative
from .packing import Packed, Section, pack


@dataclass(frozen=True)
class SectionSpec:
    """One section of the context: ``share`` names the setting with its budget share (None:
    what the others leave, short-term's); an ``optional`` one takes its share only when it has
    items. Unused budget goes to sections by ``leftover_rank`` (lower first)."""

    name: str
    header: str
    share: str | None
    optional: bool = True
    leftover_rank: int = 2
    newest_last: bool = False


SECTIONS = (
    SectionSpec("key", "## Key memory", "budget_key", optional=False),
    SectionSpec("people", "## People", "budget_people"),
    SectionSpec("agenda", "## Coming up", "budget_agenda"),
    SectionSpec("profile", "## About the user", "budget_profile"),
    SectionSpec("long_term", "## Long-term summaries", "budget_long", optional=False),
    # unused budget goes first to relevant turns, then recent ones, then the rest
    SectionSpec("mid_term", "## Relevant memories", "budget_mid", optional=False, leftover_rank=0),
    SectionSpec("episodic", "## Past episodes and tasks", "budget_episodic"),
    SectionSpec("short_term", "## Recent conversation", None, leftover_rank=1, newest_last=True),
)
HEADERS = {s.name: s.header for s in SECTIONS} | {"input": "## Current input"}


def shares(settings: object, tiers: dict[str, list[Hit]]) -> dict[str, float]:
    """Each section's budget share from the settings; short-term takes the rest."""
    out = {s.name: float(getattr(settings, s.share)) if s.share and (tiers.get(s.name) or not s.optional)
           else 0.0 for s in SECTIONS}
    out["short_term"] = max(0.0, 1.0 - sum(out.values()))
    return out


def line(hit: Hit) -> str:
    if hit.tier in ("key", "input"):
        return hit.text if hit.tier == "input" else f"- {hit.text}"
    if hit.kind in ("summary", "fact", "episode", "task", "person", "agenda"):
        return f"- {hit.text}"
    turn = hit.sources[0] if hit.sources else None
    if turn is None:
        return f"- {hit.text}"
    who = turn.actor or turn.role
    if hit.tier == "short_term":
        return f"[{turn.timestamp:%Y-%m-%d %H:%M}] {who}: {turn.content}{_dated(turn)}"
    return f"- {who}: {turn.content}{_dated(turn)}"


def _dated(turn: Turn) -> str:
    """What the turn's relative dates meant when it was said, after its words (which stay
    verbatim): " (yesterday = 7 May 2023)"."""
    notes = resolve_relative(turn.content, turn.timestamp.date())
    return f" ({'; '.join(f'{said} = {meant}' for said, meant in notes)})" if notes else ""


def _day(hit: Hit) -> str | None:
    turn = hit.sources[0] if hit.tier == "mid_term" and hit.kind == "turn" and hit.sources else None
    return f"[{turn.timestamp:%Y-%m-%d}]" if turn else None


def _in_time_order(hits: Sequence[Hit], line: Callable[[Hit], str] = line) -> list[str]:
    """Mid-term lines oldest first, a date line opening each day."""
    lines: list[str] = []
    last = None
    for hit in sorted(hits, key=lambda h: (h.sources[0].timestamp, h.sources[0].id) if _day(h) else
                      (datetime.min.replace(tzinfo=UTC), 0)):
        day = _day(hit)
        if day and day != last:
            lines.append(day)
            last = day
        lines.append(line(hit))
    return lines


def render(packed: Sequence[Packed[Hit]], line: Callable[[Hit], str] = line) -> str:
    blocks = []
    for part in packed:
        if part.items:
            body = (_in_time_order(part.items, line) if part.name == "mid_term"
                    else [line(h) for h in part.items])
            blocks.append("\n".join([HEADERS[part.name], *body]))
    return "\n\n".join(blocks)


def fit_input(query: str, budget: int, count: Callable[[str], int]) -> str:
    """The query, cut to what the budget can hold (the input is always part of the pack)."""
    room = budget - count(HEADERS["input"]) - 4
    if count(query) <= room:
        return query
    lo, hi = 0, len(query)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if count(query[:mid] + "…") <= room:
            lo = mid
        else:
            hi = mid - 1
    return query[:lo] + "…" if lo else ""


def assemble(query: str, tiers: dict[str, list[Hit]], shares: dict[str, float], budget: int,
             count: Callable[[str], int]) -> ContextPack:
    """Pack the tiers' hits into ``budget`` tokens; never exceeds it."""
    text_in = fit_input(query, budget, count)
    input_hit = Hit("input:0", "turn", "input", text_in, 1.0, "the current input", ())
    room = budget
    lines: dict[tuple[str, str], tuple[str, int]] = {}

    def written(hit: Hit) -> tuple[str, int]:  # each line is made and counted once
        if (hit.tier, hit.id) not in lines:
            text = line(hit)
            lines[hit.tier, hit.id] = text, count(text) + 1
        return lines[hit.tier, hit.id]

    for attempt in range(8):
        sections = [Section(s.name, tiers.get(s.name, []), shares.get(s.name, 0.0), s.newest_last,
                            s.leftover_rank) for s in SECTIONS]
        sections.append(Section("input", [input_hit] if text_in else [], 1.0))
        # the input is reserved first: every other section packs around it
        reserve = count(HEADERS["input"]) + count(text_in) + 4 if text_in else 0
        packed = pack(sections[:-1], max(room - reserve, 0), lambda h: written(h)[1],
                      lambda name: count(HEADERS[name]) + 2)
        packed.append(Packed("input", list(sections[-1].items), reserve))
        text = render(packed, lambda h: written(h)[0])
        tokens = count(text)
        if tokens <= budget:
            items = tuple(h for part in packed for h in part.items)
            return ContextPack(query, text, items, tokens, budget)
        # the estimate of the parts undercounted the whole: retry tighter, doubling the cut each time, so a
        # pack a token or two over drops an item within a few tries rather than falling back to the input
        room -= (tokens - budget) * 2**attempt
    text = render([Packed("input", [input_hit], 0)]) if text_in else ""
    return ContextPack(query, text, (input_hit,) if text_in else (), count(text), budget)
