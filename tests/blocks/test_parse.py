"""Block files as bytes → blocks: every field checked, every problem said with what to fix, the
front matter kept byte for byte by an edit, and who sees which block."""

from __future__ import annotations

import pytest

from pmemo.blocks.edit import appended, replaced, rewritten, within_limit
from pmemo.blocks.model import Block, Where, in_context, target, visible
from pmemo.blocks.parse import parse, version_of
from pmemo.blocks.render import memgpt
from pmemo.errors import InvalidInput

GOOD = """---
# the agent's character: edit freely
label: persona
description: Who the agent is
limit: 300
read_only: false
order: -1
tenant: t1
agent: bot
group: study
---

I am Momo, a study buddy.
I answer in Chinese.
"""


def test_a_good_file_gives_every_field() -> None:
    b = parse("persona.md", GOOD.encode())
    assert b.problem is None
    assert (b.label, b.description, b.limit, b.read_only, b.order) == ("persona", "Who the agent is", 300, False, -1)
    assert (b.tenant, b.agent, b.group, b.user) == ("t1", "bot", "study", None)
    assert b.value == "I am Momo, a study buddy.\nI answer in Chinese."
    assert b.path == "persona.md" and b.chars == len(b.value) and b.editable


def test_defaults_are_read_only_default_tenant_5000_chars() -> None:
    b = parse("rules.md", b"---\nlabel: rules\n---\nBe kind.\n")
    assert (b.read_only, b.tenant, b.limit, b.order, b.agent, b.group, b.user) == (True, "default", 5000, 0,
                                                                                    None, None, None)
    assert not b.editable


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        (b"\n---\nlabel: n\ndescription: a: b\n---\nx", "invalid YAML in the front matter at line 4, column 15"),
        (b"---\nlabel: [notes\n---\nx", "invalid YAML in the front matter"),
        (b"---\ndescription: no label\n---\nx", "no label: add `label: <name>`"),
        (b"---\nlabel: has space\n---\nx", "label: 'has space' is not a label"),
        (b"---\nlabel: n\nlimit: 5\n---\nsix chars", "the body is 9 characters, over its limit of 5"),
        (b"---\nlabel: n\nlimit: many\n---\nx", "limit: must be a whole number from 1"),
        (b"---\nlabel: n\nlimit: true\n---\nx", "limit: must be a whole number"),
        (b"---\nlabel: n\nread_only: maybe\n---\nx", "read_only: must be true or false"),
        (b"---\nlabel: n\nreadonly: false\n---\nx", "unknown field(s) readonly"),
        (b"---\nlabel: n\ngroup: g\nuser: u\n---\nx", "group and user are both set"),
        (b"---\nlabel: n\ntenant: 'a b'\n---\nx", "tenant: 'a b' is not an id"),
        (b"just text, no front matter\n", "no front matter: start the file with `---`"),
        (b"---\nlabel: n\nno closing boundary\n", "the front matter is not closed"),
        (b"---\n- a list\n---\nx", "the front matter is not a mapping"),
        (b"---\nlabel: n\n---\n\xff\xfe bad bytes", "not UTF-8 text"),
    ],
)
def test_each_problem_is_said_with_what_to_fix(raw: bytes, says: str) -> None:
    b = parse("n.md", raw)
    assert b.problem is not None and says in b.problem, b.problem
    assert not b.editable


def test_a_broken_file_keeps_the_label_and_scope_it_still_gives_or_had() -> None:
    # a valid label survives other errors; without one, the last good version's scope is kept
    assert parse("x.md", b"---\nlabel: kept\ntenant: t9\nlimit: no\n---\n").scope == ("t9", None, None, None)
    last = parse("x.md", b"---\nlabel: notes\ntenant: t1\ngroup: g\n---\nok")
    broken = parse("x.md", b"---\nlabel: [\n---\n", last)
    assert (broken.label, broken.scope) == ("notes", ("t1", None, "g", None)) and broken.problem
    assert parse("my-file.md", b"garbage").label == "my-file"


def test_the_version_follows_the_bytes() -> None:
    assert version_of(b"a") == version_of(b"a") != version_of(b"b")
    assert 1 <= version_of(b"x") < 2**48  # exact in a JavaScript number, as REST hands it out


def test_an_edit_rewrites_the_body_only() -> None:
    new = rewritten(GOOD, "I am Momo.")
    assert new.startswith(GOOD[: GOOD.index("I am Momo, a study")])  # front matter, comment, blank line
    assert new.endswith("\n\nI am Momo.\n")
    assert parse("p.md", new.encode()).value == "I am Momo."
    assert rewritten("---\nlabel: e\n---\n", "first") == "---\nlabel: e\n---\nfirst\n"
    assert rewritten(GOOD, parse("p.md", GOOD.encode()).value) == GOOD  # an edit to the same text changes no byte


def test_append_and_replace() -> None:
    assert appended("", "first") == "first"
    assert appended("a", "  b  ") == "a\nb"
    with pytest.raises(InvalidInput, match="empty"):
        appended("a", "  ")
    assert replaced("tea and more tea", "and more tea", "") == "tea"
    with pytest.raises(InvalidInput, match="occurs 2 times"):
        replaced("tea and tea", "tea", "coffee")
    with pytest.raises(InvalidInput, match="does not occur"):
        replaced("tea", "coffee", "x")
    with pytest.raises(InvalidInput, match="would be 11 characters, over its limit of 10"):
        within_limit(Block("n", limit=10, path="n.md"), "x" * 11)


def test_who_sees_which_block() -> None:
    everyone = Block("persona", tenant="*", value="generic", path="a.md")
    mine = Block("persona", tenant="t1", group="study", value="study persona", path="b.md")
    notes = Block("notes", tenant="t1", user="ann", path="c.md")
    broken = Block("rules", tenant="t1", group="study", path="d.md", problem="bad")
    other = Block("secret", tenant="t2", path="e.md")
    blocks = [everyone, mine, notes, broken, other]
    study = Where("t1", "default", "study", None)
    # one block per label, the most specific; a broken one never in context, but listed
    assert in_context(blocks, study) == [mine]
    assert visible(blocks, study) == [mine, broken]
    assert in_context(blocks, Where("t1", "default", "work", None)) == [everyone]
    assert in_context(blocks, Where("t1", "default", None, "ann")) == [notes, everyone]
    assert in_context(blocks, Where("t2", "default", "study", None)) == [everyone, other]
    assert visible(blocks, Where("t1", "default")) == [notes, everyone, mine, broken]  # a listing: all of t1
    assert target(blocks, "persona", study) == mine
    with pytest.raises(InvalidInput, match="2 blocks are labelled 'persona'.*give group_id or user_id"):
        target(blocks, "persona", Where("t1", "default"))


def test_memgpt_layout_is_letta_s() -> None:
    text = memgpt([Block("persona", "Who I am", 100, value="I am Momo."),
                   Block("notes", "", 50, read_only=False, value="", tenant="t1")])
    assert text == (
        "<memory_blocks>\nThe following memory blocks are currently engaged in your core memory unit:\n\n"
        "<persona>\n<description>\nWho I am\n</description>\n<metadata>\n- read_only=true\n- chars_current=10\n"
        "- chars_limit=100\n</metadata>\n<value>\nI am Momo.\n</value>\n</persona>\n\n"
        "<notes>\n<description>\n\n</description>\n<metadata>\n- chars_current=0\n- chars_limit=50\n</metadata>\n"
        "<value>\n\n</value>\n</notes>\n\n</memory_blocks>"
    )
