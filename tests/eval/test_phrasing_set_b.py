"""Phrasing set B (``phrasing_b_zh``, ``phrasing_b_en``): it parses, holds what it should in both
languages, and ``pmemo eval phrasing --set b --quick`` runs end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from eval_cli import app
from typer.testing import CliRunner

from pmemo.eval import phrasing_b_en, phrasing_b_zh
from pmemo.eval.phrasing_set import build, counts, quick
from pmemo.eval.phrasing_spec import KINDS, NEGATIVE

MIN_CHATS, MIN_LABELS, MIN_NEGATIVES = 6, 180, 180  # per language


def test_set_b_parses_and_meets_the_minima_in_each_language() -> None:
    chats = build("b")  # raises on any bad spec or speaker
    got = counts(chats)
    for lang, raw in (("zh", phrasing_b_zh.CHATS), ("en", phrasing_b_en.CHATS)):
        assert len(raw) >= MIN_CHATS, lang
        assert {shape for _, shape, _, _ in raw} == {"group", "private"}, lang
        assert got[f"labels_{lang}"] >= MIN_LABELS, got
        assert got[f"negatives_{lang}"] >= MIN_NEGATIVES, got
        assert got["corrections"] > 0


def test_each_file_is_in_its_language_and_its_chats_are_set_b_only() -> None:
    chats = build("b")
    zh_ids = {c[0] for c in phrasing_b_zh.CHATS}
    for chat in chats:
        want = "zh" if chat.id in zh_ids else "en"
        assert all(line.lang == want for line in chat.lines), [x.text for x in chat.lines if x.lang != want]
    assert not {c.id for c in chats} & {c.id for c in build("a")}
    assert build("b") == build("b")
    with pytest.raises(ValueError, match="unknown phrasing set"):
        build("z")


def test_every_kind_reason_and_subject_is_in_both_languages() -> None:
    lines = [line for c in build("b") for line in c.lines]
    for lang in ("zh", "en"):
        mine = [line for line in lines if line.lang == lang]
        assert {lab.kind for line in mine for lab in line.labels} == set(KINDS), lang
        assert {line.why for line in mine if line.why} == set(NEGATIVE), lang
        assert {lab.about for line in mine for lab in line.labels} == {"self", "named", "relative"}, lang
        assert any(lab.ends for line in mine for lab in line.labels), lang


def test_eval_phrasing_set_b_quick_runs_end_to_end(tmp_path: Path) -> None:
    out = tmp_path / "phrasing-b.json"
    args = [
        "eval",
        "phrasing",
        "--set",
        "b",
        "--quick",
        "--embedder",
        "hashing",
        "--data",
        str(tmp_path / "data"),
        "--json",
        str(out),
    ]
    result = CliRunner().invoke(app(), args)
    assert result.exit_code == 0, result.output
    assert "R zh" in result.output
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["meta"]["set"] == "b"
    assert report["set"] == counts(quick(build("b")))
    assert [c.id for c in quick(build("b"))] == [phrasing_b_zh.CHATS[0][0], phrasing_b_en.CHATS[0][0]]
    assert report["runs"][0]["score"]["recall"]["all"]["n"] == report["set"]["labels"]
    bad = CliRunner().invoke(
        app(), ["eval", "phrasing", "--set", "z", "--quick", "--embedder", "hashing", "--data", str(tmp_path / "data")]
    )
    assert bad.exit_code == 2 and "--set" in bad.output
