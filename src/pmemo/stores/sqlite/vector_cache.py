"""The SQLite store's vector search: an in-memory index per scope, a cache of the ``vectors`` table.

Exact numpy search below ``faiss_min`` vectors; FAISS HNSW above (deleted ids are
filtered out and the graph is rebuilt once a fifth of it is dead). No search waits on a graph:
one is built, or grown by the rows added since, on a background thread (``GraphJob``, one at a
time per store), and meanwhile the rows it lacks are searched exactly — a scope past
``faiss_min`` without its graph yet is answered exactly, as a smaller one is (issue 21: the
first search after loading used to wait 6.9 s at 100k vectors, 31 s at 300k, for the build).
A scope's rows live in
buffers of exactly its size at first, that then grow geometrically: a one-turn scope costs
about one row, and new vectors are appended in place (a search after an add does not copy
the whole matrix).

A scope is read from the store on its first search, and past a memory bound
(``index_memory_mb``) the least recently used scopes are dropped, to be read back on their
next search. The cache hears of every change to the ``vectors`` table from the table itself:
TEMP triggers of the writer connection (every write goes through it) report each row
written or deleted, by ``put_vectors`` or by any other path (a deleted turn, summary, diary
entry or window, a restore, a purge), and the changes of a transaction reach the cache
when it commits. A change to a scope that is not in memory has nothing to do here.
"""

from __future__ import annotations

import itertools
import logging
import queue
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable, Container
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

T = TypeVar("T")
# scope key → the ids and rows of its stored vectors (SQLiteStore.scope_vectors)
Loader = Callable[[str], tuple[np.ndarray, np.ndarray]]

# What ``ScopeIndex.nbytes`` counts besides the buffers, as tracemalloc measures it (checked
# by tests/unit/test_vector_memory.py): the objects every index has (its arrays, maps and
# cache entry), ~1.1 KiB, and per row its entry and int in the row map (~40 B in a small
# map, ~90 B in a large one).
FIXED_BYTES = 1100
ROW_BYTES = 100
HNSW_ROW_BYTES = 2 * 32 * 4 + 64  # per row of the graph besides its vector: level-0 links (2M)
TIE = 1e-5  # above float32 rounding of a cosine (~1e-7): scores this close are compared again
# a graph is grown once the rows it lacks (searched exactly meanwhile) pass this many and an
# eighth of it: each row is copied into a new graph a bounded number of times (amortised O(1))
CATCH_UP = 1024

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class GraphJob:
    """A graph to build off the lock: ``base`` (or a new one) with rows ``start:end`` of ``mat``
    added. Those rows never change while the job runs: an index appends past its row count, and
    a removal makes new buffers (and a new ``generation``, so the job's graph is not used)."""

    base: Any  # the graph to grow (copied, as searches keep using it meanwhile), or None
    mat: np.ndarray
    start: int
    end: int
    generation: int

    def run(self) -> Any:
        import faiss

        graph: Any
        if self.base is None:
            graph = faiss.IndexHNSWFlat(self.mat.shape[1], 32, faiss.METRIC_INNER_PRODUCT)
            graph.hnsw.efConstruction = 80
        else:
            graph = faiss.clone_index(self.base)
        graph.add(self.mat[self.start : self.end])
        graph.hnsw.efSearch = 128
        return graph


