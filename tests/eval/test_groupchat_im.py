"""The group-chat generator with the shapes of real IM groups (issue 44 §2, groupchat_im.py): the
base scenario is unchanged beside them; answers come later than their question, interleaved with
another thread, quoted, only "@提问的人 …", or by the platform's reply id; notices, a leave and
return, media placeholders; no session ids."""

from __future__ import annotations

import json

import pytest

from pmemo.eval.groupchat_gen import generate
from pmemo.eval.groupchat_im import THREADS
from pmemo.eval.groupchat_run import turn_item
from pmemo.eval.groupchat_scenario import Scenario, from_json, to_json


@pytest.fixture(scope="module")
def pair() -> tuple[Scenario, Scenario]:
    return generate(3, messages=600), generate(3, messages=600, im=True)


def test_the_base_scenario_is_kept(pair: tuple[Scenario, Scenario]) -> None:
    base, im = pair
    said = [(m.actor_id, m.content, m.timestamp) for m in im.messages]
    assert all((m.actor_id, m.content, m.timestamp) in said for m in base.messages)
    assert im.questions[: len(base.questions)] == base.questions or [q.query for q in base.questions] == [
        q.query for q in im.questions[: len(base.questions)]]
    assert from_json(json.loads(json.dumps(to_json(im), ensure_ascii=False))) == im


def test_replies_come_later_in_every_shape(pair: tuple[Scenario, Scenario]) -> None:
    _, im = pair
    replies = [q for q in im.questions if q.kind == "reply"]
    assert len(replies) == len(THREADS) and all(len(q.evidence) == 2 for q in replies)  # said twice, asked once
    shapes = {"at": 0, "quote": 0, "reply_id": 0}
    for q, ev in [(r, e) for r in replies for e in r.evidence]:
        answer = im.messages[ev]
        assert q.answer in answer.content and answer.group_id == q.group_id
        questions = {t[3] for t in THREADS}
        asked = [m for m in im.messages[:ev] if m.actor_id == q.asker and m.content in questions][-1]
        between = [m for m in im.messages[asked.idx + 1:ev] if m.group_id == q.group_id]
        assert len(between) >= 2  # another thread goes on meanwhile
        if answer.content.startswith("@"):
            shapes["at"] += 1
        elif answer.content.startswith("「"):
            shapes["quote"] += 1
        else:
            assert answer.metadata is not None and answer.metadata["reply_to_message"] == f"m{asked.idx}"
            shapes["reply_id"] += 1
    assert all(n >= 6 for n in shapes.values()), shapes


def test_notices_media_and_no_sessions(pair: tuple[Scenario, Scenario]) -> None:
    _, im = pair
    notices = [m.content for m in im.messages if m.role == "system"]
    assert any("修改群名片为" in t for t in notices) and any("changed his group nickname to" in t for t in notices)
    assert "赵磊 退出了群聊" in notices and "Leo赵 加入了群聊" in notices
    assert any("撤回了一条消息" in t for t in notices) and any("拍了拍" in t for t in notices)
    assert sum(m.content.startswith("[") for m in im.messages if m.role == "user") >= 100
    assert all(m.session_id == "" and m.metadata and m.metadata["message_id"] == f"m{m.idx}" for m in im.messages)
    item = turn_item(im.messages[0])
    assert item["session_id"] is None and item["metadata"]["message_id"] == "m0"
