"""Deleting turns: the turn leaves every tier, index and derived record.

Clusters, summaries and L2 windows built from it are rebuilt from what remains (or deleted
when nothing remains); promoted key lines that came from it are deleted; its vectors, FTS
row and cached embedding go too.
"""

from __future__ import annotations

from typing import Any

from ..embedders.cached import CachedEmbedder
from ..stores.base import Store
from ..tiers.services import Tiers
from .windows import Windows


def delete_turns(store: Store, tiers: Tiers, embed: CachedEmbedder, turn_ids: list[int]) -> dict[str, Any]:
    turns = store.turns.get_turns(turn_ids)
    ids = list(turns)
    report: dict[str, Any] = {"turns": [], "clusters": {}, "summaries": {}, "key_lines": []}
    if not ids:
        return report
    clusters = store.clusters.clusters_with(ids)
    summaries = store.summaries.summaries_with(ids)
    keys = [k for k in store.key_lines.keys_with(ids) if k.origin == "promoted"]
    windows = Windows(store, embed, tiers, tiers.settings)  # type: ignore[arg-type]  # a FullStore
    held = windows.holding(ids)
    store.turns.delete_turns(ids)  # their vectors too, and so out of the store's vector search
    embed.forget([t.indexed for t in turns.values()])
    # L2 windows (issue 20): embedded again without them, before anything re-derives from their vectors
    if held:
        report["windows"] = windows.without(held)
    removed = set(ids)
    for cluster in clusters:
        report["clusters"][cluster.id] = tiers.rebuild_cluster(cluster, removed)
    for summary in summaries:
        outcome = tiers.rebuild_summary(summary, removed)
        report["summaries"][summary.id] = outcome
    for key in keys:
        store.key_lines.delete_key(key.id)
        report["key_lines"].append(key.id)
    report["turns"] = ids
    return report
