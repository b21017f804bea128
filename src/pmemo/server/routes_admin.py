"""Admin routes: tenants and their keys. Only an admin key reaches them.

Plain ``def`` routes: FastAPI runs them in its thread pool, off the event loop, since the key
store may answer over the network (PostgreSQL)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request

from ..schemas import (
    ID,
    ApiKeyOut,
    ApiKeysOut,
    KeyCreated,
    Problem,
    Removed,
    TenantIn,
    TenantOut,
    TenantsOut,
)
from .deps import Admin, keys_of

router = APIRouter(prefix="/v1/admin", tags=["admin"])

IdPath = Annotated[str, Path(pattern=ID, max_length=128)]
NOT_ADMIN: dict[int | str, dict[str, Any]] = {403: {"model": Problem, "description": "not an admin key"}}


@router.get("/tenants", response_model=TenantsOut, responses=NOT_ADMIN)
def list_tenants(request: Request, _: Admin) -> TenantsOut:
    """Every tenant and how many active keys it has."""
    return TenantsOut(tenants=[TenantOut(**t) for t in keys_of(request).tenants()])  # type: ignore[arg-type]


@router.post("/keys", status_code=201, response_model=KeyCreated, responses=NOT_ADMIN)
def create_key(body: TenantIn, request: Request, _: Admin) -> KeyCreated:
    """A new key for a tenant (the tenant is created if new). The key is shown only here;
    its ``id`` lists and revokes it."""
    made = keys_of(request).issue_key(body.tenant, label=body.label)
    return KeyCreated(tenant=body.tenant, key=made.key, id=made.id)


@router.get("/keys", response_model=ApiKeysOut, responses=NOT_ADMIN)
def list_keys(
    request: Request,
    _: Admin,
    tenant: Annotated[str | None, Query(pattern=ID, max_length=128)] = None,
) -> ApiKeysOut:
    """Every key (or one tenant's), revoked ones too: id, tenant, created, last used, revoked.
    Never the key itself."""
    return ApiKeysOut(keys=[ApiKeyOut(**k) for k in keys_of(request).keys(tenant)])


@router.delete(
    "/keys/{key_id}",
    response_model=ApiKeyOut,
    responses={**NOT_ADMIN, 404: {"model": Problem, "description": "no key has this id"}},
)
def revoke_key(key_id: IdPath, request: Request, _: Admin) -> ApiKeyOut:
    """Revoke one key by its id: the next request with it, REST or MCP, gets 401."""
    return ApiKeyOut(**keys_of(request).revoke(key_id))


@router.delete(
    "/tenants/{tenant}",
    response_model=Removed,
    responses={**NOT_ADMIN, 404: {"model": Problem, "description": "no such tenant"}},
)
def revoke_tenant(tenant: IdPath, request: Request, _: Admin) -> Removed:
    """Revoke every key of a tenant. Its memory stays until deleted per user."""
    return Removed(removed={"revoked_keys": keys_of(request).revoke_tenant(tenant)})
