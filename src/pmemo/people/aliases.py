"""Aliases of a person (pure): checking them, generating them from a name, learning them from text.

In a group chat one person goes by a display name that changes, the nicknames friends use
and an @handle. This module finds such names without an LLM; ``resolve.py`` finds them in text.

>>> generated_aliases("周霓")
['霓霓', '小霓', '阿霓', '老周', '小周', '周哥', '周姐', '周老师', '周总', '周工']
>>> learned_aliases("叫我霓霓就行")
[Learned(alias='霓霓', about='speaker', target=None, span=(2, 4))]
>>> mentions("@霓霓 今晚来吗")
[('霓霓', (1, 3))]
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from dataclasses import dataclass

from ..errors import InvalidInput
from ..models import ALIAS_SOURCES
from ..text.lazy_re import lazy
from ..text.segment import STOPWORDS
from ..text.slices import LIMIT, handing_over, spans

__all__ = [
    "ALIAS_SOURCES",
    "MAX_ALIAS_CHARS",
    "Learned",
    "check_alias",
    "generated_aliases",
    "is_han",
    "learned_aliases",
    "mentions",
]

MAX_ALIAS_CHARS = 64

_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_LATIN = "A-Za-z\u00c0-\u024f"
_SPACE = lazy(r"\s+")
# Cc/Cf/Cs: control and format characters and lone surrogates have no place in a name
_CONTROL = frozenset({"Cc", "Cf", "Cs"})


def is_han(char: str) -> bool:
    """Whether ``char`` is a Chinese character (CJK unified ideograph).

    >>> is_han("霓"), is_han("N")
    (True, False)
    """
    code = ord(char)
    return 0x4E00 <= code <= 0x9FFF or 0x3400 <= code <= 0x4DBF or 0xF900 <= code <= 0xFAFF


def check_alias(value: object, field: str = "alias") -> str:
    """An alias or name given by a user, NFC-normalised with its whitespace collapsed.

    Raises InvalidInput naming ``field`` when it is not a non-empty string of at most 64
    characters without control characters.

    >>> check_alias("  Neko   Zhang ")
    'Neko Zhang'
    """
    if not isinstance(value, str):
        raise InvalidInput(f"{field} must be a string, got {type(value).__name__}")
    text = value.strip()
    bad = next((c for c in text if unicodedata.category(c) in _CONTROL), None)
    if bad is not None:
        raise InvalidInput(f"{field}={value!r} is invalid: it contains the control character "
                           f"U+{ord(bad):04X}; remove it")
    text = _SPACE.sub(" ", unicodedata.normalize("NFC", text))
    if not text:
        raise InvalidInput(f"{field}={value!r} is invalid: it is empty; give the name people use")
    if len(text) > MAX_ALIAS_CHARS:
        raise InvalidInput(f"{field}={text[:20]!r}... is invalid: it has {len(text)} characters; "
                           f"the limit is {MAX_ALIAS_CHARS}")
    return text


# ---- generated forms ------------------------------------------------------------------------

# The common single-character surnames (about 200, covering nearly everyone), and compound ones.
# A Han display name that does not start with one is a nickname ("小霓", "阿猫"): no forms.
_SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗高郑梁谢宋唐许韩邓冯曹彭曾肖田董潘袁蔡蒋余于杜叶程魏苏吕丁任卢姚沈"
    "钟姜崔谭陆范汪廖石金韦贾夏付傅方邹熊白孟秦邱侯江尹薛闫阎段雷龙黎史陶贺毛郝顾龚邵万覃武钱戴严莫孔向常汤康"
    "易乔赖文施洪辛柯庄章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮纪梅童凌毕单季裴霍涂成苗谷盛曲翁冉骆蓝路"
    "游靳管柴蒙鲍华喻祁房滕屈饶解牟艾尤阳时穆农卓古吉缪简车项连芦麦褚娄窦戚岑景党宫费卜冷晏席卫米杭巩池仇甄郁"
    "齐查伍荣聂温倪边桂练"
)
_COMPOUND_SURNAMES = frozenset(
    "欧阳 司马 诸葛 上官 东方 皇甫 令狐 慕容 尉迟 公孙 夏侯 长孙 宇文 司徒 端木 独孤 南宫 西门 轩辕 呼延 "
    "澹台 申屠 闻人 赫连 拓跋 完颜 百里 钟离 司空 鲜于 濮阳 淳于".split()
)
# "王总", "李姐", "张老师": a display name that is already a form of address is a nickname
_TITLE_ENDINGS = frozenset("哥姐总工师士叔姨爷婆妈爸嫂弟妹")
_SURNAME_FORMS = ("老{}", "小{}", "{}哥", "{}姐", "{}老师", "{}总", "{}工")

# Romanised surnames: "Zhang Wei" puts the surname first, and a surname alone fires too often.
_ROMAN_SURNAMES = frozenset(
    """wang li zhang liu chen yang huang zhao wu zhou xu sun ma zhu hu guo he lin luo gao zheng liang xie
    song tang han deng feng cao peng zeng xiao tian dong pan yuan cai jiang yu du ye cheng wei su lu ding
    ren yao shen zhong cui tan fan liao shi jin jia xia fu fang zou xiong bai meng qin qiu hou yin xue yan
    duan lei long tao mao hao gu gong shao wan qian dai mo kong xiang chang kang yi qiao lai wen hong xin
    ke zhuang zhan ou geng guan lan jiao bao ning shang ruan ji mei tong ling bi shan pei huo tu miao sheng
    qu weng ran lyu lv
    lee chan wong cheung leung ng ho lau chow tsang lam yip kwok tse chu lo fung kwan mak choi yeung au
    siu tam chiu hui ko ku law tsui yuen chung chin hsu hsieh tsai kuo""".split()
)
# Well-known English diminutives; small on purpose: a wrong guess fires on other people.
_DIMINUTIVES: dict[str, tuple[str, ...]] = {
    "alexander": ("Alex",), "alexandra": ("Alex",), "william": ("Will", "Bill"), "robert": ("Rob", "Bob"),
    "elizabeth": ("Liz", "Beth"), "katherine": ("Kate", "Katie"), "catherine": ("Kate", "Cathy"),
    "michael": ("Mike",), "jennifer": ("Jen", "Jenny"), "christopher": ("Chris",), "christina": ("Chris",),
    "jonathan": ("Jon",), "daniel": ("Dan", "Danny"), "samuel": ("Sam",), "samantha": ("Sam",),
    "benjamin": ("Ben",), "matthew": ("Matt",), "nicholas": ("Nick",), "thomas": ("Tom",),
    "anthony": ("Tony",), "joseph": ("Joe",), "james": ("Jim", "Jamie"), "margaret": ("Maggie", "Meg"),
    "rebecca": ("Becky",), "richard": ("Rick",), "david": ("Dave",), "steven": ("Steve",),
    "stephen": ("Steve",), "andrew": ("Andy",), "timothy": ("Tim",), "kenneth": ("Ken",),
    "jessica": ("Jess",), "gregory": ("Greg",), "jeffrey": ("Jeff",), "zachary": ("Zach",),
    "victoria": ("Vicky",), "patricia": ("Patty",), "abigail": ("Abby",), "frederick": ("Fred",),
    "theodore": ("Theo", "Ted"), "philip": ("Phil",), "phillip": ("Phil",), "peter": ("Pete",),
    "edward": ("Eddie",), "charles": ("Charlie",), "lawrence": ("Larry",), "vincent": ("Vince",),
}
_PART = lazy(rf"[{_HAN}]+|[{_LATIN}][{_LATIN}0-9_.'-]*(?: [{_LATIN}][{_LATIN}0-9_.'-]*)*")
# brackets and separators in a display name set off tags: "周霓-产品部", "霓霓(上海)"
_TAGGED = lazy(r"[()（）\[\]【】<>《》「」『』|/｜·•~～—]|(?<![A-Za-z0-9])-|-(?![A-Za-z0-9])")
_HANDLE_STEM = lazy(rf"([{_LATIN}]+)[_.\-0-9]")


def generated_aliases(name: str) -> list[str]:
    """Forms people commonly use for a display name, without an LLM; never the name itself.

    Chinese full names give given-name forms (霓霓, 小霓, 阿霓) and surname forms (老周, 周哥,
    周老师...); a nickname-like name gives none. Latin names give the first name and well-known
    diminutives, never the surname; a handle gives its leading letters.

    >>> generated_aliases("Neko Zhang"), generated_aliases("neko_zhang"), generated_aliases("William")
    (['Neko'], ['neko'], ['Will', 'Bill'])
    """
    clean = _SPACE.sub(" ", unicodedata.normalize("NFC", name)).strip()
    parts = [p for p in (p.rstrip(".'-_") for p in _PART.findall(clean)) if p]
    forms = _forms_of_parts(parts, tagged=bool(_TAGGED.search(clean)))
    out: dict[str, None] = {}
    for form in forms:
        shortest = 2 if any(is_han(c) for c in form) else 3
        if form != clean and len(form) >= shortest:
            out.setdefault(form, None)
    return list(out)


def _forms_of_parts(parts: list[str], tagged: bool) -> list[str]:
    """Each part of a name that reads as a name, and its forms: "周霓 Neko", "Neko 霓", "周霓-产品部",
    "周霓🌸" (a part that is the whole name is dropped by the caller)."""
    han = [p for p in parts if is_han(p[0])]
    has_latin = len(han) < len(parts)
    forms: list[str] = []
    for part in parts:
        if not is_han(part[0]):
            first = part.split(" ")[0].lower()
            if first not in _ROMAN_SURNAMES and first not in STOPWORDS:
                forms.append(part)
            forms += _latin_forms(part)
        elif _split_chinese(part) is not None:
            forms += [part, *_han_forms(part)]
        elif tagged:
            continue  # "产品部", "上海": a tag, not a name
        elif 2 <= len(part) <= 4:
            forms.append(part)  # "Neko 霓霓": the Chinese name the person goes by
        elif len(part) == 1 and han == [part] and has_latin and part not in _SURNAMES:
            forms += [part * 2, f"小{part}", f"阿{part}"]  # "Neko 霓": the given name
    return forms


def _split_chinese(name: str) -> tuple[str, str] | None:
    """(surname, given name) of a Chinese full name, or None for a nickname-like name."""
    if name[:2] in _COMPOUND_SURNAMES and 3 <= len(name) <= 4:
        return name[:2], name[2:]
    # four characters after a one-character surname are more often a phrase than a name
    if name[0] in _SURNAMES and 2 <= len(name) <= 3 and name[-1] not in _TITLE_ENDINGS:
        return name[0], name[1:]
    return None


def _han_forms(name: str) -> list[str]:
    split = _split_chinese(name)
    if split is None:
        return []
    surname, given = split
    if len(given) == 1:
        given_forms = [given * 2, f"小{given}", f"阿{given}"]
    else:
        # 晓东: 晓东, 东东, 阿东; "小东" is not how people shorten a two-character name
        given_forms = [given, given[-1] * 2, f"阿{given[-1]}"]
    return given_forms + [form.format(surname) for form in _SURNAME_FORMS]


def _latin_forms(run: str) -> list[str]:
    words = run.split(" ")
    first = words[0]
    stem = _handle_stem(first)
    if stem == "":
        return []
    handle = stem is not None
    first = stem or first
    if first.lower() in _ROMAN_SURNAMES or first.lower() in STOPWORDS:
        return []
    # a lone plain word is the name itself; a first name of several words, or a handle's stem, is a form
    forms = [first] if len(words) > 1 or handle else []
    short = _DIMINUTIVES.get(first.lower(), ())
    return forms + [s.lower() if first.islower() else s for s in short]


def _handle_stem(word: str) -> str | None:
    """The leading letters of a handle ("neko" of "neko_z", "Neko2001"): None for a plain word,
    "" for a handle without three leading letters."""
    match = _HANDLE_STEM.match(word)
    if match is None:
        return "" if any(c in "_.-" or c.isdigit() for c in word) else None
    stem = match.group(1)
    return stem if len(stem) >= 3 else ""


# ---- learned from messages --------------------------------------------------------------------


@dataclass(frozen=True)
class Learned:
    """A nickname a message gives: ``about`` the speaker ("叫我霓霓") or another person ("大家都叫她霓霓").

    ``target`` is the name the sentence uses for that other person ("周霓，大家都叫她霓霓" → 周霓),
    None for a bare pronoun; ``span`` is where the alias is in the text.
    """

    alias: str
    about: str  # "speaker" or "other"
    target: str | None
    span: tuple[int, int]


# a Chinese nickname runs to the first particle or punctuation: 叫我霓霓就行 / 叫我霓霓吧
_ZH_END = (r"(?:就行|就好|就可以|就成|吧|好了|啦|哈|呀|呢|嘛|哦|喔|噢|吗|么|了|的"
           r"|[\s，。！？!?,.;；：:、~～…）)」』】\"“”']|$)")
_ZH_ALIAS = rf"(?P<alias>[{_HAN}]{{1,4}}?(?={_ZH_END})|[A-Za-z][A-Za-z0-9_.'-]*[A-Za-z0-9]|[A-Za-z])"
_EN_END = r"(?:[\s,.;:!?)\"'’”，。！？]|$)"
_EN_ALIAS = rf"(?P<alias>[{_HAN}]{{1,4}}?(?={_EN_END})|[A-Za-z][A-Za-z0-9_'.-]*(?: [A-Za-z][A-Za-z0-9_'-]*)?)"
_HANDLE = r"(?<![A-Za-z0-9_.-])[A-Za-z][A-Za-z0-9_.-]*[A-Za-z0-9]"  # an IM handle as a display name: kk_0823
_ZH_GROUP = r"(?:大家|朋友们?|他们|别人|同事们?|同学们?|家里人|家人|爸妈|我妈|我爸)"
_ZH_ADVERBS = r"(?:都|也|一般|平时|习惯|通常)*"
_ZH_NICK = r"(?:外号|小名|昵称|绰号|花名|网名|英文名|中文名)"
# a name: words of at most 40 letters, or a Chinese run tried from its start only (from each
# character of a long run, or each capital of a long word, the search was quadratic)
_EN_NAME = rf"(?:[A-Z][A-Za-z'-]{{0,40}}(?: [A-Z][A-Za-z'-]{{0,40}})?|(?<![{_HAN}])[{_HAN}]+)"
_EN_GROUP = r"(?i:everyone|everybody|people|(?:my )?friends|folks|they|we)(?i: all)?"

# (pattern, about): "other" patterns with a ``target`` group name the person; without one the
# name is looked for just before the match ("周霓，大家都叫她霓霓").
_ZH_PATTERNS = (
    (rf"叫我(?:做)?{_ZH_ALIAS}(?=就行|就好|就可以|就成|吧|好了)", "speaker"),
    (rf"{_ZH_GROUP}{_ZH_ADVERBS}叫我(?:做)?{_ZH_ALIAS}", "speaker"),
    (rf"(?:你们?|您)(?:也|都)?(?:可以|就|直接)+叫我(?:做)?{_ZH_ALIAS}", "speaker"),
    (rf"我的?(?:{_ZH_NICK}|名字)(?:是|叫)(?:做)?{_ZH_ALIAS}", "speaker"),
    (rf"(?:{_ZH_GROUP}|我们){_ZH_ADVERBS}叫(?:她|他)(?:做)?{_ZH_ALIAS}", "other"),
    (rf"(?:她|他)的?{_ZH_NICK}(?:是|叫)(?:做)?{_ZH_ALIAS}", "other"),
    (rf"(?P<target>(?<![{_HAN}])[{_HAN}]+|{_HANDLE})的{_ZH_NICK}(?:是|叫)(?:做)?{_ZH_ALIAS}", "other"),
    # an introduction: "跟新人介绍下，赵磊就是磊哥", "kk_0823就是凯哥" (the name must be someone pmemo knows)
    (rf"(?P<target>[{_HAN}]{{2,4}}|{_HANDLE})就是{_ZH_ALIAS}", "other"),
)
_EN_PATTERNS = (
    (rf"\b(?i:call) me {_EN_ALIAS}", "speaker"),
    (rf"\b{_EN_GROUP} (?i:calls?) me {_EN_ALIAS}", "speaker"),
    (rf"\b(?i:my (?:nick ?name|nick|handle|english name|chinese name|name) is|i go by) {_EN_ALIAS}", "speaker"),
    (rf"\b{_EN_GROUP} (?i:calls?) (?i:her|him) {_EN_ALIAS}", "other"),
    (rf"\b(?i:her|his) (?i:nick ?name|nick) (?i:is) {_EN_ALIAS}", "other"),
    (rf"(?P<target>{_EN_NAME}),? (?i:who|whom) {_EN_GROUP} (?i:calls?) {_EN_ALIAS}", "other"),
    (rf"(?P<target>{_EN_NAME}) ?[(（] ?(?i:aka|a\.k\.a\.?) {_EN_ALIAS}", "other"),
    (rf"(?P<target>{_EN_NAME}), (?i:aka|a\.k\.a\.?) {_EN_ALIAS}", "other"),
    (rf"(?P<target>{_EN_NAME}) (?i:goes by) {_EN_ALIAS}", "other"),
)
# (pattern, about, english): English patterns want a capitalised nickname or a handle
_PATTERNS: tuple[tuple[re.Pattern[str], str, bool], ...] = tuple(
    (lazy(pattern), about, english)
    for patterns, english in ((_ZH_PATTERNS, False), (_EN_PATTERNS, True))
    for pattern, about in patterns
)
# what follows 叫我 but is no name: "叫我过去", "叫我去吃饭", "你叫我什么"
_NOT_NAME_START = frozenset("去来过回做帮别不一起等吃喝买看写发拿带给跟上下出进快先再也都还就在"
                            "到把让说问找用打开关走跑玩学我你他她它这那什怎谁哪")
_NOT_NAMES = frozenset(
    """me you him her it them us later tomorrow tonight today now soon back again anytime sometime asap maybe
    when if please sometime monday tuesday wednesday thursday friday saturday sunday january february march
    april may june july august september october november december ok okay sir madam lol haha thanks""".split()
)
_SENTENCE_END = lazy(r"[。！？!?\n]|\.(?=\s|$)")
_CLAUSE_START = lazy(r"[。！？!?\n，,；;：:]|\.(?=\s|$)")
_QUESTION_AFTER = lazy(r"\s*(?:吗|么|嘛[?？])")
_QUESTION_BEFORE = lazy(r"为什么|为啥|怎么|干嘛|凭什么|\b(?i:why|how come)\b")
_NEGATION = lazy(
    r"别(?=叫|再|这么|老|总|乱|这样)|不要|不许|不准|不让|不想|不喜欢|不爱|讨厌|甭|不用|不能|不可以|不必|不再|没人|没有人|"
    r"不会|都不|也不|从不|不叫|\b(?i:don'?t|dont|do not|never|stop|not|won'?t|can'?t|cannot|shouldn'?t|didn'?t|"
    r"doesn'?t|nobody|no one|hate|dislike)\b"
)
# where a name that introduces a nickname starts: "这是周霓", "介绍一下周霓"
_INTRO = lazy(r".*(?:是|叫|的|一下|这位|那位|认识|介绍|和|跟|给|找|问)")
_NAME_BEFORE = lazy(rf"({_EN_NAME})\s*[，,]?\s*$")


def learned_aliases(text: str) -> list[Learned]:
    """Nicknames a message gives, in Chinese or English; questions and negations give none.

    >>> learned_aliases("周霓，大家都叫她霓霓。")
    [Learned(alias='霓霓', about='other', target='周霓', span=(8, 10))]
    >>> learned_aliases("别叫我霓霓"), learned_aliases("你叫我什么？")
    ([], [])

    A text past ``text.slices.LIMIT`` is read piece by piece (its spans stay the text's).
    """
    if len(text) > LIMIT:
        return [dataclasses.replace(learned, span=(learned.span[0] + start, learned.span[1] + start))
                for start, end in handing_over(spans(text)) for learned in learned_aliases(text[start:end])]
    found: dict[tuple[int, int], Learned] = {}
    for pattern, about, english in _PATTERNS:
        for match in pattern.finditer(text):
            learned = _learned(text, match, about, english)
            if learned is not None:
                found.setdefault(learned.span, learned)  # the first pattern of a span wins
    return sorted(found.values(), key=lambda learned: learned.span)


def _learned(text: str, match: re.Match[str], about: str, english: bool) -> Learned | None:
    alias_span = _clean_alias(match, english)
    if alias_span is None:
        return None
    start, end = alias_span
    if _is_question(text, match.start(), end) or _is_negated(text, start):
        return None
    target = None
    if about == "other":
        if "target" in match.re.groupindex:
            target = _target_name(match.group("target"))
            if target is None:
                return None
        else:
            before = _NAME_BEFORE.search(text, _sentence_start(text, match.start()), match.start())
            target = _target_name(before.group(1)) if before else None
    return Learned(text[start:end], about, target, (start, end))


def _clean_alias(match: re.Match[str], english: bool) -> tuple[int, int] | None:
    """The span of a plausible nickname in ``match``; English patterns want a capitalised word or a handle."""
    start, end = match.span("alias")
    alias = match.group("alias")
    if is_han(alias[0]):
        return None if alias[0] in _NOT_NAME_START else (start, end)
    words = alias.split(" ")
    first = words[0].rstrip(".'-")
    handle = any(c.isdigit() or c == "_" for c in first)
    if not first or _not_a_name(first) or (english and not first[0].isupper() and not handle):
        return None
    second = words[1].rstrip(".'-") if len(words) > 1 else ""
    if second and second[0].isupper() and not _not_a_name(second):
        return start, start + len(first) + 1 + len(second)
    return start, start + len(first)


def _not_a_name(word: str) -> bool:
    return word.lower() in _NOT_NAMES or word.lower() in STOPWORDS


def _sentence_start(text: str, pos: int) -> int:
    ends = [m.end() for m in _SENTENCE_END.finditer(text, 0, pos)]
    return ends[-1] if ends else 0


def _is_question(text: str, start: int, alias_end: int) -> bool:
    sentence_end = _SENTENCE_END.search(text, alias_end)
    if sentence_end is not None and sentence_end.group(0) in "?？":
        return True
    if _QUESTION_AFTER.match(text, alias_end):
        return True
    return bool(_QUESTION_BEFORE.search(text, _sentence_start(text, start), start))


def _is_negated(text: str, start: int) -> bool:
    clause = [m.end() for m in _CLAUSE_START.finditer(text, 0, start)]
    prefix = text[clause[-1] if clause else 0 : start].replace("’", "'")
    return bool(_NEGATION.search(prefix))


def _target_name(run: str) -> str | None:
    """The name a sentence introduces: "这是周霓" → 周霓, "我同事周霓" → 周霓, "我同事" → None."""
    if not is_han(run[0]):
        return run
    intro = _INTRO.match(run)
    name = run[intro.end():] if intro else run
    if 2 <= len(name) <= 4 and name[0] not in "我你他她它这那咱":
        return name
    for i in range(max(0, len(name) - 4), len(name) - 1):
        if _split_chinese(name[i:]) is not None:
            return name[i:]
    return None


# ---- @mentions ------------------------------------------------------------------------------

_MENTION = lazy(r"(?<![A-Za-z0-9_.@＠])[@＠]([^\s@＠]+)")
_MENTION_HAN_CHARS = 10


def mentions(text: str) -> list[tuple[str, tuple[int, int]]]:
    """The @handles of a message and their spans (without the @).

    A handle ends at whitespace, punctuation (full-width too) or the end; one with Chinese
    characters is at most 10 characters long.

    >>> mentions("@neko_z hi, @霓霓：今晚？ mail me at a@b.com")
    [('neko_z', (1, 7)), ('霓霓', (13, 15))]
    """
    if len(text) > LIMIT:
        return [(handle, (a + start, b + start)) for start, end in handing_over(spans(text))
                for handle, (a, b) in mentions(text[start:end])]
    out: list[tuple[str, tuple[int, int]]] = []
    for match in _MENTION.finditer(text):
        raw = match.group(1)
        size = 0
        for i, char in enumerate(raw):
            kind = unicodedata.category(char)
            inner = char in ".-" and i + 1 < len(raw) and raw[i + 1].isalnum()  # neko.z, neko-z
            if kind[0] in "PSZC" and char != "_" and not inner:
                break
            size = i + 1
        handle = raw[:size]
        if any(is_han(c) for c in handle):
            handle = handle[:_MENTION_HAN_CHARS]
        if handle:
            out.append((handle, (match.start(1), match.start(1) + len(handle))))
    return out
