"""Whose clause a statement is (pure): the speaker's, said ("我在字节上班") or left out ("在字节搬砖
中" while the speaker is still the subject), or someone else's ("我朋友在阿里", "my brother"), which
gives the speaker nothing. Fillers ("btw", "提前说一声", emoji) are taken off first.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .extract_life import PARTNER_PREGNANT, job_title

# a full stop after a title or an abbreviation ("St. Mary's", "Dr. Lee") does not end a sentence
SENTENCE = re.compile(
    r"(?:\b(?:St|Mr|Mrs|Ms|Dr|Prof|Jr|Sr|Inc|Ltd|Co|Corp|vs|etc|approx)\.(?=\s)|[^。！？!?.\n])+[。！？!?.]?"
)
QUESTION = re.compile(r"[?？]|吗[。！!]?$|呢[。！!]?$|是不是|有没有")
_EMOJI = "\U0001f000-\U0001faff\u2600-\u27bf\ufe0f\u200d"
_FILLER = re.compile(
    r"^(?:(?:哈{2,}|嘿嘿|嗯+|哦+|噢|诶|欸|对了|话说|另外|顺便说一下|顺便|提前说一声|提前说下|私下跟你说|跟你说|说真的|说实话|"
    r"讲真|老实说|提醒一下|私下说|谁懂啊?|(?i:btw|lol|haha+|oh|ok|okay|so|well|yeah|yep|anyway|also|and|hey|"
    r"just so you know|fyi|just between us|between you and me|between us|"
    rf"for the record|heads up|honestly|tbh|psa))(?:[\s,，!！~～:：]+|$)|[{_EMOJI}\s]+)++"
)  # possessive: nothing follows, so the first reading is the answer; no split of a run of spaces is tried
# The fillers that end a clause, read backwards: the text reversed, so the longest filler tail is
# a match at its start. Forwards, "(?:filler)+$" tried every start and every way of splitting
# a run of spaces between its repeats: 22 spaces before a letter took 12 s. Each filler is its
# words reversed (lmao: oaml) with the separators that may come before it after it.
_END_FILLER_REVERSED = re.compile(
    rf"(?:(?:\b(?i:lol|oaml|a+hah|eheh|hbt|wtb|iyf|omi|dx)|哈{{2,}}|嘿嘿|h{{3,}}|呵呵|\):|D:)[\s,，]*"
    rf"|[\s~～{_EMOJI}]+)++"
)
_RELATIONS_ZH = (
    "朋友|好友|同学|同事|室友|舍友|闺蜜|老婆|老公|媳妇|女朋友|男朋友|女友|男友|对象|妹妹|姐姐|哥哥|弟弟|妈妈|爸爸|爸妈|"
    "父母|家人|妈|爸|儿子|女儿|孩子|老板|领导|邻居|表哥|表姐|表妹|表弟"
)
_RELATIONS_EN = (
    "best friend|friend|roommate|colleague|coworker|sister|brother|wife|husband|girlfriend|boyfriend|partner|mom|"
    "mum|dad|mother|father|parents|boss|son|daughter|kids?|neighbou?r|cousin|family"
)
OTHER = re.compile(
    rf"^(?:你|您|他|她|它|TA|大家|谁|有人|别人|人家|(?:我的?)?(?:{_RELATIONS_ZH})"
    rf"|(?i:(?:you|he|she|they|his|her|their|someone|everyone|nobody|who)\b|my (?:{_RELATIONS_EN})s?\b))"
)
# a greeting that opens a clause ("大家好～", "hi all,"): it says nothing of anyone; what
# follows it has its own subject, and a clause that only greets leaves the speaker's going on
GREETING = re.compile(
    r"(?:(?:大家|各位|你们?|您)?(?:早上|上午|中午|下午|晚上)好(?:呀|啊|哇|哈)?|(?:大家|各位|你们?|您)好(?:呀|啊|哇|哈)?"
    r"|(?:大家|各位)?(?:早安|晚安|早)(?:呀|啊|哇|哈)?"
    r"|(?<![A-Za-z])(?i:hi|hello|hey|good (?:morning|afternoon|evening)|morning)"
    r"(?:\s+(?:all|everyone|guys|folks|there))?(?![A-Za-z]))"
    r"(?:[\s!！~～.。,，]+|$)"
)
_SELF_ZH = r"本人|鄙人|在下|俺|咱(?!们)"  # what people call themselves instead of 我
_SELF = re.compile(rf"^(?:我|{_SELF_ZH}|(?-i:I)\b|(?i:my|me|myself|we|our)\b)")
FIRST_PERSON = re.compile(r"我|本人|\b(?-i:I)\b|\b(?i:my|me|our)\b")
# as extract_life's _ADV_ZH: no word is two others in a row (刚刚 is 刚 twice), so a run of them
# has one reading
_TIME_ZH = (
    r"(?:目前|现在|现(?=就职|任职|居)|如今|最近|刚|已经|一直|终于|总算|其实|本来|平时|以前|之前|原来|曾经|从前|"
    r"上个?月|这个月|去年|前年|今年|年初|年底|"
    r"前段时间|前阵子|上周|上礼拜|[0-9一二三四五六七八九十两几半]++个?(?:年|月)(?:前|了)?)"
)
_PREDICATE_ZH = re.compile(
    rf"^((?:{_TIME_ZH}[，,\s]*)*)(?=在|住|从|对|不|从来|从不|是|做|干|当|搞|搬|跳槽|跳到|跳去|离职|辞职|离开|换|入职|"
    r"加入|就职|任职|供职|定居|常驻|坐标|base(?=在|[\u4e00-\u9fff])|养|有|吃|喝|学|读|念|主修|最喜欢|最爱|喜欢|爱|讨厌|受不了|迷上|爱上|超|"
    r"改(?=喝|吃|成|为)|"
    r"特别|也|还|移居)"
)
_PREDICATE_EN = re.compile(
    r"^((?:(?:just|recently|finally|currently|still|also|now|really|totally|actually|officially|literally|basically"
    r"|always|never|already|mostly|honestly)\s+)*)([A-Za-z]+(?:-[a-z]+)?|can't|don't)\b",
    re.I,
)
_IM_WORDS = frozenset(
    "allergic based employed obsessed into vegetarian vegan pescatarian not big huge massive married engaged working "
    "living studying majoring doing pursuing finishing moving cutting avoiding loving expecting".split()
)
_MY_WORDS = frozenset("fave fav favorite favourite new".split())
_I_WORDS = frozenset(
    "work live moved relocated left quit joined started got love hate enjoy adore prefer gave stopped packed settled "
    "study switched dislike can't don't have adopted graduated".split()
)
_LABEL_ZH = re.compile(r"^(?:我(?:是|就是)?)?(?:一[名个枚位只]|个)?(.+?)(?:一枚|一名|本人|在此)$")
_HERE_EN = re.compile(r"^(?:an? )?(.{2,40}?)\s+here$", re.I)
# a clause that finishes the one before: its name ("养了只柯基，叫豆豆"), or why ("不能碰芒果，过敏")
_CONTINUES = re.compile(
    r"^(?:一(?:碰|吃|喝|闻|接触)就|会|要|就|都|也)?过敏(?:的|了|啦)?$|^(?i:(?:I'm |I am )?allergic)$"
    r"|^(?:它|他|她)?(?:的名字|名字)?(?:叫做|名叫|叫)(?!我)"
    r"|^(?i:(?:his|her|its) name(?:'s| is)|(?:he|she|it)(?:'s| is) (?:called|named)|called|named)\b"
    r"|^(?-i:[A-Z][\w'-]*)$"
)
_SELF_QUESTION = re.compile(
    r"^(?:(?i:and |so )?(?i:my) ([\w' -]{2,30})|(我的|我最喜欢的|我最爱的)([\u4e00-\u9fff]{1,6}))[?？]$"
)


def sentences(text: str) -> Iterator[str]:
    """The sentences of ``text``; "my job? data engineer" (a question asked to answer it)
    comes back as one statement: "my job is data engineer"."""
    parts = [s.strip() for s in SENTENCE.findall(text)]
    i = 0
    while i < len(parts):
        asked = _SELF_QUESTION.match(parts[i])
        if asked and i + 1 < len(parts) and not QUESTION.search(parts[i + 1]):
            yield (
                f"my {asked.group(1)} is {parts[i + 1]}"
                if asked.group(1)
                else asked.group(2) + asked.group(3) + "是" + parts[i + 1]
            )
            i += 2
            continue
        if parts[i]:
            yield parts[i]
        i += 1


def unfilled(clause: str) -> str:
    """The clause without chat fillers around it: "lol", "哈哈哈", "btw", emoji."""
    return _without_end_filler(_FILLER.sub("", clause.strip())).strip()


def _without_end_filler(text: str) -> str:
    """``text`` without the fillers it ends with ("好的 lol 😂" → "好的"), in one pass.

    >>> _without_end_filler("好的, lol  哈哈哈~"), _without_end_filler("lolx")
    ('好的', 'lolx')
    """
    tail = _END_FILLER_REVERSED.match(text[::-1])
    return text[: len(text) - tail.end()] if tail else text


def joined(clauses: list[str]) -> list[str]:
    """A clause that only names what the one before spoke of ("养了只柯基，叫豆豆", "meet my
    rabbit, Clover") or says why ("我不能碰芒果，过敏") is part of it."""
    out: list[str] = []
    for clause in clauses:
        clause = unfilled(clause)
        if not clause:
            continue
        if out and _CONTINUES.match(clause):
            out[-1] += ("，" if re.search(r"[\u4e00-\u9fff]", clause[:1]) else ", ") + clause
        else:
            out.append(clause)
    return out


def as_said(clause: str, mine: bool) -> tuple[str | None, bool | None]:
    """The clause as the speaker says it of themselves, its subject written out (None: it is
    someone else's), and whether the speaker is the subject a next clause without one goes
    on with (None: a topic came first, and whose it was decides)."""
    if greeting := GREETING.match(clause):
        if greeting.end() == len(clause):
            return None, True
        clause = clause[greeting.end():]
    if OTHER.match(clause) and not PARTNER_PREGNANT.match(clause):
        return None, False
    if _SELF.match(clause):
        return _labelled(re.sub(rf"^(?:{_SELF_ZH})", "我", clause)), True
    if not mine:
        return None, False
    said = _with_subject(clause)
    return (said, True) if said is not None else (_labelled(clause), None)


def _with_subject(clause: str) -> str | None:
    """A clause without a subject with the speaker's written in ("在字节搬砖" → "我在字节搬砖",
    "allergic to cats" → "I'm allergic to cats"); None for one that has a subject or a topic."""
    if zh := _PREDICATE_ZH.match(clause):
        return clause[: zh.end(1)] + "我" + clause[zh.end(1) :]
    here = _HERE_EN.match(clause)
    if here:  # "teacher here", "vegetarian here", "severe nut allergy here"
        what = here.group(1)
        if what.lower().endswith("allergy"):
            return f"I have a {what}"
        return f"I'm a {what}" if job_title(what) else f"I'm {what}"
    en = _PREDICATE_EN.match(clause)
    if en is None:
        return None
    word = en.group(2).lower()
    if word == "been":
        subject = "I've "
    elif word in _IM_WORDS:
        subject = "I'm "
    elif word in _MY_WORDS:
        subject = "my "
    elif word in _I_WORDS:
        subject = "I "
    else:
        return None
    return subject + clause[:1].lower() + clause[1:]


def _labelled(clause: str) -> str:
    """ "程序员一枚", "华为员工一枚": a label someone gives themselves, as "我是…"."""
    label = _LABEL_ZH.match(clause)
    return f"我是{label.group(1)}" if label else clause
