"""A fact keeps the clause it came from (issue 44 §1), on every backend: written on insert, kept
when the same fact is said again in other words (the first words stay; a fact stored without any
takes the next), carried by the value that supersedes it, and copied when a value is edited."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from pmemo.models import Candidate, Fact, Scope
from pmemo.stores.base import FullStore, NewTurn
from pmemo.tiers.profile import decide

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
TEAM = Scope.of(group_id="team", session_id="s1")


def _state(store: FullStore, key: str, value: str, said: str, turn: int, minutes: int = 0, *,
           newer_wins: bool = False, confidence: float = 0.8) -> Fact:
    cand = Candidate("fact", key, value, confidence, "explicit", 0.6, None, "ni", (), said, newer_wins)
    owner = TEAM.owner_scope()
    decision = decide(cand, store.profile.facts(owner, history=True, subject="ni"), turn)
    fact = store.profile.upsert_fact(owner, decision, cand, turn, (T0 + timedelta(minutes=minutes)).timestamp())
    assert fact is not None
    return fact


def _turns(store: FullStore, *texts: str) -> list[int]:
    return [t.id for t in store.turns.add_turns([NewTurn(TEAM, "user", x, "周霓", T0, {}, x) for x in texts])]


def test_a_fact_keeps_its_clause_and_the_first_words_stay(full_store: FullStore) -> None:
    a, b = _turns(full_store, "花粉过敏，春天出门要戴口罩", "我花粉过敏")
    first = _state(full_store, "allergy:花粉", "allergic", "周霓：花粉过敏，春天出门要戴口罩", a)
    assert first.said == "周霓：花粉过敏，春天出门要戴口罩"
    again = _state(full_store, "allergy:花粉", "allergic", "周霓：我花粉过敏", b, 5)
    assert again.id == first.id and again.said == "周霓：花粉过敏，春天出门要戴口罩"
    assert [f.said for f in full_store.profile.facts(TEAM.owner_scope(), subject="ni")] == [first.said]


def test_a_fact_without_words_takes_the_next(full_store: FullStore) -> None:
    a, b = _turns(full_store, "x", "我在腾讯上班")
    bare = _state(full_store, "employer", "腾讯", "", a)
    assert bare.said == ""
    assert _state(full_store, "employer", "腾讯", "周霓：我在腾讯上班", b, 5).said == "周霓：我在腾讯上班"


def test_the_newer_value_of_a_slot_supersedes_with_its_own_words(full_store: FullStore) -> None:
    a, b = _turns(full_store, "我在腾讯上班", "我跳槽去字节了")
    old = _state(full_store, "employer", "腾讯", "周霓：我在腾讯上班", a, confidence=0.9)
    new = _state(full_store, "employer", "字节", "周霓：我跳槽去字节了", b, 60, newer_wins=True, confidence=0.7)
    assert (new.value, new.said, new.status) == ("字节", "周霓：我跳槽去字节了", "current")
    history = {f.id: f for f in full_store.profile.facts(TEAM.owner_scope(), history=True, subject="ni")}
    assert history[old.id].status == "superseded" and history[old.id].said == "周霓：我在腾讯上班"


def test_an_edited_value_keeps_the_words_in_its_history(full_store: FullStore) -> None:
    (a,) = _turns(full_store, "我在腾讯上班")
    fact = _state(full_store, "employer", "腾讯", "周霓：我在腾讯上班", a)
    edited = full_store.profile.edit_fact(fact.id, "腾讯云", fact.version, (T0 + timedelta(hours=1)).timestamp())
    assert edited.said == "周霓：我在腾讯上班"
    copies = [f for f in full_store.profile.facts(TEAM.owner_scope(), history=True, subject="ni") if f.id != fact.id]
    assert [c.said for c in copies] == ["周霓：我在腾讯上班"]
