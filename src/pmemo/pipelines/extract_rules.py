"""Rule-based extraction of explicit statements (pure): the offline path, Chinese and English.

Only what a person says plainly about themselves becomes a candidate fact: their name,
what to call them, likes and dislikes, favourites, foods they do not eat or are allergic
to, the tone they want, dated events ahead of them, and (``extract_life``) where they work,
live and study, their job and pets. Hedged statements ("I think I like Python",
"我觉得我可能喜欢"), wishes ("我想养只猫"), former states ("I used to live in Paris"),
questions and conditionals are skipped: a guess is not a fact.

A group chat leaves the subject out ("在字节搬砖中～", "allergic to cats, sadly"), puts the
topic first ("榴莲我真的受不了", "Pho is my favorite food") and labels itself ("程序员一枚",
"teacher here"). A clause without a subject goes on with the subject before it, which
is the speaker until a clause names someone else ("我朋友在阿里工作，做产品的" states
nothing about the speaker). Third-person statements ("霓霓在腾讯上班") reach these rules
rewritten in the first person by ``attribution``.

>>> [(c.key, c.value) for c in extract("I love hiking. I think I like Python.", None)]
[('opinion:hiking', 'likes')]
>>> [(c.key, c.value) for c in extract("叫我小路就好，我不吃香菜。", None)]
[('preferred_name', '小路'), ('diet:香菜', 'does not eat')]
>>> [(c.key, c.value, c.source) for c in extract("我从阿里跳槽到字节了，我家猫叫年糕", None)]
[('employer', '字节', 'corrected'), ('pet:cat', '年糕', 'explicit')]
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from ..text.future import date_in
from ..text.segment import STOPWORDS
from ..tiers.profile import Candidate
from .extract_life import (
    CORRECTED,
    EXPLICIT,
    JOB_FIELDS_ZH,
    PARTNER_PREGNANT,
    PET_KINDS,
    STRONG,
    life_facts,
    trim,
)
from .extract_life import candidate as _cand
from .speaker import FIRST_PERSON, OTHER, QUESTION, SENTENCE, as_said, joined, sentences, unfilled

__all__ = ["CORRECTED", "EXPLICIT", "JOB_FIELDS_ZH", "PARTNER_PREGNANT", "PET_KINDS", "STRONG", "clause_spans",
           "extract", "is_hedged", "is_question", "question_start", "sentence_spans", "certain_end"]  # fmt: skip

# 但是/不过/可是 join two clauses, but not after a pronoun: "我可是海鲜过敏的" is emphasis
_CLAUSE = re.compile(r"[，,;；]|\bbut\b|(?<![我你他她])(?:但是|不过|可是)")
_HEDGE_EN = re.compile(
    r"\b(i think|i guess|i suppose|i believe|maybe|perhaps|probably|might|"
    r"not sure|possibly|kind of|sort of|if|whether|unless)\b",
    re.I,
)
_HEDGE_ZH = re.compile(r"我觉得|我想我|可能|也许|大概|好像|或许|不确定|说不定|如果|要是|假如|应该吧|似乎")
_CONDITION = re.compile(r"如果|要是|假如|万一|除非|的话|\b(?i:if|unless|provided|as long as)\b")
# a wish, a plan not carried out, a dream or a former state says nothing about how things are
_WISH = re.compile(
    r"(?:^|[我你也还很真好都超挺太就在正])(?:想|希望|打算|准备|考虑|梦见|梦到)|下辈子|以前|之前|曾经|当年|小时候"
    r"|^等|等到|到时候"
    r"|\b(?i:wish|hope to|hoping to|want to|wanna|would love|'d love|someday|one day|dream(?:ing)? of|"
    r"thinking (?:of|about)|considering|plan(?:ning)? to|gonna|going to|will|'ll|used to|formerly|back then)\b"
)
_CHANGE_EN = re.compile(
    r"\b(anymore|any more|no longer|now|actually|these days|nowadays|instead|"
    r"changed my mind|moved to|rescheduled|switched)\b",
    re.I,
)
_LASTING = re.compile(r"\b(?i:these days|nowadays)\b")
_CHANGE_ZH = re.compile(r"不再|现在|其实|改成|改到|换成|已经|如今|最近开始|推迟到|提前到|改为")

_NAME_EN = re.compile(r"\b(?i:my name is) ([A-Z][\w'-]*(?: [A-Z][\w'-]*)?)")
_CALL_EN = re.compile(r"\b(?:please |you can |just )?call me ([A-Z][\w'-]*(?: [A-Z][\w'-]*)?)", re.I)
_NAME_ZH = re.compile(
    r"(?<![叫你他她])我(?:的名字)?(?:叫|是叫|名叫)(?![了过着])"
    r"([\u4e00-\u9fff]{1,4}?|[A-Za-z][\w-]{0,20})(?=[，。！,.!\s]|$|今年|来自|是)"
)
_NAME_ZH2 = re.compile(r"我的名字是([\u4e00-\u9fff]{1,4}?|[A-Za-z][\w-]{0,20})(?=[，。！,.!\s]|$)")
_CALL_ZH = re.compile(r"叫我([\u4e00-\u9fffA-Za-z]{1,10}?)(?=就好|就行|就可以|吧|好了|[，。！,.!\s]|$)")
_TONE_ZH = re.compile(r"(?:请|麻烦)?(?:你)?(?:用|以|使用)(.{1,12}?)的?(?:语气|口吻|风格)")
_TONE_EN = re.compile(
    r"\b(?:use|answer in|reply in|talk to me in|speak in|respond in|write in)"
    r" an? ([\w -]{1,30}?) (?:tone|style|voice)\b",
    re.I,
)
_OBJ_END = r"(?=[.,!?;]| and | because | since | but |$)"
_ADV_ZH = (
    r"(?:现在|其实|已经|还是|一直|真的|非常|很|最|特别|超级|超|也|都|比较|挺|蛮|并|从来|向来|根本|完全|一点都|一点也|"
    r"实在|可|最近|贼|巨|好|太)*"
)
_LIKE_EN = re.compile(
    r"\bI (?:really |absolutely |truly |do |still |now |actually |also |just )?"
    r"(love|like|enjoy|adore|prefer|hate|dislike|detest|can't stand|cannot stand|don't like|"
    r"do not like|no longer like|don't enjoy|don't eat|do not eat|never eat)\s+(.{1,60}?)"
    r"(?=[.,!?;]| and | because | since |$)",
    re.I,
)
_FAN_WORDS = r"(?: (?:big|huge|massive|great|total|die-?hard|lifelong|long-?time|true|real|biggest))*"
_IM_EN = r"\bI(?:'m| am)(?: really| also| still| just| such)?"
_FAN_EN = re.compile(
    rf"{_IM_EN}( not)?(?: really| exactly| much)?(?: (?:a|an))?{_FAN_WORDS} fan of (.{{1,40}}?){_OBJ_END}"
    rf"|{_IM_EN} (?:a|an){_FAN_WORDS} ((?:[\w'&-]+ ){{0,2}}?[\w'&-]+) fan\b",
    re.I,
)
_INTO_EN = re.compile(
    r"\bI(?:'m| am)(?: really| also| still| just| so| totally| super| very| seriously| kinda)*( not)?"
    r"(?: (?:really|so|totally|super|very|that|too|heavily))* (?:into|obsessed with|addicted to|hooked on|"
    rf"crazy about|passionate about|mad about|nuts about|in love with) (.{{1,40}}?){_OBJ_END}",
    re.I,
)
_NO_EAT_EN = re.compile(
    r"\bI(?:'ve| have)?(?: just| also| recently| completely)? (?:stopped eating|quit eating|gave up eating|gave up|"
    r"given up|cut out|can't eat|cannot eat|can not eat|avoid eating|don't do|can't have|cannot have) "
    rf"(.{{1,30}}?){_OBJ_END}"
    rf"|\bI(?:'m| am)(?: \w+ly)? (?:cutting out|cutting down on|avoiding) (.{{1,30}}?){_OBJ_END}",
    re.I,
)
_LIKE_ZH = re.compile(
    rf"我{_ADV_ZH}"
    r"(不再喜欢|不喜欢|不爱吃|不爱喝|不爱|爱死了?|从不吃|不能吃|不能碰|吃不了|不碰|不吃|不喝|受不了|忍不了|讨厌|喜欢上了?|喜欢|迷上了?|"
    r"爱上了?|爱吃|爱喝|喜爱|热爱|爱)"
    r"([^，。！？；,.!?;\s].{0,19}?)(?=[，。！？；,.!?;]|但|因为|和你|就|的话|$)"
)
# the topic first: "榴莲我真的受不了", "牛肉我是不吃的"
_TOPIC_ZH = re.compile(
    rf"^([\u4e00-\u9fffA-Za-z]{{1,10}}?)我{_ADV_ZH}(?:是)?(?:一口都|绝对|坚决|真)?"
    r"(不吃|不喝|不碰|从不吃|不能吃|不能碰|吃不了|受不了|忍不了|不喜欢|讨厌|喜欢|爱吃|爱)(?:的|了|啊|哈|呀|啦)*$"
)
_TOPIC_BARE_ZH = re.compile(
    rf"^((?:(?!我)[\u4e00-\u9fffA-Za-z]){{1,10}}?){_ADV_ZH}(?:是)?(受不了|忍不了|劝退)(?:的|了|啊|哈|呀|啦)*$"
)  # "香菜真的受不了", "榴莲太劝退了": nobody else is in the clause to be unable to stand it
_NOT_TOPIC = re.compile(
    r"^(?:真的?|实在|确实|简直|完全|[今明昨前后]天|早上|中午|晚上|今晚|现在|最近|平时|以后|这|那|什么|啥|反正|其实|所以|哈)"
)
# what someone cannot do without: "人生不能没有火锅", "我离不开咖啡", "can't live without coffee"
_CANT_DO_WITHOUT = re.compile(
    r"(?:^|我)(?:的)?(?:人生|生活|每天)?(?:不能没有|离不开|少不了)([\u4e00-\u9fffA-Za-z]{1,10}?)(?=[，。！,.!]|$|了|啊|呀)"
    r"|\b(?:I )?(?:can't|cannot|couldn't) live without ([\w' -]{1,30}?)(?=[.,!?;]|$)",
    re.I,
)
_INTEREST_ZH = re.compile(
    rf"我{_ADV_ZH}对([\u4e00-\u9fffA-Za-z]{{1,12}}?){_ADV_ZH}(不感兴趣|没兴趣|没什么兴趣|无感|感兴趣|有兴趣|着迷|上瘾)"
)
_FAN_ZH = re.compile(
    r"我(?:也|就|可)?是(?:个|一个|一名|一枚)?([\u4e00-\u9fffA-Za-z]{1,8}?)的?"
    r"(?:铁粉|死忠粉|忠实粉丝|粉丝|脑残粉|头号粉丝|控)(?=[，。！,.!\s]|$|一枚|哈|啦|呀)"
)
_FAV_ZH = re.compile(
    r"我(?:现在)?最(?:喜欢|爱)的(?:一[本部首个家种位只款道])?(.{1,8}?)(?:现在)?"
    r"(?:是|就是|还是|永远是|当然是|绝对是|变成了|换成了)(.{1,20}?)(?=[，。！,.!;；]|$)"
)
# "火锅永远是我的最爱", "我的天敌是香菜": a favourite without its kind is a strong like; a nemesis
_BELOVED = "最爱|心头好|本命|真爱|挚爱|白月光"
_NEMESIS = "天敌|克星|噩梦"
_BELOVED_ZH = re.compile(
    r"^([\u4e00-\u9fffA-Za-z《》·]{1,12}?)(?:永远|一直|绝对|就|才|真的|也)*是我(?:的|心中的|心里的)?"
    rf"({_BELOVED}|{_NEMESIS})(?![\u4e00-\u9fff])"
    rf"|我的({_BELOVED}|{_NEMESIS})(?:永远|一直|绝对|就)*是([\u4e00-\u9fffA-Za-z《》·]{{1,12}}?)(?=[，。！,.!]|$|了|啦)"
)
_NEMESIS_EN = re.compile(
    r"^([\w' -]{1,40}?) (?:is|are) (?:definitely |truly )?(?:my (?:nemesis|kryptonite|arch-?enemy|worst enemy)\b"
    r"|(?:a (?:hard |big |total )?no|not for me|a no-go|a dealbreaker)(?: for me)?$)"
    r"|\bmy (?:nemesis|kryptonite|arch-?enemy|worst enemy) (?:is|has to be|would be) ([\w' -]{1,40}?)(?=[.,!;]|$)",
    re.I,
)
_FAVOURITE = r"(?:all-time |absolute |current |new |ultimate |personal )?(?:favou?rite|fave|fav)"
_FAV_EN = re.compile(
    rf"\bmy {_FAVOURITE} ([\w ]{{1,30}}?) (?:is|has become|has to be|would be|must be|is still|are)"
    r" (?:now |still |definitely |always )?([\w' -]{1,40}?)(?=[.,!;]| now\b|$)",
    re.I,
)
_FAV_INV_EN = re.compile(
    rf"^([\w' -]{{1,40}}?) (?:is|are)(?: definitely| totally| still| always| forever)? my {_FAVOURITE}"
    r"(?: ([\w -]{1,20}?))?(?: ever| of all time)?$"
    r"|^([\w' -]{1,40}?) (?:is|are) (?:the best part of my (?:day|week|weekend|morning)|my happy place"
    r"|my guilty pleasure)",
    re.I,
)
_DIET_EN = re.compile(
    r"\bI(?:'m| am|'ve been| have been)(?: \w+ly)?(?: a| an)?(?: strict| full| lifelong)?"
    r" (vegetarian|vegan|pescatarian|halal|kosher|teetotal|plant-based)\b",
    re.I,
)
_DIET_ZH = re.compile(rf"我{_ADV_ZH}(?:是|在|开始)?(吃素|吃全素|吃斋|素食|纯素)(?:主义)?者?")
# a diet someone keeps, named as they name it: 戒糖, 戒碳水 (not a habit that is no food: 戒烟)
_QUIT_ZH = re.compile(
    rf"我{_ADV_ZH}(?:在|开始|正在)?戒(?:了|掉)?(?!烟|网|赌|手机|游戏|熬夜|拖延|了|掉)([\u4e00-\u9fff]{{1,3}}?)"
    r"(?=了|啦|中|呢|哈|呀|$|[一两三四五六七八九十几]|好|快|已经)"
)
_ON_DIET_EN = re.compile(r"\bI(?:'m| am|'ve been| have been)(?: \w+ly)? on an? ([\w-]+(?: [\w-]+)?) diet\b", re.I)
_ALLERGY_EN = re.compile(
    r"\bI(?:'m| am)(?: (?:super|very|so|really|extremely|deathly|severely|mildly|slightly|highly|badly|seriously"
    r"|also|quite|a bit|a little))* allergic to ([\w -]{2,30}?)(?=[,.!;]|$| and | so )"
    r"|\bI(?:'ve got| have got| have| got| also have)(?: a| an| some)?(?: (?:really|very|pretty|super|severe|serious"
    r"|mild|bad|slight|deadly|life-threatening|major|minor|bit of a))* "
    r"(?:([\w-]+(?: [\w-]+)?) allerg(?:y|ies)\b|allerg(?:y|ies) to ([\w -]{2,30}?)(?=[,.!;]|$| and ))"
    r"|\bmy ([\w-]+(?: [\w-]+)?) allerg(?:y|ies)\b",
    re.I,
)
_ALLERGY_ZH = re.compile(
    rf"我{_ADV_ZH}(?:有|是)?(?:对|吃)?([\u4e00-\u9fffA-Za-z]{{1,10}}?)"
    r"(?:严重|特别|有点|有些|很|超级|超|非常|轻微|会|都|也|就|一定)*过敏"
    rf"|我{_ADV_ZH}(?:不能|不敢|没法|不可以)(?:碰|吃|喝)([\u4e00-\u9fffA-Za-z]{{1,10}}?)，(?:会|要|就|都|也)?过敏"
    r"|\bI (?:can't|cannot|can not) (?:eat|have|touch) ([\w -]{2,30}?), (?:I'm |I am )?allergic"
    rf"|^([\u4e00-\u9fffA-Za-z]{{1,10}}?)我{_ADV_ZH}(?:是)?真?(?:不能|不敢)(?:碰|吃|喝)[^，]{{0,4}}，"
    r"(?:一(?:碰|吃|喝|闻|接触)就|会|要|就|都|也)?过敏"
)
_NOT_ALLERGEN = re.compile(r"[不没对]|^(?:有|是|点|些|有点|有些|很|特别)$")
_PRONOUN = re.compile(
    r"^(?:it|that|this|them|you|when|how|what|my|your|his|her|our|their|on|anything|everything|something|much|more"
    r"|another)\b|^的|^(?:这|那|它|你|他|她|什么|啥|了|得|过|着|太|很|一点|多|就)",
    re.I,
)
_LEAD_ZH = re.compile(r"^(?:喝|吃|看|听|玩|用|去)(?=.)")
_LEAD_EN = re.compile(r"^(?:to |the |a |an |eating |drinking |playing |watching |listening to )(?=.)", re.I)

_EN_VALUE = {
    "love": "likes", "like": "likes", "enjoy": "likes", "adore": "likes", "prefer": "likes",
    "hate": "dislikes", "dislike": "dislikes", "detest": "dislikes",
}  # fmt: skip
_ZH_VALUE = {
    "喜欢": "likes", "爱": "likes", "喜爱": "likes", "热爱": "likes", "爱吃": "likes", "爱喝": "likes",
    "迷上": "likes", "迷上了": "likes", "爱上": "likes", "爱上了": "likes", "喜欢上": "likes", "喜欢上了": "likes",
    "爱死": "likes", "爱死了": "likes",
    "讨厌": "dislikes", "不喜欢": "dislikes", "不爱": "dislikes", "不再喜欢": "dislikes", "受不了": "dislikes",
    "忍不了": "dislikes", "劝退": "dislikes", "不爱吃": "dislikes", "不爱喝": "dislikes",
    "不吃": "does not eat", "从不吃": "does not eat", "不能吃": "does not eat", "吃不了": "does not eat",
    "不碰": "does not eat", "不能碰": "does not eat", "不喝": "does not drink",
}  # fmt: skip
_STRONG_WORDS = {"love", "hate", "adore", "detest", "讨厌", "热爱", "爱", "受不了"}


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Where each sentence of ``text`` starts and ends (its closing mark included).

    >>> sentence_spans("我喜欢猫。你呢？")
    [(0, 5), (5, 8)]
    """
    return [m.span() for m in SENTENCE.finditer(text)]


