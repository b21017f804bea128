"""Model files on this tree's second dev draw, read as the package reads them (issue 44 §1).

    python bench/statements_dev.py src/pmemo/data/statements.npz bench_out/statements-candidate.npz

Per language, the own facts (a clause read as stating, its ``stating`` at its kind's threshold) of
the dev draw that chose nothing (seed 2): precision and recall with the kind right, on the whole
draw and on its messages written by hand (``statements.hand``: every fourth, never trained on). A
file from an older round reads this tree's dev split, which it was not calibrated on; the point is
whether the dev split ranks files as the phrasing set does (docs/STATEMENTS.md, fourth round).
e5 vectors come from the trainer's cache (``train_statements.e5_matrix``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from train_statements import DEV2_SEED, DEV_PER_LANG, e5_matrix

from pmemo.statements.generate import Example, generate
from pmemo.statements.model import load


def scores(examples: list[Example], said: list[bool], kinds: list[str]) -> str:
    truth = [e.label.states for e in examples]
    right = sum(s and t and e.label.kind == k for s, t, e, k in zip(said, truth, examples, kinds, strict=True))
    prec, rec = right / max(sum(said), 1), right / max(sum(truth), 1)
    return f"P {prec:.3f} R {rec:.3f} (n={sum(truth)})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+", type=Path)
    args = ap.parse_args()
    dev2 = generate("dev", DEV_PER_LANG, DEV2_SEED)
    vectors = e5_matrix([e.text for e in dev2])
    for file in args.files:
        model = load(file)
        readings = model.read([e.text for e in dev2], [e.names for e in dev2], vectors)
        said = [r.label.states and r.stating >= r.threshold for r in readings]
        kinds = [r.label.kind for r in readings]
        for lang in ("zh", "en"):
            ids = [i for i, e in enumerate(dev2) if e.lang == lang]
            hand = [i for i in ids if ":hand:" in dev2[i].template]
            part = {name: scores([dev2[i] for i in s], [said[i] for i in s], [kinds[i] for i in s])
                    for name, s in (("all", ids), ("hand", hand))}
            print(f"{file}  {lang}: own facts, kind right: all {part['all']}; written by hand {part['hand']}")


if __name__ == "__main__":
    main()
