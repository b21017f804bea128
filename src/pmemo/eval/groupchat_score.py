"""Scoring for the group-chat scenario: pure functions over plain data, no pmemo objects.

A harness runs pmemo on ``groupchat_gen.generate()`` and hands what it saw here: the
message idx behind each hit, the people it resolved, the subjects it attributed, whether a
plan surfaced. Each function checks that it got one answer per check.

>>> recall_at([3, 9], [[1], [3, 4], [7]], k=2)
0.5
>>> leaks([LeakProbe("g1", "q", (5, 6))], [[1, 5, 6, 5]])
2
"""

from __future__ import annotations

from collections.abc import Sequence

from .groupchat_scenario import AliasCheck, FollowUp, LeakProbe, SubjectCheck
from .metrics import percentile


def recall_at(evidence: Sequence[int], retrieved: Sequence[Sequence[int]], k: int) -> float:
    """Share of the evidence idx found in the top ``k`` hits; a hit may stand for several messages.

    >>> recall_at([3], [[1, 2, 3]], k=1)  # one window hit covering messages 1-3
    1.0
    """
    if not evidence:
        raise ValueError("recall is undefined without evidence")
    if k < 0:
        raise ValueError(f"k must be >= 0, got {k}")
    found = {idx for hit in retrieved[:k] for idx in hit}
    gold = set(evidence)
    return len(gold & found) / len(gold)


def alias_prf(checks: Sequence[AliasCheck], predicted: Sequence[Sequence[str]]) -> dict[str, float]:
    """Micro precision, recall and F1 over person ids, with the raw counts.

    A check that expects nobody and gets nobody adds nothing; with no prediction at all
    precision is 1.0, with nothing expected recall is 1.0 (neither can be wrong).

    >>> checks = [AliasCheck("霓霓在吗", "g1", ("p1",)), AliasCheck("让我静静", "g1", ())]
    >>> alias_prf(checks, [("p1",), ("p2",)])["precision"]
    0.5
    """
    _same_length(checks, predicted)
    tp = fp = fn = 0
    for check, guess in zip(checks, predicted, strict=True):
        want, got = set(check.expected), set(guess)
        tp += len(want & got)
        fp += len(got - want)
        fn += len(want - got)
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": precision, "recall": recall, "f1": f1, "tp": tp, "fp": fp, "fn": fn}


def subject_accuracy(checks: Sequence[SubjectCheck], predicted: Sequence[str | None]) -> float:
    """Share of fact messages attributed to the right person (None counts as wrong).

    >>> subject_accuracy([SubjectCheck(1, "p1", "花生"), SubjectCheck(2, "p2", "芒果")], ["p1", None])
    0.5
    """
    _same_length(checks, predicted)
    if not checks:
        raise ValueError("accuracy is undefined without checks")
    return sum(c.expected_subject == p for c, p in zip(checks, predicted, strict=True)) / len(checks)


def leaks(probes: Sequence[LeakProbe], returned: Sequence[Sequence[int]]) -> int:
    """Forbidden idx that came back, each counted once per probe: 0 is the only good score.

    >>> leaks([LeakProbe("g1", "q", (5,))], [[1, 2]])
    0
    """
    _same_length(probes, returned)
    return sum(len(set(p.forbidden) & set(r)) for p, r in zip(probes, returned, strict=True))


def followups_right(checks: Sequence[FollowUp], surfaced: Sequence[bool]) -> tuple[int, int]:
    """(right, total): a plan must surface when ``expect`` is set and must not when it is None.

    >>> before, after = FollowUp("p1", "g1", "t", "在吗", "考研", ""), FollowUp("p1", "g1", "t", "在吗", None, "")
    >>> followups_right([before, after], [True, True])
    (1, 2)
    """
    _same_length(checks, surfaced)
    right = sum((c.expect is not None) == bool(s) for c, s in zip(checks, surfaced, strict=True))
    return right, len(checks)


def p50(values: Sequence[float]) -> float | None:
    """The median (linear interpolation, as ``metrics.percentile``); None for no values.

    >>> p50([3.0, 1.0, 2.0, 10.0])
    2.5
    """
    return percentile(values, 50)


def _same_length(checks: Sequence[object], answers: Sequence[object]) -> None:
    if len(checks) != len(answers):
        raise ValueError(f"expected one answer per check: {len(checks)} checks, {len(answers)} answers")
