"""@mentions are references to people (issue 44 §2): person ids from the platform, else each
"@群名片" read against the chat's registry; an answer that is only "@提问的人 …" is tied to that
person's latest question. Real SQLite, the hashing embedder."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from pmemo import SyncMemory

T0 = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)
WHO = {"ni": "周霓", "wl": "王磊", "lq": "李琴", "cy": "陈宇"}


def _turns(lines: list[tuple[str | None, str, dict[str, Any]]], start: int = 0) -> list[dict[str, Any]]:
    return [{"group_id": "study", "actor_id": pid, "actor": WHO.get(pid or ""), "content": text, "metadata": meta,
             "role": "user" if pid else "system", "timestamp": (T0 + timedelta(minutes=start + n)).isoformat()}
            for n, (pid, text, meta) in enumerate(lines)]


def test_an_answer_that_only_mentions_the_asker_is_tied_to_the_question(mem: SyncMemory) -> None:
    turns = mem.add_many(_turns([
        ("ni", "周末谁能帮我搬家？从望京搬到回龙观", {}),
        ("lq", "今晚的羽毛球还打吗", {}),
        ("cy", "打啊，七点老地方", {}),
        ("ni", "谢谢大家", {}),  # not a question: the @answer skips it
        ("wl", "@周霓 我可以，周六上午有空", {}),
        ("cy", "@李琴 我带拍子", {}),
        ("lq", "@霓霓 加油", {"mentions": ["ni"]}),  # the platform says whom; her card never was 霓霓
    ]))
    q, badminton = turns[0], turns[1]
    assert turns[4].reply_to == q.id and turns[5].reply_to == badminton.id and turns[6].reply_to == q.id
    assert turns[2].reply_to is None and turns[3].reply_to is None
    mem.drain()
    hits = [h.text for h in mem.search("搬家谁帮忙", group_id="study", limit=5)]
    assert "@周霓 我可以，周六上午有空" in hits


def test_mentions_are_person_ids(mem: SyncMemory) -> None:
    turns = mem.add_many(_turns([
        ("ni", "大家好", {}), ("wl", "你好", {}),
        (None, "周霓 修改群名片为 霓霓-备考中", {}),
    ]))
    mem.drain()
    later = mem.add_many(_turns([
        ("wl", "@霓霓-备考中 一起去图书馆吗", {}),
        ("lq", "@王磊 @周霓 明天见", {}),
        ("cy", "@小透明 你是谁", {}),
        ("cy", "@某人 你好", {"mentions": ["lq"]}),
    ], start=10))
    people = mem._memory._tiers.people  # the registry the background job reads
    assert [people.mentioned(t) for t in later] == [["ni"], ["wl", "ni"], [], ["lq"]]
    assert people.mentioned(turns[0]) == []
