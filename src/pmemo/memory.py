"""``Memory``: the async facade. It wires the parts together and delegates: each concern is a
service in ``services/`` (its checks and its policy), reached as a namespace of the facade
(``mem.registry``, ``mem.core_memory``, ``mem.journal``, ``mem.knowledge``, ``mem.entries``,
``mem.forgetting``, ``mem.jobs``, ``mem.episodic``); every call documented before stays a thin
alias (``mem.add_person`` is ``mem.registry.add_person``). The logic lives in tiers/,
retrieval/, pipelines/ and the services.

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
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from .config import Settings
from .embedders import make_embedder
from .embedders.cached import CachedEmbedder
from .forgetting.explicit import Forgetter
from .llms import make_llm
from .models import ContextPack, Hit, Turn
from .pipelines import reembed
from .pipelines.recalls import Recalls
from .pipelines.second_encoder import second_channel
from .pipelines.worker import Worker
from .redis_link import RedisLink, open_link
from .retrieval.reader import ContextReader
from .retrieval.retriever import Retriever
from .services.alias import via
from .services.blocks import BlocksService
from .services.diary import DiaryService
from .services.episodes import EpisodesService
from .services.forget import ForgetService
from .services.graph import GraphService
from .services.jobs import JobsService
from .services.people import PeopleService
from .services.reads import Reads
from .services.records import RecordsService
from .services.writes import TurnWriter
from .stores import open_store
from .stores.base import FullStore
from .stores.recent_cache import cached as recent_cached
from .tiers.episodes import Episodes
from .tiers.services import Tiers
from .tokens import make_counter


class Memory:
    """Hierarchical memory over one store: a data directory (SQLite) or a PostgreSQL database
    shared by any number of processes. Open with ``await Memory.open(path)``."""

    # the services, as attributes; named apart from the documented calls (``people()``, ``graph()``,
    # ``diary()``, ``blocks()``, ``records()``, ``tasks()``) that stay what they were
    NAMESPACES = ("registry", "core_memory", "journal", "knowledge", "entries", "forgetting", "jobs", "episodic")

    def __init__(self, store: FullStore, embed: CachedEmbedder, tiers: Tiers, settings: Settings,
                 redis: RedisLink | None = None) -> None:
        self.settings = settings
        self.redis = redis  # issue 21: shared by replicas (the server's rate limits use it too); None: no Redis
        self._store, self._embed, self._tiers = store, embed, tiers
        self._worker = worker = Worker(store, embed, tiers, settings)
        self._retriever = Retriever(store, embed, settings, tiers.threshold, tiers.people)
        recalls = Recalls(store.jobs, worker.wake.set)  # reads' hit counts, queued together
        episodes = Episodes(store, tiers, settings)
        self._forgetter = Forgetter(store, tiers, embed, episodes, worker.diary)
        self.core_memory = BlocksService(store, worker, settings)  # memory blocks (issue 20): open() reads them
        self._reader = ContextReader(store, self._retriever, tiers.people, episodes, settings,
                                     make_counter(settings.tokenizer), self.core_memory.now)
        self._writes = TurnWriter(store, worker, settings, redis)
        self._reads = Reads(self._reader, recalls, settings)
        self.jobs = JobsService(store, worker, recalls, settings)
        self.registry = PeopleService(store, tiers.people, settings)
        self.journal = DiaryService(store, worker.diary, worker.exclusive, settings)
        self.knowledge = GraphService(store.graph, store, tiers.people, tiers.llm, settings)
        self.entries = RecordsService(store, embed, worker.exclusive, settings)
        self.forgetting = ForgetService(store, self._forgetter, worker, settings)
        self.episodic = EpisodesService(store, embed, episodes, self.jobs.drain)

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
            embed = CachedEmbedder(model, store.embed_cache, settings.embed_batch, second)
            await asyncio.to_thread(reembed.queue_stale_vectors, store, model.model_id)
            memory = cls(shared, embed, Tiers(shared, embed, make_llm(llm, settings), settings), settings, redis)
            await memory.core_memory.open()
        except BaseException:
            store.close()
            if redis is not None:
                redis.close()
            raise
        memory.jobs.start()
        return memory

    async def close(self) -> None:
        """Stop background work (pending jobs stay queued for the next open) and close the store."""
        await self.jobs.stop()
        await self.core_memory.close()
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
        await self.jobs.drain(timeout, **scope)

    def on_embed(self, hook: Callable[[str, int, float], None]) -> None:
        """Call ``hook(kind, texts, seconds)`` after each call to the embedder ("passage" batches
        of the background worker, "query" texts of reads), from the thread that embedded."""
        self._embed.on_embed(hook)

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
        return await self._writes.add(dict(
            session_id=session_id, content=content, role=role, actor=actor, actor_id=actor_id, timestamp=timestamp,
            metadata=metadata, user_id=user_id, group_id=group_id, tenant_id=tenant_id, agent_id=agent_id,
            reply_to=reply_to), idempotency_key)

    async def add_many(self, items: list[dict[str, Any]], *, idempotency_key: str | None = None) -> list[Turn]:
        """Store several turns in one transaction (all or none). ``idempotency_key``: as in ``add``;
        all the turns of a batch share one key, and must belong to one tenant."""
        return await self._writes.add_many(items, idempotency_key)

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
        return await self._reads.search(query, limit=limit, session_id=session_id, at=at, asker=asker, **scope)

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
        return await self._reads.context(query, session_id=session_id, budget_tokens=budget_tokens, at=at,
                                         asker=asker, recent=recent, format=format, with_input=with_input, **scope)

    # ---- the documented calls of each concern: aliases of its service ------------------------
    # background jobs and counts (services/jobs.py)
    pending = via("jobs", JobsService.pending)
    failed_jobs = via("jobs", JobsService.failed_jobs)
    retry_jobs = via("jobs", JobsService.retry_jobs)
    stats = via("jobs", JobsService.stats)
    vitals = via("jobs", JobsService.vitals)
    # turns, summaries, key lines, facts, records (services/records.py)
    get_turn = via("entries", RecordsService.get_turn)
    turns = via("entries", RecordsService.turns)
    sessions = via("entries", RecordsService.sessions)
    owners = via("entries", RecordsService.owners)
    windows = via("entries", RecordsService.windows)
    summaries = via("entries", RecordsService.summaries)
    clusters = via("entries", RecordsService.clusters)
    delete_summary = via("entries", RecordsService.delete_summary)
    key_memory = via("entries", RecordsService.key_memory)
    add_key = via("entries", RecordsService.add_key)
    update_key = via("entries", RecordsService.update_key)
    key_line = via("entries", RecordsService.key_line)
    delete_key = via("entries", RecordsService.delete_key)
    add_fact = via("entries", RecordsService.add_fact)
    fact = via("entries", RecordsService.fact)
    update_fact = via("entries", RecordsService.update_fact)
    add_record = via("entries", RecordsService.add_record)
    records = via("entries", RecordsService.records)
    get_record = via("entries", RecordsService.get_record)
    update_record = via("entries", RecordsService.update_record)
    delete_record = via("entries", RecordsService.delete_record)
    # deletes and forgetting (services/forget.py)
    delete_turn = via("forgetting", ForgetService.delete_turn)
    delete_turn_at = via("forgetting", ForgetService.delete_turn_at)
    delete_session = via("forgetting", ForgetService.delete_session)
    delete_owner = via("forgetting", ForgetService.delete_owner)
    delete_fact = via("forgetting", ForgetService.delete_fact)
    forget = via("forgetting", ForgetService.forget)
    restore = via("forgetting", ForgetService.restore)
    purge = via("forgetting", ForgetService.purge)
    forget_log = via("forgetting", ForgetService.forget_log)
    sweep = via("forgetting", ForgetService.sweep)
    # episodes and tasks (services/episodes.py)
    episodes = via("episodic", EpisodesService.episodes)
    end_session = via("episodic", EpisodesService.end_session)
    task_start = via("episodic", EpisodesService.task_start)
    task_update = via("episodic", EpisodesService.task_update)
    task_finish = via("episodic", EpisodesService.task_finish)
    tasks = via("episodic", EpisodesService.tasks)
    # people (services/people.py)
    add_person = via("registry", PeopleService.add_person)
    person = via("registry", PeopleService.person)
    people = via("registry", PeopleService.members)
    remove_alias = via("registry", PeopleService.remove_alias)
    resolve_people = via("registry", PeopleService.resolve)
    agenda = via("registry", PeopleService.agenda)
    profile = via("registry", PeopleService.profile)
    # memory blocks (services/blocks.py)
    blocks = via("core_memory", BlocksService.blocks)
    core_memory_append = via("core_memory", BlocksService.append)
    core_memory_replace = via("core_memory", BlocksService.replace)
    # diary (services/diary.py)
    write_diary = via("journal", DiaryService.write)
    diary = via("journal", DiaryService.entry)
    diaries = via("journal", DiaryService.entries)
    # graph (services/graph.py)
    graph = via("knowledge", GraphService.graph)
    triples = via("knowledge", GraphService.triples)
    insights = via("knowledge", GraphService.insights)
    synthesize_profile = via("knowledge", GraphService.portrait)


def _limit_blas(threads: int) -> None:
    """Cap BLAS threads process-wide (numpy's matrix products in search and clustering)."""
    if threads > 0:
        from threadpoolctl import threadpool_limits

        threadpool_limits(threads, user_api="blas")
