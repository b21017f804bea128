"""Admin routes: tenants and their keys. Only an admin key reaches them."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Request

from .deps import Admin, keys_of
from .schemas import ID, KeyCreated, Removed, TenantIn, TenantOut, TenantsOut

router = APIRouter(prefix="/v1/admin", tags=["admin"])


@router.get("/tenants", response_model=TenantsOut)
async def list_tenants(request: Request, _: Admin) -> TenantsOut:
    """Every tenant and how many active keys it has."""
    return TenantsOut(tenants=[TenantOut(**t) for t in keys_of(request).tenants()])  # type: ignore[arg-type]


@router.post("/keys", status_code=201, response_model=KeyCreated)
async def create_key(body: TenantIn, request: Request, _: Admin) -> KeyCreated:
    """A new key for a tenant (the tenant is created if new). The key is shown only here."""
    return KeyCreated(
        tenant=body.tenant, key=keys_of(request).create_key(body.tenant, label=body.label)
    )


@router.delete("/tenants/{tenant}", response_model=Removed)
async def revoke_tenant(
    tenant: Annotated[str, Path(pattern=ID, max_length=128)], request: Request, _: Admin
) -> Removed:
    """Revoke every key of a tenant. Its memory stays until deleted per user."""
    return Removed(removed={"revoked_keys": keys_of(request).revoke_tenant(tenant)})
