"""The KeyStore contract (stores/api_keys.py), run on both backends: ``SQLiteKeyStore`` (a file
beside the memory) and ``PostgresKeyStore`` (the database every replica shares).

``opened`` opens the backend at one place each time it is called: two of them are two
processes on the same keys (two server replicas), so what one makes or revokes the other
sees from its next call on.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from pmemo import errors
from pmemo.stores import api_keys
from pmemo.stores.api_keys import KeyStore, hash_key

Open = Callable[..., KeyStore]


@pytest.fixture(params=["sqlite", "postgres"])
def opened(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Open]:
    """``opened(admin_key=None)`` → a key store of this test's backend, at one place."""
    made: list[KeyStore] = []
    if request.param == "postgres":
        from pmemo.stores.postgres.api_keys import PostgresKeyStore

        url = str(request.getfixturevalue("postgres_url"))

        def one(admin_key: str | None = None) -> KeyStore:
            made.append(PostgresKeyStore.open(url, admin_key=admin_key))
            return made[-1]
    else:
        from pmemo.stores.sqlite.api_keys import SQLiteKeyStore

        def one(admin_key: str | None = None) -> KeyStore:
            made.append(SQLiteKeyStore.in_dir(tmp_path, admin_key=admin_key))
            return made[-1]
    yield one
    for store in made:
        store.close()


@pytest.fixture
def keys(opened: Open) -> KeyStore:
    return opened()


def stored(store: KeyStore) -> str:
    """Everything the store keeps, as text: the key file's bytes, or the tables' rows."""
    path = getattr(store, "path", None)
    if path is not None:
        return "".join(p.read_bytes().decode("latin-1") for p in Path(path).parent.glob("keys.sqlite3*"))
    db = store._db  # type: ignore[attr-defined]
    return str(db.rows("SELECT k::text FROM api_keys k")) + str(db.rows("SELECT t::text FROM api_tenants t"))


def test_a_key_verifies_to_its_tenant_and_only_its_hash_is_kept(keys: KeyStore) -> None:
    made = keys.issue_key("acme", label="laptop")
    assert made.key.startswith("pm_") and made.id.startswith("k_") and made.key != made.id
    info = keys.verify(made.key)
    assert (info.tenant, info.admin, info.label, info.id) == ("acme", False, "laptop", made.id)
    assert made.key not in stored(keys) and hash_key(made.key) in stored(keys)
    listed = keys.keys()
    assert made.key not in str(listed) and hash_key(made.key) not in str(listed)
    assert keys.create_key("acme") != keys.create_key("acme")


def test_missing_unknown_and_ill_formed_keys_are_refused(keys: KeyStore) -> None:
    keys.create_key("acme")
    for wrong in (None, "", "pm_" + "x" * 43, "k_000000000000"):
        with pytest.raises(errors.AuthError):
            keys.verify(wrong)


def test_a_key_is_for_one_tenant_or_an_admin_key(keys: KeyStore) -> None:
    admin = keys.verify(keys.create_key(admin=True))
    assert admin.admin and admin.tenant is None and admin.id.startswith("k_")
    with pytest.raises(errors.InvalidInput):
        keys.create_key("acme", admin=True)
    with pytest.raises(errors.InvalidInput):
        keys.create_key()
    with pytest.raises(errors.InvalidInput):
        keys.create_key("bad tenant!")
    assert keys.tenants() == []  # an admin key makes no tenant, a refused one neither


def test_the_admin_key_from_the_environment_is_compared_never_stored(opened: Open) -> None:
    keys = opened(admin_key="s3cret-admin")
    info = keys.verify("s3cret-admin")
    assert info.admin and info.tenant is None and info.label == "env" and info.id == ""
    assert "s3cret-admin" not in stored(keys) and keys.keys() == []
    with pytest.raises(errors.AuthError):
        opened().verify("s3cret-admin")  # a store without it does not know it


def test_tenants_are_listed_with_their_active_keys(keys: KeyStore) -> None:
    keys.create_tenant("zeta")
    keys.create_tenant("zeta")  # once
    first = keys.issue_key("acme")
    keys.create_key("acme")
    keys.create_key(admin=True)
    keys.revoke(first.id)
    listed = keys.tenants()
    assert [(t["tenant"], t["active_keys"]) for t in listed] == [("acme", 1), ("zeta", 0)]
    assert all(datetime.fromisoformat(str(t["created_at"])).utcoffset() == UTC.utcoffset(None) for t in listed)
    with pytest.raises(errors.InvalidInput):
        keys.create_tenant("no spaces")


