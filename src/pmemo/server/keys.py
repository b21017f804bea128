"""The server's API keys: the ``KeyStore`` Protocol and its two backends, from the stores.

Keys live beside the memory (``stores/api_keys.py``): ``<data>/keys.sqlite3`` for a SQLite
store, the database for a PostgreSQL one, where every server replica finds the same keys.
The server, MCP and the CLI take any ``KeyStore``; ``open_key_store`` picks the backend.

>>> keys = open_key_store(settings, admin_key=os.environ.get("PMEMO_ADMIN_KEY"))  # doctest: +SKIP
>>> create_app(memory, keys)  # doctest: +SKIP
"""

from __future__ import annotations

from ..stores.api_keys import IssuedKey, KeyInfo, KeyStore, hash_key
from ..stores.open_keys import open_key_store
from ..stores.sqlite.api_keys import SQLiteKeyStore

__all__ = ["IssuedKey", "KeyInfo", "KeyStore", "SQLiteKeyStore", "hash_key", "open_key_store"]
