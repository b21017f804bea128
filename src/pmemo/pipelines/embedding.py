"""Embedding with a content-hash cache in the store: a text is never embedded twice."""

from __future__ import annotations

import hashlib
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

import numpy as np

from ..config import Settings
from ..embedders import make_embedder
from ..embedders.base import Embedder, normalise
from ..stores.base import Store, VectorStore

QUERY_CACHE = 64
# the last passage vectors are also kept in memory (the store's cache is the durable one):
# a scope's key lines are embedded again for every query
RECENT = 1024
RECENT_CALL = 256

# hook(kind, texts, seconds) after each call to the embedder: kind is "passage" or "query"
EmbedHook = Callable[[str, int, float], None]


def cache_key(model_id: str, text: str) -> str:
    return hashlib.sha256(f"{model_id}\x00p\x00{text}".encode()).hexdigest()


class CachedEmbedder:
    """``second``: the second encoder's own CachedEmbedder (setting second_encoder), or None.
    It rides along so that whatever forgets a text here forgets its second vector too."""

    def __init__(self, embedder: Embedder, store: VectorStore, batch: int = 32,
                 second: CachedEmbedder | None = None) -> None:
        self.embedder = embedder
        self.store = store
        self.batch = max(1, batch)
        self.second = second
        self._queries: dict[str, np.ndarray] = {}
        self._recent: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        self._hooks: tuple[EmbedHook, ...] = ()

    def on_embed(self, hook: EmbedHook) -> None:
        """Call ``hook(kind, texts, seconds)`` after each call to the embedder (not for cached
        vectors), from the thread that made it."""
        self._hooks = (*self._hooks, hook)

    def _timed(self, kind: str, texts: int, started: float) -> None:
        seconds = time.perf_counter() - started
        for hook in self._hooks:
            hook(kind, texts, seconds)

    @property
    def model_id(self) -> str:
        return self.embedder.model_id

    def passages(self, texts: list[str]) -> np.ndarray:
        keys = [cache_key(self.model_id, t) for t in texts]
        with self._lock:
            found = {k: v for k in keys if (v := self._recent.get(k)) is not None}
        found.update(self.store.cache_get([k for k in dict.fromkeys(keys) if k not in found]))
        missing = list(dict.fromkeys(t for t, k in zip(texts, keys, strict=True) if k not in found))
        for start in range(0, len(missing), self.batch):
            chunk = missing[start : start + self.batch]
            started = time.perf_counter()
            rows = self.embedder.embed_passages(chunk)
            self._timed("passage", len(chunk), started)
            fresh = [(cache_key(self.model_id, t), rows[i]) for i, t in enumerate(chunk)]
            self.store.cache_put(fresh)
            found.update(fresh)
        if not texts:
            return np.zeros((0, self.embedder.dim), dtype=np.float32)
        if len(keys) <= RECENT_CALL:  # a bulk call (a cluster's members) would flush the rest
            with self._lock:
                for k in keys:
                    self._recent[k] = found[k]
                    self._recent.move_to_end(k)
                while len(self._recent) > RECENT:
                    self._recent.popitem(last=False)
        return np.stack([found[k] for k in keys])

    def query(self, text: str) -> np.ndarray:
        """The query's vector; the last few are kept, since one context() asks several tiers.

        A multi-line query (a stretch of dialogue) is embedded whole and by its last line,
        and the two are added: what was just said matters most, the rest gives it context.
        """
        vec = self._queries.get(text)
        if vec is None:
            started = time.perf_counter()
            rows = [self.embedder.embed_query(view) for view in query_views(text)]
            self._timed("query", len(rows), started)
            vec = rows[0] if len(rows) == 1 else normalise(np.sum(rows, axis=0))
            with self._lock:
                if len(self._queries) >= QUERY_CACHE:
                    self._queries.pop(next(iter(self._queries)))
                self._queries[text] = vec
        return vec

    def forget(self, texts: list[str]) -> None:
        """Drop cached vectors of deleted texts (nothing derived from them stays behind)."""
        keys = [cache_key(self.model_id, t) for t in texts]
        with self._lock:
            for k in keys:
                self._recent.pop(k, None)
        self.store.cache_delete(keys)
        if self.second is not None:
            self.second.forget(texts)


def second_channel(store: Store, settings: Settings) -> CachedEmbedder | None:
    """The second encoder (setting second_encoder), cached like the first; None when off. Blocks:
    it loads the model and, after a change of second encoder, queues every turn (below)."""
    model = make_embedder(settings.second_encoder, settings) if settings.second_encoder else None
    queue_second_vectors(store, model.model_id if model is not None else "")
    return CachedEmbedder(model, store, settings.embed_batch) if model is not None else None


def queue_second_vectors(store: Store, model_id: str) -> None:
    """A change of second encoder (on, off, another model: ``model_id`` "" when off) embeds
    every turn again in the background: an "embed" job embeds a turn with both encoders, and
    the first one's vectors come back from the content-hash cache."""
    if (store.get_meta("second_model") or "") == model_id:
        return
    if model_id:
        turns = store.stale_turns("", 10_000_000)  # no vector has model "": every turn
        for start in range(0, len(turns), 256):
            store.enqueue("embed", turns[start : start + 256])
    store.set_meta("second_model", model_id)


def query_views(text: str) -> list[str]:
    """The texts a query is embedded as: itself, and for a dialogue its last line too.

    >>> query_views("Mei: hi\\nBo: where was the party?")
    ['Mei: hi\\nBo: where was the party?', 'Bo: where was the party?']
    >>> query_views("where was the party?")
    ['where was the party?']
    """
    lines = [line for line in text.splitlines() if line.strip()]
    return [text, lines[-1]] if len(lines) > 1 else [text]
