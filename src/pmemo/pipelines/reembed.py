"""Re-embedding: which turns need a vector again, queued as "embed" jobs for the worker.

Two moments call for it. At open, the embedder may have changed since the store was last
used: turns without a vector of this model are embedded again, and the centroids and summary
vectors of the old model, no longer comparable, are rebuilt (a "reindex" job). After a
restore, the turns that came back need their vectors (a hard-deleted vector, or with L2
windows their window, which must be embedded again with them). Vectors are the store's, so
what is queued here is seen by every process that shares it.

>>> import tempfile
>>> from pmemo.config import Settings
>>> from pmemo.stores import open_store
>>> store = open_store(tempfile.mkdtemp(), Settings())
>>> queue_stale_vectors(store, "hashing-256"); store.meta.get_meta("embed_model")
'hashing-256'
>>> store.close()
"""

from __future__ import annotations

from collections.abc import Sequence

from ..stores.base import Store

EMBED_CHUNK = 256  # turn ids per "embed" job: a job is claimed and retried as one


def queue_stale_vectors(store: Store, model_id: str) -> None:
    """Turns embedded by another model (or not at all) are re-embedded in the background;
    after a change of model, clusters are rebuilt from their members (blocking)."""
    stale = store.vectors.stale_turns(model_id, 10_000_000)
    _enqueue(store, stale)
    previous = store.meta.get_meta("embed_model")
    if previous is not None and previous != model_id:
        # centroids and summary vectors of the old model are not comparable: rebuild them
        store.jobs.enqueue("reindex", {"recluster": store.clusters.reset_clusters()})
    store.meta.set_meta("embed_model", model_id)


def queue_restored(store: Store, turn_ids: Sequence[int], windows: bool) -> bool:
    """Queue the restored turns that need embedding again: every one with L2 windows
    (``windows``: each goes back through its window), else those without a vector. True when
    a job was queued, so the caller can wake the worker (blocking)."""
    if not turn_ids:
        return False
    if windows:
        stale = list(turn_ids)
    else:
        held = store.vectors.get_vectors("turn", turn_ids)
        stale = [i for i in turn_ids if i not in held]
    if stale:
        store.jobs.enqueue("embed", stale)
    return bool(stale)


def _enqueue(store: Store, turn_ids: Sequence[int]) -> None:
    for start in range(0, len(turn_ids), EMBED_CHUNK):
        store.jobs.enqueue("embed", list(turn_ids[start : start + EMBED_CHUNK]))
