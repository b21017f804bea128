"""Drawing one labelled clause: templates filled with words under a subject, wrapped in a mode and
typed as chat members type (pure, seeded). ``generate`` and ``messages`` draw with these.

Each shape (``small_talk``, ``plain``, ``denied``, ``question``, ``wrapped``, ``correction``)
gives a ``Part``: the clean text, its name spans and its label; ``done`` types it as a chat
member would (``shapes``) and keeps one clause of it, as ``clauses`` cuts it at run time.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from . import lexicon
from .clauses import clauses
from .kin import RELATION as RELATIVE
from .labels import Label
from .shapes import im_shape

Words = Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]]
Spans = Sequence[tuple[int, int]]

# family and partners: their facts go on the speaker's card; a friend's, a colleague's or a
# roommate's are nobody's here (``lexicon`` "acq")
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


def pseudo(rng: random.Random, lang: str) -> str:
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


def of(items: Sequence[str], split: str) -> list[tuple[int, str]]:
    return [(i, t) for i, t in enumerate(items) if split_of(i) == split] or [(0, items[0])]


class Render:
    """Fills one template for one subject, recording where names went."""

    def __init__(self, rng: random.Random, lang: str, split: str, words: Words | None = None) -> None:
        self.rng, self.lang, self.split = rng, lang, split
        self.words = words or (lexicon.ZH if lang == "zh" else lexicon.EN)

    def word(self, slot: str) -> str:
        train, dev = self.words[slot]
        if self.split == "train" and slot in _OPEN_SLOTS and self.rng.random() < UNSEEN:
            return pseudo(self.rng, self.lang)
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


def subject_label(subject: str) -> str:
    return subject if subject in ("speaker", "named", "relative") else "other"


@dataclass(frozen=True)
class Draw:
    """One clause being drawn: its language, split, templates, renderer and kind."""

    rng: random.Random
    lang: str
    split: str
    t: Any  # the templates: a module (``templates_zh``) or a namespace of the same lists
    r: Render
    kind: str

    def statement(self, subjects: Sequence[str], weights: Sequence[float]
                  ) -> tuple[str, list[tuple[int, int]], str, bool, str]:
        """A statement of the draw's kind: text, name spans, subject, whether a change, template id."""
        rng = self.rng
        i, tpl = rng.choice(of(self.t.STATE[self.kind], self.split))
        change = tpl.startswith("~")
        subject = rng.choices(subjects, weights)[0] if "{I}" in tpl or "{my}" in tpl else "speaker"
        text, names = self.r.fill(tpl.lstrip("~"), subject, name_seen=self.kind != "name")
        return text, names, subject, change, f"{self.lang}:{self.kind}:STATE:{i}"


@dataclass(frozen=True)
class Part:
    """A clause or clauses drawn, before typing: the text, where names are in it, its truth."""

    text: str
    names: tuple[tuple[int, int], ...]
    label: Label
    tid: str
    # where the statement is inside a question, wish, joke or report ("{S}，才怪"): a message cut
    # there holds the statement in one clause and the word that says how it is meant in another
    inner: tuple[int, int] | None = None


def small_talk(d: Draw) -> Part:
    """Small talk, with and without names."""
    rng, lang = d.rng, d.lang
    pool = d.t.NONE if rng.random() < 0.8 else NAMED_NONE[lang]
    i, tpl = rng.choice(of(pool, d.split))
    text, names = d.r.fill(tpl, "speaker")
    if rng.random() < 0.15:
        text = text + ("，" if lang == "zh" else ", ") + d.r.fill(rng.choice(of(d.t.NONE, d.split))[1], "speaker")[0]
    return Part(text, tuple(names), Label("none", "other", "plain", "asserted"), f"{lang}:none:{i}")


def plain(d: Draw) -> Part:
    """A plain statement: about the speaker most, someone else often."""
    text, names, subject, change, tid = d.statement(
        ("speaker", "named", "relative", "acq", "you", "pronoun"), (0.46, 0.18, 0.13, 0.09, 0.07, 0.07))
    label = Label(d.kind, subject_label(subject), "plain", "asserted", "change" if change else "same")
    return Part(text, tuple(names), label, tid)


def denied(d: Draw) -> Part:
    rng, t = d.rng, d.t
    pool = t.DENY.get(d.kind) or t.DENY["work"]
    kind = d.kind if d.kind in t.DENY else "work"
    i, tpl = rng.choice(of(pool, d.split))
    subject = rng.choices(("speaker", "named", "relative"), (0.7, 0.15, 0.15))[0] if "{I}" in tpl else "speaker"
    text, names = d.r.fill(tpl, subject)
    return Part(text, tuple(names), Label(kind, subject_label(subject), "plain", "denied"), f"{d.lang}:{kind}:DENY:{i}")


# many a question has no question mark: "你在腾讯上班啊", "u still at google"
_ASKED = {"zh": ("{S}吗？", "是不是{S}？", "{S}？", "{S}吗", "{S}了吗", "{S}啊", "{S}不", "真的{S}啊", "{S}是吧",
                 "{S}对吧", "{S}没"),
          "en": ("{S}?", "wait, {S}?", "is it true that {S}?", "so {S}??", "{S} right", "wait {S}", "{S} or not",
                 "so {S} huh", "is it true {S}")}


