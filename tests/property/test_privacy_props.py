"""Privacy between groups (issue 17): over random groups, people and messages, what was said in
one group or a private chat never appears in another group's search, context, profile, people
or agenda view. Every message carries its chat's marker word, so a leak is a marker out of place."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path
from tempfile import TemporaryDirectory

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pmemo import SyncMemory

T0 = datetime(2026, 9, 1, 9, 0, tzinfo=timezone(timedelta(hours=8)))
GROUPS = ("ga", "gb", "gc")
MARK = {"ga": "qa", "gb": "qb", "gc": "qc", "private": "qp"}  # a word only that chat says
NAMES = ("周霓", "许文涛", "Neko", "陈浩", "Alex")
SAYINGS = (
    "我对花生{m}过敏",
    "我在云杉{m}工作",
    "I love hiking{m}.",
    "叫我霓{m}就行",
    "12月23日考研{m}",
    "{other}对芒果{m}过敏",
    "{other}, everyone calls her Kiki{m}",
    "今天吃了火锅{m}，好开心",
)

messages = st.lists(
    st.tuples(st.sampled_from([*GROUPS, "private"]), st.integers(0, len(NAMES) - 1),
              st.integers(0, len(SAYINGS) - 1), st.integers(0, len(NAMES) - 1)),
    min_size=4, max_size=18,
)


def leaked(text: str, group: str) -> set[str]:
    return {m for g, m in MARK.items() if g != group and m in text}


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(messages)
def test_no_chat_leaks_into_another_groups_reads(script: list[tuple[str, int, int, int]]) -> None:
    with TemporaryDirectory() as tmp, SyncMemory.open(Path(tmp), embedder="hashing") as m:
        for n, (chat, who, saying, other) in enumerate(script):
            where = {"user_id": f"p{who}"} if chat == "private" else {"group_id": chat}
            m.add(session_id="s", actor_id=f"p{who}", actor=NAMES[who], timestamp=T0 + timedelta(hours=n),
                  content=SAYINGS[saying].format(m=MARK[chat], other=NAMES[other]), **where)
        m.drain()
        everything = " ".join([*NAMES, "过敏 工作 hiking 考研 火锅 Kiki 霓", *MARK.values()])
        for group in GROUPS:
            seen: list[str] = []
            for hit in m.search(everything, group_id=group, limit=50):
                seen += [hit.text, *(t.content for t in hit.sources)]
            for asker in range(len(NAMES)):
                pack = m.context(everything, group_id=group, asker=f"p{asker}", recent=[everything],
                                 at=T0 + timedelta(days=100))
                shown = [h for h in pack.items if h.tier != "input"]  # the input is the query itself
                seen += [h.text for h in shown] + [t.content for h in shown for t in h.sources]
                seen += [f"{f.key} {f.value}" for f in m.profile(f"p{asker}", group_id=group, history=True)]
                seen += [f"{i.what} {i.text}" for i in m.agenda(f"p{asker}", group_id=group)]
            assert not any(leaked(text, group) for text in seen), [t for t in seen if leaked(t, group)][:3]
