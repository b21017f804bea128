"""Re-embedding (pipelines/reembed.py): which turns are queued for a vector again, on a real store."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pmemo import Settings
from pmemo.models import Scope, Turn
from pmemo.pipelines.reembed import EMBED_CHUNK, queue_restored, queue_stale_vectors
from pmemo.stores import open_store
from pmemo.stores.base import FullStore, NewTurn
from pmemo.text.segment import segment


@pytest.fixture
def store(tmp_path: Path) -> Iterator[FullStore]:
    s = open_store(tmp_path, Settings())
    yield s
    s.close()


def _turns(store: FullStore, *texts: str) -> list[Turn]:
    """Store turns and take the queue's 'turns' jobs away, so a test sees only what it queues."""
    scope = Scope.of(user_id="u", session_id="s")
    made = store.turns.add_turns([NewTurn(scope, "user", t, None, datetime.now(UTC), {}, segment(t)) for t in texts])
    for job in store.jobs.claim(1000):
        store.jobs.finish(job.id)
    return made


def _queued(store: FullStore) -> list[tuple[str, Any]]:
    jobs = store.jobs.claim(1000)
    for job in jobs:
        store.jobs.finish(job.id)
    return [(j.kind, j.payload) for j in jobs]


def _embedded(store: FullStore, turns: list[Turn], model: str) -> None:
    store.vectors.put_vectors("turn", [(t.id, t.scope.key, np.ones(4, dtype=np.float32)) for t in turns], model)


def test_turns_without_a_vector_of_the_model_are_queued_and_the_model_remembered(store: FullStore):
    a, b = _turns(store, "one", "two")
    queue_stale_vectors(store, "m1")
    assert _queued(store) == [("embed", [a.id, b.id])]  # a first open: nothing to rebuild
    assert store.meta.get_meta("embed_model") == "m1"
    _embedded(store, [a, b], "m1")
    queue_stale_vectors(store, "m1")
    assert _queued(store) == []  # the same model again: nothing to do


def test_a_new_model_re_embeds_every_turn_and_rebuilds_the_clusters(store: FullStore):
    a, b = _turns(store, "one", "two")
    _embedded(store, [a, b], "m1")
    queue_stale_vectors(store, "m1")
    queue_stale_vectors(store, "m2")
    queued = _queued(store)
    assert ("embed", [a.id, b.id]) in queued
    assert [kind for kind, _ in queued].count("reindex") == 1
    assert store.meta.get_meta("embed_model") == "m2"


def test_stale_turns_are_queued_in_jobs_of_a_bounded_size(store: FullStore):
    made = _turns(store, *(f"turn {n}" for n in range(EMBED_CHUNK + 3)))
    queue_stale_vectors(store, "m1")
    payloads = [p for kind, p in _queued(store) if kind == "embed"]
    assert [len(p) for p in payloads] == [EMBED_CHUNK, 3]
    assert sorted(i for p in payloads for i in p) == sorted(t.id for t in made)


def test_restored_turns_without_a_vector_are_queued(store: FullStore):
    kept, lost = _turns(store, "kept its vector", "lost its vector")
    _embedded(store, [kept], "m1")
    assert queue_restored(store, [kept.id, lost.id], windows=False)
    assert _queued(store) == [("embed", [lost.id])]
    assert not queue_restored(store, [kept.id], windows=False) and _queued(store) == []
    assert not queue_restored(store, [], windows=True) and _queued(store) == []


def test_with_windows_every_restored_turn_goes_back_through_its_window(store: FullStore):
    kept, lost = _turns(store, "kept its vector", "lost its vector")
    _embedded(store, [kept], "m1")
    assert queue_restored(store, [kept.id, lost.id], windows=True)
    assert _queued(store) == [("embed", [kept.id, lost.id])]
