"""Phrasing set C (``phrasing_c_zh``, ``phrasing_c_en``): it parses, holds what it should in both
languages, and its chats are its own. Nothing here runs the extraction on it: the set is held out."""

from __future__ import annotations

from pathlib import Path

from pmemo.eval import phrasing_c_en, phrasing_c_zh
from pmemo.eval.phrasing_set import SETS, build, counts, quick
from pmemo.eval.phrasing_spec import KINDS, NEGATIVE

MIN_CHATS, MIN_LABELS, MIN_NEGATIVES = 10, 180, 180  # per language
ROOT = Path(__file__).resolve().parents[2]
# what docs/PHRASING.md ("Set c") says the set holds
CLAIMED = {
    "chats": 28,
    "lines": 879,
    "labels": 417,
    "negatives": 490,
    "corrections": 40,
    "labels_zh": 209,
    "negatives_zh": 240,
    "labels_en": 208,
    "negatives_en": 250,
}


def test_set_c_parses_and_meets_the_minima_in_each_language() -> None:
    chats = build("c")  # raises on any bad spec or speaker
    got = counts(chats)
    assert got == CLAIMED
    assert "c" in SETS
    section = (ROOT / "docs" / "PHRASING.md").read_text(encoding="utf-8").split("## Set c")[1].split("\n## ")[0]
    for key in ("chats", "lines", "corrections", "labels_zh", "labels_en", "negatives_zh", "negatives_en"):
        assert str(CLAIMED[key]) in section, key
    for lang, raw in (("zh", phrasing_c_zh.CHATS), ("en", phrasing_c_en.CHATS)):
        assert len(raw) >= MIN_CHATS, lang
        assert {shape for _, shape, _, _ in raw} == {"group", "private"}, lang
        assert got[f"labels_{lang}"] >= MIN_LABELS, got
        assert got[f"negatives_{lang}"] >= MIN_NEGATIVES, got
    assert got["corrections"] > 0


def test_each_file_is_in_its_language_and_its_chats_are_set_c_only() -> None:
    chats = build("c")
    zh_ids = {c[0] for c in phrasing_c_zh.CHATS}
    for chat in chats:
        want = "zh" if chat.id in zh_ids else "en"
        assert all(line.lang == want for line in chat.lines), [x.text for x in chat.lines if x.lang != want]
    assert not {c.id for c in chats} & ({c.id for c in build("a")} | {c.id for c in build("b")})
    assert build("c") == build("c")
    assert [c.id for c in quick(chats)] == [phrasing_c_zh.CHATS[0][0], phrasing_c_en.CHATS[0][0]]


def test_every_kind_reason_and_subject_is_in_both_languages_several_times() -> None:
    lines = [line for c in build("c") for line in c.lines]
    for lang in ("zh", "en"):
        mine = [line for line in lines if line.lang == lang]
        kinds = [lab.kind for line in mine for lab in line.labels]
        assert all(kinds.count(k) >= 5 for k in KINDS), (lang, {k: kinds.count(k) for k in KINDS})
        whys = [line.why for line in mine if line.why]
        assert all(whys.count(w) >= 5 for w in NEGATIVE), (lang, {w: whys.count(w) for w in NEGATIVE})
        assert {lab.about for line in mine for lab in line.labels} == {"self", "named", "relative"}, lang
        assert sum(bool(lab.ends) for line in mine for lab in line.labels) >= 10, lang
