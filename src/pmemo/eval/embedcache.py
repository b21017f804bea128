"""A persistent embedding cache for eval runs, wrapped around any pmemo embedder.

Each eval question may get a fresh store (LongMemEval), so the store's own cache does
not survive between questions or runs; this wrapper keeps vectors by content hash in one
SQLite file so that a re-run embeds no passage twice. The dense baseline and pmemo share
it. Queries are not cached, so each system's search latency includes its query embedding.

>>> from pmemo.embedders.hashing import HashingEmbedder
>>> emb = CachedEmbedder(HashingEmbedder(), ":memory:")
>>> emb.embed_passages(["hello"]).shape
(1, 256)
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from pathlib import Path
from typing import Any

import numpy as np


def _key(model_id: str, kind: str, text: str) -> str:
    return hashlib.sha256(f"{model_id}\0{kind}\0{text}".encode()).hexdigest()


class CachedEmbedder:
    """Delegates to ``inner`` (an ``Embedder``), remembering every vector on disk."""

    def __init__(self, inner: Any, path: str | Path) -> None:
        self.inner = inner
        self.model_id: str = inner.model_id
        self.dim: int = inner.dim
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS vec (key TEXT PRIMARY KEY, v BLOB)")
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def __getattr__(self, name: str) -> Any:  # token_count and friends
        return getattr(self.inner, name)

    def _get(self, keys: list[str]) -> dict[str, np.ndarray]:
        found: dict[str, np.ndarray] = {}
        with self._lock:
            for start in range(0, len(keys), 500):
                part = keys[start : start + 500]
                marks = ",".join("?" * len(part))
                sql = f"SELECT key, v FROM vec WHERE key IN ({marks})"
                for key, blob in self._db.execute(sql, part):
                    found[key] = np.frombuffer(blob, dtype=np.float32)
        return found

    def _put(self, rows: list[tuple[str, np.ndarray]]) -> None:
        with self._lock:
            self._db.executemany(
                "INSERT OR REPLACE INTO vec VALUES (?, ?)",
                [(k, np.asarray(v, dtype=np.float32).tobytes()) for k, v in rows],
            )

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        keys = [_key(self.model_id, "p", t) for t in texts]
        found = self._get(list(set(keys)))
        missing = list(dict.fromkeys(t for t, k in zip(texts, keys, strict=True) if k not in found))
        self.hits += len(texts) - len(missing)
        self.misses += len(missing)
        if missing:
            rows = self.inner.embed_passages(missing)
            new = [(_key(self.model_id, "p", t), rows[i]) for i, t in enumerate(missing)]
            self._put(new)
            found.update(new)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([found[k] for k in keys]).astype(np.float32, copy=False)

    def embed_query(self, text: str) -> np.ndarray:
        # not cached: every system pays for its own query embedding inside its timed search
        return np.asarray(self.inner.embed_query(text), dtype=np.float32).reshape(-1)

    def close(self) -> None:
        with self._lock:
            self._db.close()
