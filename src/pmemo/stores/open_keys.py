"""Which key store a memory store's settings name: its database's on PostgreSQL, else the
``keys.sqlite3`` beside the data (the backends import the ``KeyStore`` Protocol from
``api_keys``; picking one of them lives here, so that nothing imports back)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import InvalidInput
from .api_keys import KeyStore

if TYPE_CHECKING:
    from ..config import Settings
    from .postgres.api_keys import PostgresKeyStore

log = logging.getLogger("pmemo.keys")


def open_key_store(settings: Settings, *, admin_key: str | None = None) -> KeyStore:
    """The key store beside the memory store the settings name (``target_of``): the database
    of a PostgreSQL store, else ``<data>/keys.sqlite3``. On PostgreSQL, the keys of a
    ``keys.sqlite3`` left in ``data`` (from before keys moved into the database) are copied
    in, once: they keep working. ``admin_key``: one more admin key, compared by hash.

    >>> keys = open_key_store(Settings.from_env(), admin_key=os.environ.get("PMEMO_ADMIN_KEY"))  # doctest: +SKIP
    """
    from . import is_postgres, target_of
    from .sqlite.api_keys import FILE_NAME, SQLiteKeyStore

    target = target_of(settings)
    if not is_postgres(target):
        return SQLiteKeyStore.in_dir(settings.data, admin_key=admin_key)
    try:
        from .postgres.api_keys import PostgresKeyStore
    except ImportError as exc:
        raise InvalidInput(f"a PostgreSQL store needs the postgres extra: pip install 'pmemo[postgres]'"
                           f" ({exc.name} is missing)") from exc
    store = PostgresKeyStore.open(target, admin_key=admin_key)
    old = Path(settings.data) / FILE_NAME
    if old.is_file():
        try:
            _adopt(store, old)
        except BaseException:
            store.close()
            raise
    return store


def _adopt(store: PostgresKeyStore, path: Path) -> None:
    from .sqlite.api_keys import SQLiteKeyStore

    source = SQLiteKeyStore(path)
    try:
        copied = store.adopt(source.rows())
    finally:
        source.close()
    if copied:
        log.warning("copied %d API key(s) and their tenants from %s into PostgreSQL, where every"
                    " replica finds them; that file is no longer read", copied, path)
