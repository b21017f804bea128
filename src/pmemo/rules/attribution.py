"""Who a statement is about (pure), zh/en: the speaker, or a person the message names.

In a group chat "霓霓对花生过敏" is a fact about 霓霓, not about whoever typed it. A message
is cut into clauses (as ``extract_rules`` cuts them) and each gets one subject:

* a first-person clause (我, I, my) is the speaker's (subject None);
* a clause whose grammatical subject is a person the caller's resolver found is that
  person's, and is rewritten into the first person, so that ``extract_rules.extract`` reads
  it as if they had said it: 霓霓对花生过敏 → 我对花生过敏, "Neko likes sushi" → "I like sushi";
* 她/他/she/he opening a clause is the one person named earlier in the message; with none
  or several named, nobody can tell whom it means and the clause is left out;
* a clause about the one addressed (你, you) is left out, and so is one that names
  people without any of them being its subject ("大家都知道霓霓…");
* a clause about a relation nobody named ("我朋友在阿里工作", "my brother lives in Boston")
  is left out: it is not the speaker's;
* a clause without a subject ("周五答辩") continues the previous clause's subject in the
  message ("小林搬家了！搬去苏州了"), or is the speaker's;
* a question is kept whole and unchanged under the speaker: it states nothing, and
  ``extract`` skips it; a statement before it in the sentence still states ("霓霓下周三考试，
  你知道吗？").

An @-mention addresses someone: it is listed in ``mentioned`` but is never a subject nor
what a later 她 refers to. Consecutive clauses with the same subject come back as one
``Attributed``, their separators kept, so "换工作了，现在在字节" stays one statement.

>>> text = "霓霓对花生过敏，我不吃香菜"
>>> by_subject(text, [Mention(0, 2, "p1")])
[Attributed(subject='p1', text='我对花生过敏', mentioned=()), Attributed(subject=None, text='我不吃香菜', mentioned=())]
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..text.lazy_re import lazy
from ..text.slices import LIMIT, handing_over, spans
from .clauses import OPENERS, clause_spans, question_start, sentence_spans
from .extract_life import PARTNER_PREGNANT
from .speaker import GREETING

_HAN = lazy(r"[\u4e00-\u9fff]")
_LEAD = lazy(OPENERS + r"(?:[\s,，:：]+|(?=[\u4e00-\u9fff@＠])|$)")
_RELATION = lazy(
    r"(?:我的|我|(?i:my) )?(?:好朋友|朋友|同学|同事|室友|闺蜜|老婆|老公|女朋友|男朋友|对象|妹妹|姐姐|哥哥|弟弟|"
    r"妈妈|爸爸|儿子|女儿|老板|领导|(?i:best friend|friend|roommate|colleague|coworker|sister|brother|wife|"
    r"husband|girlfriend|boyfriend|mom|dad|boss|son|daughter))\s*"
)
# what may follow a name and still be its subject: 霓霓姐, 霓霓她 (not 霓霓妈妈: someone else)
_HONORIFIC = lazy(r"(?:姐姐|哥哥|老师|同学|学姐|学长|姐|哥|酱|君|桑)?(?:(?:她|他)(?!们))?")
_CONJ = lazy(r"\s*(?:和|跟|与|、|还有|&|(?i:and)|,)\s*")
_ME = lazy(r"我(?!们)|(?-i:I)\b|(?i:me)\b")
_BOTH = lazy(r"\s*(?:都|(?i:both|all)\b\s*)")
_FIRST = lazy(r"我|(?-i:I)\b|(?i:my|me|we|our)\b")
_FIRST_ANY = lazy(r"我|\b(?-i:I)\b|\b(?i:my|me)\b")
_YOU = lazy(r"你|您|大家|(?i:you|your|you're|everyone)\b")
_CALL_ME = lazy(r"(?:叫|喊|称呼)我|(?i:call me)\b")  # "叫我霓霓就行": the speaker names themselves
_PRONOUN = lazy(r"(?:她|他)(?!们)的?|(?<![A-Za-z])TA(?![A-Za-z])的?|(?i:(?:she|he)(?:['’]s)?|her|his)\b")
_PRONOUN_ZH = lazy(r"(?<![其吉])(?:她|他)(?!们)|(?<![A-Za-z])TA(?![A-Za-z])")
_REPORT = lazy(
    r"\s*(?:(?:跟|和|对)我)?(?:说|讲|提到|告诉我)(?:过)?(?:了)?[，,:：\s]*"
    r"|\s+(?i:told me|tells me|said|says|mentioned|mentions)(?: (?i:that))?\s+"
)
# an English pronoun anywhere after the subject, and what it becomes in the first person
_PRONOUNS_EN = lazy(r"\b(?i:(?:she|he)(?:['’]s)?|her|his|him|herself|himself)\b")
# after "her", a word that makes it an object ("told her about"), not a possessive ("her cat")
_NOT_OWNED = lazy(r" (?:to|about|with|for|at|in|on|and|that|yesterday|today|too|again)\b")
_ADVERBS = frozenset(
    "really also still now actually always never usually absolutely truly just recently currently "
    "often sometimes definitely totally both all already even only mostly".split()
)
_VERBS = {
    "is": "am", "are": "am", "was": "was", "were": "was", "has": "have", "does": "do", "doesn't": "don't",
    "isn't": "am not", "aren't": "am not", "hasn't": "haven't", "weren't": "wasn't", "goes": "go",
    "doesn’t": "don’t", "hasn’t": "haven’t", "isn’t": "am not",
}  # fmt: skip
_IS_NEXT = frozenset(
    "a an the not very so really allergic going from in at on now also always never still vegetarian vegan "
    "working living moving studying sick busy married single".split()
)
_WORD = lazy(r"[A-Za-z’'-]+")
Edit = tuple[int, int, str]


@dataclass(frozen=True)
class Mention:
    """A span of the text that names a person, as the caller's resolver found it."""

    start: int
    end: int
    person_id: str


