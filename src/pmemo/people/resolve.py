"""Finding the people a text names (pure): one Aho-Corasick pass over every alias of a tenant.

Chinese aliases match as substrings ("你认识霓霓吗"), Latin ones as whole words, case-insensitively.
A *generated* alias (老周, 周工) is a guess, so it must also respect the words of the text as
jieba cuts it: not inside one (小王 in 小王子), not cutting a common one ("这周工作很忙" is
这/周/工作: no 周工); and one that is a common word itself (明明, 小时, 施工) is not indexed.
Overlaps keep the leftmost-longest name; an alias shared by several people is reported with
all of them unless the group's members settle it.

Read in a chat (``find(..., chat=Chat(...))``), two rules of issue 44 §6 apply: a nickname
learned or @-mentioned in one chat names its person only where it was said (``per_chat``), and a
generated form names only a member it fits, unless the chat used it for them (``guesses.py``).

>>> index = AliasIndex([AliasEntry("周霓", "p1", "name"), AliasEntry("霓霓", "p1", "learned"),
...                     AliasEntry("Neko", "p2", "registered")])
>>> [(m.alias, m.person_ids) for m in index.find("你认识霓霓吗? NEKO says hi, Nekomata doesn't")]
[('霓霓', ('p1',)), ('NEKO', ('p2',))]
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Protocol

import ahocorasick

from ..errors import InvalidInput
from ..models import ALIAS_SOURCES, ALIAS_STRENGTH, SAID_IN_A_CHAT, Scope
from ..text.segment import STOPWORDS, _cut
from ..text.slices import LIMIT, handing_over, spans
from .aliases import is_han
from .guesses import fits

__all__ = ["GUESSES", "AliasEntry", "AliasIndex", "Chat", "Match", "Resolver", "STRENGTH"]

STRENGTH = ALIAS_STRENGTH  # which source wins when one person has an alias from several

# A generated Chinese form that jieba's dictionary (0.42) counts often is a word first. Forms of
# address (老王, 小张, 周哥) are in that dictionary because people are called so: they are dropped
# from 350 up (小于 873, 可可 602, 小区 414 go; 小张 302, 老李 298, 老王 190 stay). Other forms,
# a given name (建国, 国庆, 可乐, 文静) or a doubled one (明明, 静静, 遥遥), go from 30 up
# (俊杰 27 and 娜娜 16 stay, 丽丽 81 goes). Chosen on the corpus of tests/people/test_resolve.py;
# 50 other ordinary sentences against 3,000 random names' forms then gave no false match.
_ADDRESS_FREQ = 350
_WORD_FREQ = 30
# A generated form may cut a rare word ("晓东来了没" is 晓/东来/了/没, 东来 141) but not a common
# one: in the ordinary sentences of the tests it would cut 超市 534, 周末 654 ... 工作 66367.
_CUT_WORD_FREQ = 300
_ADDRESS = re.compile(r"[老小阿].{1,2}|.{1,2}(?:哥|姐|总|工|老师)")
# A name someone is really called that is also an everyday word (小雨 "light rain", 静静 "quietly",
# 高峰 "peak": the words a guess may not be, by the counts above) names them only where a name
# goes: at the start of a clause, after @ or a mark, or after a verb, preposition or conjunction
# (jieba's dictionary tags: "认识静静", "跟小雨", "和静静"), not after one that says the weather
# or that something is there ("下小雨", "有小雨") nor after any other word ("让我静静", "早高峰").
# The price: a name after a time word ("明天小雨考试") is missed, as a guess would be.
_BEFORE_A_NAME = ("谢谢", "问下", "问一下", "问问", "还有")  # tagged as other words, taking a person
_NAME_TAKING_TAGS = frozenset({"v", "p", "c"})
_NOT_BEFORE_A_NAME = frozenset("有是在下")
# measure words of things, never of people: "带瓶怡宝" (a bottle of the water), "两杯可乐"
_COUNTED = frozenset("瓶杯罐盒袋箱碗串桶壶斤")
_LATIN_WORD = re.compile(r"(?<![A-Za-z])[A-Za-z][A-Za-z'-]*")
# common words below those counts, or missing from the dictionary, that generation can produce
_COMMON_HAN = frozenset(
    """小白 小黄 小红 小蓝 小绿 小美 小可 小车 小钱 小费 小雪 小菜 小熊 小花 小鱼 小草 小宝 小妹 小弟 小哥
    小姐 小新 小气 小伙 小猫 小狗 小猪 小兔 小羊 小牛 小虎 老路 老成 老牛 老虎 老实 老公 老婆 老家 老大
    老外 老板 老乡 老友 老手 老本 老早 老是 阿姨 阿婆 阿公 阿爸 阿妈 阿哥 阿弟 阿妹 阿叔 阿伯 费工
    甜甜 美美 萌萌 棒棒 乖乖 宝宝 贝贝 哈哈 嘻嘻 呵呵 嘿嘿 亲亲 抱抱""".split()
)
# generated Latin forms that are ordinary English words first: "Will you come?", "the bill"
_COMMON_LATIN = frozenset(
    """will bill bob rob mark may june april grace hope faith joy rose lily jack frank sunny summer autumn
    winter amber ruby crystal daisy angel honey candy cherry apple lemon coco lucky happy star sky rain river
    dawn penny holly ivy iris jade pearl chase hunter king rich sue pat ray don art guy max dean hero kid baby
    boss tiger echo sugar mint peach jelly cookie bean kitty young long""".split()
)


@dataclass(frozen=True)
class AliasEntry:
    """One alias of one person, and where it came from (one of ``ALIAS_SOURCES``).

    >>> AliasEntry("霓霓", "p1", "learned").source
    'learned'
    """

    alias: str
    person_id: str
    source: str
    owner: str | None = None  # the chat a learned or @-mentioned alias was said in (None: anywhere)

    def __post_init__(self) -> None:
        if self.source not in ALIAS_SOURCES:
            raise InvalidInput(f"source={self.source!r} is invalid: use one of {', '.join(ALIAS_SOURCES)}")


@dataclass(frozen=True)
class Match:
    """A name found in a text: ``alias`` as the text writes it, at ``text[start:end]``.

    ``person_ids`` holds one id, or several when the alias is ambiguous; ``source`` is the
    strongest source of the alias among them.

    >>> Match("老王", 0, 2, ("p1", "p2"), "generated").ambiguous
    True
    """

    alias: str
    start: int
    end: int
    person_ids: tuple[str, ...]
    source: str

    @property
    def ambiguous(self) -> bool:
        return len(self.person_ids) > 1


GUESSES = ("fit", "any")  # the policy for generated forms: issue 44 §6's, or every guess as a name


@dataclass(frozen=True)
class Chat:
    """The chat a text is read in, and how its names are read (issue 44 §6).

    ``owners``: where a learned or @-mentioned alias counts (the chat; for a private chat, the
    person's other chats too); ``members``: who may carry a generated form (None: anyone, as in
    a private chat); ``genders``: person id -> "f" / "m" where known; ``per_chat``: False lets a
    nickname said anywhere count everywhere; ``guesses``: "any" reads every generated form as a
    name, as before issue 44.

    >>> Chat(frozenset({"g:a"}), frozenset({"p1"})).guesses
    'fit'
    """

    owners: frozenset[str]
    members: frozenset[str] | None
    genders: Mapping[str, str] = field(default_factory=dict)
    per_chat: bool = True
    guesses: str = "fit"

    def __post_init__(self) -> None:
        if self.guesses not in GUESSES:
            raise InvalidInput(f"guesses={self.guesses!r} is invalid: use one of {', '.join(GUESSES)}")


class Resolver(Protocol):
    """What finds the people a text names within a scope (``tiers.people.People``)."""

    def resolve(self, text: str, scope: Scope) -> list[Match]: ...


@dataclass(frozen=True)
class _Key:
    """What one automaton key stands for."""

    length: int
    people: tuple[tuple[str, str], ...]  # (person id, strongest source), by id
    # read in a chat: (person id, strongest source) of the rows that count anywhere, and
    # (person id, source, chat) of each one said in a chat, strongest first
    anywhere: tuple[tuple[str, str], ...]
    said: tuple[tuple[str, str, str], ...]
    latin_start: bool  # starts / ends with a letter or digit: needs a word boundary there
    latin_end: bool
    han_start: bool  # starts / ends with a Chinese character: a jieba boundary, when it must
    han_end: bool
    single_han: bool  # one Chinese character: a word of its own or nothing (霓 not in 霓虹灯)
    everyday: bool  # an everyday word too (小雨, 静静): a name only in a name's place (_BEFORE_A_NAME)
    capital: bool  # a Latin alias everyone gave with a capital (Neko, Tom): lower-case, it may be a word


class AliasIndex:
    """Every alias of a tenant in one Aho-Corasick automaton; ``find`` names the people of a text.

    >>> index = AliasIndex([AliasEntry("周霓", "p1", "name"), AliasEntry("周工", "p1", "generated")])
    >>> [m.alias for m in index.find("周工说这周工作很忙")]
    ['周工']
    """

    def __init__(self, entries: Iterable[AliasEntry], of_people: bool = True) -> None:
        """``of_people``: the aliases name people, so one that is an everyday word names someone only
        where a person's name goes (_BEFORE_A_NAME); False for places and things ("在字节工作")."""
        by_key: dict[str, dict[str, str]] = {}
        lower: set[str] = set()  # keys some entry gave without a capital
        anywhere: dict[str, dict[str, str]] = {}
        said: dict[str, set[tuple[str, str, str]]] = {}
        for entry in entries:
            key = _fold(unicodedata.normalize("NFC", " ".join(entry.alias.split())))
            if not key or not _indexable(key, entry.source):
                continue
            _keep_strongest(by_key.setdefault(key, {}), entry.person_id, entry.source)
            if not entry.alias.lstrip()[:1].isupper():
                lower.add(key)
            if entry.source in SAID_IN_A_CHAT and entry.owner is not None:
                said.setdefault(key, set()).add((entry.person_id, entry.source, entry.owner))
            else:
                _keep_strongest(anywhere.setdefault(key, {}), entry.person_id, entry.source)
        self._keys: list[_Key] = []
        self._automaton: Any = ahocorasick.Automaton()
        for number, (key, people) in enumerate(by_key.items()):
            self._automaton.add_word(key, number)
            self._keys.append(_Key(
                length=len(key), people=tuple(sorted(people.items())),
                anywhere=tuple(sorted(anywhere.get(key, {}).items())),
                said=tuple(sorted(said.get(key, ()), key=lambda s: (STRENGTH[s[1]], s))),
                latin_start=_word_char(key[0]), latin_end=_word_char(key[-1]),
                han_start=is_han(key[0]), han_end=is_han(key[-1]), single_han=len(key) == 1 and is_han(key),
                everyday=of_people and _everyday(key),
                capital=_word_char(key[0]) and key not in lower,
            ))
        if self._keys:
            self._automaton.make_automaton()

    @property
    def empty(self) -> bool:
        """Whether the index holds no alias (``find`` then finds nothing)."""
        return not self._keys

    def find(self, text: str, members: Collection[str] | None = None, *, chat: Chat | None = None) -> list[Match]:
        """The names in ``text``, left to right, without overlaps (leftmost-longest wins).

        With ``members`` (the person ids of the group the text is from), an alias shared by
        several people goes to the one member among them; several members keep it ambiguous.
        With ``chat`` (which holds its members), the text is read in that chat: a nickname said
        in another chat does not count, and a generated form names only a member it fits.

        >>> index = AliasIndex([AliasEntry("老王", "p1", "generated"), AliasEntry("老王", "p2", "generated")])
        >>> [m.person_ids for m in index.find("老王说")], [m.person_ids for m in index.find("老王说", {"p2"})]
        ([('p1', 'p2')], [('p2',)])
        >>> index.find("老王说", chat=Chat(frozenset({"g:a"}), frozenset({"p3"})))  # neither is a member
        []
        """
        if not self._keys or not text:
            return []
        if chat is not None:
            members = chat.members
        if len(text) > LIMIT:  # piece by piece: jieba never cuts more than a piece's Chinese
            return [dataclasses.replace(m, start=m.start + start, end=m.end + start)
                    for start, end in handing_over(spans(text)) for m in self.find(text[start:end], members, chat=chat)]
        folded = _fold(text)
        words = _Words(text)
        found: list[tuple[int, int, tuple[tuple[str, str], ...]]] = []
        for last, number in self._automaton.iter(folded):
            key = self._keys[number]
            start, end = last + 1 - key.length, last + 1
            if (key.latin_start and start > 0 and _word_char(text[start - 1])) or (
                key.latin_end and end < len(text) and _word_char(text[end])
            ):
                continue  # "Neko" in "Nekomata"
            if key.everyday and not _in_name_place(words, start):
                continue  # "今天下小雨了"
            if key.han_start and start > 0 and text[start - 1] in _COUNTED:
                continue  # "带瓶怡宝": a thing counted in bottles, not a person
            people = _valid_people(key, _in_chat(key, chat), start, end, words)
            if chat is not None and chat.guesses == "fit":
                people = _admitted(text[start:end], people, chat)
                if key.capital and text[start].islower():
                    people = _lower_case(people, text, start)
            if people:
                found.append((start, end, people))
        found.sort(key=lambda item: (item[0], item[0] - item[1]))
        out: list[Match] = []
        reached = 0
        for start, end, people in found:
            if start >= reached:
                out.append(_match(text[start:end], start, end, people, members))
                reached = end
        return out

    def people(self, text: str, members: Collection[str] | None = None, *, chat: Chat | None = None) -> list[str]:
        """The person ids ``text`` names unambiguously, in order of first appearance.

        >>> AliasIndex([AliasEntry("Neko", "p2", "name")]).people("neko and Neko")
        ['p2']
        """
        return list(dict.fromkeys(m.person_ids[0] for m in self.find(text, members, chat=chat) if not m.ambiguous))


