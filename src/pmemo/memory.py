"""``Memory``: the async facade. It wires the parts together and delegates; the logic
lives in tiers/, retrieval/ and pipelines/.

>>> import asyncio, tempfile
>>> async def demo():
...     mem = await Memory.open(tempfile.mkdtemp(), embedder="hashing")
...     await mem.add(user_id="u1", session_id="s1", content="预算不能超过10万元")
...     await mem.drain()
...     hits = await mem.search("预算", user_id="u1")
...     await mem.close()
...     return hits[0].text
>>> asyncio.run(demo())
'预算不能超过10万元'
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import json
import logging
import time
from collections.abc import Callable
from datetime import date, datetime
from pathlib import Path
from typing import Any, TypeVar

from . import backlog, chat_sessions, quota, reads_first, validate
from .blocks.derive import HumanBlocks
from .blocks.edit import appended, replaced
from .blocks.folder import BlockFolder
from .blocks.model import Block, check_label, visible, where_of
from .blocks.render import check_style
from .config import Settings, diary_zone
from .diary.days import local_day, parse_day
from .diary.persona import persona_of
from .embedders import make_embedder
from .embedders.cached import CachedEmbedder
from .errors import Forbidden, InvalidInput, NotFound
from .forgetting import sweeper
from .forgetting.explicit import Forgetter
from .graph import insights as graph_insights
from .graph import learn as graph_learn
from .graph import read as graph_read
from .llms import make_llm
from .models import (
    FACT_CATEGORIES,
    FACT_SOURCES,
    AgendaItem,
    Candidate,
    Cluster,
    ContextPack,
    Diary,
    Episode,
    Fact,
    Graph,
    Hit,
    Insight,
    KeyLine,
    Member,
    Person,
    PersonSummary,
    Record,
    Scope,
    Summary,
    Task,
    Triple,
    Turn,
    Window,
    check_id,
)
from .people.aliases import check_alias
from .people.resolve import Match
from .pipelines import reembed
from .pipelines.extraction import upsert as upsert_fact
from .pipelines.recalls import Recalls
from .pipelines.second_encoder import second_channel
from .pipelines.worker import Worker
from .redis_link import RedisLink, open_link
from .retrieval.asker import first_person
from .retrieval.asof import epoch, stated_by
from .retrieval.people_section import agenda_window
from .retrieval.reader import ContextReader
from .retrieval.retriever import Retriever
from .stores import open_store
from .stores.base import FullStore, NewTurn, Once, TripleView
from .stores.recent_cache import cached as recent_cached
from .tenant_lock import TenantLock
from .text import attachments
from .text.quotes import addressed, quoted
from .text.segment import segment
from .tiers import records
from .tiers.episodes import Episodes
from .tiers.people import profile_view
from .tiers.services import Tiers
from .tiers.tasks import Tasks
from .tokens import make_counter

MAX_LIMIT = 1000
T = TypeVar("T")
MAX_BUDGET = 200_000

log = logging.getLogger("pmemo")


class Memory:
    """Hierarchical memory over one store: a data directory (SQLite) or a PostgreSQL database
    shared by any number of processes. Open with ``await Memory.open(path)``."""

    def __init__(self, store: FullStore, embed: CachedEmbedder, tiers: Tiers, settings: Settings,
                 redis: RedisLink | None = None) -> None:
        self.settings = settings
        self.redis = redis  # issue 21: shared by replicas (the server's rate limits use it too); None: no Redis
        self._store = store
        self._embed = embed
        self._tiers = tiers
        self._count = make_counter(settings.tokenizer)
        self._worker = Worker(store, embed, tiers, settings)
        self._retriever = Retriever(store, embed, settings, tiers.threshold, tiers.people)
        self._task: asyncio.Task[None] | None = None
        self._recalls = Recalls(store, self._worker.wake.set)  # reads' hit counts, queued together
        self._people = tiers.people
        self._quota_lock = asyncio.Lock()
        self._tenant_lock = TenantLock(redis)  # the same, across replicas, with Redis
        self._block_folder: BlockFolder | None = None  # memory blocks (issue 20): _open_blocks

    # ---- life cycle ---------------------------------------------------------------------
    @classmethod
    async def open(cls, path: str | Path | None = None, *, settings: Settings | None = None,
                   embedder: Any = None, llm: Any = None, blocks_dir: str | Path | None = None) -> Memory:
        """``path``: a data directory or a store URL (``postgresql://…``); default: the
        ``store`` setting, else SQLite in the ``data`` directory. ``blocks_dir``: a folder of
        memory block files (as the ``blocks_dir`` setting). With ``run_jobs`` false no
        background jobs run here: ``pmemo worker`` processes on the same store run them."""
        settings = settings or Settings.from_env()
        if blocks_dir is not None:
            settings = settings.replace(blocks_dir=str(blocks_dir))
        _limit_blas(settings.blas_threads)
        # a SQLite store's vector search fills its cache scope by scope, as scopes are searched
        store = await asyncio.to_thread(open_store, path, settings)
        redis: RedisLink | None = None
        try:
            redis = await asyncio.to_thread(open_link, settings)
            shared = recent_cached(store, redis, settings.short_term_turns)  # issue 21: sessions' last turns
            model = await asyncio.to_thread(make_embedder, embedder or settings.embedder, settings)
            second = await asyncio.to_thread(second_channel, store, settings)  # second_encoder; None: off
            embed = CachedEmbedder(model, store, settings.embed_batch, second)
            await asyncio.to_thread(reembed.queue_stale_vectors, store, model.model_id)
            memory = cls(shared, embed, Tiers(shared, embed, make_llm(llm, settings), settings), settings, redis)
            await memory._open_blocks()
            memory._worker.diary.persona = persona_of(memory._blocks_now)  # diary (issue 20)
        except BaseException:
            store.close()
            if redis is not None:
                redis.close()
            raise
        if settings.run_jobs:
            memory._task = asyncio.create_task(memory._worker.run_forever())
        return memory

    async def close(self) -> None:
        """Stop background work (pending jobs stay queued for the next open) and close the store."""
        await self._recalls.settle()
        self._worker.stopping.set()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        await self._worker.settle()
        # what this process still held goes back to the queue now, not when its leases run out
        await asyncio.to_thread(self._store.requeue_running, self._worker.owner)
        if self._block_folder is not None:
            await asyncio.to_thread(self._block_folder.close)
        await asyncio.to_thread(self._retriever.close)
        self._store.close()
        if self.redis is not None:
            self.redis.close()

    async def __aenter__(self) -> Memory:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def drain(self, timeout: float | None = None, **scope: Any) -> None:
        """Wait until background jobs (embedding, clustering, summaries, promotion) are done:
        all of them, or with ``tenant_id`` (and ``user_id``/``group_id``, ``agent_id``) those
        about that tenant's (owner's) turns only, so one tenant never waits on another's. With
        L2 windows, the open windows (a session's last turns) are embedded too. With
        ``run_jobs`` false, it waits for the worker processes to run them."""
        count = functools.partial(self._store.pending, **self._job_filter(scope))
        async with asyncio.timeout(timeout):
            await self._recalls.settle()
            while await asyncio.to_thread(count):
                if not self.settings.run_jobs or not await self._worker.run_once():
                    await asyncio.sleep(0.01 if self.settings.run_jobs else 0.1)
            if self.settings.window_tokens and self.settings.run_jobs:  # L2 windows (issue 20)
                await self._worker.flush_windows(True, **self._job_filter(scope))

    async def pending(self, **scope: Any) -> int:
        """Background jobs not done yet, of everyone or of a tenant or owner (as ``drain``)."""
        return await asyncio.to_thread(self._store.pending, **self._job_filter(scope))

    async def failed_jobs(self, *, limit: int = 100, **scope: Any) -> list[dict[str, Any]]:
        """The dead-letter list: background jobs that failed every try, newest first, each with
        id, kind, payload, attempts, error and updated (epoch seconds); of everyone, or of a
        tenant (``tenant_id``, ``agent_id``) as ``pending``. ``retry_jobs`` queues them again.

        >>> [(j["kind"], j["error"]) for j in await mem.failed_jobs(tenant_id="acme")]  # doctest: +SKIP
        [('promote', "KeyError: 'cluster_id'")]
        """
        where = self._dead_filter(scope, ("tenant_id", "agent_id"))
        return await asyncio.to_thread(self._store.dead_jobs, where.get("tenant_id"),
                                       agent_id=where.get("agent_id"),
                                       limit=validate.positive_int("limit", limit, MAX_LIMIT))

    async def retry_jobs(self, job_ids: list[int] | None = None, **scope: Any) -> int:
        """Queue failed jobs again, their attempts reset: these ids, or every failed job of the
        tenant (``tenant_id``), or every one; returns how many. Another tenant's ids are left alone."""
        where = self._dead_filter(scope, ("tenant_id",))
        ids = None if job_ids is None else [_int_id("job id", i) for i in job_ids]
        count = await asyncio.to_thread(self._store.retry_dead, ids, where.get("tenant_id"))
        if count:
            self._worker.wake.set()
        return count

    @staticmethod
    def _dead_filter(scope: dict[str, Any], allowed: tuple[str, ...]) -> dict[str, Any]:
        unknown = set(scope) - set(allowed)
        if unknown:
            raise InvalidInput(f"unknown scope field(s): {', '.join(sorted(unknown))}; failed jobs are"
                               f" listed and retried by {' and '.join(allowed)}")
        return {k: check_id(k, v) for k, v in scope.items() if v is not None}

    @staticmethod
    def _job_filter(scope: dict[str, Any]) -> dict[str, Any]:
        if not scope:
            return {}
        if "user_id" in scope or "group_id" in scope:
            owner = _scope(scope)
            return {"tenant_id": owner.tenant_id, "agent_id": owner.agent_id, "owner": owner.owner}
        unknown = set(scope) - {"tenant_id", "agent_id"}
        if unknown:
            raise InvalidInput(f"unknown scope field(s): {', '.join(sorted(unknown))}")
        return {"tenant_id": check_id("tenant_id", scope.get("tenant_id", "default")),
                "agent_id": None if scope.get("agent_id") is None else check_id("agent_id", scope["agent_id"])}

    # ---- write --------------------------------------------------------------------------
    async def add(self, *, content: str, session_id: str | None = None, role: str = "user", actor: str | None = None,
                  actor_id: str | None = None, timestamp: datetime | str | None = None,
                  metadata: dict[str, Any] | None = None, user_id: str | None = None,
                  group_id: str | None = None, tenant_id: str = "default", agent_id: str = "default",
                  idempotency_key: str | None = None, reply_to: int | None = None) -> Turn:
        """Store one turn durably and return it; embedding and the rest happen in the background.
        ``actor_id`` is the speaker's stable person id, ``actor`` their display name at the time.
        Without ``session_id`` the turn joins its chat's current session, or starts one after
        ``session_gap_minutes`` of silence or at the day's turn (``chat_sessions``); the turn
        returned names it. ``reply_to``: the id of the turn of this chat it answers; without it, the
        platform's id of that message (``metadata["reply_to_message"]``, matched to an earlier
        turn's ``metadata["message_id"]``) or the quote the text opens with (「名片：原文」, ">")
        ties it (``Turn.reply_to``).
        ``idempotency_key``: a retry with the same key (after a lost reply) stores nothing again
        and returns the turn the first call stored."""
        item = dict(session_id=session_id, content=content, role=role, actor=actor, actor_id=actor_id,
                    timestamp=timestamp, metadata=metadata, user_id=user_id, group_id=group_id,
                    tenant_id=tenant_id, agent_id=agent_id, reply_to=reply_to)
        new = await asyncio.to_thread(self._new_turn, item)  # segmenting a long text is CPU work: off the loop
        turns = await self._insert([new], _once(idempotency_key, [item]))
        self._worker.wake.set()
        if not turns:
            raise NotFound(f"the turn stored with idempotency key {idempotency_key!r} was forgotten since")
        return turns[0]

    async def add_many(self, items: list[dict[str, Any]], *, idempotency_key: str | None = None) -> list[Turn]:
        """Store several turns in one transaction (all or none). ``idempotency_key``: as in ``add``;
        all the turns of a batch share one key, and must belong to one tenant."""
        if not isinstance(items, list) or not items:
            raise InvalidInput("add_many needs a non-empty list of turns (dicts with add()'s arguments)")
        news = await asyncio.to_thread(lambda: [self._new_turn(item) for item in items])  # off the loop, as in add
        turns = await self._insert(news, _once(idempotency_key, items))
        self._worker.wake.set()
        return turns

    async def _insert(self, news: list[NewTurn], once: Once | None = None) -> list[Turn]:
        """Write turns, within their tenants' quotas if any are set: the check and the write
        hold one lock (with Redis, each tenant's lock too, so replicas share it), so two writers
        never both take a tenant's last place."""
        if once is not None:
            if {n.scope.tenant_id for n in news} != {once.tenant}:
                raise InvalidInput("the turns of one idempotent write must all belong to one tenant")
            if (done := await asyncio.to_thread(self._store.replay, once)) is not None:
                return done  # a retry: what the first write stored, whatever the quota says now
        self._worker.last_write = time.monotonic()  # writers first: the worker waits for a pause

        def write() -> list[Turn]:  # within the cap on waiting background work (backlog.py)
            backlog.admit(self._store, news, self.settings)
            return self._store.add_turns(self._sessions(news), once)

        if not quota.enabled(self.settings):
            return await asyncio.to_thread(write)
        async with self._quota_lock, self._tenant_lock.held(n.scope.tenant_id for n in news):
            await asyncio.to_thread(quota.admit, self._store, news, self.settings)
            return await asyncio.to_thread(write)

    def _sessions(self, news: list[NewTurn]) -> list[NewTurn]:
        rule = chat_sessions.Rule(self.settings.session_gap_minutes * 60, diary_zone(self.settings.diary_tz))
        return chat_sessions.assign(news, self._store.chat_latest, rule)

    def _new_turn(self, item: Any) -> NewTurn:
        if not isinstance(item, dict):
            raise InvalidInput(f"a turn must be a dict, got {type(item).__name__}")
        allowed = {"session_id", "content", "role", "actor", "actor_id", "timestamp", "metadata", "user_id",
                   "group_id", "tenant_id", "agent_id", "reply_to"}
        unknown = set(item) - allowed
        if unknown:
            raise InvalidInput(f"unknown turn field(s): {', '.join(sorted(unknown))}")
        if item.get("session_id") is not None:  # None: the chat's current session (chat_sessions.py)
            check_id("session_id", item["session_id"])
        scope = _scope(item, session_id=item.get("session_id"))
        text = validate.content(item.get("content"), self.settings)
        speaker = validate.actor(item.get("actor"))
        person = item.get("actor_id")
        meta = validate.metadata(item.get("metadata"))  # attachments' captions are indexed with the words
        reply = item.get("reply_to")
        if reply is not None:
            reply = _int_id("reply_to", reply)
        by_message = meta.get("reply_to_message")
        return NewTurn(scope, validate.role(item.get("role", "user")), text,
                       speaker, validate.timestamp(item.get("timestamp")),
                       meta, segment(attachments.indexed(text, meta)),
                       None if person is None else check_id("actor_id", person), reply,
                       str(by_message) if isinstance(by_message, (str, int)) and reply is None else None,
                       quote := quoted(text) if reply is None and by_message is None else None,
                       addressed(text, _tagged(meta)) if reply is None and by_message is None and quote is None
                       else None)

    # ---- read ---------------------------------------------------------------------------
    async def search(self, query: str, *, limit: int = 10, session_id: str | None = None,
                     at: datetime | str | None = None, asker: str | None = None, **scope: Any) -> list[Hit]:
        """Ranked hits from every tier: turns, summaries and key lines, best first. ``at`` is
        when the query is asked (default now): its relative dates ("yesterday", "last week",
        上个月) are read from that day, and nothing said after it is known (what was made from
        later turns, facts stated later, later plans: ``retrieval.asof``). With ``session_id``,
        turns and summaries are that session's only; key lines and people's facts belong to the
        owner, and their ``why`` says so. ``asker``: the person id of who asks; first-person
        words in the query (我, 我的, 俺, 本人; I, me, my, mine, myself) mean them, so their own
        words rank first, as a person the query names would (nobody else's are left out; a
        query without them ranks as it would without ``asker``).

        >>> await mem.search("我上次说的那家店叫什么", group_id="study", asker="ni")  # doctest: +SKIP
        """
        validate.positive_int("limit", limit, MAX_LIMIT)
        where = _scope(scope, session_id=session_id)
        asked = validate.timestamp(at, "at")
        if asker is not None:
            check_id("asker", asker)
        found = await asyncio.to_thread(_read, self._reader.search, validate.query(query), where, session_id, limit,
                                        asked, asker, at is not None)
        self._recalls.add(found.clusters)
        return found.hits

    async def context(self, query: str, *, session_id: str | None = None,
                      budget_tokens: int | None = None, at: datetime | str | None = None,
                      asker: str | None = None, recent: list[str] | None = None,
                      format: str = "markdown", with_input: bool = True, **scope: Any) -> ContextPack:
        """The packed context for ``query``: memory blocks → key → people → agenda → long-term →
        mid-term → short-term → input. ``at``: when the query is asked, as for ``search``: the
        context knows nothing said after it ("last spoke" and the recent turns included).
        ``asker``: the person asking (their profile in this group and their plans near ``at``
        come in); ``recent``: the last messages of the chat, whose named people come in too.
        ``format="memgpt"`` writes the memory blocks in the MemGPT/Letta ``<memory_blocks>``
        layout. Blocks and key lines are always whole: if they alone exceed the budget, the
        pack is only they, with ``over_budget`` and a ``note``. ``with_input=False``: no
        ``## Current input`` at the end, for an agent that sends the message itself (the whole
        budget goes to memory).

        >>> await mem.context("还不睡？", group_id="study", asker="ni")  # doctest: +SKIP
        """
        budget = validate.positive_int("budget_tokens", budget_tokens or self.settings.budget_tokens,
                                       MAX_BUDGET)
        owner = _scope(scope, session_id=session_id).owner_scope()
        if asker is not None:
            check_id("asker", asker)
        read = await asyncio.to_thread(_read, self._reader.read, validate.query(query), owner, session_id, budget,
                                       validate.timestamp(at, "at"), asker, validate.recent(recent), MAX_LIMIT,
                                       check_style(format), validate.flag("with_input", with_input), at is not None)
        self._recalls.add(read.clusters, read.episodes)
        return read.pack

    async def get_turn(self, turn_id: int, *, tenant_id: str = "default") -> Turn:
        turn = (await asyncio.to_thread(self._store.get_turns, [_int_id("turn_id", turn_id)])).get(turn_id)
        if turn is None or turn.scope.tenant_id != tenant_id:
            raise NotFound(f"turn {turn_id} does not exist in tenant {tenant_id!r}")
        return turn

    async def turns(self, *, session_id: str | None = None, limit: int = 100, offset: int = 0,
                    since: datetime | str | None = None, until: datetime | str | None = None,
                    text: str | None = None, actor_id: str | None = None, actor: str | None = None,
                    asker: str | None = None, **scope: Any) -> list[Turn]:
        """Raw turns oldest first; ``text`` keeps the ones containing it (any case); ``actor_id``
        (a person id) or ``actor`` (a display name) the ones that speaker said. ``asker``: the
        person id of who asks; when ``text`` speaks in the first person ("我的猫", "my trip"),
        the asker's own turns come first (then the others', each oldest first).

        >>> await mem.turns(group_id="study", actor_id="ni", since="2024-12-01")  # doctest: +SKIP
        """
        validate.positive_int("limit", limit, MAX_LIMIT * 10)
        where = _scope(scope, session_id=session_id)
        lo = validate.timestamp(since) if since is not None else None
        hi = validate.timestamp(until) if until is not None else None
        if actor is not None and not isinstance(actor, str):
            raise InvalidInput(f"actor must be a display name (a string), got {type(actor).__name__}")
        who = {"actor_id": None if actor_id is None else check_id("actor_id", actor_id),
               "actor": None if actor is None else validate.text("actor", actor)}
        if asker is not None:
            check_id("asker", asker)
        first = asker if asker is not None and text is not None and first_person(text) else None
        return await asyncio.to_thread(self._store.list_turns, where.owner_scope(), session_id=session_id,
                                       limit=limit, offset=offset, since=lo, until=hi, text=text,
                                       first=first, **who)

    async def sessions(self, **scope: Any) -> list[dict[str, Any]]:
        return await asyncio.to_thread(self._store.sessions, _scope(scope))

    async def owners(self, *, tenant_id: str = "default", agent_id: str = "default") -> list[str]:
        return await asyncio.to_thread(self._store.owners, check_id("tenant_id", tenant_id),
                                       check_id("agent_id", agent_id))

    async def summaries(self, *, session_id: str | None = None, **scope: Any) -> list[Summary]:
        return await asyncio.to_thread(self._store.summaries, _scope(scope), session_id)

    async def clusters(self, **scope: Any) -> list[Cluster]:
        return await asyncio.to_thread(self._store.clusters, _scope(scope))

    async def key_memory(self, **scope: Any) -> list[KeyLine]:
        return await asyncio.to_thread(self._store.keys, _scope(scope))

    async def stats(self, *, tenant_id: str | None = None, agent_id: str | None = None,
                    user_id: str | None = None, group_id: str | None = None) -> dict[str, int]:
        """Counts per tier and of background jobs: the whole store, or one tenant and within
        it an agent and/or an owner (at most one of user_id, group_id).

        >>> await memory.stats(tenant_id="t1", user_id="alice")  # doctest: +SKIP
        """
        owner = None
        if user_id is not None or group_id is not None:
            owner = Scope.of(user_id=user_id, group_id=group_id).owner
        return await asyncio.to_thread(
            self._store.stats, None if tenant_id is None else check_id("tenant_id", tenant_id),
            agent_id=None if agent_id is None else check_id("agent_id", agent_id), owner=owner)

    async def vitals(self) -> dict[str, float]:
        """For an operator (``/metrics``), of every tenant together: background jobs by status
        (``jobs_pending``, ``jobs_running``, ``jobs_failed``), the age in seconds of the oldest
        job not done (``oldest_job_age_s``, 0 when none) and the store's bytes on disk."""
        queue, size = await asyncio.to_thread(lambda: (self._store.job_queue(), self._store.size_bytes()))
        waiting = [queue[s][1] for s in ("pending", "running") if s in queue]
        out = {f"jobs_{s}": float(queue.get(s, (0, 0.0))[0]) for s in ("pending", "running", "failed")}
        return {**out, "oldest_job_age_s": max(0.0, time.time() - min(waiting)) if waiting else 0.0,
                "store_bytes": float(size)}

    def on_embed(self, hook: Callable[[str, int, float], None]) -> None:
        """Call ``hook(kind, texts, seconds)`` after each call to the embedder ("passage" batches
        of the background worker, "query" texts of reads), from the thread that embedded."""
        self._embed.on_embed(hook)

    # ---- key memory -----------------------------------------------------------------------
    async def add_key(self, text: str, **scope: Any) -> KeyLine:
        """Add a user-set key line: always in the context, ahead of promoted ones."""
        return await asyncio.to_thread(self._store.add_key, _scope(scope), validate.key_text(text),
                                       "user", [])

    async def update_key(self, key_id: int, text: str, *, version: int | None = None,
                         tenant_id: str = "default") -> KeyLine:
        """Set a key line's text. With ``version`` (the one read), a line changed since then is
        left alone and Conflict names the current version: no update is ever lost."""
        await self._owned(self._store.get_key, "key line", key_id, tenant_id)
        if version is not None:
            validate.positive_int("version", version, 2**62)
        return await asyncio.to_thread(self._store.update_key, key_id, validate.key_text(text), version)

    async def key_line(self, key_id: int, *, tenant_id: str = "default") -> KeyLine:
        """One key line (with its version)."""
        return await self._owned(self._store.get_key, "key line", key_id, tenant_id)  # type: ignore[no-any-return]

    async def delete_key(self, key_id: int, *, tenant_id: str = "default") -> None:
        await self._owned(self._store.get_key, "key line", key_id, tenant_id)
        await asyncio.to_thread(self._store.delete_key, key_id)

    async def delete_summary(self, summary_id: int, *, tenant_id: str = "default") -> None:
        await self._owned(self._store.get_summary, "summary", summary_id, tenant_id)
        async with self._worker.exclusive():
            await asyncio.to_thread(self._store.delete_summary, summary_id)

    async def _owned(self, getter: Any, what: str, ref: int, tenant_id: str) -> Any:
        found = await asyncio.to_thread(getter, _int_id(f"{what} id", ref))
        if found is None or found.scope.tenant_id != tenant_id:
            raise NotFound(f"{what} {ref} does not exist in tenant {tenant_id!r}")
        return found

    # ---- delete ---------------------------------------------------------------------------
    async def delete_turn(self, turn_id: int, *, tenant_id: str = "default") -> dict[str, Any]:
        """Delete a turn from every tier, index and derived record; returns what changed."""
        await self.get_turn(turn_id, tenant_id=tenant_id)
        return await self._delete([turn_id])

    async def delete_turn_at(self, session_id: str, step: int, **scope: Any) -> dict[str, Any]:
        """Delete the turn at ``step`` of a session (steps count from 1)."""
        where = _scope(scope, session_id=session_id)
        turn = await asyncio.to_thread(self._store.turn_at, where.owner_scope(), session_id, step)
        if turn is None:
            raise NotFound(f"session {session_id!r} has no turn at step {step}")
        return await self._delete([turn.id])

    async def delete_session(self, session_id: str, **scope: Any) -> dict[str, Any]:
        where = _scope(scope, session_id=session_id)
        ids = await asyncio.to_thread(self._store.turn_ids, where.owner_scope(), session_id)
        if not ids:
            raise NotFound(f"session {session_id!r} has no turns for {where.owner}")
        return await self._delete(ids)

    async def delete_owner(self, **scope: Any) -> dict[str, Any]:
        """Delete everything of a user or group: turns, derived records, key memory."""
        where = _scope(scope)
        ids = await asyncio.to_thread(self._store.turn_ids, where)
        report = await self._delete(ids)
        for key in await asyncio.to_thread(self._store.keys, where):
            await asyncio.to_thread(self._store.delete_key, key.id)
            report["key_lines"].append(key.id)
        return report

    async def _delete(self, ids: list[int]) -> dict[str, Any]:
        async with self._worker.exclusive():  # facts, episodes too; the owners held in the store
            return await asyncio.to_thread(self._forgetter.delete, ids)

    # ==== profile, episodes, tasks, records, forgetting (issue 5) ===========================
    # Thin delegation to tiers/profile.py, tiers/episodes.py, tiers/tasks.py and forgetting/.

    @functools.cached_property
    def _episodes(self) -> Episodes:
        return Episodes(self._store, self._tiers, self.settings)  # type: ignore[arg-type]

    @functools.cached_property
    def _forgetter(self) -> Forgetter:
        return Forgetter(self._store, self._tiers, self._embed, self._episodes,  # type: ignore[arg-type]
                         self._worker.diary)

    @functools.cached_property
    def _reader(self) -> ContextReader:
        return ContextReader(self._store, self._retriever, self._people, self._episodes, self.settings,
                             self._count, self._blocks_now)

    async def profile(self, person_id: str | None = None, *, history: bool = False,
                      **scope: Any) -> list[Fact]:
        """What is known about a person: current facts; ``history=True`` adds superseded and
        conflicting ones. With ``group_id``: only what was learned in that group (and their
        private chat's facts if ``PMEMO_PRIVATE_FACTS_IN_GROUPS``); without: everywhere, the
        newest value of each fact current. With no person: every fact of the user or group.

        >>> facts = await mem.profile("alice", group_id="study")  # doctest: +SKIP
        >>> [(f.key, f.value, f.confidence) for f in facts]  # doctest: +SKIP
        """
        if person_id is None:
            return await asyncio.to_thread(self._store.facts, _scope(scope), history)
        check_id("person_id", person_id)
        tenant, agent = _tenant_agent(scope)
        owner = _scope(scope).owner if {"group_id", "user_id"} & set(scope) else None
        return await asyncio.to_thread(profile_view, self._store, tenant, agent, person_id, owner,
                                       history, self.settings.private_facts_in_groups)

    async def add_fact(self, category: str, key: str, value: str, *, confidence: float = 0.9,
                       source: str = "explicit", expires_at: datetime | str | None = None,
                       person_id: str | None = None, **scope: Any) -> Fact | None:
        """State a fact by hand; the same upsert rules as extraction apply. ``person_id``: whom
        it is about (default: the user of ``user_id``)."""
        if category not in FACT_CATEGORIES or source not in FACT_SOURCES:
            raise InvalidInput(f"category must be one of {', '.join(FACT_CATEGORIES)}; "
                               f"source one of {', '.join(FACT_SOURCES)}")
        if not 0.0 <= confidence <= 1.0 or not str(key).strip() or not str(value).strip():
            raise InvalidInput("a fact needs a key, a value and a confidence in [0, 1]")
        where = _scope(scope)
        expires = validate.timestamp(expires_at).timestamp() if expires_at is not None else None
        subject = check_id("person_id", person_id) if person_id is not None else where.user_id
        cand = Candidate(category, key.strip(), value.strip(), confidence, source, 0.5, expires, subject)
        return await asyncio.to_thread(upsert_fact, self._store, where, cand, None, time.time(),
                                       self.settings)

    async def fact(self, fact_id: int, *, tenant_id: str = "default") -> Fact:
        """One fact (current or history) with its version."""
        return await self._owned(self._store.get_fact, "fact", fact_id, tenant_id)  # type: ignore[no-any-return]

    async def update_fact(self, fact_id: int, value: str, *, version: int | None = None,
                          tenant_id: str = "default") -> Fact:
        """Correct a current fact's value by hand (source "edited"); the old value stays in its
        history. With ``version`` (the one read), a fact changed since is left alone: Conflict.

        >>> await mem.update_fact(12, "腾讯", version=3)  # doctest: +SKIP
        """
        before = await self.fact(fact_id, tenant_id=tenant_id)
        if version is not None:
            validate.positive_int("version", version, 2**62)
        at = time.time()
        graph = self._store.graph if self.settings.extract_graph else None  # the graph says the new value too
        return await asyncio.to_thread(graph_learn.correct_fact, self._store, self._store, graph, fact_id,
                                       validate.fact_value(value), version, at, before.value)

    async def delete_fact(self, fact_id: int, *, hard: bool = False, reason: str = "",
                          tenant_id: str = "default") -> dict[str, Any]:
        """Delete one fact (not its turns, nor its history), restorable with ``restore(batch)``
        unless ``hard``; returns the report with that ``batch``."""
        fact = await self.fact(fact_id, tenant_id=tenant_id)
        async with self._worker.exclusive():
            return await asyncio.to_thread(self._forgetter.drop_fact, fact, hard, reason or "delete fact")

    async def forget(self, turn_ids: list[int] | None = None, *, query: str | None = None,
                     person_id: str | None = None, hard: bool = False, dry_run: bool = False,
                     reason: str = "", tenant_id: str = "default", **scope: Any) -> dict[str, Any]:
        """Forget turns and everything derived from them; soft (restorable) unless ``hard``.

        ``forget(turn_ids=[...])``, ``forget(query="X", user_id="u")`` ("forget what I said
        about X") or ``forget(person_id="ni", group_id="g")`` (a person in one chat: what they
        said and what is about them there, their membership and the nicknames learned there;
        without a group or user: everywhere in the tenant, the person and every alias too).
        Returns what was removed, with the ``batch`` that ``restore`` takes.

        >>> report = await mem.forget(person_id="ni")  # doctest: +SKIP
        >>> await mem.restore(report["batch"])  # doctest: +SKIP
        """
        if person_id is not None:
            if turn_ids is not None or query is not None:
                raise InvalidInput("give one of turn_ids=[...], query='...' or person_id='...'")
            return await self._forget_person(person_id, hard, dry_run, reason, tenant_id, scope)
        ids = await self._forget_ids(turn_ids, query, tenant_id, scope)
        if dry_run:
            found = await asyncio.to_thread(self._store.get_turns, ids)
            return {"dry_run": True, "turns": ids, "texts": [found[i].content for i in ids]}
        if not ids:
            return {"batch": None, "mode": "hard" if hard else "soft", "turns": []}
        async with self._worker.exclusive():
            return await asyncio.to_thread(self._forgetter.forget, ids, hard, reason or
                                           (f"forget: {query}" if query else "forget"))

    async def _forget_person(self, person_id: str, hard: bool, dry_run: bool, reason: str, tenant_id: str,
                             scope: dict[str, Any]) -> dict[str, Any]:
        tenant, person = check_id("tenant_id", tenant_id), check_id("person_id", person_id)
        # a group or private chat: forget them there; none (an agent_id at most): everywhere in the tenant
        where = _scope({**scope, "tenant_id": tenant}).owner_scope() if {"group_id", "user_id"} & set(scope) else None
        store = self._store
        ids = await asyncio.to_thread(store.turns_by, tenant, person, where)
        held = await asyncio.to_thread(store.person_rows, tenant, person, None)
        if not ids and held.empty:
            raise NotFound(f"person {person_id!r} does not exist in tenant {tenant_id!r}")
        if dry_run:
            here = held if where is None else await asyncio.to_thread(store.person_rows, tenant, person, where)
            ids = sorted({*ids, *here.notices})
            found = await asyncio.to_thread(store.get_turns, ids)
            return {"dry_run": True, "person": person, "turns": ids, "texts": [found[i].content for i in ids],
                    "facts": list(here.facts), "triples": list(here.triples), "agenda": list(here.agenda),
                    "insights": list(here.insights), "aliases": list(here.aliases),
                    "memberships": list(here.owners), "record": here.person}
        async with self._worker.exclusive():
            return await asyncio.to_thread(self._forgetter.forget_person, tenant, person, where, hard,
                                           reason or ("forget a person" if where is None else
                                                      "forget a person in one chat"))

    async def _forget_ids(self, turn_ids: list[int] | None, query: str | None, tenant_id: str,
                          scope: dict[str, Any]) -> list[int]:
        if (turn_ids is None) == (query is None):
            raise InvalidInput("give turn_ids=[...] or query='...' (what to forget), not both")
        if turn_ids is not None:
            ids = [_int_id("turn id", i) for i in turn_ids]
            found = await asyncio.to_thread(self._store.get_turns, ids)
            missing = [i for i in ids if i not in found or found[i].scope.tenant_id != tenant_id]
            if missing:
                raise NotFound(f"turn(s) {missing} do not exist in tenant {tenant_id!r}")
            return sorted(found)
        where = _scope({**scope, "tenant_id": tenant_id}).owner_scope()
        return await asyncio.to_thread(self._forgetter.matching_turns, where, validate.query(query))

    async def restore(self, batch: int | None = None, *, turn_ids: list[int] | None = None,
                      tenant_id: str | None = "default") -> dict[str, Any]:
        """Undo a soft forget or a sweep (by ``batch``, or the batches holding ``turn_ids``) of
        ``tenant_id`` (None: of any tenant, for an operator)."""
        if (batch is None) == (turn_ids is None):
            raise InvalidInput("give the batch a forget/sweep returned, or turn_ids=[...]")
        store: Any = self._store
        tenant = None if tenant_id is None else check_id("tenant_id", tenant_id)
        if batch is not None:
            batches = [await self._batch_of(batch, tenant)]
        else:
            wanted = [_int_id("turn id", i) for i in turn_ids or []]
            held = await asyncio.to_thread(store.batches_with_turns, wanted, tenant)
            if not wanted or set(wanted) - held.keys():
                raise NotFound(f"no restorable forget holds turn(s) {sorted(set(wanted) - held.keys())}")
            batches = sorted(set(held.values()))
        out: dict[str, Any] = {"batches": []}
        async with self._worker.exclusive():
            for b in batches:
                done = await asyncio.to_thread(self._forgetter.restore, b)
                out["batches"].append(b)
                for kind, refs in done.items():
                    if kind != "batch":
                        out.setdefault(kind, []).extend(refs)
        if await asyncio.to_thread(reembed.queue_restored, self._store, out.get("turns", []),
                                   bool(self.settings.window_tokens)):
            self._worker.wake.set()
        return out

    async def purge(self, batch: int, *, tenant_id: str | None = "default") -> dict[str, Any]:
        """Make a soft forget or sweep of ``tenant_id`` permanent: its tombstones and rows are erased."""
        ref = await self._batch_of(batch, None if tenant_id is None else check_id("tenant_id", tenant_id))
        async with self._worker.exclusive():
            return await asyncio.to_thread(self._forgetter.purge, ref)

    async def forget_log(self, *, batch: int | None = None, limit: int = 100,
                         tenant_id: str | None = "default") -> list[dict[str, Any]]:
        """The forgetting log of ``tenant_id`` (None: every tenant's), newest first: every
        forget, sweep, restore and purge action."""
        validate.positive_int("limit", limit, 100_000)
        tenant = None if tenant_id is None else check_id("tenant_id", tenant_id)
        return await asyncio.to_thread(self._store.forget_log, None if batch is None else _int_id("batch", batch),
                                       limit, tenant)

    async def _batch_of(self, batch: int, tenant: str | None) -> int:
        """``batch`` if it exists and is ``tenant``'s (any, when None); else NotFound."""
        ref = _int_id("batch", batch)
        found = await asyncio.to_thread(self._store.get_batch, ref)
        if tenant is not None and found.get("tenant") != tenant:
            raise NotFound(f"forget batch {ref} does not exist in tenant {tenant!r}")
        return ref

    async def sweep(self, *, dry_run: bool = True, tenant_id: str | None = None) -> dict[str, Any]:
        """Soft-delete faded episodes/records, enforce capacity, expire facts (logged)."""
        async with self._worker.exclusive():
            return await asyncio.to_thread(sweeper.sweep, self._store, self.settings,
                                           dry_run=dry_run, tenant=tenant_id)

    async def episodes(self, query: str | None = None, *, session_id: str | None = None,
                       limit: int = 20, **scope: Any) -> list[Episode]:
        """Episodes oldest first, or the best ``limit`` for ``query`` (similarity, recency, importance)."""
        where = _scope(scope)
        store: Any = self._store
        if query is None:
            return (await asyncio.to_thread(store.episodes, where, session_id))[-limit:]
        qvec = await asyncio.to_thread(self._embed.query, validate.query(query))
        ranked = await asyncio.to_thread(self._episodes.rank, where, qvec, limit)
        return [e for e, _, _ in ranked if session_id is None or e.scope.session_id == session_id]

    async def end_session(self, session_id: str, **scope: Any) -> Episode | None:
        """Record a finished session as an episode now (also happens when a new one starts)."""
        await self.drain()
        where = _scope(scope, session_id=session_id)
        return await asyncio.to_thread(self._close_session, where, session_id)

    def _close_session(self, where: Scope, session_id: str) -> Episode | None:
        # read as a worker batch reads: a forget of these turns waits, so no episode is built
        # from turns it is deleting (the forget's cascade would miss an episode written after it)
        with self._store.hold([where.owner_scope().key], shared=True):
            return self._episodes.close_session(where, session_id)

    async def task_start(self, goal: str, *, steps: list[str] | None = None, scratchpad: str = "",
                         session_id: str | None = None, **scope: Any) -> Task:
        """Open a task's working memory (goal, plan, scratchpad); shown in context while running."""
        where = _scope(scope, session_id=session_id)
        return await asyncio.to_thread(self._taskboard.start, where, str(goal), list(steps or []),
                                       scratchpad)

    async def task_update(self, task_id: int, *, version: int | None = None, step: int | None = None,
                          status: str | None = None, result: str | None = None,
                          error: str | None = None, add_steps: list[str] | None = None,
                          scratchpad: str | None = None, tenant_id: str = "default") -> Task:
        """Change a step (status/result/error), add steps or rewrite the scratchpad.

        With ``version`` the write only happens if nobody changed the task since (else Conflict).
        """
        task = await asyncio.to_thread(self._taskboard.get, _int_id("task_id", task_id), tenant_id)
        changes = {"step": step, "status": status, "result": result, "error": error,
                   "add_steps": add_steps, "scratchpad": scratchpad}
        return await asyncio.to_thread(self._taskboard.update, task, version, changes)

    async def task_finish(self, task_id: int, *, status: str = "done", outcome: str | None = None,
                          lessons: list[str] | None = None, feedback: str | None = None,
                          version: int | None = None, tenant_id: str = "default") -> Episode:
        """Archive a task as an episode with its lessons; user feedback makes it important."""
        task = await asyncio.to_thread(self._taskboard.get, _int_id("task_id", task_id), tenant_id)
        return await asyncio.to_thread(self._taskboard.finish, task, status, outcome,
                                       list(lessons or []), feedback, version)

    async def tasks(self, *, status: str | None = None, **scope: Any) -> list[Task]:
        return await asyncio.to_thread(self._store.tasks, _scope(scope), status)

    @functools.cached_property
    def _taskboard(self) -> Tasks:
        return Tasks(self._store, self._episodes)  # type: ignore[arg-type]

    # ---- people (issue 17) -----------------------------------------------------------------
    async def add_person(self, person_id: str, *, name: str | None = None,
                         aliases: list[str] | tuple[str, ...] = (), **scope: Any) -> Person:
        """Register a person (idempotent; aliases are merged). With ``group_id`` or ``user_id``
        they also count as a member there before they speak.

        >>> await mem.add_person("p-ni", name="周霓", aliases=["霓霓"], group_id="study")  # doctest: +SKIP
        """
        check_id("person_id", person_id)
        clean = None if name is None else check_alias(name, "name")
        if isinstance(aliases, str) or not isinstance(aliases, list | tuple):
            raise InvalidInput("aliases must be a list of names, e.g. ['霓霓', 'Neko']")
        given = [check_alias(a) for a in aliases]
        tenant, agent = _tenant_agent(scope)
        member = _scope(scope) if {"group_id", "user_id"} & set(scope) else None
        await asyncio.to_thread(self._store.add_person, tenant, person_id, clean, given, member)
        return await self.person(person_id, tenant_id=tenant)

    async def person(self, person_id: str, *, tenant_id: str = "default") -> Person:
        """A person with their display names (oldest first) and aliases (with their source)."""
        found = await asyncio.to_thread(self._people.person, check_id("tenant_id", tenant_id),
                                        check_id("person_id", person_id))
        if found is None:
            raise NotFound(f"person {person_id!r} does not exist in tenant {tenant_id!r}")
        return found

    async def people(self, **scope: Any) -> list[Member]:
        """The members of a group (``group_id``) or private chat (``user_id``): display names,
        aliases, first and last seen, message count; latest speaker first."""
        return await asyncio.to_thread(self._store.members, _scope(scope))

    async def remove_alias(self, person_id: str, alias: str, *, tenant_id: str = "default") -> Person:
        """Stop resolving ``alias`` to the person (it is not learned again)."""
        person = await self.person(person_id, tenant_id=tenant_id)
        removed = await asyncio.to_thread(self._store.remove_alias, tenant_id, person.id, check_alias(alias))
        if not removed:
            raise NotFound(f"person {person_id!r} has no alias {alias!r}")
        return await self.person(person_id, tenant_id=tenant_id)

    async def resolve_people(self, text: str, **scope: Any) -> list[Match]:
        """The people ``text`` names: each match with its alias, span and person id(s); an alias
        two people share is reported with both (``ambiguous``); members of ``group_id`` first."""
        return await asyncio.to_thread(self._people.resolve, validate.query(text), _scope(scope))

    async def agenda(self, person_id: str | None = None, *, at: datetime | str | None = None,
                     **scope: Any) -> list[AgendaItem]:
        """Dated plans people mentioned in a group or chat ("12月23日考研"), by day. With ``at``:
        only the open ones near that time (``agenda_ahead_days`` before their day to
        ``agenda_after_days`` after), as ``context`` shows them. Without ``group_id`` or
        ``user_id``: those of every group and private chat of the tenant and agent, each with
        its own ``scope`` — what an agent looks through to bring a plan up unasked (an exam the
        evening before) in the chat where it was said, and only there; and of those, the ones
        stated by ``at`` (a plan said later is not known then).

        >>> [(i.day, i.what, i.status) for i in await mem.agenda("ni", group_id="study")]  # doctest: +SKIP
        >>> [(i.scope.group_id, i.person_id, i.what) for i in await mem.agenda(at="2026-12-22T20:00+08:00")
        ...  if i.day.isoformat() == "2026-12-23"]  # doctest: +SKIP
        """
        where = where_of(scope)
        owners = None if where.listing else [Scope.of(user_id=where.user, group_id=where.group).owner]
        people = None if person_id is None else [check_id("person_id", person_id)]
        when = None if at is None else validate.timestamp(at, "at")
        near = () if when is None else (*agenda_window(when.date(), self.settings), "open")
        found = await asyncio.to_thread(self._store.agenda, where.tenant, where.agent, owners, people, *near)
        # asked at a time, the plans stated after it are not known yet
        return found if when is None else await asyncio.to_thread(stated_by, self._store, found, epoch(when))

    # ---- memory blocks (issue 20) ----------------------------------------------------------
    # Thin delegation to blocks/: the folder (read, watched, written back), who sees which.

    async def _open_blocks(self) -> None:
        """Read and watch the ``blocks_dir`` folder; with ``blocks_derive_human``, keep the
        groups' derived ``human`` blocks current."""
        if not self.settings.blocks_dir:
            return
        folder = await asyncio.to_thread(BlockFolder.open, self.settings.blocks_dir, poll=self.settings.blocks_poll)
        try:
            if self.settings.blocks_derive_human:
                derived = HumanBlocks(self._store, folder, self.settings)
                await asyncio.to_thread(derived.start)
                self._worker.human_blocks = derived.run
        except BaseException:
            folder.close()
            raise
        self._block_folder = folder

    def _blocks_now(self) -> tuple[Block, ...]:
        return self._block_folder.all() if self._block_folder is not None else ()

    def _folder(self) -> BlockFolder:
        if self._block_folder is None:
            raise NotFound("there are no memory blocks: open with blocks_dir=... (or set PMEMO_BLOCKS_DIR)")
        return self._block_folder

    async def blocks(self, **scope: Any) -> list[Block]:
        """The memory blocks of a chat (``group_id`` or ``user_id``): the ones its context shows,
        one per label, and those meant for it whose file has a ``problem``; without either, every
        block of the tenant and agent. Read from memory: the folder is reloaded as files change.

        >>> [(b.label, b.chars, b.limit, b.read_only) for b in await mem.blocks(group_id="study")]  # doctest: +SKIP
        """
        return visible(self._blocks_now(), where_of(scope))

    async def core_memory_append(self, label: str, text: str, **scope: Any) -> Block:
        """Add ``text`` as a new line at the end of block ``label`` (one with ``read_only:
        false``) and write its file back; returns the block as it is now. Over its ``limit``:
        InvalidInput, nothing written.

        >>> await mem.core_memory_append("notes", "Ni's exam is on 23 Dec.", group_id="study")  # doctest: +SKIP
        """
        return await asyncio.to_thread(self._folder().edit, check_label(label), where_of(scope),
                                       functools.partial(appended, text=text))

    async def core_memory_replace(self, label: str, old: str, new: str, *, version: int | None = None,
                                  **scope: Any) -> Block:
        """Replace ``old`` (which must occur once) by ``new`` in block ``label``. With ``version``
        (the one read), a file changed since is left alone: Conflict names the current one;
        without, the change is made to the latest text."""
        if version is not None:
            validate.positive_int("version", version, 2**62)
        return await asyncio.to_thread(self._folder().edit, check_label(label), where_of(scope),
                                       functools.partial(replaced, old=old, new=new), version)

    # ---- diary (issue 20) ------------------------------------------------------------------
    # Thin delegation to diary/: the writer (LLM entry or digest) and the store's rows.

    async def write_diary(self, day: date | str | None = None, **scope: Any) -> Diary:
        """Write (or rewrite) the diary entry of a group or private chat for ``day`` now (default:
        today in ``diary_tz``), as the background schedule does once a day is over. NotFound
        when nobody but the assistant spoke that day.

        >>> entry = await mem.write_diary("2024-12-20", group_id="study")  # doctest: +SKIP
        """
        where = _scope(scope).owner_scope()
        when = local_day(time.time(), diary_zone(self.settings.diary_tz)) if day is None else parse_day("day", day)
        async with self._worker.exclusive():
            found = await asyncio.to_thread(self._worker.diary.write, where, when)
        if found is None:
            raise NotFound(f"{where.owner} has no message from a person on {when}: there is no day to write of")
        return found

    async def diary(self, date: date | str, **scope: Any) -> Diary:
        """The diary entry of a group or private chat for ``date`` (a date or "YYYY-MM-DD").

        >>> entry = await mem.diary("2024-12-20", group_id="study")  # doctest: +SKIP
        """
        where, when = _scope(scope).owner_scope(), parse_day("date", date)
        found = await asyncio.to_thread(self._store.get_diary, where, when)
        if found is None:
            raise NotFound(f"{where.owner} has no diary entry for {when}: a day's entry is written once the day"
                           f" is over ({self.settings.diary_time} in {self.settings.diary_tz} for today), or now"
                           " with write_diary")
        return found

    async def diaries(self, start: date | str | None = None, end: date | str | None = None,
                      **scope: Any) -> list[Diary]:
        """The diary entries of a group or private chat from ``start`` to ``end`` (inclusive,
        either open; none when ``start`` is after ``end``), oldest first.

        >>> [(d.day, d.method) for d in await mem.diaries("2024-12-01", group_id="study")]  # doctest: +SKIP
        """
        first = None if start is None else parse_day("start", start)
        last = None if end is None else parse_day("end", end)
        return await asyncio.to_thread(self._store.diaries, _scope(scope).owner_scope(), first, last)

    # ---- graph (issue 20) ------------------------------------------------------------------
    # Thin delegation to graph/: reads in SQL over one chat's view, insights and portraits.

    def _view(self, scope: dict[str, Any]) -> TripleView:
        return graph_read.view_of(_scope(scope), self.settings.private_facts_in_groups)

    async def graph(self, entity: str, *, hops: int = 1, at: datetime | str | None = None,
                    **scope: Any) -> Graph:
        """An entity (a person id, or a name or alias of a person, place, organisation or thing)
        and its neighbourhood as a group or private chat knows it: the triples within ``hops``
        (1 or 2) of it that hold at ``at`` (default: now), and the entities they connect.

        >>> g = await mem.graph("霓霓", hops=2, group_id="study")  # doctest: +SKIP
        >>> [(t.subject, t.predicate, t.object) for t in g.triples]  # doctest: +SKIP
        """
        when = None if at is None else validate.timestamp(at, "at")
        return await asyncio.to_thread(graph_read.graph, self._store.graph, self._store, self._people,
                                       self._view(scope), entity, hops, when)

    async def triples(self, subject: str | None = None, *, predicate: str | None = None,
                      at: datetime | str | None = None, history: bool = False, **scope: Any) -> list[Triple]:
        """Triples a group or private chat learned, oldest first: about ``subject`` (a person id
        or an entity's name), of ``predicate`` (``works_at``, ``friend_of`` …), holding at ``at``
        (default: now); ``history=True``: every one ever said, closed ones with ``valid_to``.

        >>> found = await mem.triples("ni", predicate="works_at", history=True, group_id="g")  # doctest: +SKIP
        >>> [(t.object, t.valid_to) for t in found]  # doctest: +SKIP
        """
        when = None if at is None else validate.timestamp(at, "at")
        return await asyncio.to_thread(graph_read.triples, self._store.graph, self._store, self._people,
                                       self._view(scope), subject, predicate, when, bool(history))

    async def insights(self, person_id: str, **scope: Any) -> list[Insight]:
        """What a language model inferred about a person from what they said in a group or chat,
        with the turns it rests on: labelled inferred, never among the facts."""
        where = _scope(scope).owner_scope()
        return await asyncio.to_thread(self._store.graph.insights, where, check_id("person_id", person_id))

    async def synthesize_profile(self, person_id: str, **scope: Any) -> PersonSummary:
        """A short portrait of a person as a group or chat knows them: from their facts and
        insights with a language model; offline, their facts, and it says so (``method``)."""
        where = _scope(scope).owner_scope()
        return await asyncio.to_thread(graph_insights.portrait, self._store.graph, self._store, self._tiers.llm,
                                       self.settings, where, check_id("person_id", person_id))

    # ---- L2 windows (issue 20) ---------------------------------------------------------------
    async def windows(self, *, session_id: str | None = None, **scope: Any) -> list[Window]:
        """The L2 windows of a user or group (of one session), oldest first: each a run of
        consecutive turns (``step_from``-``step_to``) embedded as one unit when ``window_tokens``
        is set; an ``open`` one is still growing. ``turns(session_id=..)`` reads their turns.

        >>> [(w.step_from, w.step_to) for w in await mem.windows(group_id="study")]  # doctest: +SKIP
        """
        where = _scope(scope, session_id=session_id).owner_scope()
        return await asyncio.to_thread(self._store.windows, where,
                                       None if session_id is None else check_id("session_id", session_id))

    # ---- records with access control ------------------------------------------------------
    async def add_record(self, content: str, *, user_id: str, tenant_id: str = "default",
                         agent_id: str = "default", **fields: Any) -> Record:
        """Store a long-term record owned by ``user_id`` (private unless ``visibility`` says so)."""
        where = _scope({"user_id": user_id, "tenant_id": tenant_id, "agent_id": agent_id})
        clean = records.check_fields({**fields, "content": content})
        clean["embedding_model"] = self._embed.model_id
        rec = await asyncio.to_thread(self._store.add_record, where.tenant_id, where.agent_id,
                                      user_id, clean)
        vec = await asyncio.to_thread(self._embed.passages, [content])
        await asyncio.to_thread(self._store.put_vectors, "record", [(rec.id, where.key, vec[0])],
                                self._embed.model_id)
        return rec

    async def records(self, *, viewer: str, roles: list[str] | tuple[str, ...] = (),
                      type: str | None = None, query: str | None = None, limit: int = 100,
                      tenant_id: str = "default", agent_id: str = "default") -> list[Record]:
        """Records ``viewer`` may read (own, shared with them or their roles, public)."""
        check_id("viewer", viewer)
        found = await asyncio.to_thread(self._store.list_records, tenant_id, agent_id, viewer,
                                        tuple(roles), type, 100_000 if query else limit)
        found = [r for r in found if records.can_read(r, viewer, tuple(roles))]
        if query is not None:
            qvec = await asyncio.to_thread(self._embed.query, validate.query(query))
            vecs = await asyncio.to_thread(self._store.get_vectors, "record", [r.id for r in found])
            found = records.ranked(found, vecs, qvec)[:limit]
        return found

    async def get_record(self, record_id: int, *, viewer: str, roles: list[str] | tuple[str, ...] = (),
                         tenant_id: str = "default") -> Record:
        rec = await asyncio.to_thread(self._store.get_record, _int_id("record_id", record_id),
                                      tenant_id, check_id("viewer", viewer), tuple(roles))
        if rec is None or not records.can_read(rec, viewer, tuple(roles)):
            raise NotFound(f"record {record_id} does not exist or is not visible to {viewer!r}")
        await asyncio.to_thread(self._store.touch_records, [rec.id], time.time())
        return rec

    async def update_record(self, record_id: int, *, version: int, viewer: str,
                            tenant_id: str = "default", **changes: Any) -> Record:
        """Update a record you own, if it is still at ``version`` (else ``Conflict``)."""
        rec = await self.get_record(record_id, viewer=viewer, tenant_id=tenant_id)
        if rec.user_id != viewer:
            raise Forbidden(f"record {record_id} belongs to another user; only its owner edits it")
        clean = records.check_fields(changes, partial=True)
        return await asyncio.to_thread(self._store.update_record, rec.id, _int_id("version", version),
                                       clean)

    async def delete_record(self, record_id: int, *, viewer: str, tenant_id: str = "default") -> None:
        rec = await self.get_record(record_id, viewer=viewer, tenant_id=tenant_id)
        if rec.user_id != viewer:
            raise Forbidden(f"record {record_id} belongs to another user; only its owner deletes it")
        await asyncio.to_thread(self._store.delete_record, rec.id)


def _scope(kwargs: dict[str, Any], session_id: str | None = None) -> Scope:
    allowed = {"user_id", "group_id", "tenant_id", "agent_id", "session_id"}
    unknown = set(kwargs) - allowed - {"content", "role", "actor", "actor_id", "timestamp", "metadata",
                                       "reply_to"}
    if unknown:
        raise InvalidInput(f"unknown argument(s): {', '.join(sorted(unknown))}")
    return Scope.of(user_id=kwargs.get("user_id"), group_id=kwargs.get("group_id"),
                    session_id=session_id, tenant_id=kwargs.get("tenant_id", "default"),
                    agent_id=kwargs.get("agent_id", "default"))


def _tenant_agent(scope: dict[str, Any]) -> tuple[str, str]:
    known = {"tenant_id", "agent_id", "group_id", "user_id"}
    unknown = set(scope) - known
    if unknown:
        raise InvalidInput(f"unknown argument(s): {', '.join(sorted(unknown))}")
    return (check_id("tenant_id", scope.get("tenant_id", "default")),
            check_id("agent_id", scope.get("agent_id", "default")))


def _tagged(meta: dict[str, Any]) -> list[str]:
    """The person ids a platform says a message @-mentions (metadata ``mentions``)."""
    found = meta.get("mentions")
    return [p for p in found if isinstance(p, str)] if isinstance(found, list) else []


def _int_id(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"{name} must be an integer, got {type(value).__name__}")
    return value


def _read(call: Callable[..., T], *args: Any) -> T:
    """``call(*args)`` counted as a read under way: the background gives way meanwhile."""
    with reads_first.reading():
        return call(*args)


def _limit_blas(threads: int) -> None:
    """Cap BLAS threads process-wide (numpy's matrix products in search and clustering)."""
    if threads > 0:
        from threadpoolctl import threadpool_limits

        threadpool_limits(threads, user_api="blas")


def _once(key: str | None, items: list[dict[str, Any]]) -> Once | None:
    """The idempotency of a write: its key, and a fingerprint of the turns as given (a retry
    sends the same ones; the time a turn without a timestamp gets is not part of it)."""
    if key is None:
        return None
    if not isinstance(key, str) or not 1 <= len(key) <= 255 or not key.isprintable() or not key.isascii():
        raise InvalidInput("idempotency_key must be 1-255 printable ASCII characters (a UUID is a good one)")
    given = json.dumps(items, sort_keys=True, default=str, ensure_ascii=False)
    tenant = items[0].get("tenant_id", "default") if isinstance(items[0], dict) else "default"
    return Once(str(tenant), key, hashlib.sha256(given.encode("utf-8", "surrogatepass")).hexdigest())

