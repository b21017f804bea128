"""The group-chat commands (people, diary, graph, triples, blocks) and ``add --actor-id``:
through typer's CliRunner on a real SQLite store (hashing embedder), and once as a person runs
them beside a real ``pmemo serve`` (client mode)."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner, Result

from pmemo import SyncMemory
from pmemo.cli import core_cmds, import_cmd, people_cmds

from .served import clean_env, one_line_error, pmemo, serving

OPEN_ARGS = ["--embedder", "hashing"]
DAY = "2024-12-20"
STUDY = ("--group", "study")
# Who says what in the study group on DAY (the offline rules learn triples from these)
CHAT = [
    ("ni", "周霓", "大家好，叫我霓霓就行。我在腾讯上班，我家猫叫年糕", "10:00"),
    ("wt", "许文涛", "霓霓是我同学，我在字节工作", "10:01"),
    ("ni", "周霓", "我是四川人，超喜欢火锅", "10:02"),
]
PERSONA = "---\nlabel: persona\ndescription: Who I am\nlimit: 400\n---\n\nI am Momo, a study buddy.\n"
NOTES = "---\nlabel: notes\nread_only: false\nlimit: 120\ngroup: study\n---\nNi likes tea.\n"
BAD = "---\nlabel: [oops\n---\ntext\n"


@pytest.fixture(scope="module")
def app() -> typer.Typer:
    app = typer.Typer()
    core_cmds.register(app)
    import_cmd.register(app)
    people_cmds.register(app)
    return app


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith("PMEMO_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("COLUMNS", "200")  # wide tables: a row on one line


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
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


def say(app: typer.Typer, data: Path, who: str, name: str, text: str, at: str, day: str = DAY) -> str:
    return ok(app, data, "add", text, *STUDY, "--session", "s1", "--actor", name, "--actor-id", who,
              "--timestamp", f"{day}T{at}:00+08:00")


@pytest.fixture(scope="module")
def chat_store(tmp_path_factory: pytest.TempPathFactory, app: typer.Typer) -> Path:
    data = tmp_path_factory.mktemp("chat") / "data"
    for who, name, text, at in CHAT:
        assert re.fullmatch(r"turn \d+ step \d+ \(session s1\)\n", say(app, data, who, name, text, at))
    return data


@pytest.fixture
def store(chat_store: Path, tmp_path: Path) -> Path:
    """A private copy of the study group, for tests that change it."""
    return Path(shutil.copytree(chat_store, tmp_path / "data"))


def blocks_dir(root: Path) -> Path:
    """A blocks folder: a persona for every chat, notes for the study group, and a bad file."""
    root.mkdir()
    (root / "persona.md").write_text(PERSONA, "utf-8")
    (root / "notes.md").write_text(NOTES, "utf-8")
    (root / "bad.md").write_text(BAD, "utf-8")
    return root


# ---- add --actor-id / people -------------------------------------------------------------
def test_add_with_actor_id_then_people_lists_them(app: typer.Typer, chat_store: Path) -> None:
    with SyncMemory.open(chat_store, embedder="hashing") as mem:
        assert [(t.actor_id, t.actor) for t in mem.turns(group_id="study")] == [
            ("ni", "周霓"), ("wt", "许文涛"), ("ni", "周霓")]
    people = json.loads(ok(app, chat_store, "people", "list", *STUDY, "--json"))
    assert [(p["person_id"], p["name"], p["messages"]) for p in people] == [("ni", "周霓", 2), ("wt", "许文涛", 1)]
    ni = people[0]
    assert {"alias": "霓霓", "source": "learned", "learned_in": "g:study"} in ni["aliases"]
    assert ni["last_seen"].startswith("2024-12-20T02:02")  # 10:02 in +08:00
    table = ok(app, chat_store, "people", "list", *STUDY)
    row = next(line for line in table.splitlines() if " ni " in line)
    assert "周霓" in row and "霓霓 (learned)" in row and " 2 " in row
    assert "tenant default, group study" in table
    assert ok(app, chat_store, "people", "list", "--group", "elsewhere") \
        == "no people in tenant default, group elsewhere yet: add turns with --actor-id\n"


def test_import_takes_actor_id_per_line(app: typer.Typer, tmp_path: Path) -> None:
    lines = [{"group_id": "g", "session_id": "s", "actor_id": "bo", "actor": "Bo", "content": "hello all"},
             {"group_id": "g", "session_id": "s", "actor_id": "ann", "actor": "Ann", "content": "hi Bo"}]
    file = tmp_path / "chat.jsonl"
    file.write_text("\n".join(json.dumps(x) for x in lines) + "\n", "utf-8")
    data = tmp_path / "data"
    assert "imported 2 turns" in ok(app, data, "import", str(file))
    people = json.loads(ok(app, data, "people", "list", "--group", "g", "--json"))
    assert {(p["person_id"], p["name"]) for p in people} == {("bo", "Bo"), ("ann", "Ann")}


def test_a_nickname_resolves_to_its_person(app: typer.Typer, chat_store: Path, tmp_path: Path) -> None:
    (match,) = json.loads(ok(app, chat_store, "people", "resolve", "霓霓", *STUDY, "--json"))
    assert (match["alias"], match["person_ids"], match["names"], match["source"], match["ambiguous"]) \
        == ("霓霓", ["ni"], {"ni": "周霓"}, "learned", False)
    # a message naming two people: each found with its span
    found = json.loads(ok(app, chat_store, "people", "resolve", "你认识霓霓和老许吗", *STUDY, "--json"))
    assert [(m["alias"], m["start"], m["person_ids"]) for m in found] == [("霓霓", 3, ["ni"]), ("老许", 6, ["wt"])]
    table = ok(app, chat_store, "people", "resolve", "霓霓", *STUDY)
    assert re.search(r"霓霓 .* ni \(周霓\) .* learned", table)
    assert ok(app, chat_store, "people", "resolve", "Zed", *STUDY) \
        == "nobody known in tenant default, group study is named in 'Zed'\n"
    # 王伟 and 王芳 both go by 老王: both, flagged ambiguous
    data = tmp_path / "wang"
    ok(app, data, "add", "大家好", "--group", "g", "--session", "s", "--actor", "王伟", "--actor-id", "wei")
    ok(app, data, "add", "你们好", "--group", "g", "--session", "s", "--actor", "王芳", "--actor-id", "fang")
    (both,) = json.loads(ok(app, data, "people", "resolve", "老王", "--group", "g", "--json"))
    assert sorted(both["person_ids"]) == ["fang", "wei"] and both["ambiguous"]
    assert re.search(r"老王 .*(fang \(王芳\), wei \(王伟\)|wei \(王伟\), fang \(王芳\)).* yes",
                     ok(app, data, "people", "resolve", "老王", "--group", "g"))


# ---- diary -------------------------------------------------------------------------------
def test_diary_written_on_demand_then_read_by_day_and_range(app: typer.Typer, store: Path) -> None:
    wrote = ok(app, store, "diary", *STUDY, "--date", DAY, "--write")
    lines = wrote.splitlines()
    assert lines[0] == f"wrote the diary of {DAY} in tenant default, group study"
    assert lines[1] == f"## {DAY} (digest, from 3 turns)"
    assert "2024年12月20日（周五）：3 条消息，2 人发言。" in wrote and "霓霓是我同学，我在字节工作" in wrote
    assert ok(app, store, "diary", *STUDY, "--date", DAY) == "\n".join(lines[1:]) + "\n"  # the entry it wrote
    (entry,) = json.loads(ok(app, store, "diary", *STUDY, "--date", DAY, "--json"))
    assert (entry["day"], entry["method"], entry["group_id"], len(entry["source_ids"])) \
        == (DAY, "digest", "study", 3)
    assert entry["text"] in wrote
    ranged = json.loads(ok(app, store, "diary", *STUDY, "--start", "2024-12-01", "--end", "2024-12-31", "--json"))
    assert [d["id"] for d in ranged] == [entry["id"]]
    assert ok(app, store, "diary", *STUDY).startswith(f"## {DAY} (digest")  # every entry
    assert ok(app, store, "diary", *STUDY, "--start", "2025-01-01").startswith(
        "no diary entries in tenant default, group study from 2025-01-01 to the latest")


# ---- graph / triples ---------------------------------------------------------------------
def test_triples_learned_from_the_chat(app: typer.Typer, chat_store: Path) -> None:
    found = json.loads(ok(app, chat_store, "triples", *STUDY, "--json"))
    said = {(t["subject"], t["predicate"], t["object"]) for t in found}
    assert {("ni", "works_at", "腾讯"), ("ni", "has_pet", "年糕"), ("wt", "works_at", "字节"),
            ("ni", "classmate_of", "wt"), ("ni", "likes", "火锅")} <= said
    works = json.loads(ok(app, chat_store, "triples", *STUDY, "--subject", "霓霓", "--predicate", "works_at",
                          "--json"))
    assert [(t["subject"], t["object"], t["valid_to"]) for t in works] == [("ni", "腾讯", None)]
    assert works[0]["valid_from"].startswith("2024-12-20T02:00") and len(works[0]["sources"]) == 1
    table = ok(app, chat_store, "triples", *STUDY)
    assert re.search(r"周霓 \(ni\) +│ works_at +│ 腾讯 +│ 2024-12-20 02:00 │ +│ \d+ ", table), table
    assert re.search(r"│ has_pet \(cat\) +│ 年糕 ", table)
    assert ok(app, chat_store, "triples", *STUDY, "--at", "2024-12-01T00:00:00+08:00") \
        == "no triples in tenant default, group study\n"  # nothing was said yet then


def test_a_replaced_triple_shows_when_it_ended(app: typer.Typer, tmp_path: Path) -> None:
    data = tmp_path / "data"
    for text, day in (("I work at Google", "2024-12-20"), ("I left Google and joined Meta", "2025-01-20")):
        ok(app, data, "add", text, "--group", "g", "--session", "s", "--actor", "Neko", "--actor-id", "neko",
           "--timestamp", f"{day}T11:00:00+08:00")
    now = json.loads(ok(app, data, "triples", "--group", "g", "--predicate", "works_at", "--json"))
    assert [t["object"] for t in now] == ["Meta"]
    history = ok(app, data, "triples", "--group", "g", "--predicate", "works_at", "--history")
    assert re.search(r"Google +│ 2024-12-20 03:00 │ 2025-01-20 03:00 │", history), history
    then = json.loads(ok(app, data, "triples", "--group", "g", "--at", "2025-01-01T00:00:00Z", "--json"))
    assert [t["object"] for t in then] == ["Google"]


def test_graph_around_an_entity(app: typer.Typer, chat_store: Path) -> None:
    one = json.loads(ok(app, chat_store, "graph", "霓霓", *STUDY, "--json"))
    assert (one["entity"]["key"], one["entity"]["kind"], one["entity"]["name"]) == ("ni", "person", "周霓")
    assert {"腾讯", "年糕", "wt"} <= {t["object"] for t in one["triples"]}
    assert one["nodes"][0]["key"] == "ni"
    # from the cat, one hop reaches its owner; two hops also what the owner is linked to
    cat1 = json.loads(ok(app, chat_store, "graph", "年糕", *STUDY, "--json"))
    cat2 = json.loads(ok(app, chat_store, "graph", "年糕", *STUDY, "--hops", "2", "--json"))
    assert [(t["subject"], t["predicate"]) for t in cat1["triples"]] == [("ni", "has_pet")]
    assert {("ni", "works_at", "腾讯"), ("ni", "classmate_of", "wt")} <= {
        (t["subject"], t["predicate"], t["object"]) for t in cat2["triples"]}
    table = ok(app, chat_store, "graph", "年糕", *STUDY, "--hops", "2")
    assert re.search(r"年糕, a thing: \d+ triple\(s\) within 2 hop\(s\) in tenant default, group study", table)
    assert re.search(r"周霓 \(ni\) +│ classmate_of +│ 许文涛 \(wt\)", table)


# ---- blocks ------------------------------------------------------------------------------
def test_blocks_lists_the_blocks_and_a_bad_file_with_its_problem(
        app: typer.Typer, chat_store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert ok(app, chat_store, "blocks", *STUDY).startswith("no memory blocks for tenant default, group study")
    monkeypatch.setenv("PMEMO_BLOCKS_DIR", str(blocks_dir(tmp_path / "blocks")))
    found = {b["label"]: b for b in json.loads(ok(app, chat_store, "blocks", *STUDY, "--json"))}
    assert set(found) == {"persona", "notes", "bad"}
    assert (found["persona"]["chars"], found["persona"]["limit"], found["persona"]["read_only"]) == (25, 400, True)
    assert (found["notes"]["group"], found["notes"]["read_only"], found["notes"]["problem"]) == ("study", False, None)
    assert found["bad"]["file"] == "bad.md" and "invalid YAML" in found["bad"]["problem"]
    table = ok(app, chat_store, "blocks", *STUDY)
    assert re.search(r"notes +│ notes\.md +│ group study +│ no +│ 13/120 ", table), table
    assert re.search(r"bad +│ bad\.md .*│ invalid YAML in the front matter", table)
    # another group sees no study notes; with no chat named, every block is listed
    assert {b["label"] for b in json.loads(ok(app, chat_store, "blocks", "--group", "other", "--json"))} \
        == {"persona", "bad"}
    assert "blocks of tenant default" in ok(app, chat_store, "blocks")
    assert {b["label"] for b in json.loads(ok(app, chat_store, "blocks", "--json"))} == {"persona", "notes", "bad"}


# ---- agenda ------------------------------------------------------------------------------
def test_agenda_of_a_chat_and_of_every_chat(app: typer.Typer, store: Path) -> None:
    say(app, store, "ni", "周霓", "12月23日考研，最近压力好大", "10:03")
    ok(app, store, "add", "我12月30日面试", "--user", "wt", "--session", "p", "--actor", "许文涛",
       "--actor-id", "wt", "--timestamp", f"{DAY}T11:00:00+08:00")
    every = json.loads(ok(app, store, "agenda", "--json"))
    assert [(i["group_id"], i["user_id"], i["person_id"], i["day"], i["what"]) for i in every] == [
        ("study", None, "ni", "2024-12-23", "考研"), (None, "wt", "wt", "2024-12-30", "面试")]
    # the evening before the exam: what is due tomorrow, and in which chat to bring it up
    eve = json.loads(ok(app, store, "agenda", "--at", "2024-12-22T20:00:00+08:00", "--json"))
    assert [(i["group_id"], i["what"]) for i in eve if i["day"] == "2024-12-23"] == [("study", "考研")]
    table = ok(app, store, "agenda", *STUDY)
    assert re.search(r"2024-12-23 +│ 考研 +│ ni +│ group study +│ open +│ 12月23日考研", table), table
    assert "面试" not in table  # the private chat's plan stays there
    assert [i["what"] for i in json.loads(ok(app, store, "agenda", "--person", "wt", "--json"))] == ["面试"]
    assert ok(app, store, "agenda", "--group", "other").startswith("no plans in tenant default, group other")
    assert "at most one of --user U or --group G" in fails(app, store, 2, "agenda", "--user", "wt", *STUDY)
    assert "--at='tomorrow' is not ISO 8601" in fails(app, store, 2, "agenda", "--at", "tomorrow")


# ---- context for a group chat ------------------------------------------------------------
def test_context_for_who_asks_with_the_chat_so_far(
        app: typer.Typer, chat_store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    night = f"{DAY}T23:00:00+08:00"
    plain = ok(app, chat_store, "context", "还不睡？", *STUDY, "--at", night)
    assert "## 相关的人" not in plain  # the message names nobody and nobody is said to ask (a Chinese chat's header)
    asked = ok(app, chat_store, "context", "还不睡？", *STUDY, "--asker", "ni", "--at", night)
    people = asked.split("## 相关的人\n", 1)[1].split("\n## ", 1)[0]
    assert people.startswith("- 周霓（又名霓霓") and "腾讯" in people, asked
    assert re.search(r"── \d+/2000 tokens · key 0 · people \d+ · ", asked), asked
    # the chat's last messages bring the people they name, by a nickname too
    recent = ok(app, chat_store, "context", "还不睡？", *STUDY, "--recent", "今天好累", "--recent", "霓霓在吗")
    assert "## 相关的人\n- 周霓（又名霓霓" in recent, recent
    monkeypatch.setenv("PMEMO_BLOCKS_DIR", str(blocks_dir(tmp_path / "blocks")))
    letta = ok(app, chat_store, "context", "还不睡？", *STUDY, "--format", "memgpt")
    assert letta.startswith("<memory_blocks>") and "<persona>" in letta and "Ni likes tea." in letta, letta
    assert "format must be one of 'markdown', 'memgpt'" in fails(app, chat_store, 2, "context", "x", *STUDY,
                                                                 "--format", "xml")
    assert "--at='tonight' is not ISO 8601" in fails(app, chat_store, 2, "search", "x", *STUDY, "--at", "tonight")
    hits = json.loads(ok(app, chat_store, "search", "猫", *STUDY, "--at", night, "--json"))
    assert "年糕" in hits[0]["text"]


# ---- bad input ---------------------------------------------------------------------------
def test_bad_input_says_what_to_fix(app: typer.Typer, chat_store: Path) -> None:
    d = chat_store
    assert "--hops must be 1 or 2, got 3" in fails(app, d, 2, "graph", "霓霓", *STUDY, "--hops", "3")
    assert "--date must be a calendar day as YYYY-MM-DD" in fails(app, d, 2, "diary", *STUDY, "--date", "2024-13-01")
    assert "--start must be a calendar day" in fails(app, d, 2, "diary", *STUDY, "--start", "20/12/2024")
    assert "not both" in fails(app, d, 2, "diary", *STUDY, "--date", DAY, "--end", DAY)
    assert "--write writes one day's entry" in fails(app, d, 2, "diary", *STUDY, "--write", "--start", DAY)
    assert "--start 2024-12-21 is after --end 2024-12-20" in fails(app, d, 2, "diary", *STUDY, "--start",
                                                                   "2024-12-21", "--end", DAY)
    assert "--at='yesterday' is not ISO 8601" in fails(app, d, 2, "triples", *STUDY, "--at", "yesterday")
    assert "--at='soon' is not ISO 8601" in fails(app, d, 2, "graph", "ni", *STUDY, "--at", "soon")
    assert "--user U or --group G" in fails(app, d, 2, "people", "list")
    assert "--user U or --group G" in fails(app, d, 2, "people", "resolve", "霓霓", "--user", "u", *STUDY)
    assert "at most one of --user U or --group G" in fails(app, d, 2, "blocks", "--user", "u", *STUDY)
    assert "actor_id" in fails(app, d, 2, "add", "hi", *STUDY, "--session", "s", "--actor-id", "bad id!")
    missing = fails(app, d, 3, "diary", *STUDY, "--date", "2024-12-25")
    assert "no diary entry for 2024-12-25" in missing and "pmemo diary --write --date 2024-12-25" in missing
    assert "no message from a person on 2024-12-25" in fails(app, d, 3, "diary", *STUDY, "--date", "2024-12-25",
                                                             "--write")
    assert "no person or entity 'nobody'" in fails(app, d, 3, "graph", "nobody", *STUDY)
    assert "no pmemo data" in fails(app, d.parent / "nowhere", 3, "people", "list", *STUDY)


# ---- beside a running server -------------------------------------------------------------
def test_the_group_chat_commands_beside_a_running_server(tmp_path: Path) -> None:
    data = tmp_path / "data"
    env = clean_env(PMEMO_BLOCKS_DIR=str(blocks_dir(tmp_path / "blocks")))
    with serving(data, env=env) as served:
        d = ("--data", str(data))
        for who, name, text, at in CHAT:
            pmemo("add", text, *STUDY, "--session", "s1", "--actor", name, "--actor-id", who,
                  "--timestamp", f"{DAY}T{at}:00+08:00", *d)
        people = json.loads(pmemo("people", "list", *STUDY, "--json", *d).stdout)
        assert [(p["person_id"], p["name"], p["messages"]) for p in people] == [("ni", "周霓", 2), ("wt", "许文涛", 1)]
        assert "霓霓" in {a["alias"] for a in people[0]["aliases"]}
        (match,) = json.loads(pmemo("people", "resolve", "霓霓", *STUDY, "--json", *d).stdout)
        assert (match["person_ids"], match["names"]) == (["ni"], {"ni": "周霓"})

        wrote = pmemo("diary", *STUDY, "--date", DAY, "--write", *d).stdout
        assert wrote.startswith(f"wrote the diary of {DAY} in tenant default, group study\n## {DAY} (digest")
        assert "我是四川人，超喜欢火锅" in wrote
        (entry,) = json.loads(pmemo("diary", *STUDY, "--date", DAY, "--json", *d).stdout)
        assert entry["method"] == "digest" and entry["text"] in wrote and len(entry["source_ids"]) == 3
        assert [e["day"] for e in json.loads(pmemo("diary", *STUDY, "--start", DAY, "--json", *d).stdout)] == [DAY]

        said = {(t["subject"], t["predicate"], t["object"])
                for t in json.loads(pmemo("triples", *STUDY, "--json", *d).stdout)}
        assert {("ni", "works_at", "腾讯"), ("ni", "classmate_of", "wt")} <= said
        graph = json.loads(pmemo("graph", "年糕", *STUDY, "--hops", "2", "--json", *d).stdout)
        assert graph["entity"]["kind"] == "thing" and ("ni", "works_at", "腾讯") in {
            (t["subject"], t["predicate"], t["object"]) for t in graph["triples"]}
        assert re.search(r"周霓 \(ni\) +│ works_at +│ 腾讯", pmemo("triples", *STUDY, *d).stdout)

        found = {b["label"]: b for b in json.loads(pmemo("blocks", *STUDY, "--json", *d).stdout)}
        assert set(found) == {"persona", "notes", "bad"} and "invalid YAML" in found["bad"]["problem"]
        assert re.search(r"notes +│ notes\.md +│ group study +│ no +│ 13/120 ", pmemo("blocks", *STUDY, *d).stdout)

        pmemo("add", "12月23日考研", *STUDY, "--session", "s1", "--actor", "周霓", "--actor-id", "ni",
              "--timestamp", f"{DAY}T12:00:00+08:00", *d)
        (plan,) = json.loads(pmemo("agenda", "--json", *d).stdout)
        assert (plan["group_id"], plan["person_id"], plan["day"], plan["what"]) == ("study", "ni", "2024-12-23", "考研")
        letta = pmemo("context", "还不睡？", *STUDY, "--asker", "ni", "--format", "memgpt", *d).stdout
        assert letta.startswith("<memory_blocks>") and "## 相关的人\n- 周霓（又名霓霓" in letta, letta

        assert "--hops must be 1 or 2" in one_line_error(pmemo("graph", "ni", *STUDY, "--hops", "3", *d, code=2))
        missing = one_line_error(pmemo("diary", *STUDY, "--date", "2024-12-25", *d, code=3))
        assert "no diary entry for 2024-12-25" in missing and "--write" in missing
        assert "nobody" in one_line_error(pmemo("graph", "nobody", *STUDY, *d, code=3))
        assert (data / "server.json").exists() and served.url  # the server answered all of it
    with SyncMemory.open(data, embedder="hashing") as mem:  # written through the server, to its store
        assert [t.actor_id for t in mem.turns(group_id="study")] == ["ni", "wt", "ni", "ni"]
