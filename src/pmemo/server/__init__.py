"""pmemo's REST server: ``create_app(memory, keys)`` builds the FastAPI app.

Adapters only: every route calls the public ``Memory`` API with the tenant of the
caller's key, and maps pmemo's errors once (``problems.STATUS``).
"""

from .app import create_app
from .keys import KeyInfo, KeyStore, SQLiteKeyStore, open_key_store

__all__ = ["KeyInfo", "KeyStore", "SQLiteKeyStore", "create_app", "open_key_store"]
