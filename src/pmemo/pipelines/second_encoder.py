"""A change of second encoder (setting second_encoder): its cached channel, and every turn queued
again so that each has a vector of the new model."""

from __future__ import annotations

from ..config import Settings
from ..embedders import make_embedder
from ..embedders.cached import CachedEmbedder
from ..stores.base import Store


def second_channel(store: Store, settings: Settings) -> CachedEmbedder | None:
    """The second encoder (setting second_encoder), cached like the first; None when off. Blocks:
    it loads the model and, after a change of second encoder, queues every turn (below)."""
    model = make_embedder(settings.second_encoder, settings) if settings.second_encoder else None
    queue_second_vectors(store, model.model_id if model is not None else "")
    return CachedEmbedder(model, store.embed_cache, settings.embed_batch) if model is not None else None


def queue_second_vectors(store: Store, model_id: str) -> None:
    """A change of second encoder (on, off, another model: ``model_id`` "" when off) embeds
    every turn again in the background: an "embed" job embeds a turn with both encoders, and
    the first one's vectors come back from the content-hash cache."""
    if (store.meta.get_meta("second_model") or "") == model_id:
        return
    if model_id:
        turns = store.vectors.stale_turns("", 10_000_000)  # no vector has model "": every turn
        for start in range(0, len(turns), 256):
            store.jobs.enqueue("embed", turns[start : start + 256])
    store.meta.set_meta("second_model", model_id)
