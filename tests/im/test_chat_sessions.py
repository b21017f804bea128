"""A chat without sessions (issue 44 §2): a turn added without ``session_id`` joins its chat's
current session; silence (``session_gap_minutes``) or the day's turn in ``diary_tz`` starts a
new one, whose id two servers derive alike. Real SQLite, the hashing embedder."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pmemo import Settings, SyncMemory
from pmemo.chat_sessions import PREFIX, Rule, auto_id

T0 = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)  # 17:00 in Shanghai
SHANGHAI = ZoneInfo("Asia/Shanghai")


def _open(path: Path, **settings: object) -> SyncMemory:
    return SyncMemory.open(path, settings=Settings(embedder="hashing", data=str(path), **settings))  # type: ignore[arg-type]


def _say(minutes: list[float]) -> list[dict[str, object]]:
    return [{"group_id": "study", "actor_id": "ni", "actor": "周霓", "content": f"消息{n}",
             "timestamp": (T0 + timedelta(minutes=m)).isoformat()} for n, m in enumerate(minutes)]


def test_silence_and_the_day_start_sessions_and_two_servers_agree(tmp_path: Path) -> None:
    # 0, +1h, +2h59 (one session); +6h (silence: a new one, 03:00 next day in Shanghai: new day
    # too); +6h30 same; then a message at 23:59 and one at 00:01 Shanghai time: the day turns
    minutes = [0, 60, 179, 539, 569, 1859, 1861]
    sessions = []
    for name in ("one", "two"):
        with _open(tmp_path / name, diary_tz="Asia/Shanghai") as mem:
            sessions.append([t.session_id for t in mem.add_many(_say(minutes))])
    assert sessions[0] == sessions[1]  # derived from the chat and the first message's time alone
    s = sessions[0]
    assert s[0] == s[1] == s[2] != s[3] == s[4] != s[5] != s[6]
    assert all(x.startswith(PREFIX) for x in s)
    assert s[0] == auto_id("default|default|g:study", T0.timestamp())


def test_one_by_one_as_a_batch_and_after_an_explicit_session(tmp_path: Path) -> None:
    with _open(tmp_path / "a") as mem:
        one = [mem.add(**item).session_id for item in _say([0, 10, 400])]  # type: ignore[arg-type]
        assert one[0] == one[1] != one[2]
        assert [t.step for t in mem.turns(group_id="study", session_id=one[0])] == [1, 2]
        # a caller's own session is the chat's current one for the next sessionless message
        mine = mem.add(group_id="study", session_id="mine", content="x", timestamp=(T0 + timedelta(minutes=410)))
        nxt = mem.add(group_id="study", content="y", timestamp=(T0 + timedelta(minutes=420)))
        assert mine.session_id == nxt.session_id == "mine" and nxt.step == 2
        # a private chat is a chat of its own
        assert mem.add(user_id="ni", content="z", timestamp=T0).session_id != one[0]


def test_gap_zero_breaks_only_at_the_day(tmp_path: Path) -> None:
    with _open(tmp_path / "a", session_gap_minutes=0) as mem:
        s = [t.session_id for t in mem.add_many(_say([0, 600, 14 * 60 + 59, 15 * 60 + 1]))]
    assert s[0] == s[1] == s[2] != s[3]  # UTC: the day turns at 15:00 after 09:00


def test_a_bad_setting_names_itself() -> None:
    with pytest.raises(Exception, match="session_gap_minutes"):
        Settings(session_gap_minutes=-1)


@given(st.lists(st.floats(0, 3 * 24 * 3600), min_size=1, max_size=30), st.just(0.0) | st.floats(1, 600))
def test_a_session_never_spans_a_silence_or_a_day(gaps: list[float], gap_min: float) -> None:
    rule, chat = Rule(gap_min * 60, SHANGHAI), "t|a|g:x"
    epoch, latest, seen = T0.timestamp(), None, []
    for g in gaps:
        epoch += g
        session = rule.session(latest, epoch, chat)
        if latest is not None and session == latest[0]:
            assert rule.continues(latest[1], epoch)
            assert not gap_min or epoch - latest[1] < gap_min * 60
        else:
            assert session == auto_id(chat, epoch)
        latest = (session, epoch)
        seen.append(session)