def _in_chat(key: _Key, chat: Chat | None) -> tuple[tuple[str, str], ...]:
    """(person, strongest source) of an alias as read in ``chat``: one said in a chat counts
    there only (unless ``per_chat`` is off); read nowhere in particular, every source counts."""
    if chat is None or not key.said:
        return key.people if chat is None else key.anywhere
    best = dict(key.anywhere)
    for person, source, owner in key.said:
        if not chat.per_chat or owner in chat.owners:
            _keep_strongest(best, person, source)
    return tuple(sorted(best.items()))


def _admitted(alias: str, people: tuple[tuple[str, str], ...], chat: Chat) -> tuple[tuple[str, str], ...]:
    """Who a form may stand for in ``chat``: whoever it was said of, and among those it is only
    a guess for, the members it fits (guesses.py)."""
    if all(source != "generated" for _, source in people):
        return people
    return tuple(p for p in people if p[1] != "generated" or (
        (chat.members is None or p[0] in chat.members) and fits(alias, chat.genders.get(p[0]))))


def _lower_case(people: tuple[tuple[str, str], ...], text: str, start: int) -> tuple[tuple[str, str], ...]:
    """Who a capitalised alias written in lower case ("tom yum", "a neko café") may still stand
    for: never a guess; what people said ("call me Neko") only in a text whose writer capitalises
    no other word either (a chat in lower case throughout)."""
    capitalises = any(m.start() != start and m.group()[0].isupper() for m in _LATIN_WORD.finditer(text, 1))
    return tuple(p for p in people if p[1] != "generated" and (p[1] in ("registered", "name") or not capitalises))


