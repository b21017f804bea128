"""Experiment, not kept (docs/CONTEXT.md, "Filler"): a learned reading of short lines beside the lexicon.

Hashed character 1-3-grams, logistic regression, trained on generated lines only (free: the lexicon's
units composed with emoji, names and held-down letters; content: the statement generator's fact
clauses, alone or behind a filler unit). A line is filler when the lexicon says so or the model's
chance reaches a threshold. Scored on filler sets a and b (never trained on).

    nice python bench/filler_lr.py [--c 1.0]
"""

from __future__ import annotations

import argparse
import random
import zlib

import numpy as np
from scipy.sparse import csr_matrix
from sklearn.linear_model import LogisticRegression

from pmemo.eval import filler_set, filler_set_b
from pmemo.statements.generate import generate
from pmemo.text import filler as F  # noqa: N812 - the module read from inside

DIM = 1 << 16
EMOJI = ["😂", "🤣", "👍", "🙏", "😭", "🔥", "💀", "😅", "🙌", "❤️", "😆", "[表情]", "[捂脸]", "[Facepalm]"]
JOIN = ["", " ", "，", "~", "!", "！", "。", "...", "～"]
NAMES = {"zh": ["王姐", "老张", "小李", "周霓", "涛哥", "阿强", "萌萌"],
         "en": ["Sam", "Mia", "Tom", "Alex", "Jen", "Raj"]}


def grams(text: str) -> set[int]:
    """The hashed character 1-3-grams of a line's words (``filler._words``, runs folded to two)."""
    s = " " + F._RUN.sub(r"\1\1", F._words(F._EMOJI_CODE.sub(" ", F._MENTION.sub(" ", text)))) + " "
    return {zlib.crc32(s[i:i + n].encode()) % DIM for n in (1, 2, 3) for i in range(len(s) - n + 1)
            if s[i:i + n].strip()}


def free_line(rng: random.Random, lang: str) -> str:
    units = F._ZH if lang == "zh" else F._EN
    parts = [rng.choice(units) for _ in range(rng.randint(1, 3))]
    if rng.random() < 0.3:
        parts = [p + p[-1] * rng.randint(1, 3) for p in parts]
    line = rng.choice(JOIN).join(parts)
    if rng.random() < 0.2:
        line = f"@{rng.choice(NAMES[lang])} {line}"
    elif rng.random() < 0.15:
        line += rng.choice(["", " "]) + rng.choice(NAMES[lang])
    if rng.random() < 0.4:
        line += "".join(rng.choice(EMOJI) for _ in range(rng.randint(1, 3)))
    return line


def training(seed: int, per_lang: int) -> tuple[list[str], list[int]]:
    rng = random.Random(seed)
    texts: list[str] = []
    for e in generate("train", per_lang, seed=seed):
        if e.label.kind != "none":
            texts.append(e.text)
            if rng.random() < 0.2:
                texts.append(free_line(rng, e.lang) + rng.choice(["，", " ", ""]) + e.text)
    content = len(texts)
    texts += [free_line(rng, rng.choice(["zh", "en"])) for _ in range(content)]
    return texts, [0] * content + [1] * (len(texts) - content)


def matrix(texts: list[str]) -> csr_matrix:
    rows = [(i, j) for i, t in enumerate(texts) for j in grams(t)]
    r, c = zip(*rows, strict=True)
    return csr_matrix((np.ones(len(rows), np.float32), (r, c)), shape=(len(texts), DIM))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--c", type=float, default=1.0)
    args = parser.parse_args()
    texts, labels = training(1, 3000)
    model = LogisticRegression(C=args.c, max_iter=2000).fit(matrix(texts), labels)
    for name, lines in (("a", filler_set.LINES), ("b", filler_set_b.LINES)):
        chance = model.predict_proba(matrix([t for t, *_ in lines]))[:, 1]
        for threshold in (0.9, 0.95, 0.98, 1.01):  # 1.01: the lexicon alone
            for lang in ("zh", "en"):
                tp = fp = fn = 0
                for (text, line_lang, label, _shape), p in zip(lines, chance, strict=True):
                    if line_lang == lang:
                        said = F.filler(text) or (p >= threshold and len(F._words(text)) <= F.MAX_CHARS)
                        tp += said and label == "free"
                        fp += said and label == "content"
                        fn += not said and label == "free"
                print(f"set {name} p>={threshold} {lang}: precision {tp / max(1, tp + fp):.3f}"
                      f" recall {tp / max(1, tp + fn):.3f} content called filler {fp}")


if __name__ == "__main__":
    main()
