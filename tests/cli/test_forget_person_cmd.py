"""``pmemo forget --person`` (issue 44 §7): on the store through typer's CliRunner, and beside a
running ``pmemo serve`` (client mode, over ``DELETE /v1/people/{id}``), as a person runs it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import typer

from pmemo.cli import core_cmds, forget_cmd, people_cmds

from .served import pmemo, serving
from .test_people_cmds import STUDY, _clean_env, fails, ok, say  # noqa: F401  (a fixture)

WORK = ("--group", "work")


@pytest.fixture(scope="module")
def app() -> typer.Typer:
    app = typer.Typer()
    for module in (core_cmds, people_cmds, forget_cmd):
        module.register(app)
    return app


def chats(app: typer.Typer, data: Path) -> None:
    say(app, data, "ni", "周霓", "大家好，叫我霓霓就行。我家猫叫年糕", "10:00")
    say(app, data, "wt", "许文涛", "周霓对花生过敏", "10:01")
    ok(app, data, "add", "我在腾讯工作", *WORK, "--session", "w1", "--actor", "周霓", "--actor-id", "ni")


def test_forget_a_person_in_one_group_and_everywhere(app: typer.Typer, tmp_path: Path) -> None:
    data = tmp_path / "data"
    chats(app, data)
    plan = json.loads(ok(app, data, "forget", "--person", "ni", *STUDY, "--dry-run", "--json"))
    assert plan["dry_run"] and len(plan["turns"]) == 1 and not plan["record"]
    said = ok(app, data, "forget", "--person", "ni", *STUDY)
    batch = re.search(r"pmemo restore (\d+)\)", said)
    assert batch and "1 turn(s)" in said and "their membership of g:study" in said, said
    people = json.loads(ok(app, data, "people", "list", *STUDY, "--json"))
    assert [p["person_id"] for p in people] == ["wt"]
    assert "restored batch" in ok(app, data, "restore", batch.group(1))
    assert {p["person_id"] for p in json.loads(ok(app, data, "people", "list", *STUDY, "--json"))} == {"ni", "wt"}

    erased = ok(app, data, "forget", "--person", "ni", "--hard")
    assert erased.startswith("erased: 2 turn(s)") and "the person record" in erased, erased
    assert [p["person_id"] for p in json.loads(ok(app, data, "people", "list", *WORK, "--json"))] == []
    assert "'ni'" in fails(app, data, 3, "forget", "--person", "ni")  # gone: the id is named
    assert "--person" in fails(app, data, 2, "forget", "--person", "wt", "--query", "x")


def test_forget_a_person_beside_a_running_server(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with serving(data):
        d = ("--data", str(data))
        for who, name, text in [("ni", "周霓", "大家好，叫我霓霓就行"), ("wt", "许文涛", "周霓对花生过敏")]:
            pmemo("add", text, *STUDY, "--session", "s1", "--actor", name, "--actor-id", who, *d)
        plan = json.loads(pmemo("forget", "--person", "ni", "--dry-run", "--json", *d).stdout)
        assert plan["dry_run"] and plan["record"] and "霓霓" in plan["aliases"]
        said = pmemo("forget", "--person", "ni", *d).stdout
        batch = re.search(r"pmemo restore (\d+)\)", said)
        assert batch and "the person record" in said, said
        assert [p["person_id"] for p in json.loads(pmemo("people", "list", *STUDY, "--json", *d).stdout)] == ["wt"]
        assert "restored batch" in pmemo("restore", batch.group(1), *d).stdout
        people = json.loads(pmemo("people", "list", *STUDY, "--json", *d).stdout)
        assert {p["person_id"] for p in people} == {"ni", "wt"}