def _keep_strongest(people: dict[str, str], person: str, source: str) -> None:
    held = people.get(person)
    if held is None or STRENGTH[source] < STRENGTH[held]:
        people[person] = source


def _indexable(key: str, source: str) -> bool:
    """Whether an alias may fire at all: one letter only when registered, a guess never as a common word."""
    if len(key) == 1 and not is_han(key):
        return source == "registered"
    if source != "generated":
        return True
    if any(is_han(c) for c in key):
        limit = _ADDRESS_FREQ if _ADDRESS.fullmatch(key) else _WORD_FREQ
        return key not in _COMMON_HAN and _word_frequency(key) < limit
    return key not in _COMMON_LATIN and key not in STOPWORDS


def _everyday(key: str) -> bool:
    """Whether a Chinese alias is an everyday word as well: one a guess would not be indexed as."""
    if len(key) < 2 or not all(is_han(c) for c in key):
        return False
    limit = _ADDRESS_FREQ if _ADDRESS.fullmatch(key) else _WORD_FREQ
    return key in _COMMON_HAN or _word_frequency(key) >= limit


def _in_name_place(words: _Words, start: int) -> bool:
    """Whether a name may begin at ``start``: at the start, after a mark, @ or a Latin word, or
    after a word that takes a person.

    >>> [_in_name_place(_Words(t), 3) for t in ("今天下小雨了", "你认识静静吗", "浩子、静静")]
    [False, True, True]
    """
    before = words.text[:start].rstrip()
    if not before or not is_han(before[-1]) or before.endswith(_BEFORE_A_NAME):
        return True
    word = words.ending_at(len(before))
    return word is not None and word not in _NOT_BEFORE_A_NAME and _word_tags().get(word) in _NAME_TAKING_TAGS


