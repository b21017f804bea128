"""deploy/compose.yaml (issue 21, deployment): no container engine runs here, so the file is
checked statically. check-jsonschema (from PyPI, in the dev extra) validates it against the
Compose Specification's JSON schema that ships inside that package; our own rules follow:
pinned images, health before dependence, only real settings and real commands, servers that
leave the jobs to the workers, one store and one Redis for every process, secrets only from
deploy/.env, and a load balancer that knows both replicas."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import click
import pytest
import typer
import yaml

from pmemo.cli.main import _register
from pmemo.cli.main import app as cli_app
from pmemo.config import Settings, describe

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
COMPOSE = DEPLOY / "compose.yaml"
ENV_EXAMPLE = DEPLOY / ".env.example"
SCHEMA = "vendor.compose-spec"  # check-jsonschema's copy of the Compose Specification schema
ONE_SHOT = "service_completed_successfully"


# ---- reading the file as compose would -----------------------------------------------------------
def env_file(path: Path) -> dict[str, str]:
    """KEY=VALUE lines, as compose reads an env file (comments and blank lines skipped)."""
    pairs = (line.split("=", 1) for line in path.read_text().splitlines()
             if line.strip() and not line.lstrip().startswith("#"))
    return {key.strip(): value.strip() for key, value in pairs}


_VARIABLE = re.compile(r"\$\$|\$\{(\w+)(?:(:?[-?])([^}]*))?\}")


def interpolate(value: Any, env: dict[str, str]) -> Any:
    """Compose's ``${VAR}``, ``${VAR:-default}``, ``${VAR:?error}`` and ``$$``, in every string."""
    if isinstance(value, dict):
        return {k: interpolate(v, env) for k, v in value.items()}
    if isinstance(value, list):
        return [interpolate(v, env) for v in value]
    if not isinstance(value, str):
        return value

    def one(m: re.Match[str]) -> str:
        if m.group(0) == "$$":
            return "$"
        name, op, arg = m.groups()
        found = env.get(name)
        unset = found is None or (found == "" and op is not None and op.startswith(":"))
        if unset and op in (":?", "?"):
            raise AssertionError(f"${{{name}}} is required: {arg}")
        return (arg if unset and op in (":-", "-") else found) or ""

    return _VARIABLE.sub(one, value)


def raw() -> dict[str, Any]:
    return yaml.safe_load(COMPOSE.read_text())  # safe_load resolves the `<<` merge keys


def services(env: dict[str, str] | None = None) -> dict[str, dict[str, Any]]:
    """The services with deploy/.env.example standing in for deploy/.env."""
    return interpolate(raw(), env_file(ENV_EXAMPLE) if env is None else env)["services"]


def environment(service: dict[str, Any]) -> dict[str, str]:
    """What the container's process sees: its env_file, then `environment`, which wins."""
    found: dict[str, str] = {}
    files = service.get("env_file", [])
    for item in [files] if isinstance(files, str | dict) else files:
        path = item if isinstance(item, str) else item["path"]
        found.update(env_file(ENV_EXAMPLE if path == ".env" else DEPLOY / path))
    declared = service.get("environment", {})
    if isinstance(declared, list):
        declared = dict(item.split("=", 1) for item in declared)
    found.update({k: "" if v is None else str(v) for k, v in declared.items()})
    return found


def pmemo_command(service: dict[str, Any]) -> list[str] | None:
    command = service.get("command")
    return command[1:] if isinstance(command, list) and command[:1] == ["pmemo"] else None


def running(name: str) -> dict[str, dict[str, Any]]:
    """The services that run ``pmemo NAME``."""
    return {s: svc for s, svc in services().items() if (pmemo_command(svc) or [""])[0] == name}


def replicas(service: dict[str, Any]) -> int:
    return int(service.get("deploy", {}).get("replicas", 1))


def has_healthcheck(service: dict[str, Any]) -> bool:
    check = service.get("healthcheck")
    return bool(check) and not check.get("disable") and check.get("test") not in (["NONE"], None)


# ---- (a) the Compose Specification -----------------------------------------------------------------
def check_jsonschema() -> str:
    found = (shutil.which("check-jsonschema", path=str(Path(sys.executable).parent))
             or shutil.which("check-jsonschema"))
    if found is None:
        pytest.fail("check-jsonschema is missing: pip install -e '.[dev]' installs it")
    return found


def validate(path: Path) -> subprocess.CompletedProcess[str]:
    # the schema is inside the package: nothing is downloaded
    return subprocess.run([check_jsonschema(), "--builtin-schema", SCHEMA, "--color", "never", str(path)],
                          capture_output=True, text=True, timeout=120)


def test_the_compose_file_follows_the_compose_specification() -> None:
    done = validate(COMPOSE)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_schema_check_would_catch_a_bad_file(tmp_path: Path) -> None:
    bad = tmp_path / "compose.yaml"
    bad.write_text(COMPOSE.read_text().replace("stop_grace_period:", "stop_grace_periods:", 1)
                   .replace("condition: service_healthy", "condition: service_ready", 1))
    done = validate(bad)
    assert done.returncode != 0, done.stdout
    assert "stop_grace_periods" in done.stdout and "'service_ready' is not one of" in done.stdout, done.stdout


