"""An answer is read with the question it answers (issue 44 §2): "@周霓 对，我也是" to "有人对花粉过敏吗？"
states "我对花粉过敏" of its speaker; "她对花粉过敏" to "周霓对什么过敏？" is about 周霓. The fact
reading after it (statements, extraction, agenda, graph) gets the answer restated
(text/answers.py); the turn keeps its id, so what it gives still names it as its source."""

from __future__ import annotations

import dataclasses
from typing import Any

from ..models import Turn
from ..text.answers import restated


def with_questions(store: Any, people: Any, turns: list[Turn]) -> list[Turn]:
    """``turns`` with each answer to another person's question restated (one read of the questions)."""
    asked = [t.reply_to for t in turns if t.reply_to is not None and t.role == "user"]
    if not asked:
        return turns
    found = store.turns.get_turns(asked)
    out = []
    for t in turns:
        q = found.get(t.reply_to) if t.reply_to is not None else None
        if q is None or t.role != "user" or (q.actor_id is not None and q.actor_id == t.actor_id):
            out.append(t)
            continue
        named = [m for m in people.resolve(q.content, q.scope) if not m.ambiguous and m.person_ids[0] != t.actor_id]
        name = named[0].alias if len({m.person_ids[0] for m in named}) == 1 else None
        said = restated(q.content, t.content, name)
        out.append(dataclasses.replace(t, content=said) if said else t)
    return out
