"""The person-forget port (``ports.person_forget``, ``store.person_forget``; issue 44 §7): what a
forget of a person takes besides their turns (those go by the ordinary forget of turns,
forgetting/explicit.py), in one transaction, restorable from the batch's tombstones exactly as it
was. The whole forget (this, their turns and what was made from them, the batch and its log) is
one ``store.tx()``, and so is a restore: a failure in the middle of either leaves nothing half done.

Everywhere: the person, every alias and membership, the facts about them or naming them, their
triples and graph entity, agenda items, insights and the insight counters about them. In one
chat: only what is there, and of the registry their membership there and the nicknames learned
there. Someone else's fact that only @-mentioned them keeps all but the mention. Another tenant's
person of the same id is never touched."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest

from pmemo.config import Settings
from pmemo.embedders.cached import CachedEmbedder
from pmemo.embedders.hashing import HashingEmbedder
from pmemo.errors import StoreError
from pmemo.forgetting.explicit import Forgetter
from pmemo.models import Candidate, Fact, Scope, Turn
from pmemo.stores.base import EntityRef, FullStore, NewAlias, NewTriple, NewTurn
from pmemo.stores.person_forget import HeldRows
from pmemo.tiers.episodes import Episodes
from pmemo.tiers.profile import decide
from pmemo.tiers.services import Tiers

T0 = datetime(2024, 3, 4, 9, 0, tzinfo=UTC)
AT = T0.timestamp()
NI = "zhou_ni"  # an id no other value holds, so a row naming them is found by its text
TEAM = Scope.of(group_id="team", session_id="s1")
CLUB = Scope.of(group_id="club", session_id="s1")
FOREIGN = Scope.of(group_id="team", session_id="s1", tenant_id="t2")
NI_REF, WT_REF = EntityRef("person", NI, NI), EntityRef("person", "wt", "wt")
TENCENT = EntityRef("org", "Tencent", aliases=("腾讯",))


def spoke(store: FullStore, scope: Scope, person: str, name: str, text: str, minutes: int = 0,
          metadata: dict[str, Any] | None = None) -> Turn:
    (turn,) = store.turns.add_turns([NewTurn(scope, "user", text, name, T0 + timedelta(minutes=minutes), metadata or {},
                                       text, actor_id=person)])
    return turn


def state(store: FullStore, scope: Scope, key: str, value: str, turn: Turn, subject: str,
          mentioned: tuple[str, ...] = (), said: str = "") -> Fact:
    cand = Candidate("fact", key, value, 0.8, "explicit", 0.5, None, subject, mentioned, said=said)
    owner = scope.owner_scope()
    decision = decide(cand, store.profile.facts(owner, history=True, subject=subject), turn.id)
    fact = store.profile.upsert_fact(owner, decision, cand, turn.id, AT)
    assert fact is not None
    return fact


def triple(subject: EntityRef, predicate: str, obj: EntityRef | None, turn: Turn, value: str = "",
           fact: int | None = None) -> NewTriple:
    return NewTriple(subject, predicate, obj, value or (obj.name if obj else ""), None, AT, 0.8, turn.id,
                     fact_id=fact)


@pytest.fixture
def chats(full_store: FullStore) -> dict[str, Any]:
    """周霓 (zhou_ni) in two groups of the default tenant, 许文涛 (wt) beside her; a person of the
    same id in tenant t2."""
    s = full_store
    mine = spoke(s, TEAM, NI, "周霓", "叫我霓霓就行，我在腾讯上班")
    said = spoke(s, TEAM, "wt", "许文涛", "周霓对花生过敏", 1)
    hello = spoke(s, TEAM, "wt", "许文涛", "@霓霓 我在字节工作", 2, {"mentions": [NI, "bo"], "reply_to_person": NI})
    club = spoke(s, CLUB, NI, "周霓", "我不吃香菜", 3)
    (notice,) = s.turns.add_turns([NewTurn(CLUB, "system", "周霓 修改群名片为 霓宝", None, T0, {"kind": "rename",
                                                                                "person": NI}, "")])
    s.add_person("default", NI, "周霓", ["霓霓"])
    s.add_aliases("default", [NewAlias(NI, "小霓", "learned", "g:team", AT, said.id),
                              NewAlias(NI, "霓宝", "learned", "g:club", AT, club.id)])
    allergy = state(s, TEAM, "allergy:花生", "allergic", said, NI)
    employer = state(s, TEAM, "employer", "字节", hello, "wt", (NI,), "许文涛：@霓霓 我在字节工作，和周霓是同事")
    partner = state(s, TEAM, "partner", "周霓", said, "wt", (NI,))
    diet = state(s, CLUB, "diet:香菜", "does not eat", club, NI)
    team = [i for i, _ in s.graph.add_triples(TEAM.owner_scope(), [
        triple(NI_REF, "works_at", TENCENT, mine), triple(WT_REF, "works_at", EntityRef("org", "字节"), hello,
                                                          fact=employer.id)])]
    clubs = [i for i, _ in s.graph.add_triples(CLUB.owner_scope(), [triple(NI_REF, "avoids", None, club, "香菜")])]
    exam = s.plans.add_agenda(TEAM.owner_scope(), NI, date(2024, 12, 23), "exam", "12月23日考研", said.id)
    theirs = s.plans.add_agenda(TEAM.owner_scope(), "wt", date(2024, 12, 30), "interview", "面试", hello.id)
    s.graph.replace_insights(TEAM.owner_scope(), NI, [("喜欢猫", 0.7, [mine.id])])
    s.graph.queue_insights(TEAM.owner_scope(), NI, 1, 5)  # a counter about them in meta
    s.add_person("t2", NI, "别人", ["霓霓"])
    spoke(s, FOREIGN, NI, "别人", "我在腾讯上班")
    elsewhere = s.turns_by("t2", NI)
    foreign = state(s, FOREIGN, "employer", "腾讯", s.turns.get_turns(elsewhere)[elsewhere[0]], NI)
    assert exam is not None and theirs is not None
    return {"mine": mine, "said": said, "hello": hello, "club": club, "allergy": allergy, "employer": employer,
            "partner": partner, "diet": diet, "team": team, "clubs": clubs, "exam": exam, "theirs": theirs,
            "foreign": foreign, "notice": notice}


def tables(store: FullStore) -> Iterator[tuple[str, list[tuple[Any, ...]]]]:
    """Every table's rows, as text, on either backend (the FTS index's own tables left out)."""
    if hasattr(store, "_db"):
        names = [r[0] for r in store._db.rows("SELECT table_name FROM information_schema.tables"
                                              " WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'")]
        for name in sorted(names):
            yield name, sorted(tuple(str(v) for v in r) for r in store._db.rows(f"SELECT * FROM {name}"))
        return
    conn = store._read  # type: ignore[attr-defined]
    names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    for name in sorted(n for n in names if not n.startswith(("turns_fts", "turn_pairs", "sqlite_"))):
        yield name, sorted(tuple(str(v) for v in r) for r in conn.execute(f"SELECT * FROM {name}"))


def state_of(store: FullStore) -> dict[str, list[tuple[Any, ...]]]:
    """What a restore must give back: every table but the forgetting's own and the versions."""
    skip = {"forget_batches", "forget_log", "tombstones", "jobs", "job_scopes", "tenant_backlog"}
    return {name: [r for r in rows if not (name == "meta" and r[0].startswith(("aliases:", "entities:")))]
            for name, rows in tables(store) if name not in skip}


