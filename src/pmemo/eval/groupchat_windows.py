"""L2 windows against one embedding per message on the group-chat scenario (issue 20 §3).

Each setting replays the same scenario into a fresh store, in the scenario's own rhythm (the
chat is read, so drained, at each follow-up's time, then at the questions), counting the texts
the memory embeds; then every question is asked in its own chat: R@5 and R@10 of ``search``
and the share of evidence messages whose text is in the ``context`` packed at 2000 tokens.
Window size 0 is the per-message baseline, measured in the same run.

>>> rows = compare(generate(0, messages=300), [200], data_dir=tempfile.mkdtemp())  # doctest: +SKIP
>>> [r["window_tokens"] for r in rows]  # doctest: +SKIP
[0, 200]
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from statistics import mean
from typing import Any

from ..config import Settings
from .embedcache import run_embedder
from .groupchat_run import OpenMemory, _first_fact_right, _opener, _Replay, where_of
from .groupchat_scenario import Scenario
from .groupchat_score import recall_at
from .metrics import evidence_in_context

CONTEXT_BUDGET = 2000


def compare(scenario: Scenario, sizes: Sequence[int], *, embedder: str | Any = "hashing",
            data_dir: str | Path, settings: Settings | None = None) -> list[dict[str, Any]]:
    """One row per window size (0 first: per message), with embeddings per 1k messages."""
    sizes = list(dict.fromkeys([0, *sizes]))
    rows = variants(scenario, [{"window_tokens": size} for size in sizes], embedder=embedder,
                    data_dir=data_dir, settings=settings)
    return [{"window_tokens": size, **row} for size, row in zip(sizes, rows, strict=True)]


def variants(scenario: Scenario, changes: Sequence[dict[str, Any]], *, embedder: str | Any = "hashing",
             data_dir: str | Path, settings: Settings | None = None) -> list[dict[str, Any]]:
    """One row per set of setting changes, each replayed into a fresh store (signal ablations
    and window sizes alike)."""
    settings, cached = run_embedder(embedder, settings or Settings(), data_dir)
    root = Path(data_dir)
    try:
        return [asyncio.run(_measure(scenario, _opener(root / "stores", settings.replace(**change), cached)))
                for change in changes]
    finally:
        cached.close()


async def _measure(s: Scenario, open_memory: OpenMemory) -> dict[str, Any]:
    embedded = [0]

    def count(kind: str, texts: int, seconds: float) -> None:
        if kind == "passage":
            embedded[0] += texts

    async with open_memory() as mem:
        mem.on_embed(count)
        replay = _Replay(mem, s.messages)
        for at in sorted({f.at for f in s.followups}, key=datetime.fromisoformat):
            await replay.until(at)
        await replay.until(None)
        r5, r10, ctx = [], [], []
        for q in s.questions:
            where = where_of(q.group_id, q.user_id)
            hits = await mem.search(q.query, limit=10, at=q.at, **where)
            got = [replay.idx(h) for h in hits]
            r5.append(recall_at(q.evidence, got, 5))
            r10.append(recall_at(q.evidence, got, 10))
            pack = await mem.context(q.query, budget_tokens=CONTEXT_BUDGET, at=q.at, **where)
            ctx.append(evidence_in_context([s.messages[i].content for i in q.evidence], pack.text))
        cues, first = [], []  # the chat's last lines as the query; is the first fact among the hits theirs
        for q in s.cues:
            hits = await mem.search(q.query, limit=5, at=q.at, **where_of(q.group_id, q.user_id))
            got = [replay.idx(h) for h in hits]
            cues.append(recall_at(q.evidence, got, 5))
            first.append(_first_fact_right({"q": q, "hits": hits, "got": got}))
        windows = [w for owner in await mem.owners() for w in await mem.windows(**_where(owner))]
    # one per L2 window, or one per distinct message text (the embedding cache has the rest)
    messages = len(windows) or len({m.content for m in s.messages})
    n = len(s.messages)
    return {"messages": n, "message_embeddings": messages,
            "message_embeddings_per_1k": 1000 * messages / n, "embeddings": embedded[0],
            "embeddings_per_1k": 1000 * embedded[0] / n, "R@5": mean(r5), "R@10": mean(r10),
            "ctx@2k": mean(ctx), "questions": len(s.questions), "cue R@5": mean(cues) if cues else None,
            "cue first fact": mean(first) if first else None}


def _where(owner: str) -> dict[str, str]:
    """Scope arguments from an owner as ``Memory.owners`` gives it ("g:<id>" or "u:<id>")."""
    kind, _, ref = owner.partition(":")
    return {"group_id": ref} if kind == "g" else {"user_id": ref}
