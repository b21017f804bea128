"""Messages of several clauses in the training set (issue 44 §1, third round): each clause labelled as
the reader cuts the message, chatter next to a statement no fact, a clause that goes on with a
statement one with no subject of its own, a joke cut off from its statement a joke marker."""

from __future__ import annotations

import random
from collections import Counter

from pmemo.statements.clauses import clauses
from pmemo.statements.draw import Part
from pmemo.statements.labels import Label
from pmemo.statements.messages import NONE, _cut, message, templates
from pmemo.statements.shapes import OPENERS_ZH

WORK = Label("work", "speaker", "plain", "asserted")


def _clean(rng: random.Random) -> random.Random:
    """A generator under which ``shapes.im_shape`` adds nothing (every chance misses)."""
    rng.random = lambda: 0.99  # type: ignore[method-assign]
    return rng


def test_every_clause_of_a_message_is_an_example_cut_as_the_reader_cuts() -> None:
    rng = random.Random(0)
    for lang in ("zh", "en"):
        for _ in range(200):
            for ex in message(rng, lang, "train"):
                assert clauses(ex.text) == [ex.text.strip()] or len(clauses(ex.text)) == 1
                for a, b in ex.names:
                    assert 0 <= a < b <= len(ex.text)


def test_chatter_beside_a_statement_is_none_and_the_statement_keeps_its_label() -> None:
    parts = [Part("我下个月去字节上班了", (), WORK, "w"), Part("压力好大", (), NONE, "c")]
    got = _cut(_clean(random.Random(1)), parts, "zh")
    assert [(e.text, e.label.kind) for e in got] in ([("我下个月去字节上班了，", "work"), ("压力好大", "none")],
                                                     [("我下个月去字节上班了。", "work"), ("压力好大", "none")],
                                                     [("我下个月去字节上班了压力好大", "work")],
                                                     [("我下个月去字节上班了 压力好大", "work")])


def test_a_joke_cut_off_says_the_statement_plainly_and_the_marker_is_a_joke() -> None:
    text = "我下个月升职了，才怪啊啊啊"
    joke = Part(text, (), Label("work", "speaker", "joke", "asserted"), "j", (0, 7))
    got = _cut(_clean(random.Random(2)), [joke], "zh")
    assert [(e.text, e.label.kind, e.label.mode) for e in got] == [("我下个月升职了，", "work", "plain"),
                                                                  ("才怪啊啊啊", "none", "joke")]


def test_a_later_piece_without_its_subject_has_none_of_its_own() -> None:
    sister = Part("我妹妹在北京读大学，学医的呢", (), Label("study", "relative", "plain", "asserted"), "s")
    friend = Part("我室友在字节上班，做后端开发", (), Label("work", "other", "plain", "asserted"), "f")
    for part in (sister, friend):
        first, later = _cut(_clean(random.Random(3)), [part], "zh")
        assert first.label.subject == part.label.subject
        assert later.label.subject == "speaker"  # the reader takes whom from the clause before


def test_the_message_draw_has_every_shape_in_both_languages() -> None:
    rng = random.Random(4)
    for lang in ("zh", "en"):
        got = [e for _ in range(600) for e in message(rng, lang, "train")]
        kinds = Counter(e.template.split(":")[1] for e in got)
        assert {"comment", "none"} <= set(kinds)
        assert any(":FOLLOW:" in e.template and e.label.states for e in got)
        assert sum(e.label.states for e in got) > len(got) / 3
        assert any(e.text.startswith(OPENERS_ZH) for e in got) or lang == "en"


def test_the_dev_split_reads_other_phrasings() -> None:
    assert all(len(items) >= 3 for items in templates("zh").FOLLOW.values())
    rng = random.Random(6)
    dev = [e for _ in range(400) for e in message(rng, "zh", "dev")]
    follows = {int(e.template.split(":")[3]) for e in dev if ":FOLLOW:" in e.template}
    comments = {int(e.template.split(":")[2]) for e in dev if ":comment:" in e.template}
    assert follows and comments and all(i % 4 == 3 for i in follows | comments)
