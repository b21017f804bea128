"""An extractive summary is matched by the centroid of its turns' vectors (no second embedding)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from pmemo import Settings, SyncMemory
from pmemo.embedders.base import normalise


def test_an_extractive_summary_vector_is_its_turns_centroid(tmp_path: Path) -> None:
    with SyncMemory.open(tmp_path, settings=Settings(summary_every=3), embedder="hashing") as mem:
        for text in ("The budget is 10k.", "Launch on April 15.", "Lucky cannot eat grapes."):
            mem.add(user_id="u", session_id="s", content=text)
        mem.drain()
        store = mem._memory._store  # noqa: SLF001 - the stored vectors are the point here
        (summary,) = store.summaries.of_scope(store.summaries.get_summary(1).scope.owner_scope(), None)
        turns = store.vectors.get_vectors("turn", list(summary.source_ids))
        stored = store.vectors.get_vectors("summary", [summary.id])[summary.id]
        centroid = normalise(np.mean([turns[i] for i in summary.source_ids], axis=0))
        assert summary.method == "extractive" and np.allclose(stored, centroid, atol=1e-6)
        assert mem.search("budget", user_id="u")  # and it is searchable as before
