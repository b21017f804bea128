"""Scoring the phrasing set: what pmemo learned from each line against the line's labels. Pure.

What pmemo learned is read through the public API and flattened to ``Produced`` items, one per
(fact or agenda item, source line): a fact of any version (superseded ones too: what was learned
from a line stays learned from it) and an agenda item (pmemo keeps dated plans there).

The matching rule, defined once here:

- **Person, strictly**: the produced item's subject is the label's person (for a relative of the
  speaker, the speaker). A fact with no subject belongs to its scope's owner, which a group has none of.
- **Kind, leniently**: the produced item's kind is read off its category and key (``kind_of``); it
  must be the label's kind or a close one (``PAIRS``: work, study and events; home and events;
  family with events, pets and home; health, likes and habits; likes with opinions and study; habits
  with study and events). An item whose kind cannot be told ("fact · note") fits any kind. A label about a
  relative also accepts a family item ("daughter: allergic to eggs").
- **Words**: every word group of the label appears, by one of its alternatives, case-folded, in the
  item's key, value and date (an agenda item: its ``what`` and day; never the whole message).

A label is **found** when an item drawn from its line matches it on all three; it is a **subject
error** when an item from its line matches on kind and words but is filed under another person.
Recall = found / labels; subject accuracy = found / (found + subject errors). An item is **right**
(for precision) when its line states a fact of that person and a close kind: precision judges
inventing facts, recall judges finding the value, so "job: 后端" from "我在字节做后端" (labelled
work:字节) is no false fact. Every item drawn from a negative line is a false fact.
A **correction** (a label with ``ends``) is handled when its new value is found and, once the chat
is over, no current item of that person and a close kind carries an ended word without carrying
the new value (a value that keeps both, "下周四（原定周三）", is not the old value).

>>> lab = Label("ni", "health", (("花生", "peanut"),), "self")
>>> fits(lab, Produced("g", 0, "ni", "health", "allergy:花生 allergic", True))
True
>>> fits(lab, Produced("g", 0, "jie", "health", "allergy:花生 allergic", True))
False
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .phrasing_spec import KINDS, NEGATIVE, Chat, Label, Line

# kinds close enough that filing a fact under either is no error: a pair either way round
PAIRS = (
    ("work", "study"), ("work", "events"), ("study", "events"), ("home", "events"), ("family", "events"),
    ("family", "pets"), ("family", "home"), ("health", "habits"), ("health", "likes"), ("likes", "habits"),
    ("likes", "opinions"), ("likes", "study"), ("habits", "study"), ("habits", "events"),
)


def _close_kinds() -> dict[str, frozenset[str]]:
    near = {k: {k} for k in KINDS}
    for a, b in PAIRS:
        near[a].add(b)
        near[b].add(a)
    return {k: frozenset(v) for k, v in near.items()}


CLOSE = _close_kinds()

# a produced fact's kind from the head of its key (before any ":"), then from its category: a word of
# this table equal to a word of it (Latin words of 5 letters or more: its start), or a Chinese word in
# it; the first kind whose word is found wins; None when neither tells
_KIND_WORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("health", ("allergy", "allergic", "diet", "health", "medical", "medication", "condition", "illness",
                "disease", "过敏", "健康", "饮食", "忌口")),
    ("pets", ("pet", "pets", "dog", "dogs", "cat", "cats", "宠物")),
    ("family", ("family", "relationship", "relation", "partner", "spouse", "wife", "husband", "married",
                "sister", "brother", "mother", "father", "parent", "parents", "child", "children", "son",
                "daughter", "kid", "kids", "girlfriend", "boyfriend", "sibling", "家人", "家庭", "亲属")),
    ("work", ("employer", "job", "work", "works", "occupation", "company", "career", "role", "profession",
              "title", "intern", "internship", "工作", "职业")),
    ("study", ("school", "major", "study", "studies", "degree", "university", "college", "course", "student",
               "学校", "专业", "学习")),
    ("home", ("home", "city", "live", "lives", "moved", "address", "hometown", "residence", "住")),
    ("events", ("event", "events", "plan", "plans", "exam", "race", "trip", "agenda", "appointment",
                "计划", "考试", "活动")),
    ("opinions", ("opinion", "view", "views", "belief", "看法", "观点")),
    ("habits", ("habit", "tool", "tools", "routine", "use", "uses", "skill", "skills", "procedural", "习惯")),
    ("likes", ("like", "likes", "dislike", "dislikes", "favorite", "favourite", "hobby", "hobbies", "interest",
               "preference", "love", "loves", "hate", "hates", "喜欢", "爱好")),
    ("name", ("name", "nickname", "call", "pronoun", "pronouns", "tone", "称呼", "名字")),
)
_LATIN = re.compile(r"[a-z]+")


@dataclass(frozen=True)
class Produced:
    """What pmemo learned from one line: whose (None: nobody's), its kind (None: cannot tell), the
    text a label's words are looked for in, whether it is current, and a reference for reports."""

    chat: str
    line: int
    person: str | None
    kind: str | None
    words: str
    current: bool
    ref: str = ""


def kind_of(category: str, key: str) -> str | None:
    """The kind of a stored fact, read off its key and then its category.

    >>> kind_of("fact", "employer"), kind_of("preference", "opinion:周报"), kind_of("fact", "note")
    ('work', 'opinions', None)
    >>> kind_of("fact", "person"), kind_of("fact", "home_city"), kind_of("health", "花粉过敏")
    (None, 'home', 'health')
    """
    for text in (key.split(":", 1)[0].casefold(), category.casefold()):
        if text in KINDS:  # a new extractor may name its kinds as the issue does
            return text
        latin = _LATIN.findall(text)
        for kind, words in _KIND_WORDS:
            if any(_said(w, text, latin) for w in words):
                return kind
    return None


def _said(word: str, text: str, latin: list[str]) -> bool:
    if not word.isascii():
        return word in text
    return any(t == word or (len(word) >= 5 and t.startswith(word)) for t in latin)


def close(label_kind: str, kind: str | None, *, relative: bool = False) -> bool:
    """Whether an item of ``kind`` may stand for a label of ``label_kind``.

    >>> close("work", "study"), close("work", "pets"), close("pets", None), close("health", "family", relative=True)
    (True, False, True, True)
    """
    return kind is None or kind in CLOSE[label_kind] or (relative and kind == "family")


def has_words(words: tuple[tuple[str, ...], ...], text: str) -> bool:
    """Every group of ``words`` in ``text`` by one of its alternatives, case-folded.

    >>> has_words((("考试",), ("周四", "2026-11-12")), "event:考试 2026-11-12"), has_words((("a", "b"),), "c")
    (True, False)
    """
    text = text.casefold()
    return all(any(alt.casefold() in text for alt in group) for group in words)


def fits(label: Label, item: Produced) -> bool:
    """The matching rule: the label's person, a close kind, and its words."""
    return item.person == label.person and _kind_and_words(label, item)


def _kind_and_words(label: Label, item: Produced) -> bool:
    return close(label.kind, item.kind, relative=label.about == "relative") and has_words(label.words, item.words)


def score(chats: Sequence[Chat], produced: Iterable[Produced]) -> dict[str, Any]:
    """Recall and precision per kind and language, subject accuracy, corrections and the false facts
    from negatives, for what pmemo learned (``produced``) from the lines of ``chats``."""
    lines = {line.idx: line for c in chats for line in c.lines}
    items = [p for p in produced if p.line in lines]
    from_line: dict[int, list[Produced]] = defaultdict(list)
    for p in items:
        from_line[p.line].append(p)
    labels = _labels(lines.values(), from_line)
    judged = [_judge(p, lines[p.line]) for p in items]
    return {
        "recall": _recall(labels),
        "precision": _precision(judged),
        "subjects": _subjects(labels),
        "corrections": _corrections(labels, items),
        "negatives": _negatives(lines.values(), from_line),
        "misses": [_miss(r) for r in labels if r["state"] != "found"],
        "false": [{"line": j["line"].text, "item": j["item"].ref, "person": j["item"].person,
                   "why": j["line"].why or "no label of that person and kind"} for j in judged if not j["right"]],
    }


def _labels(lines: Iterable[Line], from_line: dict[int, list[Produced]]) -> list[dict[str, Any]]:
    """Each label with what became of it: "found", "subject" (under another person) or "missed"."""
    rows = []
    for line in lines:
        for label in line.labels:
            mine = from_line.get(line.idx, [])
            if any(fits(label, p) for p in mine):
                state = "found"
            elif any(_kind_and_words(label, p) for p in mine):
                state = "subject"
            else:
                state = "missed"
            rows.append({"line": line, "label": label, "state": state, "items": mine})
    return rows


def _judge(item: Produced, line: Line) -> dict[str, Any]:
    """An item is right when its line states a fact of its person and a close kind (never on a negative)."""
    match = next((lab for lab in line.labels
                  if lab.person == item.person and close(lab.kind, item.kind, relative=lab.about == "relative")), None)
    return {"item": item, "line": line, "right": match is not None,
            "kind": match.kind if match else (item.kind or "unknown")}


def _ratio(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def _recall(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {"all": _share(rows, lambda r: r["state"] == "found")}
    for lang in ("zh", "en"):
        mine = [r for r in rows if r["line"].lang == lang]
        out[lang] = _share(mine, lambda r: r["state"] == "found")
    out["by_kind"] = {k: {lang: _share([r for r in rows if r["label"].kind == k and r["line"].lang in langs],
                                       lambda r: r["state"] == "found")
                          for lang, langs in (("all", ("zh", "en")), ("zh", ("zh",)), ("en", ("en",)))}
                      for k in KINDS}
    out["by_about"] = {a: _share([r for r in rows if r["label"].about == a], lambda r: r["state"] == "found")
                       for a in ("self", "named", "relative")}
    return out


def _precision(judged: Sequence[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {"all": _share(judged, lambda j: j["right"])}
    for lang in ("zh", "en"):
        out[lang] = _share([j for j in judged if j["line"].lang == lang], lambda j: j["right"])
    kinds = [*KINDS, "unknown"]
    out["by_kind"] = {k: {lang: _share([j for j in judged if j["kind"] == k and j["line"].lang in langs],
                                       lambda j: j["right"])
                          for lang, langs in (("all", ("zh", "en")), ("zh", ("zh",)), ("en", ("en",)))}
                      for k in kinds}
    return out


def _share(rows: Sequence[Any], good: Any) -> dict[str, Any]:
    hits = sum(1 for r in rows if good(r))
    return {"n": len(rows), "hits": hits, "rate": _ratio(hits, len(rows))}


def _subjects(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    found = sum(r["state"] == "found" for r in rows)
    wrong = sum(r["state"] == "subject" for r in rows)
    return {"found": found, "wrong": wrong, "accuracy": _ratio(found, found + wrong)}


def _corrections(rows: Sequence[dict[str, Any]], items: Sequence[Produced]) -> dict[str, Any]:
    right, old_current, failures = 0, 0, []
    for r in rows:
        label: Label = r["label"]
        if not label.ends:
            continue
        chat = r["line"].chat
        stale = [p for p in items if p.chat == chat and p.current and p.person == label.person
                 and close(label.kind, p.kind) and has_words((label.ends,), p.words)
                 and not has_words(label.words, p.words)]
        old_current += bool(stale)
        if r["state"] == "found" and not stale:
            right += 1
        else:
            failures.append({"line": r["line"].text, "new_found": r["state"] == "found",
                             "still_current": [p.ref for p in stale]})
    n = sum(bool(r["label"].ends) for r in rows)
    return {"n": n, "right": right, "old_current": old_current, "rate": _ratio(right, n), "failures": failures}


def _negatives(lines: Iterable[Line], from_line: dict[int, list[Produced]]) -> dict[str, Any]:
    neg = [line for line in lines if line.why is not None]
    with_facts = [line for line in neg if from_line.get(line.idx)]
    by_why = {w: {"lines": sum(line.why == w for line in neg), "with_facts": sum(line.why == w for line in with_facts)}
              for w in NEGATIVE}
    by_lang = {lang: {"lines": sum(line.lang == lang for line in neg),
                      "with_facts": sum(line.lang == lang for line in with_facts)} for lang in ("zh", "en")}
    return {
        "lines": len(neg),
        "with_facts": len(with_facts),
        "facts": sum(len(from_line.get(line.idx, [])) for line in neg),
        "rate": _ratio(len(with_facts), len(neg)),
        "by_why": by_why,
        "by_lang": by_lang,
        "examples": [{"line": line.text, "why": line.why, "items": [p.ref for p in from_line[line.idx]]}
                     for line in with_facts],
    }


def _miss(row: dict[str, Any]) -> dict[str, Any]:
    label: Label = row["label"]
    return {
        "line": row["line"].text,
        "state": row["state"],
        "person": label.person,
        "kind": label.kind,
        "words": ["|".join(g) for g in label.words],
        "got": [f"{p.person}: {p.ref}" for p in row["items"]],
    }

