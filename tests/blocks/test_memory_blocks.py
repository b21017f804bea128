"""Memory blocks through ``Memory`` on real files and a real SQLite store: first and whole in
every context (key lines too), the MemGPT layout, the agent's edits written back safely, and
the groups' derived ``human`` blocks."""

from __future__ import annotations

import asyncio
import stat
import threading
import time
from collections.abc import AsyncIterator, Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from pmemo import Conflict, Forbidden, InvalidInput, Memory, NotFound, Settings
from pmemo.blocks.derive import path_of

T0 = datetime(2026, 9, 1, 20, 0, tzinfo=timezone(timedelta(hours=8)))
PERSONA = ("---\n# who the agent is\nlabel: persona\ndescription: Who I am\nlimit: 400\n---\n\n"
           "I am Momo, a study buddy.\n")
NOTES = ("---\nlabel: notes\ndescription: What to remember\nread_only: false\nlimit: 120\ntenant: t1\n"
         "group: study\n---\n")
EVERYONE = "---\nlabel: rules\ntenant: '*'\nread_only: false\n---\nNever share one group's talk in another.\n"


async def wait_for(check: Callable[[], Any], timeout: float = 10.0) -> Any:
    end = time.monotonic() + timeout
    while not (found := await check()):
        assert time.monotonic() < end, "not seen in time"
        await asyncio.sleep(0.02)
    return found


@pytest.fixture
def blocks_dir(tmp_path: Path) -> Path:
    root = tmp_path / "blocks"
    root.mkdir()
    (root / "persona.md").write_text(PERSONA, "utf-8")
    (root / "notes.md").write_text(NOTES + "Ni likes tea.\n", "utf-8")
    (root / "rules.md").write_text(EVERYONE, "utf-8")
    return root


@pytest.fixture
async def mem(tmp_path: Path, blocks_dir: Path) -> AsyncIterator[Memory]:
    m = await Memory.open(tmp_path / "data", embedder="hashing", blocks_dir=blocks_dir)
    yield m
    await m.close()


T1 = {"tenant_id": "t1", "group_id": "study"}


async def test_blocks_lists_what_a_chat_sees(mem: Memory) -> None:
    # persona.md is the default tenant's: t1 sees its own notes and the rules for every tenant
    assert [b.label for b in await mem.blocks(**T1)] == ["notes", "rules"]
    assert [b.label for b in await mem.blocks(group_id="study")] == ["persona", "rules"]
    assert [b.label for b in await mem.blocks(tenant_id="t2", group_id="study")] == ["rules"]
    assert [b.label for b in await mem.blocks(tenant_id="t1", user_id="ann")] == ["rules"]
    with pytest.raises(InvalidInput, match="at most one of group_id or user_id"):
        await mem.blocks(group_id="g", user_id="u")


async def test_blocks_come_first_and_whole_whatever_the_budget(mem: Memory, blocks_dir: Path) -> None:
    long = "Ni " + "likes tea and cake. " * 5
    (blocks_dir / "notes.md").write_text(NOTES + long + "\n", "utf-8")
    await wait_for(lambda: _value(mem, "notes", long.strip()))
    await mem.add_many([{**T1, "session_id": "s", "actor_id": "ni", "content": f"message {i} about the exam"}
                        for i in range(30)])
    await mem.drain()
    for budget in (120, 400, 2000):
        pack = await mem.context("when is the exam?", session_id="s", budget_tokens=budget, **T1)
        assert pack.items[0].id == "block:notes" and pack.items[1].id == "block:rules"
        assert pack.text.startswith("## Core memory\n### notes\n" + long.strip())
        assert not pack.over_budget and pack.tokens <= budget
    small = await mem.context("when is the exam?", session_id="s", budget_tokens=120, **T1)
    large = await mem.context("when is the exam?", session_id="s", budget_tokens=2000, **T1)
    assert len(small.items) < len(large.items)  # the other sections shrank around the blocks


