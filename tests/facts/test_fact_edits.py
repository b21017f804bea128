"""A fact corrected or deleted by hand (issue 19: the inspector's operator), and the timeline
filtered by speaker: ``update_fact``, ``delete_fact``, ``fact`` and ``turns(actor_id=, actor=)``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pmemo import SyncMemory
from pmemo.errors import Conflict, InvalidInput, NotFound


@pytest.fixture
def mem(tmp_path: Path) -> Iterator[SyncMemory]:
    with SyncMemory.open(tmp_path, embedder="hashing") as m:
        yield m


def _extracted(mem: SyncMemory, text: str = "我在腾讯工作", tenant: str = "t1") -> tuple[int, object]:
    turn = mem.add(user_id="u1", session_id="s1", content=text, tenant_id=tenant)
    mem.drain()
    facts = [f for f in mem.profile(user_id="u1", tenant_id=tenant) if turn.id in f.sources]
    assert len(facts) == 1, facts
    return turn.id, facts[0]


def test_update_fact_keeps_the_id_and_the_old_value_in_history(mem: SyncMemory) -> None:
    turn_id, fact = _extracted(mem)
    assert fact.source == "explicit" and fact.value == "腾讯"
    new = mem.update_fact(fact.id, " 字节跳动 ", version=fact.version, tenant_id="t1")
    assert (new.id, new.value, new.source, new.version) == (fact.id, "字节跳动", "edited", fact.version + 1)
    assert new.sources == (turn_id,)  # still where it came from
    assert [f.value for f in mem.profile(user_id="u1", tenant_id="t1")] == ["字节跳动"]
    history = [f for f in mem.profile(user_id="u1", tenant_id="t1", history=True) if f.key == fact.key]
    old = next(f for f in history if f.id != fact.id)
    assert (old.value, old.status, old.sources) == ("腾讯", "superseded", (turn_id,))
    assert old.valid_to is not None
    assert mem.fact(fact.id, tenant_id="t1").value == "字节跳动"


def test_update_fact_with_a_stale_version_changes_nothing(mem: SyncMemory) -> None:
    _, fact = _extracted(mem)
    mem.update_fact(fact.id, "字节跳动", tenant_id="t1")  # no version: any
    with pytest.raises(Conflict) as err:
        mem.update_fact(fact.id, "阿里", version=fact.version, tenant_id="t1")
    assert err.value.current_version == fact.version + 1
    assert mem.fact(fact.id, tenant_id="t1").value == "字节跳动"


def test_update_fact_refuses_history_other_tenants_and_empty_values(mem: SyncMemory) -> None:
    _, fact = _extracted(mem)
    mem.update_fact(fact.id, "字节跳动", tenant_id="t1")
    old = next(f for f in mem.profile(user_id="u1", tenant_id="t1", history=True) if f.status == "superseded")
    with pytest.raises(InvalidInput, match="history"):
        mem.update_fact(old.id, "阿里", tenant_id="t1")
    with pytest.raises(NotFound):
        mem.update_fact(fact.id, "阿里", tenant_id="t2")
    with pytest.raises(NotFound):
        mem.fact(fact.id, tenant_id="t2")
    with pytest.raises(InvalidInput, match="non-empty"):
        mem.update_fact(fact.id, "  ", tenant_id="t1")
    assert mem.fact(fact.id, tenant_id="t1").value == "字节跳动"


def test_delete_fact_is_soft_and_restorable(mem: SyncMemory) -> None:
    turn_id, fact = _extracted(mem)
    out = mem.delete_fact(fact.id, tenant_id="t1")
    assert out["mode"] == "soft" and out["facts"] == {fact.id: "deleted"} and out["batch"]
    assert mem.profile(user_id="u1", tenant_id="t1", history=True) == []
    assert [t.id for t in mem.turns(user_id="u1", tenant_id="t1")] == [turn_id]  # the turn stays
    log = mem.forget_log(batch=out["batch"], tenant_id="t1")
    assert [(r["kind"], r["ref"], r["batch_mode"], r["batch_status"]) for r in log] == [
        ("fact", fact.id, "soft", "active")]
    with pytest.raises(NotFound):
        mem.restore(out["batch"], tenant_id="t2")
    back = mem.restore(out["batch"], tenant_id="t1")
    assert back["facts"] == [fact.id]
    again = mem.fact(fact.id, tenant_id="t1")
    assert (again.value, again.sources, again.status) == ("腾讯", (turn_id,), "current")
    assert {r["batch_status"] for r in mem.forget_log(batch=out["batch"], tenant_id="t1")} == {"restored"}


def test_delete_fact_hard_cannot_be_restored(mem: SyncMemory) -> None:
    _, fact = _extracted(mem)
    with pytest.raises(NotFound):
        mem.delete_fact(fact.id, tenant_id="t2")
    out = mem.delete_fact(fact.id, hard=True, tenant_id="t1")
    assert out["mode"] == "hard"
    with pytest.raises(NotFound):
        mem.fact(fact.id, tenant_id="t1")
    with pytest.raises(Conflict):
        mem.restore(out["batch"], tenant_id="t1")
    assert {r["batch_status"] for r in mem.forget_log(batch=out["batch"], tenant_id="t1")} == {"purged"}


def test_a_soft_deleted_fact_can_be_purged(mem: SyncMemory) -> None:
    _, fact = _extracted(mem)
    batch = mem.delete_fact(fact.id, tenant_id="t1")["batch"]
    with pytest.raises(NotFound):
        mem.purge(batch, tenant_id="t2")
    assert mem.purge(batch, tenant_id="t1")["purged_rows"] >= 1
    with pytest.raises(Conflict):
        mem.restore(batch, tenant_id="t1")


def test_turns_by_speaker_with_paging(mem: SyncMemory) -> None:
    said = [("ni", "周霓", "早"), ("wt", "许文涛", "早上好"), ("ni", "周霓", "吃了吗"), ("ni", "霓霓", "我改名了"),
            (None, "路人", "hi")]
    mem.add_many([{"group_id": "g", "session_id": "s", "actor_id": pid, "actor": name, "content": text,
                   "timestamp": f"2024-03-0{i + 1}T10:00:00+00:00"} for i, (pid, name, text) in enumerate(said)])
    ni = mem.turns(group_id="g", actor_id="ni")
    assert [t.content for t in ni] == ["早", "吃了吗", "我改名了"]  # by id, whatever the name was
    assert [t.content for t in mem.turns(group_id="g", actor="周霓")] == ["早", "吃了吗"]
    assert [t.content for t in mem.turns(group_id="g", actor="路人")] == ["hi"]
    assert [t.content for t in mem.turns(group_id="g", actor_id="ni", limit=1, offset=1)] == ["吃了吗"]
    assert [t.content for t in mem.turns(group_id="g", actor_id="ni", since="2024-03-02", until="2024-03-03T23:00")
            ] == ["吃了吗"]
    assert [t.content for t in mem.turns(group_id="g", actor_id="ni", text="改名")] == ["我改名了"]
    assert mem.turns(group_id="g", actor_id="nobody") == []
    assert mem.turns(group_id="other", actor_id="ni") == []
    with pytest.raises(InvalidInput):
        mem.turns(group_id="g", actor_id="not an id")
    with pytest.raises(InvalidInput):
        mem.turns(group_id="g", actor=3)  # type: ignore[arg-type]
