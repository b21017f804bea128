"""Shared fixtures for the core suites: a fast memory on the hashing embedder, the sample."""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

# a PostgreSQL server with pgvector for the tests that ask for one (tests/pg.py)
from pg import postgres_server, postgres_url  # noqa: F401
from pmemo import Settings, SyncMemory


def sample_turns() -> list[dict[str, Any]]:
    """The shipped bilingual sample conversation, as ``add_many`` items."""
    text = resources.files("pmemo").joinpath("data/sample_conversation.jsonl").read_text("utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def sample_questions() -> list[dict[str, Any]]:
    text = resources.files("pmemo").joinpath("data/sample_questions.json").read_text("utf-8")
    return json.loads(text)


@pytest.fixture(scope="session")
def sample() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(turns, questions) of the shipped sample."""
    return sample_turns(), sample_questions()


@pytest.fixture
def mem(tmp_path: Path) -> Iterator[SyncMemory]:
    """A SyncMemory on the hashing embedder with the default settings."""
    m = SyncMemory.open(tmp_path / "data", embedder="hashing")
    yield m
    m.close()


@pytest.fixture
def small_settings() -> Settings:
    """Small windows so overflow, clustering, summaries and promotion happen in a few turns."""
    return Settings(short_term_turns=2, summary_every=4, promote_hits=2, budget_tokens=2000)


# Property tests run on a shared, loaded machine: no per-example deadline.
from hypothesis import HealthCheck  # noqa: E402
from hypothesis import settings as hypothesis_settings  # noqa: E402

hypothesis_settings.register_profile(
    "pmemo", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
hypothesis_settings.load_profile("pmemo")
