"""Real IM messages end to end on each store (issue 44 §2): the same chat — no session ids, a
rename notice, "[图片]", a quoted reply, an answer that is only "@提问的人 …", a role — and the same
assertions on SQLite and on PostgreSQL (an empty schema of the test server)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from pmemo import Settings, SyncMemory

T0 = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)
WHO = {"ni": "周霓", "wl": "王磊", "lq": "李琴", "cy": "陈宇"}


@pytest.fixture(params=["sqlite", "postgres"])
def bm(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SyncMemory]:
    settings = Settings(data=str(tmp_path / "data"))
    if request.param == "postgres":
        m = SyncMemory.open(settings=settings.replace(store=str(request.getfixturevalue("postgres_url"))),
                            embedder="hashing")
    else:
        m = SyncMemory.open(settings.data, settings=settings, embedder="hashing")
    yield m
    m.close()


def test_a_real_group_chat(bm: SyncMemory) -> None:
    lines: list[tuple[str | None, str]] = [
        ("ni", "大家好，我是班长，有事找我"), ("wl", "周末谁能帮我搬家？从五道口搬到回龙观"),
        ("lq", "[图片]"), ("cy", "今晚打球吗"), ("lq", "打，七点"),
        ("ni", "@王磊 我可以，周六上午有空"), ("cy", "「王磊：周末谁能帮我搬家？从五道口搬到回龙观」我也能来"),
        (None, "周霓 修改群名片为 霓霓-备考中"),
    ]
    turns = bm.add_many([{"group_id": "g", "actor_id": pid, "actor": WHO.get(pid or ""), "content": text,
                          "role": "user" if pid else "system",
                          "timestamp": (T0 + timedelta(minutes=n)).isoformat()} for n, (pid, text) in enumerate(lines)])
    assert len({t.session_id for t in turns}) == 1 and turns[0].session_id.startswith("auto-")
    assert turns[5].reply_to == turns[1].id and turns[6].reply_to == turns[1].id
    bm.drain()
    assert bm.person("ni").name == "霓霓-备考中"
    assert [m.person_ids for m in bm.resolve_people("班长说明天不上课", group_id="g") if m.alias == "班长"] == [("ni",)]
    hits = [h.text for h in bm.search("搬家谁能帮忙", group_id="g", limit=5)]
    assert "@王磊 我可以，周六上午有空" in hits and "[图片]" not in hits
    pack = bm.context("搬家", group_id="g", session_id=turns[0].session_id, budget_tokens=1000)
    assert "周六上午有空" in pack.text and "[图片]" not in pack.text and "修改群名片" not in pack.text
