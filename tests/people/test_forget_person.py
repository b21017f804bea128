"""Forgetting a person through the library (issue 44 §7), on SQLite and on PostgreSQL.

``forget(person_id=...)`` takes what they said and everything about them: afterwards nothing of
theirs is in search, the context (People section included), other people's profiles, the graph,
a diary digest or the alias resolver; ``restore`` brings all of it back as it was; a hard
forget leaves no row that names them or holds their words. ``group_id`` limits it to one chat.
Other people's messages stay theirs, naming her or not."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from pmemo import InvalidInput, NotFound, Settings, SyncMemory

T0 = datetime(2026, 12, 1, 20, 0, tzinfo=timezone(timedelta(hours=8)))
DAY = "2026-12-01"
NI = "zhou_ni"  # an id no other text holds, so a row naming her is found by it
HERS = ("腾讯", "年糕", "考研", "香菜")  # words only she said


def say(m: SyncMemory, group: str, who: str, name: str, text: str, minutes: int, **extra: Any) -> Any:
    return m.add(group_id=group, session_id=f"{group}-chat", actor_id=who, actor=name, content=text,
                 timestamp=T0 + timedelta(minutes=minutes), **extra)


@pytest.fixture(params=["sqlite", "postgres"])
def pm(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SyncMemory]:
    settings = Settings(diary_tz="Asia/Shanghai", data=str(tmp_path / "data"))
    if request.param == "postgres":
        m = SyncMemory.open(settings=settings.replace(store=str(request.getfixturevalue("postgres_url"))),
                            embedder="hashing")
    else:
        m = SyncMemory.open(tmp_path / "data", settings=settings, embedder="hashing")
    yield m
    m.close()


def chats(m: SyncMemory) -> None:
    """周霓 in a study group and a work group; 许文涛 and 高峰 talk to her and about her."""
    say(m, "study", NI, "周霓", "大家好，叫我霓霓就行。我在腾讯上班，我家猫叫年糕", 0)
    say(m, "study", "wt", "许文涛", "霓霓是我同学，我在字节工作", 1)
    say(m, "study", NI, "周霓", "12月23日考研，紧张", 2)
    say(m, "study", "wt", "许文涛", "周霓对花生过敏，聚餐别点花生", 3)
    say(m, "study", "gf", "高峰", "介绍下，周霓就是小霓", 4)
    say(m, "study", "wt", "许文涛", "@霓霓 我家猫叫豆豆", 5, metadata={"mentions": [NI]})
    say(m, "work", NI, "周霓", "我不吃香菜", 6)
    m.add(group_id="work", session_id="work-chat", role="system", content="周霓 修改群名片为 霓宝",  # a notice
          metadata={"kind": "rename", "person": NI}, timestamp=T0 + timedelta(minutes=7))
    m.drain()


def section(text: str, name: str) -> str:
    """One section of a context's text ("People": from its header to the next)."""
    parts = text.split("## ")
    return next((p for p in parts if p.startswith(name)), "")


def everything(m: SyncMemory) -> dict[str, Any]:
    """What a restore must bring back, as the library shows it."""
    return {
        "person": m.person(NI), "members": [x.person.id for x in m.people(group_id="study")],
        "profile": m.profile(NI, history=True), "wt": m.profile("wt", history=True),
        "triples": m.triples(group_id="study", history=True) + m.triples(group_id="work", history=True),
        "agenda": m.agenda(group_id="study"), "turns": m.turns(group_id="study") + m.turns(group_id="work"),
        "names": m.resolve_people("霓霓、小霓和周霓在吗", group_id="study"),
        "diary": m.diary(DAY, group_id="study").text,
    }


def test_forgetting_a_person_everywhere_leaves_nothing_of_theirs_and_restore_brings_it_back(pm: SyncMemory):
    chats(pm)
    pm.write_diary(DAY, group_id="study")
    assert "年糕" in pm.diary(DAY, group_id="study").text
    before = everything(pm)
    assert before["names"] and any(f.key == "allergy:花生" for f in before["profile"])  # said by 许文涛
    assert any(e.person_id == NI for e in pm.graph("wt", hops=2, group_id="study").nodes)  # 霓霓是我同学
    assert any(NI in f.mentioned for f in before["wt"])  # "@霓霓 我家猫叫豆豆"

    dry = pm.forget(person_id=NI, dry_run=True)
    assert dry["dry_run"] and len(dry["turns"]) == 4 and dry["record"] and "小霓" in dry["aliases"]
    assert pm.person(NI) == before["person"]  # a dry run changes nothing
    report = pm.forget(person_id=NI)
    assert report["mode"] == "soft" and len(report["turns"]) == 4 and report["record"]  # the notice too
    assert report["memberships"] == ["g:study", "g:work"] and {"霓霓", "小霓", "周霓"} <= set(report["aliases"])

    with pytest.raises(NotFound, match=NI):
        pm.person(NI)
    assert NI not in [x.person.id for x in pm.people(group_id="study")]
    assert pm.profile(NI) == [] and all(NI not in f.mentioned for f in pm.profile("wt", history=True))
    assert pm.resolve_people("霓霓、小霓和周霓在吗", group_id="study") == []
    for hit in pm.search("霓霓 腾讯 年糕 考研 花生", group_id="study", limit=50):
        assert not any(w in hit.text for w in HERS) and all(t.actor_id != NI for t in hit.sources)
    pack = pm.context("你认识霓霓吗？周霓对什么过敏来着", group_id="study", asker="wt")
    assert all(item.id != f"person:{NI}" for item in pack.items)
    assert "周霓" not in section(pack.text, "People") and not any(w in pack.text for w in HERS)
    assert all(NI not in (t.subject, t.object) for t in pm.triples(group_id="study", history=True))
    with pytest.raises(NotFound):
        pm.graph(NI, group_id="study")
    around = pm.graph("wt", hops=2, group_id="study")  # a neighbour's graph no longer reaches her
    assert all(e.person_id != NI for e in around.nodes) and all(NI not in (t.subject, t.object) for t in around.triples)
    assert all(i.person_id != NI for i in pm.agenda(group_id="study"))
    digest = pm.diary(DAY, group_id="study").text
    assert "周霓（" not in digest and not any(w in digest for w in HERS)
    with pytest.raises(NotFound, match=NI):  # nothing left to forget: the person is unknown
        pm.forget(person_id=NI)

    restored = pm.restore(report["batch"])
    assert restored["people"] == [NI] and sorted(restored["turns"]) == report["turns"]
    pm.drain()
    assert everything(pm) == before


