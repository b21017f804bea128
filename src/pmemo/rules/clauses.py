"""The sentences and clauses of a message (pure), zh/en: where each starts, which one asks,
and where what it says for sure ends.

The fact rules (``extract_rules``), the plans (``agenda_rules``) and the attribution of
statements to people (``attribution``) cut a message the same way: a sentence ends at
。！？!?. or a line break; a clause at a comma, "but", 但是/不过/可是 (not "我可是…", emphasis),
or " and I" opening a second clause with its own subject.

>>> text = "我喜欢猫，但是不喜欢狗。You?"
>>> [text[a:b] for a, b in sentence_spans(text)], [text[a:b] for a, b in clause_spans(text, 0, 12)]
(['我喜欢猫，但是不喜欢狗。', 'You?'], ['我喜欢猫', '不喜欢狗。'])
"""

from __future__ import annotations

import re

from .speaker import QUESTION, SENTENCE

__all__ = ["CLAUSE", "OPENERS", "certain_end", "clause_spans", "is_hedged", "is_question", "question_start",
           "sentence_spans"]

# words that may open a clause before its subject: fillers, hearsay, times (not a subject
# themselves: attribution looks past them, a fact rule takes none for a topic)
OPENERS = (
    r"(?:听说|据说|原来|对了|哦对|话说|其实|另外|还有|而且|然后|所以|因为|不过|那|哦|噢|啊|嗯|诶|欸|哈+|嘿|"
    r"记得|别忘了|提醒一下|提醒大家|谁懂啊?|提前说一声|提前说下|私下跟你说|私下说|跟你说|说真的|说实话|讲真|老实说|"
    r"顺便说一下|顺便|今天|明天|后天|大后天|昨天|前天|刚才|刚刚|最近|现在|以后|之前|上午|下午|晚上|早上|中午|今晚|"
    r"(?:下下?|这|本|上)?(?:周|星期|礼拜)(?:[一二三四五六日天]|末)|(?:下下?|这|本|上)(?:周|星期|礼拜)|\d{1,2}月\d{1,2}[日号]|"
    r"(?i:by the way|btw|oh|so|and|also|well|apparently|fyi|today|tomorrow|yesterday|actually|anyway|"
    r"remember|don't forget|heads up|just so you know|for the record|reminder|psa|honestly|tbh|just between us|"
    r"between you and me|between us|"
    r"then|hey|lol|haha|on \w+day|next week|this week|last week|recently|tonight))"
)
# 但是/不过/可是 join two clauses, but not after a pronoun: "我可是海鲜过敏的" is emphasis
CLAUSE = re.compile(r"[，,;；]|\bbut\b|(?<![我你他她])(?:但是|不过|可是)")
_HEDGE_EN = re.compile(
    r"\b(i think|i guess|i suppose|i believe|maybe|perhaps|probably|might|"
    r"not sure|possibly|kind of|sort of|if|whether|unless)\b",
    re.I,
)
_HEDGE_ZH = re.compile(r"我觉得|我想我|可能|也许|大概|好像|或许|不确定|说不定|如果|要是|假如|应该吧|似乎")
_CONDITION = re.compile(r"如果|要是|假如|万一|除非|的话|\b(?i:if|unless|provided|as long as)\b")
_AND_I = re.compile(r"(?<!\s)\s+and\s+(?=(?-i:I)\b(?!\s+(?:both|all|are|were|have|'re|'ve)\b))")  # from a run's start
_ASKS = re.compile(
    r"[?？]|吗|呢|谁|什么|哪|怎么|怎样|多少|是不是|有没有|要不要|能不能|会不会|为啥|为什么|咋"
    r"|\b(?i:who|what|where|when|why|how|which|anyone|anybody|any|do you|did you|is it|are you|have you|will you)\b"
    r"|^(?i:is|are|do|does|did|can|could|should|would|will|have|has)\b"
)


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
    for sep in [*CLAUSE.finditer(text, start, end), *_and_i(text, start, end), None]:
        stop = sep.start() if sep else end
        piece = text[at:stop]
        if piece.strip():
            lead = len(piece) - len(piece.lstrip())
            out.append((at + lead, at + len(piece.rstrip())))
        if sep:
            at = sep.end()
    return sorted(out)


def _and_i(text: str, start: int, end: int) -> list[re.Match[str]]:
    """ " and I" that starts a second clause: "Priya lives in Leeds and I live in York", not the
    short subject of "Neko and I like sushi" (three words or fewer before it)."""
    out = []
    for m in _AND_I.finditer(text, start, end):
        since = max([start, *(s.end() for s in CLAUSE.finditer(text, start, m.start()))])
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
        if is_hedged(clause):
            bare = not re.sub(r"[\W_吧的啦了啊呢哈]", "", _HEDGE_EN.sub("", _HEDGE_ZH.sub("", clause)))
            return None if i == 0 or bare or _CONDITION.search(clause) else a
    return end


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
    return bool(_HEDGE_EN.search(text) or _HEDGE_ZH.search(text))
