"""A session's last turns, cached in Redis and shared by server replicas (issue 21 §3).

Every ``context()`` reads the session's last ``short_term_turns`` turns (the short-term
tier). With ``PMEMO_REDIS_URL`` set, ``RecentTurns`` wraps the store and its turns port: ``last_turns`` comes
from Redis when Redis holds the session, and every write and forget of turns passes through
it on its way to the store. It wraps the store rather than hooking the forget pipelines
because the store is where turns change, whoever changes them: ``add_turns``,
``delete_turns`` (forget, purge, erase) and ``forget.restore_snapshot`` (a forget undone).

The database is the truth; Redis holds, per session, a sorted set of its newest turns (score:
the step) and a small hash: ``ver``, moved by every write and forget of the session's turns,
and ``gen``/``cap``/``top``, set when the set was filled from the database.

- A read is a hit only if the set was filled in the current generation with this cap;
  otherwise (or with Redis down) the database answers, and its answer fills the set unless
  a write or forget of the session came in between (``ver`` moved), so a stale read never
  lands in the cache.
- An add writes its turns through as the store returns them, if they follow the set's last
  step; a gap (a writer that died between its commit and Redis, adds racing) drops the set.
- A forget or a restore of any turn of a session drops its set, after the database changed.
- A process that could not reach Redis may have missed writes: when Redis answers again, it
  moves the generation, which voids every set filled before.

What is left: a replica that dies between its commit and Redis, or is cut off from a Redis the
others reach, can leave a set without its write (until the session's next write: a gap) or
with a turn it forgot (until it is back), ``TTL_S`` at most.

Keys carry the tenant, agent, owner and session (``T|A|O|S``: ids never hold ``|``), and a
hit is checked against the scope asked for, so one tenant is never served another's turns.

A turn is kept as JSON, and read back as the store gave it:

>>> turn = Turn(7, Scope.of(user_id="u1", session_id="s1"), 3, "user", "hi", None, datetime(2026, 1, 1))
>>> decode(encode(turn).encode()) == turn
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import datetime
from typing import Any, NamedTuple

from ..models import Scope, Turn
from ..ports.forget import Restored
from ..ports.turns import TurnPort
from ..redis_link import RedisLink
from .base import FullStore, NewTurn, Once

TTL_S = 3600  # a session nobody writes to or reads leaves Redis after an hour

_READ = """
local meta = redis.call('HMGET', KEYS[1], 'ver', 'gen', 'cap')
local gen = redis.call('GET', KEYS[3]) or '0'
if meta[2] ~= gen or meta[3] ~= ARGV[2] then
  return {'miss', meta[1] or '0', gen}
end
local rows = redis.call('ZRANGE', KEYS[2], -tonumber(ARGV[1]), -1)
table.insert(rows, 1, 'hit')
return rows
"""

_FILL = """
if (redis.call('HGET', KEYS[1], 'ver') or '0') ~= ARGV[1] or (redis.call('GET', KEYS[3]) or '0') ~= ARGV[2] then
  return 0
end
redis.call('DEL', KEYS[2])
for i = 6, #ARGV, 2 do redis.call('ZADD', KEYS[2], ARGV[i], ARGV[i + 1]) end
redis.call('HSET', KEYS[1], 'gen', ARGV[2], 'cap', ARGV[3], 'top', ARGV[5])
redis.call('EXPIRE', KEYS[1], ARGV[4])
redis.call('EXPIRE', KEYS[2], ARGV[4])
return 1
"""

_ADD = """
redis.call('HINCRBY', KEYS[1], 'ver', 1)
redis.call('EXPIRE', KEYS[1], ARGV[1])
local meta = redis.call('HMGET', KEYS[1], 'gen', 'cap', 'top')
if not meta[1] then return 0 end
if tonumber(ARGV[2]) ~= tonumber(meta[3]) + 1 then
  redis.call('HDEL', KEYS[1], 'gen')
  redis.call('DEL', KEYS[2])
  return 0