def test_revoking_a_tenant_revokes_its_keys_and_forgets_it(keys: KeyStore) -> None:
    a1, a2, other = keys.create_key("acme"), keys.create_key("acme"), keys.create_key("beta")
    assert keys.revoke_tenant("acme") == 2
    for gone in (a1, a2):
        with pytest.raises(errors.AuthError):
            keys.verify(gone)
    assert keys.verify(other).tenant == "beta"
    assert [t["tenant"] for t in keys.tenants()] == ["beta"]
    assert {k["tenant"] for k in keys.keys() if k["revoked_at"]} == {"acme"}  # kept, revoked
    assert not keys.has_key("acme") and keys.has_key("beta")
    with pytest.raises(errors.NotFound):
        keys.revoke_tenant("acme")


def test_keys_are_listed_oldest_first_and_revoked_by_id(keys: KeyStore) -> None:
    made = [keys.issue_key("acme", label="one"), keys.issue_key("beta", label="two"),
            keys.issue_key(admin=True, label="ops")]
    listed = keys.keys()
    assert [k["id"] for k in listed] == [m.id for m in made]
    assert set(listed[0]) == {"id", "tenant", "admin", "label", "created_at", "last_used_at", "revoked_at"}
    assert [(k["tenant"], k["admin"], k["label"]) for k in listed] == [
        ("acme", False, "one"), ("beta", False, "two"), (None, True, "ops")]
    assert [k["id"] for k in keys.keys("beta")] == [made[1].id]
    assert keys.keys("nobody") == []

    gone = keys.revoke(made[0].id)
    assert gone["id"] == made[0].id and gone["tenant"] == "acme" and gone["revoked_at"]
    assert datetime.fromisoformat(gone["revoked_at"]) >= datetime.fromisoformat(gone["created_at"])
    with pytest.raises(errors.AuthError):
        keys.verify(made[0].key)
    assert keys.revoke(made[0].id)["revoked_at"] == gone["revoked_at"]  # again: nothing changes
    with pytest.raises(errors.NotFound):
        keys.revoke("k_000000000000")
    assert keys.verify(made[1].key).tenant == "beta"
    long = keys.issue_key("acme", label="x" * 500)
    assert next(k for k in keys.keys() if k["id"] == long.id)["label"] == "x" * 200


def test_a_temporary_key_leaves_nothing_behind(keys: KeyStore) -> None:
    before = (keys.keys(), keys.tenants())
    with keys.temporary_key("acme", label="cli") as key:
        assert keys.verify(key).tenant == "acme" and keys.has_key("acme")
    with pytest.raises(errors.AuthError):
        keys.verify(key)
    assert (keys.keys(), keys.tenants()) == before
    with pytest.raises(RuntimeError), keys.temporary_key("acme") as key:
        raise RuntimeError("the command failed")
    assert (keys.keys(), keys.tenants()) == before
    with pytest.raises(errors.InvalidInput), keys.temporary_key("bad tenant!"):
        pass


def test_last_used_is_noted_at_most_once_a_minute_across_processes(opened: Open,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = opened(), opened()
    key = a.create_key("acme")
    assert a.keys()[0]["last_used_at"] is None
    a.verify(key)
    first = a.keys()[0]["last_used_at"]
    assert first is not None
    for store in (a, b, a):  # b has noted nothing itself, but a did within the minute
        store.verify(key)
    assert b.keys()[0]["last_used_at"] == first
    monkeypatch.setattr(api_keys, "TOUCH_EVERY_S", 0.0)
    b.verify(key)
    assert datetime.fromisoformat(a.keys()[0]["last_used_at"]) > datetime.fromisoformat(first)


def test_two_processes_share_the_keys(opened: Open) -> None:
    """Two server replicas: what one makes or revokes, the other sees at its next call."""
    a, b = opened(), opened()
    made = a.issue_key("acme")
    assert b.verify(made.key).id == made.id
    assert [t["tenant"] for t in b.tenants()] == ["acme"]
    b.revoke(made.id)
    with pytest.raises(errors.AuthError):
        a.verify(made.key)
    admin = b.create_key(admin=True)
    assert a.verify(admin).admin
    assert b.revoke_tenant("acme") == 0 and a.tenants() == []


def test_keys_made_at_once_from_many_threads(opened: Open) -> None:
    a, b = opened(), opened()
    made: list[Any] = []

    def issue(store: KeyStore) -> None:
        for _ in range(10):
            made.append(store.issue_key("acme"))

    threads = [threading.Thread(target=issue, args=(store,)) for store in (a, b, a, b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({m.id for m in made}) == 40
    assert {a.verify(m.key).tenant for m in made} == {"acme"}
    assert a.tenants()[0]["active_keys"] == 40
