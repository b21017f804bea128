"""Bad input through the public API: a clear error naming what to fix, data intact."""

from __future__ import annotations

from datetime import datetime

import pytest

from pmemo import InvalidInput, NotFound, StoreCorrupt, StoreLocked, SyncMemory


@pytest.fixture
def seeded(mem: SyncMemory):
    turn = mem.add(
        user_id="u1", session_id="s1", content="预算不能超过10万元", metadata={"msg_id": "1"}
    )
    mem.drain()
    return mem, turn


def intact(mem: SyncMemory, turn) -> None:
    assert mem.turns(user_id="u1") == [turn]
    assert mem.search("预算", user_id="u1")[0].sources == (turn,)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"content": ""}, "content is empty"),
        ({"content": "   \n"}, "content is empty"),
        ({"content": "x" * 1_000_000}, "content has 1,000,000 characters; the limit is 100,000"),
        ({"content": 42}, "content must be a string, got int"),
        ({"content": None}, "content must be a string, got NoneType"),
        ({"content": "ok", "user_id": "has space"}, "user_id='has space' is invalid"),
        ({"content": "ok", "user_id": "x" * 129}, "user_id=.* is invalid: use 1-128"),
        ({"content": "ok", "user_id": 7}, "user_id must be a string, got int"),
        ({"content": "ok", "session_id": "a b"}, "session_id='a b' is invalid"),
        ({"content": "ok", "tenant_id": ""}, "tenant_id='' is invalid"),
        ({"content": "ok", "agent_id": ["x"]}, "agent_id must be a string, got list"),
        ({"content": "ok", "group_id": "g1"}, "give exactly one of user_id or group_id"),
        ({"content": "ok", "role": "robot"}, "role='robot' is invalid"),
        ({"content": "ok", "timestamp": "tomorrow"}, "is not ISO 8601"),
        ({"content": "ok", "timestamp": 17.0}, "timestamp must be a datetime"),
        ({"content": "ok", "metadata": "msg 1"}, "metadata must be a dict, got str"),
        (
            {"content": "ok", "metadata": {"when": datetime(2024, 1, 1)}},
            "metadata must be JSON-serialisable",
        ),
        ({"content": "ok", "colour": "red"}, "unexpected keyword|unknown"),
        # a lone surrogate cannot be stored as UTF-8: named by its path, in a key or a value
        ({"content": "ok", "metadata": {"\ud800": "v"}}, r"^metadata: the key '\\ud800' contains a lone surrogate"),
        ({"content": "ok", "metadata": {"a": {"b": [1, 2, "\udfff"]}}}, r"^metadata\.a\.b\[2\]: contains a lone"),
        ({"content": "ok", "metadata": {"a": [{"\udc00": 1}]}}, r"^metadata\.a\[0\]: the key '\\udc00' contains"),
        ({"content": "bad \ud800"}, r"^content: contains a lone surrogate \(U\+D800\)"),
        ({"content": "ok", "actor": "Ana\ud800"}, r"^actor: contains a lone surrogate"),
    ],
)
def test_add_rejects_bad_input_and_keeps_data(seeded, kwargs, message):
    mem, turn = seeded
    args = {"user_id": "u1", "session_id": "s1", **kwargs}
    with pytest.raises((InvalidInput, TypeError), match=message):
        mem.add(**args)
    intact(mem, turn)


def test_add_many_is_all_or_nothing(seeded):
    mem, turn = seeded
    with pytest.raises(InvalidInput, match="content is empty"):
        mem.add_many(
            [
                {"user_id": "u1", "session_id": "s1", "content": "fine"},
                {"user_id": "u1", "session_id": "s1", "content": ""},
            ]
        )
    for bad, message in [
        ([], "non-empty list"),
        ("turns", "non-empty list"),
        ([3], "must be a dict, got int"),
        ([{"user_id": "u1", "session_id": "s1", "content": "x", "nope": 1}], "unknown turn field"),
    ]:
        with pytest.raises(InvalidInput, match=message):
            mem.add_many(bad)
    intact(mem, turn)