async def test_blocks_alone_over_the_budget_are_still_whole_and_the_pack_says_so(mem: Memory,
                                                                                  blocks_dir: Path) -> None:
    (blocks_dir / "notes.md").write_text(NOTES.replace("limit: 120", "limit: 4000") + "tea " * 400 + "\n", "utf-8")
    await wait_for(lambda: _value(mem, "notes", ("tea " * 400).strip()))
    pack = await mem.context("hello", budget_tokens=100, **T1)
    assert pack.over_budget and pack.tokens > pack.budget == 100
    assert "over the budget of 100" in pack.note
    assert [h.id for h in pack.items] == ["block:notes", "block:rules"]  # nothing else, not even the input
    assert ("tea " * 400).strip() in pack.text


async def test_key_lines_are_always_whole_at_a_small_budget(tmp_path: Path) -> None:
    # before issue 20 the key section had 10% of the budget: at 300 tokens the third line was dropped
    m = await Memory.open(tmp_path / "data", embedder="hashing")
    try:
        lines = ["Louis prefers answers in Chinese, short and to the point.",
                 "The project budget must never exceed 100,000 yuan in total.",
                 "Deadline for the first release is the end of March 2026."]
        for text in lines:
            await m.add_key(text, user_id="u1")
        await m.add_many([{"user_id": "u1", "session_id": "s", "content": f"turn {i} about budgets and deadlines"}
                          for i in range(40)])
        await m.drain()
        pack = await m.context("what is the budget?", session_id="s", budget_tokens=300, user_id="u1")
        assert [h.text for h in pack.items if h.tier == "key"] == lines
        assert pack.tokens <= 300 and not pack.over_budget
    finally:
        await m.close()


async def test_memgpt_format(mem: Memory) -> None:
    pack = await mem.context("hi", format="memgpt", **T1)
    assert pack.text.startswith("<memory_blocks>\nThe following memory blocks are currently engaged")
    assert "<notes>\n<description>\nWhat to remember\n</description>\n<metadata>\n- chars_current=13\n" in pack.text
    assert "<rules>\n<description>\n\n</description>\n<metadata>\n- read_only=true\n" in pack.text  # every tenant's
    assert "</memory_blocks>\n\n## Current input\nhi" in pack.text
    assert (await mem.context("hi", **T1)).text.startswith("## Core memory\n### notes\nNi likes tea.")
    with pytest.raises(InvalidInput, match="format must be one of 'markdown', 'memgpt'"):
        await mem.context("hi", format="xml", **T1)


async def test_append_and_replace_write_the_file_back(mem: Memory, blocks_dir: Path) -> None:
    path = blocks_dir / "notes.md"
    path.chmod(0o640)
    before = (await mem.blocks(**T1))[0]
    after = await mem.core_memory_append("notes", "Wt works at Tencent.", **T1)
    assert after.value == "Ni likes tea.\nWt works at Tencent." and after.version != before.version
    assert path.read_text("utf-8") == NOTES + "Ni likes tea.\nWt works at Tencent.\n"  # front matter untouched
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert not [p for p in blocks_dir.iterdir() if p.name.startswith(".")]  # no temporary file left
    again = await mem.core_memory_replace("notes", "Tencent", "Alibaba", version=after.version, **T1)
    assert again.value.endswith("Wt works at Alibaba.")
    pack = await mem.context("where does wt work?", **T1)
    assert "Wt works at Alibaba." in pack.text  # the next context has it, no reload needed


async def test_refusals_leave_the_file_alone(mem: Memory, blocks_dir: Path) -> None:
    files = {p.name: p.read_bytes() for p in blocks_dir.iterdir()}
    with pytest.raises(Forbidden, match=r"block 'persona' is read-only: set `read_only: false` in persona.md"):
        await mem.core_memory_append("persona", "x", group_id="study")
    with pytest.raises(Forbidden, match=r"block 'rules' \(rules.md\) is for every tenant"):
        await mem.core_memory_append("rules", "x", **T1)
    with pytest.raises(InvalidInput, match=r"would be 1\d\d characters, over its limit of 120 \(`limit` in notes.md\)"):
        await mem.core_memory_append("notes", "y" * 120, **T1)
    with pytest.raises(InvalidInput, match="does not occur"):
        await mem.core_memory_replace("notes", "coffee", "tea", **T1)
    with pytest.raises(NotFound, match="no block labelled 'diary' here; the blocks here are: notes, rules"):
        await mem.core_memory_append("diary", "x", **T1)
    with pytest.raises(NotFound):  # another tenant's block is not there at all
        await mem.core_memory_append("notes", "x", tenant_id="t2", group_id="study")
    with pytest.raises(InvalidInput, match="label 'a b' is invalid"):
        await mem.core_memory_append("a b", "x", **T1)
    assert {p.name: p.read_bytes() for p in blocks_dir.iterdir()} == files


