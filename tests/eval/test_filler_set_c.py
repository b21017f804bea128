"""Filler set C (``pmemo.eval.filler_set_c``): its shape, and that ``bench/filler_eval.py --set c`` reads it."""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

from pmemo.eval.filler_set_c import LINES

ROOT = Path(__file__).resolve().parents[2]
_CJK = re.compile(r"[\u3400-\u9fff]")


def test_each_language_has_250_lines_about_half_free_and_no_line_twice() -> None:
    assert all(lang in ("zh", "en") and label in ("free", "content") and text and shape
               for text, lang, label, shape in LINES)
    for lang in ("zh", "en"):
        labels = Counter(label for _, lg, label, _ in LINES if lg == lang)
        assert labels["free"] + labels["content"] >= 250, lang
        assert abs(labels["free"] - labels["content"]) <= 0.1 * (labels["free"] + labels["content"]), labels
    texts = [text for text, *_ in LINES]
    assert len(texts) == len(set(texts))
    assert not any(_CJK.search(text) for text, lang, *_ in LINES if lang == "en")


def test_the_hard_shapes_are_there_in_both_languages() -> None:
    for lang in ("zh", "en"):
        shapes = {(label, shape) for _, lg, label, shape in LINES if lg == lang}
        for want in (("free", "long-filler"), ("free", "name-in-filler"), ("free", "invite-chatter"),
                     ("content", "lookalike"), ("content", "name-place"), ("content", "filler+content"),
                     ("content", "mention+content")):
            assert want in shapes, (lang, want)


def test_the_bench_takes_set_c() -> None:
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "filler_eval.py"), "--set", "c"],
                         capture_output=True, text=True, check=True, cwd=ROOT)
    assert '"zh"' in out.stdout and '"en"' in out.stdout
