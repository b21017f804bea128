"""The sweeper: soft-deletes what has faded, enforces capacity, expires facts, logs it all.

* episodes whose strength fell below ``sweep_episode_threshold`` (0.1);
* long-term records whose decay score fell below ``sweep_record_threshold`` (0.2);
* per scope, episodes/records beyond ``max_*_per_scope``, weakest first;
* current facts past their expiry (conversation time) become "expired".

Every action is a line in ``forget_log`` under one batch, so ``restore(batch)`` undoes a
sweep. ``dry_run=True`` computes the same plan and writes nothing.
"""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from ..config import Settings
from ..decay import strength
from ..models import Scope
from ..stores.base import FullStore


@dataclass
class Plan:
    actions: list[dict[str, Any]] = field(default_factory=list)

    def add(
        self, action: str, kind: str, ref: int, scope_key: str, reason: str, value: float
    ) -> None:
        self.actions.append(
            {
                "action": action,
                "kind": kind,
                "ref": ref,
                "scope_key": scope_key,
                "reason": reason,
                "strength": round(value, 4),
            }
        )


def plan_sweep(store: FullStore, settings: Settings, tenant: str | None = None) -> Plan:
    plan = Plan()
    for owner in store.owners.owner_scopes(tenant):
        now = store.owners.conversation_now(owner) or time.time()
        _plan_episodes(store, settings, owner, now, plan)
        for fact in store.profile.facts(owner):
            if fact.expires_at is not None and fact.expires_at.timestamp() <= now:
                plan.add("expire", "fact", fact.id, owner.key, "past its expiry", fact.confidence)
    _plan_records(store, settings, tenant, plan)
    return plan


def _plan_episodes(
    store: FullStore, settings: Settings, owner: Scope, now: float, plan: Plan
) -> None:
    scored = []
    for ep in store.episodes.episodes(owner):
        value = strength(
            now - ep.ended_at.timestamp(),
            ep.importance,
            ep.access_count,
            settings.decay_half_life_days,
            settings.decay_floor,
        )
        if value < settings.sweep_episode_threshold:
            plan.add(
                "soft_delete",
                "episode",
                ep.id,
                owner.key,
                f"strength {value:.3f} < {settings.sweep_episode_threshold}",
                value,
            )
        else:
            scored.append((value, ep.id))
    scored.sort()
    for value, ref in scored[: max(0, len(scored) - settings.max_episodes_per_scope)]:
        plan.add("soft_delete", "episode", ref, owner.key, "over capacity", value)


def _plan_records(store: FullStore, settings: Settings, tenant: str | None, plan: Plan) -> None:
    by_scope: dict[str, list[tuple[float, int]]] = defaultdict(list)
    now = time.time()
    for rec in store.records.all_records(tenant):
        value = strength(
            now - rec.accessed_at.timestamp(),
            rec.importance,
            store.records.record_heat(rec.id),
            settings.decay_half_life_days,
            settings.decay_floor,
        )
        key = f"{rec.tenant_id}|{rec.agent_id}|u:{rec.user_id}"
        if value < settings.sweep_record_threshold:
            plan.add(
                "soft_delete",
                "record",
                rec.id,
                key,
                f"decay score {value:.3f} < {settings.sweep_record_threshold}",
                value,
            )
        else:
            by_scope[key].append((value, rec.id))
        plan.actions.append(
            {
                "action": "decay",
                "kind": "record",
                "ref": rec.id,
                "scope_key": key,
                "reason": "",
                "strength": round(value, 4),
            }
        )
    for key, scored in by_scope.items():
        scored.sort()
        for value, ref in scored[: max(0, len(scored) - settings.max_records_per_scope)]:
            plan.add("soft_delete", "record", ref, key, "over capacity", value)


def sweep(
    store: FullStore, settings: Settings, *, dry_run: bool = True, tenant: str | None = None
) -> dict[str, Any]:
    """Run (or with ``dry_run`` only plan) one sweep; returns the batch and its actions."""
    plan = plan_sweep(store, settings, tenant)
    shown = [a for a in plan.actions if a["action"] != "decay"]
    if dry_run:
        return {"dry_run": True, "batch": None, "actions": shown}
    store.records.set_decay([(a["ref"], a["strength"]) for a in plan.actions if a["action"] == "decay"])
    by_tenant: dict[str | None, list[dict[str, Any]]] = {tenant: []} if tenant or not shown else {}
    for a in shown:  # one batch per tenant: each restores (or purges) only its own
        by_tenant.setdefault(a["scope_key"].split("|", 1)[0] if a["scope_key"] else None, []).append(a)
    batches = [_commit(store, who, actions) for who, actions in by_tenant.items()]
    return {"dry_run": False, "batch": batches[0] if len(batches) == 1 else None, "batches": batches,
            "actions": shown}


def _commit(store: FullStore, tenant: str | None, shown: list[dict[str, Any]]) -> int:
    """Carry out one tenant's sweep actions as one restorable batch, holding their owners as a
    forget does: a background batch of those owners (an episode being rebuilt) waits for it."""
    with store.locks.hold({a["scope_key"] for a in shown if a["scope_key"]}):
        batch = store.batches.new_batch("sweep", "soft", None, "sweeper", tenant)
        for a in shown:
            if a["action"] == "soft_delete":
                store.forget.soft_delete(a["kind"], [a["ref"]], a["reason"])
            elif a["action"] == "expire":
                store.profile.expire_fact(a["ref"], time.time())
        store.batches.log_actions(
            batch,
            [(a["action"], a["kind"], a["ref"], a["scope_key"], a["reason"], {"strength": a["strength"]})
             for a in shown],
        )
        store.batches.set_batch(batch, "active" if shown else "empty", {"actions": len(shown)})
        return batch
