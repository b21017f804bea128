"""What memory holds, row by row, as ``mem.entries``: turns, sessions and windows, summaries
and clusters, key lines, facts, and the long-term records with access control. The checks of
ids, versions and tenants and the rules of who may read or edit a record live here.

>>> await mem.entries.turns(group_id="study", actor_id="ni", since="2024-12-01")  # doctest: +SKIP
>>> line = await mem.entries.add_key("预算不能超过10万元", user_id="alice")  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from typing import Any

from .. import validate
from ..config import Settings
from ..embedders.cached import CachedEmbedder
from ..errors import Forbidden, InvalidInput, NotFound
from ..graph import learn as graph_learn
from ..models import (
    FACT_CATEGORIES,
    FACT_SOURCES,
    Candidate,
    Cluster,
    Fact,
    KeyLine,
    Record,
    Summary,
    Turn,
    Window,
    check_id,
)
from ..pipelines.extraction import upsert as upsert_fact
from ..retrieval.asker import first_person
from ..stores.base import FullStore
from ..tiers import records
from .args import MAX_LIMIT, int_id, owned, scope_of


class RecordsService:
    """Rows of one store; ``exclusive`` holds the background off while a summary goes."""

    def __init__(self, store: FullStore, embed: CachedEmbedder,
                 exclusive: Callable[[], AbstractAsyncContextManager[None]], settings: Settings) -> None:
        self._store = store
        self._embed = embed  # a record's vector, a query's
        self._exclusive = exclusive
        self.settings = settings

    # ---- turns, sessions, windows ----------------------------------------------------------
    async def get_turn(self, turn_id: int, *, tenant_id: str = "default") -> Turn:
        turn = (await asyncio.to_thread(self._store.turns.get_turns, [int_id("turn_id", turn_id)])).get(turn_id)
        if turn is None or turn.scope.tenant_id != tenant_id:
            raise NotFound(f"turn {turn_id} does not exist in tenant {tenant_id!r}")
        return turn

    async def turns(self, /, *, session_id: str | None = None, limit: int = 100, offset: int = 0,
                    since: datetime | str | None = None, until: datetime | str | None = None,
                    text: str | None = None, actor_id: str | None = None, actor: str | None = None,
                    asker: str | None = None, **scope: Any) -> list[Turn]:
        """Raw turns oldest first; ``text`` keeps the ones containing it (any case); ``actor_id``
        (a person id) or ``actor`` (a display name) the ones that speaker said. ``asker``: the
        person id of who asks; when ``text`` speaks in the first person ("我的猫", "my trip"),
        the asker's own turns come first (then the others', each oldest first)."""
        validate.positive_int("limit", limit, MAX_LIMIT * 10)
        where = scope_of(scope, session_id=session_id)
        lo = validate.timestamp(since) if since is not None else None
        hi = validate.timestamp(until) if until is not None else None
        if actor is not None and not isinstance(actor, str):
            raise InvalidInput(f"actor must be a display name (a string), got {type(actor).__name__}")
        who = {"actor_id": None if actor_id is None else check_id("actor_id", actor_id),
               "actor": None if actor is None else validate.text("actor", actor)}
        if asker is not None:
            check_id("asker", asker)
        first = asker if asker is not None and text is not None and first_person(text) else None
        return await asyncio.to_thread(self._store.turns.list_turns, where.owner_scope(), session_id=session_id,
                                       limit=limit, offset=offset, since=lo, until=hi, text=text,
                                       first=first, **who)

    async def sessions(self, /, **scope: Any) -> list[dict[str, Any]]:
        return await asyncio.to_thread(self._store.turns.sessions, scope_of(scope))

    async def owners(self, *, tenant_id: str = "default", agent_id: str = "default") -> list[str]:
        return await asyncio.to_thread(self._store.turns.owners, check_id("tenant_id", tenant_id),
                                       check_id("agent_id", agent_id))

    async def windows(self, /, *, session_id: str | None = None, **scope: Any) -> list[Window]:
        """The L2 windows of a user or group (of one session), oldest first: each a run of
        consecutive turns (``step_from``-``step_to``) embedded as one unit when ``window_tokens``
        is set; an ``open`` one is still growing. ``turns(session_id=..)`` reads their turns."""
        where = scope_of(scope, session_id=session_id).owner_scope()
        return await asyncio.to_thread(self._store.windows, where,
                                       None if session_id is None else check_id("session_id", session_id))

    # ---- summaries, clusters, key lines -----------------------------------------------------
    async def summaries(self, /, *, session_id: str | None = None, **scope: Any) -> list[Summary]:
        return await asyncio.to_thread(self._store.summaries.of_scope, scope_of(scope), session_id)

    async def clusters(self, /, **scope: Any) -> list[Cluster]:
        return await asyncio.to_thread(self._store.clusters.of_scope, scope_of(scope))

    async def delete_summary(self, summary_id: int, *, tenant_id: str = "default") -> None:
        await owned(self._store.summaries.get_summary, "summary", summary_id, tenant_id)
        async with self._exclusive():
            await asyncio.to_thread(self._store.summaries.delete_summary, summary_id)

    async def key_memory(self, /, **scope: Any) -> list[KeyLine]:
        return await asyncio.to_thread(self._store.key_lines.keys, scope_of(scope))

    async def add_key(self, /, text: str, **scope: Any) -> KeyLine:
        """Add a user-set key line: always in the context, ahead of promoted ones."""
        return await asyncio.to_thread(self._store.key_lines.add_key, scope_of(scope), validate.key_text(text),
                                       "user", [])

    async def update_key(self, key_id: int, text: str, *, version: int | None = None,
                         tenant_id: str = "default") -> KeyLine:
        """Set a key line's text. With ``version`` (the one read), a line changed since then is
        left alone and Conflict names the current version: no update is ever lost."""
        await owned(self._store.key_lines.get_key, "key line", key_id, tenant_id)
        if version is not None:
            validate.positive_int("version", version, 2**62)
        return await asyncio.to_thread(self._store.key_lines.update_key, key_id, validate.key_text(text), version)

    async def key_line(self, key_id: int, *, tenant_id: str = "default") -> KeyLine:
        """One key line (with its version)."""
        return await owned(self._store.key_lines.get_key, "key line", key_id, tenant_id)

    async def delete_key(self, key_id: int, *, tenant_id: str = "default") -> None:
        await owned(self._store.key_lines.get_key, "key line", key_id, tenant_id)
        await asyncio.to_thread(self._store.key_lines.delete_key, key_id)

    # ---- facts ------------------------------------------------------------------------------
    async def add_fact(self, /, category: str, key: str, value: str, *, confidence: float = 0.9,
                       source: str = "explicit", expires_at: datetime | str | None = None,
                       person_id: str | None = None, **scope: Any) -> Fact | None:
        """State a fact by hand; the same upsert rules as extraction apply. ``person_id``: whom
        it is about (default: the user of ``user_id``)."""
        if category not in FACT_CATEGORIES or source not in FACT_SOURCES:
            raise InvalidInput(f"category must be one of {', '.join(FACT_CATEGORIES)}; "
                               f"source one of {', '.join(FACT_SOURCES)}")
        if not 0.0 <= confidence <= 1.0 or not str(key).strip() or not str(value).strip():
            raise InvalidInput("a fact needs a key, a value and a confidence in [0, 1]")
        where = scope_of(scope)
        expires = validate.timestamp(expires_at).timestamp() if expires_at is not None else None
        subject = check_id("person_id", person_id) if person_id is not None else where.user_id
        cand = Candidate(category, key.strip(), value.strip(), confidence, source, 0.5, expires, subject)
        return await asyncio.to_thread(upsert_fact, self._store.profile, where, cand, None, time.time(),
                                       self.settings)

    async def fact(self, fact_id: int, *, tenant_id: str = "default") -> Fact:
        """One fact (current or history) with its version."""
        return await owned(self._store.profile.get_fact, "fact", fact_id, tenant_id)

    async def update_fact(self, fact_id: int, value: str, *, version: int | None = None,
                          tenant_id: str = "default") -> Fact:
        """Correct a current fact's value by hand (source "edited"); the old value stays in its
        history. With ``version`` (the one read), a fact changed since is left alone: Conflict.
        The graph says the new value too (its triples, in the same transaction)."""
        before = await self.fact(fact_id, tenant_id=tenant_id)
        if version is not None:
            validate.positive_int("version", version, 2**62)
        graph = self._store.graph if self.settings.extract_graph else None
        return await asyncio.to_thread(graph_learn.correct_fact, self._store, self._store.profile, graph, fact_id,
                                       validate.fact_value(value), version, time.time(), before.value)

    # ---- records with access control --------------------------------------------------------
    async def add_record(self, /, content: str, *, user_id: str, tenant_id: str = "default",
                         agent_id: str = "default", **fields: Any) -> Record:
        """Store a long-term record owned by ``user_id`` (private unless ``visibility`` says so)."""
        where = scope_of({"user_id": user_id, "tenant_id": tenant_id, "agent_id": agent_id})
        clean = records.check_fields({**fields, "content": content})
        clean["embedding_model"] = self._embed.model_id
        rec = await asyncio.to_thread(self._store.records.add_record, where.tenant_id, where.agent_id,
                                      user_id, clean)
        vec = await asyncio.to_thread(self._embed.passages, [content])
        await asyncio.to_thread(self._store.vectors.put_vectors, "record", [(rec.id, where.key, vec[0])],
                                self._embed.model_id)
        return rec

    async def records(self, *, viewer: str, roles: list[str] | tuple[str, ...] = (),
                      type: str | None = None, query: str | None = None, limit: int = 100,
                      tenant_id: str = "default", agent_id: str = "default") -> list[Record]:
        """Records ``viewer`` may read (own, shared with them or their roles, public)."""
        check_id("viewer", viewer)
        found = await asyncio.to_thread(self._store.records.list_records, tenant_id, agent_id, viewer,
                                        tuple(roles), type, 100_000 if query else limit)
        found = [r for r in found if records.can_read(r, viewer, tuple(roles))]
        if query is not None:
            qvec = await asyncio.to_thread(self._embed.query, validate.query(query))
            vecs = await asyncio.to_thread(self._store.vectors.get_vectors, "record", [r.id for r in found])
            found = records.ranked(found, vecs, qvec)[:limit]
        return found

    async def get_record(self, record_id: int, *, viewer: str, roles: list[str] | tuple[str, ...] = (),
                         tenant_id: str = "default") -> Record:
        rec = await asyncio.to_thread(self._store.records.get_record, int_id("record_id", record_id),
                                      tenant_id, check_id("viewer", viewer), tuple(roles))
        if rec is None or not records.can_read(rec, viewer, tuple(roles)):
            raise NotFound(f"record {record_id} does not exist or is not visible to {viewer!r}")
        await asyncio.to_thread(self._store.records.touch_records, [rec.id], time.time())
        return rec

    async def update_record(self, /, record_id: int, *, version: int, viewer: str,
                            tenant_id: str = "default", **changes: Any) -> Record:
        """Update a record you own, if it is still at ``version`` (else ``Conflict``)."""
        rec = await self.get_record(record_id, viewer=viewer, tenant_id=tenant_id)
        if rec.user_id != viewer:
            raise Forbidden(f"record {record_id} belongs to another user; only its owner edits it")
        clean = records.check_fields(changes, partial=True)
        return await asyncio.to_thread(self._store.records.update_record, rec.id, int_id("version", version), clean)

    async def delete_record(self, record_id: int, *, viewer: str, tenant_id: str = "default") -> None:
        rec = await self.get_record(record_id, viewer=viewer, tenant_id=tenant_id)
        if rec.user_id != viewer:
            raise Forbidden(f"record {record_id} belongs to another user; only its owner deletes it")
        await asyncio.to_thread(self._store.records.delete_record, rec.id)
