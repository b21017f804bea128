"""Whose voice the diary is written in: the chat's ``persona`` memory block (else its
``character`` block), as ``Memory.blocks(**scope)`` lists them.

The diary is written in the worker's thread while the memory's blocks are read on its event
loop: the lookup hands the read to the loop and waits for it (never from the loop itself).
A lookup that fails or finds no such block leaves the entry in the plain assistant's voice.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from typing import Any

from ..models import Scope

log = logging.getLogger("pmemo")
LABELS = ("persona", "character")  # the first one a chat has is its voice
WAIT_S = 10.0

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


def persona_of(memory: Any, loop: asyncio.AbstractEventLoop) -> Persona:
    """A blocking lookup of a scope's persona through ``memory.blocks`` on ``loop``."""

    def persona(scope: Scope) -> str | None:
        blocks = getattr(memory, "blocks", None)
        if blocks is None or _on(loop):
            return None
        owner = {"user_id": scope.user_id} if scope.user_id is not None else {"group_id": scope.group_id}
        try:
            found = asyncio.run_coroutine_threadsafe(
                blocks(tenant_id=scope.tenant_id, agent_id=scope.agent_id, **owner), loop).result(WAIT_S)
        except Exception as exc:  # noqa: BLE001 - no persona is no reason to lose a diary
            log.warning("diary: the persona block could not be read (%s); writing in the plain voice", exc)
            return None
        return voice(found)

    return persona


def _on(loop: asyncio.AbstractEventLoop) -> bool:
    """Whether this thread runs ``loop`` (waiting on it from there would never end)."""
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False
