"""Forgetting, as ``mem.forgetting``: delete turns (one, a session, an owner), forget soft or
hard by ids, a phrase or a person, undo (``restore``), make permanent (``purge``), the log, the
sweep. Each runs alone: the background is held off (``exclusive``) while it rewrites what a
batch of jobs reads. The checks (which turns, whose, which batch) live here; the cascade in
``forgetting.explicit.Forgetter``.

>>> report = await mem.forgetting.forget(person_id="ni")  # doctest: +SKIP
>>> await mem.forgetting.restore(report["batch"])  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
from typing import Any

from .. import validate
from ..config import Settings
from ..errors import InvalidInput, NotFound
from ..forgetting import sweeper
from ..forgetting.explicit import Forgetter
from ..models import Scope, check_id
from ..pipelines import reembed
from ..pipelines.worker import Worker
from ..stores.base import FullStore
from .args import int_id, names_chat, owned, scope_of


class ForgetService:
    """Deletes and forgets of one store; ``worker``: held off while one runs, woken after a restore."""

    def __init__(self, store: FullStore, forgetter: Forgetter, worker: Worker, settings: Settings) -> None:
        self._store = store
        self._forgetter = forgetter
        self._worker = worker
        self.settings = settings

    # ---- delete -----------------------------------------------------------------------------
    async def delete_turn(self, turn_id: int, *, tenant_id: str = "default") -> dict[str, Any]:
        """Delete a turn from every tier, index and derived record; returns what changed."""
        ref = int_id("turn_id", turn_id)
        turn = (await asyncio.to_thread(self._store.turns.get_turns, [ref])).get(ref)
        if turn is None or turn.scope.tenant_id != tenant_id:
            raise NotFound(f"turn {turn_id} does not exist in tenant {tenant_id!r}")
        return await self._delete([ref])

    async def delete_turn_at(self, /, session_id: str, step: int, **scope: Any) -> dict[str, Any]:
        """Delete the turn at ``step`` of a session (steps count from 1)."""
        where = scope_of(scope, session_id=session_id)
        turn = await asyncio.to_thread(self._store.turns.turn_at, where.owner_scope(), session_id, step)
        if turn is None:
            raise NotFound(f"session {session_id!r} has no turn at step {step}")
        return await self._delete([turn.id])

    async def delete_session(self, /, session_id: str, **scope: Any) -> dict[str, Any]:
        where = scope_of(scope, session_id=session_id)
        ids = await asyncio.to_thread(self._store.turns.turn_ids, where.owner_scope(), session_id)
        if not ids:
            raise NotFound(f"session {session_id!r} has no turns for {where.owner}")
        return await self._delete(ids)

    async def delete_owner(self, /, **scope: Any) -> dict[str, Any]:
        """Delete everything of a user or group: turns, derived records, key memory."""
        where = scope_of(scope)
        ids = await asyncio.to_thread(self._store.turns.turn_ids, where)
        report = await self._delete(ids)
        for key in await asyncio.to_thread(self._store.key_lines.keys, where):
            await asyncio.to_thread(self._store.key_lines.delete_key, key.id)
            report["key_lines"].append(key.id)
        return report

    async def _delete(self, ids: list[int]) -> dict[str, Any]:
        async with self._worker.exclusive():  # facts, episodes too; the owners held in the store
            return await asyncio.to_thread(self._forgetter.delete, ids)

    async def delete_fact(self, fact_id: int, *, hard: bool = False, reason: str = "",
                          tenant_id: str = "default") -> dict[str, Any]:
        """Delete one fact (not its turns, nor its history), restorable with ``restore(batch)``
        unless ``hard``; returns the report with that ``batch``."""
        fact = await owned(self._store.profile.get_fact, "fact", fact_id, tenant_id)
        async with self._worker.exclusive():
            return await asyncio.to_thread(self._forgetter.drop_fact, fact, hard, reason or "delete fact")

    # ---- forget -----------------------------------------------------------------------------
    async def forget(self, /, turn_ids: list[int] | None = None, *, query: str | None = None,
                     person_id: str | None = None, hard: bool = False, dry_run: bool = False,
                     reason: str = "", tenant_id: str = "default", **scope: Any) -> dict[str, Any]:
        """Forget turns and everything derived from them; soft (restorable) unless ``hard``.

        ``forget(turn_ids=[...])``, ``forget(query="X", user_id="u")`` ("forget what I said
        about X") or ``forget(person_id="ni", group_id="g")`` (a person in one chat: what they
        said and what is about them there, their membership and the nicknames learned there;
        without a group or user: everywhere in the tenant, the person and every alias too).
        Returns what was removed, with the ``batch`` that ``restore`` takes."""
        if person_id is not None:
            if turn_ids is not None or query is not None:
                raise InvalidInput("give one of turn_ids=[...], query='...' or person_id='...'")
            return await self._forget_person(person_id, hard, dry_run, reason, tenant_id, scope)
        ids = await self._forget_ids(turn_ids, query, tenant_id, scope)
        if dry_run:
            found = await asyncio.to_thread(self._store.turns.get_turns, ids)
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
        where = scope_of({**scope, "tenant_id": tenant}).owner_scope() if names_chat(scope) else None
        store = self._store
        ids = await asyncio.to_thread(store.turns_by, tenant, person, where)
        held = await asyncio.to_thread(store.person_forget.person_rows, tenant, person, None)
        if not ids and held.empty:
            raise NotFound(f"person {person_id!r} does not exist in tenant {tenant_id!r}")
        if dry_run:
            return await self._person_dry_run(tenant, person, where, ids, held)
        async with self._worker.exclusive():
            return await asyncio.to_thread(self._forgetter.forget_person, tenant, person, where, hard,
                                           reason or ("forget a person" if where is None else
                                                      "forget a person in one chat"))

    async def _person_dry_run(self, tenant: str, person: str, where: Scope | None, ids: list[int],
                              held: Any) -> dict[str, Any]:
        here = held if where is None else await asyncio.to_thread(self._store.person_forget.person_rows, tenant, person,
                                                                    where)
        ids = sorted({*ids, *here.notices})
        found = await asyncio.to_thread(self._store.turns.get_turns, ids)
        return {"dry_run": True, "person": person, "turns": ids, "texts": [found[i].content for i in ids],
                "facts": list(here.facts), "triples": list(here.triples), "agenda": list(here.agenda),
                "insights": list(here.insights), "aliases": list(here.aliases),
                "memberships": list(here.owners), "record": here.person}

    async def _forget_ids(self, turn_ids: list[int] | None, query: str | None, tenant_id: str,
                          scope: dict[str, Any]) -> list[int]:
        if (turn_ids is None) == (query is None):
            raise InvalidInput("give turn_ids=[...] or query='...' (what to forget), not both")
        if turn_ids is not None:
            ids = [int_id("turn id", i) for i in turn_ids]
            found = await asyncio.to_thread(self._store.turns.get_turns, ids)
            missing = [i for i in ids if i not in found or found[i].scope.tenant_id != tenant_id]
            if missing:
                raise NotFound(f"turn(s) {missing} do not exist in tenant {tenant_id!r}")
            return sorted(found)
        where = scope_of({**scope, "tenant_id": tenant_id}).owner_scope()
        return await asyncio.to_thread(self._forgetter.matching_turns, where, validate.query(query))

    # ---- undo, make permanent, the log, the sweep ---------------------------------------------
    async def restore(self, batch: int | None = None, *, turn_ids: list[int] | None = None,
                      tenant_id: str | None = "default") -> dict[str, Any]:
        """Undo a soft forget or a sweep (by ``batch``, or the batches holding ``turn_ids``) of
        ``tenant_id`` (None: of any tenant, for an operator)."""
        if (batch is None) == (turn_ids is None):
            raise InvalidInput("give the batch a forget/sweep returned, or turn_ids=[...]")
        tenant = None if tenant_id is None else check_id("tenant_id", tenant_id)
        batches = [await self._batch_of(batch, tenant)] if batch is not None else \
            await self._batches_with(turn_ids or [], tenant)
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

    async def _batches_with(self, turn_ids: list[int], tenant: str | None) -> list[int]:
        store: Any = self._store
        wanted = [int_id("turn id", i) for i in turn_ids]
        held = await asyncio.to_thread(store.batches.batches_with_turns, wanted, tenant)
        if not wanted or set(wanted) - held.keys():
            raise NotFound(f"no restorable forget holds turn(s) {sorted(set(wanted) - held.keys())}")
        return sorted(set(held.values()))

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
        log = self._store.batches.forget_log
        return await asyncio.to_thread(log, None if batch is None else int_id("batch", batch), limit, tenant)

    async def _batch_of(self, batch: int, tenant: str | None) -> int:
        """``batch`` if it exists and is ``tenant``'s (any, when None); else NotFound."""
        ref = int_id("batch", batch)
        found = await asyncio.to_thread(self._store.batches.get_batch, ref)
        if tenant is not None and found.get("tenant") != tenant:
            raise NotFound(f"forget batch {ref} does not exist in tenant {tenant!r}")
        return ref

    async def sweep(self, *, dry_run: bool = True, tenant_id: str | None = None) -> dict[str, Any]:
        """Soft-delete faded episodes/records, enforce capacity, expire facts (logged)."""
        async with self._worker.exclusive():
            return await asyncio.to_thread(sweeper.sweep, self._store, self.settings,
                                           dry_run=dry_run, tenant=tenant_id)
