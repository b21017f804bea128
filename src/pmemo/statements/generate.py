"""The labelled clause set the statement model learns from, generated (pure, seeded).

Templates (``templates_zh``, ``templates_en``) filled with words (``lexicon``) under a subject
(the speaker, a named person, a relative, "you", "she"), wrapped in a mode (a question, a wish,
a joke, a report, a correction), and typed as chat members type (``shapes``): ``draw``. The dev
split uses other templates (every fourth of each list), other words and another seed than the
training split, so its accuracy says how far the model reaches past what it was shown.

Three draws, each from a random stream of its own (so adding one leaves the clauses of the
others, and their cached e5 vectors, as they were): the main draw of single clauses, the second
round's requests and dislikes (``_extra``), and the third round's messages of several clauses
(``messages``); then the fourth round's messages written by hand (``hand``: every fourth the
dev split's, the others the training split's, typed from a stream of their own).

>>> ex = generate("train", 50, seed=1)
>>> len(ex) > 104, {e.lang for e in ex} == {"zh", "en"}
(True, True)
>>> generate("dev", 5, seed=2) == generate("dev", 5, seed=2)
True
"""

from __future__ import annotations

import random
from types import ModuleType

from . import templates_en, templates_zh
from .draw import (
    Draw,
    Example,
    Part,
    Render,
    correction,
    denied,
    done,
    of,
    plain,
    question,
    small_talk,
    split_of,
    subject_label,
    wrapped,
)
from .hand import examples as hand_examples
from .labels import Label
from .messages import message

__all__ = ["EXTRA_PER_100", "MESSAGES_PER_100", "SPLITS", "Example", "generate", "split_of"]

SPLITS = ("train", "dev")


def _one(rng: random.Random, lang: str, split: str) -> Example:
    """One clause of the main draw: small talk, a statement, a denial, a question, a wish, joke or
    report, or a correction, by the shares below."""
    t: ModuleType = templates_zh if lang == "zh" else templates_en
    d = Draw(rng, lang, split, t, Render(rng, lang, split), rng.choice(sorted(t.STATE)))
    roll = rng.random()
    shape = (small_talk if roll < 0.25 else plain if roll < 0.62 else denied if roll < 0.71 else question
             if roll < 0.80 else wrapped if roll < 0.94 else correction)
    return done(rng, shape(d), lang)


# the shapes the second round added, drawn from a stream of their own (so the clauses drawn before stay
# the same, and their e5 vectors cached): requests ("@bot 帮我起个群名") as no statement, dislikes
# said like denials ("I can't stand cilantro") as asserted; per 100 clauses of the main draw
EXTRA_PER_100 = 4


def _extra(rng: random.Random, lang: str, split: str) -> Example:
    t: ModuleType = templates_zh if lang == "zh" else templates_en
    r = Render(rng, lang, split)
    if rng.random() < 0.5:
        i, tpl = rng.choice(of(t.REQUEST, split))
        text, names = r.fill(tpl, "speaker")
        label = Label("none", "other", "plain", "asserted")
        return done(rng, Part(text, tuple(names), label, f"{lang}:request:{i}"), lang)
    i, tpl = rng.choice(of(t.DISLIKE, split))
    subject = rng.choices(("speaker", "named", "relative"), (0.7, 0.15, 0.15))[0] if "{I}" in tpl else "speaker"
    text, names = r.fill(tpl, subject)
    label = Label("like", subject_label(subject), "plain", "asserted")
    return done(rng, Part(text, tuple(names), label, f"{lang}:like:DISLIKE:{i}"), lang)


# messages of several clauses (``messages``) per 100 clauses of the main draw, each giving its clauses
MESSAGES_PER_100 = 50


def generate(split: str, per_lang: int, seed: int, messages: bool = True, hand: bool = True) -> list[Example]:
    """``per_lang`` clauses in each of Chinese and English for ``split`` ("train" or "dev"),
    EXTRA_PER_100 in a hundred more of the second round's shapes, the clauses of
    MESSAGES_PER_100 messages in a hundred (``messages``: False leaves them out, an ablation), and
    the clauses of the split's messages written by hand (``hand``: False leaves them out)."""
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, not {split!r}")
    rng = random.Random(f"{split}:{seed}")
    out = [_one(rng, lang, split) for lang in ("zh", "en") for _ in range(per_lang)]
    more = random.Random(f"{split}:{seed}:extra")
    out += [_extra(more, lang, split) for lang in ("zh", "en") for _ in range(per_lang * EXTRA_PER_100 // 100)]
    if messages:
        said = random.Random(f"{split}:{seed}:messages")
        out += [e for lang in ("zh", "en") for _ in range(per_lang * MESSAGES_PER_100 // 100)
                for e in message(said, lang, split)]
    if hand:
        out += [e for lang in ("zh", "en") for e in hand_examples(lang, split, seed)]
    return out
