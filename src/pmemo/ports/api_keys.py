"""The key port: tenants and hashed API keys (``KeyStore``), and the values its calls give.

A key is shown once, when it is made; only its sha256 is stored, with a short public id by
which it is listed and revoked. The keys live where the memory does (``stores/api_keys_sql.py``,
written once for both backends; ``stores/open_keys.py`` picks one). It imports only the standard
library. tests/contract/test_key_store_contract.py runs it on SQLite and Postgres.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True)
class KeyInfo:
    """Who a verified key speaks for: a tenant, or the admin (``tenant is None``)."""

    tenant: str | None
    admin: bool
    label: str = ""
    id: str = ""  # empty for the admin key from the environment


@dataclass(frozen=True)
class IssuedKey:
    """A key just made (shown this once) and its public id."""

    key: str
    id: str


@dataclass(frozen=True)
class KeyRows:
    """A key store's rows as they are kept (hashes, never keys): what ``adopt`` copies from
    one backend into another. ``keys``: dicts with ``hash`` and the columns ``keys()`` lists."""

    tenants: list[tuple[str, str]]  # (id, created_at ISO)
    keys: list[dict[str, Any]]


class KeyStore(Protocol):
    """Tenants and hashed API keys; every method is safe to call from several threads."""

    def create_tenant(self, tenant: str) -> None: ...

    def tenants(self) -> list[dict[str, object]]:
        """Every tenant by id: ``tenant``, ``created_at`` and its ``active_keys``."""
        ...

    def revoke_tenant(self, tenant: str) -> int:
        """Revoke every key of ``tenant`` and forget the tenant; returns how many keys. Its
        memory is left alone. An unknown tenant raises NotFound."""
        ...

    def create_key(self, tenant: str | None = None, *, admin: bool = False, label: str = "") -> str:
        """Make a key and return it; this is the only time it is ever seen."""
        ...

    def issue_key(self, tenant: str | None = None, *, admin: bool = False, label: str = "") -> IssuedKey:
        """``create_key``, with the new key's public id beside it."""
        ...

    def temporary_key(self, tenant: str, *, label: str = "temporary") -> AbstractContextManager[str]:
        """A key of ``tenant`` that exists only inside the ``with`` block, then leaves no row
        (nor a tenant) behind."""
        ...

    def has_key(self, tenant: str) -> bool: ...

    def keys(self, tenant: str | None = None) -> list[dict[str, Any]]:
        """Every key (revoked ones too), oldest first: id, tenant, admin, label, created_at,
        last_used_at, revoked_at (ISO text in UTC). Never the key itself, nor its hash."""
        ...

    def revoke(self, key_id: str) -> dict[str, Any]:
        """Revoke one key by its id, at once for every later request; returns it as ``keys``
        lists it. Revoking a revoked key changes nothing; an unknown id raises NotFound."""
        ...

    def verify(self, key: str | None) -> KeyInfo:
        """The tenant (or admin) a key belongs to; raises AuthError if it is missing or wrong."""
        ...

    def close(self) -> None: ...
