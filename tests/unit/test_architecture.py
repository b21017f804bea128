"""Layers point one way (STYLE.md 10): the import-linter contracts in pyproject.toml hold.

One layers contract stacks every package of src/pmemo: the CLI over the server and the
evaluation, over MCP, the shared REST/MCP bodies, the blocking wrapper and the facade, over
forgetting, pipelines, retrieval, the graph and the diary, blocks, tiers, people, the pure
modules and the stores, over the foundation. Forbidden contracts say it once more where it
matters most: a store imports no layer above it, the library imports no adapter and not the
facade. grimp counts imports inside functions too, so a lazy import does not hide a cycle.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def lint_imports(cwd: Path, src: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(src)}  # the package under ``src``, not the installed one
    return subprocess.run([str(LINT_IMPORTS), "--no-cache", "--no-logo"], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def test_the_import_contracts_are_kept() -> None:
    done = lint_imports(ROOT, ROOT / "src")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "KEPT" in done.stdout and "0 broken" in done.stdout, done.stdout  # the contracts were read


def test_every_package_has_a_layer() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    layers = next(c["layers"] for c in config["contracts"] if c["type"] == "layers")
    named = {m.strip() for layer in layers for m in layer.replace(":", "|").split("|")}
    package = ROOT / "src" / "pmemo"
    modules = {f"pmemo.{p.stem}" for p in package.glob("*.py") if p.stem != "__init__"}
    modules |= {f"pmemo.{p.parent.name}" for p in package.glob("*/__init__.py")}
    assert modules - named == set(), "a package of src/pmemo in no layer of pyproject.toml"
    assert named - modules == set(), "a layer names no package"


def test_a_planted_upward_import_breaks_the_contracts(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "src" / "pmemo", tmp_path / "src" / "pmemo",
                    ignore=shutil.ignore_patterns("__pycache__", "data", "static"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    plants = {  # importer: the import an upward edge would add
        "graph/names.py": "from pmemo.pipelines import extraction",
        "mcp/graph_tools.py": "from pmemo.server import keys",
        "people/identity.py": "import pmemo.memory",
        "stores/base.py": "from pmemo.tiers import records",
        "tiers/records.py": "from pmemo.retrieval import fusion",
    }
    for path, line in plants.items():
        with (tmp_path / "src" / "pmemo" / path).open("a") as f:
            f.write(f"\n{line}  # planted\n")
    done = lint_imports(tmp_path, tmp_path / "src")
    assert done.returncode != 0 and "0 kept" not in done.stdout, done.stdout
    for broken in ("pmemo.graph is not allowed to import pmemo.pipelines",
                   "pmemo.mcp is not allowed to import pmemo.server",
                   "pmemo.people is not allowed to import pmemo.memory",
                   "pmemo.stores is not allowed to import pmemo.tiers",
                   "pmemo.tiers is not allowed to import pmemo.retrieval"):
        assert broken in done.stdout, (broken, done.stdout)
