"""The held-out phrasing sets b and c, each written by its own hand in the label grammar
(``phrasing_spec``): every label names a member who spoke before it, every negative has a reason."""

from __future__ import annotations

import pytest

from pmemo.eval.phrasing_set import build
from pmemo.eval.phrasing_spec import KINDS, NEGATIVE


@pytest.mark.parametrize("which", ["b", "c"])
def test_every_label_names_a_member_who_spoke_before_and_negatives_have_a_reason(which: str) -> None:
    for chat in build(which):
        members = {pid for pid, _ in chat.members}
        spoke: set[str] = set()
        for line in chat.lines:
            assert line.speaker in members
            spoke.add(line.speaker)
            assert (line.why is None) == bool(line.labels), line.text
            assert line.why is None or line.why in NEGATIVE
            for label in line.labels:
                assert label.kind in KINDS and all(label.words)
                if label.about == "named":
                    assert label.person != line.speaker and label.person in spoke, (chat.id, line.text)
                else:
                    assert label.person == line.speaker, (chat.id, line.text)
