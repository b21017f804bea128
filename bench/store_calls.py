"""Store calls of one group context (issue 45 §4): how many times ``context()`` reaches the store,
by method, for a group chat with three people named in the query, on SQLite or PostgreSQL.

Usage:
  python bench/store_calls.py [--pg URL] [--embedder hashing]

Every public method of the store's class is wrapped with a counter that counts only while one
``context()`` call is under way (the background worker is drained before; a read's own queued
jobs run after it); a call the store makes of its own methods (or its ports') is part of the call that
made it, not one more. Prints the total and
the count per method for two questions: one naming three people, and a pronoun question after a
message naming one. The first is the process's first context: what it builds once (the entity
names' automaton) is read then. With ``--pg``, also the SQL statements the context ran and its
round trips to the server (a statement outside a pipeline is one, a pipeline of several is one;
the pool's connection checks, BEGIN and COMMIT are not counted).

Measured (hashing embedder, the same run for both): at 57e9187 48 and 42 calls on either store;
with the read plan 12 and 9, each kind once (tests/bench/test_store_calls.py bounds them).
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import functools
import inspect
import json
import tempfile
import threading
from datetime import datetime, timedelta, timezone
from typing import Any

from pmemo import Settings, SyncMemory

T0 = datetime(2026, 12, 1, 20, 0, tzinfo=timezone(timedelta(hours=8)))
LINES = [("ni", "周霓", "大家好，叫我霓霓就行。我在腾讯上班，对花生过敏"),
         ("wt", "许文涛", "我在字节工作，养了一只猫叫豆豆"),
         ("gf", "高峰", "我12月23日考研"),
         ("ni", "周霓", "周末一起去图书馆吧"),
         ("wt", "许文涛", "好的"),
         ("gf", "高峰", "哈哈哈")]
QUESTIONS = [("你认识霓霓吗？周霓和高峰、许文涛最近怎么样", ["高峰: 我12月23日考研"]),
             ("她对什么过敏来着", ["周霓: 我在腾讯上班"])]


# the store's ports (pmemo.ports) a context may call: store calls too
PORTS = ("graph", "jobs", "owners", "turns", "vectors")


def counted(store: Any) -> tuple[collections.Counter[str], list[bool]]:
    """Wrap the public methods of ``store``'s class and of its ports' (counted as ``graph.name``):
    a counter, and the switch that turns it on."""
    counts: collections.Counter[str] = collections.Counter()
    on = [False]
    for cls, prefix in [(type(store), ""), *((type(getattr(store, p)), f"{p}.") for p in PORTS if hasattr(store, p))]:
        for name in dir(cls):
            static = inspect.getattr_static(cls, name)
            if name.startswith("_") or not callable(static) or isinstance(static, (staticmethod, classmethod)):
                continue
            setattr(cls, name, _counting(getattr(cls, name), prefix + name, counts, on))
    return counts, on


_INSIDE = threading.local()  # a store call under way on this thread: the calls it makes are its own


def _counting(method: Any, name: str, counts: collections.Counter[str], on: list[bool]) -> Any:
    @functools.wraps(method)
    def call(*args: Any, **kwargs: Any) -> Any:
        depth = getattr(_INSIDE, "depth", 0)
        if on[0] and depth == 0:
            counts[name] += 1
        _INSIDE.depth = depth + 1
        try:
            return method(*args, **kwargs)
        finally:
            _INSIDE.depth = depth
    return call


def round_trips() -> tuple[collections.Counter[str], list[bool]]:
    """Count psycopg's statements and round trips (see the module's docstring), and the switch."""
    import psycopg

    counts: collections.Counter[str] = collections.Counter()
    on = [False]
    execute, pipeline = psycopg.Cursor.execute, psycopg.Connection.pipeline

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        if on[0]:
            counts["statements"] += 1
            counts["round_trips"] += getattr(self.connection, "_pipeline", None) is None
        return execute(self, *args, **kwargs)

    @contextlib.contextmanager
    def piped(self: Any) -> Any:
        if on[0]:
            counts["round_trips"] += 1
        with pipeline(self) as p:
            yield p

    psycopg.Cursor.execute = counted  # type: ignore[method-assign]
    psycopg.Connection.pipeline = piped  # type: ignore[method-assign, assignment]
    return counts, on


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pg", help="a PostgreSQL URL (an empty schema) instead of a SQLite folder")
    parser.add_argument("--embedder", default="hashing")
    args = parser.parse_args()
    folder = tempfile.mkdtemp()
    settings = Settings(data=folder, **({"store": args.pg} if args.pg else {}))
    with SyncMemory.open(args.pg or folder, settings=settings, embedder=args.embedder) as m:
        for i, (who, name, text) in enumerate(LINES * 3):
            m.add(group_id="study", session_id="s1", actor_id=who, actor=name, content=text,
                  timestamp=T0 + timedelta(minutes=i))
        m.drain()
        counts, on = counted(m._memory._store)  # noqa: SLF001 - a bench looks inside
        trips, wire = round_trips() if args.pg else (collections.Counter[str](), [False])
        out = {}
        for query, recent in QUESTIONS:
            counts.clear()
            trips.clear()
            on[0] = wire[0] = True
            m.context(query, group_id="study", session_id="s1", asker="wt", recent=recent)
            on[0] = wire[0] = False
            out[query] = {"calls": sum(counts.values()), "by_method": dict(counts.most_common()), **trips}
            m.drain()
    print(json.dumps({"store": "postgres" if args.pg else "sqlite", **out}, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
