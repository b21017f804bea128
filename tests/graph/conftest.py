"""Group chats for the graph tests: real SQLite, the hashing embedder, no LLM unless given."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from pmemo import Settings, SyncMemory

T0 = datetime(2026, 9, 1, 20, 0, tzinfo=timezone(timedelta(hours=8)))


def say(m: SyncMemory, group: str, who: str, name: str, text: str, minutes: float = 0, **extra: Any) -> Any:
    """``who`` (display name ``name``) says ``text`` in ``group``, ``minutes`` after T0."""
    return m.add(group_id=group, session_id=f"{group}-chat", actor_id=who, actor=name, content=text,
                 timestamp=T0 + timedelta(minutes=minutes), **extra)


def open_mem(path: Path, llm: Any = None, **settings: Any) -> SyncMemory:
    return SyncMemory.open(path, embedder="hashing", llm=llm, settings=Settings(**settings))


@pytest.fixture
def gm(tmp_path: Path) -> Iterator[SyncMemory]:
    m = open_mem(tmp_path / "data")
    yield m
    m.close()
