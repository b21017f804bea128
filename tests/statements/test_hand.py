"""The messages written by hand (fourth round): every line reads, its labels fit its clauses, and
there are enough of them, negatives at least as many as statements."""

from __future__ import annotations

import pytest

from pmemo.statements import hand
from pmemo.statements.clauses import clauses
from pmemo.statements.generate import generate


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_enough_lines_and_as_many_negatives(lang: str) -> None:
    msgs = hand.messages(lang)
    assert len(msgs) >= 600
    assert sum(not m.positive for m in msgs) >= sum(m.positive for m in msgs)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_names_are_marked_where_they_are(lang: str) -> None:
    named = [m for m in hand.messages(lang) if m.names]
    assert named
    for m in named:
        for a, b in m.names:
            assert m.text[a:b] and "{" not in m.text


def test_a_code_reads_as_its_label() -> None:
    assert hand.parse("home.r").subject == "relative"
    assert hand.parse("work!").polarity == "denied"
    assert hand.parse("pet:q").states is False
    assert hand.parse("work:q", names=True).subject == "named"
    assert hand.parse("event.n:r").states is True
    assert hand.parse("-").kind == "none"
    assert hand.parse("work+").change == "change" and hand.parse("pet+").change == "same"
    with pytest.raises(ValueError):
        hand.parse("jobs")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_splits_are_disjoint_and_seeded(lang: str) -> None:
    train = {e.template for e in hand.examples(lang, "train", 0)}
    dev = {e.template for e in hand.examples(lang, "dev", 1)}
    assert train and dev and not train & dev
    assert hand.examples(lang, "dev", 1) == hand.examples(lang, "dev", 1)
    # the training split gives each message once as written
    written = hand.examples(lang, "train", 0, copies=1)
    pieces = {c for m in hand.messages(lang) for c in clauses(m.text)}
    assert {e.text for e in written} <= pieces


def test_generate_adds_them_and_can_leave_them_out() -> None:
    with_hand = generate("train", 20, seed=0)
    without = generate("train", 20, seed=0, hand=False)
    assert with_hand[: len(without)] == without
    assert any(":hand:" in e.template for e in with_hand[len(without) :])


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_im_shapes_are_appended_and_moves_are_home_changes(lang: str) -> None:
    """The fifth round's lines come after the others (their split and typing are unchanged); a city
    left is a home change, a cheer, a request to the bot or a passing state no one's fact."""
    data = hand.hand_zh if lang == "zh" else hand.hand_en
    im = [line for line in data.IM.strip().splitlines() if line.strip()]
    before = len([x for x in (data.STATEMENTS + data.NEGATIVES).splitlines() if x.strip()])
    msgs = hand.messages(lang)
    sixth = [line for line in data.SIXTH.strip().splitlines() if line.strip()]
    assert len(msgs) - len(im) - len(sixth) == before
    tail = msgs[before : before + len(im)]
    left = [hand.parse(m.labels[0]) for m in tail if hand.parse(m.labels[0]).change == "change"]
    assert sum(label.kind == "home" for label in left) >= 20 > sum(label.kind == "work" for label in left)
    assert sum(not m.positive for m in tail) >= 90


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_sixth_rounds_lines_come_last_with_every_kind_the_issue_names(lang: str) -> None:
    """The sixth round's frame families are appended after the IM shapes (the earlier lines keep
    their split, typing and cached vectors): job changes, part-time work, tools and habits, events
    signed up for, partners, new hobbies, health, corrections inside a message, and negatives."""
    data = hand.hand_zh if lang == "zh" else hand.hand_en
    sixth = [line for line in data.SIXTH.strip().splitlines() if line.strip()]
    tail = hand.messages(lang)[-len(sixth) :]
    labels = [hand.parse(code) for m in tail for code in m.labels]
    kinds = {label.kind for label in labels if label.states}
    assert {"work", "habit", "event", "family", "like", "health", "opinion"} <= kinds
    assert sum(label.kind == "work" and label.change == "change" for label in labels) >= 20
    assert sum(label.mode == "correction" for label in labels) >= 8
    assert sum(not m.positive for m in tail) >= 50