@dataclass(frozen=True)
class Attributed:
    """A piece of a message, the person it is about (None: the speaker), and the others it names."""

    subject: str | None
    text: str
    mentioned: tuple[str, ...]


@dataclass(frozen=True)
class _Piece:
    subject: str | None
    text: str
    mentioned: tuple[str, ...]
    start: int
    end: int


_SKIP = "\x00skip"  # a clause whose subject nobody can tell (no person id looks like this)


def by_subject(text: str, mentions: Sequence[Mention]) -> list[Attributed]:
    """The message ``text`` cut into statements, each with its subject, rewritten in the first person.

    >>> by_subject("Neko's cat is called 年糕.", [Mention(0, 4, "neko")])
    [Attributed(subject='neko', text='My cat is called 年糕.', mentioned=())]

    A text past ``text.slices.LIMIT`` is read piece by piece (``text.slices``), each on its own.
    """
    if len(text) > LIMIT:
        return [said for start, end in handing_over(spans(text))
                for said in by_subject(text[start:end], _within(mentions, start, end))]
    ms = _clean(mentions, len(text))
    starts = [m.start for m in ms]
    named = [m for m in ms if not _addressed(text, m)]  # who a later 她 may be
    before: dict[str, None] = {}  # the people named before the clause at hand
    seen = 0
    pieces: list[_Piece | None] = []
    previous: str | None = None  # goes on across sentences: "小林搬家了！搬去苏州了"
    for s_start, s_end in sentence_spans(text):
        asked = question_start(text, s_start, s_end)
        for c_start, c_end in clause_spans(text, s_start, s_end if asked is None else asked):
            local = [
                Mention(m.start - c_start, m.end - c_start, m.person_id) for m in _between(ms, starts, c_start, c_end)
            ]
            while seen < len(named) and named[seen].end <= c_start:
                before[named[seen].person_id] = None
                seen += 1
            subject, rewritten, others = _attribute(text[c_start:c_end], local, tuple(before), previous)
            previous = subject
            pieces.append(None if subject == _SKIP else _Piece(subject, rewritten, others, c_start, c_end))
        if asked is not None:  # the question, kept whole under the speaker: it states nothing
            question = text[asked:s_end]
            lead = len(question) - len(question.lstrip())
            inside = _ids(_between(ms, starts, asked, s_end))
            pieces.append(_Piece(None, question.strip(), inside, asked + lead, s_end))
            previous = None  # after "你呢？" the speaker talks again
    return _merged(text, pieces)


def _within(mentions: Sequence[Mention], start: int, end: int) -> list[Mention]:
    """The mentions inside ``text[start:end]``, as spans of that piece."""
    return [Mention(m.start - start, m.end - start, m.person_id) for m in mentions if start <= m.start and m.end <= end]


def _clean(mentions: Sequence[Mention], size: int) -> list[Mention]:
    """Mentions in order, inside the text, without overlaps (the first one wins)."""
    out: list[Mention] = []
    for m in sorted(mentions, key=lambda m: (m.start, -m.end)):
        if 0 <= m.start < m.end <= size and (not out or m.start >= out[-1].end):
            out.append(m)
    return out


def _between(ms: list[Mention], starts: list[int], start: int, end: int) -> list[Mention]:
    """The mentions (sorted, with their ``starts``) that lie inside ``text[start:end]``."""
    return [m for m in ms[bisect_left(starts, start) : bisect_left(starts, end)] if m.end <= end]


def _ids(mentions: Iterable[Mention]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(m.person_id for m in mentions))


