"""A name learned late: the turns that already held it are read again, in their chat's order.

Workers take different chats' batches side by side, so a message in one chat that names someone
by a nickname taught in another ("叫我年糕" in g1, "年糕是我同学" in g2) may be read before the
nickname is known: its facts, plans and triples are then missing, where one process taking the
batches in queue order has them. So a batch that taught new names queues the tenant's turns that
hold one again, as a 'turns' job: a chat's 'turns' jobs run in order, one worker at a time
(stores/chat_order.py), and a batch read again adds only what is missing (every step of it is
idempotent, as for a killed worker's batch). Whichever chat was read first, every turn ends read
against every name learned, as in one process.

A turn read again teaches nothing new, so it queues nothing: no job queues another for ever.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..models import Turn
from ..stores.base import JobStore, PeopleStore


class Store(JobStore, PeopleStore, Protocol):
    """The two ports a re-read uses."""


def queue(store: Store, turns: Sequence[Turn]) -> list[int]:
    """Queue again the turns, other than ``turns``, that hold a name ``turns`` taught (their
    tenant's); returns their ids. Call it only when ``turns`` taught new names."""
    by_tenant: dict[str, list[int]] = {}
    for turn in turns:
        by_tenant.setdefault(turn.scope.tenant_id, []).append(turn.id)
    queued: list[int] = []
    for tenant, ids in by_tenant.items():
        found = store.turns_naming(tenant, ids)
        if found:
            store.enqueue("turns", found)
            queued += found
    return queued
