"""Every code block of README.md and docs/*.md, run or checked as a reader would use it.

- ``python``: run as a script in an empty directory (top-level ``await`` allowed); when the
  next block is a ``text`` block introduced by "prints:", the output must hold it. A block that
  names the placeholder database (``db.example``) runs against the test Postgres.
- ``sh`` and untagged blocks of commands: every ``pmemo`` command must exist with the options
  it is given, every script run by ``python`` must exist and know its options, every ``make``
  target, ``npm`` script, ``cd`` directory and ``node`` file must exist. docs/CLI.md's two
  blocks are run and checked by test_readme.py; a block of ``curl`` calls is run against a
  real server. What needs a container engine (``docker``) is checked for its pmemo commands
  only: none runs here (test_dockerfile.py and test_compose.py check the files).
- ``js``: the README's bot is run by clients/ts/test/readme.test.mjs against a real server.
- ``yaml`` is parsed; ``markdown`` is a memory block file, read by pmemo's own parser;
  ``text`` and untagged blocks that are not commands are output samples.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from pmemo.blocks.parse import parse

from .served import clean_env, pmemo, serving
from .test_readme import cli_commands

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```([\w-]*)\n(.*?)^```", re.S | re.M)
KINDS = {"python", "sh", "js", "text", "markdown", "yaml", ""}
PROGRAMS = {"pmemo", ".venv/bin/pmemo", "python", "python3", ".venv/bin/python", "cd", "make", "npm",
            "node", "curl", "docker", "export", "cp", "nice", "pytest"}
PLACEHOLDER_DB = "postgresql://pmemo:secret@db.example/pmemo"
# What the README's library example must print (it has no "prints:" block: its dates are today's).
README_EXAMPLE = [r"short_term .* 预算不能超过10万元", r"alias='霓霓', .*person_ids=\('ni',\)", r"allergy:花生",
                  r"## (People|相关的人)\n", r"考研"]


@dataclass(frozen=True)
class Block:
    doc: Path
    line: int
    kind: str
    text: str
    before: str  # the prose between the previous block and this one

    @property
    def name(self) -> str:
        return f"{self.doc.relative_to(ROOT)}:{self.line}"


def blocks() -> list[Block]:
    found = []
    for doc in DOCS:
        text = doc.read_text("utf-8")
        end = 0
        for match in FENCE.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            found.append(Block(doc, line, match.group(1), match.group(2), text[end:match.start()]))
            end = match.end()
    return found


ALL = blocks()


def words_of(line: str) -> list[str]:
    return shlex.split(line.replace("[", " ").replace("]", " "), comments=True)


def is_commands(block: Block) -> bool:
    try:
        lines = [words_of(line) for line in logical_lines(block.text)]
    except ValueError:  # unbalanced quotes: prose or output, not commands
        return False
    lines = [words for words in lines if words]
    return bool(lines) and all(program_of(words) in PROGRAMS for words in lines)


def logical_lines(text: str) -> list[str]:
    return [line for line in text.replace("\\\n", " ").splitlines() if line.strip()]


def program_of(words: list[str]) -> str:
    words = [w for w in words if not re.fullmatch(r"[A-Z_][A-Z0-9_]*=\S*", w)]
    return words[0] if words else "export"


def commands(block: Block) -> list[tuple[list[str], str]]:
    """Each simple command of the block, with the directory it runs in (after a ``cd``)."""
    out = []
    for line in logical_lines(block.text):
        cwd = "."
        for part in re.split(r"&&|\|\||[;|&]|\$\(|\)", line.split(" #")[0]):
            try:
                words = [w for w in words_of(part) if not re.fullmatch(r"[A-Z_][A-Z0-9_]*=\S*", w)]
            except ValueError:  # a quote cut by a $( … ): the part around a command we check
                assert "pmemo " not in part, (block.name, part)
                continue
            while words and words[0] in ("export", "nice", "time"):
                words = words[1:] if words[0] != "nice" else words[3 if words[1:2] == ["-n"] else 1:]
            if not words:
                continue
            if words[0] == "cd":
                cwd = words[1]
            out.append((words, cwd))
    return out


def check_pmemo(words: list[str], where: str) -> None:
    known = cli_commands()
    head = words[1]
    assert head in known, (where, words)
    if hasattr(known[head], "commands"):
        head = f"{head} {words[2]}"
        assert head in known, (where, words)
    options = {o for p in known[head].params for o in getattr(p, "opts", [])}
    for option in (w.split("=")[0] for w in words if w.startswith("--")):
        assert option in options, (where, head, option)


def check_command(words: list[str], cwd: str, block: Block) -> None:
    where, program = block.name, words[0]
    base = ROOT / cwd if not cwd.startswith("/") else None
    if program in ("pmemo", ".venv/bin/pmemo"):
        check_pmemo(words, where)
    elif program == "docker" and "pmemo" in words[1:] and "exec" in words:
        check_pmemo(words[words.index("pmemo", words.index("exec")):], where)
    elif program in ("python", "python3", ".venv/bin/python") and base is not None:
        if words[1] == "-m":
            module = words[2]
            assert module == "pytest" or (ROOT / "src" / Path(*module.split("."))).with_suffix(".py").exists(), where
            return
        script = base / words[1]
        assert script.exists(), (where, words)
        source = script.read_text("utf-8")
        for option in (w.split("=")[0] for w in words[2:] if w.startswith("--")):
            assert re.search(rf"[\"']{option}[\"']", source), (where, script.name, option)
    elif program == "cd" and base is not None:
        assert base.is_dir(), (where, cwd)
    elif program == "make":
        makefile = (ROOT / "Makefile").read_text("utf-8")
        for target in words[1:]:
            assert re.search(rf"^{re.escape(target)}:", makefile, re.M), (where, target)
    elif program == "npm" and "--prefix" in words:
        package = ROOT / words[words.index("--prefix") + 1] / "package.json"
        assert package.exists(), where
        if "run" in words:
            assert f'"{words[words.index("run") + 1]}":' in package.read_text("utf-8"), (where, words)
    elif program == "node" and base is not None:
        saved = f"save it as `{words[1]}`" in block.before.lower()  # the block above, saved by the reader
        assert saved or (base / words[1]).exists(), (where, words)


def test_every_block_is_of_a_kind_that_is_checked() -> None:
    assert len(ALL) >= 20, "no blocks found: the fence pattern is wrong"
    odd = [(b.name, b.kind) for b in ALL if b.kind not in KINDS]
    assert odd == [], "give each block one of the kinds this test knows"


SH = [b for b in ALL if b.kind == "sh" or (b.kind == "" and is_commands(b))]
BY_README_TEST = {b.name for b in ALL if b.doc.name == "CLI.md" and b.kind == "sh"}


@pytest.mark.parametrize("block", [b for b in SH if b.name not in BY_README_TEST], ids=lambda b: b.name)
def test_every_command_exists_with_its_options(block: Block) -> None:
    found = commands(block)
    assert found, block.name
    for words, cwd in found:
        check_command(words, cwd, block)


def test_the_cli_doc_blocks_are_the_ones_the_readme_test_runs() -> None:
    from .test_readme import REFERENCE, WALKTHROUGH

    assert len(BY_README_TEST) == 2 and WALKTHROUGH and REFERENCE


PYTHON = [b for b in ALL if b.kind == "python"]


def prints_after(block: Block) -> str | None:
    later = ALL[ALL.index(block) + 1:]
    if later and later[0].doc == block.doc and later[0].kind == "text" and later[0].before.strip() == "prints:":
        return later[0].text
    return None


def run_python(block: Block, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    source = block.text
    if PLACEHOLDER_DB in source:
        source = source.replace(PLACEHOLDER_DB, request.getfixturevalue("postgres_url"))
    script = tmp_path / "block.py"
    script.write_text(source, "utf-8")
    runner = ("import ast, asyncio, sys\n"
              "code = compile(open(sys.argv[1], encoding='utf-8').read(), sys.argv[1], 'exec',"
              " flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)\n"
              "done = eval(code, {'__name__': '__main__'})\n"
              "if asyncio.iscoroutine(done):\n    asyncio.run(done)\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PMEMO_")}  # the defaults, as a reader has
    done = subprocess.run([sys.executable, "-c", runner, str(script)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL)
    assert done.returncode == 0 and "Traceback" not in done.stderr, (block.name, done.stdout, done.stderr)
    return done.stdout


@pytest.mark.parametrize("block", PYTHON, ids=lambda b: b.name)
def test_every_python_block_runs(block: Block, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    out = run_python(block, tmp_path, request)
    expected = prints_after(block)
    if expected is not None:
        assert expected.strip() in out, (block.name, out)
    if block.doc.name == "README.md":
        for pattern in README_EXAMPLE:
            assert re.search(pattern, out), (pattern, out)
    if "import" in block.text and "print(" not in block.text:
        return  # a block of imports: running it is the check
    assert out.strip(), block.name


def test_the_readme_has_its_library_example_and_it_is_short() -> None:
    readme = [b for b in PYTHON if b.doc.name == "README.md"]
    assert len(readme) == 1 and len(readme[0].text.splitlines()) <= 20


def test_the_curl_calls_answer(tmp_path: Path) -> None:
    curls = [b for b in SH if all(w[0] == "curl" for w, _ in commands(b))]
    assert curls, "a block of curl calls was expected (docs/SERVER.md)"
    data = tmp_path / "data"
    key = pmemo("keys", "create", "--tenant", "curl", "--data", str(data)).stdout.strip().splitlines()[-1]
    with serving(data) as served:
        for block in curls:
            script = block.text.replace("localhost:8765", served.url.removeprefix("http://"))
            done = subprocess.run(["bash", "-c", f"set -e -o pipefail\n{script}"], env=clean_env(KEY=key),
                                  capture_output=True, text=True, timeout=120)
            assert done.returncode == 0, (block.name, done.stdout, done.stderr)
            assert '"detail"' not in done.stdout, (block.name, done.stdout)  # no problem body
            assert done.stdout.count("vegetarian") >= 2, (block.name, done.stdout)  # stored, then in the context


def test_the_js_blocks_are_the_readme_bot_the_ts_tests_run() -> None:
    js = [b for b in ALL if b.kind == "js"]
    assert [b.doc.name for b in js] == ["README.md"], "clients/ts/test/readme.test.mjs runs only the README's"
    runner = (ROOT / "clients" / "ts" / "test" / "readme.test.mjs").read_text("utf-8")
    assert "README.md" in runner and "```js" in runner


@pytest.mark.parametrize("block", [b for b in ALL if b.kind == "yaml"], ids=lambda b: b.name)
def test_yaml_blocks_parse(block: Block) -> None:
    assert isinstance(yaml.safe_load(block.text), dict), block.name


@pytest.mark.parametrize("block", [b for b in ALL if b.kind == "markdown"], ids=lambda b: b.name)
def test_memory_block_files_read_without_a_problem(block: Block) -> None:
    read = parse("notes.md", block.text.encode("utf-8"))
    assert read.problem is None and read.label and read.value.strip(), (block.name, read.problem)


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


@pytest.mark.parametrize("doc", DOCS, ids=lambda d: str(d.relative_to(ROOT)))
def test_every_relative_link_finds_its_file_and_heading(doc: Path) -> None:
    text = FENCE.sub("", doc.read_text("utf-8"))
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        path, _, anchor = target.partition("#")
        file = (doc.parent / path).resolve() if path else doc
        assert file.exists(), (doc.name, target)
        if anchor:
            headings = re.findall(r"^#+ (.+)$", FENCE.sub("", file.read_text("utf-8")), re.M)
            assert anchor in {slug(h) for h in headings}, (doc.name, target)
