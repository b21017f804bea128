"""Turns in: each checked and segmented off the event loop, an idempotent retry answered with
what the first write stored, the backlog cap, and tenants' quotas under one lock (with Redis,
each tenant's lock too, so replicas share it): two writers never both take a tenant's last place.

>>> turn = await writes.add({"content": "预算不能超过10万元", "group_id": "study"})  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from typing import Any

from .. import backlog, chat_sessions, quota, validate
from ..config import Settings, diary_zone
from ..errors import InvalidInput, NotFound
from ..models import Turn, check_id
from ..pipelines.worker import Worker
from ..redis_link import RedisLink
from ..stores.base import FullStore, NewTurn, Once
from ..tenant_lock import TenantLock
from ..text import attachments
from ..text.quotes import addressed, quoted
from ..text.segment import segment
from .args import int_id, scope_of

TURN_FIELDS = {"session_id", "content", "role", "actor", "actor_id", "timestamp", "metadata", "user_id",
               "group_id", "tenant_id", "agent_id", "reply_to"}


class TurnWriter:
    """``Memory.add`` and ``add_many``: the checks and the write policy of a turn."""

    def __init__(self, store: FullStore, worker: Worker, settings: Settings, redis: RedisLink | None) -> None:
        self._store = store
        self._worker = worker  # woken after a write; waits for a pause in writes (last_write)
        self.settings = settings
        self._quota_lock = asyncio.Lock()
        self._tenant_lock = TenantLock(redis)  # the same, across replicas, with Redis

    async def add(self, item: dict[str, Any], idempotency_key: str | None = None) -> Turn:
        """Store one turn (a dict of ``Memory.add``'s arguments) and return it."""
        new = await asyncio.to_thread(self.new_turn, item)  # segmenting a long text is CPU work: off the loop
        turns = await self._insert([new], once_of(idempotency_key, [item]))
        self._worker.fresh.note(turns)  # searchable by meaning at the worker's next pause (fresh.py)
        self._worker.wake.set()
        if not turns:
            raise NotFound(f"the turn stored with idempotency key {idempotency_key!r} was forgotten since")
        return turns[0]

    async def add_many(self, items: list[dict[str, Any]], idempotency_key: str | None = None) -> list[Turn]:
        """Store several turns in one transaction (all or none)."""
        if not isinstance(items, list) or not items:
            raise InvalidInput("add_many needs a non-empty list of turns (dicts with add()'s arguments)")
        news = await asyncio.to_thread(lambda: [self.new_turn(item) for item in items])  # off the loop, as add
        turns = await self._insert(news, once_of(idempotency_key, items))
        self._worker.fresh.note(turns)  # a few turns only: an import's batch waits for its jobs
        self._worker.wake.set()
        return turns

    async def _insert(self, news: list[NewTurn], once: Once | None = None) -> list[Turn]:
        """Write turns, within their tenants' quotas if any are set: the check and the write
        hold one lock, so two writers never both take a tenant's last place."""
        if once is not None:
            if {n.scope.tenant_id for n in news} != {once.tenant}:
                raise InvalidInput("the turns of one idempotent write must all belong to one tenant")
            if (done := await asyncio.to_thread(self._store.turns.replay, once)) is not None:
                return done  # a retry: what the first write stored, whatever the quota says now
        self._worker.last_write = time.monotonic()  # writers first: the worker waits for a pause

        def write() -> list[Turn]:  # within the cap on waiting background work (backlog.py)
            backlog.admit(self._store.jobs, news, self.settings)
            return self._store.turns.add_turns(self._sessions(news), once)

        if not quota.enabled(self.settings):
            return await asyncio.to_thread(write)
        async with self._quota_lock, self._tenant_lock.held(n.scope.tenant_id for n in news):
            await asyncio.to_thread(quota.admit, self._store.quotas, news, self.settings)
            return await asyncio.to_thread(write)

    def _sessions(self, news: list[NewTurn]) -> list[NewTurn]:
        rule = chat_sessions.Rule(self.settings.session_gap_minutes * 60, diary_zone(self.settings.diary_tz))
        return chat_sessions.assign(news, self._store.turns.chat_latest, rule)

    def new_turn(self, item: Any) -> NewTurn:
        """A turn checked, its words segmented, its reply found (CPU work: call off the loop)."""
        if not isinstance(item, dict):
            raise InvalidInput(f"a turn must be a dict, got {type(item).__name__}")
        unknown = set(item) - TURN_FIELDS
        if unknown:
            raise InvalidInput(f"unknown turn field(s): {', '.join(sorted(unknown))}")
        if item.get("session_id") is not None:  # None: the chat's current session (chat_sessions.py)
            check_id("session_id", item["session_id"])
        scope = scope_of(item, session_id=item.get("session_id"))
        text = validate.content(item.get("content"), self.settings)
        speaker = validate.actor(item.get("actor"))
        person = item.get("actor_id")
        meta = validate.metadata(item.get("metadata"))  # attachments' captions are indexed with the words
        reply = item.get("reply_to")
        if reply is not None:
            reply = int_id("reply_to", reply)
        by_message = meta.get("reply_to_message")
        return NewTurn(scope, validate.role(item.get("role", "user")), text,
                       speaker, validate.timestamp(item.get("timestamp")),
                       meta, segment(attachments.indexed(text, meta)),
                       None if person is None else check_id("actor_id", person), reply,
                       str(by_message) if isinstance(by_message, (str, int)) and reply is None else None,
                       quote := quoted(text) if reply is None and by_message is None else None,
                       addressed(text, tagged(meta)) if reply is None and by_message is None and quote is None
                       else None)


def tagged(meta: dict[str, Any]) -> list[str]:
    """The person ids a platform says a message @-mentions (metadata ``mentions``)."""
    found = meta.get("mentions")
    return [p for p in found if isinstance(p, str)] if isinstance(found, list) else []


def once_of(key: str | None, items: list[dict[str, Any]]) -> Once | None:
    """The idempotency of a write: its key, and a fingerprint of the turns as given (a retry
    sends the same ones; the time a turn without a timestamp gets is not part of it)."""
    if key is None:
        return None
    if not isinstance(key, str) or not 1 <= len(key) <= 255 or not key.isprintable() or not key.isascii():
        raise InvalidInput("idempotency_key must be 1-255 printable ASCII characters (a UUID is a good one)")
    given = json.dumps(items, sort_keys=True, default=str, ensure_ascii=False)
    tenant = items[0].get("tenant_id", "default") if isinstance(items[0], dict) else "default"
    return Once(str(tenant), key, hashlib.sha256(given.encode("utf-8", "surrogatepass")).hexdigest())
