"""The filler set's structure only (never its labels against a detector): pmemo.eval.filler_set."""

from __future__ import annotations

from collections import Counter

from pmemo.eval.filler_set import LINES


def test_every_line_is_text_lang_label_shape() -> None:
    for line in LINES:
        assert isinstance(line, tuple) and len(line) == 4, line
        text, lang, label, shape = line
        assert isinstance(text, str) and text.strip() == text and text, line
        assert lang in {"zh", "en"}, line
        assert label in {"free", "content"}, line
        assert isinstance(shape, str) and shape, line


def test_no_duplicate_texts() -> None:
    counts = Counter(text for text, _, _, _ in LINES)
    assert [text for text, n in counts.items() if n > 1] == []


def test_each_language_has_enough_lines_on_both_sides() -> None:
    per_lang = Counter(lang for _, lang, _, _ in LINES)
    assert per_lang["zh"] >= 250 and per_lang["en"] >= 250
    per_cell = Counter((lang, label) for _, lang, label, _ in LINES)
    assert all(per_cell[(lang, label)] > 0 for lang in ("zh", "en") for label in ("free", "content"))
