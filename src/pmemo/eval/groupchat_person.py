"""Person questions of the group-chat scenario (issue 44 §3, §9): a member asks the agent about
another member — who they are ("你认识霓霓吗", "who is Sam?"), one of their facts ("霓霓对什么
过敏来着", "where is Tom based?"), or the same with a pronoun right after a message that named them
("刚看到周霓发的朋友圈" … "她对什么过敏来着"). Each asks for what the person said in that chat,
and the context the asker gets at 600 tokens should hold it.

Several phrasings per kind and language, written for this measure (not the search questions'
``ASK`` templates), with and without the words a fact's kind is usually asked with; names are
the nickname the chat uses or the display name. A generator of its own (``random.Random`` seeded
apart from the scenario's stream), so adding these questions changes no other check.

>>> from pmemo.eval.groupchat_data import FACTS
>>> qs = person_questions(0, {f.key: (f.scope,) for f in FACTS if f.scope != "dm"}, "2026-01-29T10:00:00+08:00")
>>> {q.kind for q in qs} == {"who", "fact", "pronoun"}, all(q.answers for q in qs)
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from .groupchat_data import BY_ID, CAST, DAYS, FACTS, FILLER, FOOD, KNOWN_NICK, LANG, ScriptFact
from .groupchat_scenario import PersonQuestion

# {n}: the person (a name, or 她 / she), {o}: them (Sam / her), {ns}: theirs (Sam's / her); a
# Chinese phrasing says {n} and {n}的
ASKS: dict[tuple[str, str], tuple[str, ...]] = {
    ("allergy", "zh"): ("{n}对什么过敏来着", "{n}是不是有啥东西不能碰？会过敏那种", "点外卖要避开{n}什么东西来着",
                        "{n}过敏的是啥"),
    ("allergy", "en"): ("what is {n} allergic to again?", "{n} has an allergy, right? to what?",
                        "anything {n} can't eat because of an allergy?", "remind me what {ns} allergy is"),
    ("diet", "zh"): ("{n}有什么忌口吗", "{n}最近吃东西有啥讲究", "请{n}吃饭要注意什么", "{n}是不是在控制饮食来着"),
    ("diet", "en"): ("does {n} have any food restrictions?", "what does {n} eat, anything special?",
                     "if we cook for {o}, what should we keep in mind?"),
    ("likes", "zh"): ("{n}平时喜欢什么", "{n}最爱的是啥", "{n}有什么特别爱的吗", "送{n}点什么{n}会开心"),
    ("likes", "en"): ("what does {n} love?", "what is {n} really into?", "what's {ns} favourite thing?"),
    ("dislikes", "zh"): ("{n}最讨厌什么来着", "{n}受不了什么", "有什么是{n}特别反感的"),
    ("dislikes", "en"): ("what does {n} hate?", "is there anything {n} can't stand?",
                         "what should we avoid around {o}?"),
    ("employer", "zh"): ("{n}在哪家公司", "{n}现在在哪上班", "{n}是哪个公司的来着", "{n}在哪高就"),
    ("employer", "en"): ("where does {n} work?", "which company is {n} at these days?", "who does {n} work for now?"),
    ("city", "zh"): ("{n}住哪儿来着", "{n}现在在哪个城市", "{n}家在哪边"),
    ("city", "en"): ("where does {n} live?", "which city is {n} in now?", "where is {n} based?"),
    ("pet", "zh"): ("{n}家的宠物叫啥", "{n}养的那个小家伙叫什么名字", "{n}养了个什么来着"),
    ("pet", "en"): ("what's {ns} pet called?", "does {n} have a pet? what's its name?", "what did {n} name {ns} pet?"),
    ("school", "zh"): ("{n}哪个学校的", "{n}读的什么专业", "{n}在哪读的书", "{n}是学什么的"),
    ("school", "en"): ("where does {n} study?", "what is {n} studying?", "which school is {n} at?"),
    ("title", "zh"): ("{n}是做什么的", "{n}干哪一行的", "{n}的工作是啥", "{n}职业是什么"),
    ("title", "en"): ("what does {n} do for a living?", "what's {ns} job?", "what line of work is {n} in?"),
    ("who", "zh"): ("你认识{n}吗", "{n}是谁啊", "{n}是个什么样的人", "介绍一下{n}", "有人了解{n}吗"),
    ("who", "en"): ("do you know {o}?", "who is {n}?", "tell me about {o}", "what do we know about {o}?"),
}  # fmt: skip
# a chat line that names a person in passing, about none of their facts
NAMING: dict[str, tuple[str, ...]] = {
    "zh": ("{n}今天怎么没来", "刚看到{n}发的朋友圈", "@{n} 周末一起吗", "{n}好久没冒泡了", "等下{n}也过来",
           "{n}刚才私聊我了"),
    "en": ("has anyone heard from {n} lately?", "just saw {n} at the cafe", "@{n} are you coming Saturday?",
           "{n} hasn't posted in ages", "{n} is joining us later"),
}
PRONOUNS = {("zh", "f"): ("她", "她", "她的"), ("zh", "m"): ("他", "他", "他的"), ("en", "f"): ("she", "her", "her"),
            ("en", "m"): ("he", "him", "his")}
IDENTITY = ("employer", "title", "school", "city")  # what says who someone is, when they said one
KINDS = ("who", "fact", "pronoun")


def person_questions(seed: int, said: Mapping[str, Sequence[str]], at: str) -> tuple[PersonQuestion, ...]:
    """Person questions about every fact of every group (``said``: fact key → the groups it was
    said in), asked ``at``: per person and group one "who", per fact one by name and one by
    pronoun after a line naming them (sometimes after a line naming someone else first)."""
    rng = random.Random(f"person-questions:{seed}")
    out: list[PersonQuestion] = []

    def ask(kind: str, query: str, group: str, pid: str, recent: list[str], answers: tuple[str, ...]) -> None:
        asker = rng.choice(_speakers(group, pid))
        out.append(PersonQuestion(f"p{len(out):03d}", query, group, asker, at, tuple(recent), pid, kind, answers,
                                  LANG[group]))

    mine: dict[tuple[str, str], list[ScriptFact]] = {}
    for fact in FACTS:
        if fact.scope != "dm" and not fact.key.endswith(".old"):
            for group in dict.fromkeys(said.get(fact.key, ())):
                mine.setdefault((fact.pid, group), []).append(fact)
    for (pid, group), facts in mine.items():
        lang = LANG[group]
        known = tuple(v for f in facts if f.kind in IDENTITY for v in _values(f))
        every = tuple(v for f in facts for v in _values(f))
        ask("who", _ask(rng, "who", lang, _name(rng, pid, group)), group, pid, _small(rng, lang), known or every)
        for f in facts:
            ask("fact", _ask(rng, f.kind, lang, _name(rng, pid, group)), group, pid, _small(rng, lang), _values(f))
        for f in facts:  # by pronoun: "她对什么过敏来着" right after a line that named her
            he, him, his = PRONOUNS[(lang, BY_ID[pid].gender)]
            kind = rng.choice([f.kind, "who"])
            recent = _small(rng, lang)
            if rng.random() < 0.5:  # someone else named before: the latest one named is meant
                other = rng.choice(_speakers(group, pid))
                recent.append(rng.choice(NAMING[lang]).format(n=_name(rng, other, group)))
            recent.append(rng.choice(NAMING[lang]).format(n=_name(rng, pid, group)))
            query = rng.choice(ASKS[(kind, lang)]).format(n=he, o=him, ns=his)
            ask("pronoun", query, group, pid, recent, (known or every) if kind == "who" else _values(f))
    return tuple(out)


def _values(f: ScriptFact) -> tuple[str, ...]:
    """What answers a question about ``f``: its value (a school's major too)."""
    return (f.value, f.extra) if f.kind == "school" else (f.value,)


def _speakers(group: str, pid: str) -> list[str]:
    return [m.id for m in CAST if group in m.groups and m.id != pid and (m.silent_after or DAYS) >= DAYS]


def _name(rng: random.Random, pid: str, group: str) -> str:
    """What the chat calls them: its nickname for them or their display name now."""
    m = BY_ID[pid]
    now = m.names[-1][0]
    return m.nick if (pid, group) in KNOWN_NICK and rng.random() < 0.5 else now


def _ask(rng: random.Random, kind: str, lang: str, name: str) -> str:
    return rng.choice(ASKS[(kind, lang)]).format(n=name, o=name, ns=name + ("的" if lang == "zh" else "'s"))


def _small(rng: random.Random, lang: str) -> list[str]:
    """A line or two of small talk: what the chat said just before."""
    return [rng.choice(FILLER[lang]).format(food=rng.choice(FOOD[lang]), k=rng.randint(3, 12))
            for _ in range(rng.randint(1, 2))]
