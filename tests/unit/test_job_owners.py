"""``job_owners``: whose turns a background job reads, the owners the worker holds while it runs."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from pmemo.models import Scope
from pmemo.pipelines.job_owners import job_owners
from pmemo.stores.base import Job, NewTurn
from pmemo.stores.sqlite.store import SQLiteStore

ANN = Scope.of(tenant_id="acme", user_id="ann", session_id="s")
TEAM = Scope.of(tenant_id="acme", group_id="team", session_id="s")


def turn(scope: Scope, text: str) -> NewTurn:
    return NewTurn(scope, "user", text, None, datetime(2024, 5, 1, tzinfo=UTC), {}, text)


def test_each_kind_names_the_owners_whose_turns_it_reads(tmp_path: Path):
    store = SQLiteStore.open(tmp_path)
    try:
        a, t = store.turns.add_turns([turn(ANN, "hello"), turn(TEAM, "hi all")])
        cluster = store.clusters.add_cluster(TEAM.owner_scope(), np.ones(4, dtype=np.float32), [t.id], "hi")
        assert job_owners(store, [Job(1, "turns", [a.id, t.id], 1)]) == {ANN.key, TEAM.key}
        assert job_owners(store, [Job(2, "embed", [a.id], 1)]) == {ANN.key}
        assert job_owners(store, [Job(3, "reindex", {"recluster": [t.id]}, 1)]) == {TEAM.key}
        assert job_owners(store, [Job(4, "promote", {"cluster_id": cluster}, 1)]) == {TEAM.key}
        day = {"tenant": "acme", "agent": "default", "owner": "u:ann", "day": "2024-05-01"}
        assert job_owners(store, [Job(5, "diary", day, 1)]) == {ANN.key}
        assert job_owners(store, [Job(6, "insights", {**day, "person": "ann"}, 1)]) == {ANN.key}
        # counting hits, or a gone turn or cluster, reads no turn text: nothing to hold
        assert job_owners(store, [Job(7, "hits", {"clusters": [cluster], "at": 1.0}, 1),
                                  Job(8, "turns", [999], 1), Job(9, "promote", {"cluster_id": 999}, 1)]) == set()
    finally:
        store.close()
