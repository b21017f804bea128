"""The read plan of a context (issue 45 §4): its sections are built before their turns are read
and filled after, in the scaffolding's language even when the recalled lines tip it; and a
context writes nothing, not even an embedding-cache row for a key line it embeds."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta, timezone
from pathlib import Path

from pmemo import Settings, SyncMemory
from pmemo.models import Hit

T0 = datetime(2026, 12, 1, 9, 0, tzinfo=timezone(timedelta(hours=8)))
# English lines, and a rename notice full of Chinese: the notice ranks among the best candidates
# (the sections are built in the language their words give, Chinese), but is no line of a context
# (the context is written in English): the sections are built again, in English
LINES = [("ni", "Neko", "Neko here, I work at Tencent and I am allergic to peanuts"),
         ("ni", "Neko", "周霓 修改群名片为 霓霓今天也要开开心心地学习工作生活每一天都快乐"),
         ("wt", "Tao", "hiking on Saturday with Neko")]


def _open(where: Path) -> SyncMemory:
    m = SyncMemory.open(where, settings=Settings(data=str(where)), embedder="hashing")
    for i, (who, name, text) in enumerate(LINES):
        m.add(group_id="g", actor_id=who, actor=name, content=text, timestamp=T0 + timedelta(minutes=i))
    m.drain()
    return m


def _filled(items: tuple[Hit, ...]) -> bool:
    """Every source of every item is a turn read (a stand-in has no words and no session)."""
    return all(t.content and t.scope.tenant_id != "\x00pending" for h in items for t in h.sources)


def test_the_sections_follow_the_language_the_recalled_lines_tip(tmp_path: Path) -> None:
    with _open(tmp_path) as m:
        pack = m.context("霓霓 Neko?", group_id="g", asker="wt")
        assert pack.text.startswith("## People\n- Neko (last spoke here 2026-12-01")  # English, not 最近发言
        assert "## Current input" in pack.text
        facts = {h.text: [t.content for t in h.sources] for h in pack.items if h.kind == "fact"}
        assert facts["Neko works at Tencent"] == [LINES[0][2]]
        assert _filled(pack.items)


def test_every_item_has_its_turns(tmp_path: Path) -> None:
    with _open(tmp_path) as m:
        m.add_key("Neko's birthday is in May", group_id="g")
        m.drain()
        for query in ("where does Neko work?", "hiking", "霓霓"):
            pack = m.context(query, group_id="g", asker="ni", recent=["Tao: see you Saturday"])
            assert pack.items and _filled(pack.items)
            hits = m.search(query, group_id="g")
            assert hits and _filled(tuple(hits))


def test_a_context_writes_no_embedding_cache_row(tmp_path: Path) -> None:
    with _open(tmp_path) as m:
        m.add_key("Neko's birthday is in May", group_id="g")  # embedded by the first read that ranks it
        m.drain()
        db = sqlite3.connect(tmp_path / "pmemo.db")
        before = db.execute("SELECT COUNT(*) FROM embed_cache").fetchone()[0]
        pack = m.context("when is Neko's birthday?", group_id="g")
        assert any(h.kind == "key" for h in pack.items)
        assert db.execute("SELECT COUNT(*) FROM embed_cache").fetchone()[0] == before
        db.close()
