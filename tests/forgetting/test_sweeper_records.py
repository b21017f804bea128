"""Sweeper (dry run, real run, log, restore) and records with access control and versions."""

from __future__ import annotations

from pathlib import Path

import pytest

from pmemo import Settings, SyncMemory
from pmemo.errors import Conflict, Forbidden, InvalidInput, NotFound


def test_sweeper_dry_run_then_real_run_logs_and_restores(tmp_path: Path) -> None:
    settings = Settings(decay_half_life_days=10, decay_floor=0.0, max_episodes_per_scope=100)
    with SyncMemory.open(tmp_path / "d", settings=settings, embedder="hashing") as m:
        m.add(
            user_id="u",
            session_id="old",
            content="small talk about nothing",
            timestamp="2023-01-01T10:00:00",
        )
        m.add(
            user_id="u",
            session_id="mid",
            content="I have a dentist appointment on 2023-06-10.",
            timestamp="2023-06-01T10:00:00",
        )
        m.add(user_id="u", session_id="new", content="hello again", timestamp="2024-06-01T10:00:00")
        m.drain()
        assert len(m.episodes(user_id="u")) == 2
        assert any(f.key == "event:dentist appointment" for f in m.profile("u"))
        plan = m.sweep(dry_run=True)
        kinds = {(a["action"], a["kind"]) for a in plan["actions"]}
        assert kinds == {("soft_delete", "episode"), ("expire", "fact")}
        assert (
            len(m.episodes(user_id="u")) == 2 and m.forget_log() == []
        )  # a dry run writes nothing
        done = m.sweep(dry_run=False)
        assert done["batch"] and len(done["actions"]) == len(plan["actions"])
        assert m.episodes(user_id="u") == []
        assert not any(f.key == "event:dentist appointment" for f in m.profile("u"))
        assert any(f.status == "expired" for f in m.profile("u", history=True))
        log = m.forget_log(batch=done["batch"])
        assert {r["action"] for r in log} == {"soft_delete", "expire"} and all(
            r["reason"] for r in log
        )
        m.restore(done["batch"])
        assert len(m.episodes(user_id="u")) == 2
        assert any(f.key == "event:dentist appointment" for f in m.profile("u"))


def test_sweeper_enforces_capacity_by_lowest_strength(tmp_path: Path) -> None:
    settings = Settings(max_episodes_per_scope=1, decay_floor=0.0)
    with SyncMemory.open(tmp_path / "d", settings=settings, embedder="hashing") as m:
        for n, sid in enumerate(("a", "b", "c")):
            m.add(
                user_id="u",
                session_id=sid,
                content=f"topic {sid}",
                timestamp=f"2024-0{n + 1}-01T10:00:00",
            )
            m.drain()
            m.end_session(sid, user_id="u")
        done = m.sweep(dry_run=False)
        assert [a["reason"] for a in done["actions"]] == ["over capacity"] * 2
        assert [e.scope.session_id for e in m.episodes(user_id="u")] == ["c"]


def test_private_records_are_never_read_by_another_user(tmp_path: Path) -> None:
    with SyncMemory.open(tmp_path / "d", embedder="hashing") as m:
        secret = m.add_record(
            "alice's salary is 30k",
            user_id="alice",
            type="fact",
            importance=0.9,
            tags=["hr"],
            structured={"amount": 30000},
        )
        shared = m.add_record(
            "team offsite in May",
            user_id="alice",
            visibility="shared",
            allowed_users=["bob"],
            allowed_roles=["manager"],
        )
        public = m.add_record("office wifi is pmemo-guest", user_id="alice", visibility="public")
        assert secret.visibility == secret.scope == "private" and secret.embedding_model
        assert {r.id for r in m.records(viewer="alice")} == {secret.id, shared.id, public.id}
        assert {r.id for r in m.records(viewer="bob")} == {shared.id, public.id}
        assert {r.id for r in m.records(viewer="carol", roles=["manager"])} == {
            shared.id,
            public.id,
        }
        assert {r.id for r in m.records(viewer="mallory")} == {public.id}
        assert all(r.id != secret.id for r in m.records(viewer="bob", query="alice salary"))
        with pytest.raises(NotFound):
            m.get_record(secret.id, viewer="bob")
        with pytest.raises(NotFound):
            m.get_record(secret.id, viewer="alice", tenant_id="other")
        with pytest.raises(Forbidden):
            m.update_record(shared.id, version=shared.version, viewer="bob", content="hacked")
        assert m.records(viewer="alice", query="salary")[0].id == secret.id


