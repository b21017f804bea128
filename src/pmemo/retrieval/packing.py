"""Packing ranked items into a token budget (pure).

Sections come in the order they will be shown (key → long-term → mid-term → short-term →
input). A ``lead`` section (the relevant memories) puts its best item in first, whatever its
size: the one most relevant memory is never crowded out (plain dense top-k packing always has
its first hit). Then each other section up to its share; then the lead section, in its own
order, into all they leave, so that a long reply ranked second is not traded for smaller, less
relevant turns. What a section leaves unused goes to the next ones, in priority order. The
result never exceeds the budget and keeps each section's display order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Section(Generic[T]):
    name: str
    items: Sequence[T]  # in priority order (most wanted first)
    share: float  # fraction of the budget reserved for this section
    newest_last: bool = False  # display in reverse priority order (short-term: oldest first)
    leftover_rank: int = 0  # who gets unused budget first (lower first; ties in section order)
    lead: bool = False  # its best item first, whatever its size; then all the others' shares leave


@dataclass(frozen=True)
class Packed(Generic[T]):
    name: str
    items: list[T]
    tokens: int


def pack(sections: Sequence[Section[T]], budget: int, cost: Callable[[T], int],
         header_cost: Callable[[str], int] = lambda _: 0, leftovers: bool = True) -> list[Packed[T]]:
    """Greedy fill: the ``lead`` sections' best items; each other section up to its share; the
    lead sections up to what the others leave; with ``leftovers``, what is still unused by
    ``leftover_rank`` (without, a section other than a lead one never takes more than its
    share: the pack ends where the relevant items do)."""
    chosen: list[list[int]] = [[] for _ in sections]
    used = [0] * len(sections)
    total = 0
    costs: dict[tuple[int, int], int] = {}

    def try_take(si: int, ii: int, limit: float) -> None:
        nonlocal total
        if (si, ii) not in costs:
            costs[si, ii] = cost(sections[si].items[ii])
        c = costs[si, ii]
        head = header_cost(sections[si].name) if not chosen[si] else 0
        if used[si] + c + head <= limit and total + c + head <= budget:
            chosen[si].append(ii)
            used[si] += c + head
            total += c + head

    for si, section in enumerate(sections):
        if section.lead and section.items:
            try_take(si, 0, budget)
    for si in sorted(range(len(sections)), key=lambda i: sections[i].lead):
        for ii in range(len(chosen[si]), len(sections[si].items)):  # past a lead's best item, if taken
            try_take(si, ii, budget if sections[si].lead else sections[si].share * budget)
    for si in sorted(range(len(sections)), key=lambda i: (sections[i].leftover_rank, i)) if leftovers else ():
        section = sections[si]
        taken = set(chosen[si])
        for ii in range(len(section.items)):
            if ii not in taken:
                try_take(si, ii, budget)
    out: list[Packed[T]] = []
    for si, section in enumerate(sections):
        idx = sorted(chosen[si], reverse=section.newest_last)
        out.append(Packed(section.name, [section.items[i] for i in idx], used[si]))
    return out