def test_read_calls_reject_bad_arguments(seeded):
    mem, turn = seeded
    cases = [
        (lambda: mem.search("", user_id="u1"), "query is empty"),
        (lambda: mem.search(None, user_id="u1"), "query must be a string"),
        (lambda: mem.search("预算", user_id="u1", limit=0), r"limit=0 is out of range"),
        (lambda: mem.search("预算", user_id="u1", limit="5"), "limit must be an integer, got str"),
        (lambda: mem.search("预算"), "give exactly one of user_id or group_id"),
        (lambda: mem.search("预算", user_id="u1", sesion_id="s1"), "unknown argument"),
        (
            lambda: mem.context("预算", user_id="u1", budget_tokens=-5),
            "budget_tokens=-5 is out of range",
        ),
        (
            lambda: mem.context("预算", user_id="u1", budget_tokens=10**9),
            "budget_tokens=.* is out of range",
        ),
        (lambda: mem.context("预算", user_id="u1", with_input="no"), "with_input must be true or false, got str"),
        (lambda: mem.get_turn("1"), "turn_id must be an integer, got str"),
        (lambda: mem.turns(user_id="u1", since="last week"), "is not ISO 8601"),
        (lambda: mem.add_key("", user_id="u1"), "key memory text must be a non-empty string"),
        (lambda: mem.update_key(True, "x"), "key line id must be an integer, got bool"),
    ]
    for call, message in cases:
        with pytest.raises(InvalidInput, match=message):
            call()
    intact(mem, turn)


def test_unknown_ids_are_not_found(seeded):
    mem, turn = seeded
    for call, message in [
        (lambda: mem.delete_session("nope", user_id="u1"), "session 'nope' has no turns for u:u1"),
        (lambda: mem.delete_session("s1", user_id="someone-else"), "session 's1' has no turns"),
        (lambda: mem.delete_turn(999_999), "turn 999999 does not exist"),
        (lambda: mem.delete_turn(turn.id, tenant_id="other"), "does not exist in tenant 'other'"),
        (lambda: mem.get_turn(999_999), "turn 999999 does not exist"),
        (lambda: mem.delete_turn_at("s1", 7, user_id="u1"), "has no turn at step 7"),
        (lambda: mem.delete_key(5), "key line 5 does not exist"),
        (lambda: mem.delete_summary(5), "summary 5 does not exist"),
    ]:
        with pytest.raises(NotFound, match=message):
            call()
    intact(mem, turn)


def test_corrupt_database_is_reported_and_left_untouched(tmp_path):
    with SyncMemory.open(tmp_path, embedder="hashing") as m:
        m.add(user_id="u1", session_id="s1", content="hello")
    db = tmp_path / "pmemo.db"
    for extra in ("pmemo.db-wal", "pmemo.db-shm"):
        (tmp_path / extra).unlink(missing_ok=True)
    garbage = bytes(range(256)) * 64
    db.write_bytes(garbage)
    with pytest.raises(
        StoreCorrupt, match="is not a readable pmemo database.*restore it from a backup"
    ):
        SyncMemory.open(tmp_path, embedder="hashing")
    assert db.read_bytes() == garbage
    # the failed open released the directory: a second attempt reports the same, not "locked"
    with pytest.raises(StoreCorrupt):
        SyncMemory.open(tmp_path, embedder="hashing")


def test_data_path_that_is_a_file(tmp_path):
    path = tmp_path / "file"
    path.write_text("not a directory")
    with pytest.raises(InvalidInput, match="is a file; give a directory"):
        SyncMemory.open(path, embedder="hashing")
    assert path.read_text() == "not a directory"


def test_locked_database(tmp_path):
    with SyncMemory.open(tmp_path, embedder="hashing") as first:
        turn = first.add(user_id="u1", session_id="s1", content="预算不能超过10万元")
        with pytest.raises(StoreLocked, match="in use by another pmemo process"):
            SyncMemory.open(tmp_path, embedder="hashing")
        assert first.get_turn(turn.id) == turn  # the first holder is unaffected
    with SyncMemory.open(tmp_path, embedder="hashing") as again:  # released on close
        assert again.get_turn(turn.id) == turn


def test_unknown_embedder_and_settings(tmp_path):
    with pytest.raises(InvalidInput, match="unknown embedder 'bert'"):
        SyncMemory.open(tmp_path, embedder="bert")
    with pytest.raises(InvalidInput, match="embedder must be a name or have model_id"):
        SyncMemory.open(tmp_path, embedder=object())
    with SyncMemory.open(tmp_path, embedder="hashing") as m:  # the failed opens left no lock
        assert m.stats()["turns"] == 0
