"""The store factory: one ``open_store(target, settings)`` that every entry point opens a store with."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

import pmemo
from pmemo import Memory, Settings
from pmemo.errors import InvalidInput
from pmemo.stores import open_store, sqlite_path, target_of
from pmemo.stores.sqlite.store import SQLiteStore

SRC = Path(pmemo.__file__).parent


def test_a_directory_or_a_sqlite_url_opens_sqlite_there(tmp_path: Path):
    for target in (tmp_path / "plain", str(tmp_path / "text"), f"sqlite://{tmp_path}/url"):
        store = open_store(target, Settings())
        assert isinstance(store, SQLiteStore)
        store.close()
    assert all((tmp_path / d / "pmemo.db").exists() for d in ("plain", "text", "url"))
    assert sqlite_path("sqlite:///srv/pmemo") == "/srv/pmemo" and sqlite_path("rel/dir") == "rel/dir"


def test_no_target_opens_the_settings_store_else_their_data_directory(tmp_path: Path):
    data, named = tmp_path / "data", tmp_path / "named"
    for target in (None, ""):
        open_store(target, Settings(data=str(data))).close()
    assert (data / "pmemo.db").exists() and not named.exists()
    settings = Settings(data=str(data), store=f"sqlite://{named}")
    assert target_of(settings) == f"sqlite://{named}"
    open_store(None, settings).close()
    assert (named / "pmemo.db").exists()


def test_the_settings_size_the_sqlite_vector_cache(tmp_path: Path):
    store = open_store(tmp_path, Settings(faiss_min_vectors=123, index_memory_mb=7))
    try:
        assert isinstance(store, SQLiteStore)
        assert store.vector_cache.faiss_min == 123
    finally:
        store.close()


@pytest.mark.parametrize("bad", ["mysql://db/pmemo", "redis://127.0.0.1:6379/0", "file:///srv/pmemo"])
def test_an_unknown_scheme_names_the_forms_accepted(bad: str):
    with pytest.raises(InvalidInput) as caught:
        open_store(bad, Settings())
    message = str(caught.value)
    assert bad in message
    assert "directory" in message and "sqlite:///" in message and "postgresql://" in message


def test_a_sqlite_url_without_a_directory_says_how_to_name_one():
    with pytest.raises(InvalidInput, match=r"sqlite:///path/to/dir"):
        open_store("sqlite://", Settings())


def test_a_postgres_url_opens_postgres_under_either_scheme(postgres_url: str):
    from pmemo.stores.postgres.store import PostgresStore

    assert postgres_url.startswith("postgresql://")
    for url in (postgres_url, "postgres://" + postgres_url.removeprefix("postgresql://")):
        store = open_store(url, Settings())
        try:
            assert isinstance(store, PostgresStore) and store.stats()["turns"] == 0
        finally:
            store.close()


def test_memory_opens_the_store_the_settings_name(tmp_path: Path):
    async def run() -> None:
        settings = Settings(data=str(tmp_path / "unused"), store=f"sqlite://{tmp_path}/named", run_jobs=False)
        mem = await Memory.open(settings=settings, embedder="hashing")
        await mem.close()

    asyncio.run(run())
    assert (tmp_path / "named" / "pmemo.db").exists() and not (tmp_path / "unused").exists()


def test_only_the_factory_opens_a_backend():
    """Every entry point goes through open_store: no module outside stores/ names a backend class."""
    backend = re.compile(r"\b(SQLiteStore|PostgresStore)\b|stores\.(sqlite|postgres)\.store\b")
    offenders = [str(p.relative_to(SRC)) for p in SRC.rglob("*.py")
                 if "stores" not in p.relative_to(SRC).parts[:1] and backend.search(p.read_text("utf-8"))]
    assert offenders == []
