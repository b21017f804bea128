"""What a read asked at a time T reads of the turns (issue 44 §5, Time): keyword candidates,
the session's recent turns and what each person had said, all as of T, on every backend."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from pmemo.models import Scope
from pmemo.stores.base import FullStore, NewTurn
from pmemo.text.segment import segment

CST = timezone(timedelta(hours=8))
T0 = datetime(2026, 12, 1, 20, 0, tzinfo=CST)
CHAT = Scope.of(group_id="study", session_id="study-chat")
OTHER = Scope.of(group_id="work", session_id="work-chat")


def said(scope: Scope, who: str, text: str, day: int) -> NewTurn:
    return NewTurn(scope, "user", text, who, T0 + timedelta(days=day), {}, segment(text), who)


def cut(day: float) -> float:
    return (T0 + timedelta(days=day)).timestamp()


def chat(store: FullStore) -> list[int]:
    return [t.id for t in store.turns.add_turns([
        said(CHAT, "ni", "周末去爬山吗", 0),
        said(CHAT, "wt", "爬山我去，带上相机", 3),
        said(CHAT, "ni", "爬山改到下周了", 7),
        said(CHAT, "ni", "我在准备考试", 12),
        said(OTHER, "ni", "爬山的照片发群里了", 2),
    ])]


def test_lexical_until_keeps_the_turns_said_by_then(full_store: FullStore) -> None:
    ids = chat(full_store)
    owner = CHAT.owner_scope()
    everything = dict(full_store.turns.lexical(owner, ["爬山"], 10))
    assert set(ids[:4]) == set(everything)  # the exam line too, by the context of the line before it
    by_day_5 = full_store.turns.lexical(owner, ["爬山"], 10, until=cut(5))
    assert {i for i, _ in by_day_5} == set(ids[:2])
    assert dict(by_day_5) == {i: everything[i] for i in ids[:2]}  # scored as without the cut
    assert full_store.turns.lexical(owner, ["爬山"], 10, session_id="study-chat", until=cut(5)) == by_day_5
    assert full_store.turns.lexical(owner, ["爬山"], 10, session_id="other", until=cut(5)) == []
    assert full_store.turns.lexical(owner, ["爬山"], 10, until=cut(-1)) == []


def test_last_turns_until_are_the_last_said_by_then(full_store: FullStore) -> None:
    ids = chat(full_store)
    owner = CHAT.owner_scope()
    assert [t.id for t in full_store.turns.last_turns(owner, "study-chat", 2)] == ids[2:4]
    assert [t.id for t in full_store.turns.last_turns(owner, "study-chat", 2, until=cut(8))] == ids[1:3]
    # a turn said at the very time counts
    assert [t.id for t in full_store.turns.last_turns(owner, "study-chat", 5, until=cut(3))] == ids[:2]
    assert full_store.turns.last_turns(owner, "study-chat", 5, until=cut(-1)) == []


def test_spoken_is_what_each_person_had_said_by_then(full_store: FullStore) -> None:
    chat(full_store)
    owner = CHAT.owner_scope()
    assert full_store.turns.spoken(owner, ["ni", "wt", "nobody"], cut(8)) == {"ni": (cut(0), cut(7), 2),
                                                                         "wt": (cut(3), cut(3), 1)}
    # the other group's turn of day 2 is not this group's
    assert full_store.turns.spoken(owner, ["ni", "wt"], cut(2)) == {"ni": (cut(0), cut(0), 1)}
    assert full_store.turns.spoken(owner, ["ni"], cut(20)) == {"ni": (cut(0), cut(12), 3)}
    assert full_store.turns.spoken(owner, [], cut(20)) == {}


def test_turn_times_are_when_each_turn_was_said(full_store: FullStore) -> None:
    ids = chat(full_store)
    assert full_store.turns.turn_times([ids[2], ids[0], 10**9]) == {ids[2]: cut(7), ids[0]: cut(0)}
    assert full_store.turns.turn_times([]) == {}
