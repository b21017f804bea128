"""A turn read clause by clause with the statement model, into candidate facts (pure over a
model, a resolver and an embedding function).

Each clause (``clauses``) gets the model's reading (``model``) and whom it is about: the
speaker, the person it names (the resolver's match), or a relative of the speaker, whose
facts the speaker's card holds ("我妹妹在北京读大学"). A clause without a subject of its own
goes on with the one before it in the message ("小林搬家了！搬去苏州了").

Only clauses the model reads as statements make facts (``Label.states``): a question, a wish,
a joke, a quote or a denial makes none ("那只狗不是我的" gives its speaker no dog). The
patterns of ``rules`` only normalise the value: a rule's candidate is kept when a stating
clause of a compatible kind (``kinds.kinds_of``) about the same person carries it; a stating
clause no rule normalises becomes a fact of its kind whose value is the clause. Every fact
keeps its clause, the subject made explicit ("周霓：花粉过敏，春天出门要戴口罩").
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..models import Candidate, Turn
from ..people.resolve import Match, Resolver
from ..rules.attribution import Attributed
from ..rules.extract_rules import extract
from .clauses import clauses
from .kin import RELATION as _RELATION
from .kinds import kinds_of, slot_of
from .model import MIN_OWN, Reading, StatementModel

Embed = Callable[[list[str]], np.ndarray]

_FIRST = re.compile(r"我(?!们)|(?-i:\bI\b)|\b(?i:my|me|i'm|i've|i'd)\b")
_TAGS = re.compile(r"\[[^\[\]]{1,8}\]|[\U0001F000-\U0001FAFF\u2600-\u27BF\uFE0F]+")
_PARTNER = re.compile(r"结婚|离婚|脱单|分手|对象|男朋友|女朋友|男票|订婚|领证|单身|\b(?i:married|engaged|divorced|"
                      r"boyfriend|girlfriend|partner|single|seeing someone|broke up|fiancée?)\b")
_CATEGORY = {"name": "profile", "work": "fact", "study": "fact", "home": "fact", "family": "fact", "pet": "fact",
             "health": "fact", "like": "preference", "habit": "habit", "event": "fact", "opinion": "preference"}
# the key family of a fact the model found and no rule normalised (its value is the clause): none
# is a family the rules write, so ``rules.sentences`` says it as the clause, after the name
FAMILY = {"name": "called", "work": "work", "study": "study", "home": "home", "family": "family", "pet": "pets",
          "health": "health", "like": "likes", "habit": "habits", "event": "plans", "opinion": "view"}
_CORE_CHARS = 60
_KIN_AT = 6  # a relative named this near the start of a clause ("哈哈我妈…") is its subject
# a clause reads as a statement by the model's labels (``Label.states``) and when the chance that
# it states something (``Reading.stating``) is at least MIN_STATING; the cheap lexical weights send
# a clause on to e5 when they give it AGAIN or more (on the dev split, 0.1 lost 0.005 of recall and
# spared e5 a sixth of the clauses; in a chat, where most lines are small talk, far more)
MIN_STATING = 0.2
AGAIN = 0.1
# a fact no rule normalises (its value is the clause) asks more of the model than one whose value a
# rule found, the chatter of a day ("中午吃了兰州拉面") reads much like a statement: ``MIN_OWN``, or
# the threshold of its kind the model file carries (``Reading.threshold``)
# a clause read as only saying that the one before it was a joke, this surely, takes that one back
JOKE_SURE = 0.6
__all__ = ["AGAIN", "MIN_OWN", "MIN_STATING", "Embed", "Said", "candidates", "core", "corrections", "explicit",
           "read_turn"]
_NOT_SAID = ("question", "hypothetical", "joke", "report")


@dataclass(frozen=True)
class Said:
    """One clause of a turn as read: its reading, whom it is about (a person id, or None for the
    scope's owner) and, for a relative's, which relative."""

    clause: str
    reading: Reading
    who: str | None
    role: str  # the reading's subject: speaker | named | relative | other
    relation: str = ""
    follow: str = ""  # the clause after it that goes on with its subject, if any
    joked: bool = False  # the clause after it says it was a joke ("才怪", "jk")

    @property
    def states(self) -> bool:
        return (self.reading.label.states and self.role != "other" and self.reading.stating >= MIN_STATING
                and not self.joked)


def read_turn(turn: Turn, people: Resolver | None, model: StatementModel, embed: Embed | None = None) -> list[Said]:
    """The turn's clauses, each with its reading and whom it is about. With ``embed`` (e5), the
    clauses the lexical weights find about someone are read again with their vectors."""
    parts = clauses(turn.content)
    if not parts:
        return []
    found: list[list[Match]] = [people.resolve(c, turn.scope) if people is not None else [] for c in parts]
    readings = _readings(parts, [[(m.start, m.end) for m in f] for f in found], model, embed)
    out: list[Said] = []
    before: _Whom | None = None  # whom the message spoke of last
    for i, (clause, matches, reading) in enumerate(zip(parts, found, readings, strict=True)):
        whom = _whom(turn, clause, matches, reading, before)
        follow = ""
        if i + 1 < len(parts) and not _FIRST.search(parts[i + 1]) and not found[i + 1] \
                and readings[i + 1].label.mode == "plain" and readings[i + 1].label.subject == "speaker":
            follow = parts[i + 1]
        joked = i + 1 < len(parts) and _joke(readings[i + 1])
        out.append(Said(clause, reading, whom.who, whom.role, whom.relation, follow, joked))
        if (whom.role in ("speaker", "named") and whom.who is not None) or (
                reading.label.kind != "none" and reading.label.mode == "plain"):
            before = whom
    return out


@dataclass(frozen=True)
class _Whom:
    role: str
    who: str | None
    relation: str = ""


def _whom(turn: Turn, clause: str, matches: Sequence[Match], reading: Reading, before: _Whom | None) -> _Whom:
    """Whom a clause is about: the person it names, a relative it names, the speaker, or, for a
    clause with no subject of its own ("学医的"), whom the clause before spoke of: the speaker, a
    member, a relative ("我妹妹在北京读大学，学医的") or someone of nobody's here ("我室友在字节
    上班，做后端")."""
    role = reading.label.subject
    if role == "named":
        ids = [m.person_ids[0] for m in matches if not m.ambiguous and m.person_ids[0] != turn.subject]
        last = before.who if before is not None and before.role in ("speaker", "named") else None
        who = ids[0] if ids else last if last != turn.subject else None
        return _Whom(role if who is not None else "other", who)
    if role == "speaker" and (kin := _RELATION.search(clause)) is not None and kin.start() <= _KIN_AT:
        # "哈哈我老公在银行上班": the speaker's husband's job, not the speaker's
        return _Whom("relative", turn.subject, kin.group(1).lower())
    if role == "speaker":
        if before is None or _FIRST.search(clause):
            return _Whom("speaker", turn.subject)
        if before.role in ("relative", "other"):
            return before
        return _Whom("speaker", before.who)
    if role == "relative":
        m = _RELATION.search(clause)
        return _Whom("relative", turn.subject, m.group(1).lower()) if m else _Whom("other", None)
    return _Whom(role, None)


def _readings(parts: list[str], spans: list[list[tuple[int, int]]], model: StatementModel,
              embed: Embed | None) -> list[Reading]:
    readings = model.read(parts, spans)
    if embed is not None:  # the e5 weights, for what the cheap ones do not call small talk
        again = [i for i, r in enumerate(readings)
                 if r.label.kind != "none" or r.label.mode == "correction" or r.stating >= AGAIN]
        if again:
            vecs = embed([parts[i] for i in again])
            for i, r in zip(again, model.read([parts[i] for i in again], [spans[i] for i in again], vecs),
                            strict=True):
                readings[i] = r
    return readings


def _joke(r: Reading) -> bool:
    """A clause that only says the one before was a joke ("我升职了，才怪": "才怪")."""
    return r.label.kind == "none" and r.label.mode == "joke" and r.sure["mode"] >= JOKE_SURE


def explicit(said: Said, turn: Turn, name_of: Callable[[str | None], str]) -> str:
    """The clause in the person's words with its subject made explicit: "周霓：花粉过敏，春天出门要
    戴口罩" (a statement about someone named names them already)."""
    words = _TAGS.sub("", said.clause + said.follow).strip()
    words = words.rstrip("，,;；")
    if said.role == "named":
        return words
    name = (turn.actor or "") if said.who == turn.subject else name_of(said.who)
    if not name:
        return words
    return f"{name}：{words}" if re.search(r"[\u4e00-\u9fff]", words) else f"{name}: {words}"


def candidates(turn: Turn, read: Sequence[Said], parts: Sequence[Attributed], keep_rules: bool = False,
               name_of: Callable[[str | None], str] = lambda _: "") -> list[Candidate]:
    """The turn's candidate facts, each with its clause (``said``): the rules' values, unless the
    model reads the clause that says them as asked, wished, joked, quoted or denied; and the
    stating clauses no rule normalises. ``parts``: the turn's statements for the rules
    (``people.statements``); ``keep_rules``: keep the rules' candidates the model vetoes too (the
    "both" setting)."""
    stating = [s for s in read if s.states]
    used: set[int] = set()
    out: list[Candidate] = []
    for part in parts:
        who = part.subject or turn.subject
        mentioned = tuple(p for p in part.mentioned if p != who)
        for cand in extract(part.text, turn.timestamp):
            fits = [i for i, s in enumerate(stating) if s.who == who and s.role in ("speaker", "named")
                    and s.reading.label.kind in kinds_of(cand.key)]
            # the clause that names the value carries it ("我不在杭州了，搬到深圳了": the second)
            named = [i for i in fits if _names_value(stating[i].clause, cand)]
            holder: Said | None = stating[(named or fits)[0]] if fits else _holder(read, cand, who)
            if not fits and holder is not None and _vetoed(holder) and not keep_rules:
                continue  # "如果我在腾讯上班就好了": the rules' value, but nobody said it holds
            used.update(fits)  # the rules normalised what these clauses say: no second fact of them
            if holder is not None and holder in stating:
                used.add(stating.index(holder))
            said = explicit(holder, turn, name_of) if holder is not None else ""
            out.append(dataclasses.replace(cand, subject=who, mentioned=mentioned, said=said,
                                           newer_wins=slot_of(cand.key) is not None))
    for i, s in enumerate(stating):
        # a correction replaces a value (the pipeline's _correct)
        # a name no rule reads is the alias learner's ("朋友都叫我浩子": an alias, not a fact)
        if i not in used and s.reading.label.mode != "correction" and s.reading.stating >= s.reading.threshold \
                and s.reading.label.kind != "name":
            out.append(_of_clause(s, turn, name_of))
    return out


def _holder(read: Sequence[Said], cand: Candidate, who: str | None) -> Said | None:
    """The clause a rule's value came from: the one that names it, else the first about ``who``."""
    return next((s for s in read if _names_value(s.clause, cand)), None) or next(
        (s for s in read if s.who == who), None)


def _vetoed(s: Said) -> bool:
    """The model reads the clause as not saying that something holds: asked, wished, joked, quoted, denied."""
    label, sure = s.reading.label, s.reading.sure
    return s.joked or (label.mode in _NOT_SAID and sure["mode"] >= 0.5) or (
        label.polarity == "denied" and sure["polarity"] >= 0.5)


def _names_value(clause: str, cand: Candidate) -> bool:
    low = clause.lower()
    obj = cand.key.partition(":")[2]
    return cand.value.lower() in low or bool(obj and obj.lower() in low)


def corrections(read: Sequence[Said]) -> list[Said]:
    """The clauses that correct what their speaker said before ("不对，是下周三")."""
    return [s for s in read if s.reading.label.mode == "correction" and s.role == "speaker"
            and s.reading.sure["mode"] >= 0.5]


def core(clause: str) -> str:
    """What a clause says, for a value: without stickers, emoji and closing marks, bounded."""
    words = _TAGS.sub("", clause).strip().rstrip("，,。.!！?？~～;；")
    return words[:_CORE_CHARS]


def _of_clause(s: Said, turn: Turn, name_of: Callable[[str | None], str]) -> Candidate:
    """A stating clause no rule normalises: a fact of its kind whose value is the clause."""
    kind = s.reading.label.kind
    value = core(s.clause)
    key = f"{FAMILY[kind]}:{value}"
    newer = False
    if s.role == "relative":
        key = f"family:{s.relation}" + ("" if kind == "family" else f":{kind}")
        kind, newer = "family", True
    elif kind == "family" and _PARTNER.search(s.clause):
        key, newer = "relationship", True
    elif kind in ("work", "home", "study") and s.reading.label.change == "change":
        key, newer = kind, True  # "我下个月换工作了": the one value of its slot now
    confidence = round(0.6 + 0.3 * s.reading.stating, 3)
    return Candidate(_CATEGORY[kind], key, value, confidence, "corrected" if newer else "explicit", 0.6,
                     subject=s.who, said=explicit(s, turn, name_of), newer_wins=newer)