def _addressed(text: str, m: Mention) -> bool:
    """@霓霓: the message speaks to them, it is not about them."""
    return text[m.start] in "@＠" or (m.start > 0 and text[m.start - 1] in "@＠")


Said = tuple[str | None, str, tuple[str, ...]]  # (subject, clause in the first person, others named)


def _attribute(clause: str, mentions: list[Mention], before: tuple[str, ...], previous: str | None) -> Said:
    pos, addressed = _lead(clause, mentions)
    named = [m for m in mentions if m not in addressed]
    ids = _ids(mentions)
    head = next((m for m in named if m.start == pos), None)
    if head is None and (relation := _RELATION.match(clause, pos)) and relation.end() > pos:
        head = next((m for m in named if m.start == relation.end()), None)  # 我的朋友霓霓…
    if head is not None:
        return _about_named(clause, pos, head, named, ids)
    if (relation := _RELATION.match(clause, pos)) and relation.end() > pos:
        if PARTNER_PREGNANT.match(clause, pos):  # "my wife is pregnant": the speaker's news too
            return None, clause, ids
        return _SKIP, clause, ids  # 我朋友在阿里工作: someone the resolver could not name
    if me := _ME.match(clause, pos):
        end, others = _group(clause, me.end(), named)
        return None, _apply(clause, _subject_edits(clause, pos, end, clause[pos:end]) if others else []), ids
    if _FIRST.match(clause, pos):
        return None, clause, ids
    if pronoun := _PRONOUN.match(clause, pos):
        if len(before) != 1:  # nobody, or several people, it could be
            return _SKIP, clause, ids
        return _as_person(
            clause, before[0], _subject_edits(clause, pos, pronoun.end(), pronoun.group(0)), pronoun.end(), ids
        )
    if _CALL_ME.match(clause, pos) or (pos == len(clause) and GREETING.search(clause)):  # or it only greets
        return None, clause, ids
    if _YOU.match(clause, pos) or named:
        return _SKIP, clause, ids
    if previous is None or previous == _SKIP:  # no subject: the previous clause's goes on
        return previous, clause, ids
    return _as_person(clause, previous, [], pos, ids)


def _lead(clause: str, mentions: list[Mention]) -> tuple[int, list[Mention]]:
    """Where the clause's subject may start, past fillers, times and @-addresses."""
    pos, addressed = 0, []
    while True:
        at = next((m for m in mentions if m.start in (pos, pos + 1) and _addressed(clause, m)), None)
        if at is not None:
            addressed.append(at)
            pos = at.end
        elif any(m.start == pos for m in mentions):
            return pos, addressed
        elif ((lead := _LEAD.match(clause, pos)) or (lead := GREETING.match(clause, pos))) and lead.end() > pos:
            pos = lead.end()
        elif pos < len(clause) and clause[pos] in " \t,，:：":
            pos += 1
        else:
            return pos, addressed


def _group(clause: str, end: int, named: list[Mention]) -> tuple[int, bool]:
    """Others joined to a subject ("霓霓和周周都", "Neko and I both"): where the group ends, and
    whether there were any."""
    joined = False
    while (conj := _CONJ.match(clause, end)) and conj.end() > end:
        nxt = next((m for m in named if m.start == conj.end()), None)
        if nxt is not None:
            end = _after_name(clause, nxt.end)
        elif me := _ME.match(clause, conj.end()):
            end = me.end()
        else:
            break
        joined = True
    if joined and (both := _BOTH.match(clause, end)):
        end = both.end()
    return end, joined


def _after_name(clause: str, end: int) -> int:
    found = _HONORIFIC.match(clause, end)
    return found.end() if found else end


def _about_named(clause: str, pos: int, head: Mention, named: list[Mention], ids: tuple[str, ...]) -> Said:
    end, _ = _group(clause, _after_name(clause, head.end), named)
    if _ME.match(clause, end):  # 霓霓我认识: the speaker is the subject, 霓霓 the topic
        return None, clause, ids
    words = clause[pos:end]
    report = _REPORT.match(clause, end)
    if report and report.end() > end:  # 霓霓说她…, "Neko said she…": what was said, in her words
        pronoun = _PRONOUN.match(clause, report.end())
        if pronoun is not None:
            edits = [(pos, report.end(), ""), *_subject_edits(clause, report.end(), pronoun.end(), pronoun.group(0))]
            return _as_person(clause, head.person_id, edits, pronoun.end(), ids)
        if _HAN.search(clause[report.end() : report.end() + 1]):  # 霓霓说明天考试: her own plan
            end = report.end()
    return _as_person(clause, head.person_id, _subject_edits(clause, pos, end, words), end, ids)


