"""The library calls the CLI makes, answered by a running pmemo server over its REST API.

``RemoteMemory`` has the names and arguments of the ``SyncMemory`` methods the commands use
and returns the library's own models, so each command is written once and runs either on the
store or beside a server that holds it. The server confines every call to the tenant of the
key, which ``connect`` checks against the tenant the command asked for.

>>> with RemoteMemory.connect("http://127.0.0.1:8765", key, settings) as mem:  # doctest: +SKIP
...     mem.search("预算", user_id="demo")
"""

from __future__ import annotations

import time
import uuid
from datetime import date, datetime
from typing import Any

import httpx

from .. import errors
from ..api import CliAPI
from ..blocks.model import Block
from ..config import Settings
from ..models import (
    AgendaItem,
    Alias,
    Cluster,
    ContextPack,
    Diary,
    Entity,
    Fact,
    Graph,
    Hit,
    KeyLine,
    Member,
    Person,
    Scope,
    Summary,
    Triple,
    Turn,
)
from ..people.resolve import Match

OWNER_FIELDS = ("user_id", "group_id", "agent_id")
TIMEOUT = httpx.Timeout(120.0, connect=5.0)  # an import batch or a cold context may take a while
POLL_S = 0.5  # how often drain() asks how many jobs are left
RETRIES = 3  # a lost reply or a 429: the same request again (writes carry an Idempotency-Key)

# The CLI's one table from a server's problem body to pmemo's errors: its code first (the
# server sends the error's own ``code``), else its status; anything else is a PMemoError.
_ERRORS: tuple[type[errors.PMemoError], ...] = (
    errors.InvalidInput, errors.NotFound, errors.Conflict, errors.AuthError, errors.Forbidden,
    errors.QuotaExceeded, errors.TooLarge, errors.BacklogFull, errors.RateLimited, errors.LimitExceeded,
    errors.StoreLocked, errors.StoreCorrupt, errors.StoreError, errors.EmbedderError,
    errors.LLMError,
)
BY_CODE: dict[str, type[errors.PMemoError]] = {kind.code: kind for kind in _ERRORS}
BY_STATUS: dict[int, type[errors.PMemoError]] = {
    400: errors.InvalidInput, 401: errors.AuthError, 403: errors.Forbidden, 404: errors.NotFound,
    409: errors.Conflict, 413: errors.TooLarge, 422: errors.InvalidInput, 429: errors.LimitExceeded,
}


def error_of(response: httpx.Response) -> errors.PMemoError:
    """The pmemo error a server's problem answer stands for, with its ``detail`` as message."""
    try:
        body = response.json()
    except ValueError:
        body = {}
    body = body if isinstance(body, dict) else {}
    kind = BY_CODE.get(str(body.get("code"))) or BY_STATUS.get(response.status_code, errors.PMemoError)
    detail = str(body.get("detail") or f"HTTP {response.status_code} {response.reason_phrase}")
    return kind(detail)