async def test_a_stale_version_is_a_conflict_and_changes_nothing(mem: Memory, blocks_dir: Path) -> None:
    read = (await mem.blocks(**T1))[0]
    (blocks_dir / "notes.md").write_text(NOTES + "Ni likes green tea.\n", "utf-8")  # a person edits the file
    on_disk = (blocks_dir / "notes.md").read_bytes()
    with pytest.raises(Conflict, match=f"changed since version {read.version}") as caught:
        await mem.core_memory_replace("notes", "tea", "coffee", version=read.version, **T1)
    assert (blocks_dir / "notes.md").read_bytes() == on_disk
    current = caught.value.current_version
    assert current != read.version
    done = await mem.core_memory_replace("notes", "green tea", "coffee", version=current, **T1)
    assert done.value == "Ni likes coffee."
    # without a version the change goes onto the latest text, whoever wrote it
    (blocks_dir / "notes.md").write_text(NOTES + "Ni likes coffee.\nHe is tall.\n", "utf-8")
    assert (await mem.core_memory_replace("notes", "tall", "short", **T1)).value == "Ni likes coffee.\nHe is short."


async def test_eight_concurrent_appends_are_all_kept(mem: Memory, blocks_dir: Path) -> None:
    await asyncio.gather(*(mem.core_memory_append("notes", f"fact {i}", **T1) for i in range(8)))
    text = (blocks_dir / "notes.md").read_text("utf-8")
    assert text.startswith(NOTES)
    assert sorted(text[len(NOTES):].split("\n")[1:-1]) == [f"fact {i}" for i in range(8)]
    assert len((await mem.blocks(**T1))[0].value.splitlines()) == 9


async def test_an_edit_to_a_file_is_in_the_next_context(mem: Memory, blocks_dir: Path) -> None:
    (blocks_dir / "persona.md").write_text(PERSONA.replace("a study buddy", "a night owl"), "utf-8")
    started = time.monotonic()
    await wait_for(lambda: _contains(mem, "a night owl"))
    print(f"live after {(time.monotonic() - started) * 1000:.0f} ms")
    (blocks_dir / "persona.md").write_text("---\nlabel: [broken\n---\nI am Momo.\n", "utf-8")
    await wait_for(lambda: _broken(mem))
    pack = await mem.context("hi", group_id="study")
    assert "block:persona" not in [h.id for h in pack.items] and "rules" in pack.text  # others work on


async def test_close_stops_the_watcher(tmp_path: Path, blocks_dir: Path) -> None:
    m = await Memory.open(tmp_path / "data", embedder="hashing", blocks_dir=blocks_dir)
    assert any(t.name == "pmemo-blocks" for t in threading.enumerate())
    await m.close()
    assert not any(t.name == "pmemo-blocks" for t in threading.enumerate())


async def test_without_a_folder_there_are_no_blocks(tmp_path: Path) -> None:
    m = await Memory.open(tmp_path / "data", embedder="hashing")
    try:
        assert await m.blocks(group_id="g") == []
        with pytest.raises(NotFound, match="blocks_dir"):
            await m.core_memory_append("notes", "x", group_id="g")
    finally:
        await m.close()


async def _value(mem: Memory, label: str, value: str) -> bool:
    return any(b.label == label and b.value == value for b in await mem.blocks(**T1))


async def _contains(mem: Memory, text: str) -> bool:
    return text in (await mem.context("hi", group_id="study")).text


