"""Episodes (session end, compaction, ranking) and task working memory."""

from __future__ import annotations

from pathlib import Path

import pytest

from pmemo import Settings, SyncMemory
from pmemo.errors import Conflict, InvalidInput


@pytest.fixture
def mem(tmp_path: Path):
    m = SyncMemory.open(tmp_path / "d", embedder="hashing")
    yield m
    m.close()


def test_a_new_session_closes_the_previous_one_as_an_episode(mem: SyncMemory) -> None:
    mem.add(
        user_id="u",
        session_id="s1",
        content="Please help me plan the Yunnan trip.",
        timestamp="2024-01-01T10:00:00",
    )
    mem.add(
        user_id="u",
        session_id="s1",
        content="We decided to go in April, budget 8000.",
        timestamp="2024-01-01T10:05:00",
    )
    mem.drain()
    assert mem.episodes(user_id="u") == []
    mem.add(user_id="u", session_id="s2", content="Hi again.", timestamp="2024-02-01T10:00:00")
    mem.drain()
    (ep,) = mem.episodes(user_id="u")
    assert (
        ep.kind == "session"
        and ep.scope.session_id == "s1"
        and (ep.step_from, ep.step_to) == (1, 2)
    )
    assert ep.summary and "Yunnan" in ep.topics and ep.actions and ep.outcomes
    assert len(ep.source_ids) == 2
    assert mem.end_session("s2", user_id="u").scope.session_id == "s2"
    assert mem.end_session("s2", user_id="u") is None  # nothing new since


def test_episode_ranking_uses_similarity_recency_importance(mem: SyncMemory, tmp_path: Path) -> None:
    for n, (sid, text) in enumerate(
        [
            ("a", "Fixing the payment bug in checkout."),
            ("b", "Planning a birthday party for Mei."),
            ("c", "Chatting about the weather."),
        ]
    ):
        mem.add(user_id="u", session_id=sid, content=text, timestamp=f"2024-01-0{n + 1}T10:00:00")
        mem.drain()
        mem.end_session(sid, user_id="u")
    best = mem.episodes("payment bug checkout", user_id="u", limit=1)
    assert best[0].scope.session_id == "a"
    # an offline episode restates its turns: where the context shows them all, they stand for it
    ctx = mem.context("payment bug", user_id="u", budget_tokens=2000)
    assert "## Past episodes and tasks" not in ctx.text and "Fixing the payment bug" in ctx.text
    for n in range(60):  # a long session: a context of 1,500 tokens shows only some of its turns
        mem.add(user_id="u", session_id="d", timestamp=f"2024-01-05T10:{n:02d}:00",
                content=f"Step {n} of the payment bug fix: the checkout service logged request {n} twice,"
                        " so we traced the retry path through the gateway and the order queue.")
    mem.drain()
    mem.end_session("d", user_id="u")
    # the relevant lines only (the default): the steps are one routine line with a new number each
    # time, shown once, the rest far below the best; an episode restating only them goes with them
    ctx = mem.context("payment bug", user_id="u", budget_tokens=1500)
    assert "Fixing the payment bug" in ctx.text and "## Past episodes and tasks" not in ctx.text
    mem.close()
    with SyncMemory.open(tmp_path / "d", embedder="hashing", settings=Settings(context_fill="budget")) as full:
        ctx = full.context("payment bug", user_id="u", budget_tokens=1500)  # its episode fits the 5 % share
    assert "## Past episodes and tasks" in ctx.text
    assert [h.text for h in ctx.items if h.tier == "episodic"][0].startswith("[2024-01-05]")  # session d's


def test_task_working_memory_and_archive(mem: SyncMemory) -> None:
    task = mem.task_start(
        "Book train tickets", steps=["pick a date", "pay"], user_id="u", session_id="s1"
    )
    assert task.status == "running" and [s.status for s in task.steps] == ["pending", "pending"]
    task = mem.task_update(task.id, step=0, status="done", result="April 2", version=task.version)
    with pytest.raises(Conflict):
        mem.task_update(task.id, scratchpad="stale", version=task.version - 1)
    task = mem.task_update(
        task.id, step=1, status="failed", error="card declined", scratchpad="try another card"
    )
    ctx = mem.context("train tickets", user_id="u", session_id="s1")
    assert "Task in progress: Book train tickets" in ctx.text and "card declined" in ctx.text
    with pytest.raises(InvalidInput):
        mem.task_update(task.id, step=9, status="done")
    ep = mem.task_finish(
        task.id,
        status="failed",
        outcome="no tickets",
        lessons=["check card limits first"],
        feedback="remind me earlier next time",
    )
    assert ep.kind == "task" and ep.importance == 0.9
    assert "check card limits first" in ep.lessons and any("card declined" in x for x in ep.lessons)
    assert mem.tasks(user_id="u", status="running") == []
    assert "Task in progress" not in mem.context("train tickets", user_id="u", session_id="s1").text
    with pytest.raises(InvalidInput):
        mem.task_finish(task.id)


def test_compaction_folds_the_oldest_turns(tmp_path: Path) -> None:
    settings = Settings(compact_budget_tokens=60, summary_every=100)
    with SyncMemory.open(tmp_path / "d", settings=settings, embedder="hashing") as m:
        for i in range(12):
            m.add(
                user_id="u",
                session_id="s",
                content=f"Message number {i} about the quarterly report draft.",
                timestamp=f"2024-01-01T10:{i:02d}:00",
            )
        m.drain()
        eps = [e for e in m.episodes(user_id="u") if e.kind == "compaction"]
        assert eps and eps[0].step_from == 1
        summaries = m.summaries(user_id="u")
        assert summaries and summaries[0].step_from == 1
        assert all(e.step_to < 12 for e in eps)
