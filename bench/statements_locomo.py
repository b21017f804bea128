"""Check the statement model's English side on LoCoMo's per-session observation lists (a check,
never a tuning target: nothing here feeds training, and no LoCoMo text enters the repository).

    python bench/statements_locomo.py [/path/to/locomo_dev.json] [--lexical]

LoCoMo lists, per session and speaker, the facts an annotator drew from which turn
(``observation``). A turn listed there states something about a person; a turn never listed
states nothing an annotator kept. The model says a turn states something when one of its
clauses reads as a statement about the speaker, a person it names or a relative. Printed:
turn-level precision and recall, and whom (the listed speaker is the turn's own speaker, or the
other one) against the subject the model read.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from train_statements import e5_matrix  # noqa: E402 - the same e5 cache as training

from pmemo.statements.clauses import clauses  # noqa: E402
from pmemo.statements.model import load  # noqa: E402

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo_dev.json"
_ID = re.compile(r"D\s*:?\s*(\d+)\s*:\s*(\d+)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", type=Path, default=DEFAULT)
    ap.add_argument("--lexical", action="store_true", help="the lexical-only weights (no e5)")
    ap.add_argument("--limit", type=int, default=0, help="only the first N conversations")
    ap.add_argument("--model", type=Path, default=None, help="another model file (default: the shipped one)")
    args = ap.parse_args()
    model = load(args.model)
    samples = json.loads(args.file.read_text())[: args.limit or None]
    truth: dict[tuple[str, str], set[str]] = {}  # (sample, dia_id) -> speakers whose facts it gave
    turns: list[tuple[str, str, str, list[str]]] = []  # sample, dia_id, speaker, names, text
    for s in samples:
        conv = s["conversation"]
        names = [conv["speaker_a"], conv["speaker_b"]]
        for obs in s["observation"].values():
            for who, items in obs.items():
                for _, ref in items:
                    for m in _ID.finditer(str(ref)):
                        truth.setdefault((s["sample_id"], f"D{int(m.group(1))}:{int(m.group(2))}"), set()).add(who)
        for key, session in conv.items():
            if key.startswith("session_") and isinstance(session, list):
                for t in session:
                    turns.append((s["sample_id"], t["dia_id"], t["speaker"], names, t["text"]))
    parts = [clauses(text) for *_, text in turns]
    flat = [c for p in parts for c in p]
    spans = [[(m.start(), m.end()) for n in names for m in re.finditer(re.escape(n.split()[0]), c)]
             for (_, _, _, names, _), p in zip(turns, parts, strict=True) for c in p]
    vecs = None if args.lexical else e5_matrix(flat)
    reads = model.read(flat, spans, vecs)
    at = 0
    tp = fp = fn = 0
    whom: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    for (sample, dia, speaker, _names, _), p in zip(turns, parts, strict=True):
        mine = reads[at : at + len(p)]
        at += len(p)
        stating = [r for r in mine if r.label.states]
        listed = truth.get((sample, dia), set())
        said = bool(stating)
        tp, fp, fn = tp + (said and bool(listed)), fp + (said and not listed), fn + (not said and bool(listed))
        if said and listed:
            own = speaker in listed
            subject = Counter(r.label.subject for r in stating).most_common(1)[0][0]
            whom[f"listed under {'its speaker' if own else 'the other'}, read as {subject}"] += 1
            kinds.update(r.label.kind for r in stating)
    n = len(turns)
    print(f"{args.file.name}: {n} turns, {sum(1 for k in truth if truth[k])} listed in the observations; "
          f"weights: {'lexical' if args.lexical else 'e5 + lexical'}")
    print(f"turn states a fact: precision {tp / max(tp + fp, 1):.3f}  recall {tp / max(tp + fn, 1):.3f}  "
          f"(tp {tp}, fp {fp}, fn {fn}); the model calls {np.mean([tp + fp]) / n:.2f} of turns stating")
    for k, v in whom.most_common():
        print(f"  {k}: {v}")
    print("  kinds read on listed turns: " + ", ".join(f"{k} {v}" for k, v in kinds.most_common()))


if __name__ == "__main__":
    main()
