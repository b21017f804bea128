"""Messages written by hand (``hand_zh``, ``hand_en``) as labelled clauses (issue 44 §1, fourth
round): phrasings of another hand than the templates', for training and for the dev split.

A line is ``labels | text``: the message, with ``{name}`` around a chat member's name, and one
label per clause as ``clauses`` cuts it, separated by ``;``. A label is a kind (``-`` for none),
then optionally ``.s``, ``.n``, ``.r`` or ``.o`` (the speaker, a named member, a relative, anyone
else: an acquaintance, "you", "she"), ``:q``, ``:h``, ``:j``, ``:r`` or ``:c`` (a question, a
wish or condition, a joke, a report, a correction), ``!`` (denied) and ``+`` (a change of job,
home, school or partner). Unsaid, the subject is the speaker, or for a question the named member
if the clause names one and anyone else if not, for a report or none anyone else. One label
for a message of several clauses labels them as a template's pieces (``draw.piece_label``: a
later clause without its own subject goes on with the first), and a line of only stickers or
media ("[图片]") gives no clause, as ``clauses`` reads it.

Every fourth message is the dev split's, the rest the training split's. The training split
gives each message once as written and ``COPIES - 1`` times typed as chat members type
(``draw.typed``: openers, emoji, typos, "im"), the dev split once typed, from the caller's seed.

>>> parse("work.n:r")
Label(kind='work', subject='named', mode='report', polarity='asserted', change='same')
>>> [(e.text, e.label.kind, e.label.subject) for e in examples("zh", "train", 0, copies=1)][:1]
[('大家好，我叫林晓雯，', 'name', 'speaker')]
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from functools import cache

from . import hand_en, hand_zh
from .clauses import clauses
from .draw import Example, piece_label, split_of, typed
from .labels import KINDS, SUPERSEDING, Label

COPIES = 3  # of a training message: once as written, twice typed
_CODE = re.compile(r"(?P<kind>[a-z]+|-)(?:\.(?P<subject>[snro]))?(?::(?P<mode>[qhjrc]))?(?P<denied>!)?(?P<change>\+)?")
_SUBJECT = {"s": "speaker", "n": "named", "r": "relative", "o": "other"}
_MODE = {"q": "question", "h": "hypothetical", "j": "joke", "r": "report", "c": "correction"}
_NAME = re.compile(r"\{([^{}]+)\}")


@dataclass(frozen=True)
class Message:
    """One message written by hand: its text (names unmarked), where the names are, one label a clause."""

    text: str
    names: tuple[tuple[int, int], ...]
    labels: tuple[str, ...]
    lang: str
    index: int

    @property
    def positive(self) -> bool:
        return any(_label(code, False).states for code in self.labels)


def parse(code: str, names: bool = False) -> Label:
    """The label a code stands for (``names``: whether its clause names a member)."""
    return _label(code.strip(), names)


def _label(code: str, names: bool) -> Label:
    m = _CODE.fullmatch(code)
    if not m or (m["kind"] != "-" and m["kind"] not in KINDS):
        raise ValueError(f"not a label code: {code!r}")
    kind = "none" if m["kind"] == "-" else m["kind"]
    mode = _MODE.get(m["mode"] or "", "plain")
    if m["subject"]:
        subject = _SUBJECT[m["subject"]]
    elif kind == "none" or mode == "report":
        subject = "other"
    elif mode == "question":
        subject = "named" if names else "other"
    else:
        subject = "speaker"
    changes = kind in SUPERSEDING or kind == "name"
    change = "change" if changes and (m["change"] or mode == "correction") else "same"
    return Label(kind, subject, mode, "denied" if m["denied"] else "asserted", change)


@cache
def messages(lang: str) -> tuple[Message, ...]:
    """The messages of ``lang`` in file order (statements, negatives, the fifth round's IM shapes,
    the sixth round's frame families: appended, so the earlier messages keep their split and
    typing); a line whose labels do not match its clauses is an error naming it."""
    data = hand_zh if lang == "zh" else hand_en
    out: list[Message] = []
    for line in (data.STATEMENTS + data.NEGATIVES + data.IM + data.SIXTH).strip().splitlines():
        if not line.strip():
            continue
        codes, _, marked = line.partition(" | ")
        text, names, at = "", [], 0
        for m in _NAME.finditer(marked):
            text += marked[at : m.start()]
            names.append((len(text), len(text) + len(m[1])))
            text += m[1]
            at = m.end()
        text += marked[at:]
        labels = tuple(c.strip() for c in codes.split(";"))
        cut = len(clauses(text))
        if len(labels) != cut and not (len(labels) == 1 and (cut > 1 or labels == ("-",))):
            raise ValueError(f"{lang} hand line has {len(labels)} labels for {len(clauses(text))} clauses: {line!r}")
        for code in labels:
            parse(code)
        out.append(Message(text, tuple(names), labels, lang, len(out)))
    return tuple(out)


def examples(lang: str, split: str, seed: int, copies: int = COPIES) -> list[Example]:
    """The clauses of ``split``'s messages: for training each message ``copies`` times (the first as
    written), for dev once typed."""
    rng = random.Random(f"hand:{lang}:{split}:{seed}")
    out: list[Example] = []
    for msg in messages(lang):
        if split_of(msg.index) != split:
            continue
        for copy in range(copies if split == "train" else 1):
            out += _clauses(msg, rng, shaped=split == "dev" or copy > 0)
    return out


def _clauses(msg: Message, rng: random.Random, shaped: bool) -> list[Example]:
    out: list[Example] = []
    at = 0
    pieces = clauses(msg.text)
    codes = msg.labels if len(msg.labels) == len(pieces) else msg.labels * len(pieces)
    for k, (piece, code) in enumerate(zip(pieces, codes, strict=True)):
        start = msg.text.find(piece, at)
        at = start + len(piece)
        spans = [(a - start, b - start) for a, b in msg.names if start <= a and b <= at]
        label = parse(code, bool(spans))
        if len(msg.labels) < len(pieces):  # one label for a message of several clauses: as the templates'
            label = piece_label(label, piece, bool(spans), later=k > 0)
        text, kept = typed(rng, piece, spans, msg.lang) if shaped else (piece, tuple(spans))
        out.append(
            Example(text, label, msg.lang, tuple(s for s in kept if s is not None), f"{msg.lang}:hand:{msg.index}:{k}")
        )
    return out
