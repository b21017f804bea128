"""The library end to end on each store: the same calls and the same assertions on SQLite (a
data directory) and on PostgreSQL (an empty schema of the test server, ``PMEMO_STORE``-style
URL), so a behaviour that holds on one and not the other shows here.

Each test covers several operations: a Postgres memory costs ~0.5 s to set up (a schema,
its migrations), so the module stays at a handful of them.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import pytest

from pmemo import NotFound, Settings, SyncMemory

T0 = datetime(2024, 12, 20, 9, 0, tzinfo=timezone(timedelta(hours=8)))
TOPICS = [
    "项目总预算不能超过10万元人民币，这是老板定的硬上限。",
    "The launch date is Monday April 15, confirmed by the whole team.",
    "Lucky cannot eat grapes or chocolate, they are poisonous for dogs.",
    "去杭州出差是3月20日到22日，住在西湖边的酒店。",
    "The payment service double-charges users when the WeChat callback times out.",
    "后端岗位决定录用小陈，月薪两万五，三月底入职。",
]
BACKENDS = ["sqlite", "postgres"]


def where(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """What ``Memory.open`` is given: a data directory, or a postgresql:// URL (as PMEMO_STORE)."""
    if backend == "postgres":
        return str(request.getfixturevalue("postgres_url"))
    return str(tmp_path / "data")


@pytest.fixture(params=BACKENDS)
def bm(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SyncMemory]:
    """A memory on each backend: small tiers (overflow, clusters and summaries in a few turns),
    a diary in Shanghai time. The Postgres one is opened through the ``store`` setting, and
    leaves the ``data`` directory alone (SQLite is given its directory)."""
    settings = Settings(short_term_turns=2, summary_every=4, diary_tz="Asia/Shanghai", data=str(tmp_path / "unused"))
    target = where(request.param, request, tmp_path)
    if request.param == "postgres":
        m = SyncMemory.open(settings=settings.replace(store=target), embedder="hashing")
    else:
        m = SyncMemory.open(target, settings=settings, embedder="hashing")
    yield m
    m.close()
    assert not Path(settings.data).exists()  # a store in the database: no data directory made


def say(m: SyncMemory, group: str, who: str, name: str, text: str, minutes: int) -> None:
    m.add(group_id=group, session_id=f"{group}-chat", actor_id=who, actor=name, content=text,
          timestamp=T0 + timedelta(minutes=minutes))


def test_write_search_context_and_stats(bm: SyncMemory) -> None:
    turns = bm.add_many([{"user_id": "u1", "session_id": "s1", "content": c, "actor": "Louis",
                          "timestamp": T0 + timedelta(minutes=i), "metadata": {"msg_id": str(i)}}
                         for i, c in enumerate(TOPICS)])
    one = bm.add(user_id="u1", session_id="s2", content="预算讨论在第二个会话里", timestamp=T0 + timedelta(hours=1))
    bm.add(user_id="u2", session_id="s1", content="项目预算 another user's secret")
    assert [t.step for t in turns] == list(range(1, 7)) and one.step == 1
    assert turns[0].metadata == {"msg_id": "0"} and turns[0].actor == "Louis"
    assert bm.pending() > 0
    bm.drain()
    assert bm.pending() == 0
    hits = bm.search("预算上限是多少", user_id="u1")
    assert hits[0].text == TOPICS[0] and hits[0].sources == (turns[0],)
    assert "secret" not in " ".join(h.text for h in bm.search("项目预算", user_id="u1", limit=50))
    assert bm.search("grapes chocolate dog", user_id="u1", limit=3)[0].sources[0].id == turns[2].id
    only = bm.search("预算", user_id="u1", session_id="s2")
    assert {t.id for h in only if h.kind == "turn" for t in h.sources} == {one.id}
    pack = bm.context("Lucky 能吃葡萄吗？", user_id="u1", session_id="s1", budget_tokens=300)
    assert pack.tokens <= 300 and pack.items[-1].tier == "input" and "secret" not in pack.text
    # overflow past short_term_turns=2 made clusters; every 4 turns a summary
    assert bm.clusters(user_id="u1") and [(s.step_from, s.step_to) for s in bm.summaries(user_id="u1")] == [(1, 4)]
    assert [s["turns"] for s in bm.sessions(user_id="u1")] in ([6, 1], [1, 6])
    assert bm.owners() == ["u:u1", "u:u2"]
    bm.drain()  # the reads above queued jobs that count what they recalled
    counts = bm.stats()
    assert counts["turns"] == 8 and counts["pending_jobs"] == 0 and counts["owners"] == 2


