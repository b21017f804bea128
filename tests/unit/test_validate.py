"""Input checks at the API edge: each error is InvalidInput and names what to fix."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from pmemo import Settings, validate
from pmemo.errors import InvalidInput, PMemoError
from pmemo.models import Scope, check_id


def raises(match: str):
    return pytest.raises(InvalidInput, match=match)


def test_content_checks():
    s = Settings(max_content_chars=10)
    assert validate.content("预算10万", s) == "预算10万"
    with raises("content must be a string, got int"):
        validate.content(12, s)
    with raises("content is empty"):
        validate.content("  \n\t", s)
    with raises(r"content has 11 characters; the limit is 10 \(PMEMO_MAX_CONTENT_CHARS\)"):
        validate.content("x" * 11, s)


def test_role_and_actor():
    for role in validate.ROLES:
        assert validate.role(role) == role
    with raises("role='bot' is invalid: use one of user, assistant, system, tool"):
        validate.role("bot")
    assert validate.actor(None) is None
    assert validate.actor("  Louis ") == "Louis"
    for bad in ("", "   ", "x" * 129, 5):
        with raises("actor must be a non-empty string"):
            validate.actor(bad)


def test_timestamp():
    assert validate.timestamp(None).tzinfo is UTC
    when = datetime(2024, 3, 4, 9, 0)
    assert validate.timestamp(when) is when
    assert validate.timestamp("2024-03-04T09:12:00+08:00").utcoffset().total_seconds() == 8 * 3600
    with raises("is not ISO 8601"):
        validate.timestamp("yesterday")
    with raises("timestamp must be a datetime or ISO 8601 string, got float"):
        validate.timestamp(1.5)


def test_metadata():
    assert validate.metadata(None) == {}
    assert validate.metadata({"msg_id": "42"}) == {"msg_id": "42"}
    with raises("metadata must be a dict, got list"):
        validate.metadata(["a"])
    with raises("metadata must be JSON-serialisable"):
        validate.metadata({"when": datetime(2024, 1, 1)})
    with raises("metadata is over 64 kB"):
        validate.metadata({"blob": "x" * 70_000})


def test_query_and_limits():
    assert validate.query("预算") == "预算"
    with raises("query must be a string, got NoneType"):
        validate.query(None)
    with raises("query is empty"):
        validate.query(" ")
    with raises("query is over 20,000 characters"):
        validate.query("x" * 20_001)
    assert validate.positive_int("limit", 5, 10) == 5
    with raises("limit must be an integer, got bool"):
        validate.positive_int("limit", True, 10)
    with raises("limit must be an integer, got str"):
        validate.positive_int("limit", "5", 10)
    with raises(r"limit=0 is out of range: use 1..10"):
        validate.positive_int("limit", 0, 10)
    with raises(r"limit=11 is out of range"):
        validate.positive_int("limit", 11, 10)


def test_key_text():
    assert validate.key_text("  预算上限13万元 ") == "预算上限13万元"
    for bad in ("", "  ", None, 3):
        with raises("key memory text must be a non-empty string"):
            validate.key_text(bad)
    with raises("over 1,000 characters"):
        validate.key_text("x" * 1001)


@pytest.mark.parametrize("good", ["u1", "alice@example.com", "team:core", "a-b_c.d", "x" * 128])
def test_check_id_accepts(good):
    assert check_id("user_id", good) == good


@pytest.mark.parametrize("bad", ["", "has space", "x" * 129, "中文", "a/b", "a\nb"])
def test_check_id_rejects(bad):
    with raises("user_id=.* is invalid: use 1-128 letters, digits or _ . : @ -"):
        check_id("user_id", bad)


def test_check_id_rejects_non_strings():
    with raises("tenant_id must be a string, got int"):
        check_id("tenant_id", 7)


def test_scope_needs_exactly_one_owner():
    with raises("give exactly one of user_id or group_id"):
        Scope.of()
    with raises("give exactly one of user_id or group_id"):
        Scope.of(user_id="a", group_id="b")
    scope = Scope.of(group_id="team", session_id="s1", tenant_id="t1", agent_id="bot")
    assert (scope.owner, scope.group_id, scope.user_id) == ("g:team", "team", None)
    assert scope.key == "t1|bot|g:team"
    assert scope.owner_scope().session_id is None


def test_errors_are_one_tree():
    assert issubclass(InvalidInput, PMemoError) and issubclass(InvalidInput, ValueError)


def test_settings_reject_bad_values():
    with pytest.raises(InvalidInput, match="setting max_clusters must be >= 0"):
        Settings(max_clusters=-1)
    with pytest.raises(InvalidInput, match="cluster_threshold must be in"):
        Settings(cluster_threshold=1.5)
    with pytest.raises(InvalidInput, match="budget_key \\+ budget_long \\+ budget_mid"):
        Settings(budget_key=0.5, budget_long=0.5, budget_mid=0.5)
    with pytest.raises(InvalidInput, match="unknown setting"):
        Settings().replace(nope=1)
    with pytest.raises(InvalidInput, match="PMEMO_SHORT_TERM_TURNS='many' is not a valid int"):
        Settings.from_env({"PMEMO_SHORT_TERM_TURNS": "many"})
    assert Settings.from_env({"PMEMO_SHORT_TERM_TURNS": "5"}, summary_every=3).short_term_turns == 5
