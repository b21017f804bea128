"""Where a slow read waited: every thread's stack sampled in a server process, beside its reads
and its background bursts (a diagnosis tool for ``bench/neighbours.py --watch FILE``).

Loaded into the server before pmemo (``python -c "import stallwatch; stallwatch.start(FILE)"``),
it samples ``sys._current_frames()`` every ``EVERY_S`` on a thread of its own and notes:

- each read (``reads_first.reading``): when it began and ended, on which thread;
- each stretch the background ran between two pauses (``reads_first.give_way``), with the
  stacks sampled meanwhile: a stretch far past ``RUN_S`` is a step without a pause point;
- the sampler's own gaps: a sample late by more than ``LATE_S`` means its thread could not get
  the interpreter lock (a C call holding it) or the box did not run it.

At exit it writes what it gathered to FILE (pickle); ``python bench/stallwatch.py FILE`` prints
the slow reads with the stacks of the other threads meanwhile, the longest bursts and the gaps;
``python bench/stallwatch.py FILE --healthz WINDOWS`` what the threads did while a /healthz was
slow (the windows bench/neighbours.py --watch writes).
Nothing here is part of pmemo: the server is started with it only when asked.
"""

from __future__ import annotations

import atexit
import collections
import pickle
import sys
import threading
import time
from pathlib import Path
from typing import Any

EVERY_S = 0.005
LATE_S = 0.03
DEPTH = 14  # innermost frames kept of a stack
STRETCH_S = 0.2  # a background stretch between two pause points this long is noted

_samples: list[tuple[float, float, dict[str, str]]] = []  # (time, gap, thread name -> stack)
_reads: list[tuple[float, float, str]] = []  # (began, ended, thread name)
_bursts: list[tuple[float, float, str]] = []  # (began, ended, thread name): between two pause points
_interned: dict[str, str] = {}
_sched: list[tuple[float, int, int]] = []  # (time, the event loop's CPU ns, its run-queue wait ns)


def _stack(frame: Any) -> str:
    parts = []
    while frame is not None and len(parts) < DEPTH:
        code = frame.f_code
        parts.append(f"{Path(code.co_filename).name}:{code.co_name}:{frame.f_lineno}")
        frame = frame.f_back
    text = " < ".join(parts)
    return _interned.setdefault(text, text)


def _schedstat(native_id: int) -> tuple[int, int]:
    """A thread's (ns on a CPU, ns runnable but waiting for one) so far, from Linux's schedstat:
    a thread waiting for the interpreter lock sleeps, so it counts in neither."""
    try:
        run, wait, _ = Path(f"/proc/self/task/{native_id}/schedstat").read_text().split()
    except (OSError, ValueError):
        return 0, 0
    return int(run), int(wait)


def _sample(stop: threading.Event) -> None:
    me = threading.get_ident()
    loop = threading.main_thread().native_id or 0
    last = time.perf_counter()
    while not stop.wait(EVERY_S):
        now = time.perf_counter()
        names = {t.ident: t.name for t in threading.enumerate()}
        stacks = {names.get(ident, str(ident)): _stack(frame)
                  for ident, frame in sys._current_frames().items() if ident != me}  # noqa: SLF001
        _samples.append((now, now - last, stacks))
        _sched.append((now, *_schedstat(loop)))
        last = now


def _hook_pmemo() -> None:
    """Wrap reads_first's reading() and give_way() once pmemo is importable."""
    import contextlib

    from pmemo import reads_first

    reading, give_way = reads_first.reading, reads_first.give_way
    local = threading.local()

    @contextlib.contextmanager
    def watched_reading() -> Any:
        began = time.perf_counter()
        with reading():
            try:
                yield
            finally:
                _reads.append((began, time.perf_counter(), threading.current_thread().name))

    def watched_give_way(*args: Any, **kwargs: Any) -> float:
        if not getattr(reads_first._local, "background", False):  # noqa: SLF001
            return give_way(*args, **kwargs)
        now = time.perf_counter()
        since = getattr(local, "since", None)
        if since is not None and now - since >= STRETCH_S:  # so long without a pause point
            _bursts.append((since, now, threading.current_thread().name))
        try:
            return give_way(*args, **kwargs)
        finally:
            local.since = time.perf_counter()

    background = reads_first.background

    @contextlib.contextmanager
    def watched_background(*args: Any, **kwargs: Any) -> Any:
        local.since = None  # the wait for the next batch is not a stretch
        with background(*args, **kwargs):
            yield

    reads_first.background = watched_background  # type: ignore[assignment]
    reads_first.reading = watched_reading  # type: ignore[assignment]
    reads_first.give_way = watched_give_way  # type: ignore[assignment]
    # the modules that imported the names before this ran
    for modname, module in list(sys.modules.items()):
        if modname.startswith("pmemo") and module is not None:
            for name, was, now in (("give_way", give_way, watched_give_way), ("reading", reading, watched_reading),
                                   ("background", background, watched_background)):
                if getattr(module, name, None) is was:
                    setattr(module, name, now)


