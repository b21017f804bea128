"""A hard forget on PostgreSQL leaves no copy of the text in any table (issue 21).

A DELETE only marks a row dead: its tuple stays in the table's pages, readable with
``pageinspect``, until a VACUUM removes it. After a hard forget (``scrub()`` vacuums the tables
it deleted from) no tuple of any table of the store, live or dead, holds the forgotten words,
and the vacuumed tables hold no dead tuple (``pgstattuple`` reads the pages, not statistics).

What this does not show, and docs/ARCHITECTURE.md's "Forgetting" says: the bytes of a removed tuple
may stay in the page's free space until a later row overwrites them, in the WAL until it is
recycled, in backups; and a GIN index (the lexical one) keeps a word as a key, pointing at no
row, until it is rebuilt."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlparse

import psycopg
import pytest

from pmemo import Memory, Settings
from pmemo.stores.postgres.forget import SCRUBBED

SECRET = "hunter2xyzzy"
U = {"tenant_id": "t", "user_id": "u", "session_id": "s"}


def schema_of(url: str) -> str:
    options = parse_qs(urlparse(url).query)["options"][0]  # -csearch_path=<schema>,public
    return options.split("=", 1)[1].split(",")[0]


def inspect(server: str) -> None:
    with psycopg.connect(server, autocommit=True) as conn:
        for name in ("pageinspect", "pgstattuple"):
            try:
                conn.execute(f"CREATE EXTENSION IF NOT EXISTS {name} SCHEMA public")
            except psycopg.Error as exc:
                pytest.skip(f"this server has no {name}: {exc}")


def tuples_with(conn: psycopg.Connection, schema: str, needle: bytes) -> list[str]:
    """Every table (and TOAST table) of ``schema`` with a tuple, live or dead, holding ``needle``."""
    tables = [r[0] for r in conn.execute(
        "SELECT c.oid::regclass::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
        " WHERE c.relkind IN ('r', 't') AND (n.nspname = %s OR c.oid IN (SELECT reltoastrelid FROM pg_class k"
        " JOIN pg_namespace m ON m.oid = k.relnamespace WHERE m.nspname = %s))", (schema, schema))]
    found = []
    for table in tables:
        blocks = conn.execute("SELECT pg_relation_size(%s::regclass) / current_setting('block_size')::int",
                              (table,)).fetchone()[0]
        for block in range(blocks):
            hit = conn.execute("SELECT count(*) FROM public.heap_page_items(public.get_raw_page(%s, %s))"
                               " WHERE position(%s in t_data) > 0", (table, block, needle)).fetchone()[0]
            if hit:
                found.append(table)
                break
    return found


async def test_a_hard_forget_leaves_no_tuple_with_the_words(postgres_server: str, postgres_url: str,
                                                             tmp_path: Path):
    inspect(postgres_server)
    schema = schema_of(postgres_url)
    mem = await Memory.open(postgres_url, embedder="hashing", settings=Settings(data=str(tmp_path)))
    try:
        kept = await mem.add(content="the launch is on Monday", role="user", **U)
        secret = await mem.add(content=f"my password is {SECRET}", role="user", **U)
        await mem.add(content="and the budget is fixed", role="user", **U)
        await mem.drain(timeout=60)
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            assert tuples_with(conn, schema, SECRET.encode())  # the check sees it while it is there
        await mem.forget([secret.id], hard=True, tenant_id="t")
        assert not [h for h in await mem.search(SECRET, **U) if SECRET in h.text]
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            assert tuples_with(conn, schema, SECRET.encode()) == []
            for table in SCRUBBED:
                dead = conn.execute("SELECT dead_tuple_count FROM public.pgstattuple(%s)", (table,)).fetchone()
                assert dead == (0,), table
        assert (await mem.get_turn(kept.id, tenant_id="t")).content == "the launch is on Monday"
    finally:
        await mem.close()


async def test_a_hard_forget_of_a_person_leaves_no_tuple_naming_them(postgres_server: str, postgres_url: str,
                                                                     tmp_path: Path):
    """Issue 44 §7: their id, their words and the names they went by, in no tuple of any table."""
    inspect(postgres_server)
    schema = schema_of(postgres_url)
    person, words = "zhou_ni_secret", "xyzzycat"
    mem = await Memory.open(postgres_url, embedder="hashing", settings=Settings(data=str(tmp_path)))
    try:
        said = {"tenant_id": "t", "group_id": "g", "session_id": "s"}
        await mem.add_person(person, name="Ni Xyzzy", aliases=["Nixy"], tenant_id="t", group_id="g")
        await mem.add(content=f"my cat is called {words}", actor_id=person, actor="Ni Xyzzy", **said)
        await mem.add(content="the budget is fixed", actor_id="wt", actor="Wt", **said)
        await mem.drain(timeout=60)
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            assert tuples_with(conn, schema, person.encode())
        await mem.forget(person_id=person, hard=True, tenant_id="t")
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            for needle in (person, words, "Nixy", "Ni Xyzzy"):
                assert tuples_with(conn, schema, needle.encode()) == [], needle
        assert [t.actor_id for t in await mem.turns(**{k: v for k, v in said.items() if k != "session_id"})] == ["wt"]
    finally:
        await mem.close()
