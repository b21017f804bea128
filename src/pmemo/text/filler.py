"""Filler (pure): turns that say nothing a reader of a context could use (issue 44 §5).

``text.notices.content_free`` knows system notices and media without words ("[图片]"); this
module adds what people type when they have nothing to say: laughter ("哈哈哈", "hhh", "lol"),
greetings and roll calls ("在吗", "早", "hello"), acknowledgements ("好的", "收到", "ok", "👍")
and farewells, in Chinese and English, with the particles, @mentions, emoji and punctuation
around them. A turn is filler when nothing is left once such units are taken off its words, read
left to right, so "好的，周六我带相机" is content and "好的好的～哈哈" is not. Only short texts
are read (``MAX_CHARS`` words once laughter runs are folded, ``READ_CHARS`` in all): the cost is bounded
whatever a message's length.

The lexicon is a language's small talk, not any benchmark's phrasing: a word goes in when it is
said to fill a turn in any chat, whatever the topic.

>>> [filler(t) for t in ("哈哈哈哈", "在吗？", "好的👍", "[图片]", "@小王 收到", "ok thanks!", "lol", "[捂脸]")]
[True, True, True, True, True, True, True, True]
>>> [filler(t) for t in ("好的，周六我带相机", "我在吗啡科", "ok, see you at 8", "哈哈我考过了", "1")]
[False, False, False, False, False]
>>> said_key("周末 补一补进度！！") == said_key("周末补一补进度~")
True
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import Any, Protocol

from .lang import zh
from .notices import content_free as _structure
from .notices import placeholder_only

MAX_CHARS = 40  # more words than this (noise and laughter runs aside) are content: filler is short
READ_CHARS = 400  # a longer message is content unread: the scan stays bounded

# units a filler turn is made of, longest first where one starts another ("好的" before "好")
_ZH = (
    # laughter
    "哈", "呵", "嘿", "嘻", "噗", "嘎", "笑死我了", "笑死", "笑哭", "笑cry", "233",
    # greetings, roll calls, farewells
    "在吗", "在么", "在不在", "在嘛", "有人吗", "有人在吗", "大家好", "你好", "您好", "哈喽", "嗨",
    "早上好", "中午好", "下午好", "晚上好", "早安", "午安", "晚安", "早", "拜拜", "再见", "回头见", "明天见",
    # acknowledgements, thanks, agreement
    "好的", "好滴", "好哒", "好嘞", "好吧", "好呀", "好", "嗯", "恩", "哦", "噢", "喔", "收到", "了解", "明白",
    "知道了", "懂了", "行", "可以", "没问题", "谢谢", "谢了", "多谢", "感谢", "辛苦了", "辛苦", "对的", "是的",
    "对", "嗯呢", "666", "6666", "牛", "厉害", "赞", "哇", "哇塞", "草", "绝了", "确实", "真的", "好久不见", "plusone",
    "有道理", "我也是", "同意", "同感", "啊这", "好耶", "来了", "在的", "在呢", "冲", "太真实了", "真实", "不错",
    "还行", "加油", "太强了", "强", "稳", "顶", "妙啊", "可以的", "没事", "不客气",
    # particles and interjections that only carry tone
    "啊", "呀", "吧", "呢", "嘛", "啦", "了", "哎", "唉", "诶", "额", "呃", "哟", "喂", "哼", "咯", "哒",
    "大家", "各位",
    # reactions and internet interjections: they say how the writer feels about the last line, not what
    "卧槽", "我去", "我靠", "天哪", "天啊", "我的天", "妈呀", "离谱", "太离谱了", "好家伙", "绝绝子", "yyds", "破防了",
    "破防", "蚌埠住了", "真的会谢", "无语", "服了", "哭了", "哭死", "呜呜", "呜", "555", "awsl", "啧", "嗐", "害",
    "哇哦",
    "牛逼", "nb", "牛啊", "太牛了", "可以啊", "真香", "酸了", "羡慕", "抱抱", "摸摸头", "好惨", "太难了", "救命",
    "笑不活了", "xswl", "hhh", "草草草", "寄", "麻了", "真的假的", "不会吧", "啊啊啊", "嘤嘤嘤", "好耶", "耶",
    # acknowledgements, agreement and non-answers
    "记住了", "记下了", "知道啦", "晓得了", "晓得", "懂", "get", "了解了", "明白了", "好滴", "嗯哼", "妥", "妥了",
    "安排", "阔以", "没毛病", "彳亍", "行吧", "同上", "附议", "说得对", "对对", "是啊", "是呀", "可不是", "就是",
    "一样", "我也", "看情况", "再说吧", "再说", "随便", "都行", "无所谓", "不知道", "不清楚", "不好说", "也许",
    "可能吧", "ok了", "okk", "好嘞好嘞", "中", "成",
    # roll calls, seen, lurking, leaving
    "来了", "来啦", "到", "在", "冒泡", "潜水", "路过", "围观", "蹲", "蹲一个", "插眼", "mark", "dd", "顶一下",
    "刚看到", "才看到", "看到了", "已阅", "溜了", "先撤了", "撤了", "下了", "88", "886", "拜", "回见", "等下", "稍等",
)
_EN = (
    "ha", "he", "lol", "lmao", "rofl", "xd", "hh", "h",
    "hi", "hello", "hey", "yo", "morning", "good morning", "good night", "gn", "night", "bye", "see you",
    "see ya", "cya", "anyone here", "anyone", "there", "you there", "all", "everyone", "guys",
    "ok", "okay", "k", "kk", "sure", "yes", "yeah", "yep", "yup", "got it", "noted", "roger", "thanks",
    "thank you", "thx", "ty", "np", "no problem", "cool", "nice", "great", "wow", "awesome", "right",
    "indeed", "agreed", "same", "true", "oh", "ah", "uh", "um", "hmm", "mm", "omg", "so", "much",
    # IM shorthand, reactions and backchannels
    "brb", "gm", "gn", "ttyl", "gtg", "g2g", "lmk", "ikr", "fr", "ngl", "tbh", "idk", "smh", "omfg", "wtf", "damn",
    "dang", "whoa", "woah", "yay", "woo", "woohoo", "yess", "yass", "bet", "word", "facts", "mood", "me too",
    "so true", "true that", "fair", "fair enough", "makes sense", "good to know", "sounds good", "sounds great",
    "count me in", "i'm in", "im in", "love that", "love it", "love this", "no way", "for real", "seriously",
    "really", "lit", "based", "rip", "oof", "yikes", "ugh", "meh", "welp", "whatever", "nvm", "never mind",
    "my bad", "sorry", "congrats", "congratulations", "gg", "nice one", "well done", "good job", "classic",
    "that's wild", "wild", "crazy", "insane", "amazing", "perfect", "exactly", "absolutely", "definitely",
    "totally", "of course", "ofc", "for sure", "sure thing", "alright", "aight", "okie", "okey", "ya", "yah",
    "yea", "nah", "nope", "no", "maybe", "probably", "depends", "we'll see", "hm", "huh", "eh", "lmfao", "dead",
    "i'm dead", "bruh", "bro", "dude", "lolol", "hehe", "heh", "cheers", "welcome", "you're welcome", "yw",
    "no worries", "all good", "good", "fine", "later", "laters", "sup", "what's up", "wassup", "howdy", "hiya",
    "heya", "back", "i'm back", "here", "just saw this", "saw it", "seen", "that's", "it's", "this", "that",
    "too", "very", "w", "l", "wp", "xoxo", "ty all", "tysm",
)
_MENTION = re.compile(r"@\S{1,24}(?:\s|$)")
_EMOJI_CODE = re.compile(r"\[[\u4e00-\u9fff]{1,5}\]|\[[A-Za-z]{2,12}\]")  # WeChat / QQ inline emoji: [捂脸] [Facepalm]
_NOISE = re.compile(r"[\W_]+")  # punctuation, emoji, spaces: what is left between units
_LAUGH = re.compile(r"(?:ha|he|hh|xd|lol|lmao)+h?(?:\s|$)")  # laughter written as one word: "hahah", "lolol"
_RUN = re.compile(r"(\S{1,2}?)\1+")  # a character or pair said again and again: "哈哈哈哈", "233333"
_KEYSMASH = re.compile(r"[asdfghjkl]{6,}")  # a hand run along the home row: "asdfghjkl", "jdksjdka"
_LONG = re.compile(r"([a-z])\1{2,}")  # a letter held down: "yesss", "sooo", "lolll"


def _words(text: str) -> str:
    """``text`` as the units are matched: NFKC, lower case, noise as single spaces ("that's" → "that s")."""
    return " ".join(_NOISE.sub(" ", unicodedata.normalize("NFKC", text).lower()).split())


_UNITS = sorted({_words(u) for u in (*_ZH, *_EN, *zh.FILLER)}, key=len, reverse=True)  # and what text.dialogue skips
_UNIT = re.compile("|".join(re.escape(u) for u in _UNITS))


class Said(Protocol):
    """What ``content_free`` reads of a turn."""

    @property
    def content(self) -> str: ...
    @property
    def metadata(self) -> Mapping[str, Any]: ...


def filler(text: str) -> bool:
    """Whether ``text`` says nothing: placeholders, laughter, greetings, acknowledgements.

    >>> filler("嗯嗯 好的 谢谢大家"), filler("Haha, good morning everyone!"), filler("hmm, is it Tuesday")
    (True, True, False)
    """
    if placeholder_only(text):
        return True
    if len(text) > READ_CHARS:
        return False
    words = _EMOJI_CODE.sub(" ", _MENTION.sub(" ", text.strip()))
    rest = _words(words.replace("+1", " plusone "))
    if len(_RUN.sub(r"\1", rest)) > MAX_CHARS:  # "哈哈哈哈哈哈…😂😂" is as short as "哈哈" in words
        return False
    if _KEYSMASH.fullmatch(rest):
        return True
    # a held-down letter is the word once or twice: "yesss" is "yes", "cooool" is "cool"
    return _units_only(_LONG.sub(r"\1", rest)) or _units_only(_LONG.sub(r"\1\1", rest))


def _units_only(rest: str) -> bool:
    """Whether ``rest`` (``_words``) is nothing but units and spaces, read left to right."""
    pos = 0
    while pos < len(rest):  # left to right: every stretch between the noise must be units
        if rest[pos] == " ":
            pos += 1
            continue
        m = _UNIT.match(rest, pos)
        if m is None:
            return False
        end = m.end()
        # a Latin unit is a word: "he" does not start "help", "ok" not "okra", "no" + "w" + "here" is
        # not "nowhere"; only laughter runs on into itself ("hahah", "hehe")
        if rest[pos].isascii() and rest[pos].isalpha() and end < len(rest) and rest[end].isascii() \
                and rest[end].isalnum() and not _LAUGH.match(rest, pos):
            return False
        pos = end
    return True


def content_free(turn: Said) -> bool:
    """Whether a turn is no content for a context line, search hit or key line: a system notice
    or a medium without words (``notices.content_free``), or filler.

    >>> from types import SimpleNamespace as T
    >>> content_free(T(content="哈哈哈", metadata={})), content_free(T(content="哈哈哈 我过了", metadata={}))
    (True, False)
    """
    return _structure(turn) or filler(turn.content)


def said_key(text: str) -> str:
    """The words of ``text`` without case, spaces, punctuation or emoji: two turns with the same
    key said the same thing."""
    return _NOISE.sub("", unicodedata.normalize("NFKC", text[:500]).lower())


_DIGITS = re.compile(r"\d+")


def said_shape(text: str) -> str | None:
    """``said_key`` with every number as "#": two turns with the same shape said the same words
    but for their numbers (a routine line: "AA一下，每人6块", "打卡 今日学习4小时"); None for a text
    without a number, or with too few other words (two characters) to be a routine line.

    >>> said_shape("AA一下，每人6块") == said_shape("AA 一下, 每人 12 块")
    True
    >>> said_shape("我下周考雅思"), said_shape("3点")
    (None, None)
    """
    key = said_key(text)
    shape = _DIGITS.sub("#", key)
    return shape if shape != key and len(shape.replace("#", "")) > 2 else None
