-- Tenants and API keys (api_keys.py), in the database every server replica shares, so that a
-- key made through one replica is known to all. Only a key's sha256 is kept; `id` is its public
-- name (k_…), by which it is listed and revoked. Admin keys have no tenant. A tenant is not a
-- foreign key of its keys: revoking a tenant forgets the tenant and keeps its revoked keys.
CREATE TABLE api_tenants(
    id text COLLATE "C" PRIMARY KEY,
    created_at timestamptz NOT NULL
);
CREATE TABLE api_keys(
    hash text PRIMARY KEY,
    id text COLLATE "C" NOT NULL UNIQUE,
    tenant text COLLATE "C",
    admin boolean NOT NULL DEFAULT false,
    label text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL,
    last_used_at timestamptz,
    revoked_at timestamptz
);
CREATE INDEX api_keys_tenant ON api_keys(tenant);
