"""Admin: tenants and their keys."""

from __future__ import annotations

from pydantic import BaseModel, Field

from .common import Strict, _id


class TenantIn(Strict):
    tenant: str = _id(examples=["acme"])
    label: str = Field("", max_length=200)


class KeyCreated(BaseModel):
    tenant: str
    key: str = Field(description="Shown once; only its hash is stored.")
    id: str = Field(description="The key's public id: list and revoke the key by this.")


class ApiKeyOut(BaseModel):
    """An API key as listed: never the key itself."""

    id: str = Field(examples=["k_3f9a0c1b2d4e"])
    tenant: str | None = Field(description="None for an admin key.")
    admin: bool
    label: str
    created_at: str
    last_used_at: str | None = Field(description="Updated at most once a minute per key.")
    revoked_at: str | None


class ApiKeysOut(BaseModel):
    keys: list[ApiKeyOut]


class TenantOut(BaseModel):
    tenant: str
    created_at: str
    active_keys: int


class TenantsOut(BaseModel):
    tenants: list[TenantOut]
