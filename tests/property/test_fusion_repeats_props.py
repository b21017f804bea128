"""fusion.once and fusion.give_way (issue 44 §5): the same words said many times are one hit, and a
routine line the same but for its numbers gives way; nothing is lost, the order stays stable."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pmemo.retrieval.fusion import give_way, once

# (item, score) best first, each item with a key (its words) drawn from a few, some None
ranked = st.lists(st.tuples(st.floats(-5, 5, allow_nan=False), st.sampled_from(["a", "b", "c", "", None])),
                  max_size=30).map(lambda rows: [((n, key), score) for n, (score, key)
                                                 in enumerate(sorted(rows, key=lambda r: -r[0]))])


def key(item: tuple[int, str | None]) -> str | None:
    return item[1]


@given(ranked)
def test_once_keeps_each_words_once_and_loses_nothing(rows: list) -> None:
    kept, repeats = once(rows, key)
    keys = [key(i) for i, _ in kept if key(i)]
    assert len(keys) == len(set(keys))
    assert [i for i, _ in kept] == [i for i, _ in rows if i in {k for k, _ in kept}]  # order kept
    again = [i for items in repeats.values() for i in items]
    assert sorted([i for i, _ in kept] + again) == sorted(i for i, _ in rows)
    for first, items in repeats.items():  # a repeat has its first's words and ranked below it
        assert all(key(i) == key(first) and i[0] > first[0] for i in items)


@given(ranked, st.floats(0, 3, allow_nan=False))
def test_give_way_keeps_every_item_sorted_and_lowers_only_repeats(rows: list, penalty: float) -> None:
    out = give_way(rows, key, penalty)
    assert sorted(i for i, _ in out) == sorted(i for i, _ in rows)
    scores = [s for _, s in out]
    assert scores == sorted(scores, reverse=True)
    before = dict(rows)
    seen: set[str] = set()
    for item, _ in rows:  # the first of each key keeps its score, the others lose the penalty
        k = key(item)
        lowered = bool(k) and k in seen
        assert dict(out)[item] == (before[item] - penalty if lowered else before[item])
        if k:
            seen.add(k)