def clause_spans(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The clauses of the sentence ``text[start:end]``, as spans of ``text`` without the
    separators (commas, "but", 但是) or the whitespace around them.

    >>> clause_spans("I like tea, but not coffee.", 0, 27)
    [(0, 10), (16, 27)]
    """
    out, at = [], start
    for sep in [*_CLAUSE.finditer(text, start, end), *_and_i(text, start, end), None]:
        stop = sep.start() if sep else end
        piece = text[at:stop]
        if piece.strip():
            lead = len(piece) - len(piece.lstrip())
            out.append((at + lead, at + len(piece.rstrip())))
        if sep:
            at = sep.end()
    return sorted(out)


_AND_I = re.compile(r"\s+and\s+(?=(?-i:I)\b(?!\s+(?:both|all|are|were|have|'re|'ve)\b))")


def _and_i(text: str, start: int, end: int) -> list[re.Match[str]]:
    """ " and I" that starts a second clause: "Priya lives in Leeds and I live in York", not the
    short subject of "Neko and I like sushi" (three words or fewer before it)."""
    out = []
    for m in _AND_I.finditer(text, start, end):
        since = max([start, *(s.end() for s in _CLAUSE.finditer(text, start, m.start()))])
        if len(text[since : m.start()].split()) > 3:
            out.append(m)
    return out


def certain_end(text: str, start: int, end: int) -> int | None:
    """Where what the sentence ``text[start:end]`` says for sure ends: before the first clause
    that hedges ("我12月23日考研，这段时间可能不怎么冒泡了": the hedge is the second clause's),
    or None when a hedge or a condition governs it all ("如果顺利的话，…", "…, I think").

    >>> text = "周六考雅思，可能没空看群"
    >>> text[: certain_end(text, 0, len(text))]
    '周六考雅思，'
    """
    spans = clause_spans(text, start, end)
    for i, (a, b) in enumerate(spans):
        clause = text[a:b]
        if _hedged(clause):
            bare = not re.sub(r"[\W_吧的啦了啊呢哈]", "", _HEDGE_EN.sub("", _HEDGE_ZH.sub("", clause)))
            return None if i == 0 or bare or _CONDITION.search(clause) else a
    return end


def extract(text: str, when: datetime | None) -> list[Candidate]:
    """Candidate facts stated plainly in ``text`` (said at ``when``, for relative dates)."""
    out: list[Candidate] = []
    mine = True  # whether the speaker is the subject a clause without one goes on with
    for sentence in sentences(text):
        asked = question_start(sentence, 0, len(sentence))
        sentence = sentence if asked is None else sentence[:asked].rstrip(" ,，")
        if not sentence:
            continue
        changed = _changed(sentence, False)  # once: a sentence may hold many clauses
        # "I'm at Meridian Bank these days" states where someone works, it does not announce a change
        moved = changed and _changed(_LASTING.sub("", sentence), False)
        cut = certain_end(sentence, 0, len(sentence))
        if cut is not None and mine and not OTHER.match(unfilled(sentence)):
            out.extend(_event(sentence[:cut], sentence, when))
        for clause in joined(_CLAUSE.split(sentence)):
            said, after = as_said(clause, mine)
            facts = []
            if said is not None and not _hedged(said) and not _WISH.search(said):
                facts = _clause_facts(said, changed) + life_facts(said, text, moved)
            out.extend(facts)
            # after a topic ("南京大学毕业的，计算机专业"), the speaker goes on if it was theirs
            mine = after if after is not None else bool(facts) or bool(FIRST_PERSON.search(said or ""))
    return _dedupe(out)


_ASKS = re.compile(
    r"[?？]|吗|呢|谁|什么|哪|怎么|怎样|多少|是不是|有没有|要不要|能不能|会不会|为啥|为什么|咋"
    r"|\b(?i:who|what|where|when|why|how|which|anyone|anybody|any|do you|did you|is it|are you|have you|will you)\b"
    r"|^(?i:is|are|do|does|did|can|could|should|would|will|have|has)\b"
)


def question_start(text: str, start: int, end: int) -> int | None:
    """Where the sentence ``text[start:end]`` starts asking: None when it asks nothing, else
    at the first clause that asks, so a statement before it still states ("IELTS on November
    22, anyone have tips?", "我喜欢猫，你呢？").

    >>> text = "我喜欢猫，你呢？"
    >>> text[: question_start(text, 0, len(text))]
    '我喜欢猫，'
    """
    if not QUESTION.search(text[start:end].strip()):
        return None
    spans = clause_spans(text, start, end)
    return next((a for a, b in spans if _ASKS.search(text[a:b])), spans[-1][0] if spans else start)


def is_question(sentence: str) -> bool:
    """A question states nothing: "你喜欢喝茶吗？", "Do you like tea?", "你是不是在字节上班"."""
    return bool(QUESTION.search(sentence.strip()))


def is_hedged(text: str) -> bool:
    """A guess or a condition is not a fact: "I think…", "可能…", "if…"."""
    return _hedged(text)


def _hedged(text: str) -> bool:
    return bool(_HEDGE_EN.search(text) or _HEDGE_ZH.search(text))


def _changed(text: str, negative: bool) -> bool:
    if _CHANGE_EN.search(text) or _CHANGE_ZH.search(text):
        return True
    return negative and bool(re.search(r"了[。！!]?$", text))  # 我不喜欢咖啡了: a change


def _clause_facts(clause: str, changed: bool) -> list[Candidate]:
    out: list[Candidate] = []
    for pat in (_NAME_EN, _NAME_ZH, _NAME_ZH2):
        for m in pat.finditer(clause):
            out.append(_cand("profile", "name", m.group(1).strip(), EXPLICIT + 0.1, changed, 0.8))
    for pat in (_CALL_EN, _CALL_ZH):
        for m in pat.finditer(clause):
            out.append(_cand("profile", "preferred_name", m.group(1).strip(), EXPLICIT + 0.1, changed, 0.8))
    for pat in (_TONE_ZH, _TONE_EN):
        for m in pat.finditer(clause):
            out.append(_cand("procedural", "tone", m.group(1).strip(), EXPLICIT, changed, 0.7))
    return out + _favourites(clause, changed) + _diet(clause, changed) + _opinions(clause)


def _favourites(clause: str, changed: bool) -> list[Candidate]:
    out = []
    for pat in (_FAV_ZH, _FAV_EN):
        for m in pat.finditer(clause):
            out.append(
                _cand("preference", f"favorite:{m.group(1).strip().lower()}", trim(m.group(2)), EXPLICIT, changed)
            )
    for m in _FAV_INV_EN.finditer(clause):
        if m.group(3):  # "pour-over coffee is the best part of my week"
            out += _opinion("love", m.group(3), clause, english=True)
        elif m.group(2) and m.group(2).lower() != "thing":
            out.append(_cand("preference", f"favorite:{m.group(2).lower()}", trim(m.group(1)), EXPLICIT, changed))
        else:
            out += _opinion("love", m.group(1), clause, english=True)
    for m in _BELOVED_ZH.finditer(clause):
        what, word = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
        out += _opinion("受不了" if re.fullmatch(_NEMESIS, word) else "爱", what, clause, english=False)
    for m in _NEMESIS_EN.finditer(clause):
        out += _opinion("hate", m.group(1) or m.group(2), clause, english=True)
    return out


def _diet(clause: str, changed: bool) -> list[Candidate]:
    out = []
    for m in _DIET_EN.finditer(clause):
        out.append(_cand("preference", "diet", m.group(1).lower(), EXPLICIT, changed, 0.7))
    for m in _DIET_ZH.finditer(clause):  # in the words said: 吃素, 纯素, 素食(者)
        out.append(_cand("preference", "diet", m.group(1), EXPLICIT, changed, 0.7))
    for m in _QUIT_ZH.finditer(clause):
        out.append(_cand("preference", "diet", f"戒{m.group(1)}", EXPLICIT, changed, 0.7))
    for m in _ON_DIET_EN.finditer(clause):
        out.append(_cand("preference", "diet", m.group(1).lower(), EXPLICIT, changed, 0.7))
    for pat in (_ALLERGY_EN, _ALLERGY_ZH):
        for m in pat.finditer(clause):
            what = trim(next(g for g in m.groups() if g)).lower()
            if what and not _NOT_ALLERGEN.search(what) and not _PRONOUN.search(what):
                out.append(_cand("fact", f"allergy:{what}", "allergic", EXPLICIT, changed, 0.9))
    for m in _NO_EAT_EN.finditer(clause):
        food = m.group(1) or m.group(2)
        if not re.match(r"\w+ing\b", food):  # "gave up smoking": not a food
            out += _opinion("don't eat", food, clause, english=True)
    return out


def _opinions(clause: str) -> list[Candidate]:
    out = []
    for m in _LIKE_EN.finditer(clause):
        out += _opinion(m.group(1).lower(), m.group(2), clause, english=True)
    for m in _FAN_EN.finditer(clause):
        fan = m.group(2) or m.group(3)
        if not re.fullmatch(_FAN_WORDS.replace("*", "+"), f" {fan.lower()}"):  # "a big fan": of nothing named
            out += _opinion("dislike" if m.group(1) else "like", fan, clause, english=True)
    for m in _INTO_EN.finditer(clause):
        out += _opinion("dislike" if m.group(1) else "like", m.group(2), clause, english=True)
    for m in _LIKE_ZH.finditer(clause):
        out += _opinion(m.group(1), m.group(2), clause, english=False)
    for m in (*_TOPIC_ZH.finditer(clause), *_TOPIC_BARE_ZH.finditer(clause)):
        if not _NOT_TOPIC.match(m.group(1)) and not OTHER.match(m.group(1)):
            out += _opinion(m.group(2), m.group(1), clause, english=False)
    for m in _INTEREST_ZH.finditer(clause):
        negative = m.group(2).startswith(("不", "没", "无"))
        out += _opinion("不喜欢" if negative else "喜欢", m.group(1), clause, english=False)
    for m in _FAN_ZH.finditer(clause):
        out += _opinion("喜欢", m.group(1), clause, english=False)
    for m in _CANT_DO_WITHOUT.finditer(clause):
        zh = m.group(1) is not None
        out += _opinion("爱" if zh else "love", m.group(1) if zh else m.group(2), clause, english=not zh)
    return out


def _only_function_words(text: str) -> bool:
    """'to', 'it all', 'that so much': no object a preference could be about."""
    return all(word in STOPWORDS for word in text.lower().split())


def _opinion(verb: str, obj: str, clause: str, english: bool) -> list[Candidate]:
    obj = trim(obj)
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
        if re.search(r"[不没]", obj):  # 不吃白不吃: a saying, not a food
            return []
        value = _ZH_VALUE[verb]
        negative = value != "likes"
        category = "habit" if value.startswith("does not") else "preference"
        key = f"{'diet' if category == 'habit' else 'opinion'}:{obj}"
    conf = STRONG if verb in _STRONG_WORDS else EXPLICIT
    return [_cand(category, key, value, conf, _changed(clause, negative))]


# ---- dated events ---------------------------------------------------------------------------
_EVENT_NOUNS = tuple(
    "interview meeting appointment flight trip exam wedding birthday party conference deadline launch vacation "
    "holiday 面试 会议 开会 出差 考试 婚礼 生日 聚会 航班 旅行 体检 上线 发布 截止 约会 年会 答辩".split()
)
_FUTURE = re.compile(
    r"\b(will|going to|have an?|have my|'ve got|is on|is scheduled|plan to|"
    r"planning to|is due|due on|moved to|rescheduled|booked|scheduled|signed up)\b|要|将|会|打算|准备|计划|"
    r"有个|有一个|安排|定在|改到|推迟到|约了|报名了|预约了",
    re.I,
)


def _event(certain: str, sentence: str, when: datetime | None) -> list[Candidate]:
    """A dated event in what ``sentence`` says for sure (``certain``, its unhedged start)."""
    if not _FUTURE.search(certain):
        return []
    today = (when or datetime.now(UTC)).date()
    day = date_in(certain, today)
    if day is None or day < today:
        return []
    noun = next((n for n in _EVENT_NOUNS if n in certain.lower()), None)
    key = f"event:{noun}" if noun else f"event:{day.isoformat()}"
    expires = datetime(day.year, day.month, day.day, tzinfo=UTC) + timedelta(days=1)
    value = f"{day.isoformat()}: {sentence.strip()}"
    return [_cand("fact", key, value, EXPLICIT, _changed(sentence, False), 0.7, expires.timestamp())]


def _dedupe(cands: list[Candidate]) -> list[Candidate]:
    seen: dict[tuple[str, str], Candidate] = {}
    for c in cands:
        prev = seen.get((c.category, c.key))
        if prev is None or c.confidence > prev.confidence:
            seen[(c.category, c.key)] = c
    return list(seen.values())
