"""The argument checks every service shares: keyword scopes into a ``Scope``, integer ids, an
owned row of a tenant. A user's mistake is ``InvalidInput`` naming what to fix, a row of
another tenant is ``NotFound``, as if it were not there.

>>> scope_of({"group_id": "study"}).owner
'g:study'
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

from ..errors import InvalidInput, NotFound
from ..models import Scope, check_id

MAX_LIMIT = 1000  # a page of search hits, failed jobs, ...
T = TypeVar("T")

_TURN_FIELDS = {"content", "role", "actor", "actor_id", "timestamp", "metadata", "reply_to"}


def scope_of(kwargs: dict[str, Any], session_id: str | None = None) -> Scope:
    """The scope the keyword arguments name (``user_id``/``group_id``, ``tenant_id``, ``agent_id``);
    a turn's own fields pass (``add`` checks a whole turn with it)."""
    allowed = {"user_id", "group_id", "tenant_id", "agent_id", "session_id"}
    unknown = set(kwargs) - allowed - _TURN_FIELDS
    if unknown:
        raise InvalidInput(f"unknown argument(s): {', '.join(sorted(unknown))}")
    return Scope.of(user_id=kwargs.get("user_id"), group_id=kwargs.get("group_id"),
                    session_id=session_id, tenant_id=kwargs.get("tenant_id", "default"),
                    agent_id=kwargs.get("agent_id", "default"))


def tenant_agent(scope: dict[str, Any]) -> tuple[str, str]:
    """The tenant and agent of keyword arguments that may also name a chat."""
    unknown = set(scope) - {"tenant_id", "agent_id", "group_id", "user_id"}
    if unknown:
        raise InvalidInput(f"unknown argument(s): {', '.join(sorted(unknown))}")
    return (check_id("tenant_id", scope.get("tenant_id", "default")),
            check_id("agent_id", scope.get("agent_id", "default")))


def names_chat(scope: dict[str, Any]) -> bool:
    """Whether the keyword arguments name a group or private chat (else: the whole tenant)."""
    return bool({"group_id", "user_id"} & set(scope))


def int_id(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"{name} must be an integer, got {type(value).__name__}")
    return value


async def owned(getter: Callable[[int], T | None], what: str, ref: int, tenant_id: str) -> T:
    """The row ``getter`` finds for ``ref`` if it is ``tenant_id``'s; else NotFound."""
    found: Any = await asyncio.to_thread(getter, int_id(f"{what} id", ref))
    if found is None or found.scope.tenant_id != tenant_id:
        raise NotFound(f"{what} {ref} does not exist in tenant {tenant_id!r}")
    return found  # type: ignore[no-any-return]
