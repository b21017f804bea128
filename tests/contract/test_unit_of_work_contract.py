"""The unit of work (``pmemo.ports.unit``): ``store.tx()`` makes the port calls in its block one
transaction, on SQLite and on Postgres. A fact corrected by hand and its triples (graph/learn.py
``correct_fact``) are the multi-step change it is first used for: a failure between the two
steps leaves neither."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

import pytest

from pmemo.errors import StoreError
from pmemo.graph.learn import correct_fact
from pmemo.models import Candidate, Fact, Scope, Turn
from pmemo.ports.graph import EntityRef, GraphPort, NewTriple, TripleView
from pmemo.stores.base import FullStore, NewTurn
from pmemo.tiers.profile import decide

T0 = datetime(2024, 3, 4, 9, 0, tzinfo=UTC)
AT = T0.timestamp()
TEAM = Scope.of(group_id="team", session_id="s1")
NI = EntityRef("person", "ni", "ni")
VIEW = TripleView(TEAM.owner_scope())


class Boom(Exception):
    """The fault a test injects."""


class FailingAdd:
    """The store's graph port, whose ``add_triples`` fails: the fault between a fact's edit and
    its new triple (``end_fact_triples`` has run by then)."""

    def __init__(self, graph: GraphPort) -> None:
        self._graph = graph

    def end_fact_triples(self, fact_id: int, at: float) -> None:
        self._graph.end_fact_triples(fact_id, at)

    def add_triples(self, scope: Scope, items: Sequence[NewTriple]) -> list[tuple[int, str]]:
        raise Boom("the graph write failed")


def say(s: FullStore, text: str) -> Turn:
    (turn,) = s.turns.add_turns([NewTurn(TEAM, "user", text, None, T0, {}, text)])
    return turn


def employer(s: FullStore, value: str, turn: Turn) -> tuple[Fact, int]:
    """Ni's employer as a fact of the group and the triple that says it (as learning writes them)."""
    cand = Candidate("profile", "employer", value, 0.8, "explicit", 0.5, None, "ni")
    owner = TEAM.owner_scope()
    decision = decide(cand, s.profile.facts(owner, history=True, subject="ni"), turn.id)
    fact = s.profile.upsert_fact(owner, decision, cand, turn.id, AT)
    assert fact is not None
    [(triple, _)] = s.graph.add_triples(owner, [NewTriple(NI, "works_at", EntityRef("org", value), value, None, AT,
                                                          0.8, turn.id, fact.id, functional=True)])
    return fact, triple


def test_a_failure_inside_tx_leaves_nothing_of_it(full_store: FullStore):
    s = full_store
    turn = say(s, "ni works at Tencent")
    fact, triple = employer(s, "Tencent", turn)
    with pytest.raises(Boom):
        with s.tx():
            s.profile.edit_fact(fact.id, "Alibaba", fact.version, AT + 60)
            s.graph.end_fact_triples(fact.id, AT + 60)
            raise Boom("between the steps")
    after = s.profile.get_fact(fact.id)
    assert after is not None and (after.value, after.version) == ("Tencent", fact.version)
    assert s.graph.get_triples([triple])[0].current


def test_a_fact_corrected_with_its_triples_is_one_transaction(full_store: FullStore):
    s = full_store
    turn = say(s, "ni works at Tencent")
    fact, triple = employer(s, "Tencent", turn)
    with pytest.raises(Boom):  # the new triple fails: the edit and the closed triple go back too
        correct_fact(s, s.profile, FailingAdd(s.graph), fact.id, "Alibaba", fact.version, AT + 60,  # type: ignore[arg-type]
                     fact.value)
    after = s.profile.get_fact(fact.id)
    assert after is not None and (after.value, after.version) == ("Tencent", fact.version)
    assert [t.id for t in s.graph.triples_about(VIEW, None, "works_at", None, True)] == [triple]
    assert s.graph.get_triples([triple])[0].current

    edited = correct_fact(s, s.profile, s.graph, fact.id, "Alibaba", fact.version, AT + 60, fact.value)
    assert (edited.value, edited.version) == ("Alibaba", fact.version + 1)
    old, new = s.graph.triples_about(VIEW, None, "works_at", None, True)
    assert (old.id, old.object, old.current, new.object, new.current, new.fact_id) == (
        triple, "Tencent", False, "Alibaba", True, fact.id)


def test_tx_nests_and_reads_its_own_writes(full_store: FullStore):
    s = full_store
    turn = say(s, "ni works at Tencent")
    with s.tx():
        fact, triple = employer(s, "Tencent", turn)  # an upsert and a graph write, each a transaction of its own
        with s.tx():  # a block inside joins the outer one
            s.graph.end_fact_triples(fact.id, AT + 60)
        assert not s.graph.get_triples([triple])[0].current  # read inside: the write is seen
        assert s.profile.get_fact(fact.id) is not None
    assert not s.graph.get_triples([triple])[0].current and s.profile.get_fact(fact.id) is not None


def test_a_step_that_failed_inside_rolls_the_unit_back_even_when_caught(full_store: FullStore):
    s = full_store
    turn = say(s, "ni works at Tencent")
    with pytest.raises(StoreError, match="rolled back"):
        with s.tx():
            fact, triple = employer(s, "Tencent", turn)
            try:
                s.profile.edit_fact(fact.id, "Alibaba", fact.version + 5, AT + 60)  # a stale version: Conflict
            except Exception:
                pass  # caught, but the unit is not committed half done
    assert s.graph.find_entities("default", "default", persons=["ni"]) == []
    assert s.profile.facts(TEAM.owner_scope(), history=True, subject="ni") == []