class ScopeIndex:
    """One scope's vectors. Not thread-safe: VectorIndex calls it under its cache's lock."""

    __slots__ = ("_building", "_dead", "_generation", "_hnsw", "_hnsw_size", "_ids", "_mat", "_n",
                 "_pending", "_row", "dim", "faiss_min")

    def __init__(self, dim: int, faiss_min: int, ids: np.ndarray | None = None,
                 rows: np.ndarray | None = None) -> None:
        self.dim = dim
        self.faiss_min = faiss_min
        self._n = 0  # rows in use; the buffers below may be longer
        self._ids = np.zeros(0, dtype=np.int64)
        self._mat = np.zeros((0, dim), dtype=np.float32)
        self._row: dict[int, int] = {}
        self._pending: list[tuple[int, np.ndarray]] = []
        self._dead: set[int] = set()
        self._hnsw: Any = None  # a faiss.IndexHNSWFlat over the first _hnsw_size rows (GraphJob)
        self._hnsw_size = 0
        self._building = False  # a GraphJob of this index is queued or running
        self._generation = 0  # +1 when rows move (_drop): a graph of the old rows is of no use
        if ids is not None and rows is not None and len(ids):
            self._append(ids, rows)

    def __len__(self) -> int:
        self._flush()
        return self._n - len(self._dead)

    @property
    def empty(self) -> bool:
        return self._n == 0 and not self._pending

    @property
    def capacity(self) -> int:
        """Rows the buffers have room for."""
        return len(self._ids)

    @property
    def nbytes(self) -> int:
        """About what the index holds in memory: buffers, row map, pending rows, HNSW graph."""
        rows = len(self._row) + len(self._pending) + len(self._dead)
        return (FIXED_BYTES + self._ids.nbytes + self._mat.nbytes + rows * ROW_BYTES
                + len(self._pending) * 4 * self.dim + self._hnsw_size * (4 * self.dim + HNSW_ROW_BYTES))

    @property
    def graph_rows(self) -> int:
        """Rows the HNSW graph holds (0: none, the scope is searched exactly)."""
        return self._hnsw_size

    @staticmethod
    def grown(cap: int, end: int) -> int:
        """Rows to allocate when ``end`` do not fit in ``cap``: exactly ``end`` the first time
        (most scopes are small and stay so), then a quarter more (amortised O(1) per row)."""
        return max(end, cap + cap // 4)

    def add(self, ref: int, vec: np.ndarray) -> None:
        self._dead.discard(ref)
        self._pending.append((ref, np.asarray(vec, dtype=np.float32)))

    def remove(self, ref: int) -> None:
        self._dead.add(ref)

    def replay(self, ops: list[tuple[int, np.ndarray | None]]) -> None:
        """Apply the adds (ref, vector) and removes (ref, None) made while this scope was read
        from the store: an add of a vector the rows read hold already changes nothing."""
        added: set[int] = set()
        for ref, vec in ops:
            if vec is None:
                self.remove(ref)
                continue
            row = self._row.get(ref)
            if row is None or ref in added or ref in self._dead or not np.array_equal(self._mat[row], vec):
                self.add(ref, vec)
                added.add(ref)

    def _flush(self) -> None:
        if self._pending:
            latest = dict(self._pending)  # a ref added twice keeps its last vector
            self._pending.clear()
            replaced = {r for r in latest if r in self._row}
            if replaced:  # re-embedded (another model, a restore): the old rows go
                self._drop(replaced)
            self._append(np.fromiter(latest, dtype=np.int64, count=len(latest)),
                         np.stack(list(latest.values())))
        # without a graph (nor one coming, made of these rows) the dead rows go at once
        if self._dead and (len(self._dead) * 5 > self._n or (self._hnsw is None and not self._building)):
            self._drop(self._dead & self._row.keys())
            self._dead.clear()

    def _append(self, ids: np.ndarray, rows: np.ndarray) -> None:
        end = self._n + len(ids)
        if end > len(self._ids):
            size = self.grown(len(self._ids), end)
            self._ids = np.concatenate([self._ids[: self._n], np.zeros(size - self._n, np.int64)])
            mat = np.zeros((size, self.dim), dtype=np.float32)
            mat[: self._n] = self._mat[: self._n]
            self._mat = mat
        self._ids[self._n : end] = ids
        self._mat[self._n : end] = rows
        self._row.update((int(r), self._n + i) for i, r in enumerate(ids))
        self._n = end

    def _drop(self, refs: set[int]) -> None:
        """Remove rows (O(n), and the HNSW graph is rebuilt): rare, amortised by ``_dead``."""
        if not refs:
            return
        keep = ~np.isin(self._ids[: self._n], np.fromiter(refs, dtype=np.int64, count=len(refs)))
        ids, mat = self._ids[: self._n][keep], self._mat[: self._n][keep]
        self._n = 0
        self._ids, self._mat, self._row = ids[:0], mat[:0], {}
        self._append(ids, mat)
        self._hnsw = None
        self._hnsw_size = 0
        self._generation += 1

    def vectors(self, refs: list[int]) -> tuple[list[int], np.ndarray]:
        """The stored vectors of ``refs`` that are here (ids, rows), in the order asked."""
        self._flush()
        found = [r for r in refs if r in self._row and r not in self._dead]
        return found, self._mat[[self._row[r] for r in found]]

    def search(self, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        """The ``k`` best (ref, cosine): from the graph for the rows it holds, exactly for the
        others (all of them below ``faiss_min``, or while the first graph is being built)."""
        self._flush()
        if self._n == 0 or k <= 0:
            return []
        if self._hnsw is None:
            return self._exact(query, k)
        found = self._search_hnsw(query, k)
        if self._hnsw_size < self._n:
            found += self._exact(query, k, self._hnsw_size)
            found.sort(key=lambda hit: (-hit[1], hit[0]))
        return found[:k]

    def _exact(self, query: np.ndarray, k: int, start: int = 0) -> list[tuple[int, float]]:
        """The exact top ``k`` of rows ``start:``, dead rows left out."""
        ids, mat = self._ids[start : self._n], self._mat[start : self._n]
        sims = mat @ query
        want = min(k + len(self._dead), len(ids))
        cut = sims[np.argpartition(-sims, want - 1)[want - 1]]
        # A matrix product rounds a row by its place in the buffer, so equal vectors can score
        # a few ulps apart. The rows within rounding of the cut are scored again, each on its
        # own in float64, and ties go to the lower id: the result depends on the rows held, not
        # on where they sit (a scope read back from the store is in id order).
        top = np.flatnonzero(sims >= cut - TIE)
        exact = np.einsum("ij,j->i", mat[top].astype(np.float64), query.astype(np.float64))
        order = np.lexsort((ids[top], -exact))
        out = [(int(ids[top[i]]), float(exact[i])) for i in order[:want].tolist()]
        return [hit for hit in out if hit[0] not in self._dead][:k]

    def _search_hnsw(self, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        sims, rows = self._hnsw.search(query.reshape(1, -1), k + len(self._dead))
        out = []
        for sim, row in zip(sims[0], rows[0], strict=True):
            if row < 0:
                continue
            ref = int(self._ids[row])
            if ref not in self._dead:
                out.append((ref, float(sim)))
        return out[:k]

    def graph_job(self) -> GraphJob | None:
        """The graph work this index wants now, marked as under way: a first graph once it has
        ``faiss_min`` rows, then the rows added since, once they are ``CATCH_UP`` and an eighth
        of the graph. None: nothing to do, or a job is queued already."""
        self._flush()
        lacking = self._n - self._hnsw_size
        if self._building or self._n < self.faiss_min or lacking < max(
                1 if self._hnsw is None else CATCH_UP, self._hnsw_size // 8):
            return None
        self._building = True
        return GraphJob(self._hnsw, self._mat, self._hnsw_size, self._n, self._generation)

    def install(self, job: GraphJob, graph: Any) -> None:
        """The graph ``job`` built: used unless rows moved meanwhile (the next search asks again)."""
        self._building = False
        if graph is not None and job.generation == self._generation:
            self._hnsw, self._hnsw_size = graph, job.end


class ScopeCache:
    """The scope indexes in memory, least recently used first, under one lock; past
    ``max_bytes`` (0: no bound) the least recently used are dropped. The one just used stays,
    even when it alone is larger than the bound."""

    def __init__(self, max_bytes: int = 0) -> None:
        self.lock = threading.Lock()
        self.max_bytes = max_bytes
        self.nbytes = 0  # what the indexes here count for themselves (ScopeIndex.nbytes)
        self.evictions = 0
        self._lru: OrderedDict[tuple[VectorIndex, str], tuple[ScopeIndex, int]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._lru)

    def __contains__(self, key: tuple[VectorIndex, str]) -> bool:
        return key in self._lru

    def peek(self, owner: VectorIndex, scope_key: str) -> ScopeIndex | None:
        """The index, its place unchanged; call with the lock held."""
        entry = self._lru.get((owner, scope_key))
        return None if entry is None else entry[0]

    def get(self, owner: VectorIndex, scope_key: str) -> ScopeIndex | None:
        """The index, now the most recently used; call with the lock held."""
        entry = self._lru.get((owner, scope_key))
        if entry is None:
            return None
        self._lru.move_to_end((owner, scope_key))
        return entry[0]

    def put(self, owner: VectorIndex, scope_key: str, index: ScopeIndex) -> None:
        """Hold (or count again, after a change) the index, then keep within the bound; call
        with the lock held."""
        key = (owner, scope_key)
        old = self._lru.pop(key, None)
        if old is not None:
            self.nbytes -= old[1]
        size = index.nbytes
        self._lru[key] = (index, size)
        self.nbytes += size
        self._trim()

    def recount(self, owner: VectorIndex, scope_key: str, index: ScopeIndex) -> None:
        """Count again an index that grew without a use (its graph came), if it is still held;
        call with the lock held."""
        key = (owner, scope_key)
        entry = self._lru.get(key)
        if entry is None or entry[0] is not index:
            return
        size = index.nbytes
        self._lru[key] = (index, size)  # an existing key keeps its place
        self.nbytes += size - entry[1]
        self._trim()

    def _trim(self) -> None:
        while self.max_bytes and self.nbytes > self.max_bytes and len(self._lru) > 1:
            _, (_, dropped) = self._lru.popitem(last=False)
            self.nbytes -= dropped
            self.evictions += 1

    def recent(self, owners: Container[VectorIndex], n: int) -> list[tuple[VectorIndex, str, ScopeIndex]]:
        """Of the ``n`` most recently used indexes, those of ``owners``, latest first; call
        with the lock held."""
        latest = itertools.islice(reversed(self._lru.items()), n)
        return [(owner, scope_key, index) for (owner, scope_key), (index, _) in latest if owner in owners]


class _Loading:
    """A scope being read from the store: the adds and removes made meanwhile, which the
    rows read may or may not hold, are applied to it when it is in."""

    __slots__ = ("done", "ops")

    def __init__(self) -> None:
        self.done = threading.Event()
        self.ops: list[tuple[int, np.ndarray | None]] = []  # (ref, vector), or (ref, None): removed


class VectorIndex:
    """Scope key → ScopeIndex, for one kind of vector; thread-safe.

    With ``load`` the index is a cache of the store (see the module docstring); without it
    (tests) it holds what was added, and nothing is dropped.

    >>> index = VectorIndex(2)
    >>> index.add("u", 7, np.array([1.0, 0.0]))
    >>> index.search("u", np.array([1.0, 0.0]), 1)
    [(7, 1.0)]
    """

    def __init__(self, dim: int, faiss_min: int = 20_000, load: Loader | None = None,
                 cache: ScopeCache | None = None, builds: GraphBuilds | None = None) -> None:
        self.dim = dim
        self.faiss_min = faiss_min
        self.cache = cache if cache is not None else ScopeCache()
        self.builds = builds if builds is not None else GraphBuilds()
        if load is None and self.cache.max_bytes:
            raise ValueError("a bounded vector index needs a loader to read dropped scopes back")
        self._load = load
        self._loading: dict[str, _Loading] = {}

    def add(self, scope_key: str, ref: int, vec: np.ndarray) -> None:
        self._change(scope_key, ref, np.asarray(vec, dtype=np.float32))

    def remove(self, scope_key: str, ref: int) -> None:
        self._change(scope_key, ref, None)

    def _change(self, scope_key: str, ref: int, vec: np.ndarray | None) -> None:
        with self.cache.lock:
            index = self.cache.get(self, scope_key)
            if index is None:
                loading = self._loading.get(scope_key)
                if loading is not None:
                    loading.ops.append((ref, vec))
                    return
                if self._load is not None or vec is None:
                    return  # the store has it: the scope is read with it when next searched
                index = ScopeIndex(self.dim, self.faiss_min)
            if vec is None:
                index.remove(ref)
            else:
                index.add(ref, vec)
            self.cache.put(self, scope_key, index)

    def held(self, scope_key: str) -> bool:
        """Whether the scope is in memory now (asking does not read it, nor count as a use)."""
        with self.cache.lock:
            return (self, scope_key) in self.cache

    def graph_rows(self, scope_key: str) -> int:
        """Rows the scope's graph holds (0: none, or the scope is not in memory); not a use."""
        with self.cache.lock:
            index = self.cache.peek(self, scope_key)
            return 0 if index is None else index.graph_rows

    def search(self, scope_key: str, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        return self._use(scope_key, lambda index: index.search(query, k), [])

    def vectors(self, scope_key: str, refs: list[int]) -> tuple[list[int], np.ndarray]:
        """The vectors of ``refs`` in that scope (ids found, rows): no database read once the
        scope is in memory."""
        none: tuple[list[int], np.ndarray] = ([], np.zeros((0, self.dim), dtype=np.float32))
        return self._use(scope_key, lambda index: index.vectors(refs), none)

    def size(self, scope_key: str) -> int:
        return self._use(scope_key, len, 0)

    def _use(self, scope_key: str, action: Callable[[ScopeIndex], T], default: T) -> T:
        """``action`` on the scope's index under the lock, after reading the scope from the
        store if it is not in memory. The read runs without the lock, so other scopes are
        searched meanwhile; a second reader of the same scope waits for the first."""
        while True:
            with self.cache.lock:
                index = self.cache.get(self, scope_key)
                if index is not None:
                    out = action(index)
                    self.cache.put(self, scope_key, index)  # a search may flush new rows
                    self._grow(scope_key, index)
                    return out
                if self._load is None:
                    return default
                loading = self._loading.get(scope_key)
                if loading is None:
                    loading = self._loading[scope_key] = _Loading()
                    break
            loading.done.wait()
        try:
            ids, rows = self._load(scope_key)
        except BaseException:
            with self.cache.lock:
                del self._loading[scope_key]
            loading.done.set()
            raise
        with self.cache.lock:
            del self._loading[scope_key]
            loading.done.set()  # who waits finds the scope in memory once the lock is free
            index = ScopeIndex(self.dim, self.faiss_min, ids, rows)
            index.replay(loading.ops)
            if index.empty:
                return default  # nothing to keep: the store is read again on the next search
            out = action(index)
            self.cache.put(self, scope_key, index)
            self._grow(scope_key, index)
            return out

    def _grow(self, scope_key: str, index: ScopeIndex) -> None:
        """Queue the graph work the index wants (see GraphJob); call with the lock held."""
        job = index.graph_job()
        if job is not None:
            self.builds.submit(self._build, scope_key, index, job)

    def _build(self, scope_key: str, index: ScopeIndex, job: GraphJob) -> None:
        graph = None
        try:
            graph = job.run()
        except Exception:  # the scope is still searched exactly; its next search asks again
            log.exception("building the vector graph of scope %s failed", scope_key)
        with self.cache.lock:
            index.install(job, graph)
            self.cache.recount(self, scope_key, index)


class GraphBuilds:
    """The thread that builds a store's graphs, started with its first job. One build at a time
    (FAISS spreads one over the cores it is given); a daemon thread, so that a process exits
    without waiting for a graph it will never search."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[tuple[Future[Any], Callable[..., Any], tuple[Any, ...]]] = \
            queue.SimpleQueue()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def submit(self, fn: Callable[..., T], *args: Any) -> Future[T]:
        future: Future[T] = Future()
        self._jobs.put((future, fn, args))
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="pmemo-vector-graph", daemon=True)
                self._thread.start()
        return future

    def _run(self) -> None:
        while True:
            future, fn, args = self._jobs.get()
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(fn(*args))
                except BaseException as exc:  # the caller's to see, through the future
                    future.set_exception(exc)


# (kind, scope key, model) → the ids and rows of that scope's stored vectors of the model
ScopeReader = Callable[[str, str, str], tuple[np.ndarray, np.ndarray]]
# a row the writer wrote or deleted: (kind, ref, scope key, model, its vector's bytes, None: deleted)
Change = tuple[str, int, str, str, bytes | None]
_REPORT = "pmemo_vector_changed"
# the scopes searched last, whose vectors ``VectorCache.vectors`` gives from memory: a search
# reads the vectors of its other candidates right after searching their scope (fusion)
RECENT = 4
_TRIGGERS = [
    f"CREATE TEMP TRIGGER IF NOT EXISTS vectors_put AFTER INSERT ON main.vectors"
    f" BEGIN SELECT {_REPORT}(NEW.kind, NEW.ref, NEW.scope_key, NEW.model, NEW.vec); END",
    f"CREATE TEMP TRIGGER IF NOT EXISTS vectors_set AFTER UPDATE ON main.vectors"
    f" BEGIN SELECT {_REPORT}(OLD.kind, OLD.ref, OLD.scope_key, OLD.model, NULL);"
    f" SELECT {_REPORT}(NEW.kind, NEW.ref, NEW.scope_key, NEW.model, NEW.vec); END",
    f"CREATE TEMP TRIGGER IF NOT EXISTS vectors_gone AFTER DELETE ON main.vectors"
    f" BEGIN SELECT {_REPORT}(OLD.kind, OLD.ref, OLD.scope_key, OLD.model, NULL); END",
]


class VectorCache:
    """A VectorIndex per kind and model, made on its first search, all under one memory bound
    (``max_bytes``; 0: no bound); each reads its scopes with ``read``.

    ``watch`` the writer connection; call ``begin`` as a write transaction starts and
    ``commit`` once it committed: the rows it wrote or deleted then reach the indexes. An
    ``INSERT OR REPLACE`` reports the new row only, so a row of one model takes the ref out
    of the other models' indexes (a turn re-embedded by a new embedder).
    """

    def __init__(self, read: ScopeReader, faiss_min: int = 20_000, max_bytes: int = 0) -> None:
        self.cache = ScopeCache(max_bytes)
        self.faiss_min = faiss_min
        self.builds = GraphBuilds()
        self._read = read
        self._lock = threading.Lock()
        self._indexes: dict[tuple[str, str], VectorIndex] = {}
        self._changes: list[Change] = []  # of the write transaction under way

    def watch(self, conn: sqlite3.Connection) -> None:
        """Hear of every row written to or deleted from ``conn``'s ``vectors`` table."""
        conn.create_function(_REPORT, 5, self._note)
        for sql in _TRIGGERS:
            conn.execute(sql)

    def _note(self, kind: str, ref: int, scope_key: str, model: str, vec: bytes | None) -> None:
        self._changes.append((kind, ref, scope_key, model, vec))

    def begin(self) -> None:
        """A write transaction starts: what an earlier one noted and did not commit is dropped."""
        self._changes.clear()

    def commit(self) -> None:
        """The transaction committed: its changes go into the indexes (of scopes in memory)."""
        changes, self._changes = self._changes, []
        if not changes:
            return
        with self._lock:
            indexes = list(self._indexes.items())
        for kind, ref, scope_key, model, vec in changes:
            for (of_kind, of_model), index in indexes:
                if of_kind != kind:
                    continue
                if of_model == model:
                    if vec is None:
                        index.remove(scope_key, ref)
                    else:
                        index.add(scope_key, ref, np.frombuffer(vec, dtype=np.float32))
                elif vec is not None:
                    index.remove(scope_key, ref)  # its row holds another model's vector now

    def nearest(self, kind: str, scope_key: str, query: np.ndarray, k: int,
                model: str) -> list[tuple[int, float]]:
        """VectorStore.nearest: the ``k`` best (ref, cosine) of the scope, best first."""
        query = np.asarray(query, dtype=np.float32)
        return self._index(kind, model, len(query)).search(scope_key, query, k)

    def vectors(self, kind: str, refs: list[int]) -> dict[int, np.ndarray]:
        """The vectors of those of ``refs`` that a scope searched last holds in memory: the
        current ones of their rows, as the cache is kept in step with them; the store reads
        the others."""
        with self._lock:
            owners = {index for (of_kind, _), index in self._indexes.items() if of_kind == kind}
        found: dict[int, np.ndarray] = {}
        if not owners:
            return found
        with self.cache.lock:
            for owner, scope_key, index in self.cache.recent(owners, RECENT):
                ids, rows = index.vectors(refs)
                found.update(zip(ids, rows, strict=True))
                self.cache.put(owner, scope_key, index)  # a read may flush the scope's new rows
        return found

    def settle(self) -> None:
        """Wait for the graph builds queued so far (benchmarks, tests; searches never wait)."""
        self.builds.submit(lambda: None).result()

    def held(self, kind: str, scope_key: str, model: str) -> bool:
        """Whether the scope's index is in memory now (asking does not read it)."""
        with self._lock:
            index = self._indexes.get((kind, model))
        return index is not None and index.held(scope_key)

    def graph_rows(self, kind: str, scope_key: str, model: str) -> int:
        """Rows of the scope its HNSW graph holds: 0 while it is searched exactly (see GraphJob)."""
        with self._lock:
            index = self._indexes.get((kind, model))
        return 0 if index is None else index.graph_rows(scope_key)

    def _index(self, kind: str, model: str, dim: int) -> VectorIndex:
        with self._lock:
            index = self._indexes.get((kind, model))
            if index is None:
                index = VectorIndex(dim, self.faiss_min, lambda scope_key: self._read(kind, scope_key, model),
                                    self.cache, self.builds)
                self._indexes[kind, model] = index
            return index