end
for i = 4, #ARGV, 2 do
  redis.call('ZREMRANGEBYSCORE', KEYS[2], ARGV[i], ARGV[i])
  redis.call('ZADD', KEYS[2], ARGV[i], ARGV[i + 1])
end
redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -(tonumber(meta[2]) + 1))
redis.call('HSET', KEYS[1], 'top', ARGV[3])
redis.call('EXPIRE', KEYS[2], ARGV[1])
return 1
"""


class Miss(NamedTuple):
    """What a read that missed saw: a fill counts only if neither moved since."""

    ver: str
    gen: str


class TurnCache:
    """The Redis side: each session's newest ``cap`` turns. Every method falls back (a miss,
    nothing written) when Redis is unreachable, and tells the link."""

    def __init__(self, link: RedisLink, cap: int) -> None:
        self.link, self.cap = link, cap
        self._gen = link.key("recent-gen")
        self._read = link.client.register_script(_READ)
        self._fill = link.client.register_script(_FILL)
        self._add = link.client.register_script(_ADD)
        link.on_back(self.void_all)

    def _keys(self, scope_key: str, session: str) -> list[str]:
        where = f"{scope_key}|{session}"
        return [self.link.key("recent-meta", where), self.link.key("recent", where)]

    def read(self, scope: Scope, session: str, n: int) -> list[Turn] | Miss | None:
        """The session's last ``n`` turns; a ``Miss`` to fill; None when Redis is not usable."""
        if not self.link.usable():
            return None
        try:
            found = self._read(keys=[*self._keys(scope.key, session), self._gen], args=[n, self.cap])
        except self.link.errors as exc:
            self.link.failed(exc)
            return None
        if found[0] == b"miss":
            return Miss(found[1].decode(), found[2].decode())
        turns = [decode(row) for row in found[1:]]
        if any(t.scope.key != scope.key or t.session_id != session for t in turns):
            return None  # not this session's: never served, the database answers
        return turns

    def fill(self, scope: Scope, session: str, turns: list[Turn], seen: Miss) -> None:
        """Cache the database's newest ``cap`` turns of the session, unless it changed since ``seen``."""
        top = turns[-1].step if turns else 0
        try:
            self._fill(keys=[*self._keys(scope.key, session), self._gen],
                       args=[seen.ver, seen.gen, self.cap, TTL_S, top, *_pairs(turns)])
        except self.link.errors as exc:
            self.link.failed(exc)

    def added(self, turns: Iterable[Turn]) -> None:
        """Write new turns through, per session, into the sets that follow them."""
        if not self.link.usable():
            return
        by_session: dict[tuple[str, str], list[Turn]] = {}
        for turn in turns:
            by_session.setdefault((turn.scope.key, turn.session_id), []).append(turn)
        try:
            with self.link.client.pipeline(transaction=False) as pipe:
                for (scope_key, session), group in by_session.items():
                    group.sort(key=lambda t: t.step)
                    self._add(keys=self._keys(scope_key, session),
                              args=[TTL_S, group[0].step, group[-1].step, *_pairs(group)], client=pipe)
                pipe.execute()
        except self.link.errors as exc:
            self.link.failed(exc)

    def forget(self, sessions: Iterable[tuple[str, str]]) -> None:
        """Drop the sets of these (scope key, session) pairs: some of their turns changed."""
        sessions = set(sessions)
        if not sessions or not self.link.usable():
            return
        try:
            with self.link.client.pipeline(transaction=True) as pipe:
                for scope_key, session in sessions:
                    meta, rows = self._keys(scope_key, session)
                    pipe.hincrby(meta, "ver", 1)
                    pipe.hdel(meta, "gen")
                    pipe.expire(meta, TTL_S)
                    pipe.delete(rows)
                pipe.execute()
        except self.link.errors as exc:
            self.link.failed(exc)

    def void_all(self) -> None:
        """A new generation: every set filled before is a miss (writes may have gone unseen)."""
        try:
            self.link.client.incr(self._gen)
        except self.link.errors as exc:
            self.link.failed(exc)


