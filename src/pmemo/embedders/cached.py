"""Embedding through a content-hash cache: a text is never embedded twice.

The cache is the store's (``embed_cache``: every process and replica shares it), fronted by a
small in-memory copy of the last vectors; queries are kept apart, a few at a time, since one
``context()`` asks several tiers with the same query.

>>> from pmemo.embedders.hashing import HashingEmbedder
>>> class Shelf(dict):
...     def cache_get(self, keys): return {k: self[k] for k in keys if k in self}
...     def cache_put(self, rows): self.update(rows)
...     def cache_delete(self, keys): [self.pop(k, None) for k in keys]
>>> calls = []
>>> embed = CachedEmbedder(HashingEmbedder(), Shelf())
>>> embed.on_embed(lambda kind, texts, seconds: calls.append((kind, texts)))
>>> embed.passages(["hello", "hello", "world"]).shape, embed.passages(["world"]).shape, calls
((3, 256), (1, 256), [('passage', 2)])
>>> [rows.shape for rows in embed.parts(["hello", "a text the embedder reads whole"])]  # no pieces
[(1, 256), (1, 256)]
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Protocol

import numpy as np

from ..text.dialogue import views
from .base import Embedder, normalise

QUERY_CACHE = 64
# the last passage vectors are also kept in memory (the store's cache is the durable one):
# a scope's key lines are embedded again for every query
RECENT = 1024
RECENT_CALL = 256

# hook(kind, texts, seconds) after each call to the embedder: kind is "passage" or "query"
EmbedHook = Callable[[str, int, float], None]


def cache_key(model_id: str, text: str) -> str:
    """A passage's key in any ``VectorCache``: the model and the exact text, hashed."""
    return hashlib.sha256(f"{model_id}\x00p\x00{text}".encode()).hexdigest()


class VectorCache(Protocol):
    """Where vectors are kept by content hash: the store's ``embed_cache`` (``ports.vectors.EmbedCachePort``),
    or any other shelf (eval keeps one in a file across runs)."""

    def cache_get(self, keys: list[str]) -> dict[str, np.ndarray]: ...
    def cache_put(self, rows: list[tuple[str, np.ndarray]]) -> None: ...
    def cache_delete(self, keys: list[str]) -> None: ...


class CachedEmbedder:
    """An embedder's passages through ``store``'s content-hash cache, and its last queries.

    ``second``: the second encoder's own CachedEmbedder (setting second_encoder), or None.
    It rides along so that whatever forgets a text here forgets its second vector too."""

    def __init__(self, embedder: Embedder, store: VectorCache, batch: int = 32,
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

    @property
    def splits(self) -> bool:
        """Whether the embedder cuts a long text into pieces (``pieces``): a long turn then keeps
        a vector per piece (``stores.parts``)."""
        return callable(getattr(self.embedder, "pieces", None))

    def pieces(self, text: str) -> list[str]:
        """The pieces the embedder reads ``text`` in (the text alone when it does not cut)."""
        cut = getattr(self.embedder, "pieces", None)
        return list(cut(text)) if callable(cut) else [text]

    def parts(self, texts: list[str], between: Callable[[], None] | None = None) -> list[np.ndarray]:
        """Each text's pieces' vectors (one row a piece), each piece through the cache: a text's
        own vector is their mean, normalised (what ``embed_passages`` of an embedder that cuts
        returns), or its one row (see the module's example). ``between`` runs before each call
        to the embedder."""
        cut = [self.pieces(t) for t in texts]
        rows = self.passages([p for pieces in cut for p in pieces], between)
        bounds = np.cumsum([0, *map(len, cut)])
        return [rows[bounds[i] : bounds[i + 1]] for i in range(len(cut))]

    def passages(self, texts: list[str], between: Callable[[], None] | None = None, keep: bool = True) -> np.ndarray:
        """The texts' vectors, through the cache; without ``keep`` the ones embedded are not
        written to the store's cache (a read writes nothing: they stay in this process's)."""
        keys = [cache_key(self.model_id, t) for t in texts]
        with self._lock:
            found = {k: v for k in keys if (v := self._recent.get(k)) is not None}
        found.update(self.store.cache_get([k for k in dict.fromkeys(keys) if k not in found]))
        missing = list(dict.fromkeys(t for t, k in zip(texts, keys, strict=True) if k not in found))
        for start in range(0, len(missing), self.batch):
            if between is not None:
                between()
            chunk = missing[start : start + self.batch]
            started = time.perf_counter()
            rows = self.embedder.embed_passages(chunk)
            self._timed("passage", len(chunk), started)
            fresh = [(cache_key(self.model_id, t), rows[i]) for i, t in enumerate(chunk)]
            if keep:
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

        A dialogue is embedded whole and by its last line that says something, and the two
        are added (``text.dialogue.views``).
        """
        vec = self._queries.get(text)
        if vec is None:
            started = time.perf_counter()
            rows = [self.embedder.embed_query(view) for view in views(text)]
            self._timed("query", len(rows), started)
            vec = rows[0] if len(rows) == 1 else normalise(np.sum(rows, axis=0))
            with self._lock:
                if len(self._queries) >= QUERY_CACHE:
                    self._queries.pop(next(iter(self._queries)))
                self._queries[text] = vec
        return vec

    def forget(self, texts: list[str]) -> None:
        """Drop cached vectors of deleted texts and of their pieces (nothing derived from them
        stays behind)."""
        whole = set(texts)
        keys = [cache_key(self.model_id, t) for t in [*texts, *(p for t in texts for p in self.pieces(t)
                                                              if p not in whole)]]
        with self._lock:
            for k in keys:
                self._recent.pop(k, None)
        self.store.cache_delete(keys)
        if self.second is not None:
            self.second.forget(texts)