def test_forgetting_a_person_in_one_chat_keeps_them_elsewhere(pm: SyncMemory):
    chats(pm)
    before = everything(pm)
    report = pm.forget(person_id=NI, group_id="study")
    assert len(report["turns"]) == 2 and not report["record"] and report["memberships"] == ["g:study"]
    assert sorted(report["aliases"]) == ["小霓", "霓霓"]  # the nicknames learned there

    assert pm.profile(NI, group_id="study") == [] and pm.agenda(NI, group_id="study") == []
    assert [f.key for f in pm.profile(NI, group_id="work")] == ["diet:香菜"]
    assert NI not in [x.person.id for x in pm.people(group_id="study")]
    assert NI in [x.person.id for x in pm.people(group_id="work")]
    assert {a.alias for a in pm.person(NI).aliases if a.source != "generated"} == {"周霓", "霓宝"}
    # the nicknames said there name nobody (a form generated from her name is §6's to settle)
    assert [m for m in pm.resolve_people("霓霓和小霓在吗", group_id="study") if m.source != "generated"] == []
    assert all(NI not in (t.subject, t.object) for t in pm.triples(group_id="study", history=True))
    assert [t.object for t in pm.triples(NI, group_id="work")] == ["香菜"]
    pack = pm.context("周霓对什么过敏", group_id="study")
    assert not any(w in pack.text for w in HERS) and "last spoke here" not in section(pack.text, "People")

    pm.restore(report["batch"])
    pm.drain()
    assert everything(pm) == before


@pytest.mark.parametrize("how", ["hard", "purged"])
def test_a_hard_forget_leaves_no_row_naming_them(pm: SyncMemory, how: str):
    chats(pm)
    pm.write_diary(DAY, group_id="study")
    report = pm.forget(person_id=NI, hard=how == "hard")
    if how == "purged":  # a soft forget made permanent later is as if it had been hard
        pm.purge(report["batch"])
    assert report["mode"] == ("hard" if how == "hard" else "soft")
    with pytest.raises(NotFound):
        pm.person(NI)
    store: Any = pm._memory._store
    if not hasattr(store, "_db"):  # SQLite: freed pages are zeroed, so not even the file holds them
        blob = b"".join(p.read_bytes() for p in store.path.parent.iterdir() if p.name.startswith("pmemo.db"))
        assert [w for w in (NI, *HERS) if w.encode() in blob] == []
    for table, rows in dump(store):
        for row in rows:
            hers = [v for v in row if NI in v or any(w in v for w in HERS)]
            assert not hers, f"{table} still holds {hers}"
            # other people's messages stay theirs, with her name in them (and in what is made of them)
            named = [v for v in row if "周霓" in v]
            assert not named or table.startswith(("turns", "diaries")) and "周霓（" not in " ".join(named), (
                f"{table} still names her: {named}")


def test_errors_name_what_to_fix(pm: SyncMemory):
    chats(pm)
    with pytest.raises(NotFound, match="nobody"):
        pm.forget(person_id="nobody")
    with pytest.raises(NotFound, match=NI):
        pm.forget(person_id=NI, tenant_id="other")  # another tenant's person is not found
    with pytest.raises(InvalidInput, match="person_id"):
        pm.forget(person_id="not valid!")
    with pytest.raises(InvalidInput, match="one of"):
        pm.forget([1], person_id=NI)


def dump(store: Any) -> Iterator[tuple[str, list[tuple[str, ...]]]]:
    """Every table's rows as text, on either backend (bytes decoded where they are text)."""
    if hasattr(store, "_db"):
        names = [r[0] for r in store._db.rows("SELECT table_name FROM information_schema.tables"
                                              " WHERE table_schema = current_schema() AND table_type='BASE TABLE'")]
        for name in sorted(names):
            yield name, [tuple(str(v) for v in r) for r in store._db.rows(f"SELECT * FROM {name}")]
        return
    conn = store._read
    for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name").fetchall():
        rows = conn.execute(f"SELECT * FROM {name}").fetchall()
        yield name, [tuple(v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v) for v in r)
                     for r in rows]
