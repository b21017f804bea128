"""What an answer says, read with the question it answers (pure; issue 44 §2).

An answer in a group is often nothing without its question: "@周霓 对，我也是" to "有人对花粉过敏吗？",
"对" to "你是不是在腾讯上班？", "她对花粉过敏" to "周霓对什么过敏？". ``restated`` writes what such an
answer states as a sentence of its own, in its speaker's first person, so the fact reading that
follows (statements, rules) finds the subject and the words in the question:

>>> restated("有人对花粉过敏吗？", "@周霓 对，我也是")
'我对花粉过敏'
>>> restated("@王磊 你是不是在腾讯上班？", "对")
'我在腾讯上班'
>>> restated("Does anyone here have a cat?", "me too")
'I have a cat'
>>> restated("周霓对什么过敏？", "@李琴 她对花粉过敏", "周霓")
'周霓对花粉过敏'
>>> restated("明天几点集合？", "八点") is None, restated("有人对花粉过敏吗？", "不是") is None
(True, True)
"""

from __future__ import annotations

import re

_AT = re.compile(r"^(?:\s*[@＠][^\s@＠，,:：]+\s*)+")
_YES_ZH = re.compile(r"^(?:对|对的|是的|是啊|是呀|嗯|嗯嗯|没错|是|对啊|对呀|我也是|我也|\+1)"
                     r"(?:[，,。!！~～\s]*(?:我也是|我也|是的|对))*[。!！~～\s]*$")
_YES_EN = re.compile(r"^(?:yes|yeah|yep|yup|me too|same here|same|i do|i am|correct|right)(?:[,.!\s]+"
                     r"(?:me too|i do|same here|i am))*[.!\s]*$", re.IGNORECASE)
_ASK_ZH = re.compile(r"^(?:请问|问一下|大家|群里)?(?:有没有人|有人|有谁|谁|你是不是|你是否|你|有没有谁)(?P<rest>.+?)"
                     r"(?:吗|么|嘛|呢)?[?？。!！\s]*$")
_ASK_EN = re.compile(r"^(?:does|do|is|are|did|has|have) (?:anyone|anybody|someone|you)(?: here| else)?"
                     r" (?P<rest>.+?)\??$", re.IGNORECASE)
_EN_VERB = {"does": "", "do": "", "did": "", "has": "have", "have": "have", "is": "am", "are": "am"}
_HIM_ZH = re.compile(r"^(?:她|他)")
_HIM_EN = re.compile(r"^(?:she|he)\b", re.IGNORECASE)


def restated(question: str, answer: str, named: str | None = None) -> str | None:
    """The answer as a sentence of its own, or None when it says nothing more than it reads.

    ``named``: the one person the question names, as it names them (a pronoun opening the
    answer is them)."""
    body = _AT.sub("", answer).strip()
    asked = _AT.sub("", question).strip()
    asked = re.split(r"(?<=[?？])", asked, maxsplit=1)[0].strip()  # the question, not what follows it
    if not body or not asked:
        return None
    if _YES_ZH.match(body):
        m = _ASK_ZH.match(asked)
        if m is None:
            return None
        rest = re.sub(r"^(?:是不是|是否)", "", m.group("rest")).strip()
        return f"我{rest}" if rest and "什么" not in rest and "哪" not in rest else None
    if _YES_EN.match(body):
        m = _ASK_EN.match(asked)
        if m is None:
            return None
        verb = asked.split()[0].lower()
        rest = m.group("rest").strip()
        lead = _EN_VERB.get(verb, "")
        return f"I {lead + ' ' if lead else ''}{rest}".replace("  ", " ")
    if named:
        if _HIM_ZH.match(body):
            return named + body[1:]
        if _HIM_EN.match(body):
            return _HIM_EN.sub(named, body, count=1)
    return None
