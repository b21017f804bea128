"""Request dependencies: the caller's tenant (from the API key) and the scope in a query string."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Query, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from ..api import MemoryAPI
from ..errors import Forbidden, InvalidInput
from ..schemas import ID
from . import limits
from .keys import KeyInfo, KeyStore

bearer = HTTPBearer(auto_error=False, description="An API key: `Authorization: Bearer pm_...`")


def memory_of(request: Request) -> MemoryAPI:
    """The app's ``Memory``, as the calls the routes may make on it (``api.MemoryAPI``)."""
    memory: MemoryAPI = request.app.state.memory
    return memory


def keys_of(request: Request) -> KeyStore:
    return request.app.state.keys  # type: ignore[no-any-return]


def key_info(
    request: Request,
    creds: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> KeyInfo:
    info = keys_of(request).verify(creds.credentials if creds else None)
    if creds is not None:
        limits.hit(request.app, creds.credentials)  # a known key: one request of its rate
    return info


def tenant(info: Annotated[KeyInfo, Depends(key_info)]) -> str:
    """The tenant every memory call of this request is confined to."""
    if info.tenant is None:
        raise Forbidden("admin keys manage tenants only; use a tenant key to read or write memory")
    return info.tenant


def admin(info: Annotated[KeyInfo, Depends(key_info)]) -> KeyInfo:
    if not info.admin:
        raise Forbidden("this route needs an admin key (pmemo keys create --admin)")
    return info


IdQuery = Annotated[str | None, Query(pattern=ID, max_length=128)]


def owner_scope(
    user_id: IdQuery = None,
    group_id: IdQuery = None,
    agent_id: Annotated[str, Query(pattern=ID, max_length=128)] = "default",
) -> dict[str, Any]:
    """``user_id`` or ``group_id`` (exactly one) and ``agent_id`` from the query string."""
    if (user_id is None) == (group_id is None):
        raise InvalidInput("give exactly one of the query parameters user_id or group_id")
    return {"user_id": user_id, "group_id": group_id, "agent_id": agent_id}


Tenant = Annotated[str, Depends(tenant)]
Admin = Annotated[KeyInfo, Depends(admin)]
Owner = Annotated[dict[str, Any], Depends(owner_scope)]
Mem = Annotated[MemoryAPI, Depends(memory_of)]


def known_query(request: Request) -> None:
    """A query parameter the route does not take is an error (as an unknown body field is),
    not silently ignored: a misspelt ``user_id`` would otherwise read someone else's default."""
    route = request.scope.get("route")
    dependant = getattr(route, "dependant", None)
    if dependant is None:
        return
    allowed: set[str] = set()
    todo = [dependant]
    while todo:  # the route's own query parameters and those of its dependencies
        d = todo.pop()
        allowed.update(p.alias for p in d.query_params)
        todo.extend(d.dependencies)
    repeated = sorted({k for k, _ in request.query_params.multi_items()
                       if len(request.query_params.getlist(k)) > 1})
    if repeated:  # every query parameter takes one value: which of several was meant?
        raise InvalidInput(f"query parameter {repeated[0][:40]!r} is given more than once; give it once")
    unknown = sorted(set(request.query_params) - allowed)
    if unknown:
        names = ", ".join(repr(u[:40]) for u in unknown[:5])
        hint = f"; this route takes {', '.join(sorted(allowed))}" if allowed else "; this route takes none"
        raise InvalidInput(f"unknown query parameter(s) {names}{hint}")