def test_people_profile_graph_and_diary(bm: SyncMemory) -> None:
    say(bm, "study", "ni", "周霓", "大家好，叫我霓霓就行。我在腾讯上班，我家猫叫年糕", 0)
    say(bm, "study", "wt", "许文涛", "霓霓是我同学，我在字节工作。我不吃香菜", 1)
    say(bm, "study", "ni", "周霓", "我对花生过敏", 2)
    say(bm, "work", "ni", "周霓", "我是四川人", 3)  # another group: never in study's views
    bm.drain()
    assert {f.key for f in bm.profile("ni", group_id="study")} >= {"allergy:花生"}
    assert "home_city" not in {f.key for f in bm.profile("ni", group_id="study")}
    assert {f.subject_id for f in bm.profile(group_id="study")} == {"ni", "wt"}
    assert [m.person_ids for m in bm.resolve_people("你认识霓霓吗", group_id="study")] == [("ni",)]
    assert {m.person.id for m in bm.people(group_id="study")} == {"ni", "wt"}
    triples = {(t.subject, t.predicate, t.object) for t in bm.triples(group_id="study")}
    assert {("ni", "works_at", "腾讯"), ("ni", "has_pet", "年糕"), ("wt", "works_at", "字节")} <= triples
    two = bm.graph("年糕", hops=2, group_id="study")
    assert ("ni", "classmate_of", "wt") in {(t.subject, t.predicate, t.object) for t in two.triples}
    with pytest.raises(NotFound):
        bm.graph("年糕", group_id="work")
    pack = bm.context("你认识霓霓吗？她对什么过敏？", group_id="study", asker="wt", at=T0 + timedelta(days=1))
    assert "周霓对花生过敏" in pack.text and "四川" not in pack.text
    entry = bm.write_diary("2024-12-20", group_id="study")
    assert entry.day == date(2024, 12, 20) and "年糕" in entry.text
    assert bm.diary("2024-12-20", group_id="study").text == entry.text
    assert [d.day for d in bm.diaries(group_id="study")] == [date(2024, 12, 20)]
    with pytest.raises(NotFound):
        bm.diary("2024-12-21", group_id="study")


def test_forget_restore_and_key_lines(bm: SyncMemory) -> None:
    turns = bm.add_many([{"user_id": "u1", "session_id": "s1", "content": c, "timestamp": T0 + timedelta(minutes=i)}
                         for i, c in enumerate(TOPICS)])
    bm.drain()
    key = bm.add_key("预算上限已上调到13万元", user_id="u1")
    pack = bm.context("completely unrelated question about weather", user_id="u1", session_id="s1")
    assert pack.items[0].id == f"key:{key.id}"
    report = bm.forget([turns[2].id])
    assert not any("grapes" in h.text for h in bm.search("grapes chocolate dog", user_id="u1"))
    with pytest.raises(NotFound):
        bm.get_turn(turns[2].id)
    assert bm.forget_log(batch=report["batch"])
    bm.restore(report["batch"])
    bm.drain()
    assert bm.get_turn(turns[2].id) == turns[2]
    assert bm.search("grapes chocolate dog", user_id="u1")[0].sources[0].id == turns[2].id
    bm.delete_turn(turns[0].id)
    with pytest.raises(NotFound):
        bm.get_turn(turns[0].id)
    assert bm.stats()["turns"] == 5
