"""Where a command's memory is: the data directory itself, or a pmemo server that holds it.

A command opens the store unless a server has it: ``PMEMO_URL`` names one, or the data
directory's ``server.json`` (written by ``pmemo serve``) names one that answers. The command
then talks to it over REST (client mode) with ``PMEMO_API_KEY``; or, when the server runs
on this very data directory, with a key made for this one command and deleted after it:
whoever can read the directory can make keys anyway (``pmemo keys create``).

>>> with open_memory(Settings.from_env(), tenant="demo", environ=os.environ) as mem:  # doctest: +SKIP
...     mem.search("预算", user_id="demo", tenant_id="demo")
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from .. import errors
from ..config import Settings
from . import server_file

DEFAULT_TENANT = "default"
CLI_KEY_LABEL = "pmemo cli (this command only)"


@dataclass(frozen=True)
class Server:
    """A server to talk to; ``local`` when it serves the data directory the command names."""

    url: str
    local: bool
    source: str  # what named it: "PMEMO_URL" or the server file's path


def find_server(settings: Settings, environ: Mapping[str, str]) -> Server | None:
    """The server a command should talk to, or None to open the store itself."""
    found = server_file.read(settings.data)
    url = (environ.get("PMEMO_URL") or "").strip().rstrip("/")
    if url:
        return Server(url, local=found is not None and found.url == url, source="PMEMO_URL")
    if found is not None and answers(found.url):
        return Server(found.url, local=True, source=str(Path(settings.data) / server_file.FILE_NAME))
    return None  # no server, or one that was killed and left its file behind


def answers(url: str, timeout: float = 2.0) -> bool:
    """True when a pmemo server at ``url`` is up."""
    try:
        return httpx.get(f"{url}/healthz", timeout=timeout).status_code == 200
    except httpx.HTTPError:
        return False


@contextmanager
def open_memory(settings: Settings, *, tenant: str | None, environ: Mapping[str, str],
                must_exist: bool = True) -> Iterator[Any]:
    """The command's memory: a ``RemoteMemory`` when a server holds the store, else the store
    opened with ``SyncMemory``. ``tenant``: the one asked for (None: the key's, or default)."""
    server = find_server(settings, environ)
    if server is not None:
        with _remote(server, settings, tenant, environ) as mem:
            yield mem
        return
    from ..stores import folder_of, target_of
    from ..sync import SyncMemory

    root = folder_of(target_of(settings))  # None: a database server (PMEMO_STORE)
    if must_exist and root is not None and not root.exists():
        raise errors.NotFound(
            f"no pmemo data at {root}: add or import turns first, or fix --data / PMEMO_DATA"
        )
    mem = SyncMemory.open(settings=settings)
    try:
        yield mem
    finally:
        mem.close()


@contextmanager
def _remote(server: Server, settings: Settings, tenant: str | None,
            environ: Mapping[str, str]) -> Iterator[Any]:
    from .remote import RemoteMemory

    key = (environ.get("PMEMO_API_KEY") or "").strip()
    if key:
        with RemoteMemory.connect(server.url, key, settings, tenant=tenant,
                                  key_name="PMEMO_API_KEY") as mem:
            yield mem
        return
    if not server.local:
        raise errors.AuthError(
            f"PMEMO_URL is set ({server.url}): set PMEMO_API_KEY to a key of the tenant too "
            "(pmemo keys create --tenant T where the server runs; an admin key cannot read memory)"
        )
    from ..server.keys import open_key_store

    keys = open_key_store(settings)  # where that server verifies keys: beside the memory
    try:
        with keys.temporary_key(tenant or DEFAULT_TENANT, label=CLI_KEY_LABEL) as made, \
                RemoteMemory.connect(server.url, made, settings, tenant=tenant) as mem:
            yield mem
    finally:
        keys.close()


def is_remote(mem: Any) -> bool:
    """True for a memory answered by a server (it runs the background jobs itself)."""
    from .remote import RemoteMemory

    return isinstance(mem, RemoteMemory)
