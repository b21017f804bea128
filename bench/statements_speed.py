"""What the statement model costs per clause, two model files side by side in one run.

    python bench/statements_speed.py --base OLD.npz [--new NEW.npz] [--clauses 4000] [--rounds 5]

Reads the same generated clauses (the dev draw) with each file, alternating round by round so a
busy box slows both alike: the lexical pass (what every clause pays) and the pass with e5 vectors
(what a clause the lexical weights do not call small talk pays besides its embedding; the
vectors come from the training cache, so no embedding is timed). Prints the median microseconds
per clause of each and the new file's rate as a share of the base's.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from train_statements import e5_matrix

from pmemo.statements.generate import generate
from pmemo.statements.model import default_path, load


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", type=Path, required=True)
    ap.add_argument("--new", type=Path, default=default_path())
    ap.add_argument("--clauses", type=int, default=4000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--batch", type=int, default=8, help="clauses per read call (a message's clauses)")
    args = ap.parse_args()
    dev = generate("dev", args.clauses // 2, seed=1, messages=False)[: args.clauses]  # cached by training
    texts, names = [e.text for e in dev], [e.names for e in dev]
    vecs = e5_matrix(texts)
    models = {"base": load(args.base), "new": load(args.new)}
    times: dict[tuple[str, str], list[float]] = {(m, p): [] for m in models for p in ("lexical", "e5")}
    for _ in range(args.rounds):
        for name, model in models.items():
            for phase in ("lexical", "e5"):
                start = time.perf_counter()
                for i in range(0, len(texts), args.batch):
                    model.read(texts[i : i + args.batch], names[i : i + args.batch],
                               vecs[i : i + args.batch] if phase == "e5" else None)
                times[(name, phase)].append((time.perf_counter() - start) / len(texts) * 1e6)
    for phase in ("lexical", "e5"):
        base, new = (statistics.median(times[(m, phase)]) for m in ("base", "new"))
        print(f"{phase:>8}: base {base:7.1f} µs/clause  new {new:7.1f} µs/clause  rate {base / new:.2f}x of base")


if __name__ == "__main__":
    main()
