"""Fair claims: a tenant importing 100,000 turns does not hold up another tenant's quiet chat.

Two halves, the same on both stores:

- ``job_batches``: ``add_turns`` queues one 'turns' job per chat (owner scope) and per at most
  ``JOB_TURNS`` turns, in order, so a big import is many small jobs rather than one that a
  worker digests as one batch while nobody else's turns move.
- ``ranked``: a claim takes the due jobs round robin, across tenants first and then across the
  chats of each tenant: round 1 is each tenant's oldest job of its least served chat, round 2
  their next one, and so on; within a chat, oldest first (chat_order.py still holds: a chat's
  'turns' jobs are taken in order, one worker at a time). A claim also takes at most a budget
  of turns from each tenant (``CLAIM_TURNS`` from the worker), so a flooding tenant's share of
  a batch is short, and so is the wait of another chat's new job: the batch running when it
  came, then its own. Many busy tenants make a batch longer, each by its share: that is fair,
  and keeps the worker's batches big when many write.

Whose a job is comes from ``job_scopes`` (tenant, agent, owner); a job about nobody's rows (a
store-wide 'reindex') is in a lane of its own. The ranking reads every due job once (two range
reads of ``jobs_status``, one key seek each into ``job_scopes``) and sorts them: a backlog is
bounded by the per-tenant cap on pending turns (``backlog.py``), and jobs of ``JOB_TURNS`` keep
the rows few (a 100,000-turn import is ~3,100 jobs).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

JOB_TURNS = 32  # turns per 'turns' job: small enough that a batch of a few is short, big enough
# that e5 embeds them in full batches (CachedEmbedder.batch is 32)

T = TypeVar("T")


def job_batches(turns: Sequence[T], chat_of: Sequence[str], size: int = JOB_TURNS) -> list[list[T]]:
    """``turns`` cut into 'turns' jobs. A write of at most ``size`` turns is one job, whoever's
    they are (as a chat bot writes: one job per message or per small batch); a bigger one is cut
    per chat (``chat_of[i]`` is turn i's) into jobs of at most ``size``, in the order the turns
    came, the jobs in the order of their first turn.

    >>> job_batches([1, 2, 3, 4, 5], ["a", "b", "a", "a", "b"], size=2)
    [[1, 3], [2, 5], [4]]
    >>> job_batches([1, 2], ["a", "b"], size=2)
    [[1, 2]]
    """
    if len(turns) <= size:
        return [list(turns)] if turns else []
    open_: dict[str, list[T]] = {}
    jobs: list[list[T]] = []
    for turn, chat in zip(turns, chat_of, strict=True):
        batch = open_.get(chat)
        if batch is None or len(batch) >= size:
            batch = open_[chat] = []
            jobs.append(batch)
        batch.append(turn)
    return jobs


def ranked(now: str, limit: str, budget: str, *, array_length: str) -> str:
    """A SELECT of the ids a claim takes (round robin across tenants, then chats; see the module
    docstring): at most ``limit``, and of each tenant, past its first job, none once its jobs
    before hold ``budget`` turns (0: no budget). ``now``, ``limit`` and ``budget`` are SQL
    expressions (a parameter or the clock), ``array_length`` the store's JSON array length
    function. A 'turns' job behind a busy batch of its chat (held under a live lease, or waiting
    out a backoff) is left out: ``in_chat_order`` would drop it whatever the claim took, and it
    must not take the place of another chat's job.

    Weights: a 'turns' or 'embed' job counts its turns, any other job one."""
    due = (f"(status = 'pending' AND run_after <= {now}) OR (status = 'running' AND lease_until <= {now})")
    held = f"(status = 'pending' AND run_after > {now}) OR (status = 'running' AND lease_until > {now})"
    return f"""
        WITH busy AS MATERIALIZED (
            SELECT s.tenant, s.agent, s.owner, MIN(j.id) AS first FROM jobs j JOIN job_scopes s ON s.job = j.id
            WHERE j.kind = 'turns' AND ({held}) GROUP BY s.tenant, s.agent, s.owner
        ), due AS (
            SELECT id, kind, CASE WHEN kind IN ('turns', 'embed') THEN {array_length}(payload) ELSE 1 END AS w
            FROM jobs WHERE {due}
        ), laned AS (
            SELECT d.id, d.w, MIN(s.tenant) AS tenant, MIN(s.agent || '|' || s.owner) AS chat
            FROM due d LEFT JOIN job_scopes s ON s.job = d.id
            WHERE d.kind <> 'turns' OR NOT EXISTS (
                SELECT 1 FROM job_scopes x JOIN busy b ON b.tenant = x.tenant AND b.agent = x.agent
                    AND b.owner = x.owner WHERE x.job = d.id AND b.first < d.id)
            GROUP BY d.id, d.w
        ), chats AS (
            SELECT id, w, tenant, ROW_NUMBER() OVER (PARTITION BY tenant, chat ORDER BY id) AS nth,
                   MIN(id) OVER (PARTITION BY tenant, chat) AS chat_first,
                   MIN(id) OVER (PARTITION BY tenant) AS tenant_first
            FROM laned
        ), rounds AS (
            SELECT id, w, tenant, tenant_first,
                   ROW_NUMBER() OVER (PARTITION BY tenant ORDER BY nth, chat_first) AS round
            FROM chats
        ), budgeted AS (
            SELECT id, round, tenant_first,
                   SUM(w) OVER (PARTITION BY tenant ORDER BY round ROWS UNBOUNDED PRECEDING) - w AS before
            FROM rounds
        ), ordered AS (
            SELECT id, ROW_NUMBER() OVER (ORDER BY round, tenant_first, id) AS place FROM budgeted
            WHERE round = 1 OR {budget} <= 0 OR before < {budget}
        )
        SELECT id FROM ordered WHERE place <= {limit}"""