def _valid_people(key: _Key, people: tuple[tuple[str, str], ...], start: int, end: int,
                  words: _Words) -> tuple[tuple[str, str], ...]:
    """The people an occurrence can stand for: a generated, one-character or everyday-word Chinese
    alias must not sit inside a word of the text (小王 in 小王子) nor cut a common one (周工 in 这周工作)."""
    if not people:
        return people
    strict = key.single_han or key.everyday or any(source == "generated" for _, source in people)
    if strict and (key.han_start or key.han_end):
        # a name's 的 is its possessive, even where jieba holds the two as one word (静静的)
        ends = [pos for pos, han in ((start, key.han_start), (end, key.han_end))
                if han and not (pos == end and words.text.startswith("的", end))]
        if any(words.cuts_into(pos, start, end) for pos in ends):
            if key.single_han or key.everyday:  # 霓 in 霓虹灯, 静静 in 静静地
                return ()
            return tuple(p for p in people if p[1] != "generated")
    return people


def _match(alias: str, start: int, end: int, people: tuple[tuple[str, str], ...],
           members: Collection[str] | None) -> Match:
    if members is not None and len(people) > 1:
        # members of the group first: "老王" in a group with one 王 is that 王
        people = tuple(p for p in people if p[0] in members) or people
    if len(people) > 1 and any(source != "generated" for _, source in people):
        # an alias someone registered, used or was given beats one we only guessed for others
        people = tuple(p for p in people if p[1] != "generated")
    source = min((s for _, s in people), key=STRENGTH.__getitem__)
    return Match(alias, start, end, tuple(p for p, _ in people), source)