def start(path: str) -> None:
    stop = threading.Event()
    thread = threading.Thread(target=_sample, args=(stop,), name="stallwatch", daemon=True)
    _hook_pmemo()
    thread.start()

    def dump() -> None:
        stop.set()
        Path(path).write_bytes(pickle.dumps({"samples": _samples, "reads": _reads, "bursts": _bursts,
                                             "sched": _sched}))

    atexit.register(dump)


def _top(stacks: list[str], n: int = 4) -> list[tuple[int, str]]:
    return [(c, s) for s, c in collections.Counter(stacks).most_common(n)]


def _idle(stack: str) -> bool:
    head = stack.split(" < ", 1)[0]
    return any(w in head for w in (":wait:", ":select:", ":_worker:", ":get:", ":acquire:", ":sleep:"))


def report(path: str, slow_ms: float = 300.0, n: int = 12) -> None:
    data = pickle.loads(Path(path).read_bytes())
    samples, reads, bursts = data["samples"], data["reads"], data["bursts"]
    times = [s[0] for s in samples]
    import bisect

    def during(a: float, b: float) -> list[tuple[float, float, dict[str, str]]]:
        return samples[bisect.bisect_left(times, a) : bisect.bisect_right(times, b)]

    dur = sorted(((e - b) * 1000 for b, e, _ in reads))
    print(f"{len(reads)} reads, p50 {dur[len(dur) // 2]:.0f} ms, max {dur[-1]:.0f} ms; {len(samples)} samples;"
          f" {len(bursts)} bursts")
    slow = sorted((r for r in reads if (r[1] - r[0]) * 1000 >= slow_ms), key=lambda r: r[0] - r[1])[:n]
    for began, ended, thread in slow:
        print(f"\n== read {1000 * (ended - began):.0f} ms on {thread}")
        window = during(began, ended)
        gaps = [g for _, g, _ in window if g > LATE_S]
        print(f"   sampler late {len(gaps)} times, by {sum(gaps) * 1000:.0f} ms in all"
              f" (longest {max(gaps, default=0) * 1000:.0f})")
        by_thread: dict[str, list[str]] = collections.defaultdict(list)
        for _, _, stacks in window:
            for name, stack in stacks.items():
                by_thread[name].append(stack)
        for name, stacks in sorted(by_thread.items()):
            busy = [s for s in stacks if not _idle(s)]
            if name == thread or busy:
                print(f"  [{name}] {len(busy)}/{len(stacks)} busy")
                for c, s in _top(stacks if name == thread else busy, 3):
                    print(f"     {c:4d}  {s[:600]}")
    long = sorted(bursts, key=lambda b: b[0] - b[1])[:n]
    print("\n== longest background bursts between two pauses")
    for began, ended, thread in long:
        stacks = [st[thread] for _, _, st in during(began, ended) if thread in st]
        print(f"  {1000 * (ended - began):.0f} ms on {thread}")
        for c, s in _top(stacks, 3):
            print(f"     {c:4d}  {s[:600]}")
    print("\n== the event loop's longest busy stretches (MainThread not waiting in select)")
    stretches, run = [], []
    for sample in samples:
        stack = sample[2].get("MainThread", "")
        if stack and ":select:" not in stack.split(" < ", 1)[0]:
            run.append(sample)
        elif run:
            stretches.append(run)
            run = []
    for run in sorted(stretches, key=lambda r: r[0][0] - r[-1][0])[:n]:
        print(f"  {1000 * (run[-1][0] - run[0][0] + run[0][1]):.0f} ms at {run[0][0] - times[0]:.1f} s,"
              f" {len(run)} samples")
        for c, s in _top([x[2]["MainThread"] for x in run], 3):
            print(f"     {c:4d}  {s[:700]}")
    gaps = sorted(samples, key=lambda s: -s[1])[:n]
    print("\n== the sampler's longest gaps (stacks just after)")
    for now, gap, stacks in gaps:
        print(f"  {gap * 1000:.0f} ms at {now - times[0]:.1f} s")
        for name, s in stacks.items():
            if not _idle(s):
                print(f"     [{name}] {s[:500]}")