# ---- (b) our rules ---------------------------------------------------------------------------------
def test_every_image_is_pinned_and_ours_is_built_from_the_dockerfile() -> None:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    for name, svc in services().items():
        image = svc["image"]
        repository, _, tag = image.rpartition(":") if ":" in image.split("/")[-1] else (image, "", "")
        assert "@sha256:" in image or (tag and tag != "latest"), f"{name}: {image} is not pinned"
        if "build" in svc:  # ours: tagged with the version it is built from
            assert (DEPLOY / svc["build"]["context"]).resolve() == ROOT, name
            assert svc["build"].get("dockerfile", "Dockerfile") == "Dockerfile", name
            assert tag == version, f"{name}: tag {image} as pmemo {version}"
        else:  # theirs: a full release number, not a moving major or minor tag
            assert re.search(r"\d+\.\d+\.\d+", tag), f"{name}: {image} names no release"
    assert services()["postgres"]["image"].startswith("pgvector/pgvector:")


def test_the_image_can_open_postgres_and_redis() -> None:
    """The compose file builds the repository's Dockerfile: the extras it installs must bring
    the PostgreSQL driver and Redis client that PMEMO_STORE and PMEMO_REDIS_URL need."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    installed = re.findall(r'pip install[^\n]*"\.\[([^\]]*)\]"', (ROOT / "Dockerfile").read_text())
    todo, requirements = [e for spec in installed for e in spec.split(",")], []
    while todo:
        for dep in extras[todo.pop()]:
            nested = re.fullmatch(r"pmemo\[([^\]]*)\]", dep)
            todo += nested.group(1).split(",") if nested else []
            requirements += [] if nested else [dep]
    for driver in ("psycopg", "pgvector", "redis"):
        assert any(re.match(rf"{driver}\b", r) for r in requirements), (
            f"the image built by deploy/compose.yaml lacks {driver}: the Dockerfile installs {installed}")


def test_every_service_is_healthy_or_waits_only_for_healthy_ones() -> None:
    found = services()
    for name, svc in found.items():
        needs = svc.get("depends_on", {})
        assert isinstance(needs, dict), f"{name}: depends_on without conditions waits for nothing"
        for dep, how in needs.items():
            condition = how.get("condition")
            if condition == ONE_SHOT:
                assert found[dep].get("restart") == "no", f"{name} waits for {dep} to finish; it restarts"
            else:
                assert condition == "service_healthy", f"{name} on {dep}: {condition} is a race"
                assert has_healthcheck(found[dep]), f"{name} waits for {dep}, which has no healthcheck"
        assert has_healthcheck(svc) or needs, f"{name}: no healthcheck and nothing it waits for"


def test_the_health_checks_probe_real_routes_and_tools() -> None:
    found = services()
    routes = set(re.findall(r"(?m)^### `GET (/\S*)`", (ROOT / "docs" / "REST.md").read_text()))
    for name, svc in running("serve").items():
        port = option(svc, "--port")
        probed = re.findall(rf"127\.0\.0\.1:{port}(/\w+)", " ".join(svc["healthcheck"]["test"]))
        assert probed and set(probed) <= routes, f"{name} probes {probed}, not one of pmemo's routes"
    assert "pg_isready" in found["postgres"]["healthcheck"]["test"]
    assert "redis-cli ping" in " ".join(found["redis"]["healthcheck"]["test"])


def test_every_pmemo_variable_is_a_setting_pmemo_reads() -> None:
    known = {name for name, _, _ in describe()}
    for path in (ROOT / "src" / "pmemo").rglob("*.py"):  # the few read by name (PMEMO_ADMIN_KEY …)
        known |= set(re.findall(r"[\"'](PMEMO_[A-Z0-9_]+)[\"']", path.read_text()))
    used = set(re.findall(r"\b(PMEMO_[A-Z0-9_]+)\b", COMPOSE.read_text() + ENV_EXAMPLE.read_text()))
    assert used and used <= known, f"not settings pmemo reads: {sorted(used - known)}"


def test_the_commands_are_real_cli_commands() -> None:
    if not cli_app.registered_commands:
        _register()
    root: Any = typer.main.get_command(cli_app)
    for name, svc in services().items():
        args = pmemo_command(svc)
        if args is None:
            assert "build" not in svc, f"{name}: our image runs pmemo"
            continue
        assert args[0] in root.commands, f"{name}: pmemo {args[0]} is no command"
        try:  # parses every option and value as the command would, without running it
            root.commands[args[0]].make_context(args[0], args[1:])
        except click.ClickException as exc:
            pytest.fail(f"{name}: pmemo {' '.join(args)}: {exc.format_message()}")
    assert len(running("serve")) == 2, "two server replicas"
    assert sum(replicas(svc) for svc in running("worker").values()) == 2, "two workers"


def settings_of(service: dict[str, Any]) -> Settings:
    return Settings.from_env(environment(service))


def test_servers_leave_the_jobs_to_the_workers() -> None:
    for name, svc in running("serve").items():
        assert settings_of(svc).run_jobs is False, f"{name} runs background jobs"
    for name, svc in running("worker").items():
        assert settings_of(svc).run_jobs is True, name


def test_every_process_shares_one_store_and_one_redis() -> None:
    found = services()
    pmemo = {**running("serve"), **running("worker"), **running("migrate")}
    stores = {settings_of(svc).store for svc in pmemo.values()}
    assert len(stores) == 1, stores
    redis_urls = {settings_of(svc).redis_url for name, svc in pmemo.items() if name not in running("migrate")}
    assert len(redis_urls) == 1, redis_urls
    store, redis_url = urlsplit(stores.pop()), urlsplit(redis_urls.pop())
    db = found[store.hostname or ""]["environment"]  # the URL names the database service itself
    assert store.scheme == "postgresql" and store.port == 5432
    assert (store.username, store.password, store.path) == (
        db["POSTGRES_USER"], db["POSTGRES_PASSWORD"], "/" + db["POSTGRES_DB"])
    command = found[redis_url.hostname or ""]["command"]
    assert redis_url.scheme == "redis" and redis_url.password == command[command.index("--requirepass") + 1]


def test_migrate_runs_once_before_every_other_pmemo_process() -> None:
    (migrate, job), = running("migrate").items()
    assert job["restart"] == "no"
    for name, svc in services().items():
        if pmemo_command(svc) is not None and name != migrate:
            assert svc["depends_on"][migrate]["condition"] == ONE_SHOT, name


def test_long_running_services_restart_and_keep_their_data() -> None:
    found = services()
    for name, svc in found.items():
        assert svc.get("restart") in ("no", "always", "unless-stopped", "on-failure"), name
        assert (svc["restart"] == "no") == (name in running("migrate")), f"{name}: restart {svc['restart']}"
    named = set(raw()["volumes"])  # named volumes outlive `docker compose down`
    assert any(v.split(":")[0] in named and v.endswith(":/var/lib/postgresql/data")
               for v in found["postgres"]["volumes"]), "the database on a named volume"
    keys = [[v.split(":")[0] for v in svc.get("volumes", []) if v.endswith(":/data")]
            for svc in running("serve").values()]
    assert keys[0] in ([n] for n in named) and all(k == keys[0] for k in keys), \
        "the replicas share one named volume (an older pmemo's API keys, copied into the database)"


def test_secrets_come_only_from_the_env_file() -> None:
    text = COMPOSE.read_text()
    for key, value in re.findall(r"(?m)^\s*(\w*(?:PASSWORD|SECRET|TOKEN|AUTH|KEY)\w*):\s*(\S.*)$", text):
        assert re.fullmatch(r"\$\{\w+:\?[^}]+\}", value), f"{key} is not taken from deploy/.env: {value}"
    for url in re.findall(r"\w+://[^\s\"']+", text):
        secret = urlsplit(url).password
        assert secret is None or re.fullmatch(r"\$\{\w+:\?[^}]+", secret), f"a literal password in {url}"
    required = set(re.findall(r"\$\{(\w+):\?", text))
    example = env_file(ENV_EXAMPLE)
    assert required <= set(example), f"not in deploy/.env.example: {sorted(required - set(example))}"
    assert all("change-me" in example[name] for name in required | {"PMEMO_ADMIN_KEY"})
    with pytest.raises(AssertionError, match="POSTGRES_PASSWORD"):  # a missing secret stops compose
        services({k: v for k, v in example.items() if k != "POSTGRES_PASSWORD"})
    ignored = subprocess.run(["git", "check-ignore", "-q", str(DEPLOY / ".env")], cwd=ROOT)
    assert ignored.returncode == 0, "deploy/.env must be git-ignored"


def option(service: dict[str, Any], flag: str) -> str:
    args = pmemo_command(service) or []
    return args[args.index(flag) + 1]


def test_the_balancer_sends_to_both_replicas_and_only_it_is_published() -> None:
    found = services()
    (balancer, lb), = ((n, s) for n, s in found.items() if s["image"].startswith("nginx:"))
    conf = (DEPLOY / "nginx.conf").read_text()
    upstream = set(re.findall(r"(?m)^\s*server\s+([\w.-]+:\d+)", conf))
    assert upstream == {f"{name}:{option(svc, '--port')}" for name, svc in running("serve").items()}
    assert set(lb["depends_on"]) == set(running("serve"))
    assert "./nginx.conf:/etc/nginx/conf.d/default.conf:ro" in lb["volumes"]
    assert [n for n, s in found.items() if s.get("ports")] == [balancer]
    body = Settings().max_turns_body_bytes // (1024 * 1024)
    assert f"client_max_body_size {body}m;" in conf  # a full batch of turns gets through