class _Words:
    """jieba's words of the Chinese runs of a text, cut only when asked about."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._runs: dict[int, list[tuple[int, int, str]]] = {}  # run start -> its (start, end, word)

    def cuts_into(self, pos: int, start: int, end: int) -> bool:
        """Whether a name at ``start:end`` breaks a word of the text at ``pos``: one that holds the
        whole name, or a common word it cuts ("晓东来了" cuts the rare 东来 and stays a name)."""
        text = self.text
        if pos <= 0 or pos >= len(text) or not is_han(text[pos - 1]) or not is_han(text[pos]):
            return False  # the edge of a Chinese run
        for w_start, w_end, word in self._words_around(pos):
            if w_start < pos < w_end:
                holds = w_start <= start and end <= w_end
                return holds or _word_frequency(word) >= _CUT_WORD_FREQ
        return False

    def ending_at(self, pos: int) -> str | None:
        """The word of the text that ends at ``pos`` (a Chinese character before it); None
        when a word runs across ``pos``.

        >>> _Words("这周工作很忙").ending_at(4), _Words("这周工作很忙").ending_at(3)
        ('工作', None)
        """
        return next((word for _, w_end, word in self._words_around(pos) if w_end == pos), None)

    def _words_around(self, pos: int) -> list[tuple[int, int, str]]:
        text = self.text
        run_start = pos
        while run_start > 0 and is_han(text[run_start - 1]):
            run_start -= 1
        words = self._runs.get(run_start)
        if words is None:
            run_end = pos
            while run_end < len(text) and is_han(text[run_end]):
                run_end += 1
            words, at = [], run_start
            # without HMM jieba glues no unknown characters into new words: a rare name stays in pieces
            for word in _tokenizer().lcut(text[run_start:run_end], HMM=False):
                words.append((at, at + len(word), word))
                at += len(word)
            self._runs[run_start] = words
        return words


@cache
def _tokenizer() -> Any:
    # segment._cut owns jieba's one-time, quiet initialisation; cutting one word runs it
    _cut("人")
    import jieba

    return jieba.dt


@cache
def _word_tags() -> dict[str, str]:
    """jieba's part-of-speech tag of each word of its dictionary ("v", "n", "p" ...)."""
    _tokenizer()
    import jieba.posseg

    tags: dict[str, str] = jieba.posseg.dt.word_tag_tab  # loaded once, on the first everyday alias met
    return tags


def _word_frequency(word: str) -> int:
    return int(_tokenizer().FREQ.get(word, 0))


def _word_char(char: str) -> bool:
    """A character of a Latin-script word: a letter, digit or underscore outside the scripts
    written without spaces (Chinese, Japanese kana, Korean), which border names directly."""
    if char == "_":
        return True
    if not char.isalnum():
        return False
    code = ord(char)
    return not (is_han(char) or 0x3040 <= code <= 0x30FF or 0xAC00 <= code <= 0xD7AF or 0x20000 <= code <= 0x2FFFF)


def _fold(text: str) -> str:
    """``text`` lower-cased character by character, so positions in it are positions in ``text``."""
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    return "".join(low if len(low := c.lower()) == 1 else c for c in text)