class RemoteMemory(CliAPI):
    """The CLI's calls over REST, for the tenant of one key. Use ``connect``, then ``close``.
    It declares ``api.CliAPI``: mypy checks every method against it, and a test that none is missing."""

    def __init__(self, client: httpx.Client, tenant: str, settings: Settings) -> None:
        self._client = client
        self.tenant = tenant
        self.settings = settings  # the local settings: import checks its lines with them
        self.url = str(client.base_url).rstrip("/")

    @classmethod
    def connect(cls, url: str, key: str, settings: Settings, *, tenant: str | None = None,
                key_name: str = "the API key") -> RemoteMemory:
        """A client for the server at ``url``; ``tenant`` (if given) must be the key's."""
        client = httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key}"},
                              timeout=TIMEOUT)
        mem = cls(client, "", settings)
        try:
            mem.tenant = mem._call("GET", "/v1/stats", name=key_name)["tenant"]
        except BaseException:
            client.close()
            raise
        if tenant is not None and tenant != mem.tenant:
            client.close()
            raise errors.InvalidInput(
                f"{key_name} is a key of tenant {mem.tenant!r}, not {tenant!r}: drop --tenant, "
                f"or use a key of tenant {tenant!r}"
            )
        return mem

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> RemoteMemory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- plumbing ---------------------------------------------------------------------------
    def _call(self, method: str, path: str, *, params: dict[str, Any] | None = None,
              json: Any = None, idempotent: bool = False, name: str = "") -> Any:
        """One request (retried after a lost reply or a 429); the JSON answer, or None."""
        headers = {"Idempotency-Key": uuid.uuid4().hex} if idempotent else {}
        params = {k: v for k, v in (params or {}).items() if v is not None}
        for attempt in range(RETRIES + 1):
            try:
                response = self._client.request(method, path, params=params, json=json,
                                                headers=headers)
            except httpx.TransportError as exc:
                safe = method in ("GET", "PUT", "DELETE") or idempotent
                if safe and attempt < RETRIES and not isinstance(exc, httpx.ConnectError):
                    continue
                raise errors.StoreError(
                    f"cannot reach the pmemo server at {self.url}: {exc or type(exc).__name__}; "
                    "is it running? (or fix PMEMO_URL)"
                ) from exc
            if response.status_code == 429 and attempt < RETRIES:
                time.sleep(min(float(response.headers.get("Retry-After", "1")), 10.0))
                continue
            if response.status_code >= 400:
                error = error_of(response)
                if name and isinstance(error, errors.AuthError | errors.Forbidden):
                    error = type(error)(f"{name}: {error} (server {self.url})")
                raise error
            return response.json() if response.content else None
        raise AssertionError("unreachable")  # pragma: no cover - the loop returns or raises

    def _scope(self, owner: dict[str, Any], session_id: str | None = None) -> Scope:
        who = f"u:{owner['user_id']}" if owner.get("user_id") else f"g:{owner.get('group_id')}"
        return Scope(self.tenant, owner.get("agent_id") or "default", who, session_id)

    # ---- write ------------------------------------------------------------------------------
    def add(self, **item: Any) -> Turn:
        return self._turn(self._call("POST", "/v1/turns", json=_turn_body(item, self.tenant),
                                     idempotent=True))

    def add_many(self, items: list[dict[str, Any]]) -> list[Turn]:
        """One batch, stored whole or not at all (the caller keeps it under the server's caps)."""
        body = {"turns": [_turn_body(item, self.tenant) for item in items]}
        out = self._call("POST", "/v1/turns", json=body, idempotent=True)
        return [self._turn(t) for t in out["turns"]]

    # ---- read -------------------------------------------------------------------------------
    def search(self, query: str, *, limit: int = 10, session_id: str | None = None,
               at: datetime | str | None = None, asker: str | None = None, **scope: Any) -> list[Hit]:
        body = {"query": query, "limit": limit, "session_id": session_id, "at": _text(at), "asker": asker,
                **_owner(scope)}
        out = self._call("POST", "/v1/search", json=_present(body))
        return [self._hit(h) for h in out["hits"]]

    def context(self, query: str, *, session_id: str | None = None,
                budget_tokens: int | None = None, at: datetime | str | None = None,
                asker: str | None = None, recent: list[str] | None = None,
                format: str = "markdown", **scope: Any) -> ContextPack:
        body = {"query": query, "session_id": session_id, "budget_tokens": budget_tokens,
                "at": _text(at), "asker": asker, "recent": recent or None, "format": format,
                **_owner(scope)}
        out = self._call("POST", "/v1/context", json=_present(body))
        return ContextPack(query=out["query"], text=out["text"], tokens=out["tokens"],
                           budget=out["budget"], items=tuple(self._hit(h) for h in out["items"]))

    def turns(self, *, session_id: str | None = None, limit: int = 100, offset: int = 0,
              **scope: Any) -> list[Turn]:
        params = {"session_id": session_id, "limit": limit, "offset": offset, **_owner(scope)}
        return [self._turn(t) for t in self._call("GET", "/v1/turns", params=params)["turns"]]

    def sessions(self, **scope: Any) -> list[dict[str, Any]]:
        rows = self._call("GET", "/v1/sessions", params=_owner(scope))["sessions"]
        return [{**r, "first": _when(r.get("first")), "last": _when(r.get("last"))} for r in rows]

    def key_memory(self, **scope: Any) -> list[KeyLine]:
        owner = _owner(scope)
        return [self._key(k, owner) for k in self._call("GET", "/v1/key", params=owner)["lines"]]

    def summaries(self, *, session_id: str | None = None, **scope: Any) -> list[Summary]:
        owner = _owner(scope)
        rows = self._call("GET", "/v1/summaries", params={**owner, "session_id": session_id})
        return [Summary(id=s["id"], scope=self._scope(owner, s["session_id"]),
                        step_from=s["step_from"], step_to=s["step_to"], text=s["text"],
                        method=s["method"], source_ids=tuple(s["source_ids"]),
                        created_at=_at(s["created_at"])) for s in rows["summaries"]]

    def clusters(self, **scope: Any) -> list[Cluster]:
        owner = _owner(scope)
        return [Cluster(id=c["id"], scope=self._scope(owner), size=c["size"], hits=c["hits"],
                        label=c["label"], member_ids=tuple(c["member_ids"]),
                        updated_at=_at(c["updated_at"]))
                for c in self._call("GET", "/v1/clusters", params=owner)["clusters"]]

    def profile(self, person_id: str, *, history: bool = False, **scope: Any) -> list[Fact]:
        owner = {"user_id": person_id, "agent_id": scope.get("agent_id")}
        out = self._call("GET", "/v1/profile", params={**owner, "history": str(history).lower()})
        return [self._fact(f) for f in out["facts"]]

    def stats(self, **scope: Any) -> dict[str, Any]:
        params = {k: scope.get(k) for k in OWNER_FIELDS}
        return dict(self._call("GET", "/v1/stats", params=params)["stats"])

    def pending(self, **scope: Any) -> int:
        return int(self.stats(**scope).get("pending_jobs", 0))

    def drain(self, timeout: float | None = None, **scope: Any) -> None:
        """Wait until the server has done this tenant's background jobs (it runs them)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.pending(**scope):
            if deadline is not None and time.monotonic() > deadline:
                raise TimeoutError(f"background jobs still pending after {timeout}s")
            time.sleep(POLL_S)

    # ---- people, diary, graph, blocks (group chats) ------------------------------------------
    def people(self, **scope: Any) -> list[Member]:
        rows = self._call("GET", "/v1/people", params=_owner(scope))["members"]
        return [Member(person=self._person(m["person"]), owner=m["owner"], first_seen=_at(m["first_seen"]),
                       last_seen=_at(m["last_seen"]), messages=m["messages"]) for m in rows]

    def resolve_people(self, text: str, **scope: Any) -> list[Match]:
        out = self._call("POST", "/v1/people/resolve", json={"text": text, **_owner(scope)})
        return [Match(m["alias"], m["start"], m["end"], tuple(m["person_ids"]), m["source"])
                for m in out["matches"]]

    def agenda(self, person_id: str | None = None, *, at: datetime | str | None = None,
               **scope: Any) -> list[AgendaItem]:
        """Without user_id and group_id: every chat's plans, each with its own scope."""
        params = {**_owner(scope), "person_id": person_id, "at": _text(at)}
        return [AgendaItem(id=i["id"], scope=self._scope(i), person_id=i["person_id"],
                           day=date.fromisoformat(i["day"]), what=i["what"], text=i["text"],
                           turn_id=i["turn_id"], status=i["status"], outcome=i["outcome"])
                for i in self._call("GET", "/v1/agenda", params=params)["items"]]

    def diary(self, date: date | str, **scope: Any) -> Diary:
        return self._diary(self._call("GET", "/v1/diary", params={**_owner(scope), "day": str(date)}))

    def diaries(self, start: date | str | None = None, end: date | str | None = None,
                **scope: Any) -> list[Diary]:
        params = {**_owner(scope), "start": _text(start), "end": _text(end)}
        return [self._diary(d) for d in self._call("GET", "/v1/diaries", params=params)["entries"]]

    def write_diary(self, day: date | str | None = None, **scope: Any) -> Diary:
        body = _present({**_owner(scope), "day": _text(day)})
        return self._diary(self._call("POST", "/v1/diary", json=body))

    def graph(self, entity: str, *, hops: int = 1, at: datetime | str | None = None,
              **scope: Any) -> Graph:
        params = {**_owner(scope), "entity": entity, "hops": hops, "at": _text(at)}
        out = self._call("GET", "/v1/graph", params=params)
        agent = scope.get("agent_id") or "default"
        return Graph(entity=_entity(out["entity"]), nodes=tuple(_entity(n) for n in out["nodes"]),
                     triples=tuple(self._triple(t, agent) for t in out["triples"]))

    def triples(self, subject: str | None = None, *, predicate: str | None = None,
                at: datetime | str | None = None, history: bool = False, **scope: Any) -> list[Triple]:
        params = {**_owner(scope), "subject": subject, "predicate": predicate, "at": _text(at),
                  "history": str(bool(history)).lower()}
        agent = scope.get("agent_id") or "default"
        return [self._triple(t, agent) for t in self._call("GET", "/v1/triples", params=params)["triples"]]

    def blocks(self, **scope: Any) -> list[Block]:
        """With neither user_id nor group_id: every block of the tenant and agent."""
        return [Block(label=b["label"], description=b["description"], limit=b["limit"],
                      read_only=b["read_only"], order=b["order"], tenant=b["tenant"], agent=b["agent"],
                      group=b["group"], user=b["user"], value=b["value"], path=b["file"],
                      version=b["version"], problem=b["problem"])
                for b in self._call("GET", "/v1/blocks", params=_owner(scope))["blocks"]]

    # ---- change -----------------------------------------------------------------------------
    def add_key(self, text: str, **scope: Any) -> KeyLine:
        owner = _owner(scope)
        return self._key(self._call("POST", "/v1/key", json={"text": text, **owner}), owner)

    def update_key(self, key_id: int, text: str, *, version: int | None = None,
                   tenant_id: str | None = None) -> KeyLine:
        body = _present({"text": text, "version": version})
        return self._key(self._call("PUT", f"/v1/key/{key_id}", json=body), {})

    def delete_key(self, key_id: int, *, tenant_id: str | None = None) -> None:
        self._call("DELETE", f"/v1/key/{key_id}")

    def delete_summary(self, summary_id: int, *, tenant_id: str | None = None) -> None:
        self._call("DELETE", f"/v1/summaries/{summary_id}")

    def delete_turn(self, turn_id: int, *, tenant_id: str | None = None) -> dict[str, Any]:
        return dict(self._call("DELETE", f"/v1/turns/{turn_id}")["removed"])

    def delete_turn_at(self, session_id: str, step: int, **scope: Any) -> dict[str, Any]:
        """The REST API deletes by id: find the turn at ``step`` in the session first."""
        offset = 0
        while True:
            page = self.turns(session_id=session_id, limit=1000, offset=offset, **scope)
            found = next((t for t in page if t.step == step), None)
            if found is not None:
                return self.delete_turn(found.id)
            if len(page) < 1000 or page[-1].step > step:
                raise errors.NotFound(f"session {session_id!r} has no turn at step {step}")
            offset += len(page)

    def forget(self, turn_ids: list[int] | None = None, *, query: str | None = None,
               person_id: str | None = None, hard: bool = False, dry_run: bool = False,
               tenant_id: str | None = None, **scope: Any) -> dict[str, Any]:
        if person_id is not None:  # a person, everywhere or in one chat (issue 44 §7)
            params = {**_owner(scope), "hard": hard, "dry_run": dry_run}
            out = self._call("DELETE", f"/v1/people/{person_id}", params=params)
            return {**out["removed"], "batch": out["batch"], "mode": out["mode"]}
        if dry_run:
            if query is not None:
                raise errors.InvalidInput(
                    f"forget --query --dry-run needs the store, which the server at {self.url} "
                    "holds: see what matches with pmemo search, or stop the server"
                )
            turns = [self._turn(self._call("GET", f"/v1/turns/{i}")) for i in turn_ids or []]
            return {"dry_run": True, "turns": [t.id for t in turns],
                    "texts": [t.content for t in turns]}
        body = {"turn_ids": turn_ids, "query": query, "hard": hard,
                **(_owner(scope) if query is not None else {})}
        out = self._call("POST", "/v1/forget", json=_present(body))
        return {**out["removed"], "batch": out["batch"], "mode": out["mode"]}

    def restore(self, batch: int, *, tenant_id: str | None = None) -> dict[str, Any]:
        out = self._call("POST", "/v1/restore", json={"batch": batch})
        return {"batches": out["batches"], **out["restored"]}

    def sweep(self, *, dry_run: bool = True, tenant_id: str | None = None) -> dict[str, Any]:
        return dict(self._call("POST", "/v1/sweep", json={"dry_run": dry_run}))

    # ---- background jobs that failed every try ------------------------------------------------
    def failed_jobs(self, *, limit: int = 100, **scope: Any) -> list[dict[str, Any]]:
        """The key's tenant's, as the library lists them (``updated`` in epoch seconds)."""
        params = {"limit": limit, "agent_id": scope.get("agent_id")}
        return [{"id": j["id"], "kind": j["kind"], "payload": j["payload"], "attempts": j["attempts"],
                 "error": j["error"], "updated": _at(j["updated_at"]).timestamp()}
                for j in self._call("GET", "/v1/jobs/failed", params=params)["jobs"]]

    def retry_jobs(self, job_ids: list[int] | None = None, **scope: Any) -> int:
        body = None if job_ids is None else {"job_ids": job_ids}
        return int(self._call("POST", "/v1/jobs/retry", json=body)["retried"])

    # ---- the models, from the REST bodies -----------------------------------------------------
    def _turn(self, t: dict[str, Any]) -> Turn:
        return Turn(id=t["id"], scope=self._scope(t, t["session_id"]), step=t["step"],
                    role=t["role"], content=t["content"], actor=t.get("actor"),
                    timestamp=_at(t["timestamp"]), metadata=dict(t.get("metadata") or {}),
                    actor_id=t.get("actor_id"))

    def _hit(self, h: dict[str, Any]) -> Hit:
        return Hit(id=h["id"], kind=h["kind"], tier=h["tier"], text=h["text"], score=h["score"],
                   why=h["why"], sources=tuple(self._turn(t) for t in h["sources"]),
                   timestamp=_when(h.get("timestamp")))

    def _key(self, k: dict[str, Any], owner: dict[str, Any]) -> KeyLine:
        return KeyLine(id=k["id"], scope=self._scope(owner), text=k["text"], origin=k["origin"],
                       source_ids=tuple(k["source_ids"]), created_at=_at(k["created_at"]),
                       updated_at=_at(k["updated_at"]), version=k.get("version", 1))

    def _fact(self, f: dict[str, Any]) -> Fact:
        return Fact(id=f["id"], scope=self._scope(f), category=f["category"], key=f["key"],
                    value=f["value"], confidence=f["confidence"], mentions=f["mentions"],
                    first_seen=_at(f["first_seen"]), last_seen=_at(f["last_seen"]),
                    valid_from=_at(f["valid_from"]), valid_to=_when(f.get("valid_to")),
                    expires_at=_when(f.get("expires_at")), source=f["source"],
                    sources=tuple(f["source_ids"]), status=f["status"], version=f["version"],
                    importance=f["importance"], subject_id=f.get("subject_id"),
                    mentioned=tuple(f.get("mentioned") or ()))

    def _person(self, p: dict[str, Any]) -> Person:
        aliases = tuple(Alias(alias=a["alias"], source=a["source"], learned_in=a["learned_in"],
                              first_seen=_at(a["first_seen"]), last_seen=_at(a["last_seen"]),
                              turn_id=a.get("turn_id")) for a in p["aliases"])
        return Person(id=p["id"], tenant_id=self.tenant, name=p["name"], names=tuple(p["names"]),
                      aliases=aliases, first_seen=_when(p.get("first_seen")),
                      last_seen=_when(p.get("last_seen")), messages=p["messages"])

    def _diary(self, d: dict[str, Any]) -> Diary:
        return Diary(id=d["id"], scope=self._scope(d), day=date.fromisoformat(d["day"]), text=d["text"],
                     method=d["method"], source_ids=tuple(d["source_ids"]),
                     created_at=_at(d["created_at"]), updated_at=_at(d["updated_at"]))

    def _triple(self, t: dict[str, Any], agent: str) -> Triple:
        return Triple(id=t["id"], scope=Scope(self.tenant, agent, t["learned_in"]), subject=t["subject"],
                      subject_kind=t["subject_kind"], predicate=t["predicate"], object=t["object"],
                      object_kind=t["object_kind"], qualifier=t["qualifier"],
                      valid_from=_at(t["valid_from"]), valid_to=_when(t.get("valid_to")),
                      confidence=t["confidence"], sources=tuple(t["sources"]),
                      subject_name=t["subject_name"], object_name=t["object_name"], fact_id=t.get("fact_id"))


