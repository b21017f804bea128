"""The graph port's contract (``pmemo.ports.graph.GraphPort``, a store's ``graph``): entities,
triples with validity times and source turns, what a view (an owner, and a person's own private
chat) sees, traversals, forgetting, and insights. Triples are written per owner scope, as
graph/learn.py writes them; the turns they come from through the store."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from pmemo.models import Scope, Triple, Turn
from pmemo.stores.base import EntityRef, FullStore, NewTriple, NewTurn, TripleView

T0 = datetime(2024, 3, 4, 9, 0, tzinfo=UTC)
AT = T0.timestamp()
TEAM = Scope.of(group_id="team")
CLUB = Scope.of(group_id="club")
NI_CHAT = Scope.of(user_id="ni")
FOREIGN = Scope.of(group_id="team", tenant_id="t2")
OTHER_AGENT = Scope.of(group_id="team", agent_id="bot2")

NI, BO = EntityRef("person", "ni", "ni"), EntityRef("person", "bo", "bo")
TENCENT = EntityRef("org", "Tencent", aliases=("腾讯",))
ALIBABA, SHENZHEN, HANGZHOU = EntityRef("org", "Alibaba"), EntityRef("place", "Shenzhen"), EntityRef("place",
                                                                                                   "Hangzhou")


def say(store: FullStore, scope: Scope, n: int = 1) -> list[Turn]:
    where = Scope(scope.tenant_id, scope.agent_id, scope.owner, "s1")
    return store.turns.add_turns([NewTurn(where, "user", f"t{i}", None, T0, {}, f"t{i}") for i in range(n)])


def fact_of(subject: EntityRef, predicate: str, obj: EntityRef | None, turn: Turn | None, at: float = AT, *,
            value: str = "", **how: object) -> NewTriple:
    return NewTriple(subject, predicate, obj, value or (obj.name if obj else ""), None, at, 0.8,
                     turn.id if turn else None, **how)  # type: ignore[arg-type]


def eid(store: FullStore, ref: EntityRef, scope: Scope = TEAM) -> int:
    found = store.graph.find_entities(scope.tenant_id, scope.agent_id, persons=[ref.person]) if ref.person else \
        store.graph.find_entities(scope.tenant_id, scope.agent_id, name=ref.name)
    assert len(found) == 1
    return found[0].id


def ids(triples: list[Triple]) -> list[int]:
    return [t.id for t in triples]


def test_a_functional_value_closes_the_old_one_and_reruns_are_skipped(full_store: FullStore):
    s = full_store
    a, b, c = say(s, TEAM, 3)
    [(old, added)] = s.graph.add_triples(TEAM, [fact_of(NI, "works_at", TENCENT, a, functional=True)])
    assert added == "added"
    assert s.graph.add_triples(TEAM, [fact_of(NI, "works_at", TENCENT, a, functional=True)]) == [(old, "skipped")]
    assert s.graph.add_triples(TEAM, [fact_of(NI, "works_at", TENCENT, b, functional=True)]) == [(old, "reinforced")]
    [(new, added)] = s.graph.add_triples(TEAM, [fact_of(NI, "works_at", ALIBABA, c, AT + 100, functional=True)])
    assert added == "added" and new != old
    before, after = s.graph.get_triples([new, old])  # oldest first
    assert (before.id, before.subject, before.subject_kind, before.predicate, before.object, before.object_kind) == (
        old, "ni", "person", "works_at", "Tencent", "org")
    assert before.sources == (a.id, b.id) and before.scope == TEAM and before.learned_in == "g:team"
    assert before.valid_from == T0 and before.valid_to == T0 + timedelta(seconds=100) and not before.current
    assert (after.object, after.valid_to, after.sources) == ("Alibaba", None, (c.id,))
    assert s.graph.get_triples([]) == [] and s.graph.get_triples([424242]) == []


def test_literals_ends_closes_and_symmetric_predicates(full_store: FullStore):
    s = full_store
    a, b, c, d = say(s, TEAM, 4)
    [(cats, _)] = s.graph.add_triples(TEAM, [fact_of(NI, "likes", None, a, value="cats")])
    (got,) = s.graph.get_triples([cats])
    assert (got.object, got.object_kind, got.object_entity) == ("cats", None, None)
    assert s.graph.add_triples(TEAM, [fact_of(NI, "likes", None, b, AT + 10, value="CATS", ends=True)]) == [
        (cats, "ended")]
    assert s.graph.get_triples([cats])[0].valid_to == T0 + timedelta(seconds=10)
    [(dogs, _)] = s.graph.add_triples(TEAM, [fact_of(NI, "likes", None, c, value="dogs")])
    [(hates, _)] = s.graph.add_triples(TEAM, [fact_of(NI, "dislikes", None, d, AT + 20, value="dogs",
                                                closes=("likes",))])
    assert s.graph.get_triples([dogs])[0].valid_to == T0 + timedelta(seconds=20)
    assert s.graph.get_triples([hates])[0].current
    [(friends, _)] = s.graph.add_triples(TEAM, [fact_of(NI, "friend_of", BO, a, symmetric=True)])
    assert s.graph.add_triples(TEAM, [fact_of(BO, "friend_of", NI, c, symmetric=True)]) == [(friends, "reinforced")]


def test_entities_names_and_versions(full_store: FullStore):
    s = full_store
    (a,) = say(s, TEAM)
    v0 = s.graph.entity_version("default")
    s.graph.add_triples(TEAM, [fact_of(NI, "works_at", TENCENT, a), fact_of(TENCENT, "located_in", SHENZHEN, a)])
    v1 = s.graph.entity_version("default")
    assert v1 > v0
    s.graph.add_triples(TEAM, [fact_of(NI, "works_at", TENCENT, a)])
    assert s.graph.entity_version("default") == v1  # no new name
    tencent = eid(s, TENCENT)
    (found,) = s.graph.find_entities("default", "default", name="tencent")  # any case
    assert (found.id, found.kind, found.name, found.person_id, found.aliases, found.key) == (
        tencent, "org", "Tencent", None, ("腾讯",), "Tencent")
    assert [e.id for e in s.graph.find_entities("default", "default", name="腾讯")] == [tencent]
    (ni,) = s.graph.find_entities("default", "default", persons=["ni", "nobody"])
    assert (ni.kind, ni.person_id, ni.key) == ("person", "ni", "ni")
    assert {e.id for e in s.graph.find_entities("default", "default", ids=[ni.id, tencent, 424242])} == {ni.id, tencent}
    names = s.graph.entity_names("default", "default")
    assert sorted(names) == sorted([("Tencent", tencent), ("腾讯", tencent), ("Shenzhen", eid(s, SHENZHEN))])
    assert s.graph.entity_names("t2", "default") == [] and s.graph.entity_version("t2") == 0
    assert s.graph.find_entities("default", "bot2", name="Tencent") == []
    assert s.graph.find_entities("t2", "default", persons=["ni"]) == []


def _work_history(s: FullStore) -> dict[str, int]:
    """ni worked at Tencent (Shenzhen) until AT+100, then at Alibaba (Hangzhou); likes cats."""
    a, b = say(s, TEAM, 2)
    out = dict(zip(["tencent", "shenzhen", "cats"], [i for i, _ in s.graph.add_triples(TEAM, [
        fact_of(NI, "works_at", TENCENT, a, functional=True), fact_of(TENCENT, "located_in", SHENZHEN, a),
        fact_of(NI, "likes", None, a, value="cats")])], strict=True))
    out.update(zip(["alibaba", "hangzhou"], [i for i, _ in s.graph.add_triples(TEAM, [
        fact_of(NI, "works_at", ALIBABA, b, AT + 100, functional=True),
        fact_of(ALIBABA, "located_in", HANGZHOU, b, AT + 100)])], strict=True))
    return out


def test_triples_about_now_at_a_time_and_in_history(full_store: FullStore):
    s = full_store
    t = _work_history(s)
    view, ni = TripleView(TEAM), [eid(s, NI)]
    assert ids(s.graph.triples_about(view, ni, "works_at", None, False)) == [t["alibaba"]]
    assert ids(s.graph.triples_about(view, ni, "works_at", AT + 50, False)) == [t["tencent"]]
    assert ids(s.graph.triples_about(view, ni, "works_at", None, True)) == [t["tencent"], t["alibaba"]]
    assert ids(s.graph.triples_about(view, ni, "works_at", AT + 50, True)) == [t["tencent"]]  # begun by then
    assert set(ids(s.graph.triples_about(view, ni, None, None, False))) == {t["alibaba"], t["cats"]}
    assert set(ids(s.graph.triples_about(view, None, "located_in", None, False))) == {t["shenzhen"], t["hangzhou"]}
    assert s.graph.triples_about(view, [], None, None, True) == []


def test_neighbourhood_hops_and_time(full_store: FullStore):
    s = full_store
    t = _work_history(s)
    view, ni = TripleView(TEAM), [eid(s, NI)]
    assert set(ids(s.graph.neighbourhood(view, ni, 1, None))) == {t["alibaba"], t["cats"]}
    assert set(ids(s.graph.neighbourhood(view, ni, 2, None))) == {t["alibaba"], t["cats"], t["hangzhou"]}
    assert set(ids(s.graph.neighbourhood(view, ni, 2, AT + 50))) == {t["tencent"], t["cats"], t["shenzhen"]}
    assert set(ids(s.graph.neighbourhood(view, [eid(s, SHENZHEN)], 1, AT + 50))) == {t["shenzhen"]}
    assert set(ids(s.graph.neighbourhood(view, [eid(s, SHENZHEN)], 2, AT + 50))) == {t["shenzhen"], t["tencent"]}
    assert s.graph.neighbourhood(view, [], 2, None) == []
    assert s.graph.neighbourhood(TripleView(CLUB), ni, 2, None) == []


def test_a_view_sees_its_owner_and_with_private_a_persons_own_chat(full_store: FullStore):
    s = full_store
    (g,) = say(s, TEAM)
    (p,) = say(s, NI_CHAT)
    (q,) = say(s, Scope.of(user_id="bo"))
    (f,) = say(s, FOREIGN)
    (o,) = say(s, OTHER_AGENT)
    [(group, _)] = s.graph.add_triples(TEAM, [fact_of(NI, "likes", None, g, value="cats")])
    [(own, _)] = s.graph.add_triples(NI_CHAT, [fact_of(NI, "lives_in", EntityRef("place", "Beijing"), p)])
    [(hearsay, _)] = s.graph.add_triples(Scope.of(user_id="bo"), [fact_of(NI, "likes", None, q, value="tea")])
    s.graph.add_triples(FOREIGN, [fact_of(NI, "likes", None, f, value="dogs")])
    s.graph.add_triples(OTHER_AGENT, [fact_of(NI, "likes", None, o, value="fish")])
    ni = [eid(s, NI)]
    assert ids(s.graph.triples_about(TripleView(TEAM), ni, None, None, False)) == [group]
    assert set(ids(s.graph.triples_about(TripleView(TEAM, private=True), ni, None, None, False))) == {group, own}
    assert hearsay not in ids(s.graph.triples_about(TripleView(TEAM, private=True), None, None, None, True))
    assert set(ids(s.graph.neighbourhood(TripleView(TEAM, private=True), ni, 1, None))) == {group, own}
    beijing = eid(s, EntityRef("place", "Beijing"))
    assert s.graph.touches(TripleView(TEAM), [beijing, ni[0]]) == {ni[0]}
    assert s.graph.touches(TripleView(TEAM, private=True), [beijing]) == {beijing}
    assert s.graph.touches(TripleView(CLUB), ni) == set()
    foreign_ni = eid(s, NI, FOREIGN)
    assert [t.object for t in s.graph.triples_about(TripleView(FOREIGN), [foreign_ni], None, None, True)] == ["dogs"]
    assert [t.object for t in s.graph.triples_about(TripleView(OTHER_AGENT), None, None, None, True)] == ["fish"]


def test_forgetting_the_turns_of_triples(full_store: FullStore):
    s = full_store
    a, b, c = say(s, TEAM, 3)
    [(tencent, _)] = s.graph.add_triples(TEAM, [fact_of(NI, "works_at", TENCENT, a, functional=True)])
    [(alibaba, _), (city, _)] = s.graph.add_triples(TEAM, [
        fact_of(NI, "works_at", ALIBABA, b, AT + 100, functional=True),
        fact_of(ALIBABA, "located_in", HANGZHOU, b, AT + 100)])
    s.graph.add_triples(TEAM, [fact_of(ALIBABA, "located_in", HANGZHOU, c, AT + 100)])  # said twice
    assert sorted(s.graph.triples_with([b.id])) == sorted([tencent, alibaba, city])  # and the triple it closed
    assert s.graph.triples_with([a.id]) == [tencent] and s.graph.triples_with([]) == []
    assert sorted(s.graph.graph_entities_with([alibaba, city])) == sorted([eid(s, NI), eid(s, ALIBABA),
                                                                          eid(s, HANGZHOU)])
    s.turns.delete_turns([b.id])  # forgetting cleans up after the delete
    assert s.graph.triples_forget([b.id]) == {alibaba: "deleted", tencent: "reopened", city: "rebuilt"}
    assert s.graph.get_triples([tencent])[0].current and s.graph.get_triples([alibaba]) == []
    assert s.graph.get_triples([city])[0].sources == (c.id,)
    assert s.graph.triples_with([b.id]) == [] and s.graph.triples_forget([]) == {}
    assert s.graph.triples_forget([c.id]) == {city: "deleted"}
    assert s.graph.find_entities("default", "default", name="Hangzhou") == []  # no triple names it any more
    assert s.graph.find_entities("default", "default", name="Alibaba") == []
    assert [e.name for e in s.graph.find_entities("default", "default", name="Tencent")] == ["Tencent"]


def test_triples_of_a_fact_end_and_drop_with_it(full_store: FullStore):
    s = full_store
    a, b = say(s, TEAM, 2)
    [(old, _)] = s.graph.add_triples(TEAM, [fact_of(NI, "works_at", TENCENT, a, functional=True, fact_id=7)])
    [(other, _)] = s.graph.add_triples(TEAM, [fact_of(NI, "likes", None, a, value="cats", fact_id=8)])
    assert s.graph.fact_triples(7) == [old] and s.graph.fact_triples(424242) == []
    s.graph.end_fact_triples(7, AT + 60)  # its value was corrected by hand
    assert s.graph.get_triples([old])[0].valid_to == T0 + timedelta(seconds=60)
    assert s.graph.get_triples([other])[0].current
    [(new, _)] = s.graph.add_triples(TEAM, [fact_of(NI, "works_at", ALIBABA, b, AT + 100, functional=True, fact_id=9)])
    assert s.graph.get_triples([new])[0].fact_id == 9
    assert s.graph.drop_triples([new, 424242]) == {new: "deleted"}
    assert s.graph.get_triples([new]) == [] and not s.graph.get_triples([old])[0].current  # what it closed stays closed
    assert s.graph.find_entities("default", "default", name="Alibaba") == []


def test_insights_are_replaced_per_person_and_forgotten_with_their_evidence(full_store: FullStore):
    s = full_store
    a, b, c = say(s, TEAM, 3)
    s.graph.replace_insights(TEAM, "ni", [("probably a student", 0.6, [a.id]), ("likes math", 0.9, [a.id, b.id])])
    s.graph.replace_insights(TEAM, "bo", [("a night owl", 0.5, [c.id])])
    s.graph.replace_insights(CLUB, "ni", [("reads a lot", 0.7, [])])
    got = s.graph.insights(TEAM, "ni")
    assert sorted((i.text, i.confidence, tuple(sorted(i.sources)), i.person_id, i.scope) for i in got) == [
        ("likes math", 0.9, (a.id, b.id), "ni", TEAM), ("probably a student", 0.6, (a.id,), "ni", TEAM)]
    assert {i.text for i in s.graph.insights(TEAM)} == {"likes math", "probably a student", "a night owl"}
    assert [i.text for i in s.graph.insights(CLUB)] == ["reads a lot"] and s.graph.insights(FOREIGN) == []
    s.graph.replace_insights(TEAM, "ni", [("a teacher", 0.8, [b.id])])
    assert [i.text for i in s.graph.insights(TEAM, "ni")] == ["a teacher"]
    assert s.graph.insights_with([a.id]) == []
    (teacher,) = s.graph.insights_with([b.id])
    s.turns.delete_turns([b.id])
    assert s.graph.insights_with([b.id]) == [teacher] and s.graph.insights_with([]) == []
    assert s.graph.insights_forget([b.id]) == [teacher]
    assert s.graph.insights(TEAM, "ni") == [] and [i.text for i in s.graph.insights(TEAM)] == ["a night owl"]


def test_queue_insights_counts_and_coalesces(full_store: FullStore):
    s = full_store
    assert s.graph.queue_insights(TEAM, "ni", 2, every=5) is False
    assert s.graph.queue_insights(TEAM, "ni", 2, every=5) is False
    assert s.graph.queue_insights(TEAM, "bo", 4, every=5) is False  # counted per person
    assert s.graph.queue_insights(TEAM, "ni", 1, every=5) is True
    jobs = [j for j in s.jobs.claim(10) if j.kind == "insights"]
    assert [j.payload for j in jobs] == [{"tenant": "default", "agent": "default", "owner": "g:team",
                                          "person": "ni"}]
    s.jobs.finish(jobs[0].id)
    assert s.graph.queue_insights(TEAM, "ni", 4, every=5) is False  # the count started again
    assert s.graph.queue_insights(CLUB, "ni", 5, every=5) is True  # counted per scope
    assert s.graph.queue_insights(CLUB, "ni", 5, every=5) is False  # one waits already: it reads these too
