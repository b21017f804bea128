"""A name learned late: the turns that already held it are read again, in their chat's order.

Workers take different chats' batches side by side, so a message in one chat that names someone
by a nickname taught in another ("叫我年糕" in g1, "年糕是我同学" in g2) may be read before the
nickname is known: its facts, plans and triples are then missing, where one process taking the
batches in queue order has them. The same holds for a display name: "跟新人介绍下，kk_0823就是凯哥"
read before kk_0823 first spoke teaches nobody's nickname, where read after it teaches 凯哥. So
the turns that hold a name a batch said first (a nickname it taught, a name form, a display name
first used in it: ``turns_naming``) are queued again as a 'turns' job: a chat's 'turns' jobs run in
order, one worker at a time (stores/chat_order.py), and a batch read again adds only what is
missing (every step of it is idempotent, as for a killed worker's batch). Whichever chat was read
first, every turn ends read against every name learned, as in one process.

No job queues another for ever: a batch that taught new aliases queues every turn that holds
one (there are only so many aliases to learn); any other batch queues only the turns that came
in before its own (``before``): a display name is in the registry from the moment its first
turn is stored, so a turn stored after it was read against it, and each re-read asks only for
turns older than the last one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..models import Turn
from ..ports.jobs import JobPort
from ..stores.base import PeopleStore


class Store(PeopleStore, Protocol):
    """The two ports a re-read uses: the people's, and the jobs (``jobs``)."""

    @property
    def jobs(self) -> JobPort: ...


def queue(store: Store, turns: Sequence[Turn], taught: bool) -> list[int]:
    """Queue again the turns, other than ``turns``, that hold a name said first in ``turns`` (their
    tenant's): all of them when ``turns`` taught new aliases, else those older than ``turns`` that
    hold a display name first used in them (a learned alias a re-read finds again is not new).
    Returns their ids."""
    by_tenant: dict[str, list[int]] = {}
    for turn in turns:
        by_tenant.setdefault(turn.scope.tenant_id, []).append(turn.id)
    queued: list[int] = []
    for tenant, ids in by_tenant.items():
        found = store.turns_naming(tenant, ids, first_names=not taught)
        if found:
            store.jobs.enqueue("turns", found)
            queued += found
    return queued
