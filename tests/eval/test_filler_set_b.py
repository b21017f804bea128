"""Filler set B: structure only (the set is for evaluation, not for tests of the detector)."""

from __future__ import annotations

from collections import Counter

from pmemo.eval.filler_set_b import LINES


def test_rows_have_four_string_fields() -> None:
    assert LINES
    for row in LINES:
        assert len(row) == 4, row
        assert all(isinstance(field, str) and field for field in row), row


def test_lang_and_label_values() -> None:
    for text, lang, label, _shape in LINES:
        assert lang in {"zh", "en"}, text
        assert label in {"free", "content"}, text


def test_no_duplicate_texts() -> None:
    counts = Counter(text for text, *_ in LINES)
    assert [t for t, n in counts.items() if n > 1] == []


def test_at_least_200_per_language() -> None:
    per_lang = Counter(lang for _, lang, _, _ in LINES)
    assert per_lang["zh"] >= 200
    assert per_lang["en"] >= 200