def test_everywhere_takes_the_person_and_what_is_about_them_and_restores_exactly(full_store: FullStore,
                                                                                 chats: dict[str, Any]):
    s, c = full_store, chats
    before, version = state_of(s), s.alias_version("default")
    held = s.person_forget.person_rows("default", NI)
    assert held.person and held.aliases == ("周霓", "小霓", "霓宝", "霓霓")
    assert held.owners == ("g:club", "g:team") and len(held.entities) == 1
    assert set(held.facts) == {c["allergy"].id, c["partner"].id, c["diet"].id}  # about them, or naming them
    assert held.unnamed == (c["employer"].id,)  # wt's job: only the mention goes
    assert set(held.triples) == {c["team"][0], *c["clubs"]} and held.agenda == (c["exam"].id,)
    assert len(held.insights) == 1 and set(held.scopes) == {TEAM.key, CLUB.key}
    assert held.notices == (c["notice"].id,)  # a system notice about them goes with their turns
    batch = s.batches.new_batch("forget", "soft", None, "test", "default")
    assert s.person_forget.forget_person(batch, "default", NI) == held

    assert s.get_people("default", [NI]) == {} and s.alias_version("default") > version
    assert all(p != NI for _, p, *_ in s.alias_rows("default"))
    assert NI not in s.member_ids(TEAM) and NI not in s.member_ids(CLUB)
    assert s.profile.facts_about("default", "default", NI, history=True) == []
    assert {f.key for f in s.profile.facts_about("default", "default", "wt", history=True)} == {"employer"}
    assert s.profile.get_fact(c["employer"].id).mentioned == ()  # type: ignore[union-attr]
    # and its clause names nobody: no kept row holds a name of theirs
    assert s.profile.get_fact(c["employer"].id).said == "许文涛：@某人 我在字节工作，和某人是同事"  # type: ignore[union-attr]
    assert s.graph.find_entities("default", "default", persons=[NI]) == []
    assert [t.predicate for t in s.graph.get_triples([*c["team"], *c["clubs"]])] == ["works_at"]  # wt's stays
    assert s.plans.agenda("default", "default") == [c["theirs"]]
    assert s.graph.insights(TEAM.owner_scope(), NI) == []
    # nothing left but the notice, a turn: it goes with their turns (the forget of turns)
    assert s.person_forget.person_rows("default", NI) == HeldRows(person=False, notices=(c["notice"].id,))
    assert s.get_people("t2", [NI]) and [f.id for f in s.profile.facts_about("t2", "default", NI)] == [c["foreign"].id]

    s.forget.restore_snapshot(batch)
    assert state_of(s) == before
    assert s.profile.get_fact(c["employer"].id).said == "许文涛：@霓霓 我在字节工作，和周霓是同事"  # type: ignore[union-attr]
    assert s.alias_version("default") > version  # resolvers built meanwhile are stale again


