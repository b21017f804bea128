"""A chat's batches of new turns run one after the other, as in one process.

A batch learns the aliases, name forms and facts that the next batch's mentions and corrections
are read against ("叫我霓霓" before "霓霓是我同学"), so two workers must not take two batches of
one chat (owner scope) at once. A claim takes a 'turns' job only with every unfinished 'turns'
job of its chat queued before it; other kinds, and other chats' batches, run side by side. The
claim's ranking (fair_share.py) already leaves out the 'turns' jobs behind a busy batch of their
chat, so that a busy chat's backlog does not fill a claim's limit; ``in_chat_order`` is the rule
itself, whatever the ranking took. The SQL is the same on both stores but for how they write a
list of ids.
"""

from __future__ import annotations

from collections.abc import Iterable

# each job s's chats (owner scopes), the jobs e queued before it in one of them, and their rows k
_EARLIER = ("FROM job_scopes s JOIN job_scopes e ON e.tenant = s.tenant AND e.agent = s.agent"
            " AND e.owner = s.owner AND e.job < s.job JOIN jobs k ON k.id = e.job")


def earlier(ids: str) -> str:
    """Pairs (job, earlier job) for the 'turns' jobs ``ids`` names: the unfinished 'turns' jobs
    of the same chat queued before each."""
    return (f"SELECT s.job, e.job AS prior {_EARLIER} WHERE s.job IN {ids} AND k.kind = 'turns'"
            " AND k.status IN ('pending', 'running')")


def in_chat_order(candidates: Iterable[int], pairs: Iterable[tuple[int, int]]) -> list[int]:
    """The candidates a claim may take, given ``pairs`` (job, earlier job) from ``earlier``:
    each with every earlier one it has.

    >>> in_chat_order([3, 5, 7, 8], [(5, 3), (7, 4), (7, 5), (8, 3)])
    [3, 5, 8]
    """
    before: dict[int, set[int]] = {}
    for job, prior in pairs:
        before.setdefault(job, set()).add(prior)
    taken: set[int] = set()
    for job in sorted(candidates):
        if before.get(job, set()) <= taken:
            taken.add(job)
    return sorted(taken)
