"""Rule-based extraction of explicit statements (pure): the offline path, Chinese and English.

Only what a person says plainly about themselves becomes a candidate fact: their name,
what to call them, likes and dislikes, favourites, foods they do not eat or are allergic
to, the tone they want, (``extract_dates``) their birthday and dated events ahead of them,
and (``extract_life``) where they work, live and study, their job and pets. Hedged
statements ("I think I like Python", "我觉得我可能喜欢"), wishes ("我想养只猫"), former
states ("I used to live in Paris"), questions and conditionals are skipped: a guess is not
a fact. A key names the thing and a value is the fact, never the rest of the sentence
("我喜欢在周末的时候去公园跑步然后喝杯咖啡" is ``opinion:公园跑步``).

A change is said as one, with the "corrected" source that supersedes: a switch
("我现在不喝咖啡了，改喝茶": ``diet:咖啡`` = does not drink, ``diet:茶`` = drinks), and a
former like beside what holds now ("以前喜欢猫，现在喜欢狗": ``opinion:猫`` = no longer
likes). ``tiers.profile.settled`` then shows the older ``opinion:咖啡`` = likes as closed.

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
from datetime import datetime

from ..models import Candidate
from ..text.lazy_re import lazy
from ..text.segment import STOPWORDS
from ..text.slices import LIMIT, handing_over, pieces
from .clauses import CLAUSE, OPENERS, certain_end, clause_spans, is_hedged, is_question, question_start, sentence_spans
from .extract_dates import birthday, dated_facts
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
from .speaker import FIRST_PERSON, OTHER, as_said, joined, sentences, unfilled

__all__ = ["CORRECTED", "EXPLICIT", "JOB_FIELDS_ZH", "PARTNER_PREGNANT", "PET_KINDS", "STRONG", "clause_spans",
           "extract", "is_hedged", "is_question", "question_start", "sentence_spans", "certain_end"]  # fmt: skip

# a wish, a plan not carried out, a dream or a former state says nothing about how things are
_WISH = lazy(
    r"(?:^|[我你也还很真好都超挺太就在正])(?:想|希望|打算|准备|考虑|梦见|梦到)|下辈子|以前|之前|曾经|当年|小时候"
    r"|^等|等到|到时候"
    r"|\b(?i:wish|hope to|hoping to|want to|wanna|would love|'d love|someday|one day|dream(?:ing)? of|"
    r"thinking (?:of|about)|considering|plan(?:ning)? to|gonna|going to|will|'ll|used to|formerly|back then)\b"
)
_CHANGE_EN = lazy(
    r"\b(anymore|any more|no longer|now|actually|these days|nowadays|instead|"
    r"changed my mind|moved to|rescheduled|switched|stopped|quit|gave up|given up)\b",
    re.I,
)
_LASTING = lazy(r"\b(?i:these days|nowadays)\b")
_CHANGE_ZH = lazy(r"不再|现在|其实|改成|改到|换成|已经|如今|最近开始|推迟到|提前到|改为")

_NAME_EN = lazy(r"\b(?i:my name is) ([A-Z][\w'-]*(?: [A-Z][\w'-]*)?)")
_CALL_EN = lazy(r"\b(?:please |you can |just )?call me ([A-Z][\w'-]*(?: [A-Z][\w'-]*)?)", re.I)
_NAME_ZH = lazy(
    r"(?<![叫你他她])我(?:的名字)?(?:叫|是叫|名叫)(?![了过着])"
    r"([\u4e00-\u9fff]{1,4}?|[A-Za-z][\w-]{0,20})(?=[，。！,.!\s]|$|今年|来自|是)"
)
_NAME_ZH2 = lazy(r"我的名字是([\u4e00-\u9fff]{1,4}?|[A-Za-z][\w-]{0,20})(?=[，。！,.!\s]|$)")
_CALL_ZH = lazy(r"叫我([\u4e00-\u9fffA-Za-z]{1,10}?)(?=就好|就行|就可以|吧|好了|[，。！,.!\s]|$)")
_TONE_ZH = lazy(r"(?:请|麻烦)?(?:你)?(?:用|以|使用)(.{1,12}?)的?(?:语气|口吻|风格)")
_TONE_EN = lazy(
    r"\b(?:use|answer in|reply in|talk to me in|speak in|respond in|write in)"
    r" an? ([\w -]{1,30}?) (?:tone|style|voice)\b",
    re.I,
)
_OBJ_END = r"(?=[.,!?;]| and | because | since | but |$)"
_ADV_ZH = (
    r"(?:现在|其实|已经|还是|一直|真的|非常|很|最|特别|超级|超|也|都|比较|挺|蛮|并|从来|向来|根本|完全|一点都|一点也|"
    r"实在|可|最近|贼|巨|好|太|每天|天天|平时|总是)*"
)
_LIKE_EN = lazy(
    r"\bI (?:really |absolutely |truly |do |still |now |actually |also |just )?"
    r"(love|like|enjoy|adore|prefer|hate|dislike|detest|can't stand|cannot stand|don't like|"
    r"do not like|no longer like|don't enjoy|don't eat|do not eat|never eat|no longer eat|don't drink|do not drink|"
    r"never drink|no longer drink)\s+(.{1,60}?)"
    r"(?=[.,!?;]| and | because | since |$)",
    re.I,
)
_FAN_WORDS = r"(?: (?:big|huge|massive|great|total|die-?hard|lifelong|long-?time|true|real|biggest))*"
_IM_EN = r"\bI(?:'m| am)(?: really| also| still| just| such)?"
_FAN_EN = lazy(
    rf"{_IM_EN}( not)?(?: really| exactly| much)?(?: (?:a|an))?{_FAN_WORDS} fan of (.{{1,40}}?){_OBJ_END}"
    rf"|{_IM_EN} (?:a|an){_FAN_WORDS} ((?:[\w'&-]+ ){{0,2}}?[\w'&-]+) fan\b",
    re.I,
)
_INTO_EN = lazy(
    r"\bI(?:'m| am)(?: really| also| still| just| so| totally| super| very| seriously| kinda)*( not)?"
    r"(?: (?:really|so|totally|super|very|that|too|heavily))* (?:into|obsessed with|addicted to|hooked on|"
    rf"crazy about|passionate about|mad about|nuts about|in love with) (.{{1,40}}?){_OBJ_END}",
    re.I,
)
_NO_EAT_EN = lazy(
    r"\bI(?:'ve| have)?(?: just| also| recently| completely)? (?:stopped (?:eating|drinking)|quit (?:eating|drinking)"
    r"|gave up (?:eating|drinking)|gave up|given up|cut out|can't eat|cannot eat|can not eat|can't drink|cannot drink"
    r"|avoid eating|avoid drinking|don't do|can't have|cannot have) "
    rf"(.{{1,30}}?){_OBJ_END}"
    rf"|\bI(?:'m| am)(?: \w+ly)? (?:cutting out|cutting down on|avoiding) (.{{1,30}}?){_OBJ_END}",
    re.I,
)
_LIKE_ZH = lazy(
    rf"我{_ADV_ZH}"
    r"(不再喜欢|不喜欢|不爱吃|不爱喝|不爱|爱死了?|从不吃|不能吃|不能碰|吃不了|不碰|不吃|不喝|受不了|忍不了|讨厌|喜欢上了?|喜欢|迷上了?|"
    r"爱上了?|爱吃|爱喝|喜爱|热爱|爱)"
    r"([^，。！？；,.!?;\s].{0,19}?)(?=[，。！？；,.!?;]|但|因为|和你|就|的话|$|然后|还要|还得|而且|并且|所以)"
)
# the topic first: "榴莲我真的受不了", "牛肉我是不吃的"
_TOPIC_ZH = lazy(
    rf"^([\u4e00-\u9fffA-Za-z]{{1,10}}?)我{_ADV_ZH}(?:是)?(?:一口都|绝对|坚决|真)?"
    r"(不吃|不喝|不碰|从不吃|不能吃|不能碰|吃不了|受不了|忍不了|不喜欢|讨厌|喜欢|爱吃|爱)(?:的|了|啊|哈|呀|啦)*$"
)
_TOPIC_BARE_ZH = lazy(
    rf"^((?:(?!我)[\u4e00-\u9fffA-Za-z]){{1,10}}?){_ADV_ZH}(?:是)?(受不了|忍不了|劝退)(?:的|了|啊|哈|呀|啦)*$"
)  # "香菜真的受不了", "榴莲太劝退了": nobody else is in the clause to be unable to stand it
_NOT_TOPIC = lazy(
    r"^(?:真的?|实在|确实|简直|完全|[今明昨前后]天|早上|中午|晚上|今晚|现在|最近|平时|以后|这|那|什么|啥|反正|其实|所以|哈)"
)
# what someone cannot do without: "人生不能没有火锅", "我离不开咖啡", "can't live without coffee"
_CANT_DO_WITHOUT = lazy(
    r"(?:^|我)(?:的)?(?:人生|生活|每天)?(?:不能没有|离不开|少不了)([\u4e00-\u9fffA-Za-z]{1,10}?)(?=[，。！,.!]|$|了|啊|呀)"
    r"|\b(?:I )?(?:can't|cannot|couldn't) live without ([\w' -]{1,30}?)(?=[.,!?;]|$)",
    re.I,
)
_INTEREST_ZH = lazy(
    rf"我{_ADV_ZH}对([\u4e00-\u9fffA-Za-z]{{1,12}}?){_ADV_ZH}(不感兴趣|没兴趣|没什么兴趣|无感|感兴趣|有兴趣|着迷|上瘾)"
)
_FAN_ZH = lazy(
    r"我(?:也|就|可)?是(?:个|一个|一名|一枚)?([\u4e00-\u9fffA-Za-z]{1,8}?)的?"
    r"(?:铁粉|死忠粉|忠实粉丝|粉丝|脑残粉|头号粉丝|控)(?=[，。！,.!\s]|$|一枚|哈|啦|呀)"
)
_FAV_ZH = lazy(
    r"我(?:现在)?最(?:喜欢|爱)的(?:一[本部首个家种位只款道])?(.{1,8}?)(?:现在)?"
    r"(?:是|就是|还是|永远是|当然是|绝对是|变成了|换成了)(.{1,20}?)(?=[，。！,.!;；]|$)"
)
# "火锅永远是我的最爱", "我的天敌是香菜": a favourite without its kind is a strong like; a nemesis
_BELOVED = "最爱|心头好|本命|真爱|挚爱|白月光"
_NEMESIS = "天敌|克星|噩梦"
_BELOVED_ZH = lazy(
    r"^([\u4e00-\u9fffA-Za-z《》·]{1,12}?)(?:永远|一直|绝对|就|才|真的|也)*是我(?:的|心中的|心里的)?"
    rf"({_BELOVED}|{_NEMESIS})(?![\u4e00-\u9fff])"
    rf"|我的({_BELOVED}|{_NEMESIS})(?:永远|一直|绝对|就)*是([\u4e00-\u9fffA-Za-z《》·]{{1,12}}?)(?=[，。！,.!]|$|了|啦)"
)
_NEMESIS_EN = lazy(
    r"^([\w' -]{1,40}?) (?:is|are) (?:definitely |truly )?(?:my (?:nemesis|kryptonite|arch-?enemy|worst enemy)\b"
    r"|(?:a (?:hard |big |total )?no|not for me|a no-go|a dealbreaker)(?: for me)?$)"
    r"|\bmy (?:nemesis|kryptonite|arch-?enemy|worst enemy) (?:is|has to be|would be) ([\w' -]{1,40}?)(?=[.,!;]|$)",
    re.I,
)
_FAVOURITE = r"(?:all-time |absolute |current |new |ultimate |personal )?(?:favou?rite|fave|fav)"
_FAV_EN = lazy(
    rf"\bmy {_FAVOURITE} ([\w ]{{1,30}}?) (?:is|has become|has to be|would be|must be|is still|are)"
    r" (?:now |still |definitely |always )?([\w' -]{1,40}?)(?=[.,!;]| now\b|$)",
    re.I,
)
_FAV_INV_EN = lazy(
    rf"^([\w' -]{{1,40}}?) (?:is|are)(?: definitely| totally| still| always| forever)? my {_FAVOURITE}"
    r"(?: ([\w -]{1,20}?))?(?: ever| of all time)?$"
    r"|^([\w' -]{1,40}?) (?:is|are) (?:the best part of my (?:day|week|weekend|morning)|my happy place"
    r"|my guilty pleasure)",
    re.I,
)
_DIET_EN = lazy(
    r"\bI(?:'m| am|'ve been| have been)(?: \w+ly)?(?: a| an)?(?: strict| full| lifelong)?"
    r" (vegetarian|vegan|pescatarian|halal|kosher|teetotal|plant-based)\b",
    re.I,
)
_DIET_ZH = lazy(rf"我{_ADV_ZH}(?:是|在|开始|改|改成|换成)?(吃素|吃全素|吃斋|素食|纯素)(?:主义)?者?")
# a diet someone keeps, named as they name it: 戒糖, 戒碳水 (not a habit that is no food: 戒烟)
_QUIT_ZH = lazy(
    rf"我{_ADV_ZH}(?:在|开始|正在)?戒(?:了|掉)?(?!烟|网|赌|手机|游戏|熬夜|拖延|了|掉)([\u4e00-\u9fff]{{1,3}}?)"
    r"(?=了|啦|中|呢|哈|呀|$|[一两三四五六七八九十几]|好|快|已经)"
)
_ON_DIET_EN = lazy(r"\bI(?:'m| am|'ve been| have been)(?: \w+ly)? on an? ([\w-]+(?: [\w-]+)?) diet\b", re.I)
_ALLERGY_EN = lazy(
    r"\bI(?:'m| am)(?: (?:super|very|so|really|extremely|deathly|severely|mildly|slightly|highly|badly|seriously"
    r"|also|quite|a bit|a little))* allergic to ([\w -]{2,40}?)(?=[,.!;]|$| and (?:I|it|that|so|my)\b| so | but )"
    r"|\bI(?:'ve got| have got| have| got| also have)(?: a| an| some)?(?: (?:really|very|pretty|super|severe|serious"
    r"|mild|bad|slight|deadly|life-threatening|major|minor|bit of a))* "
    r"(?:([\w-]+(?: [\w-]+)?) allerg(?:y|ies)\b|allerg(?:y|ies) to ([\w -]{2,30}?)(?=[,.!;]|$| and ))"
    r"|\bmy ([\w-]+(?: [\w-]+)?) allerg(?:y|ies)\b",
    re.I,
)
_ALLERGY_ZH = lazy(
    rf"我{_ADV_ZH}(?:有|是)?(?:对|吃)?([\u4e00-\u9fffA-Za-z、]{{1,12}}?)"
    r"(?:严重|特别|有点|有些|很|超级|超|非常|轻微|会|都|也|就|一定)*过敏"
    rf"|我{_ADV_ZH}(?:不能|不敢|没法|不可以)(?:碰|吃|喝)([\u4e00-\u9fffA-Za-z]{{1,10}}?)，(?:会|要|就|都|也)?过敏"
    r"|\bI (?:can't|cannot|can not) (?:eat|have|touch) ([\w -]{2,30}?), (?:I'm |I am )?allergic"
    # a topic first ("芒果我不能碰，过敏"), not a word that opens a clause ("记得/今天我不能碰芒果，过敏")
    rf"|^(?!{OPENERS})([\u4e00-\u9fffA-Za-z]{{1,10}}?)我{_ADV_ZH}(?:是)?真?"
    r"(?:不能|不敢)(?:碰|吃|喝)[^，]{0,4}，"
    r"(?:一(?:碰|吃|喝|闻|接触)就|会|要|就|都|也)?过敏"
)
_NOT_ALLERGEN = lazy(r"[不没对]|^(?:有|是|点|些|有点|有些|很|特别)$")
_PRONOUN = lazy(
    r"^(?:it|that|this|them|you|when|how|what|my|your|his|her|our|their|on|anything|everything|something|much|more"
    r"|another)\b|^的|^(?:这|那|它|你|他|她|什么|啥|了|得|过|着|太|很|一点|多|就)",
    re.I,
)
_LEAD_ZH = lazy(r"^(?:喝|吃|看|听|玩|用|去)(?=.)")
_LEAD_EN = lazy(r"^(?:to |the |a |an |eating |drinking |playing |watching |listening to )(?=.)", re.I)
# a Chinese object is a thing, not the rest of the sentence: no second verb phrase, no time before it
_JOIN_ZH = lazy(r"然后|还要|还得|而且|并且|所以|同时|以及")
_WHEN_ZH = lazy(
    r"^(?:在)?(?:[^，,]{1,8}?的时候|周末|平时|每天|晚上|早上|上午|中午|下午|半夜|睡前|饭后|下班后|"
    r"[0-9一二三四五六七八九十两]+点半?)+"
)
# 也/还 opens a second statement of the same subject: "我不吃香菜也不吃葱"
_ALSO_ZH = lazy(r"(?<=.)(?:也|还)(?=不|没|很|超|特别|挺|最|喜欢|爱|讨厌|受不了)")
_ALLERGEN_LEAD = lazy(r"^(?:一(?:吃|喝|碰|闻|接触|用)|吃了?|喝了?|碰|闻|接触)(?=.)")
_AND = lazy(r"和|、|跟|及|以及|与|\s*(?:&|\band\b|,)\s*")

# what someone drinks rather than eats: "gave up coffee" is a drink given up
_DRINK = lazy(
    r"咖啡|茶|酒|奶|可乐|饮料|果汁|美式|拿铁|豆浆|汽水|(?i:\b(?:coffee|tea|latte|espresso|cappuccino|beer|wine|"
    r"alcohol|booze|soda|coke|milk|juice|whiske?y|vodka|liquor|cocktails?|kombucha|matcha|decaf|sake|soju|drinks?|"
    r"drinking)\b)"
)
# a switch from one food or drink to another: "改喝茶", "换成豆浆了", "I switched to tea", "now I drink tea"
_SWITCH_ZH = lazy(
    rf"我{_ADV_ZH}(?:从(喝|吃)?([\u4e00-\u9fffA-Za-z]{{1,8}}?))?(?:改|换|转)(?:成|为|到)?了?(喝|吃)?"
    r"([\u4e00-\u9fffA-Za-z]{1,8}?)(?=[，。！,.!]|了|啦|吧|哈|$)"
)
_SWITCH_EN = lazy(
    r"\bI(?:'ve| have)?(?: just| now| since| finally)? (?:switched|changed|moved on|gone over|went over)"
    r"(?: from ([\w' -]{1,30}?))? to (?:drinking |eating )?([\w' -]{1,30}?)" + _OBJ_END
    + r"|\bI (?:only |just |mostly )?(?:drink|eat) ([\w' -]{1,30}?) (?:now|instead|these days|nowadays)\b"
    r"|\b(?:now|these days|nowadays),? I (?:only |just |mostly )?(?:drink|eat) ([\w' -]{1,30}?)" + _OBJ_END,
    re.I,
)
_CONSUME_EN = lazy(r"\b(?i:drink|drinking|drank|eat|eating|ate|food|diet)\b")
# what someone liked, ate or drank before and does no longer: "以前喜欢猫，现在喜欢狗", "I used to drink coffee"
_FORMER = lazy(r"以前|之前|曾经|原来|过去|从前|\b(?i:used to)\b")
_FORMER_ZH = lazy(
    rf"(?:我{_ADV_ZH}(?:以前|之前|曾经|原来|过去|从前)|(?:以前|之前|曾经|原来|过去|从前)我){_ADV_ZH}(喜欢|爱吃|爱喝|爱|喝|吃)"
    r"([^，。！？；,.!?;\s][\u4e00-\u9fffA-Za-z]{0,11}?)(?=[，。！？；,.!?;]|$|的|了|但|可是|现在|如今)"
)
_FORMER_EN = lazy(
    r"\bI used to (?:really |absolutely |totally )?(love|like|enjoy|adore|drink|eat)\s+(.{1,40}?)"
    r"(?=[.,!?;]| and | but | until | before |$)",
    re.I,
)
_NOW = lazy(r"现在|如今|后来|目前|\b(?i:now|these days|nowadays|anymore|any more|no longer)\b")
_STILL = lazy(r"(?:现在|如今|目前)(?:也|还|依然|仍然|照样|一样)|\b(?i:still|and now too)\b")
_FORMER_VALUE = {
    "喜欢": "no longer likes", "爱": "no longer likes", "爱吃": "no longer likes", "爱喝": "no longer likes",
    "love": "no longer likes", "like": "no longer likes", "enjoy": "no longer likes", "adore": "no longer likes",
    "吃": "does not eat", "eat": "does not eat", "喝": "does not drink", "drink": "does not drink",
}  # fmt: skip

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


def extract(text: str, when: datetime | None) -> list[Candidate]:
    """Candidate facts stated plainly in ``text`` (said at ``when``, for relative dates); a
    text past ``text.slices.LIMIT`` piece by piece (facts come from statements, which are short)."""
    if len(text) > LIMIT:
        return _dedupe([c for piece in handing_over(pieces(text)) for c in _extract(piece, when)])
    return _extract(text, when)


def _extract(text: str, when: datetime | None) -> list[Candidate]:
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
        dated = cut is not None and mine and not OTHER.match(unfilled(sentence))
        said_before = len(out)
        for clause in joined(CLAUSE.split(sentence)):
            said, after = as_said(clause, mine)
            facts = []
            if said is not None and not is_hedged(said):
                if not _WISH.search(said):
                    facts = _clause_facts(said, changed) + life_facts(said, text, moved) + _switches(said, text)
                    facts += birthday(said, when, changed)
                elif not _WISH.search(_FORMER.sub("", said)):  # a former state only: what no longer holds
                    facts = _former(said, text)
            out.extend(facts)
            # after a topic ("南京大学毕业的，计算机专业"), the speaker goes on if it was theirs
            mine = after if after is not None else bool(facts) or bool(FIRST_PERSON.search(said or ""))
        if dated:
            born = any(c.key == "birthday" for c in out[said_before:])
            out.extend(dated_facts(sentence[:cut], when, changed, born))
    return _dedupe(out)


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
            value = trim(_JOIN_ZH.split(m.group(2))[0] if pat is _FAV_ZH else m.group(2))  # not "…然后…"
            out.append(_cand("preference", f"favorite:{m.group(1).strip().lower()}", value, EXPLICIT, changed))
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
            for what in _allergens(next(g for g in m.groups() if g)):
                out.append(_cand("fact", f"allergy:{what}", "allergic", EXPLICIT, changed, 0.9))
    for m in _NO_EAT_EN.finditer(clause):
        food = m.group(1) or m.group(2)
        if not re.match(r"\w+ing\b", food):  # "gave up smoking": not a food
            drink = re.search(r"drink", m.group(0), re.I) or _DRINK.search(food)
            out += _opinion("don't drink" if drink else "don't eat", food, clause, english=True)
    return out


def _allergens(what: str) -> list[str]:
    """The things one is allergic to, each on its own: 海鲜和芒果, "shellfish and tree nuts", 一吃海鲜."""
    out = []
    for part in _AND.split(what):
        part = _ALLERGEN_LEAD.sub("", trim(part)).lower().strip()
        if part and not _NOT_ALLERGEN.search(part) and not _PRONOUN.search(part) and not _only_function_words(part):
            out.append(part)
    return out


def _switches(clause: str, text: str) -> list[Candidate]:
    """A switch to another food or drink, a change that makes the new one current and closes the
    old: "改喝茶", "我从咖啡换成了茶", "I switched from coffee to tea", "now I drink tea"."""
    out = []
    for m in _SWITCH_ZH.finditer(clause):
        verb_was, was, verb, now = m.groups()
        kind = verb or ("喝" if _DRINK.search(now) else None)
        if kind is None or (kind == "吃" and re.fullmatch(r"全?素|斋", now)):  # 改吃素: a diet (_DIET_ZH)
            continue
        out += _consumes(now, kind == "喝", True, english=False)
        if was:
            out += _consumes(was, (verb_was or kind) == "喝", False, english=False)
    for m in _SWITCH_EN.finditer(clause):
        now = m.group(2) or m.group(3) or m.group(4)
        said = m.group(0).lower()
        if re.search(r"\bdrink", said) or _DRINK.search(now):
            drink = True
        elif re.search(r"\beat", said) or _CONSUME_EN.search(text):
            drink = bool(re.search(r"\b(?:drink|drinking|drank)\b", text, re.I))
        else:  # "switched to Figma": a job, a phone or a tool
            continue
        out += _consumes(now, drink, True, english=True)
        if m.group(1):
            out += _consumes(m.group(1), drink, False, english=True)
    return out


def _consumes(obj: str, drink: bool, now: bool, english: bool) -> list[Candidate]:
    """What someone eats or drinks now (``now``), or no longer, said as a change."""
    obj = (_LEAD_EN if english else _LEAD_ZH).sub("", trim(obj)).strip()
    obj = obj.lower() if english else obj
    if not obj or _PRONOUN.search(obj) or _only_function_words(obj) or (not english and re.search(r"[不没我]", obj)):
        return []
    value = ("drinks" if drink else "eats") if now else ("does not drink" if drink else "does not eat")
    return [_cand("habit", f"diet:{obj}", value, EXPLICIT, True)]


def _former(clause: str, text: str) -> list[Candidate]:
    """What someone liked, ate or drank before and no longer does, said beside what holds now
    ("以前喜欢猫，现在喜欢狗") or with "used to": a change that closes the old value."""
    if _STILL.search(text):
        return []
    out = []
    found = [*_FORMER_EN.finditer(clause)] + ([*_FORMER_ZH.finditer(clause)] if _NOW.search(text) else [])
    for m in found:
        verb, obj, english = m.group(1).lower(), m.group(2), m.re is _FORMER_EN
        value = _FORMER_VALUE[verb]
        if value.startswith("does not"):
            out += _consumes(obj, value.endswith("drink"), False, english)
            continue
        obj = (_LEAD_EN if english else _LEAD_ZH).sub("", trim(obj)).strip()
        obj = obj.lower() if english else _object_zh(obj)
        if obj and not _PRONOUN.search(obj) and not _only_function_words(obj):
            out.append(_cand("preference", f"opinion:{obj}", value, EXPLICIT, True))
    return out


def _object_zh(obj: str) -> str:
    """The thing a Chinese like or dislike is about, not the rest of the sentence: "在周末的时候去
    公园跑步然后喝杯咖啡" → 公园跑步, "我妈做的红烧肉" → 红烧肉; "" when it is a clause about someone."""
    obj = _JOIN_ZH.split(obj)[0]
    obj = _LEAD_ZH.sub("", _WHEN_ZH.sub("", obj)).strip()
    if "我" in obj:  # "别人在我工作的时候打扰我": a clause, not a thing; "我妈做的红烧肉": its head
        head = obj.rsplit("的", 1)[1] if "的" in obj else ""
        return head if len(head) >= 2 and "我" not in head else ""
    return obj


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
    pieces = _ALSO_ZH.split(clause)  # "我不吃香菜也不吃葱": two statements of one subject
    for piece in (p if i == 0 or p.startswith("我") else f"我{p}" for i, p in enumerate(pieces)):
        for m in _LIKE_ZH.finditer(piece):
            out += _opinion(m.group(1), m.group(2), piece, english=False)
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
    if not english:
        obj = _object_zh(obj)
        if not obj:
            return []
    if english:
        negative = verb.startswith(("don't", "do not", "no longer", "never", "can"))
        if verb in ("don't eat", "do not eat", "never eat", "no longer eat"):
            category, key, value = "habit", f"diet:{obj.lower()}", "does not eat"
        elif verb in ("don't drink", "do not drink", "never drink", "no longer drink"):
            category, key, value = "habit", f"diet:{obj.lower()}", "does not drink"
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


def _dedupe(cands: list[Candidate]) -> list[Candidate]:
    seen: dict[tuple[str, str], Candidate] = {}
    for c in cands:
        prev = seen.get((c.category, c.key))
        if prev is None or c.confidence > prev.confidence:
            seen[(c.category, c.key)] = c
    return list(seen.values())