class RecentTurnPort:
    """A store's turns (``TurnPort``) whose ``last_turns`` come from Redis when it holds them; the
    writes and forgets of turns keep Redis in step; every other call is the port's own."""

    def __init__(self, turns: TurnPort, cache: TurnCache) -> None:
        self.port, self.cache = turns, cache

    def __getattr__(self, name: str) -> Any:
        return getattr(self.port, name)

    def last_turns(self, scope: Scope, session_id: str, n: int, until: float | None = None) -> list[Turn]:
        if until is not None or not 0 < n <= self.cache.cap:  # Redis holds the newest only
            return self.port.last_turns(scope, session_id, n, until)
        found = self.cache.read(scope, session_id, n)
        if isinstance(found, list):
            return found
        turns = self.port.last_turns(scope, session_id, self.cache.cap)
        if found is not None:
            self.cache.fill(scope, session_id, turns, found)
        return turns[-n:]

    def add_turns(self, turns: list[NewTurn], once: Once | None = None) -> list[Turn]:
        added = self.port.add_turns(turns, once)
        if added and self.cache.link.usable():  # as the store gives them back, to the microsecond
            self.cache.added(self.port.get_turns([t.id for t in added]).values())
        return added

    def delete_turns(self, ids: list[int]) -> int:
        sessions = {(r.scope_key, r.session) for r in self.port.turn_refs(ids).values()}
        count = self.port.delete_turns(ids)
        self.cache.forget(sessions)
        return count


class RecentTurns:
    """A store whose turns (``turns``, a ``RecentTurnPort``) keep Redis in step; a restore of a
    forget (``forget``, a ``RecentForget``) drops the sessions it brings turns back to; every other
    method is the wrapped store's own."""

    def __init__(self, store: FullStore, cache: TurnCache) -> None:
        self.store, self.cache = store, cache
        self.turns = RecentTurnPort(store.turns, cache)
        self.forget = RecentForget(store, cache)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)


class RecentForget:
    """The store's forget port, whose ``restore_snapshot`` drops the sets of the sessions it
    brought turns back to; every other method is the port's own."""

    def __init__(self, store: FullStore, cache: TurnCache) -> None:
        self.store, self.cache = store, cache

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store.forget, name)

    def restore_snapshot(self, batch: int) -> list[Restored]:
        restored = self.store.forget.restore_snapshot(batch)
        turns = [ref for kind, ref, _, _ in restored if kind == "turn"]
        if turns:
            self.cache.forget((r.scope_key, r.session) for r in self.store.turns.turn_refs(turns).values())
        return restored


def cached(store: FullStore, link: RedisLink | None, cap: int) -> FullStore:
    """``store`` with its sessions' last ``cap`` turns cached in Redis, or itself without a link."""
    return store if link is None else RecentTurns(store, TurnCache(link, cap))


def encode(turn: Turn) -> str:
    s = turn.scope
    return json.dumps([turn.id, s.tenant_id, s.agent_id, s.owner, s.session_id, turn.step, turn.role,
                       turn.content, turn.actor, turn.timestamp.isoformat(), turn.metadata, turn.actor_id,
                       turn.reply_to])


def decode(raw: bytes) -> Turn:
    (id_, tenant, agent, owner, session, step, role, content, actor, stamp, metadata,
     actor_id, *reply) = json.loads(raw)  # an entry cached before replies has no reply_to
    return Turn(id_, Scope(tenant, agent, owner, session), step, role, content, actor,
                datetime.fromisoformat(stamp), metadata, actor_id, reply[0] if reply else None)


def _pairs(turns: Iterable[Turn]) -> list[Any]:
    return [x for t in turns for x in (t.step, encode(t))]
