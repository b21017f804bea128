"""What the graph's triples call is sent (issue 44 §8): the batch's candidate clauses as the
facts call's pre-filter picks them (``prefilter.linked``: the statement model's statements and
corrections, what a rule reads a value or a link from), a message of context either side, one
batch per chat (``prefilter.chat_batches``); None when no LLM is configured or
``llm_prefilter`` is off (every message goes, as before)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..config import Settings
from ..embedders.cached import CachedEmbedder
from ..models import Turn
from ..people.resolve import Resolver
from ..people.statements import statements
from ..prompts.facts import Line
from ..rules.attribution import Attributed
from ..statements.model import StatementModel
from ..statements.read import read_turn
from .extraction import lexical_screen, statement_reader
from .prefilter import chat_batches, linked


def graph_clauses(llm: object | None, settings: Settings, model: StatementModel | None, embed: CachedEmbedder | None,
                  turns: Sequence[Turn], people: Resolver, parts: Mapping[int, list[Attributed]]
                  ) -> list[list[Line]] | None:
    """The lines of each triples call for ``turns`` (``model``: the memory's statement model,
    read with e5 vectors when it embeds with e5, else with its lexical weights, as the facts
    call's pre-filter reads)."""
    if llm is None or not settings.llm_prefilter:
        return None
    reader, vectors = statement_reader(model, embed, settings)
    reader = reader if reader is not None else lexical_screen(settings)
    chosen = {}
    for t in turns:
        if t.role != "user":
            continue
        read = read_turn(t, people, reader, vectors) if reader is not None else None
        chosen[t.id] = linked(t, read, parts[t.id] if t.id in parts else statements(t, people), people)
    return chat_batches(turns, chosen)
