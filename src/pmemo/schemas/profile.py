"""A person's profile as the REST route and the MCP tool both answer it: their facts, each said
as a sentence about them by their display name (one answer, two adapters: it lives beside the
bodies they share).
"""

from __future__ import annotations

from typing import Any

from ..api import MemoryAPI
from ..errors import NotFound
from .tiers import FactOut


async def profile_of(memory: MemoryAPI, person_id: str, history: bool, scope: dict[str, Any]) -> list[FactOut]:
    """A person's facts, each said as a sentence about them by their display name. NotFound
    when the id is neither a person of the tenant nor the subject of a fact in this view (a
    private chat's user has facts without ever being registered)."""
    facts = await memory.profile(person_id, history=history, **scope)
    try:
        person = await memory.person(person_id, tenant_id=scope["tenant_id"])
    except NotFound:
        if not facts:
            raise
        name = person_id
    else:
        name = person.name or person_id
    return [FactOut.of(f, name) for f in facts]
