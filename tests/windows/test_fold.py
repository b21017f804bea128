"""Folding turns into L2 windows (pure): ranges, overlap, sessions, and that nothing is lost."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pmemo.tiers.windows import Piece, carry, fold


def ids(windows: list[list[Piece]]) -> list[list[int]]:
    return [[p.id for p in w] for w in windows]


def test_windows_hold_consecutive_turns_up_to_the_size_and_overlap_by_the_last_ones() -> None:
    pieces = [Piece(i, 40, "s") for i in range(1, 11)]
    closed, still = fold([], 0, pieces, size=130, overlap=45)
    # 3 turns (120) fit, a 4th would not; the next window opens with the last turn (40 <= 45)
    assert ids(closed) == [[1, 2, 3], [3, 4, 5], [5, 6, 7], [7, 8, 9]]
    assert [p.id for p in still] == [9, 10]


def test_a_full_window_closes_at_once_and_a_long_turn_is_a_window_of_its_own() -> None:
    closed, still = fold([], 0, [Piece(1, 50, "s"), Piece(2, 50, "s"), Piece(3, 500, "s"), Piece(4, 5, "s")],
                         size=100, overlap=60)
    assert ids(closed) == [[1, 2], [3]]  # the overlap gives way to the long turn
    assert [p.id for p in still] == [4]


def test_the_overlap_is_never_the_whole_window() -> None:
    assert carry([Piece(1, 5, "s")], 100) == []
    assert [p.id for p in carry([Piece(1, 5, "s"), Piece(2, 5, "s")], 100)] == [2]


def test_a_new_session_closes_a_half_full_window_and_joins_a_small_one() -> None:
    busy = [Piece(1, 60, "mon"), Piece(2, 60, "mon"), Piece(3, 10, "tue")]
    closed, still = fold([], 0, busy, size=200, overlap=80)
    assert ids(closed) == [[1, 2]] and [p.id for p in still] == [3]  # no overlap from Monday
    quiet = [Piece(1, 10, "mon"), Piece(2, 10, "tue"), Piece(3, 10, "wed")]
    closed, still = fold([], 0, quiet, size=200, overlap=80)
    assert closed == [] and [p.id for p in still] == [1, 2, 3]


def test_folding_in_batches_is_folding_at_once() -> None:
    pieces = [Piece(i, 15 + 7 * (i % 4), "s") for i in range(1, 30)]
    whole, rest = fold([], 0, pieces, 100, 30)
    first, open_ = fold([], 0, pieces[:11], 100, 30)
    fresh = sum(p.id > max((w[-1].id for w in first), default=0) for p in open_)
    current = open_ or carry(first[-1], 30)
    second, rest2 = fold(current, fresh, pieces[11:], 100, 30)
    assert ids(first + second) == ids(whole) and rest2 == rest


@given(st.lists(st.tuples(st.integers(1, 120), st.integers(0, 2)), min_size=1, max_size=60),
       st.integers(20, 300), st.integers(0, 60))
def test_every_turn_is_in_a_window_in_order_within_the_size(turns: list[tuple[int, int]], size: int,
                                                            overlap: int) -> None:
    pieces = [Piece(i, tokens, f"s{session}") for i, (tokens, session) in enumerate(turns, 1)]
    closed, still = fold([], 0, pieces, size, overlap)
    windows = [*closed, *([still] if still else [])]
    assert {p.id for w in windows for p in w} == {p.id for p in pieces}
    for w in windows:
        assert [p.id for p in w] == sorted(p.id for p in w)
        assert len(w) == 1 or sum(p.tokens for p in w) <= size
    for before, after in zip(windows, windows[1:], strict=False):
        shared = [p for p in after if p.id <= before[-1].id]
        assert shared == before[len(before) - len(shared):]  # the overlap is the previous window's end
        assert sum(p.tokens for p in shared) <= overlap and len(shared) < len(before)
        fresh = after[len(shared):]
        assert not shared or not fresh or shared[-1].session == fresh[0].session  # no overlap into a new session
