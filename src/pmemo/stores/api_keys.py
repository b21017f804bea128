"""Tenants and API keys: what both backends of the key port (``ports.api_keys.KeyStore``) share.

A key is shown once, when it is made; only its sha256 is stored. Each key also has a short
public id (``k_…``, random, not derived from the key) by which it is listed and revoked. An
admin key manages tenants and is never a tenant key: it cannot read memory.

The keys live where the memory does: in ``<data>/keys.sqlite3`` beside a SQLite store, in
the database beside a PostgreSQL store, so that a key made through one server replica is
known to every other. ``open_keys.open_key_store`` picks the backend from the store's target,
as ``open_store`` does.

>>> keys = open_keys.open_key_store(Settings(data="./pmemo_data"))  # doctest: +SKIP
>>> keys.verify(keys.create_key("acme")).tenant  # doctest: +SKIP
'acme'
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
import threading
import time

from ..errors import AuthError, InvalidInput
from ..ports.api_keys import IssuedKey as IssuedKey  # re-exported: the port's values
from ..ports.api_keys import KeyInfo as KeyInfo
from ..ports.api_keys import KeyRows as KeyRows
from ..ports.api_keys import KeyStore as KeyStore

log = logging.getLogger("pmemo.keys")

KEY_PREFIX = "pm_"
ID_PREFIX = "k_"
# last_used_at is written at most this often per key, so a busy key is not a write per request
TOUCH_EVERY_S = 60.0
LABEL_MAX = 200


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def new_key_id() -> str:
    return ID_PREFIX + secrets.token_hex(6)


def new_key() -> tuple[str, str]:
    """A fresh key and its public id: ``("pm_…", "k_…")``."""
    return KEY_PREFIX + secrets.token_urlsafe(32), new_key_id()


def check_kind(tenant: str | None, admin: bool) -> None:
    if admin == (tenant is not None):
        raise InvalidInput("a key is either for one tenant or an admin key, not both")


def admin_hash(admin_key: str | None) -> str | None:
    """The hash an admin key from the environment (``PMEMO_ADMIN_KEY``) is compared by: the
    key itself is never stored."""
    return hash_key(admin_key) if admin_key else None


def presented(key: str | None, env_admin: str | None) -> tuple[str, KeyInfo | None]:
    """The hash of the key a caller presents, and its KeyInfo when it is the admin key from
    the environment (compared by hash, never stored); AuthError when there is no key."""
    if not key:
        raise AuthError("missing API key: send 'Authorization: Bearer <key>'")
    digest = hash_key(key)
    if env_admin is not None and hmac.compare_digest(digest, env_admin):
        return digest, KeyInfo(tenant=None, admin=True, label="env")
    return digest, None


class TouchThrottle:
    """When this process last noted each key's use: ``due`` says yes at most once per
    ``TOUCH_EVERY_S`` per key, so a busy key is not a write per request."""

    def __init__(self) -> None:
        self._at: dict[str, float] = {}  # key hash -> when last_used_at was last written
        self._lock = threading.Lock()

    def due(self, digest: str) -> bool:
        now = time.monotonic()
        with self._lock:
            if now - self._at.get(digest, float("-inf")) < TOUCH_EVERY_S:
                return False
            self._at[digest] = now
            return True

    def forget(self, digest: str) -> None:
        """The note was not written after all (the database was busy): try at the next use."""
        with self._lock:
            self._at.pop(digest, None)