def _entity(e: dict[str, Any]) -> Entity:
    return Entity(id=e["id"], kind=e["kind"], name=e["name"], person_id=e.get("person_id"),
                  aliases=tuple(e.get("aliases") or ()))


def _text(value: date | datetime | str | None) -> str | None:
    """A day or a time as a query parameter: ISO 8601 (a str is sent as it is)."""
    return value.isoformat() if isinstance(value, date) else value


def _owner(scope: dict[str, Any]) -> dict[str, Any]:
    """user_id / group_id / agent_id of a library scope (the tenant is the key's)."""
    return {k: scope[k] for k in OWNER_FIELDS if scope.get(k) is not None}


def _present(body: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in body.items() if v is not None}


def _turn_body(item: dict[str, Any], tenant: str) -> dict[str, Any]:
    """A TurnIn body from add()'s arguments; a turn for another tenant is refused here."""
    if item.get("tenant_id") not in (None, tenant):
        raise errors.InvalidInput(
            f"tenant_id {item['tenant_id']!r} is not this key's tenant {tenant!r}: the server "
            "stores a key's turns in its own tenant"
        )
    body = {k: v for k, v in item.items() if k != "tenant_id" and v is not None}
    if "timestamp" in body:
        body["timestamp"] = _text(body["timestamp"])
    return body


def _at(value: str) -> datetime:
    return datetime.fromisoformat(value)


def _when(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)