def test_record_updates_check_the_version(tmp_path: Path) -> None:
    with SyncMemory.open(tmp_path / "d", embedder="hashing") as m:
        rec = m.add_record("draft v1", user_id="alice")
        v2 = m.update_record(rec.id, version=rec.version, viewer="alice", content="draft v2")
        assert v2.version == rec.version + 1 and v2.content == "draft v2"
        with pytest.raises(Conflict):
            m.update_record(rec.id, version=rec.version, viewer="alice", content="lost update")
        with pytest.raises(InvalidInput):
            m.update_record(rec.id, version=v2.version, viewer="alice", visibility="everyone")
        m.delete_record(rec.id, viewer="alice")
        with pytest.raises(NotFound):
            m.get_record(rec.id, viewer="alice")


def test_profile_pinned_api(tmp_path: Path) -> None:
    with SyncMemory.open(tmp_path / "d", embedder="hashing") as m:
        m.add(
            user_id="mei", session_id="s", content="我喜欢喝咖啡。", timestamp="2024-01-01T10:00:00"
        )
        m.add(
            user_id="mei",
            session_id="s",
            content="我现在不喜欢咖啡了。",
            timestamp="2024-03-01T10:00:00",
        )
        m.drain()
        (cur,) = m.profile("mei")
        assert (cur.category, cur.key, cur.value, cur.mentions) == (
            "preference",
            "opinion:咖啡",
            "dislikes",
            1,
        )
        assert (
            cur.confidence > 0.9
            and cur.valid_to is None
            and cur.valid_from.year == 2024
            and cur.sources
        )
        old = [f for f in m.profile("mei", history=True) if f.status == "superseded"]
        assert [f.value for f in old] == ["likes"] and old[0].valid_to == cur.valid_from
        assert cur.version == old[0].version + 1
        assert "用户不喜欢咖啡" in m.context("咖啡", user_id="mei").text  # a sentence in the language it was said in
        assert m.profile("someone-else") == []
        fact = m.add_fact("profile", "city", "Shanghai", user_id="mei")
        assert fact is not None and fact.source == "explicit" and fact.sources == ()


def test_forget_batches_and_their_log_belong_to_one_tenant(tmp_path: Path) -> None:
    """Issue 18 §13: restore, purge and the forget log are scoped to a tenant in the library
    (in the store query), and a sweep over every tenant makes one batch per tenant."""
    settings = Settings(decay_half_life_days=10, decay_floor=0.0, max_episodes_per_scope=100)
    with SyncMemory.open(tmp_path / "d", settings=settings, embedder="hashing") as m:
        for tenant in ("a", "b"):
            for sid, day in (("old", "2023-01-01"), ("new", "2024-06-01")):
                m.add(tenant_id=tenant, user_id="u", session_id=sid, content=f"{tenant} talks on {day}",
                      timestamp=f"{day}T10:00:00")
        m.drain()
        mine = m.forget(query="talks", user_id="u", tenant_id="a")
        assert mine["batch"] and len(mine["turns"]) == 2
        for call in (
            lambda: m.restore(mine["batch"], tenant_id="b"),
            lambda: m.restore(turn_ids=mine["turns"], tenant_id="b"),
            lambda: m.purge(mine["batch"], tenant_id="b"),
        ):
            with pytest.raises(NotFound):
                call()
        assert m.forget_log(tenant_id="b") == [] and m.forget_log(batch=mine["batch"], tenant_id="b") == []
        assert {r["batch"] for r in m.forget_log(tenant_id="a")} == {mine["batch"]}
        assert len(m.forget_log(tenant_id=None)) == len(m.forget_log(tenant_id="a"))
        with pytest.raises(NotFound):
            m.restore(turn_ids=[*mine["turns"], 10**9], tenant_id="a")  # one of them was never forgotten
        m.restore(turn_ids=mine["turns"], tenant_id="a")
        assert len(m.turns(user_id="u", tenant_id="a")) == 2

        swept = m.sweep(dry_run=False)  # the scheduled sweep: every tenant at once
        assert swept["batch"] is None and len(swept["batches"]) == 2
        by_tenant = {b: {r["scope_key"].split("|")[0] for r in m.forget_log(batch=b, tenant_id=None)}
                     for b in swept["batches"]}
        assert sorted(map(sorted, by_tenant.values())) == [["a"], ["b"]]
        b_batch = next(b for b, t in by_tenant.items() if t == {"b"})
        with pytest.raises(NotFound):
            m.restore(b_batch, tenant_id="a")
        m.restore(b_batch, tenant_id="b")
        with pytest.raises(Conflict):
            m.purge(b_batch, tenant_id="b")  # restored: nothing left to purge
