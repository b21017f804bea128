"""How well ``text.filler.filler`` tells content-free chat lines from content, on the set another
hand wrote (``pmemo.eval.filler_set``, and ``filler_set_b`` by a third hand, written after set a's
misses were read: never trained or tuned on; only their scores are read here).

Usage:
  python bench/filler_eval.py [--set a|b|c] [--misses]

Prints, per language, precision and recall of "content-free" (a content line called filler is a
fact lost to every context, so precision matters most) and the count per shape of what was missed.
``--misses`` also prints the lines called wrongly (to read once a score is reported, never to add
their words to the lexicon). Run it from a worktree of an older commit for the baseline.
"""

from __future__ import annotations

import argparse
import collections
import json

from pmemo.eval import filler_set, filler_set_b, filler_set_c
from pmemo.text.filler import filler


def score(lines: list[tuple[str, str, str, str]]) -> dict[str, object]:
    """Precision and recall of ``filler`` for the "free" label, and wrong calls by shape."""
    tp = fp = fn = 0
    wrong: collections.Counter[str] = collections.Counter()
    for text, _lang, label, shape in lines:
        said = filler(text)
        tp += said and label == "free"
        fp += said and label == "content"
        fn += not said and label == "free"
        if said != (label == "free"):
            wrong[f"{label}:{shape}"] += 1
    return {"lines": len(lines), "precision": round(tp / max(1, tp + fp), 3), "recall": round(tp / max(1, tp + fn), 3),
            "content called filler": fp, "filler missed": fn, "wrong by shape": dict(wrong.most_common())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=("a", "b", "c"), default="a")
    parser.add_argument("--misses", action="store_true")
    args = parser.parse_args()
    LINES = {"a": filler_set, "b": filler_set_b, "c": filler_set_c}[args.set].LINES  # noqa: N806 - the set's own name
    out = {lang: score([x for x in LINES if x[1] == lang]) for lang in ("zh", "en")}
    out["all"] = score(list(LINES))
    print(json.dumps(out, ensure_ascii=False, indent=1))
    if args.misses:
        for text, lang, label, shape in LINES:
            if filler(text) != (label == "free"):
                print(lang, label, shape, repr(text))


if __name__ == "__main__":
    main()
