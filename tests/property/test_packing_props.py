"""Packing never exceeds its budget and keeps each section's display order."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pmemo.retrieval.packing import Section, pack

costs = st.lists(st.integers(min_value=0, max_value=400), max_size=12)
section_specs = st.lists(
    st.tuples(costs, st.floats(min_value=0.0, max_value=1.0), st.booleans()), max_size=5
)
budgets = st.integers(min_value=0, max_value=3000)
header = st.integers(min_value=0, max_value=20)


leads = st.integers(min_value=-1, max_value=4)  # which section leads (-1 or past the end: none)


def build(specs, lead=-1):
    # items are (index, cost) so equal costs stay distinguishable
    return [
        Section(f"s{n}", [(i, c) for i, c in enumerate(cs)], share, newest, lead=n == lead)
        for n, (cs, share, newest) in enumerate(specs)
    ]


@given(section_specs, budgets, header, leads)
def test_pack_never_exceeds_budget(specs, budget, head, lead):
    sections = build(specs, lead)
    packed = pack(sections, budget, lambda item: item[1], lambda _: head)
    spent = sum(sum(c for _, c in p.items) + (head if p.items else 0) for p in packed)
    assert spent <= budget
    assert sum(p.tokens for p in packed) == spent
    for p in packed:
        assert p.tokens == sum(c for _, c in p.items) + (head if p.items else 0)


@given(section_specs, budgets, header, leads)
def test_pack_keeps_sections_and_display_order(specs, budget, head, lead):
    sections = build(specs, lead)
    packed = pack(sections, budget, lambda item: item[1], lambda _: head)
    assert [p.name for p in packed] == [s.name for s in sections]
    for section, part in zip(sections, packed, strict=True):
        idx = [i for i, _ in part.items]
        assert len(set(idx)) == len(idx)
        assert idx == sorted(idx, reverse=section.newest_last)


@given(section_specs, header, leads)
def test_pack_takes_everything_when_it_fits(specs, head, lead):
    sections = build(specs, lead)
    need = sum(sum(cs) + (head if cs else 0) for cs, _, _ in specs)
    packed = pack(sections, need, lambda item: item[1], lambda _: head)
    for section, part in zip(sections, packed, strict=True):
        assert sorted(part.items) == sorted(section.items)


@given(costs, st.floats(min_value=0.0, max_value=1.0), budgets)
def test_pack_prefers_priority_within_share(cs, share, budget):
    # with one section, the first pass fills in priority order: an item is only skipped
    # when it does not fit, and a skipped item never blocks a smaller later one
    (part,) = pack(
        [Section("only", [(i, c) for i, c in enumerate(cs)], share)], budget, lambda item: item[1]
    )
    taken = {i for i, _ in part.items}
    total = sum(c for _, c in part.items)
    for i, c in enumerate(cs):
        if i not in taken:
            assert total + c > budget


def test_newest_last_displays_oldest_first():
    # priority: newest first; display: oldest first
    items = ["t5", "t4", "t3", "t2", "t1"]
    (part,) = pack([Section("short_term", items, 1.0, newest_last=True)], 3, lambda _: 1)
    assert part.items == ["t3", "t4", "t5"]


def test_unused_share_flows_to_later_sections():
    sections = [Section("a", [], 0.5), Section("b", ["x"] * 10, 0.1)]
    _, b = pack(sections, 10, lambda _: 1)
    assert len(b.items) == 10


def test_zero_budget_packs_nothing():
    packed = pack([Section("a", [1, 2], 1.0)], 0, lambda _: 1)
    assert packed[0].items == [] and packed[0].tokens == 0


def test_a_lead_section_does_not_trade_a_long_item_for_smaller_later_ones():
    """A long reply ranked second is in whenever it fits what the others' shares leave: without
    ``lead`` its share cuts it out, smaller items take the room, and nothing is left for it."""
    def sections(lead: bool) -> list[Section[tuple[str, int]]]:
        return [Section("profile", [("fact", 50)], 0.1), Section("long", [("summary", 100)], 0.1),
                Section("mid", [("turn", 60), ("reply", 700), *((f"turn{i}", 60) for i in range(10))], 0.55,
                        lead=lead)]

    _, _, capped = pack(sections(False), 1000, lambda item: item[1])
    profile, long, mid = pack(sections(True), 1000, lambda item: item[1])
    assert ("reply", 700) not in capped.items
    assert profile.items == [("fact", 50)] and long.items == [("summary", 100)]  # their shares stay theirs
    assert [name for name, _ in mid.items] == ["turn", "reply", "turn0"]



def test_a_lead_sections_best_item_goes_in_first_whatever_its_size():
    """The one most relevant memory is in whenever it fits the budget: 800 tokens of a 1,000
    budget, the other sections shrink around it."""
    profile, mid = pack([Section("profile", [("fact", 100), ("fact2", 150)], 0.4),
                         Section("mid", [("reply", 800), ("turn", 30)], 0.55, lead=True)], 1000, lambda item: item[1])
    assert mid.items == [("reply", 800), ("turn", 30)] and profile.items == [("fact", 100)]
