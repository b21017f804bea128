"""Each step of what turns teach is its own retried job (issue 45 §3), on SQLite and PostgreSQL.

A step made to fail (people and names, facts, agenda, graph, episodes) loses no turn: the step
is queued as an ``enrich.<step>`` job, tried again with backoff, listed as failed after the
last try with its error, and once the fault is gone ``retry_jobs`` (``pmemo jobs retry``)
learns what it had not. A step that fails once is simply learned on its second try.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pmemo import Settings, SyncMemory
from pmemo.cli.main import _register, app
from pmemo.pipelines import enrich
from pmemo.pipelines.worker import MAX_ATTEMPTS
from pmemo.stores import base

T0 = datetime(2026, 12, 1, 20, 0, tzinfo=timezone(timedelta(hours=8)))
NI, WT = "zhou_ni", "xu_wentao"
STUDY = {"group_id": "study"}


def chat(m: SyncMemory) -> None:
    """Two sessions of a study group: 周霓's nickname, her work, her exam; a second session
    (its first turn closes the first as an episode)."""
    lines = [("s1", NI, "周霓", "大家好，叫我霓霓就行。我在腾讯上班"),
             ("s1", WT, "许文涛", "霓霓加油"),
             ("s1", NI, "周霓", "我12月23日考研，最近压力好大"),
             ("s2", WT, "许文涛", "第二天了，大家复习得怎么样")]
    for minutes, (session, who, name, text) in enumerate(lines):
        m.add(group_id="study", session_id=session, actor_id=who, actor=name, content=text,
              timestamp=T0 + timedelta(days=minutes // 3, minutes=minutes))
    m.drain()


LEARNED: dict[str, Callable[[SyncMemory], bool]] = {
    "people": lambda m: any(NI in x.person_ids and x.alias == "霓霓" for x in m.resolve_people("霓霓加油", **STUDY)),
    "facts": lambda m: any("腾讯" in f.value for f in m.profile(NI, **STUDY)),
    "agenda": lambda m: any("考研" in i.what for i in m.agenda(NI, **STUDY)),
    "graph": lambda m: bool(m.triples(**STUDY)),
    "episodes": lambda m: bool(m.episodes(**STUDY)),
}


@pytest.fixture(params=["sqlite", "postgres"])
def pm(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[SyncMemory]:
    monkeypatch.setattr(base, "BACKOFF_BASE_S", 0.01)  # the backoff's shape, not its seconds
    settings = Settings(diary_tz="Asia/Shanghai", data=str(tmp_path / "data"))
    if request.param == "postgres":
        m = SyncMemory.open(settings=settings.replace(store=str(request.getfixturevalue("postgres_url"))),
                            embedder="hashing")
    else:
        m = SyncMemory.open(tmp_path / "data", settings=settings, embedder="hashing")
    yield m
    m.close()


def breaking(monkeypatch: pytest.MonkeyPatch, step: str, times: float) -> list[int]:
    """Make ``step`` raise on its next ``times`` runs; the list counts the runs."""
    runs: list[int] = []
    name = "episodes" if step == enrich.EPISODES else None
    real: Any = enrich.episodes if name else enrich.STEPS[step]

    def flaky(*args: Any) -> None:
        runs.append(1)
        if len(runs) <= times:
            raise RuntimeError(f"{step} is broken")
        real(*args)

    if name:
        monkeypatch.setattr(enrich, name, flaky)
    else:
        monkeypatch.setitem(enrich.STEPS, step, flaky)
    return runs


@pytest.mark.parametrize("step", enrich.JOB_STEPS)
def test_a_failing_step_is_retried_listed_and_rerun(pm: SyncMemory, monkeypatch: pytest.MonkeyPatch,
                                                    step: str) -> None:
    runs = breaking(monkeypatch, step, float("inf"))
    chat(pm)
    assert len(pm.turns(session_id="s1", **STUDY)) == 3  # the turns are intact
    assert pm.search("腾讯", **STUDY)[0].text.endswith("我在腾讯上班")
    assert not LEARNED[step](pm)
    failed = [j for j in pm.failed_jobs() if j["kind"] == f"enrich.{step}"]
    assert failed and all(j["attempts"] == MAX_ATTEMPTS and f"{step} is broken" in j["error"] for j in failed)
    assert len(runs) >= 1 + MAX_ATTEMPTS  # in the turn job, then each try of its own
    if step == "people":  # what needs the names waited for them
        assert not LEARNED["facts"](pm) and not LEARNED["graph"](pm)
    elif step == "agenda":  # what does not need the failed step went on
        assert LEARNED["facts"](pm) and LEARNED["graph"](pm)

    monkeypatch.undo()  # the fault is gone
    assert pm.retry_jobs() == len(failed)
    pm.drain()
    assert pm.failed_jobs() == []
    assert {k: learned(pm) for k, learned in LEARNED.items()} == dict.fromkeys(LEARNED, True)


def test_a_step_that_fails_once_is_learned_on_its_second_try(pm: SyncMemory, monkeypatch: pytest.MonkeyPatch) -> None:
    breaking(monkeypatch, "facts", 1)
    chat(pm)
    assert pm.failed_jobs() == []
    assert {k: learned(pm) for k, learned in LEARNED.items()} == dict.fromkeys(LEARNED, True)


def test_pmemo_jobs_lists_and_retries(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(base, "BACKOFF_BASE_S", 0.01)
    data = tmp_path / "data"
    breaking(monkeypatch, "facts", float("inf"))
    with SyncMemory.open(data, embedder="hashing") as m:
        chat(m)
    _register()
    args = ["--data", str(data), "--embedder", "hashing"]
    listed = CliRunner().invoke(app, ["jobs", "failed", "--json", *args])
    assert listed.exit_code == 0, listed.output
    [job] = json.loads(listed.output)
    assert job["kind"] == "enrich.facts" and "facts is broken" in job["error"]
    monkeypatch.undo()
    retried = CliRunner().invoke(app, ["jobs", "retry", *args])
    assert retried.exit_code == 0, retried.output
    assert "queued 1 failed job(s) again" in retried.output and "0 failed again" in retried.output
    with SyncMemory.open(data, embedder="hashing") as m:
        assert LEARNED["facts"](m) and m.failed_jobs() == []
