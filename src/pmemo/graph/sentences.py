"""One plain sentence per triple (pure), in the language of what was said.

A triple that says what a profile fact says is said as that fact (``rules.sentences``):
(霓霓, works_at, 腾讯) reads "霓霓在腾讯工作" like the fact ``employer`` = 腾讯. A relation
between people has its own sentence in ``predicates``, Chinese when a name is; a predicate a
language model made up reads as its words.

>>> from datetime import datetime
>>> from pmemo.models import Scope, Triple
>>> t = Triple(1, Scope.of(group_id="g"), "ni", "person", "has_pet", "年糕", "thing", "cat",
...            datetime(2026, 1, 1), None, 0.8, (), "霓霓", "年糕")
>>> triple_sentence(t)
'霓霓的猫叫年糕'
>>> triple_sentence(Triple(2, Scope.of(group_id="g"), "bob", "person", "colleague_of", "ann", "person", None,
...                        datetime(2026, 1, 1), None, 0.8, (), "Bob", "Ann"))
'Bob and Ann are colleagues'
"""

from __future__ import annotations

import re

from ..models import Triple
from ..rules.sentences import fact_sentence
from .predicates import predicate

_HAN = re.compile(r"[\u4e00-\u9fff]")
# predicate → the fact (key, value) it says, over {o} (the object) and {q} (the qualifier)
_AS_FACT = {
    "works_at": ("employer", "{o}"), "lives_in": ("home_city", "{o}"), "studies_at": ("school", "{o}"),
    "studies": ("major", "{o}"), "job": ("job", "{o}"), "birthday": ("birthday", "{o}"), "diet": ("diet", "{o}"),
    "has_pet": ("pet:{q}", "{o}"), "likes": ("opinion:{o}", "likes"), "dislikes": ("opinion:{o}", "dislikes"),
    "allergic_to": ("allergy:{o}", "allergic"), "avoids": ("diet:{o}", "does not {q}"),
    "favorite": ("favorite:{q}", "{o}"),
}  # fmt: skip
_NEEDS_QUALIFIER = ("has_pet", "favorite")
_OTHER = {"has_pet": ("{s}养了{o}", "{s} has a pet named {o}")}


def triple_sentence(t: Triple) -> str:
    """The triple as one sentence about its subject, by the display names it carries."""
    s, o = t.subject_name or t.subject, t.object_name or t.object
    if t.predicate in _AS_FACT and (t.qualifier or t.predicate not in _NEEDS_QUALIFIER):
        key, value = _AS_FACT[t.predicate]
        q = t.qualifier or "eat"
        return fact_sentence(s, "fact", key.format(o=o, q=q), value.format(o=o, q=q))
    p = predicate(t.predicate)
    zh_form, en_form = _OTHER.get(t.predicate, (p.zh, p.en))
    zh = bool(_HAN.search(s) or _HAN.search(o))
    form = zh_form if zh else en_form
    if not form:
        words = t.predicate.replace("_", " ")
        form = "{s}：" + words + " {o}" if zh else "{s} " + words + " {o}"
    return form.format(s=s, o=o)
