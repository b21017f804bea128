"""The group-chat harness end to end on a small scenario, its helpers, and ``pmemo eval groupchat``.

Quality numbers are measured, not asserted here; leaks are, because zero is a privacy property.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from eval_cli import app
from typer.testing import CliRunner

from pmemo.eval.groupchat_gen import generate
from pmemo.eval.groupchat_report import ROWS, SHOWN, markdown, table_rows
from pmemo.eval.groupchat_run import (
    chat_runs,
    leak_asker,
    run,
    subject_of,
    throughput_messages,
    turn_item,
)
from pmemo.eval.groupchat_scenario import QUESTION_KINDS, Message, Scenario

SHARES = ("recall_at_5", "bm25_recall_at_5", "cue_recall_at_5", "bm25_cue_recall_at_5", "cue_first_fact",
          "cue_context_2k", "subject_accuracy", "subject_extracted", "alias_precision", "alias_recall",
          "alias_f1", "alias_precision_before", "alias_recall_before", "profile_checks", "followups")  # fmt: skip


@pytest.fixture(scope="module")
def small() -> Scenario:
    return generate(0, messages=400)


@pytest.fixture(scope="module")
def report(small: Scenario, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return run(small, embedder="hashing", data_dir=tmp_path_factory.mktemp("gc"), ingest_turns=300)


def test_report_has_every_metric(report: dict[str, Any]) -> None:
    wanted = {r.pmemo for r in ROWS} | {r.bm25 for r in ROWS if r.bm25}
    assert wanted <= set(report["metrics"])
    assert all(report["metrics"][k] is not None for k in wanted), report["metrics"]
    for key in SHARES:
        assert 0.0 <= report["metrics"][key] <= 1.0, key
    assert report["metrics"]["search_p50_ms"] > 0 and report["metrics"]["context_people_ratio"] > 0
    assert report["metrics"]["ingest_ratio"] > 0 and report["timing"]["ingest"]["turns"] == 300
    json.dumps(report, ensure_ascii=False)  # a plain dict, as written to groupchat.json


def test_no_context_of_the_replay_shows_filler(report: dict[str, Any]) -> None:
    """Issue 44 §5: the generated chat's laughter, stickers, "早" and "收到" are in no context, and
    consecutive contexts are compared for the prefix a prompt cache reuses."""
    m = report["metrics"]
    assert m["context_filler_lines"] == 0 and 0 < m["context_tokens"] <= 2000
    assert 0.0 <= m["stable_prefix"] <= 1.0


def test_person_questions_are_measured_now_and_as_before(report: dict[str, Any], small: Scenario) -> None:
    """Issue 44 §3, §9: each person question's 600-token context, with the person card and with
    the people section as before (the same store, person_card=false), in one run; a card never
    holds another person's fact."""
    m = report["metrics"]
    for key in ("person_fact_600", "person_fact_600_before", "person_card_600", "person_card_600_before"):
        assert 0.0 <= m[key] <= 1.0, key
    assert m["person_misplaced"] == 0 and m["person_misplaced_before"] >= 0
    assert report["counts"]["person_questions"] == len(small.person_questions) > 0
    assert set(report["person_by_kind"]) == {"who", "fact", "pronoun"}
    assert "## Person questions at 600 tokens, by kind" in markdown(report)


def test_nothing_leaks_between_chats(report: dict[str, Any]) -> None:
    assert report["metrics"]["leaks"] == 0, report["failures"]["leaks"]
    assert report["counts"]["leaks_by_search"] == report["counts"]["leaks_by_context"] == 0
    assert report["counts"]["leak_probes"] > 0


def test_counts_kinds_and_failures(report: dict[str, Any], small: Scenario) -> None:
    assert report["counts"]["questions"] == len(small.questions)
    assert report["counts"]["cues"] == len(small.cues) > 0
    assert report["counts"]["alias_checks"] == len(small.alias_checks)
    assert report["counts"]["subject_checks"] == len(small.subject_checks)
    assert set(report["by_kind"]) == {q.kind for q in small.questions} <= set(QUESTION_KINDS)
    for kind in report["by_kind"].values():
        assert 0.0 <= kind["pmemo"] <= 1.0 and 0.0 <= kind["bm25"] <= 1.0
    assert set(report["failures"]) == set(report["failures_total"])
    for name, items in report["failures"].items():
        assert isinstance(items, list) and len(items) <= SHOWN
        assert report["failures_total"][name] >= len(items)


def test_markdown_shows_every_row(report: dict[str, Any]) -> None:
    text = markdown(report)
    header, body = table_rows(report)
    assert "| metric | pmemo | bm25 | target | met |" in text
    assert [row[0] for row in body] == [r.label for r in ROWS]
    assert all(row[0] in text for row in body) and "## R@5 by question kind" in text