def question(d: Draw) -> Part:
    rng, lang = d.rng, d.lang
    if rng.random() < 0.6:
        i, tpl = rng.choice(of(d.t.ASK[d.kind], d.split))
        text, names = d.r.fill(tpl, "you")
        label = Label(d.kind, "named" if names else "other", "question", "asserted")
        return Part(text, tuple(names), label, f"{lang}:{d.kind}:ASK:{i}")
    text, names, subject, _, tid = d.statement(("you", "named"), (0.7, 0.3))
    wrap = rng.choice(_ASKED[lang])
    at = wrap.find("{S}")
    return Part(wrap.replace("{S}", text), tuple(shift(names, at)),
                Label(d.kind, subject_label(subject), "question", "asserted"), tid + ":q", (at, at + len(text)))


def wrapped(d: Draw) -> Part:
    """A statement inside a wish, a joke or a report."""
    rng, lang, t = d.rng, d.lang, d.t
    mode = rng.choices(("hypothetical", "joke", "report"), (0.4, 0.25, 0.35))[0]
    pool = {"hypothetical": t.HYPOTHETICAL, "joke": t.JOKE, "report": t.REPORT}[mode]
    wi, wrap = rng.choice(of(pool, d.split))
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
    names = [n for n in outer_names if n[0] < cut] + shift(names, cut)
    about = subject_label(subject)
    if mode == "report":
        # "霓霓说她在腾讯上班" is about 霓霓; a quote's "我" is the one quoted, whom nobody can tell
        about = "named" if (subject == "named" or (subject == "pronoun" and outer_names)) else "other"
    return Part(full, tuple(names), Label(d.kind, about, mode, "asserted"), f"{tid}:{mode}{wi}",
                (cut, cut + len(text)))


def correction(d: Draw) -> Part:
    rng, lang = d.rng, d.lang
    wi, wrap = rng.choice(of(d.t.CORRECT, d.split))
    if "{S}" in wrap:
        text, names, _, _, tid = d.statement(("speaker",), (1.0,))
        cut = wrap.find("{S}")
        full, _ = d.r.fill(wrap.replace("{S}", "\x00"), "speaker")
        return Part(full.replace("\x00", text), tuple(shift(names, cut)),
                    Label(d.kind, "speaker", "correction", "asserted", "change"), f"{tid}:fix{wi}")
    full, names = d.r.fill(wrap, "speaker")
    return Part(full, tuple(names), Label("none", "speaker", "correction", "asserted", "change"), f"{lang}:fix:{wi}")


def shift(names: Sequence[tuple[int, int]], by: int) -> list[tuple[int, int]]:
    return [(a + by, b + by) for a, b in names]


def done(rng: random.Random, part: Part, lang: str) -> Example:
    """The clause typed as a chat member types it; the name spans follow the text. A template of
    two clauses ("那只狗不是我的，是我表姐寄养的") gives one of them, as ``clauses`` cuts it at run
    time: the first with the template's label, a later one about a relative ("是我表姐寄养的")
    as the relative's, any other as going on with the first (``piece_label``)."""
    text, names, label, tid = part.text, list(part.names), part.label, part.tid
    pieces = clauses(text)
    if len(pieces) > 1 and label.mode in ("plain", "correction"):
        k = rng.randrange(len(pieces))
        at = text.find(pieces[k])
        names = [(a - at, b - at) for a, b in names if at <= a and b <= at + len(pieces[k])]
        label = piece_label(label, pieces[k], bool(names), later=k > 0)
        text, tid = pieces[k], f"{tid}:{k}"
    shaped, spans = typed(rng, text, names, lang)
    return Example(shaped, label, lang, tuple(x for x in spans if x is not None), tid)


# whom a piece of a statement can name: a relative, an acquaintance, "you", "she"
WHOM = re.compile(r"我的?(?:表[姐哥妹弟]|堂[姐哥妹弟]|妹妹|姐姐|哥哥|弟弟|老?[妈爸]|妈妈|爸爸|老公|老婆|媳妇|男朋友|"
                  r"女朋友|男票|对象|儿子|女儿|爷爷|奶奶|外婆|外公|舅舅|姑姑|小姨|同事|室友|舍友|朋友|闺蜜|邻居|领导|老板|"
                  r"同学|发小|学长|网友|前同事)|[你您他她]|\b(?:my \w+|you|u|ur|your|he|she|his|her)\b", re.IGNORECASE)


def piece_label(label: Label, piece: str, named: bool, later: bool) -> Label:
    """The label of one clause of a statement cut in several: a later one that names a relative is
    the relative's ("是我表姐寄养的"); one without the words that say whom the statement is about
    has no subject of its own and goes on with the clause before it (``speaker``: the reader takes
    its person from there)."""
    if label.kind == "none":
        return label
    if later and RELATIVE.search(piece):
        return Label(label.kind, "relative", label.mode, "asserted", label.change)
    own = named if label.subject == "named" else label.subject == "speaker" or bool(WHOM.search(piece))
    return label if own else Label(label.kind, "speaker", label.mode, label.polarity, label.change)


def typed(rng: random.Random, text: str, spans: Spans, lang: str) -> tuple[str, tuple[tuple[int, int] | None, ...]]:
    """``text`` as a chat member types it (``shapes.im_shape``), and where each span of it went
    (None for one a typo or a contraction changed)."""
    shaped = im_shape(rng, text, lang)
    core = text.lower() if shaped.lower().find(text.lower()) >= 0 and shaped != text else text
    at = shaped.lower().find(core.lower())
    return shaped, tuple((a + at, b + at) if at >= 0 and shaped[a + at : b + at].lower() == text[a:b].lower() else None
                         for a, b in spans)


