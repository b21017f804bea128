"""A query that is a conversation: what of it the meaning search embeds.

An agent often asks with the chat itself (MADial's queries are whole dialogues; a group
agent passes its last messages). A dialogue is embedded as two views, added: all of it, and
its last line that says something (greetings and acknowledgements such as "哈哈好的" or "ok
thanks!" skipped): what was just said matters most, the lines before give it context.
Measured on MADial dev (raw e5 R@5, no pmemo pipeline): the whole 0.520, the last line 0.545,
the two added 0.611. Only the whole's embedding is slow (e5's cost grows with every token:
a 270-character dialogue ~10x a one-line question); its tail alone (64 tokens) cost R@5 in
the pipeline (0.604 -> 0.579), so the whole stays.

>>> said = "Bart: 元旦晚会我要表演魔术！\\nAssistant: 太棒了！\\nBart: 哈哈好的"
>>> lines(said)[0]
('Bart', '元旦晚会我要表演魔术！')
>>> focus(said)
'Bart: 元旦晚会我要表演魔术！'
>>> views("What did Bart perform?")  # not a dialogue: the query itself
['What did Bart perform?']
"""

from __future__ import annotations

import re

from .lang import FILLER, STOPWORDS
from .segment import tokens

# "Name: words", "<Name>: words" or "Name：words" (full-width colon); a name is short, one line
# what was said runs to its last non-space character: "\S.*?\s*$" tried "\s*$" after each character,
# over each run of spaces: a 16,000-character query took 16 s
_LINE = re.compile(r"^\s*<?(?P<who>[^\s:：<>][^:：<>\n]{0,39}?)>?\s*[:：]\s*(?P<said>\S(?:.*\S)?)\s*$")
MIN_LINES = 2  # one labelled line is a question that quotes someone ("Bo: where?"), not a chat


def lines(query: str) -> list[tuple[str, str]]:
    """(speaker, what they said) of each line, when ``query`` is a dialogue (at least two
    labelled lines, and no more unlabelled lines than labelled ones); else []."""
    rows = [row for row in query.splitlines() if row.strip()]
    found = [(m["who"].strip(), m["said"].strip(" \"“”")) for row in rows if (m := _LINE.match(row))]
    if len(found) < MIN_LINES or 2 * len(found) < len(rows):
        return []
    return [(who, said) for who, said in found if said]


def labels(query: str) -> list[tuple[int, int]]:
    """The (start, end) of each speaker label, when ``query`` is a dialogue; else []. The
    people a dialogue is about are the ones its lines name, not the ones who speak them.

    >>> said = "Mei: hi\\nBo: where was Mei's party?"
    >>> [said[a:b] for a, b in labels(said)]
    ['Mei', 'Bo']
    """
    if not lines(query):
        return []
    out, at = [], 0
    for row in query.splitlines(keepends=True):
        if (m := _LINE.match(row)) and m["said"]:
            out.append((at + m.start("who"), at + m.end("who")))
        at += len(row)
    return out


def says_something(text: str) -> bool:
    """Whether a chat line has a content word: not only greetings, acknowledgements and
    function words."""
    return any(t not in STOPWORDS and t not in FILLER for t in tokens(text))


def focus(query: str) -> str:
    """A dialogue's last line that says something (its last line when none does), labelled;
    any other query whole."""
    said = lines(query)
    if not said:
        return query
    who, text = next((line for line in reversed(said) if says_something(line[1])), said[-1])
    return f"{who}: {text}"


def spoken(query: str) -> str:
    """What a dialogue's keyword search reads: the words of its lines that say something (all
    of them when none does), without the speakers' labels, which would find every message that
    names a speaker; any other query whole.

    >>> spoken("Mei: hi\\nBo: where was the party?\\nMei: ok")
    'where was the party?'
    """
    said = lines(query)
    if not said:
        return query
    texts = [text for _, text in said]
    return "\n".join([t for t in texts if says_something(t)] or texts)


def views(query: str) -> list[str]:
    """The texts ``query`` is embedded as (their vectors are added): a dialogue whole and its
    last line that says something; any other query itself.

    >>> views("Mei: hi\\nBo: where was the party?")
    ['Mei: hi\\nBo: where was the party?', 'Bo: where was the party?']
    """
    if not lines(query):
        return [query]
    return [query, focus(query)]