# -- helpers ------------------------------------------------------------------------------------


def test_chat_runs_keep_time_order_and_one_chat_per_call(small: Scenario) -> None:
    runs = chat_runs(small.messages, 7)
    assert [m.idx for r in runs for m in r] == [m.idx for m in small.messages]
    for r in runs:
        assert len(r) <= 7 and len({(m.group_id, m.user_id) for m in r}) == 1


def test_turn_items_carry_scope_and_speaker(small: Scenario) -> None:
    group = next(m for m in small.messages if m.group_id and m.actor_id)
    private = next(m for m in small.messages if m.user_id)
    assert turn_item(group)["group_id"] == group.group_id and turn_item(group)["actor_id"] == group.actor_id
    assert "actor_id" not in turn_item(group, with_person=False)
    assert turn_item(private)["user_id"] == private.user_id and "group_id" not in turn_item(private)


def test_subject_of_prefers_the_fact_that_carries_the_value() -> None:
    from datetime import UTC, datetime

    from pmemo.models import Fact, Scope

    now = datetime(2025, 9, 1, tzinfo=UTC)

    def fact(subject: str | None, value: str, owner: str = "g:g1") -> Fact:
        return Fact(1, Scope("default", "default", owner), "fact", "allergy", value, 0.9, 1, now, now, now,
                    None, None, "inferred", (7,), subject_id=subject)  # fmt: skip

    assert subject_of([fact("p2", "芒果"), fact("p1", "花生")], "花生") == "p1"
    assert subject_of([fact("p2", "x"), fact("p2", "y"), fact("p1", "z")], "花生") == "p2"
    assert subject_of([fact(None, "花生", owner="u:p9")], "花生") == "p9"  # a private chat's own user
    assert subject_of([], "花生") is None


def test_leak_asker_is_someone_else_in_the_group(small: Scenario) -> None:
    for probe in small.leak_probes:
        asker = leak_asker(probe, small)
        members = next(g.members for g in small.groups if g.id == probe.group_id)
        assert asker in members
        assert asker not in {small.messages[i].actor_id for i in probe.forbidden}


def test_throughput_messages_are_one_group_in_time_order() -> None:
    msgs: list[Message] = throughput_messages(3, 500)
    assert len(msgs) == 500 and len({m.group_id for m in msgs}) == 1
    assert [m.timestamp for m in msgs] == sorted(m.timestamp for m in msgs)


# -- the command --------------------------------------------------------------------------------


def test_cli_generates_runs_and_writes_both_files(tmp_path: Path) -> None:
    args = ["eval", "groupchat", "--messages", "300", "--embedder", "hashing", "--out", str(tmp_path / "out"),
            "--data", str(tmp_path / "data"), "--ingest-turns", "200", "--quiet"]  # fmt: skip
    result = CliRunner().invoke(app(), args)
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "out" / "groupchat.json").read_text("utf-8"))
    assert data["metrics"]["leaks"] == 0 and data["meta"]["scenario"]["messages"] == 300
    assert data["meta"]["machine"]["python"]
    assert "| metric | pmemo | bm25 | target | met |" in (tmp_path / "out" / "groupchat.md").read_text("utf-8")


def test_cli_writes_a_scenario_and_reads_it_back(tmp_path: Path) -> None:
    file = tmp_path / "scenario.json"
    runner = CliRunner()
    result = runner.invoke(app(), ["eval", "groupchat", "--write-scenario", str(file), "--messages", "250"])
    assert result.exit_code == 0, result.output
    assert json.loads(file.read_text("utf-8"))["format"] == "pmemo-groupchat/1"
    args = ["eval", "groupchat", str(file), "--embedder", "hashing", "--out", str(tmp_path / "out"),
            "--data", str(tmp_path / "data"), "--ingest-turns", "0", "--quiet"]  # fmt: skip
    result = runner.invoke(app(), args)
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "out" / "groupchat.json").read_text("utf-8"))
    assert data["meta"]["file"] == str(file) and data["metrics"]["ingest_ratio"] is None


def test_cli_errors_name_the_problem(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(app(), ["eval", "groupchat", str(tmp_path / "missing.json"), "--embedder", "hashing"])
    assert result.exit_code == 2 and "does not exist" in result.output
    (tmp_path / "bad.json").write_text('{"format": "nope"}', "utf-8")
    result = runner.invoke(app(), ["eval", "groupchat", str(tmp_path / "bad.json"), "--embedder", "hashing"])
    assert result.exit_code == 2 and "format" in result.output
    result = runner.invoke(app(), ["eval", "locomo"])
    assert result.exit_code != 0 and "needs the dataset file" in result.output
