"""Roles resolve to the member who holds them when the chat says so (issue 44 §2): "我是班长",
"@小王 是群主", "群主是小王", "I'm the admin"; in that chat only; questions and denials give none."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from pmemo import SyncMemory
from pmemo.people.roles import role_claims

T0 = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)
WHO = {"ni": "周霓", "wl": "王磊", "lq": "李琴", "cy": "陈宇", "tom": "Tom", "ann": "Ann"}


@pytest.mark.parametrize("text, role, about, target", [
    ("大家好，我是班长，有事找我", "班长", "speaker", None),
    ("我是这个群的群主", "群主", "speaker", None),
    ("我是咱们班的老师，大家好", "老师", "speaker", None),
    ("@王磊 是群主，别乱发广告", "群主", "other", "王磊"),
    ("群主是李琴吧", "群主", "other", "李琴"),
    ("管理员是@陈宇", "管理员", "other", "陈宇"),
    ("王磊是我们的班主任", "班主任", "other", "王磊"),
    ("I'm the admin, ping me", "admin", "speaker", None),
    ("Tom is the group owner", "group owner", "other", "Tom"),
])
def test_role_claims(text: str, role: str, about: str, target: str | None) -> None:
    assert [(r.alias, r.about, r.target) for r in role_claims(text)] == [(role, about, target)]


@pytest.mark.parametrize("text", ["谁是群主？", "我不是班长", "我是老师", "他是班长", "班长是谁", "Who is the admin?",
                                  "Tom is not the admin", "我是班长吗"])
def test_no_role_from_questions_denials_or_jobs(text: str) -> None:
    assert role_claims(text) == []


def _say(group: str, lines: list[tuple[str, str]], start: int = 0) -> list[dict[str, object]]:
    return [{"group_id": group, "actor_id": pid, "actor": WHO[pid], "content": text,
             "timestamp": (T0 + timedelta(minutes=start + n)).isoformat()} for n, (pid, text) in enumerate(lines)]


def test_roles_name_their_member_in_that_chat_only(mem: SyncMemory) -> None:
    mem.add_many(_say("class", [("ni", "大家好，我是班长，有事找我"), ("wl", "收到"),
                                ("lq", "@王磊 是群主，别乱发广告"), ("cy", "好的")]))
    mem.add_many(_say("other", [("cy", "我是班长"), ("ni", "hi")]))
    mem.drain()

    def who(text: str, group: str) -> list[tuple[str, ...]]:
        return [m.person_ids for m in mem.resolve_people(text, group_id=group) if m.alias in ("班长", "群主")]

    assert who("班长说明天不上课", "class") == [("ni",)]
    assert who("群主把我踢了", "class") == [("wl",)]
    assert who("班长说明天不上课", "other") == [("cy",)]
