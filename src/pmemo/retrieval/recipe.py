"""The ranking recipe: every signal fusion adds (and the two that order what is known of the
people a query names), declared once as data, and named presets.

Each signal has the weight setting it is scaled by, why it is in the recipe, and what of
the query and the turns it reads (``pool.rank`` computes them; ``pmemo eval --ablate``
turns each off by its name). A preset is a named set of weights for one kind of
conversation; the Settings defaults are ``chat``. ``retrieval_preset`` picks one
(``auto``: ``group`` for a group's scope, else ``chat``); a weight set away from its
default (PMEMO_W_LENGTH=0.1) overrides the preset's.

>>> from pmemo.config import Settings
>>> weights(Settings(retrieval_preset="group"), "t|a|g:study").w_length
0.0
>>> weights(Settings(retrieval_preset="group", w_length=0.1), "t|a|g:study").w_length
0.1
>>> weights(Settings(retrieval_preset="auto"), "t|a|u:ann").w_length  # a private chat: chat
0.3
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..config import Settings


@dataclass(frozen=True)
class Signal:
    name: str  # as ``pmemo eval --ablate`` names it
    setting: str  # the weight it is scaled by
    reason: str  # why it is in the recipe
    needs: str  # what of the query and the candidate turns it reads


SIGNALS = (
    Signal("lexical", "w_lexical", "exact words, names and numbers that embeddings blur",
           "query terms; the turn's indexed words (bm25)"),
    Signal("vector", "w_vector", "meaning in other words than the query's", "query and turn embeddings"),
    Signal("vector2", "w_vector2", "a second encoder errs elsewhere than the first (off without one)",
           "the second encoder's embeddings"),
    Signal("reply", "w_reply", "an answer is tied to its question, however far apart and however few words "
           "they share (\"@提问的人 四十\")", "the turns' reply links (reply_to, both ways)"),
    Signal("neighbour", "w_neighbour", "a fact is often told over a question, its answer and a follow-up",
           "the turn's session and step"),
    Signal("cluster", "w_cluster", "turns of a recalled topic cluster", "cluster centroids"),
    Signal("summary", "w_summary", "turns a matching summary was made of", "summary embeddings"),
    Signal("recency", "w_recency", "between equals, the later statement is the current one",
           "the turn's time"),
    Signal("speaker", "w_speaker", "a question that names someone asks what they said",
           "people the query names; the turn's speaker id or name"),
    Signal("date", "w_date", "a question that names a time asks about what was said near it",
           "dates in the query, the day it is asked; the turn's day"),
    Signal("length", "w_length", "a turn with more to say holds more facts (saturates at ~40 tokens)",
           "the turn's length"),
    Signal("question", "w_question", "penalty: a short question holds no fact, its answer does",
           "whether the turn's words end by asking"),
    Signal("money", "w_money", "a question about spending asks for turns that state a sum",
           "money words in the query; sums of money in the turn"),
    Signal("assistant", "w_assistant", "penalty: the assistant restates, the person says first hand",
           "whether the query speaks to the assistant; the turn's role"),
    Signal("facet", "w_facet", "a question quoting several things wants the best match of each",
           "quoted spans in the query"),
    Signal("qtf", "w_qtf", "a word the query says again is what it is about (bm25's query-term frequency)",
           "how often the query says each term"),
    Signal("repeats", "w_repeats", "the same words said many times are one hit: copies of one line take no "
           "other evidence's place", "the turn's words without case, spaces or punctuation"),
    Signal("diversity", "w_diversity", "a turn repeating a better one gives way (MMR)",
           "the head's embeddings"),
    # not fused: they order what is known of the people a query names (people_section, hits.merge)
    Signal("fact_meaning", "w_fact_meaning", "of what is known of someone, what is nearest the talk matters now",
           "the query embedding; the stored vectors of the turns that said each fact"),
    Signal("chat_facts", "w_chat_facts", "a chat naming someone in passing asks about none of their facts in "
           "words, and needs them", "whether the query is a chat; the people its lines name"),
)

PRESETS: dict[str, dict[str, float]] = {
    # a person and an assistant, or two people: the Settings defaults
    "chat": {},
    # a user asking an assistant about its own past answers: its replies are the evidence
    "assistant": {"w_assistant": 0.0},
    # group chats are made of short messages: length says little about which holds the fact,
    # and there is rarely an assistant whose replies restate
    "group": {"w_length": 0.0, "w_assistant": 0.0},
}
PRESET_NAMES = (*PRESETS, "auto")
_DEFAULTS = {f.name: f.default for f in dataclasses.fields(Settings)}


def preset_of(settings: Settings, scope_key: str) -> str:
    """The preset for a scope (``Scope.key``): the setting's, or with ``auto`` ``group`` for a group."""
    if settings.retrieval_preset != "auto":
        return settings.retrieval_preset
    return "group" if scope_key.rsplit("|", 1)[-1].startswith("g:") else "chat"


def weights(settings: Settings, scope_key: str) -> Settings:
    """``settings`` with the weights of its preset for ``scope_key``; a weight set away from
    its default keeps its own value."""
    changes = {name: value for name, value in PRESETS[preset_of(settings, scope_key)].items()
               if getattr(settings, name) == _DEFAULTS[name]}
    return settings.replace(**changes) if changes else settings