def test_in_one_chat_only_that_chat_goes(full_store: FullStore, chats: dict[str, Any]):
    s, c = full_store, chats
    before = state_of(s)
    team = TEAM.owner_scope()
    held = s.person_forget.person_rows("default", NI, team)
    assert not held.person and held.aliases == ("小霓",) and held.owners == ("g:team",)
    assert held.entities == () and set(held.facts) == {c["allergy"].id, c["partner"].id}
    club = s.person_forget.person_rows("default", NI, CLUB.owner_scope())
    assert held.notices == () and club.notices == (c["notice"].id,)
    batch = s.batches.new_batch("forget", "soft", team.key, "test", "default")
    s.person_forget.forget_person(batch, "default", NI, team)

    person = s.get_people("default", [NI])[NI]
    assert {a.alias for a in person.aliases} == {"周霓", "霓霓", "霓宝"}
    assert NI not in s.member_ids(TEAM) and NI in s.member_ids(CLUB)
    assert [f.id for f in s.profile.facts_about("default", "default", NI)] == [c["diet"].id]
    assert [t.id for t in s.graph.get_triples([*c["team"], *c["clubs"]]) if t.subject == NI] == c["clubs"]
    assert s.graph.find_entities("default", "default", persons=[NI])  # the club's triple still names them
    assert s.plans.agenda("default", "default", people=[NI]) == []
    rows = s.person_forget.person_rows
    assert rows("default", NI, team).empty and not rows("default", NI).empty

    s.forget.restore_snapshot(batch)
    assert state_of(s) == before


def test_a_purged_forget_leaves_no_row_naming_them_but_their_turns(full_store: FullStore, chats: dict[str, Any]):
    s, c = full_store, chats
    batch = s.batches.new_batch("forget", "hard", None, "a person", "default")
    s.person_forget.forget_person(batch, "default", NI)
    s.turns.delete_turns(s.turns_by("default", NI))  # what the forget of their turns does, here by hand
    assert s.person_forget.scrub_mentions("default", NI) == 2  # the notice's "person" too, were it kept
    assert s.turns.get_turns([c["hello"].id])[c["hello"].id].metadata == {"mentions": ["bo"]}
    assert s.turns.get_turns([c["notice"].id])[c["notice"].id].metadata == {"kind": "rename"}
    s.forget.purge_batch(batch)
    for name, rows in tables(s):
        left = [r for r in rows if any(NI in v for v in r) and not (name == "turns" and "t2" in r)
                and not (name in ("people", "aliases", "facts", "members") and "t2" in r)]
        assert left == [], f"{name} still names {NI}: {left}"


class Boom(Exception):
    """The fault a test injects."""


def forgetter(store: FullStore) -> Forgetter:
    """The library's forgetter over the store, offline (a hashing embedder, no LLM, no diary)."""
    settings = Settings()
    embed = CachedEmbedder(HashingEmbedder(), store.embed_cache, settings.embed_batch)
    tiers = Tiers(store, embed, None, settings)
    return Forgetter(store, tiers, embed, Episodes(store, tiers, settings))


