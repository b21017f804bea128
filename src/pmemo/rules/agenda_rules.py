"""Dated plans and how they went (pure), zh/en: the agent's prospective memory.

"12月23日考研", "下周三考高数", "I have a job interview on Friday" are plans: an event on a
day to come. "考完了", "面试过了", "the interview went well" report how one went. An agenda
keeps the plans, surfaces each near its day, and closes it when its outcome is reported.

What counts as a plan: a day (read from the day it was said, ``text.future``) and an event
word (考试, 面试, interview, flight…) in one clause, or else in one sentence. Not a plan: a
date without an event, a day already past, a question ("你哪天考试？"), a cancelled or
negated event ("周五不考了"), and a hedge ("可能下周三考试", "I might have an interview"):
like a guessed fact, a guessed date would have the agent wish someone luck on the wrong
day. A hedge belongs to its clause: "12月23日考研，这段时间可能不怎么冒泡了" is a plan. Run it
on ``attribution.by_subject`` pieces to know whose plan it is.

>>> [(p.day.isoformat(), p.what) for p in plans("下周三考高数，周五答辩", datetime(2024, 3, 4))]
[('2024-03-13', '高数考试'), ('2024-03-08', '答辩')]
>>> outcome("终于考完了！"), outcome("The interview went well.")
('考', 'interview')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime

from ..text.future import day_mentioned
from ..text.segment import STOPWORDS
from ..text.slices import LIMIT, handing_over, pieces
from .clauses import certain_end, clause_spans, is_question, question_start, sentence_spans


@dataclass(frozen=True)
class Plan:
    """An event someone has on a day: ``what`` a short label in the source language, ``text`` the sentence."""

    day: date
    what: str
    text: str


# the kinds of event, each with its words in both languages: an outcome ("考完了") closes a
# plan ("高数考试") of the same kind, whichever language each was said in
FAMILIES: dict[str, tuple[str, ...]] = {
    "exam": ("考", "考试", "考研", "考博", "考公", "考编", "高考", "中考", "笔试", "期末", "期中", "四级", "六级",
             "雅思", "托福", "上岸", "录取", "复试", "exam", "exams", "test", "tests", "quiz", "midterm",
             "midterms", "finals", "gre", "gmat", "ielts", "toefl", "admission"),
    "interview": ("面试", "一面", "二面", "三面", "终面", "复试", "offer", "录用", "录取", "interview", "interviews",
                  "job", "hired"),
    "defense": ("答辩", "defense", "defence", "viva"),
    "surgery": ("手术", "surgery", "operation"),
    "checkup": ("体检", "复查", "checkup", "check-up"),
    "flight": ("航班", "飞", "落地", "flight", "fly", "flying", "flew", "landed"),
    "match": ("比赛", "match", "game", "race", "tournament", "marathon"),
    "show": ("演出", "演唱会", "音乐会", "concert", "gig", "recital", "performance", "audition"),
    "wedding": ("婚礼", "结婚", "wedding"),
    "trip": ("出差", "旅行", "旅游", "trip", "vacation", "holiday"),
    "deadline": ("截止", "ddl", "deadline", "due"),
    "meeting": ("会议", "开会", "年会", "meeting", "conference"),
    "presentation": ("汇报", "路演", "发布会", "presentation", "pitch"),
    "appointment": ("预约", "看病", "看牙", "appointment"),
    "birthday": ("生日", "birthday", "party"),
}  # fmt: skip

_EVENT_ZH = re.compile(
    r"考研|考博|考公|考编|高考|中考|考试|笔试|复试|四六级|四级|六级|雅思|托福|面试|一面|二面|三面|终面|答辩|体检|复查|"
    r"手术|婚礼|出差|航班|比赛|演出|演唱会|音乐会|截止|(?i:ddl)|年会|开会|会议|聚会|约会|生日|旅行|旅游|报到|入职|"
    r"毕业典礼|开学|看病|看牙|签证|搬家|考级|发布会|路演|汇报|"
    r"(?<![参思报])考(?=[\u4e00-\u9fffA-Za-z0-9])(?![虑察验究完得了过上砸挂])|"
    r"(?:^|(?<=[|\s我他她要就会将得先再也]))飞(?![快速行舞扬奔驰机])"
)
_EVENT_EN = re.compile(
    r"\b(?i:(?:job )?interviews?|exams?|tests?|quiz|midterms?|finals|flights?|flying|fly|surgery|operation|"
    r"appointment|wedding|deadline|presentation|defen[cs]e|match|game|concert|gig|meeting|conference|trip|"
    r"vacation|holiday|birthday|party|check-?up|audition|recital|race|marathon|tournament|graduation|due|ielts|toefl)\b"
    r"|\b(?:GRE|GMAT|SAT|LSAT|MCAT|IELTS|TOEFL)\b"
)
# a negation just before the event word ("明天不用面试", "I don't have an exam"), or a cancellation
_NEGATED = re.compile(
    r"(?:不|没|没有|不用|不去)(?:再)?.{0,2}$|(?:考虑|想想|讨论|复习)\S{0,2}$"
    r"|\b(?i:no|not|don't have|do not have|doesn't have|won't have|no more)\b(?:\s+\S+){0,2}\s*$"
    r"|\b(?i:(?:study|prepare|revise|review) for|talk about|think about)\b(?:\s+\S+){0,2}\s*$"
)
_CANCELLED = re.compile(r"取消|不考了|不去了|不面了|\b(?i:cancel(?:l?ed)?|called off|no longer)\b")
# words that cut a Chinese label's modifier off from what came before: 我下周三有|高数|考试
_ZH_STOP = re.compile(
    r"本人|鄙人|有|要|个|场|次|的|是|去|参加|我|他|她|在|就|还|都|了|和|跟|一|会|得|也|将|准备|打算|早上|上午|中午|下午|晚上|"
    r"今晚|明早|点|半|号|日(?![语本韩文料剧系式])|周|[|\s，,。]|(?<![A-Za-z])\d"
)  # 日语, N2: a name, not a date's leftovers
_ZH_RUN = re.compile(r"[\u4e00-\u9fffA-Za-z0-9]{1,6}")
_EN_AFTER = re.compile(
    r" (to|with|at|for|in) ((?:the )?(?:[A-Z\u4e00-\u9fff][\w\u4e00-\u9fff'-]*|[a-z]+ist|doctor)"
    r"(?: [A-Z][\w'-]*)?)"
)
# the word before "(is) due": from a word's first letter only (every letter of a long word was quadratic)
_LAST_WORD = re.compile(r"(?<![A-Za-z])([A-Za-z]+) (?:is |are )?$")
_DATE_WORDS = re.compile(
    r"^(?i:tomorrow|today|tonight|next|this|on|monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    r"week|morning|afternoon|evening|noon|night|big|important|upcoming|first|final|last)$"
)


def plans(text: str, said: datetime) -> list[Plan]:
    """The dated plans stated in ``text``, said at ``said`` (relative days are read from it).

    >>> plans("I have a job interview on Friday.", datetime(2024, 3, 4))
    [Plan(day=datetime.date(2024, 3, 8), what='job interview', text='I have a job interview on Friday.')]

    A text past ``text.slices.LIMIT`` is read piece by piece.
    """
    if len(text) > LIMIT:
        each = {(p.day, p.what): p for piece in handing_over(pieces(text)) for p in plans(piece, said)}
        return list(each.values())
    today = said.date()
    out: dict[tuple[date, str], Plan] = {}
    for s_start, s_end in sentence_spans(text):
        sentence = text[s_start:s_end].strip()
        s_end = s_end if (asked := question_start(text, s_start, s_end)) is None else asked
        if not sentence or s_end <= s_start:  # "IELTS on November 22, anyone have tips?": the plan is said
            continue
        cut = certain_end(text, s_start, s_end)  # a hedge in a later clause is that clause's
        if cut is None:
            continue
        found = [p for a, b in clause_spans(text, s_start, cut) if (p := _plan(text[a:b], sentence, today))]
        if not found and (whole := _plan(text[s_start:cut].strip(), sentence, today)):
            found = [whole]  # "Next Friday, I have an interview": day and event in two clauses
        out.update(((p.day, p.what), p) for p in found)
    return list(out.values())


def names_event(label: str) -> bool:
    """Whether ``label`` names an event (an exam, a flight, an interview…), not something done.

    >>> names_event("job interview"), names_event("日语N2考试"), names_event("see mom")
    (True, True, False)
    """
    return bool(_EVENT_ZH.search(label) or _EVENT_EN.search(label))


def _plan(clause: str, sentence: str, today: date) -> Plan | None:
    found = day_mentioned(clause, today)
    if found is None or found.week_only or found.day < today or outcome(clause):  # 今天考完了: over, not ahead
        return None
    blanked = clause[: found.start] + "|" * (found.end - found.start) + clause[found.end :]
    event = _EVENT_ZH.search(blanked) or _EVENT_EN.search(blanked)
    if event is None or _CANCELLED.search(blanked) or _NEGATED.search(blanked[: event.start()]):
        return None
    label = _label_zh(blanked, event) if event.re is _EVENT_ZH else _label_en(blanked, event)
    return Plan(found.day, label, sentence) if label else None


def _label_zh(text: str, event: re.Match[str]) -> str:
    """高数考试 from 考高数, 北京出差 from 去北京出差, 飞东京, 论文ddl, 字节面试."""
    word = event.group(0)
    if word in ("考", "飞"):
        run = _ZH_RUN.match(text, event.end())
        obj = _ZH_STOP.split(run.group(0))[0] if run else ""
        return (f"{obj}考试" if obj else "考试") if word == "考" else f"飞{obj}"
    before = _ZH_STOP.split(text[max(0, event.start() - 6) : event.start()])[-1]
    return before + word


def _label_en(text: str, event: re.Match[str]) -> str:
    """ "job interview", "math exam", "flight to Tokyo", "appointment with the dentist"."""
    word = event.group(0).lower()
    if word in ("fly", "flying"):
        word = "flight"
    words = re.findall(r"[A-Za-z'’-]+", text[: event.start()])[-2:]
    mods: list[str] = []
    for w in reversed(words):
        if w.lower() in STOPWORDS or _DATE_WORDS.match(w) or w.lower() in ("got", "having") or not w.isalpha():
            break
        mods.insert(0, w.lower())
    label = " ".join([*mods, word])
    if word == "due":  # "my paper is due Friday": the paper's deadline
        owner = _LAST_WORD.search(text[: event.start()])
        return f"{owner.group(1).lower()} deadline" if owner and owner.group(1).lower() not in STOPWORDS else ""
    after = _EN_AFTER.match(text, event.end())
    if after and not _DATE_WORDS.match(after.group(2).split()[-1]):
        label += f" {after.group(1)} {after.group(2)}"
    return label


# ---- outcomes ----------------------------------------------------------------------------
_OUTCOME_ZH = re.compile(
    r"(?P<ev>考研|考博|考公|考试|高考|笔试|复试|面试|一面|二面|三面|终面|答辩|手术|体检|比赛|演出|(?i:ddl)|航班)"
    r"(?:已经|终于|总算|刚|都|也|很|挺|非常|还算|算是|基本)*"
    r"(?:考完|面完|做完|比完|结束|完了|完啦|过了|通过|挂了|凉了|砸了|顺利|成功|搞定|不错|还行|很好|一般|"
    r"不太好|没过|出结果|结果出来)"
    r"|(?P<kao>考)(?:完|得|的)(?:了|啦|试|不错|还行|很好|挺好|一般|不好|很差|好|稀烂|砸)"
    r"|(?P<kao2>考)(?:砸|过|上|挂)了|(?P<kao3>没考好|没考过|上岸了|(?:终于|总算|刚刚?|已经)考完)"
    r"|(?P<mian>面完了|(?:终于|总算|刚刚?|已经)面完|面试完|拿到(?:了)?(?i:offer)|收到(?:了)?(?i:offer)|被录用|(?i:offer)到手)"
    r"|(?P<luqu>被录取|录取了)|(?P<fly>落地了)"
)
_OUTCOME_EN = re.compile(
    r"\b(?i:(?:(?:my|the) |^)(?P<ev>(?:[a-z]+ )?(?:interview|exam|test|surgery|operation|presentation|defen[cs]e|match|"
    r"game|concert|flight|audition|meeting|trip)s?) (?:went|was|is over|is done|went by)"
    r"(?: (?:so |really |very |pretty )?(?:well|great|fine|ok|okay|badly|terribly|smoothly|good|bad|a disaster|"
    r"amazing|awful))?"
    r"|(?:finished|done with|survived|nailed|aced|bombed|flunked|crushed|passed|failed) (?:my|the) "
    r"(?P<ev2>(?:[a-z]+ )?(?:interview|exam|test|surgery|presentation|defen[cs]e|match|game|audition|finals)s?)"
    r"|I (?P<bare>passed|failed)\b(?! (?:my|the|by|on|it))"
    r"|(?P<job>got the job|got an? (?:job )?offer|got the offer|got hired|I'm hired|I am hired)"
    r"|(?P<landed>just landed|landed (?:in|at|safely))"
    r"|(?P<admit>got (?:in|accepted|admitted)))"
)
# "等考完了", "once the exam is over", "还没考完": not a report of how it went
_NOT_YET = re.compile(
    r"(?:等|等到|如果|要是|还没|还没有|没有考完)\S{0,6}$|\b(?i:once|when|after|if|until|not yet|haven't|hasn't)\b"
)
_LATER = re.compile(r"^(?:就|再|以后|之后|后)")


def outcome(text: str) -> str | None:
    """The event a message reports as over ("考完了", "the interview went well"), else None.

    >>> outcome("面试过了，拿到offer了"), outcome("I passed!"), outcome("考完再说")
    ('面试', 'exam', None)
    """
    if len(text) > LIMIT:
        return next((word for piece in handing_over(pieces(text)) if (word := outcome(piece))), None)
    for s_start, s_end in sentence_spans(text):
        sentence = text[s_start:s_end].strip()
        if not sentence or is_question(sentence):
            continue
        for m in (*_OUTCOME_ZH.finditer(sentence), *_OUTCOME_EN.finditer(sentence)):
            if _NOT_YET.search(sentence[: m.start()]) or _LATER.match(sentence[m.end() :]):
                continue
            return _event_word(m)
    return None


_NAMED = {
    "kao": "考", "kao2": "考", "kao3": "考", "mian": "面试", "luqu": "录取", "fly": "航班", "bare": "exam",
    "job": "interview", "landed": "flight", "admit": "admission",
}  # fmt: skip
_MEMBERS = frozenset(m for members in FAMILIES.values() for m in members)


def _event_word(m: re.Match[str]) -> str:
    """The event word of an outcome match: 面试, 考, or an English noun in the singular."""
    group, found = next((k, v) for k, v in m.groupdict().items() if v)
    if group not in ("ev", "ev2"):
        return _NAMED[group]
    word = found.lower().split()[-1]
    return word[:-1] if word.endswith("s") and word[:-1] in _MEMBERS else word


def same_event(plan: Plan, word: str) -> bool:
    """Whether an outcome's word is about ``plan``: 考 and 考研, exam and 高数考试, 面试 and "job interview".

    >>> same_event(Plan(date(2024, 12, 23), "高数考试", "下周三考高数"), "exam")
    True
    """
    word = word.strip().lower()
    if not word:
        return False
    what = plan.what.lower()
    named = re.search(rf"\b{re.escape(word)}\b", what) if word.isascii() else word in what  # not "test" in "contest"
    return bool(named) or bool(_families(word) & _families(plan.what))


def _families(text: str) -> set[str]:
    low = text.lower()
    words = set(re.findall(r"[a-z-]+", low))
    return {
        name for name, members in FAMILIES.items() if any((m in words) if m.isascii() else (m in low) for m in members)
    }
