"""Issue 44 §6: a generated name form names a member only where the chat used it for them, or
where it is unambiguous among the members and fits; a nickname said in one chat counts there."""

from __future__ import annotations

import doctest

import pytest

from pmemo.errors import InvalidInput
from pmemo.people import guesses
from pmemo.people.aliases import generated_aliases
from pmemo.people.guesses import fits, form_kind, gender_of, platform_gender, pronoun_gender, self_gender
from pmemo.people.resolve import AliasEntry, AliasIndex, Chat

STUDY, CLUB = "g:study", "g:club"


def _index(*extra: AliasEntry, **names: str) -> AliasIndex:
    entries = list(extra)
    for person, name in names.items():
        entries.append(AliasEntry(name, person, "name"))
        entries += [AliasEntry(form, person, "generated") for form in generated_aliases(name)]
    return AliasIndex(entries)


def _chat(*members: str, owner: str = STUDY, **kw: object) -> Chat:
    return Chat(frozenset({owner}), frozenset(members), **kw)  # type: ignore[arg-type]


# ---- the pure policy ----------------------------------------------------------------------------


def test_what_a_form_says_of_its_bearer() -> None:
    kinds = {f: form_kind(f) for f in generated_aliases("王磊")}
    assert kinds == {"磊磊": "", "小磊": "", "阿磊": "", "老王": "", "小王": "", "王哥": "m", "王姐": "f",
                     "王老师": "title", "王总": "title", "王工": "title"}
    assert [form_kind(f) for f in ("欧阳老师", "王经理", "Alex", "总", "")] == ["title", "title", "", "", ""]
    # a surname's forms are plain whatever the surname: 董, 师 ... are no titles before 老 / 小
    from pmemo.people.aliases import _SURNAMES
    assert {s: form_kind(f"小{s}") for s in _SURNAMES if form_kind(f"小{s}")} == {}
    assert {s: form_kind(f"老{s}") for s in _SURNAMES if form_kind(f"老{s}")} == {}


@pytest.mark.parametrize(("form", "gender", "fit"), [
    ("王哥", "m", True), ("王哥", "f", False), ("王哥", None, True),
    ("王姐", "f", True), ("王姐", "m", False), ("王姐", None, True),
    ("老王", "f", True), ("小王", "m", True), ("王老师", None, False), ("王总", "m", False), ("王工", "f", False),
])
def test_a_form_fits_unless_it_is_a_title_or_for_the_other_sex(form: str, gender: str | None, fit: bool) -> None:
    assert fits(form, gender) is fit


def test_the_strongest_evidence_decides_and_a_split_says_nothing() -> None:
    assert gender_of([]) is None
    assert gender_of([("pronoun", "f", 2), ("pronoun", "m", 1)]) == "f"  # two to one
    assert gender_of([("pronoun", "f", 3), ("pronoun", "m", 2)]) is None  # not clear
    assert gender_of([("pronoun", "f", 9), ("self", "m", 1)]) == "m"  # what they say of themselves beats 她
    assert gender_of([("self", "m", 1), ("self", "f", 1), ("pronoun", "f", 3)]) == "f"  # a split source: the next
    assert gender_of([("platform", "f", 1), ("self", "m", 4)]) == "f"
    assert gender_of([("hearsay", "f", 1), ("pronoun", "x", 3)]) is None  # unknown sources and values


def test_the_platform_field() -> None:
    assert [platform_gender({"gender": g}) for g in ("female", "MALE", "f", "m", "女", "男", " Female ")] == [
        "f", "m", "f", "m", "f", "m", "f"]
    assert [platform_gender(m) for m in ({"gender": "unknown"}, {"gender": 1}, {}, None, {"sex": "male"})] == [
        None] * 5


