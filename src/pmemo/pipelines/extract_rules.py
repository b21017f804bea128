"""Rule-based extraction of explicit statements (pure): the offline path, Chinese and English.

Only what a person says plainly about themselves becomes a candidate fact: their name,
what to call them, likes and dislikes, foods they do not eat, the tone they want, and
dated events ahead of them. Hedged statements ("I think I like Python", "我觉得我可能喜欢"),
questions and conditionals are skipped: a guess is not a fact.

>>> [(c.key, c.value) for c in extract("I love hiking. I think I like Python.", None)]
[('opinion:hiking', 'likes')]
>>> [(c.key, c.value) for c in extract("叫我小路就好，我不吃香菜。", None)]
[('preferred_name', '小路'), ('diet:香菜', 'does not eat')]
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta

from ..text.segment import STOPWORDS
from ..tiers.profile import Candidate

EXPLICIT, STRONG, CORRECTED = 0.8, 0.85, 0.97

_SENT = re.compile(r"[^。！？!?.\n]+[。！？!?.]?")
_CLAUSE = re.compile(r"[，,;；]|\bbut\b|但是|不过|可是")
_HEDGE_EN = re.compile(
    r"\b(i think|i guess|i suppose|i believe|maybe|perhaps|probably|might|"
    r"not sure|possibly|kind of|sort of|if|whether|unless)\b",
    re.I,
)
_HEDGE_ZH = re.compile(
    r"我觉得|我想我|可能|也许|大概|好像|或许|不确定|说不定|如果|要是|假如|应该吧|似乎"
)
_QUESTION = re.compile(r"[?？]|吗[。！!]?$|呢[。！!]?$")
_CHANGE_EN = re.compile(
    r"\b(anymore|any more|no longer|now|actually|these days|nowadays|instead|"
    r"changed my mind|moved to|rescheduled|switched)\b",
    re.I,
)
_CHANGE_ZH = re.compile(r"不再|现在|其实|改成|改到|换成|已经|如今|最近开始|推迟到|提前到|改为")

_NAME_EN = re.compile(r"\b(?i:my name is) ([A-Z][\w'-]*(?: [A-Z][\w'-]*)?)")
_CALL_EN = re.compile(
    r"\b(?:please |you can |just )?call me ([A-Z][\w'-]*(?: [A-Z][\w'-]*)?)", re.I
)
_NAME_ZH = re.compile(
    r"(?<![叫你他她])我(?:的名字)?(?:叫|是叫|名叫)(?![了过着])"
    r"([\u4e00-\u9fff]{1,4}?|[A-Za-z][\w-]{0,20})(?=[，。！,.!\s]|$|今年|来自|是)"
)
_NAME_ZH2 = re.compile(r"我的名字是([\u4e00-\u9fff]{1,4}?|[A-Za-z][\w-]{0,20})(?=[，。！,.!\s]|$)")
_CALL_ZH = re.compile(
    r"叫我([\u4e00-\u9fffA-Za-z]{1,10}?)(?=就好|就行|就可以|吧|好了|[，。！,.!\s]|$)"
)
_TONE_ZH = re.compile(r"(?:请|麻烦)?(?:你)?(?:用|以|使用)(.{1,12}?)的?(?:语气|口吻|风格)")
_TONE_EN = re.compile(
    r"\b(?:use|answer in|reply in|talk to me in|speak in|respond in|write in)"
    r" an? ([\w -]{1,30}?) (?:tone|style|voice)\b",
    re.I,
)
_LIKE_EN = re.compile(
    r"\bI (?:really |absolutely |truly |do |still |now |actually |also )?"
    r"(love|like|enjoy|adore|prefer|hate|dislike|detest|can't stand|cannot stand|don't like|"
    r"do not like|no longer like|don't enjoy|don't eat|do not eat|never eat)\s+(.{1,60}?)"
    r"(?=[.,!?;]| and | because | since |$)",
    re.I,
)
_LIKE_ZH = re.compile(
    r"我(?:现在|其实|已经|还是|一直|真的|非常|很|最|特别|超|也|都|比较|挺|蛮|并)*"
    r"(不再喜欢|不喜欢|不爱吃|不爱喝|不爱|不吃|不喝|讨厌|喜欢|爱吃|爱喝|喜爱|热爱|爱)"
    r"(.{1,20}?)(?=[，。！？；,.!?;]|但|因为|和你|$)"
)
_FAV_ZH = re.compile(
    r"我(?:现在)?最(?:喜欢|爱)的(.{1,8}?)(?:现在)?(?:是|变成了|换成了)(.{1,20}?)(?=[，。！,.!;；]|$)"
)
_FAV_EN = re.compile(
    r"\bmy (?:favou?rite) ([\w ]{1,30}?) (?:is|has become) (?:now )?([\w' -]{1,40}?)"
    r"(?=[.,!;]| now\b|$)",
    re.I,
)
_DIET_EN = re.compile(
    r"\bI(?:'m| am)(?: a| an)?(?: strict)? (vegetarian|vegan|pescatarian|halal|kosher|teetotal)\b", re.I
)
_DIET_ZH = re.compile(r"我(?:是|一直)?(?:吃素|素食者|素食主义者|吃全素)")
_ALLERGY_EN = re.compile(r"\bI(?:'m| am) allergic to ([\w -]{2,30}?)(?=[,.!;]|$| and )", re.I)
_ALLERGY_ZH = re.compile(r"我对([\u4e00-\u9fffA-Za-z]{1,10})过敏")
_PRONOUN = re.compile(r"^(?:it|that|this|them|you|when|how|what|的)\b|^的", re.I)
_LEAD_ZH = re.compile(r"^(?:喝|吃|看|听|玩|用|去)(?=.)")
_LEAD_EN = re.compile(
    r"^(?:to |the |a |an |eating |drinking |playing |watching |listening to )(?=.)", re.I
)
_TAIL = re.compile(
    r"(?:\s+(?:anymore|any more|now|very much|a lot|so much|these days|at all|too|"
    r"(?:on|at|in the|every|during) (?:weekends?|weekdays?|mornings?|evenings?|nights?|"
    r"morning|evening|day|week|sundays?|saturdays?)))+$"
    r"|[了啦呀的哦啊]+$",
    re.I,
)

_EN_VALUE = {
    "love": "likes",
    "like": "likes",
    "enjoy": "likes",
    "adore": "likes",
    "prefer": "likes",
    "hate": "dislikes",
    "dislike": "dislikes",
    "detest": "dislikes",
}
_ZH_VALUE = {
    "喜欢": "likes",
    "爱": "likes",
    "喜爱": "likes",
    "热爱": "likes",
    "爱吃": "likes",
    "爱喝": "likes",
    "讨厌": "dislikes",
    "不喜欢": "dislikes",
    "不爱": "dislikes",
    "不再喜欢": "dislikes",
    "不吃": "does not eat",
    "不喝": "does not drink",
    "不爱吃": "dislikes",
    "不爱喝": "dislikes",
}
_STRONG_WORDS = {"love", "hate", "adore", "detest", "讨厌", "热爱", "爱"}


def extract(text: str, when: datetime | None) -> list[Candidate]:
    """Candidate facts stated plainly in ``text`` (said at ``when``, for relative dates)."""
    out: list[Candidate] = []
    for sentence in (s.strip() for s in _SENT.findall(text)):
        if not sentence or _QUESTION.search(sentence):
            continue
        for clause in _CLAUSE.split(sentence):
            clause = clause.strip()
            if clause and not _hedged(clause):
                out.extend(_clause_facts(clause, sentence))
        if not _hedged(sentence):
            out.extend(_event(sentence, when))
    return _dedupe(out)


def _hedged(text: str) -> bool:
    return bool(_HEDGE_EN.search(text) or _HEDGE_ZH.search(text))


def _changed(text: str, negative: bool) -> bool:
    if _CHANGE_EN.search(text) or _CHANGE_ZH.search(text):
        return True
    return negative and bool(re.search(r"了[。！!]?$", text))  # 我不喜欢咖啡了: a change


def _cand(
    category: str,
    key: str,
    value: str,
    conf: float,
    changed: bool,
    importance: float = 0.5,
    expires: float | None = None,
) -> Candidate:
    if changed:
        return Candidate(category, key, value, CORRECTED, "corrected", importance, expires)
    return Candidate(category, key, value, conf, "explicit", importance, expires)


def _clause_facts(clause: str, sentence: str) -> list[Candidate]:
    out: list[Candidate] = []
    changed = _changed(sentence, False)
    for pat in (_NAME_EN, _NAME_ZH, _NAME_ZH2):
        for m in pat.finditer(clause):
            out.append(_cand("profile", "name", m.group(1).strip(), EXPLICIT + 0.1, changed, 0.8))
    for pat in (_CALL_EN, _CALL_ZH):
        for m in pat.finditer(clause):
            out.append(
                _cand("profile", "preferred_name", m.group(1).strip(), EXPLICIT + 0.1, changed, 0.8)
            )
    for pat in (_TONE_ZH, _TONE_EN):
        for m in pat.finditer(clause):
            out.append(_cand("procedural", "tone", m.group(1).strip(), EXPLICIT, changed, 0.7))
    for pat in (_FAV_ZH, _FAV_EN):
        for m in pat.finditer(clause):
            out.append(
                _cand(
                    "preference",
                    f"favorite:{m.group(1).strip().lower()}",
                    _TAIL.sub("", m.group(2).strip()),
                    EXPLICIT,
                    changed,
                )
            )
    for m in _DIET_EN.finditer(clause):
        out.append(_cand("preference", "diet", m.group(1).lower(), EXPLICIT, changed, 0.7))
    if _DIET_ZH.search(clause):
        out.append(_cand("preference", "diet", "素食", EXPLICIT, changed, 0.7))
    for pat in (_ALLERGY_EN, _ALLERGY_ZH):
        for m in pat.finditer(clause):
            out.append(_cand("fact", f"allergy:{m.group(1).strip().lower()}", "allergic", EXPLICIT,
                             changed, 0.9))
    for m in _LIKE_EN.finditer(clause):
        out.extend(_opinion(m.group(1).lower(), m.group(2), clause, english=True))
    for m in _LIKE_ZH.finditer(clause):
        out.extend(_opinion(m.group(1), m.group(2), clause, english=False))
    return out


def _only_function_words(text: str) -> bool:
    """'to', 'it all', 'that so much': no object a preference could be about."""
    return all(word in STOPWORDS for word in text.lower().split())


def _opinion(verb: str, obj: str, clause: str, english: bool) -> list[Candidate]:
    obj = _TAIL.sub("", obj.strip()).strip()
    obj = (_LEAD_EN if english else _LEAD_ZH).sub("", obj).strip()
    if not obj or len(obj) > 40 or _PRONOUN.search(obj) or _only_function_words(obj):
        return []
    if english:
        negative = verb.startswith(("don't", "do not", "no longer", "never", "can"))
        if verb in ("don't eat", "do not eat", "never eat"):
            category, key, value = "habit", f"diet:{obj.lower()}", "does not eat"
        else:
            category, key = "preference", f"opinion:{obj.lower()}"
            value = "dislikes" if negative else _EN_VALUE.get(verb, "likes")
    else:
        value = _ZH_VALUE[verb]
        negative = value != "likes"
        category = "habit" if value.startswith("does not") else "preference"
        key = f"{'diet' if category == 'habit' else 'opinion'}:{obj}"
    conf = STRONG if verb in _STRONG_WORDS else EXPLICIT
    return [_cand(category, key, value, conf, _changed(clause, negative))]


# ---- dated events ---------------------------------------------------------------------------
_EVENT_NOUNS = (
    "interview",
    "meeting",
    "appointment",
    "flight",
    "trip",
    "exam",
    "wedding",
    "birthday",
    "party",
    "conference",
    "deadline",
    "launch",
    "vacation",
    "holiday",
    "面试",
    "会议",
    "开会",
    "出差",
    "考试",
    "婚礼",
    "生日",
    "聚会",
    "航班",
    "旅行",
    "体检",
    "上线",
    "发布",
    "截止",
    "约会",
    "年会",
    "答辩",
)
_FUTURE = re.compile(
    r"\b(will|going to|have an?|have my|'ve got|is on|is scheduled|plan to|"
    r"planning to|is due|due on|moved to|rescheduled)\b|要|将|会|打算|准备|计划|"
    r"有个|有一个|安排|定在|改到|推迟到",
    re.I,
)
_MONTHS = {
    m: i
    for i, m in enumerate(
        (
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        ),
        1,
    )
}
_WEEKDAYS_EN = {
    d: i
    for i, d in enumerate(
        ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
    )
}
_WEEKDAYS_ZH = {c: i for i, c in enumerate("一二三四五六日")} | {"天": 6}
_ISO = re.compile(r"\b(20\d\d)[-/.](\d{1,2})[-/.](\d{1,2})\b")
_ZH_DATE = re.compile(r"(?:(20\d\d)年)?(\d{1,2})月(\d{1,2})[日号]")
_EN_DATE = re.compile(r"\b(" + "|".join(_MONTHS) + r")\s+(\d{1,2})(?:st|nd|rd|th)?\b", re.I)
_EN_DATE2 = re.compile(
    r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(" + "|".join(_MONTHS) + r")\b", re.I
)
_REL_EN = re.compile(
    r"\b(tomorrow|the day after tomorrow|next week|(next|this|on) ("
    + "|".join(_WEEKDAYS_EN)
    + r"))\b",
    re.I,
)
_REL_ZH = re.compile(
    r"(后天|明天|下下?(?:周|星期|礼拜)([一二三四五六日天])|(?:这|本)?(?:周|星期|礼拜)([一二三四五六日天]))"
)


def _event(sentence: str, when: datetime | None) -> list[Candidate]:
    if not _FUTURE.search(sentence):
        return []
    today = (when or datetime.now(UTC)).date()
    day = _date_in(sentence, today)
    if day is None or day < today:
        return []
    noun = next((n for n in _EVENT_NOUNS if n in sentence.lower()), None)
    key = f"event:{noun}" if noun else f"event:{day.isoformat()}"
    expires = datetime(day.year, day.month, day.day, tzinfo=UTC) + timedelta(days=1)
    value = f"{day.isoformat()}: {sentence.strip()}"
    return [
        _cand("fact", key, value, EXPLICIT, _changed(sentence, False), 0.7, expires.timestamp())
    ]


def _date_in(text: str, today: date) -> date | None:
    if m := _ISO.search(text):
        return _safe(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    if m := _ZH_DATE.search(text):
        return _upcoming(today, int(m.group(2)), int(m.group(3)), m.group(1))
    if m := _EN_DATE.search(text):
        return _upcoming(today, _MONTHS[m.group(1).lower()], int(m.group(2)), None)
    if m := _EN_DATE2.search(text):
        return _upcoming(today, _MONTHS[m.group(2).lower()], int(m.group(1)), None)
    if m := _REL_EN.search(text):
        word = m.group(1).lower()
        if word == "tomorrow":
            return today + timedelta(days=1)
        if word == "the day after tomorrow":
            return today + timedelta(days=2)
        if word == "next week":
            return today + timedelta(days=7 - today.weekday())
        return _weekday(today, _WEEKDAYS_EN[m.group(3).lower()], m.group(2).lower() == "next")
    if m := _REL_ZH.search(text):
        word = m.group(1)
        if word in ("明天", "后天"):
            return today + timedelta(days=1 if word == "明天" else 2)
        if m.group(2):
            weeks = 2 if word.startswith("下下") else 1
            return (
                today
                - timedelta(days=today.weekday())
                + timedelta(weeks=weeks, days=_WEEKDAYS_ZH[m.group(2)])
            )
        return _weekday(today, _WEEKDAYS_ZH[m.group(3)], False)
    return None


def _safe(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _upcoming(today: date, month: int, day: int, year: str | None) -> date | None:
    found = _safe(int(year) if year else today.year, month, day)
    if found is not None and year is None and found < today:
        found = _safe(today.year + 1, month, day)
    return found


def _weekday(today: date, weekday: int, next_week: bool) -> date:
    if next_week:
        return today - timedelta(days=today.weekday()) + timedelta(weeks=1, days=weekday)
    return today + timedelta(days=(weekday - today.weekday()) % 7)


def _dedupe(cands: list[Candidate]) -> list[Candidate]:
    seen: dict[tuple[str, str], Candidate] = {}
    for c in cands:
        prev = seen.get((c.category, c.key))
        if prev is None or c.confidence > prev.confidence:
            seen[(c.category, c.key)] = c
    return list(seen.values())