async def _broken(mem: Memory) -> bool:
    return any(b.label == "persona" and b.problem for b in await mem.blocks(group_id="study"))


def _say(group: str, who: str, name: str, text: str, minutes: int) -> dict[str, Any]:
    return {"tenant_id": "t1", "group_id": group, "session_id": f"{group}-chat", "actor_id": who, "actor": name,
            "content": text, "timestamp": T0 + timedelta(minutes=minutes)}


async def test_derived_human_blocks_follow_each_group_and_never_mix_them(tmp_path: Path) -> None:
    root = tmp_path / "blocks"
    m = await Memory.open(tmp_path / "data", embedder="hashing", blocks_dir=root,
                          settings=Settings(blocks_derive_human=True))
    try:
        turns = await m.add_many([_say("work", "ni", "周霓", "我对花生过敏", 0),
                                  _say("study", "ni", "周霓", "我住在杭州", 1),
                                  _say("study", "wt", "许文涛", "我在云杉科技工作", 2)])
        await m.drain()
        work, study = path_of(root, "t1", "default", "work"), path_of(root, "t1", "default", "study")
        assert "花生" in work.read_text("utf-8") and "杭州" not in work.read_text("utf-8")
        text = study.read_text("utf-8")
        assert "周霓住在杭州" in text and "许文涛在云杉科技工作" in text and "花生" not in text
        assert stat.S_IMODE(study.stat().st_mode) == 0o600  # what people said: private
        block = next(b for b in await m.blocks(tenant_id="t1", group_id="study") if b.label == "human")
        assert (block.read_only, block.group, block.tenant) == (True, "study", "t1")
        assert block.path == f"derived/{study.name}"
        assert "许文涛在云杉科技工作" in (await m.context("谁在云杉科技？", tenant_id="t1", group_id="study")).text
        assert await m.blocks(tenant_id="t2", group_id="study") == []  # another tenant sees none of it
        with pytest.raises(Forbidden, match="read-only"):
            await m.core_memory_append("human", "x", tenant_id="t1", group_id="study")
        # a new fact rewrites the block; forgetting the turn behind a fact takes it out again
        await m.add(**_say("study", "ni", "周霓", "我对猫过敏", 3))
        await m.drain()
        assert "周霓对猫过敏" in study.read_text("utf-8")
        await m.forget([turns[1].id], tenant_id="t1")
        await m.drain()
        assert "杭州" not in study.read_text("utf-8") and "周霓对猫过敏" in study.read_text("utf-8")
        assert "杭州" not in (await m.context("住在哪里", tenant_id="t1", group_id="study")).text
    finally:
        await m.close()


def test_a_burst_of_fact_changes_queues_one_job_per_group(tmp_path: Path) -> None:
    from pmemo.blocks.model import HUMAN_JOB
    from pmemo.models import Candidate, Scope
    from pmemo.pipelines.extraction import upsert
    from pmemo.stores.sqlite.store import SQLiteStore

    store = SQLiteStore.open(tmp_path / "data")
    try:
        store.jobs.queue_on_fact_change(HUMAN_JOB)
        settings = Settings()
        for group in ("a", "b"):
            for n in range(5):
                upsert(store.profile, Scope("t1", "default", f"g:{group}"), Candidate("fact", f"k{n}", "v", 0.9,
                       subject="ni"), None, time.time(), settings)
        upsert(store.profile, Scope("t1", "default", "u:ann"), Candidate("fact", "k", "v", 0.9), None, time.time(),
               settings)  # a private chat's fact: no group block
        jobs = [j for j in store.jobs.claim(100) if j.kind == HUMAN_JOB]
        assert sorted(j.payload["owner"] for j in jobs) == ["g:a", "g:b"]
        # claimed (running), the next change queues one again: what it changes is read by then
        upsert(store.profile, Scope("t1", "default", "g:a"), Candidate("fact", "k9", "v", 0.9, subject="ni"), None,
               time.time(), settings)
        assert [j.payload["owner"] for j in store.jobs.claim(100) if j.kind == HUMAN_JOB] == ["g:a"]
    finally:
        store.close()
