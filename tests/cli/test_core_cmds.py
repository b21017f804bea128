"""The everyday ``pmemo`` commands, through typer's CliRunner on a real SQLite store
(hashing embedder), plus one run of the installed ``pmemo`` executable."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner, Result

from pmemo import SyncMemory, errors
from pmemo.cli import core_cmds, edit_cmds, import_cmd
from pmemo.cli.main import _register
from pmemo.cli.main import app as main_app

SAMPLE = Path(core_cmds.__file__).resolve().parent.parent / "data" / "sample_conversation.jsonl"
OPEN_ARGS = ["--embedder", "hashing"]


@pytest.fixture(scope="module")
def app() -> typer.Typer:
    app = typer.Typer()
    core_cmds.register(app)
    edit_cmds.register(app)
    import_cmd.register(app)
    return app


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith("PMEMO_"):
            monkeypatch.delenv(name)


def run(app: typer.Typer, data: Path, *args: str) -> Result:
    return CliRunner().invoke(app, [*args, "--data", str(data), *OPEN_ARGS])


def ok(app: typer.Typer, data: Path, *args: str) -> str:
    result = run(app, data, *args)
    assert result.exit_code == 0, result.output
    return result.stdout


def fails(app: typer.Typer, data: Path, code: int, *args: str) -> str:
    """Run a command that must fail with ``code``: one red line on stderr, no traceback."""
    result = run(app, data, *args)
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


@pytest.fixture(scope="module")
def sample_store(tmp_path_factory: pytest.TempPathFactory, app: typer.Typer) -> Path:
    data = tmp_path_factory.mktemp("sample") / "data"
    out = ok(app, data, "import", str(SAMPLE))
    assert re.search(r"imported 114 turns in 5 session\(s\)", out)
    return data


@pytest.fixture
def store(sample_store: Path, tmp_path: Path) -> Path:
    """A private copy of the imported sample, for tests that change it."""
    return Path(shutil.copytree(sample_store, tmp_path / "data"))


def stats(app: typer.Typer, data: Path) -> dict[str, int]:
    return json.loads(ok(app, data, "stats", "--json"))


def write_lines(path: Path, lines: list[Any]) -> Path:
    path.write_text("\n".join(x if isinstance(x, str) else json.dumps(x, ensure_ascii=False)
                              for x in lines) + "\n", encoding="utf-8")
    return path


# ---- add ---------------------------------------------------------------------------------
def test_add_prints_turn_id_and_step(app: typer.Typer, tmp_path: Path) -> None:
    data = tmp_path / "d"
    first = ok(app, data, "add", "预算不能超过10万元", "--user", "u1", "--session", "s1",
               "--actor", "Louis", "--timestamp", "2024-03-04T09:00:00+08:00")
    assert re.fullmatch(r"turn (\d+) step 1 \(session s1\)\n", first)
    second = ok(app, data, "add", "noted", "--user", "u1", "--session", "s1", "--role", "assistant")
    assert "step 2" in second
    ok(app, data, "add", "team note", "--group", "team", "--session", "s1", "--tenant", "acme",
       "--agent", "bot")
    with SyncMemory.open(data, embedder="hashing") as mem:
        (turn, reply) = mem.turns(user_id="u1", session_id="s1")
        assert (turn.actor, turn.timestamp.isoformat()) == ("Louis", "2024-03-04T09:00:00+08:00")
        assert reply.role == "assistant"
        (team,) = mem.turns(group_id="team", tenant_id="acme", agent_id="bot")
        assert team.content == "team note"
        assert mem.turns(group_id="team") == []  # other tenant: not visible


def test_add_and_import_without_a_session(app: typer.Typer, tmp_path: Path) -> None:
    data = tmp_path / "d"  # a chat sends no session ids (issue 44 §2): the chat's current one
    first = ok(app, data, "add", "早", "--group", "g", "--timestamp", "2026-12-07T09:00:00+00:00")
    assert re.fullmatch(r"turn \d+ step 1 \(session auto-20261207T090000Z-[0-9a-f]{6}\)\n", first)
    file = write_lines(tmp_path / "t.jsonl", [json.dumps({"content": "在", "timestamp": "2026-12-07T09:05:00+00:00"})])
    ok(app, data, "import", str(file), "--group", "g")
    with SyncMemory.open(data, embedder="hashing") as mem:
        assert [t.step for t in mem.turns(group_id="g")] == [1, 2]


def test_add_bad_input(app: typer.Typer, tmp_path: Path) -> None:
    data = tmp_path / "d"
    assert "content is empty" in fails(app, data, 2, "add", "  ", "--user", "u", "--session", "s")
    assert "--user U or --group G" in fails(app, data, 2, "add", "hi", "--session", "s")
    assert "--user U or --group G" in fails(app, data, 2, "add", "hi", "--session", "s",
                                            "--user", "u", "--group", "g")
    assert "user_id" in fails(app, data, 2, "add", "hi", "--user", "bad id!", "--session", "s")
    assert "role" in fails(app, data, 2, "add", "hi", "--user", "u", "--session", "s",
                           "--role", "boss")
    assert "ISO 8601" in fails(app, data, 2, "add", "hi", "--user", "u", "--session", "s",
                               "--timestamp", "yesterday")


# ---- import ------------------------------------------------------------------------------
def test_import_sample_keeps_every_field(sample_store: Path, app: typer.Typer) -> None:
    assert stats(app, sample_store)["turns"] == 114
    assert stats(app, sample_store)["pending_jobs"] == 0  # import drained
    rows = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]
    listed = json.loads(ok(app, sample_store, "turns", "list", "--user", "demo", "--session", "s1",
                           "--limit", "3", "--json"))
    for got, want in zip(listed, [r for r in rows if r["session_id"] == "s1"][:3], strict=True):
        assert got["content"] == want["content"] and got["actor"] == want["actor"]
        assert got["timestamp"] == want["timestamp"] and got["metadata"] == want["metadata"]


def test_import_line_fields_win_over_flags(app: typer.Typer, tmp_path: Path) -> None:
    file = write_lines(tmp_path / "t.jsonl", [
        {"content": "from the flags"},
        {"content": "its own user", "user_id": "alice", "session_id": "own", "role": "assistant"},
        {"content": "line names a group", "group_id": "team"},
    ])
    data = tmp_path / "d"
    ok(app, data, "import", str(file), "--user", "bob", "--session", "flag-s", "--actor", "Bob")
    with SyncMemory.open(data, embedder="hashing") as mem:
        (bob,) = mem.turns(user_id="bob")
        assert (bob.session_id, bob.actor, bob.role) == ("flag-s", "Bob", "user")
        (alice,) = mem.turns(user_id="alice")
        assert (alice.session_id, alice.role, alice.actor) == ("own", "assistant", "Bob")
        (team,) = mem.turns(group_id="team")
        assert team.session_id == "flag-s"


def test_import_writes_in_chunks_and_keeps_order(app: typer.Typer, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(import_cmd, "CHUNK", 4)
    n = 11
    file = write_lines(tmp_path / "t.jsonl", [{"content": f"message number {i}"} for i in range(n)])
    data = tmp_path / "d"
    ok(app, data, "import", str(file), "--user", "u", "--session", "s")
    with SyncMemory.open(data, embedder="hashing") as mem:
        turns = mem.turns(user_id="u", session_id="s", limit=n)
    assert [t.step for t in turns] == list(range(1, n + 1))
    assert [t.content for t in turns] == [f"message number {i}" for i in range(n)]


def test_import_chunk_rejected_by_the_library_is_not_half_written(
    app: typer.Typer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A check only add_many() knows (the CLI's early scan is switched off here): the chunk
    # holding the bad line is rolled back as a whole, earlier chunks stay.
    monkeypatch.setattr(import_cmd, "CHUNK", 4)
    monkeypatch.setattr(import_cmd, "_check", lambda item, settings: None)
    lines: list[Any] = [{"content": f"turn {i}"} for i in range(10)]
    lines[5] = {"content": ""}
    file = write_lines(tmp_path / "t.jsonl", lines)
    data = tmp_path / "d"
    error = fails(app, data, 2, "import", str(file), "--user", "u", "--session", "s")
    assert "lines 5-8: content is empty" in error and "4 earlier turns were" in error
    with SyncMemory.open(data, embedder="hashing") as mem:
        assert [t.content for t in mem.turns(user_id="u")] == [f"turn {i}" for i in range(4)]


@pytest.mark.parametrize(("line", "message"), [
    ("{not json", r"line 3: malformed JSON \(.+ at column 2\)"),
    ('["a list"]', r"line 3: expected a JSON object, got list"),
    ('{"content": "   "}', r"line 3: content is empty"),
    ('{"content": 42}', r"line 3: content must be a string"),
    ('{"content": "x", "colour": "red"}', r"line 3: unknown field\(s\) colour: use "),
    ('{"content": "x", "timestamp": "soon"}', r"line 3: timestamp='soon' is not ISO 8601"),
])
def test_import_bad_line_names_it_and_writes_nothing(
    app: typer.Typer, tmp_path: Path, line: str, message: str,
) -> None:
    good = [json.dumps({"content": f"fine {i}"}) for i in range(import_cmd.CHUNK + 5)]
    file = write_lines(tmp_path / "t.jsonl", [good[0], "", line, *good[1:]])
    data = tmp_path / "d"
    error = fails(app, data, 2, "import", str(file), "--user", "u", "--session", "s")
    assert re.search(message, error) and str(file) in error, error
    assert not data.exists()  # checked before the store was even opened


def test_import_bad_files(app: typer.Typer, tmp_path: Path) -> None:
    data = tmp_path / "d"
    assert "does not exist" in fails(app, data, 2, "import", str(tmp_path / "missing.jsonl"))
    assert "is not a file" in fails(app, data, 2, "import", str(tmp_path))
    (tmp_path / "empty.jsonl").write_text("\n\n")
    assert "has no turns" in fails(app, data, 2, "import", str(tmp_path / "empty.jsonl"))
    (tmp_path / "latin1.jsonl").write_bytes(b'{"content": "ok"}\n{"content": "caf\xe9"}\n')
    assert "line 2: not UTF-8" in fails(app, data, 2, "import", str(tmp_path / "latin1.jsonl"),
                                        "--user", "u", "--session", "s")
    no_owner = write_lines(tmp_path / "o.jsonl", [{"content": "x", "session_id": "s"}])
    assert "line 1: no user_id or group_id" in fails(app, data, 2, "import", str(no_owner))
    assert not data.exists()


def test_import_with_bom(app: typer.Typer, tmp_path: Path) -> None:
    file = tmp_path / "bom.jsonl"
    file.write_bytes(b"\xef\xbb\xbf" + json.dumps({"content": "hi"}).encode() + b"\n")
    ok(app, tmp_path / "d", "import", str(file), "--user", "u", "--session", "s")


# ---- search / context --------------------------------------------------------------------
def test_search_chinese_and_english(sample_store: Path, app: typer.Typer) -> None:
    table = ok(app, sample_store, "search", "预算", "--user", "demo", "--limit", "5")
    for column in ("#", "tier", "score", "text", "why"):
        assert column in table
    assert "预算" in table and "bm25" in table
    hits = json.loads(ok(app, sample_store, "search", "WeChat Pay double charge", "--user", "demo",
                         "--json"))
    assert len(hits) == 10 and [h["rank"] for h in hits] == list(range(1, 11))
    assert hits == sorted(hits, key=lambda h: -h["score"])
    assert any("WeChat Pay" in h["text"] for h in hits[:3])
    first = hits[0]
    assert set(first) >= {"id", "kind", "tier", "score", "text", "why", "sources"}
    assert first["sources"] and {"id", "session_id", "step"} <= set(first["sources"][0])


def test_search_scope_and_session(sample_store: Path, app: typer.Typer) -> None:
    hits = json.loads(ok(app, sample_store, "search", "budget", "--user", "demo", "--session", "s2",
                         "--json"))
    assert hits and all(h["kind"] != "turn" or h["sources"][0]["session_id"] == "s2" for h in hits)
    assert json.loads(ok(app, sample_store, "search", "预算", "--user", "stranger", "--json")) == []
    assert "no matches" in ok(app, sample_store, "search", "预算", "--user", "stranger")
    assert "limit" in fails(app, sample_store, 2, "search", "x", "--user", "demo", "--limit", "0")
    assert "query is empty" in fails(app, sample_store, 2, "search", " ", "--user", "demo")


def test_context_text_and_footer(sample_store: Path, app: typer.Typer) -> None:
    args = ("context", "我们的预算是多少？", "--user", "demo", "--session", "s1", "--budget", "400")
    out = ok(app, sample_store, *args)
    *body, footer = out.rstrip("\n").splitlines()
    pack = json.loads(ok(app, sample_store, *args, "--json"))
    assert "\n".join(body) == pack["text"]
    tokens, budget = map(int, re.search(r"(\d+)/(\d+) tokens", footer).groups())  # type: ignore[union-attr]
    assert (tokens, budget) == (pack["tokens"], 400) and tokens <= budget
    counts = {k: int(v) for k, v in re.findall(r"(\w+) (\d+)", footer.split("tokens", 1)[1])}
    assert {"key", "long_term", "mid_term", "short_term"} <= set(counts)
    assert sum(counts.values()) == len(pack["items"])
    assert "我们的预算是多少？" in pack["text"]


# ---- key memory, summaries, turns, clusters, stats -----------------------------------------
def test_key_memory_add_list_edit_delete(store: Path, app: typer.Typer) -> None:
    added = ok(app, store, "key", "add", "预算上限：13万元", "--user", "demo")
    key_id = re.fullmatch(r"key line (\d+) added\n", added).group(1)  # type: ignore[union-attr]
    assert "预算上限：13万元" in ok(app, store, "key", "list", "--user", "demo")
    pack = json.loads(ok(app, store, "context", "budget?", "--user", "demo", "--json"))
    assert pack["items"][0]["tier"] == "key" and pack["items"][0]["text"] == "预算上限：13万元"
    ok(app, store, "key", "edit", key_id, "Budget cap: 130k CNY", "--user", "demo")
    (line,) = json.loads(ok(app, store, "key", "list", "--user", "demo", "--json"))
    assert (line["text"], line["origin"]) == ("Budget cap: 130k CNY", "user")
    assert "not belong to bob" in fails(app, store, 3, "key", "delete", key_id, "--user", "bob")
    assert "tenant 'other'" in fails(app, store, 3, "key", "edit", key_id, "x", "--tenant", "other")
    assert "non-empty" in fails(app, store, 2, "key", "edit", key_id, " ")
    ok(app, store, "key", "delete", key_id, "--user", "demo")
    assert "no key lines" in ok(app, store, "key", "list", "--user", "demo")
    assert "does not exist" in fails(app, store, 3, "key", "delete", key_id)
    assert "non-empty" in fails(app, store, 2, "key", "add", "", "--user", "demo")


def test_summaries_list_and_delete(store: Path, app: typer.Typer) -> None:
    found = json.loads(ok(app, store, "summaries", "list", "--user", "demo", "--session", "s1",
                          "--json"))
    assert found and all(s["session_id"] == "s1" for s in found)
    assert (found[0]["step_from"], found[0]["step_to"]) == (1, 10)
    table = ok(app, store, "summaries", "list", "--user", "demo")
    assert "1-10" in table and "extractive" in table
    first = str(found[0]["id"])
    assert ok(app, store, "summaries", "delete", first) == f"summary {first} deleted\n"
    left = json.loads(ok(app, store, "summaries", "list", "--user", "demo", "--json"))
    assert int(first) not in [s["id"] for s in left]
    assert "does not exist" in fails(app, store, 3, "summaries", "delete", first)


def test_turns_list_and_delete(store: Path, app: typer.Typer) -> None:
    s1 = json.loads(ok(app, store, "turns", "list", "--user", "demo", "--session", "s1", "--json"))
    assert [t["step"] for t in s1] == list(range(1, len(s1) + 1))
    budget_turn = next(t for t in s1 if "10万元" in t["content"])
    out = ok(app, store, "turns", "delete", str(budget_turn["id"]))
    assert out.startswith(f"deleted turn {budget_turn['id']}")
    hits = json.loads(ok(app, store, "search", "10万元 硬上限", "--user", "demo", "--json"))
    assert all(budget_turn["id"] not in [s["id"] for s in h["sources"]] for h in hits)
    assert all("10万元人民币，这是老板定的硬上限" not in h["text"] for h in hits)
    assert "does not exist" in fails(app, store, 3, "turns", "delete", str(budget_turn["id"]))

    out = ok(app, store, "turns", "delete", "--session", "s1", "--step", "1", "--user", "demo")
    assert out.startswith(f"deleted turn {s1[0]['id']}")
    left = json.loads(ok(app, store, "turns", "list", "--user", "demo", "--session", "s1",
                         "--json"))
    assert len(left) == len(s1) - 2
    assert "no turn at step 999" in fails(app, store, 3, "turns", "delete", "--session", "s1",
                                          "--step", "999", "--user", "demo")
    assert "not both" in fails(app, store, 2, "turns", "delete", "5", "--session", "s1")
    assert "not both" in fails(app, store, 2, "turns", "delete")
    assert "both --session S and --step N" in fails(app, store, 2, "turns", "delete", "--session",
                                                    "s1", "--user", "demo")
    assert stats(app, store)["turns"] == 112


def test_turns_list_table(sample_store: Path, app: typer.Typer) -> None:
    out = ok(app, sample_store, "turns", "list", "--user", "demo", "--session", "s2",
             "--limit", "2")
    assert "session" in out and "step" in out and "s2" in out
    assert "no turns" in ok(app, sample_store, "turns", "list", "--user", "nobody")


def test_clusters_and_stats(sample_store: Path, app: typer.Typer) -> None:
    clusters = json.loads(ok(app, sample_store, "clusters", "--user", "demo", "--json"))
    counts = stats(app, sample_store)
    assert clusters and len(clusters) == counts["clusters"]
    assert sum(c["size"] for c in clusters) == sum(len(c["member_ids"]) for c in clusters)
    assert "size" in ok(app, sample_store, "clusters", "--user", "demo")
    assert counts["sessions"] == 5 and counts["owners"] == 1 and counts["failed_jobs"] == 0
    assert "turns" in ok(app, sample_store, "stats") and "114" in ok(app, sample_store, "stats")
    assert json.loads(ok(app, sample_store, "stats", "--json", "--tenant", "nobody"))["turns"] == 0


def test_user_text_is_not_read_as_markup(app: typer.Typer, tmp_path: Path) -> None:
    data = tmp_path / "d"
    ok(app, data, "add", "[b]ship[/b]", "--user", "u", "--session", "s")
    assert "[b]ship[/b]" in ok(app, data, "turns", "list", "--user", "u")
    assert "[b]ship[/b]" in ok(app, data, "search", "ship", "--user", "u")


# ---- settings and the error table --------------------------------------------------------
def test_data_defaults_to_env_then_flag_wins(app: typer.Typer, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PMEMO_DATA", str(tmp_path / "from-env"))
    monkeypatch.setenv("PMEMO_EMBEDDER", "hashing")
    runner = CliRunner()
    r = runner.invoke(app, ["add", "hello", "--user", "u", "--session", "s"])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "from-env" / "pmemo.db").exists()
    r = runner.invoke(app, ["add", "hi", "--user", "u", "--session", "s", "--data",
                            str(tmp_path / "flag")])
    assert r.exit_code == 0 and (tmp_path / "flag" / "pmemo.db").exists()
    monkeypatch.setenv("PMEMO_BUDGET_TOKENS", "lots")
    r = runner.invoke(app, ["stats"])
    assert r.exit_code == 2 and "PMEMO_BUDGET_TOKENS='lots'" in r.stderr


def test_exit_code_table() -> None:
    assert core_cmds.exit_code(errors.InvalidInput("x")) == 2
    assert core_cmds.exit_code(errors.NotFound("x")) == 3
    for store_error in (errors.StoreLocked, errors.StoreCorrupt, errors.StoreError):
        assert core_cmds.exit_code(store_error("x")) == 4
    for other in (errors.EmbedderError, errors.LLMError, errors.Conflict, errors.PMemoError):
        assert core_cmds.exit_code(other("x")) == 1
    kinds = [kind for kind, _ in core_cmds.EXIT_CODES]
    for i, kind in enumerate(kinds):  # no entry is hidden behind its base class
        assert not any(issubclass(kind, earlier) for earlier in kinds[:i])


def test_store_errors_exit_4(app: typer.Typer, tmp_path: Path) -> None:
    data = tmp_path / "d"
    with SyncMemory.open(data, embedder="hashing"):
        assert "in use by another pmemo process" in fails(app, data, 4, "stats")
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "pmemo.db").write_bytes(b"this is not sqlite" * 100)
    assert "not a readable pmemo database" in fails(app, bad, 4, "stats")
    assert (bad / "pmemo.db").read_bytes() == b"this is not sqlite" * 100
    (tmp_path / "file").write_text("x")
    assert "is a file" in fails(app, tmp_path / "file", 2, "stats")


def test_missing_data_dir_and_unknown_embedder(app: typer.Typer, tmp_path: Path) -> None:
    assert "no pmemo data at" in fails(app, tmp_path / "nowhere", 3, "search", "x", "--user", "u")
    assert not (tmp_path / "nowhere").exists()
    r = CliRunner().invoke(app, ["stats", "--data", str(tmp_path), "--embedder", "nope"])
    assert r.exit_code == 2 and "unknown embedder 'nope'" in r.stderr


def test_every_command_and_option_has_help() -> None:
    if not main_app.registered_commands:
        _register()
    root: Any = typer.main.get_command(main_app)
    mine = {"add", "import", "search", "context", "key", "summaries", "turns", "sessions", "clusters",
            "stats"}
    assert mine <= set(root.commands)

    def walk(group: Any, path: str) -> list[tuple[str, Any]]:
        found = []
        for name, cmd in group.commands.items():
            found.append((f"{path} {name}".strip(), cmd))
            if hasattr(cmd, "commands"):
                found += walk(cmd, f"{path} {name}")
        return found

    commands = walk(root, "")
    assert len(commands) >= 20
    for name, cmd in commands:
        assert (cmd.help or cmd.short_help or "").strip(), f"pmemo {name} has no help text"
        if name.split()[0] in mine:
            for param in cmd.params:
                if param.name != "help":
                    assert getattr(param, "help", None), f"pmemo {name} {param.name}: no help"
    result = CliRunner().invoke(main_app, ["turns", "delete", "--help"])
    assert result.exit_code == 0 and "--session" in result.stdout


# ---- the installed executable ------------------------------------------------------------
def test_installed_pmemo_executable(tmp_path: Path) -> None:
    exe = Path(sys.executable).parent / "pmemo"
    assert exe.exists(), f"{exe}: install pmemo into the venv (pip install -e .)"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PMEMO_")}
    env.update(PMEMO_DATA=str(tmp_path / "data"), PMEMO_EMBEDDER="hashing", COLUMNS="200")

    def pmemo(*args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
        done = subprocess.run([str(exe), *args], env=env, capture_output=True, text=True,
                              timeout=120, check=False)
        assert done.returncode == code, (args, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr
        return done

    assert "imported 114 turns" in pmemo("import", str(SAMPLE)).stdout
    zh = json.loads(pmemo("search", "老板批的预算是多少", "--user", "demo", "--json").stdout)
    assert any("13万" in h["text"] for h in zh[:5])
    en = json.loads(pmemo("search", "double charge bug", "--user", "demo", "--json").stdout)
    assert any("charged twice" in h["text"] for h in en[:5])
    ctx = pmemo("context", "When do we launch?", "--user", "demo", "--session", "s5").stdout
    assert re.search(r"## (Current input|当前消息)\n", ctx) and re.search(r"\d+/2000 tokens", ctx)

    key_id = pmemo("key", "add", "上线日期：4月22日", "--user", "demo").stdout.split()[2]
    assert "上线日期：4月22日" in pmemo("key", "list", "--user", "demo").stdout
    pmemo("key", "delete", key_id, "--user", "demo")
    assert "no key lines" in pmemo("key", "list", "--user", "demo").stdout

    assert pmemo("turns", "delete", str(en[0]["sources"][0]["id"])).stdout.startswith("deleted")
    assert json.loads(pmemo("stats", "--json").stdout)["turns"] == 113

    missing = pmemo("import", str(tmp_path / "nope.jsonl"), code=2)
    assert missing.stderr.startswith("error: ") and "nope.jsonl does not exist" in missing.stderr
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"user_id": "u", "session_id": "s", "content": "ok"}\n{"content": oops}\n')
    assert "bad.jsonl line 2: malformed JSON" in pmemo("import", str(bad), code=2).stderr
    empty = pmemo("add", "", "--user", "u", "--session", "s", code=2)
    assert empty.stderr.strip() == "error: content is empty; give the text of the turn"
    assert "does not exist" in pmemo("turns", "delete", "999999", code=3).stderr
    assert json.loads(pmemo("stats", "--json").stdout)["turns"] == 113  # nothing half-written
