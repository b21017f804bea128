"""Whose turns a background job derives rows from: the owners the worker holds (shared,
``store.locks.hold``) while the job runs.

A forget, restore or purge holds its owners exclusively, in whatever process it runs, so a
batch that embeds turns, clusters them, summarises them or writes their chat's diary never
runs beside one on the same owner: it either finishes before the forget snapshots the rows,
or starts after and reads the turns that are left. Without that, a worker that read a turn
just before another process forgot it would write a vector, a cluster label or a summary
holding its words after the forget had removed them.

Jobs that only count (hits, touches) or that rewrite files from the current facts (the human
blocks, queued again by any fact change) derive nothing from turn text and hold nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..models import Scope
from ..stores.base import Job, Store
from .enrich import step_of

TURN_KINDS = ("turns", "embed")  # the payload is a list of turn ids


def job_owners(store: Store, jobs: Iterable[Job]) -> set[str]:
    """The owner scope keys (``Scope.key``) whose turns ``jobs`` read.

    >>> job_owners(store, [Job(1, "diary", {"tenant": "t", "agent": "a", "owner": "g:x"}, 1)])  # doctest: +SKIP
    {'t|a|g:x'}
    """
    turn_ids: list[int] = []
    owners: set[str] = set()
    for job in jobs:
        payload: Any = job.payload
        if job.kind in TURN_KINDS:
            turn_ids += [int(i) for i in payload]
        elif job.kind == "reindex":  # clusters rebuilt from these turns' vectors
            turn_ids += [int(i) for i in payload.get("recluster", [])]
        elif job.kind == "promote":  # a key line made from the cluster's members
            cluster = store.clusters.get_cluster(int(payload["cluster_id"]))
            if cluster is not None:
                owners.add(cluster.scope.key)
        elif job.kind in ("diary", "insights") or step_of(job.kind):  # one chat's day, a person in a chat, turns
            # of a chat
            owners.add(Scope(payload["tenant"], payload["agent"], payload["owner"]).key)
    return owners | {ref.scope_key for ref in store.turns.turn_refs(turn_ids).values()}