@pytest.mark.parametrize(("text", "gender"), [
    ("我一个女生晚上不敢走夜路", "f"), ("我是男生，搬桌子叫我", "m"), ("作为一个女孩子我觉得还好", "f"),
    ("我们女生都不爱吃辣", "f"), ("我也是男的，没事", "m"), ("宝妈路过", None), ("我本宝妈，路过", "f"),
    ("我又不是女生", None), ("我是男生吗？", None), ("如果我是男生就好了", None), ("她是女生", None),
    ("我是女生，他是男生", "f"), ("我一个女生，我们男生", None), ("今天好热", None),
])
def test_what_the_speaker_says_of_themself(text: str, gender: str | None) -> None:
    assert self_gender(text) == gender


@pytest.mark.parametrize(("text", "at", "gender"), [
    ("周霓说她明天不来", 0, "f"), ("记得张伟戒碳水，别给他带零食", 2, "m"), ("周霓和他们去吃饭了", 0, None),
    ("他说周霓不来", 2, None), ("周霓说她和他都不来", 0, None), ("张伟弹吉他很好听", 0, None),
    ("张伟和其他人都到了", 0, None), ("周霓", 0, None),
])
def test_the_pronoun_after_a_name(text: str, at: int, gender: str | None) -> None:
    assert pronoun_gender(text, at) == gender


def test_examples_in_docstrings() -> None:
    assert doctest.testmod(guesses).failed == 0


# ---- read in a chat -------------------------------------------------------------------------------


def test_a_title_form_names_nobody_unless_the_chat_used_it() -> None:
    index = _index(wl="王磊")
    assert index.people("王老师讲的课真好", chat=_chat("wl")) == []  # the case: a teacher, not 王磊
    assert index.people("王老师讲的课真好", {"wl"}) == ["wl"]  # read nowhere in particular: as before
    assert index.people("王老师讲的课真好", chat=_chat("wl", guesses="any")) == ["wl"]  # the setting turns it off
    used = _index(AliasEntry("王老师", "wl", "learned", STUDY), wl="王磊")
    assert used.people("王老师讲的课真好", chat=_chat("wl")) == ["wl"]
    assert used.people("王老师讲的课真好", chat=_chat("wl", owner=CLUB)) == []  # used in the study group only
    assert used.people("王老师讲的课真好", chat=_chat("wl", owner=CLUB, per_chat=False)) == ["wl"]


def test_a_plain_form_names_the_one_member_who_carries_it() -> None:
    index = _index(wl="王磊", zw="张伟", zm="张敏")
    assert index.people("老王今天来吗", chat=_chat("wl", "zw")) == ["wl"]
    assert index.people("老王今天来吗", chat=_chat("zw", "zm")) == []  # 王磊 is not a member here
    [match] = index.find("老张今天来吗", chat=_chat("wl", "zw", "zm"))  # two members could be 老张
    assert match.ambiguous and match.person_ids == ("zm", "zw")
    assert index.people("敏敏今天来吗", chat=_chat("zw", "zm")) == ["zm"]


def test_the_chat_settles_a_form_two_members_could_carry() -> None:
    index = _index(AliasEntry("老张", "zw", "learned", CLUB), wl="王磊", zw="张伟", zm="张敏")
    assert index.people("老张今天来吗", chat=_chat("zw", "zm", owner=CLUB)) == ["zw"]
    assert index.find("老张今天来吗", chat=_chat("zw", "zm", owner=STUDY))[0].ambiguous  # said in the club only


def test_brother_and_sister_forms_follow_what_is_known() -> None:
    index = _index(zw="张伟", zm="张敏")
    known = _chat("zw", "zm", genders={"zw": "m", "zm": "f"})
    assert index.people("张哥今天来吗", chat=known) == ["zw"]
    assert index.people("张姐今天来吗", chat=known) == ["zm"]
    unknown = _chat("zw", "zm")  # nothing said: either may be 张哥
    assert index.find("张哥今天来吗", chat=unknown)[0].ambiguous
    alone = _chat("zm", genders={"zm": "f"})
    assert index.people("张哥今天来吗", chat=alone) == [] and index.people("张姐今天来吗", chat=alone) == ["zm"]
    assert index.people("张哥今天来吗", chat=_chat("zm")) == ["zm"]  # unknown: the form may fit