def test_a_failure_in_the_middle_of_a_forget_leaves_nothing_of_it(full_store: FullStore, chats: dict[str, Any],
                                                                 monkeypatch: pytest.MonkeyPatch):
    s, c = full_store, chats
    f = forgetter(s)
    before = {**state_of(s), "batches": s.batches.forget_log()}

    def derived(ids: list[int]) -> dict[str, Any]:  # after the rows about them and their turns went
        assert s.get_people("default", [NI]) == {} and s.turns_by("default", NI) == []  # gone by now...
        raise Boom("a rebuild failed")

    monkeypatch.setattr(f, "derived", derived)
    with pytest.raises((Boom, StoreError)):
        f.forget_person("default", NI, None, False, "test")
    # ...and back: the registry, the facts, the triples, the agenda, their turns, no batch
    assert {**state_of(s), "batches": s.batches.forget_log()} == before
    assert s.turns.get_turns([c["mine"].id]) and s.batches.active_batches() == []


def with_turns(store: FullStore) -> dict[str, list[tuple[Any, ...]]]:
    """``state_of``, the turns as the store gives them: a restored turn's index columns are made
    again by today's segmentation (the fixture wrote its text unsegmented)."""
    out = {name: rows for name, rows in state_of(store).items() if name != "turns"}
    turns = store.turns.get_turns(range(1, 100)).values()
    return {**out, "turns": sorted((t.id, t.scope.key, t.step, t.content, str(t.metadata), t.actor_id) for t in turns)}


def test_a_forget_and_its_restore_are_each_one_transaction(full_store: FullStore, chats: dict[str, Any],
                                                           monkeypatch: pytest.MonkeyPatch):
    s = full_store
    f = forgetter(s)
    before = with_turns(s)
    report = f.forget_person("default", NI, None, False, "test")
    assert report["record"] and s.get_people("default", [NI]) == {} and s.turns_by("default", NI) == []
    forgotten = with_turns(s)

    def pieced(turn_ids: list[int]) -> list[int]:  # after the rows are back, the status and the log written
        raise Boom("queueing the parts failed")

    monkeypatch.setattr(f, "_pieced", pieced)
    with pytest.raises((Boom, StoreError)):
        f.restore(report["batch"])
    assert with_turns(s) == forgotten and s.batches.active_batches() == [report["batch"]]  # still restorable
    monkeypatch.undo()
    assert f.restore(report["batch"])["people"] == [NI]
    assert with_turns(s) == before


def test_put_back_person_brings_the_registry_rows_back_and_keeps_one_made_again(full_store: FullStore):
    s = full_store
    s.add_person("default", "bo", "Bo", [])  # made again meanwhile: kept as it is
    version = s.alias_version("default")
    s.person_forget.put_back_person({
        "people": [{"tenant": "default", "person": "mei", "name": "Mei", "created": AT, "updated": AT},
                   {"tenant": "default", "person": "bo", "name": "Old Bo", "created": AT, "updated": AT}],
        "aliases": [{"tenant": "default", "person": "mei", "alias": "小美", "source": "learned", "owner": "g:team",
                     "first_seen": AT, "last_seen": AT, "turn_id": None, "removed": None, "gone": "a column dropped"}],
        "members": [], "meta": [{"key": "insight:x", "value": "3"}]})
    people = s.get_people("default", ["mei", "bo"])
    assert people["mei"].name == "Mei"
    assert [a.alias for a in people["mei"].aliases] == ["小美"] and people["bo"].name == "Bo"
    assert s.alias_version("default") > version  # resolvers built before are stale
    assert s.meta.get_meta("insight:x") == "3"


def test_a_fact_dropped_by_hand_is_one_transaction_too(full_store: FullStore, chats: dict[str, Any],
                                                       monkeypatch: pytest.MonkeyPatch):
    s, c = full_store, chats
    f = forgetter(s)
    before = {**state_of(s), "batches": s.batches.forget_log()}

    def cache_forget(texts: list[str]) -> None:  # after the fact and its triple's snapshot and delete
        assert s.profile.get_fact(c["employer"].id) is None
        raise Boom("the cache was not reachable")

    monkeypatch.setattr(f.embed, "forget", cache_forget)
    with pytest.raises((Boom, StoreError)):
        f.drop_fact(c["employer"], False, "test")
    assert {**state_of(s), "batches": s.batches.forget_log()} == before and s.batches.active_batches() == []
    monkeypatch.undo()
    report = f.drop_fact(c["employer"], False, "test")
    assert report["facts"] == {c["employer"].id: "deleted"} and list(report["triples"]) == [c["team"][1]]
