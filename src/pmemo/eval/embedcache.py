"""A persistent embedding cache for eval runs, wrapped around any pmemo embedder.

Each eval question may get a fresh store (LongMemEval), so the store's own cache does
not survive between questions or runs; ``FileCachedEmbedder`` keeps vectors by content
hash in one SQLite file so that a re-run embeds no passage twice. The dense baseline and
pmemo share it. Queries are not cached, so each system's search latency includes its
query embedding.

It is the runtime ``embedders.cached.CachedEmbedder`` over another shelf (``VectorFile``),
dressed as an ``Embedder`` so that a ``Memory`` or a baseline takes it as its model: the keys
are the same, so a vector cached here is the vector the store's cache would hold.

>>> from pmemo.embedders.hashing import HashingEmbedder
>>> emb = FileCachedEmbedder(HashingEmbedder(), ":memory:")
>>> emb.embed_passages(["hello", "hello"]).shape, (emb.hits, emb.misses)
((2, 256), (1, 1))
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..embedders.cached import CachedEmbedder

if TYPE_CHECKING:
    from ..config import Settings


class VectorFile:
    """A ``VectorCache`` in one SQLite file: key → float32 vector."""

    def __init__(self, path: str | Path) -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS vec (key TEXT PRIMARY KEY, v BLOB)")
        self._lock = threading.Lock()

    def cache_get(self, keys: list[str]) -> dict[str, np.ndarray]:
        found: dict[str, np.ndarray] = {}
        with self._lock:
            for start in range(0, len(keys), 500):
                part = keys[start : start + 500]
                marks = ",".join("?" * len(part))
                sql = f"SELECT key, v FROM vec WHERE key IN ({marks})"
                for key, blob in self._db.execute(sql, part):
                    found[key] = np.frombuffer(blob, dtype=np.float32)
        return found

    def cache_put(self, rows: list[tuple[str, np.ndarray]]) -> None:
        with self._lock:
            self._db.executemany(
                "INSERT OR REPLACE INTO vec VALUES (?, ?)",
                [(k, np.asarray(v, dtype=np.float32).tobytes()) for k, v in rows],
            )

    def cache_delete(self, keys: list[str]) -> None:
        with self._lock:
            self._db.executemany("DELETE FROM vec WHERE key=?", [(k,) for k in keys])

    def close(self) -> None:
        with self._lock:
            self._db.close()


class FileCachedEmbedder:
    """Delegates to ``inner`` (an ``Embedder``), remembering every passage vector on disk."""

    def __init__(self, inner: Any, path: str | Path) -> None:
        self.inner = inner
        self.model_id: str = inner.model_id
        self.dim: int = inner.dim
        self._file = VectorFile(path)
        # one call to the model for all that is missing, as before: batches are the model's business
        self._cached = CachedEmbedder(inner, self._file, batch=1 << 30)
        self._cached.on_embed(self._count)
        self.hits = 0
        self.misses = 0

    def __getattr__(self, name: str) -> Any:  # token_count and friends
        return getattr(self.inner, name)

    def _count(self, kind: str, texts: int, seconds: float) -> None:
        if kind == "passage":
            self.misses += texts

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        before = self.misses
        vectors = self._cached.passages(texts)
        self.hits += len(texts) - (self.misses - before)
        return vectors.astype(np.float32, copy=False)

    def embed_query(self, text: str) -> np.ndarray:
        # not cached: every system pays for its own query embedding inside its timed search
        return np.asarray(self.inner.embed_query(text), dtype=np.float32).reshape(-1)

    def close(self) -> None:
        self._file.close()


def run_embedder(embedder: str | Any, settings: Settings, data_dir: str | Path) -> tuple[Settings, FileCachedEmbedder]:
    """An eval run's embedder (by name, or one built) with its vectors cached in
    ``data_dir/embeddings.sqlite``, and the settings naming it; ``data_dir/stores`` is made for
    the run's stores."""
    from ..embedders import make_embedder

    if isinstance(embedder, str):
        settings = settings.replace(embedder=embedder)
    root = Path(data_dir)
    (root / "stores").mkdir(parents=True, exist_ok=True)
    return settings, FileCachedEmbedder(make_embedder(embedder, settings), root / "embeddings.sqlite")
