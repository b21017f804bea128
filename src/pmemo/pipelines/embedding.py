"""Embedding with a content-hash cache in the store: a text is never embedded twice."""

from __future__ import annotations

import hashlib
import threading

import numpy as np

from ..embedders.base import Embedder, normalise
from ..stores.base import VectorStore

QUERY_CACHE = 64


def cache_key(model_id: str, text: str) -> str:
    return hashlib.sha256(f"{model_id}\x00p\x00{text}".encode()).hexdigest()


class CachedEmbedder:
    def __init__(self, embedder: Embedder, store: VectorStore, batch: int = 32) -> None:
        self.embedder = embedder
        self.store = store
        self.batch = max(1, batch)
        self._queries: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()

    @property
    def model_id(self) -> str:
        return self.embedder.model_id

    def passages(self, texts: list[str]) -> np.ndarray:
        keys = [cache_key(self.model_id, t) for t in texts]
        found = self.store.cache_get(list(dict.fromkeys(keys)))
        missing = list(dict.fromkeys(t for t, k in zip(texts, keys, strict=True) if k not in found))
        for start in range(0, len(missing), self.batch):
            chunk = missing[start : start + self.batch]
            rows = self.embedder.embed_passages(chunk)
            fresh = [(cache_key(self.model_id, t), rows[i]) for i, t in enumerate(chunk)]
            self.store.cache_put(fresh)
            found.update(fresh)
        if not texts:
            return np.zeros((0, self.embedder.dim), dtype=np.float32)
        return np.stack([found[k] for k in keys])

    def query(self, text: str) -> np.ndarray:
        """The query's vector; the last few are kept, since one context() asks several tiers.

        A multi-line query (a stretch of dialogue) is embedded whole and by its last line,
        and the two are added: what was just said matters most, the rest gives it context.
        """
        vec = self._queries.get(text)
        if vec is None:
            rows = [self.embedder.embed_query(view) for view in query_views(text)]
            vec = rows[0] if len(rows) == 1 else normalise(np.sum(rows, axis=0))
            with self._lock:
                if len(self._queries) >= QUERY_CACHE:
                    self._queries.pop(next(iter(self._queries)))
                self._queries[text] = vec
        return vec

    def forget(self, texts: list[str]) -> None:
        """Drop cached vectors of deleted texts (nothing derived from them stays behind)."""
        self.store.cache_delete([cache_key(self.model_id, t) for t in texts])


def query_views(text: str) -> list[str]:
    """The texts a query is embedded as: itself, and for a dialogue its last line too.

    >>> query_views("Mei: hi\\nBo: where was the party?")
    ['Mei: hi\\nBo: where was the party?', 'Bo: where was the party?']
    >>> query_views("where was the party?")
    ['where was the party?']
    """
    lines = [line for line in text.splitlines() if line.strip()]
    return [text, lines[-1]] if len(lines) > 1 else [text]
