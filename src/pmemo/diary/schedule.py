"""Which days are due a diary entry: one 'diary' job per owner scope and local day.

A day is due once it is over, and today once ``diary_time`` has passed (``days``). The
schedule reads only the turns stored since its last look (a mark in the store's meta table),
so an imported history gets an entry for each of its past days and no turn is read twice. A
day that is not due yet when its turns are read (a chat's today) is noted as waiting, with
when it will be; the worker looks again when the first waiting day falls due, or when new
turns arrive for a day that is due already (a late message, an import), never more often.
The jobs, the mark and the waiting days are written in one transaction.

A day whose entry holds its newest turn already, or whose job waits, is not queued again.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Iterable
from datetime import date

from ..config import Settings, diary_clock, diary_zone
from ..models import Scope, Turn, epoch_of
from ..stores.base import FullStore, Waiting
from .days import due_at, local_day

log = logging.getLogger("pmemo")
MARK = "diary_mark"  # meta key: every turn up to this id has been scheduled
CHUNK = 5000  # turns read per query
RETRY_S = 60.0


class DiarySchedule:
    def __init__(self, store: FullStore, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.zone = diary_zone(settings.diary_tz)
        self.clock = diary_clock(settings.diary_time)
        self.next_look = 0.0  # epoch seconds; 0: look at the first chance (a restart)

    def due(self, now: float) -> bool:
        return self.settings.diary_enabled and now >= self.next_look

    def saw(self, turns: Iterable[Turn], now: float) -> int:
        """New turns were stored: look again when the earliest of their days falls due, at once
        when it is due already (an import, a late message). Called by the job that stored them,
        before it is done: a ``drain`` never sees the gap between that job and the ones queued
        here. Returns the jobs queued."""
        for day in {local_day(epoch_of(t.timestamp), self.zone) for t in turns if t.role == "user"}:
            self.next_look = min(self.next_look, due_at(day, self.zone, self.clock))
        return self.tick(now) if self.due(now) else 0

    def tick(self, now: float) -> int:
        """``look``, for the worker: a failed look is logged and tried again a minute later."""
        try:
            return self.look(now)
        except Exception:  # noqa: BLE001 - the turns are stored; their days are looked at again
            log.exception("diary schedule failed")
            self.next_look = now + RETRY_S
            return 0

    def look(self, now: float) -> int:
        """Queue a job for each (owner, day) that is due and has new turns; returns how many."""
        cursor = int(self.store.meta.get_meta(MARK) or 0)
        queued = 0
        while rows := self.store.diary.turns_after(cursor, CHUNK):
            cursor = rows[-1].id
            ripe: dict[tuple[str, str, str, str], int] = {}  # day → its last turn read
            waiting: dict[tuple[str, str, str, str], Waiting] = {}
            for row in rows:
                if row.role != "user":  # a day the assistant alone spoke in has no entry
                    continue
                day = local_day(row.epoch, self.zone)
                due = due_at(day, self.zone, self.clock)
                key = (row.tenant, row.agent, row.owner, day.isoformat())
                if due <= now:
                    ripe[key] = row.id
                else:
                    waiting[key] = Waiting(*key, due, row.id)
            payloads = [p for key, last in ripe.items() if not self._covered(p := _payload(*key), last)]
            self.store.diary.queue_diaries(payloads, MARK, cursor, list(waiting.values()))
            queued += len(payloads)
        came = self.store.diary.diaries_waiting(now)  # noted at an earlier look, due now
        if came:
            payloads = [p for w in came if not self._covered(p := _payload(*w[:4]), w.last)]
            self.store.diary.queue_diaries(payloads, MARK, cursor, ripe=came)
            queued += len(payloads)
        self.next_look = self.store.diary.next_waiting() or math.inf
        return queued

    def _covered(self, payload: dict[str, str], last: int) -> bool:
        """The day's job waits, or its entry holds ``last``, the newest of its turns read (and so
        every turn of the day stored before it)."""
        if self.store.diary.diary_queued(payload):
            return True
        scope = Scope(payload["tenant"], payload["agent"], payload["owner"])
        diary = self.store.diary.get_diary(scope, date.fromisoformat(payload["day"]))
        return diary is not None and last in diary.source_ids


def _payload(tenant: str, agent: str, owner: str, day: str) -> dict[str, str]:
    """A 'diary' job's payload; job_scopes reads whose it is from tenant, agent and owner."""
    return {"tenant": tenant, "agent": agent, "owner": owner, "day": day}
