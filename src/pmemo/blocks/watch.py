"""Noticing edits to the block files: a thread that calls back whenever the folder changes.

It watches with watchfiles (inotify and the like: an edit is seen in ~50 ms); when that cannot
start (no inotify, too many watches, a network file system) or ``poll`` asks for it, it calls
back every ``interval`` seconds instead, and the folder compares each file's size and times.
The callback gets the paths that changed, or None for "look at everything".
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger("pmemo.blocks")

OnChange = Callable[[set[Path] | None], None]
STOP_CHECK_MS = 250  # how often a waiting watch looks at the stop event: close() waits at most this


class Watcher:
    """``start()`` the thread, ``stop()`` it (from ``Memory.close``)."""

    def __init__(self, root: Path, on_change: OnChange, *, poll: bool = False, interval: float = 0.5) -> None:
        self.root = root
        self.on_change = on_change
        self.poll = poll
        self.interval = interval
        self.mode = "polling" if poll else "watching"
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="pmemo-blocks", daemon=True)

    def start(self) -> Watcher:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()

    def _run(self) -> None:
        if not self.poll:
            try:
                self._watch()
            except Exception as exc:  # noqa: BLE001 - any failure to watch falls back to polling
                log.warning("blocks: cannot watch %s (%s: %s); checking it every %.1f s instead",
                            self.root, type(exc).__name__, exc, self.interval)
            if self._stop.is_set():
                return
            self.mode = "polling"
        while not self._stop.wait(self.interval):
            self._call(None)

    def _watch(self) -> None:
        import watchfiles

        ready = False
        for changes in watchfiles.watch(self.root, stop_event=self._stop, rust_timeout=STOP_CHECK_MS,
                                        yield_on_timeout=True, watch_filter=_markdown, raise_interrupt=False):
            if not ready:  # the watch is up: what changed while it started is read now
                ready = True
                self._call(None)
            if changes:
                self._call({Path(p) for _, p in changes})
        if not self._stop.is_set():
            raise RuntimeError("the watch ended (was the folder removed?)")

    def _call(self, changed: set[Path] | None) -> None:
        try:
            self.on_change(changed)
        except Exception:  # noqa: BLE001 - a bad reload must not end the watching
            log.exception("blocks: reloading %s failed", self.root)


def _markdown(change: object, path: str) -> bool:
    return path.endswith(".md")