def _as_person(clause: str, person: str, edits: list[Edit], after: int, ids: tuple[str, ...]) -> Said:
    """The clause as ``person`` would say it; one that also speaks of the speaker is left out."""
    if _FIRST_ANY.search(clause, after):  # 霓霓说我…: two first persons in one clause
        return _SKIP, clause, ids
    edits += [e for e in _pronoun_edits(clause, after) if not any(e[0] < b and a < e[1] for a, b, _ in edits)]
    return person, _apply(clause, edits), tuple(i for i in ids if i != person)


def _subject_edits(clause: str, start: int, end: int, words: str) -> list[Edit]:
    """Edits turning the subject ``clause[start:end]`` into 我 / I / my, and its verb to agree."""
    rest = clause[end:].lstrip()
    if _HAN.match(rest) or (_HAN.search(words) and not re.match(r"[A-Za-z'’]", rest)):
        end = len(clause) - len(rest)  # "霓霓 对花生过敏": no space after 我
        return [(start, end, "我的" if words.endswith("的") else "我")]
    lower = words.lower().rstrip()
    owned = re.match(r"['’]s\b", clause[end:])
    if lower in ("her", "his"):
        return [(start, end, _cap("my", start))]
    if owned or lower.endswith(("'s", "’s")):  # Neko's cat / Neko's allergic / Neko's got
        stop = end + (owned.end() if owned else 0)
        following = _WORD.match(clause, stop + 1) if clause[stop : stop + 1] == " " else None
        word = following.group(0).lower() if following else ""
        if word in ("been", "got"):
            return [(start, stop, "I've")]
        if word in _IS_NEXT or word.endswith("ing"):
            return [(start, stop, "I'm")]
        return [(start, stop, _cap("my", start))]
    return [(start, end, "I "), *_verb_edit(clause, end)]


def _cap(word: str, at: int) -> str:
    return word.capitalize() if at == 0 else word


def _verb_edit(clause: str, at: int) -> list[Edit]:
    """The verb after a new "I" in the first person: likes → like, is → am, doesn't → don't."""
    for word in _WORD.finditer(clause, at):
        low = word.group(0).lower()
        if low in ("both", "all"):  # "Neko and Mo both like": one subject now
            return [(word.start(), word.end(), ""), *_verb_edit(clause, word.end())]
        if low in _ADVERBS:
            continue
        new = _first_person(low)
        return [(word.start(), word.end(), new)] if new != low else []
    return []


def _first_person(verb: str) -> str:
    """likes → like, studies → study, watches → watch, is → am; other words as they are."""
    if verb in _VERBS:
        return _VERBS[verb]
    if not verb.isalpha() or not verb.endswith("s") or verb.endswith(("ss", "us", "is", "as", "os")) or len(verb) < 3:
        return verb
    if verb.endswith("ies") and len(verb) > 4:
        return verb[:-3] + "y"
    if verb.endswith(("ches", "shes", "sses", "xes", "zes", "oes")):
        return verb[:-2]
    return verb[:-1]


def _pronoun_edits(clause: str, after: int) -> list[Edit]:
    """她/他/she/her… later in a clause about a person: that person, now 我 / I / my / me."""
    out = [(m.start(), m.end(), "我") for m in _PRONOUN_ZH.finditer(clause, after)]
    for m in _PRONOUNS_EN.finditer(clause, after):
        low, tail = m.group(0).lower(), clause[m.end() :]
        if low in ("she", "he") or low.endswith(("'s", "’s")):
            out += _subject_edits(clause, m.start(), m.end(), m.group(0))
        elif low in ("herself", "himself"):
            out.append((m.start(), m.end(), "myself"))
        elif low == "his" or (low == "her" and re.match(r" [A-Za-z]", tail) and not _NOT_OWNED.match(tail)):
            out.append((m.start(), m.end(), "my"))
        else:
            out.append((m.start(), m.end(), "me"))
    return out


def _apply(clause: str, edits: list[Edit]) -> str:
    for start, end, new in sorted(edits, reverse=True):
        clause = clause[:start] + new + clause[end:]
    return re.sub(r"[ \t]{2,}", " ", clause).strip()


def _merged(text: str, pieces: list[_Piece | None]) -> list[Attributed]:
    """Consecutive pieces with one subject as one statement, the text between them kept."""
    out: list[Attributed] = []
    run: list[_Piece] = []
    for piece in [*pieces, None]:
        if run and (piece is None or piece.subject != run[0].subject):
            joined = run[0].text
            for prev, cur in zip(run, run[1:], strict=False):
                joined += text[prev.end : cur.start] + cur.text
            mentioned = tuple(dict.fromkeys(i for p in run for i in p.mentioned if i != run[0].subject))
            out.append(Attributed(run[0].subject, joined, mentioned))
            run = []
        if piece is not None:
            run.append(piece)
    return out