def healthz(path: str, windows_path: str, n: int = 12) -> None:
    """What the server's threads did while a /healthz was slow: ``windows_path`` holds the bench's
    (phase, began, ended) of each (bench/neighbours.py --watch), on the same clock as the samples.
    Per window: the sampler's gaps (the interpreter lock held elsewhere, or the box busy), the
    event loop's stacks, and the busy stacks of the other threads; then the stacks most often busy
    in all the windows together."""
    import json

    data = pickle.loads(Path(path).read_bytes())
    samples = data["samples"]
    times = [s[0] for s in samples]
    import bisect

    windows = [tuple(w) for w in json.loads(Path(windows_path).read_text())]
    sched = data.get("sched", [])
    sched_times = [s[0] for s in sched]

    def loop_split(began: float, ended: float) -> tuple[float, float]:
        """The event loop thread's CPU ms and run-queue wait ms from just before ``began`` to just
        after ``ended`` (the rest of the window it slept: in select, or for the interpreter lock)."""
        a = max(0, bisect.bisect_right(sched_times, began) - 1)
        b = min(len(sched) - 1, bisect.bisect_left(sched_times, ended))
        if not sched or b <= a:
            return float("nan"), float("nan")
        return (sched[b][1] - sched[a][1]) / 1e6, (sched[b][2] - sched[a][2]) / 1e6

    total: collections.Counter[str] = collections.Counter()
    split_cpu = split_wait = span = 0.0
    loop: collections.Counter[str] = collections.Counter()
    late = 0.0
    for _phase, began, ended in windows:
        window = samples[bisect.bisect_left(times, began) : bisect.bisect_right(times, ended)]
        gaps = [g for _, g, _ in window if g > LATE_S]
        late += sum(gaps)
        cpu, wait = loop_split(began, ended)
        if cpu == cpu:
            a = max(0, bisect.bisect_right(sched_times, began) - 1)
            b = min(len(sched) - 1, bisect.bisect_left(sched_times, ended))
            split_cpu, split_wait, span = split_cpu + cpu, split_wait + wait, span + 1000 * (sched[b][0] - sched[a][0])
        for _, _, stacks in window:
            for name, stack in stacks.items():
                if name == "MainThread":
                    loop[stack] += 1
                elif not _idle(stack):
                    total[f"[{name.split('_')[0]}] {stack}"] += 1
    print(f"{len(windows)} slow /healthz ({sum(e - b for _, b, e in windows) * 1000:.0f} ms in all);"
          f" the sampler was late by {late * 1000:.0f} ms in them")
    if sched:
        whole = 1000 * (sched[-1][0] - sched[0][0])
        print(f"the event loop's thread over the whole run ({whole / 1000:.0f} s): on a CPU"
              f" {(sched[-1][1] - sched[0][1]) / 1e6:.0f} ms, runnable but waiting for a CPU"
              f" {(sched[-1][2] - sched[0][2]) / 1e6:.0f} ms")
    print(f"the event loop's thread over them ({span:.0f} ms, sample to sample): on a CPU {split_cpu:.0f} ms,"
          f" runnable but waiting for a CPU {split_wait:.0f} ms, asleep (select, the interpreter lock)"
          f" {span - split_cpu - split_wait:.0f} ms")
    for phase, began, ended in sorted(windows, key=lambda w: w[1] - w[2])[:n]:
        window = samples[bisect.bisect_left(times, began) : bisect.bisect_right(times, ended)]
        gaps = [g for _, g, _ in window if g > LATE_S]
        cpu, wait = loop_split(began, ended)
        print(f"\n== {phase}: /healthz {1000 * (ended - began):.0f} ms, {len(window)} samples, sampler late"
              f" {len(gaps)} times by {sum(gaps) * 1000:.0f} ms (longest {max(gaps, default=0) * 1000:.0f});"
              f" the loop's thread on a CPU {cpu:.0f} ms, waiting for one {wait:.0f} ms")
        by_thread: dict[str, list[str]] = collections.defaultdict(list)
        for _, _, stacks in window:
            for name, stack in stacks.items():
                by_thread[name].append(stack)
        for name, stacks in sorted(by_thread.items()):
            busy = stacks if name == "MainThread" else [s for s in stacks if not _idle(s)]
            if busy:
                print(f"  [{name}] {len(busy)}/{len(stacks)}{' busy' if name != 'MainThread' else ''}")
                for c, st in _top(busy, 2):
                    print(f"     {c:4d}  {st[:500]}")
    print("\n== the event loop in all the windows")
    for c, st in _top(list(loop.elements()), 6):
        print(f"  {c:5d}  {st[:600]}")
    print("\n== the other threads' busy stacks in all the windows")
    for c, st in _top(list(total.elements()), 10):
        print(f"  {c:5d}  {st[:600]}")


if __name__ == "__main__":
    if len(sys.argv) > 3 and sys.argv[2] == "--healthz":
        healthz(sys.argv[1], sys.argv[3])
    else:
        report(sys.argv[1], *(float(a) for a in sys.argv[2:3]))
