"""The per-tenant cap on pending background work (``PMEMO_MAX_PENDING_TURNS``).

A turn is stored at once and digested (embedded, clustered, summarised …) by the background.
A tenant that writes faster than the worker digests would queue work without end, and the
fair claims (stores/fair_share.py) would keep its backlog from delaying other tenants but not
from growing. So a write that would take a tenant's waiting turns past the cap is refused,
whole (nothing is stored), with ``BacklogFull`` and an estimate of when to try again; REST
answers 429 with ``Retry-After``. The store keeps each tenant's waiting turns as jobs come and
go (``tenant_backlog``), so a check is one row read, and only the writing tenant's row.

A batch into an empty backlog is always taken, however big (``add_many`` of a whole history):
otherwise a batch over the cap could never be stored.

>>> check("t1", 9_990, 20, Settings(max_pending_turns=10_000))
Traceback (most recent call last):
...
pmemo.errors.BacklogFull: tenant 't1' has 9990 turns waiting for the background and its cap is ...
"""

from __future__ import annotations

import math
from collections import Counter

from .config import ENV_PREFIX, Settings
from .errors import BacklogFull
from .ports.jobs import JobPort
from .stores.base import NewTurn

SETTING = ENV_PREFIX + "MAX_PENDING_TURNS"
# turns a second the worker digests, for Retry-After: e5-small embeds ~100 short turns a second
# on this 2-core box (bench/scale.py's docstring), the rest of a batch is cheaper (the hashing
# embedder digests 340-750 a second there); a slower worker only makes a retry early, and the
# retry is refused again with a new estimate
DIGEST_TURNS_S = 100
RETRY_MAX_S = 60  # a client should look again within a minute, whatever the estimate


def admit(jobs: JobPort, news: list[NewTurn], settings: Settings) -> None:
    """Raise ``BacklogFull`` if storing ``news`` would take any of their tenants past the cap
    (nothing is written here). Blocking: one row read per tenant of the batch."""
    if not settings.max_pending_turns:
        return
    for tenant, adding in Counter(n.scope.tenant_id for n in news).items():
        check(tenant, jobs.pending_turns(tenant), adding, settings)


def check(tenant: str, pending: int, adding: int, settings: Settings) -> None:
    """Pure: raise if ``pending`` waiting turns plus ``adding`` pass the cap of ``settings``
    (none when nothing is waiting: see the module docstring)."""
    cap = settings.max_pending_turns
    if not cap or pending <= 0 or pending + adding <= cap:
        return
    raise BacklogFull(
        f"tenant {tenant!r} has {pending} turns waiting for the background and its cap is {cap} "
        f"({SETTING}): {adding} more would pass it; retry after {retry_after_s(pending + adding - cap)} s"
        " (nothing was stored), send fewer turns at a time, or raise the cap",
        setting=SETTING, limit=cap, retry_after=retry_after_s(pending + adding - cap))


def retry_after_s(excess: int) -> int:
    """Whole seconds until the worker has digested ``excess`` turns, from 1 to RETRY_MAX_S.

    >>> retry_after_s(1), retry_after_s(450), retry_after_s(10**6)
    (1, 5, 60)
    """
    return max(1, min(RETRY_MAX_S, math.ceil(excess / DIGEST_TURNS_S)))
