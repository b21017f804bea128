"""Whose voice the diary is written in: the chat's ``persona`` memory block (else its
``character`` block), as ``Memory.blocks(**scope)`` lists them. The blocks are an in-memory
snapshot of their folder, so the worker's thread reads them directly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ..blocks.model import visible, where_of
from ..models import Scope

LABELS = ("persona", "character")  # the first one a chat has is its voice

Persona = Callable[[Scope], "str | None"]


def voice(blocks: Iterable[Any]) -> str | None:
    """The text of the usable block labelled ``persona``, else ``character`` (None: neither;
    a broken file's block, with a ``problem``, is no voice).

    >>> from types import SimpleNamespace as B
    >>> voice([B(label="character", value="I am Momo."), B(label="notes", value="-")])
    'I am Momo.'
    """
    by_label = {b.label: b.value for b in blocks if getattr(b, "problem", None) is None}
    return next((by_label[label] for label in LABELS if by_label.get(label)), None)


def persona_of(blocks: Callable[[], Sequence[Any]]) -> Persona:
    """A scope's persona among ``blocks()`` (the current snapshot of the folder)."""

    def persona(scope: Scope) -> str | None:
        owner = {"user_id": scope.user_id} if scope.user_id is not None else {"group_id": scope.group_id}
        return voice(visible(blocks(), where_of({"tenant_id": scope.tenant_id, "agent_id": scope.agent_id,
                                                 **owner})))

    return persona