def test_a_nickname_said_in_one_chat_counts_there() -> None:
    index = _index(AliasEntry("静静", "wj", "learned", STUDY), AliasEntry("静静", "lj", "learned", CLUB),
                   AliasEntry("怡宝", "zy", "learned", CLUB), AliasEntry("Neko", "nk", "registered"),
                   wj="王静", lj="李静怡", zy="周怡", nk="Zhang Nianke")
    assert index.people("静静来了吗", chat=_chat("wj", "lj")) == ["wj"]
    assert index.people("静静来了吗", chat=_chat("wj", "lj", owner=CLUB)) == ["lj"]
    assert index.people("怡宝在吗", chat=_chat("zy")) == []  # 周怡 is a member, but nobody calls her so here
    assert index.people("怡宝在吗", chat=_chat("zy", per_chat=False)) == ["zy"]
    assert index.people("Neko在吗", chat=_chat()) == ["nk"]  # registered by hand: everywhere


def test_a_private_chat_reads_its_persons_chats_and_anyone() -> None:
    index = _index(AliasEntry("怡宝", "zy", "learned", CLUB), wl="王磊", zy="周怡")
    dm = Chat(frozenset({"u:ni", CLUB}), None)
    assert index.people("怡宝最近怎么样", chat=dm) == ["zy"]
    assert index.people("老王最近怎么样", chat=dm) == ["wl"]  # anyone of the tenant who fits
    assert index.people("王老师最近怎么样", chat=dm) == []
    assert index.people("怡宝最近怎么样", chat=Chat(frozenset({"u:ni"}), None)) == []


def test_a_guess_said_elsewhere_is_still_a_guess_here() -> None:
    # learned in the club, read in the study group: the generated row alone, under the guess rules
    index = _index(AliasEntry("周工", "zn", "learned", CLUB), zn="周霓")
    assert index.people("周工在吗", chat=_chat("zn", owner=CLUB)) == ["zn"]
    assert index.people("周工在吗", chat=_chat("zn")) == []  # a title


def test_an_unknown_policy_is_refused() -> None:
    with pytest.raises(InvalidInput, match="guesses='some' is invalid"):
        Chat(frozenset(), None, guesses="some")


def test_a_thing_counted_in_bottles_is_nobody() -> None:
    index = _index(AliasEntry("怡宝", "zy", "learned", CLUB), AliasEntry("可乐", "kl", "name"), zy="周怡")
    assert index.people("帮我带瓶怡宝，谢谢", chat=_chat("zy", owner=CLUB)) == []
    assert index.people("买了两杯可乐") == []  # read anywhere, too
    assert index.people("怡宝帮我带瓶水", chat=_chat("zy", owner=CLUB)) == ["zy"]
    assert index.people("听老王说了", chat=_chat("zy", "wl")) == []  # 听 is a verb here; 王磊 is no member
    assert _index(wl="王磊").people("听老王说了", chat=_chat("wl")) == ["wl"]


def test_a_capitalised_name_in_lower_case_is_a_word_for_a_guess() -> None:
    index = _index(AliasEntry("Neko", "nk", "learned", STUDY), AliasEntry("neko_z", "nk", "mention", STUDY),
                   tb="Tom Becker")
    chat = _chat("nk", "tb")
    assert index.people("the tom yum soup there is amazing", chat=chat) == []  # a guess from "Tom Becker"
    assert index.people("Tom, are you coming?", chat=chat) == ["tb"] and index.people("TOM!", chat=chat) == ["tb"]
    assert index.people("thanks tom", chat=chat) == []  # the price: a guess wants its capital
    assert index.people("there's a neko café near Jing'an", chat=chat) == []  # the writer capitalises names
    assert index.people("neko you coming?", chat=chat) == ["nk"]  # someone who writes in lower case throughout
    assert index.people("ping neko_z", chat=chat) == ["nk"]  # said in lower case: no capital to miss
    assert index.people("the tom yum soup there is amazing", {"tb"}) == ["tb"]  # read nowhere in particular
