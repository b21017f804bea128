"""The labelled clause set the statement model learns from, generated (pure, seeded).

Templates (``templates_zh``, ``templates_en``) filled with words (``lexicon``) under a subject
(the speaker, a named person, a relative, "you", "she"), wrapped in a mode (a question, a wish,
a joke, a report, a correction), and typed as chat members type (``shapes``). The dev split
uses other templates (every fourth of each list), other words and another seed than the
training split, so its accuracy says how far the model reaches past what it was shown.

>>> ex = generate("train", 50, seed=1)
>>> len(ex), {e.lang for e in ex} == {"zh", "en"}
(104, True)
>>> generate("dev", 5, seed=2) == generate("dev", 5, seed=2)
True
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType

from . import lexicon, templates_en, templates_zh
from .clauses import clauses
from .labels import Label
from .shapes import im_shape

SPLITS = ("train", "dev")
# family and partners: their facts go on the speaker's card; a friend's, a colleague's or a
# roommate's are nobody's here (``lexicon`` "acq")
_RELATIVE = re.compile(r"我(?:的)?(?:表姐|表哥|妹妹|姐姐|哥哥|弟弟|妈|爸|老公|老婆|对象|男朋友|女朋友|儿子|女儿)"
                       r"|\bmy (?:cousin|sister|brother|mom|dad|wife|husband|son|daughter)")
_SLOT = re.compile(r"\{([^{}]+)\}")

NAMED_NONE = {
    "zh": ("{name}在吗", "@{name} 收到", "谢谢{name}", "{name}快来看", "{name}生日快乐！", "{name}你太强了",
           "哈哈哈{name}笑死我了", "@{name} 看群公告", "{name}呢？", "{name}晚安", "等等{name}", "{name}冲啊"),
    "en": ("@{name} thanks!", "{name} you there?", "happy birthday {name}!", "lol {name}", "{name} check this out",
           "thanks {name}", "where's {name}", "go {name}!"),
}


# a share of the open-class words of the training clauses are made up ("我在理起小上班"), so the
# model learns the frame a word sits in, not the words a template list happens to hold
UNSEEN = 0.3
_OPEN_SLOTS = frozenset({"company", "job", "parttime", "city", "district", "school", "major", "exam", "race", "pet",
                         "petname", "food", "allergen", "illness", "hobby", "tool", "topic", "event", "name"})
_HAN_POOL = ("理起小物现实加量都体制机当使点从业本去把性好应开合还因由其些然前外天形相全表间样"
             "与关各重新线内数正心反明看原利比质气第向道命此变条只结解问意建月公无系军很情者最"
             "立代想已通并提直题程展果料象员革位入常文总次品式活设及管特件长求老头基资边流路")
_SYLLABLES = ("ka", "lo", "mi", "ren", "tor", "bel", "sa", "vin", "qu", "dor", "el", "na", "pim", "ost", "ra", "ju",
              "fen")


def _pseudo(rng: random.Random, lang: str) -> str:
    """A word nobody uses: 2-3 Han characters, or 2-3 syllables."""
    if lang == "zh":
        return "".join(rng.choice(_HAN_POOL) for _ in range(rng.randint(2, 3)))
    word = "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 3)))
    return word.capitalize() if rng.random() < 0.5 else word


@dataclass(frozen=True)
class Example:
    """One generated clause: its text, its truth, and where the person names in it are (what a
    resolver over the chat's members would find)."""

    text: str
    label: Label
    lang: str
    names: tuple[tuple[int, int], ...]
    template: str


def split_of(index: int) -> str:
    """Which split a template at ``index`` of its list belongs to: every fourth is dev's."""
    return "dev" if index % 4 == 3 else "train"


def _of(items: Sequence[str], split: str) -> list[tuple[int, str]]:
    return [(i, t) for i, t in enumerate(items) if split_of(i) == split] or [(0, items[0])]


class _Render:
    """Fills one template for one subject, recording where names went."""

    def __init__(self, rng: random.Random, lang: str, split: str) -> None:
        self.rng, self.lang, self.split = rng, lang, split
        self.words = lexicon.ZH if lang == "zh" else lexicon.EN

    def word(self, slot: str) -> str:
        train, dev = self.words[slot]
        if self.split == "train" and slot in _OPEN_SLOTS and self.rng.random() < UNSEEN:
            return _pseudo(self.rng, self.lang)
        return self.rng.choice(dev if self.split == "dev" else train)

    def fill(self, template: str, subject: str, name_seen: bool = True) -> tuple[str, list[tuple[int, int]]]:
        """``template`` with ``{I}`` as ``subject`` ("speaker", "named", "relative", "acq": a friend or
        colleague of the speaker, "you", "pronoun")."""
        rng, zh = self.rng, self.lang == "zh"
        named = self.word("name") if subject == "named" else ""
        rel = self.word("rel") if subject == "relative" else self.word("acq") if subject == "acq" else ""
        person = {"speaker": 0, "you": 2}.get(subject, 1)
        out: list[str] = []
        names: list[tuple[int, int]] = []
        at = 0
        for m in _SLOT.finditer(template):
            out.append(template[at : m.start()])
            at = m.end()
            slot = m.group(1)
            if "|" in slot:
                forms = slot.split("|")
                out.append(forms[min(person, len(forms) - 1)] if person < 2 or len(forms) > 2 else forms[0])
                continue
            if slot in ("I", "my"):
                word = self._subject(subject, named, rel, possessive=slot == "my", first=not "".join(out).strip())
                if subject == "named":
                    start = len("".join(out)) + word.find(named)
                    names.append((start, start + len(named)))
            else:
                word = self.word(slot)
                if slot == "name" and (name_seen or rng.random() < 0.5):
                    start = len("".join(out))
                    names.append((start, start + len(word)))
            out.append(word)
        out.append(template[at:])
        text = "".join(out)
        if not zh:
            text = re.sub(r"\s+", " ", text).strip()
        return text, names

    def _subject(self, subject: str, named: str, rel: str, possessive: bool, first: bool) -> str:
        zh, rng = self.lang == "zh", self.rng
        if zh:
            if subject == "speaker":
                return "" if first and not possessive and rng.random() < 0.25 else "我"
            mine = f"我{rel}" if rng.random() < 0.7 else f"我的{rel}"
            return {"named": named, "relative": mine, "acq": mine, "you": "你", "pronoun": rng.choice("她他")}[subject]
        if possessive:
            return {"speaker": "my", "named": f"{named}'s", "relative": f"my {rel}'s", "acq": f"my {rel}'s",
                    "you": "your", "pronoun": rng.choice(("her", "his"))}[subject]
        return {"speaker": "I", "named": named, "relative": f"my {rel}", "acq": f"my {rel}", "you": "you",
                "pronoun": rng.choice(("she", "he"))}[subject]


def _subject_label(subject: str) -> str:
    return subject if subject in ("speaker", "named", "relative") else "other"


@dataclass(frozen=True)
class _Draw:
    """One clause being drawn: its language, split, templates, renderer and kind."""

    rng: random.Random
    lang: str
    split: str
    t: ModuleType
    r: _Render
    kind: str

    def statement(self, subjects: Sequence[str], weights: Sequence[float]
                  ) -> tuple[str, list[tuple[int, int]], str, bool, str]:
        """A statement of the draw's kind: text, name spans, subject, whether a change, template id."""
        rng = self.rng
        i, tpl = rng.choice(_of(self.t.STATE[self.kind], self.split))
        change = tpl.startswith("~")
        subject = rng.choices(subjects, weights)[0] if "{I}" in tpl or "{my}" in tpl else "speaker"
        text, names = self.r.fill(tpl.lstrip("~"), subject, name_seen=self.kind != "name")
        return text, names, subject, change, f"{self.lang}:{self.kind}:STATE:{i}"


def _one(rng: random.Random, lang: str, split: str) -> Example:
    """One clause of the main draw: small talk, a statement, a denial, a question, a wish, joke or
    report, or a correction, by the shares below."""
    t: ModuleType = templates_zh if lang == "zh" else templates_en
    r = _Render(rng, lang, split)
    d = _Draw(rng, lang, split, t, r, rng.choice(sorted(t.STATE)))
    roll = rng.random()
    if roll < 0.25:
        return _small_talk(d)
    if roll < 0.62:
        return _plain(d)
    if roll < 0.71:
        return _denied(d)
    if roll < 0.80:
        return _question(d)
    if roll < 0.94:
        return _wrapped(d)
    return _correction(d)


def _small_talk(d: _Draw) -> Example:
    """Small talk, with and without names."""
    rng, lang = d.rng, d.lang
    pool = d.t.NONE if rng.random() < 0.8 else NAMED_NONE[lang]
    i, tpl = rng.choice(_of(pool, d.split))
    text, names = d.r.fill(tpl, "speaker")
    if rng.random() < 0.15:
        text = text + ("，" if lang == "zh" else ", ") + d.r.fill(rng.choice(_of(d.t.NONE, d.split))[1], "speaker")[0]
    return _done(rng, text, names, Label("none", "other", "plain", "asserted"), lang, f"{lang}:none:{i}")


def _plain(d: _Draw) -> Example:
    """A plain statement: about the speaker most, someone else often."""
    text, names, subject, change, tid = d.statement(
        ("speaker", "named", "relative", "acq", "you", "pronoun"), (0.46, 0.18, 0.13, 0.09, 0.07, 0.07))
    label = Label(d.kind, _subject_label(subject), "plain", "asserted", "change" if change else "same")
    return _done(d.rng, text, names, label, d.lang, tid)


def _denied(d: _Draw) -> Example:
    rng, t = d.rng, d.t
    pool = t.DENY.get(d.kind) or t.DENY["work"]
    kind = d.kind if d.kind in t.DENY else "work"
    i, tpl = rng.choice(_of(pool, d.split))
    subject = rng.choices(("speaker", "named", "relative"), (0.7, 0.15, 0.15))[0] if "{I}" in tpl else "speaker"
    text, names = d.r.fill(tpl, subject)
    return _done(rng, text, names, Label(kind, _subject_label(subject), "plain", "denied"), d.lang,
                 f"{d.lang}:{kind}:DENY:{i}")


# many a question has no question mark: "你在腾讯上班啊", "u still at google"
_ASKED = {"zh": ("{S}吗？", "是不是{S}？", "{S}？", "{S}吗", "{S}了吗", "{S}啊", "{S}不", "真的{S}啊", "{S}是吧",
                 "{S}对吧", "{S}没"),
          "en": ("{S}?", "wait, {S}?", "is it true that {S}?", "so {S}??", "{S} right", "wait {S}", "{S} or not",
                 "so {S} huh", "is it true {S}")}


def _question(d: _Draw) -> Example:
    rng, lang = d.rng, d.lang
    if rng.random() < 0.6:
        i, tpl = rng.choice(_of(d.t.ASK[d.kind], d.split))
        text, names = d.r.fill(tpl, "you")
        label = Label(d.kind, "named" if names else "other", "question", "asserted")
        return _done(rng, text, names, label, lang, f"{lang}:{d.kind}:ASK:{i}")
    text, names, subject, _, tid = d.statement(("you", "named"), (0.7, 0.3))
    wrap = rng.choice(_ASKED[lang])
    return _done(rng, wrap.replace("{S}", text), _shift(names, wrap.find("{S}")),
                 Label(d.kind, _subject_label(subject), "question", "asserted"), lang, tid + ":q")


def _wrapped(d: _Draw) -> Example:
    """A statement inside a wish, a joke or a report."""
    rng, lang, t = d.rng, d.lang, d.t
    mode = rng.choices(("hypothetical", "joke", "report"), (0.4, 0.25, 0.35))[0]
    pool = {"hypothetical": t.HYPOTHETICAL, "joke": t.JOKE, "report": t.REPORT}[mode]
    wi, wrap = rng.choice(_of(pool, d.split))
    quote = "\u201c" in wrap
    subjects: tuple[str, ...] = ("speaker", "named", "relative")
    weights: tuple[float, ...] = (0.7, 0.15, 0.15)
    if mode == "report":
        subjects, weights = (("speaker",), (1.0,)) if quote else (("named", "pronoun"), (0.5, 0.5))
    text, names, subject, _, tid = d.statement(subjects, weights)
    if lang == "zh" and wrap.startswith("我") and text.startswith("我"):
        text = text[1:]
    outer, outer_names = d.r.fill(wrap.replace("{S}", "\x00"), "speaker")
    cut = outer.find("\x00")
    full = outer.replace("\x00", text)
    names = [n for n in outer_names if n[0] < cut] + _shift(names, cut)
    about = _subject_label(subject)
    if mode == "report":
        # "霓霓说她在腾讯上班" is about 霓霓; a quote's "我" is the one quoted, whom nobody can tell
        about = "named" if (subject == "named" or (subject == "pronoun" and outer_names)) else "other"
    return _done(rng, full, names, Label(d.kind, about, mode, "asserted"), lang, f"{tid}:{mode}{wi}")


def _correction(d: _Draw) -> Example:
    rng, lang = d.rng, d.lang
    wi, wrap = rng.choice(_of(d.t.CORRECT, d.split))
    if "{S}" in wrap:
        text, names, _, _, tid = d.statement(("speaker",), (1.0,))
        cut = wrap.find("{S}")
        full, _ = d.r.fill(wrap.replace("{S}", "\x00"), "speaker")
        return _done(rng, full.replace("\x00", text), _shift(names, cut),
                     Label(d.kind, "speaker", "correction", "asserted", "change"), lang, f"{tid}:fix{wi}")
    full, names = d.r.fill(wrap, "speaker")
    return _done(rng, full, names, Label("none", "speaker", "correction", "asserted", "change"), lang,
                 f"{lang}:fix:{wi}")


def _shift(names: Sequence[tuple[int, int]], by: int) -> list[tuple[int, int]]:
    return [(a + by, b + by) for a, b in names]


def _done(rng: random.Random, text: str, names: Sequence[tuple[int, int]], label: Label, lang: str,
          tid: str) -> Example:
    """The clause typed as a chat member types it; the name spans follow the text. A template of
    two clauses ("那只狗不是我的，是我表姐寄养的") gives one of them, as ``clauses`` cuts it at run
    time: the first with the template's label, a later one about a relative ("是我表姐寄养的")
    as the relative's, any other as going on with the first."""
    pieces = clauses(text)
    if len(pieces) > 1 and label.mode in ("plain", "correction"):
        k = rng.randrange(len(pieces))
        at = text.find(pieces[k])
        if k and _RELATIVE.search(pieces[k]):
            label = Label(label.kind, "relative", label.mode, "asserted", label.change)
        names = [(a - at, b - at) for a, b in names if at <= a and b <= at + len(pieces[k])]
        text, tid = pieces[k], f"{tid}:{k}"
    shaped = im_shape(rng, text, lang)
    core = text.lower() if shaped.lower().find(text.lower()) >= 0 and shaped != text else text
    at = shaped.lower().find(core.lower())
    spans: tuple[tuple[int, int], ...] = ()
    if at >= 0:
        spans = tuple((a + at, b + at) for a, b in names if shaped[a + at : b + at].lower() == text[a:b].lower())
    return Example(shaped, label, lang, spans, tid)


# the shapes a third round added, drawn from a stream of their own (so the clauses drawn before stay
# the same, and their e5 vectors cached): requests ("@bot 帮我起个群名") as no statement, dislikes
# said like denials ("I can't stand cilantro") as asserted; per 100 clauses of the main draw
EXTRA_PER_100 = 4


def _extra(rng: random.Random, lang: str, split: str) -> Example:
    t: ModuleType = templates_zh if lang == "zh" else templates_en
    r = _Render(rng, lang, split)
    if rng.random() < 0.5:
        i, tpl = rng.choice(_of(t.REQUEST, split))
        text, names = r.fill(tpl, "speaker")
        return _done(rng, text, names, Label("none", "other", "plain", "asserted"), lang, f"{lang}:request:{i}")
    i, tpl = rng.choice(_of(t.DISLIKE, split))
    subject = rng.choices(("speaker", "named", "relative"), (0.7, 0.15, 0.15))[0] if "{I}" in tpl else "speaker"
    text, names = r.fill(tpl, subject)
    return _done(rng, text, names, Label("like", _subject_label(subject), "plain", "asserted"), lang,
                 f"{lang}:like:DISLIKE:{i}")


def generate(split: str, per_lang: int, seed: int) -> list[Example]:
    """``per_lang`` clauses in each of Chinese and English for ``split`` ("train" or "dev"), and
    EXTRA_PER_100 in a hundred more of the third round's shapes."""
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, not {split!r}")
    rng = random.Random(f"{split}:{seed}")
    out = [_one(rng, lang, split) for lang in ("zh", "en") for _ in range(per_lang)]
    more = random.Random(f"{split}:{seed}:extra")
    return out + [_extra(more, lang, split) for lang in ("zh", "en") for _ in range(per_lang * EXTRA_PER_100 // 100)]
