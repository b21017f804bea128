"""A real pmemo server on a free loopback port, run by uvicorn in a thread (for browser,
fuzzing, MCP-over-HTTP and load tests)."""

from __future__ import annotations

import asyncio
import socket
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import uvicorn


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def open_memory(path: Path, embedder: str = "hashing", settings: Any = None) -> Any:
    from pmemo import Memory

    return await Memory.open(str(path), embedder=embedder, settings=settings)


@dataclass
class LiveServer:
    """Start with ``start()``; ``url``, ``key`` (tenant "t1") and ``admin_key`` are then set."""

    data: Path
    embedder: str = "hashing"
    seed: list[dict[str, Any]] = field(default_factory=list)
    settings: Any = None  # a pmemo Settings; None: from the environment
    url: str = ""
    key: str = ""
    admin_key: str = ""
    _server: uvicorn.Server | None = None
    _thread: threading.Thread | None = None
    _ready: threading.Event = field(default_factory=threading.Event)
    _error: BaseException | None = None

    def start(self, timeout: float = 60) -> LiveServer:
        self._thread = threading.Thread(target=self._run, name="pmemo-live", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout):
            raise RuntimeError("live server did not start")
        if self._error:
            raise RuntimeError("live server failed to start") from self._error
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(30)

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as exc:  # noqa: BLE001 - reported to start()
            self._error = exc
            self._ready.set()

    async def _main(self) -> None:
        from pmemo.server import SQLiteKeyStore, create_app

        memory = await open_memory(self.data / "memory", self.embedder, self.settings)
        keys = SQLiteKeyStore.in_dir(self.data)
        self.key = keys.create_key("t1")
        self.admin_key = keys.create_key(admin=True)
        if self.seed:
            await memory.add_many([{**s, "tenant_id": "t1"} for s in self.seed])
            await memory.drain()
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        config = uvicorn.Config(
            create_app(memory, keys),
            host="127.0.0.1",
            port=port,
            log_level="warning",
            lifespan="on",
        )
        self._server = uvicorn.Server(config)
        serving = asyncio.create_task(self._server.serve())
        while not self._server.started and not serving.done():
            await asyncio.sleep(0.02)
        self._ready.set()
        try:
            await serving
        finally:
            await memory.close()
            keys.close()
