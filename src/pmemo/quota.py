"""Per-tenant quotas (issue 18 §2): turns stored, bytes of their content and metadata, and
owner scopes (a user or a group under one agent). 0 turns a quota off.

The store keeps each tenant's usage as it writes (``store.quotas``, ``ports.usage``), so a check reads one row
and, for a new turn's scope, one index seek: never a count over the tenant's turns.

>>> check("t1", Usage(turns=3, bytes=40, scopes=1), Usage(turns=1, bytes=5, scopes=0),
...       Settings(quota_turns=3))
Traceback (most recent call last):
...
pmemo.errors.QuotaExceeded: tenant 't1' holds 3 turns and its quota is 3 (PMEMO_QUOTA_TURNS): ...
"""

from __future__ import annotations

import json
from collections import defaultdict

from .config import ENV_PREFIX, Settings
from .errors import QuotaExceeded, SizeQuotaExceeded
from .ports.usage import Usage, UsagePort
from .stores.base import NewTurn


def enabled(settings: Settings) -> bool:
    return bool(settings.quota_turns or settings.quota_bytes or settings.quota_scopes)


def turn_bytes(new: NewTurn) -> int:
    """What a turn adds to its tenant's bytes: UTF-8 content, plus metadata as stored (JSON),
    when it has any. The store's triggers count the same (stores/sqlite/schema.py)."""
    size = len(new.content.encode("utf-8", "surrogatepass"))
    if new.metadata:
        size += len(json.dumps(new.metadata, ensure_ascii=False).encode("utf-8", "surrogatepass"))
    return size


def admit(quotas: UsagePort, news: list[NewTurn], settings: Settings) -> None:
    """Raise ``QuotaExceeded`` if storing ``news`` would take any of their tenants past a quota
    (all or none: nothing is written here). Blocking: it reads the store."""
    by_tenant: dict[str, list[NewTurn]] = defaultdict(list)
    for new in news:
        by_tenant[new.scope.tenant_id].append(new)
    for tenant, group in by_tenant.items():
        keys = {n.scope.key for n in group}
        fresh = len(keys - quotas.known_scopes(keys)) if settings.quota_scopes else 0
        adding = Usage(turns=len(group), bytes=sum(map(turn_bytes, group)), scopes=fresh)
        check(tenant, quotas.usage(tenant), adding, settings)


def check(tenant: str, usage: Usage, adding: Usage, settings: Settings) -> None:
    """Pure: raise if ``usage`` plus ``adding`` passes a quota of ``settings``."""
    if settings.quota_turns and usage.turns + adding.turns > settings.quota_turns:
        raise QuotaExceeded(
            f"tenant {tenant!r} holds {usage.turns} turns and its quota is {settings.quota_turns} "
            f"({_env('quota_turns')}): {adding.turns} more would pass it; forget old turns or "
            "raise the quota", setting=_env("quota_turns"), limit=settings.quota_turns)
    if settings.quota_bytes and usage.bytes + adding.bytes > settings.quota_bytes:
        raise SizeQuotaExceeded(
            f"tenant {tenant!r} stores {usage.bytes} bytes of turns and its quota is "
            f"{settings.quota_bytes} ({_env('quota_bytes')}): {adding.bytes} more would pass it; "
            "forget old turns or raise the quota", setting=_env("quota_bytes"), limit=settings.quota_bytes)
    if settings.quota_scopes and usage.scopes + adding.scopes > settings.quota_scopes:
        raise QuotaExceeded(
            f"tenant {tenant!r} has {usage.scopes} users and groups (per agent) and its quota is "
            f"{settings.quota_scopes} ({_env('quota_scopes')}): {adding.scopes} new would pass it; "
            "add to an existing user or group, delete one, or raise the quota",
            setting=_env("quota_scopes"), limit=settings.quota_scopes)


def _env(name: str) -> str:
    return ENV_PREFIX + name.upper()
