"""Tenants and API keys, and the ``pmemo keys`` / ``pmemo serve`` commands."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pmemo import errors
from pmemo.cli.main import _register, app
from pmemo.server.keys import SQLiteKeyStore, hash_key


def test_only_the_hash_is_stored(tmp_path: Path) -> None:
    store = SQLiteKeyStore.in_dir(tmp_path)
    key = store.create_key("acme")
    store.close()
    raw = (tmp_path / "keys.sqlite3").read_bytes()
    assert key.encode() not in raw
    rows = sqlite3.connect(tmp_path / "keys.sqlite3").execute("SELECT hash FROM keys").fetchall()
    assert rows == [(hash_key(key),)]


def test_verify_and_revoke(tmp_path: Path) -> None:
    store = SQLiteKeyStore.in_dir(tmp_path)
    a1, a2 = store.create_key("acme"), store.create_key("acme")
    assert a1 != a2 and store.verify(a1).tenant == "acme" and not store.verify(a1).admin
    with pytest.raises(errors.AuthError):
        store.verify(None)
    with pytest.raises(errors.AuthError):
        store.verify("pm_" + "x" * 43)
    assert store.revoke_tenant("acme") == 2
    with pytest.raises(errors.AuthError):
        store.verify(a2)
    with pytest.raises(errors.NotFound):
        store.revoke_tenant("acme")
    with pytest.raises(errors.InvalidInput):
        store.create_key("bad tenant!")
    with pytest.raises(errors.InvalidInput):
        store.create_key("acme", admin=True)


def test_admin_key_from_environment(tmp_path: Path) -> None:
    store = SQLiteKeyStore.in_dir(tmp_path, admin_key="s3cret-admin")
    info = store.verify("s3cret-admin")
    assert info.admin and info.tenant is None
    assert b"s3cret-admin" not in (tmp_path / "keys.sqlite3").read_bytes()


def test_cli_keys_create_prints_key_last(tmp_path: Path) -> None:
    _register()
    runner = CliRunner()
    r = runner.invoke(app, ["keys", "create", "--tenant", "acme", "--data", str(tmp_path)])
    assert r.exit_code == 0, r.output
    key = r.output.strip().splitlines()[-1]
    assert SQLiteKeyStore.in_dir(tmp_path).verify(key).tenant == "acme"
    r = runner.invoke(app, ["keys", "create", "--admin", "--data", str(tmp_path)])
    assert SQLiteKeyStore.in_dir(tmp_path).verify(r.output.strip().splitlines()[-1]).admin
    r = runner.invoke(app, ["keys", "list", "--data", str(tmp_path)])
    assert "acme" in r.output
    r = runner.invoke(app, ["keys", "create", "--data", str(tmp_path)])
    assert r.exit_code == 2


def test_cli_data_defaults_to_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _register()
    monkeypatch.setenv("PMEMO_DATA", str(tmp_path / "envdata"))
    r = CliRunner().invoke(app, ["keys", "create", "--tenant", "acme"])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "envdata" / "keys.sqlite3").is_file()


async def test_demo_is_loaded_once(tmp_path: Path) -> None:
    from pmemo import Memory
    from pmemo.cli.serve_cmd import ensure_demo, sample_turns

    memory = await Memory.open(str(tmp_path / "m"), embedder="hashing")
    store = SQLiteKeyStore.in_dir(tmp_path)
    try:
        key = await ensure_demo(memory, store, tmp_path)
        assert key is not None and store.verify(key).tenant == "demo"
        turns = await memory.turns(tenant_id="demo", user_id="demo", limit=1000)
        assert len(turns) == len(sample_turns())
        assert await ensure_demo(memory, store, tmp_path) is None  # a restart shows no key
        assert len(await memory.turns(tenant_id="demo", user_id="demo", limit=1000)) == len(turns)
        assert store.verify(key).tenant == "demo"  # but the key printed once still works
        fresh = await ensure_demo(memory, store, tmp_path, fresh=True)
        assert fresh and fresh != key and store.verify(fresh).tenant == "demo"
        with pytest.raises(errors.AuthError):
            store.verify(key)
        store.revoke(store.verify(fresh).id)
        assert await ensure_demo(memory, store, tmp_path) is None  # a revocation stands
        assert len(await memory.turns(tenant_id="demo", user_id="demo", limit=1000)) == len(turns)
    finally:
        await memory.close()
        store.close()
