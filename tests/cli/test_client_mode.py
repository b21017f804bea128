"""The CLI beside a running ``pmemo serve`` (client mode), run as a person runs it: the server
holds the data directory, and every memory command talks to it over REST instead.

Each test starts the real server (``pmemo serve`` in a subprocess, hashing embedder) and runs
the installed ``pmemo`` executable against it.
"""

from __future__ import annotations

import json
import os
import re
import select
import stat
import subprocess
from pathlib import Path

import httpx

from .served import PMEMO, clean_env, one_line_error, pmemo, serving

SAMPLE = Path(__file__).resolve().parents[2] / "src" / "pmemo" / "data" / "sample_conversation.jsonl"


def keys_listed(data: Path) -> list[str]:
    return pmemo("keys", "list", "--data", str(data)).stdout.strip().splitlines()[1:]


def test_every_memory_command_beside_a_running_server(tmp_path: Path) -> None:
    """No key in the environment: each command makes a key for itself and deletes it after."""
    data = tmp_path / "data"
    with serving(data) as served:
        info = json.loads((data / "server.json").read_text())
        assert info["url"] == served.url and info["pid"] == served.proc.pid
        assert stat.S_IMODE((data / "server.json").stat().st_mode) == 0o600
        keys_before = keys_listed(data)
        d = ("--data", str(data))
        demo = ("--tenant", "demo", "--user", "demo", *d)

        hits = json.loads(pmemo("search", "预算", *demo, "--json").stdout)
        assert hits and any("预算" in h["text"] for h in hits[:3])
        ctx = pmemo("context", "what is our budget?", *demo, "--session", "s5", "--budget", "500")
        assert re.search(r"## (Current input|当前消息)\n", ctx.stdout) and re.search(r"\d+/500 tokens", ctx.stdout)

        added = pmemo("add", "我对花生过敏。", *demo, "--session", "s9", "--actor", "Louis").stdout
        turn_id = int(re.fullmatch(r"turn (\d+) step 1 \(session s9\)\n", added).group(1))  # type: ignore[union-attr]
        listed = json.loads(pmemo("turns", "list", *demo, "--session", "s9", "--json").stdout)
        assert [(t["id"], t["content"], t["actor"]) for t in listed] == [(turn_id, "我对花生过敏。", "Louis")]
        sessions = json.loads(pmemo("sessions", *demo, "--json").stdout)
        assert {s["session_id"]: s["turns"] for s in sessions}["s9"] == 1 and len(sessions) == 6
        facts = json.loads(pmemo("profile", *demo, "--json").stdout)  # waits for the extraction
        assert any(f["key"] == "allergy:花生" for f in facts)

        key_id = pmemo("key", "add", "预算上限：13万元", *demo).stdout.split()[2]
        pmemo("key", "edit", key_id, "Budget cap: 130k CNY", *demo)
        (line,) = json.loads(pmemo("key", "list", *demo, "--json").stdout)
        assert line["text"] == "Budget cap: 130k CNY"
        pmemo("key", "delete", key_id, *demo)
        assert "no key lines" in pmemo("key", "list", *demo).stdout

        summaries = json.loads(pmemo("summaries", "list", *demo, "--session", "s1", "--json").stdout)
        assert (summaries[0]["step_from"], summaries[0]["step_to"]) == (1, 10)
        assert pmemo("summaries", "delete", str(summaries[0]["id"]), "--tenant", "demo", *d).stdout \
            == f"summary {summaries[0]['id']} deleted\n"
        assert json.loads(pmemo("clusters", *demo, "--json").stdout)
        counts = json.loads(pmemo("stats", "--tenant", "demo", *d, "--json").stdout)
        assert counts["turns"] == 115 and counts["pending_jobs"] == 0

        forgot = pmemo("forget", "--query", "花生", *demo).stdout
        batch = re.search(r"pmemo restore (\d+) --tenant demo", forgot)
        assert batch, forgot
        assert json.loads(pmemo("profile", *demo, "--json").stdout) == []
        assert "restored batch" in pmemo("restore", batch.group(1), "--tenant", "demo", *d).stdout
        assert any(f["key"] == "allergy:花生" for f in json.loads(pmemo("profile", *demo, "--json").stdout))
        assert "would" in pmemo("forget", "--dry-run", "--tenant", "demo", *d).stdout
        preview = json.loads(pmemo("forget", "--turn", str(turn_id), "--dry-run", "--tenant", "demo",
                                   *d, "--json").stdout)
        assert preview == {"dry_run": True, "turns": [turn_id], "texts": ["我对花生过敏。"]}
        assert pmemo("turns", "delete", "--session", "s9", "--step", "1", *demo).stdout \
            .startswith(f"deleted turn {turn_id}")
        assert "does not exist" in one_line_error(pmemo("turns", "delete", str(turn_id), "--tenant",
                                                        "demo", *d, code=3))
        missing = pmemo("search", "预算", "--user", "demo", *d)  # no --tenant: the default tenant
        assert missing.stdout.strip() == "no matches for '预算' in tenant default, user demo"

        assert keys_listed(data) == keys_before  # every command's own key is gone again
        assert (data / "server.json").exists()


def test_import_beside_a_server_writes_through_it(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with serving(data) as served:
        out = pmemo("import", str(SAMPLE), "--tenant", "mine", "--data", str(data)).stdout
        assert f"imported 114 turns in 5 session(s) from {SAMPLE} (to the server at {served.url})" in out
        r = httpx.get(f"{served.url}/v1/stats", headers={"Authorization": f"Bearer {served.demo_key}"})
        assert r.json()["stats"]["turns"] == 114  # the demo tenant: untouched
        counts = json.loads(pmemo("stats", "--tenant", "mine", "--data", str(data), "--json").stdout)
        assert counts["turns"] == 114 and counts["pending_jobs"] == 0  # import waited for the jobs
        bad = tmp_path / "bad.jsonl"
        bad.write_text('{"user_id": "u", "session_id": "s", "content": "ok", "tenant_id": "other"}\n')
        error = one_line_error(pmemo("import", str(bad), "--tenant", "mine", "--data", str(data), code=2))
        assert "lines 1-1" in error and "tenant_id 'other'" in error


def test_api_key_and_url_from_the_environment(tmp_path: Path) -> None:
    """PMEMO_URL + PMEMO_API_KEY from anywhere; the key decides the tenant; an admin key or no
    key is one line saying what to do."""
    data, elsewhere = tmp_path / "data", tmp_path / "elsewhere"
    admin = "pm_admin_for_the_test"
    with serving(data, env=clean_env(PMEMO_ADMIN_KEY=admin)) as served:
        assert served.demo_key
        env = clean_env(PMEMO_URL=served.url, PMEMO_API_KEY=served.demo_key)
        hits = json.loads(pmemo("search", "预算", "--user", "demo", "--json", "--data", str(elsewhere),
                                cwd=tmp_path, env=env).stdout)
        assert hits  # the key's tenant (demo), with no --tenant
        assert not elsewhere.exists()  # no store was opened or made
        stats = pmemo("stats", "--data", str(elsewhere), env=env, cwd=tmp_path).stdout
        assert "tenant demo" in stats and "114" in stats
        wrong = one_line_error(pmemo("search", "x", "--user", "demo", "--tenant", "acme", env=env,
                                     code=2))
        assert "PMEMO_API_KEY is a key of tenant 'demo', not 'acme'" in wrong
        no_key = one_line_error(pmemo("search", "x", "--user", "demo",
                                      env=clean_env(PMEMO_URL=served.url), code=1))
        assert "set PMEMO_API_KEY" in no_key
        as_admin = one_line_error(pmemo("search", "x", "--user", "demo", code=1,
                                        env=clean_env(PMEMO_URL=served.url, PMEMO_API_KEY=admin)))
        assert "admin keys manage tenants only" in as_admin and "PMEMO_API_KEY" in as_admin
        unknown = one_line_error(pmemo("stats", code=1,
                                       env=clean_env(PMEMO_URL=served.url, PMEMO_API_KEY="pm_nope")))
        assert "unknown or revoked API key" in unknown
    gone = one_line_error(pmemo("stats", env=clean_env(PMEMO_URL=served.url, PMEMO_API_KEY="k"),
                                code=4))
    assert f"cannot reach the pmemo server at {served.url}" in gone


def test_mcp_beside_a_server_says_what_to_do(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with serving(data) as served:
        error = one_line_error(pmemo("mcp", "--data", str(data), code=4))
        assert "in use by another pmemo process" in error and f"{served.url}/mcp" in error


def test_a_stale_server_file_is_ignored(tmp_path: Path) -> None:
    """A server killed with -9 leaves server.json behind: the CLI opens the store again."""
    data = tmp_path / "data"
    with serving(data):
        pass
    (data / "server.json").write_text(json.dumps({"url": "http://127.0.0.1:9", "pid": 1}))
    out = pmemo("stats", "--tenant", "demo", "--data", str(data), "--json").stdout
    assert json.loads(out)["turns"] == 114


def test_serve_says_what_the_demo_holds_and_where(tmp_path: Path) -> None:
    data = tmp_path / "data"
    for start in ("first", "again"):
        with serving(data, cwd=tmp_path) as served:  # the venv is not under the current directory
            said = {k: v.strip() for k, _, v in (line.partition(":") for line in served.lines)}
            assert said["pmemo data"] == str(data.resolve())
            assert said["Demo"] == ("tenant demo, user demo: 114 turns in 5 sessions, from "
                                    "sample_conversation.jsonl"), start
            assert said["Try"].startswith(f"{PMEMO} search 预算 --tenant demo --user demo --data {data}")


def run_in_a_terminal(args: list[str], env: dict[str, str]) -> str:
    """What a person sees in a terminal (a pseudo-terminal: rich draws its bars there)."""
    import pty

    leader, follower = pty.openpty()
    proc = subprocess.Popen([str(PMEMO), *args], stdin=follower, stdout=follower, stderr=follower,
                            env={**env, "TERM": "xterm", "COLUMNS": "150"}, close_fds=True)
    os.close(follower)
    seen = b""
    while True:
        ready, _, _ = select.select([leader], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the process closed the terminal
                break
            if not chunk:
                break
            seen += chunk
        elif proc.poll() is not None:
            break
    assert proc.wait(180) == 0, seen.decode("utf-8", "replace")
    os.close(leader)
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", seen.decode("utf-8", "replace"))


def test_import_shows_progress_on_a_terminal(tmp_path: Path) -> None:
    local = run_in_a_terminal(["import", str(SAMPLE), "--data", str(tmp_path / "own")], clean_env())
    assert re.search(r"Importing .*━.* 114/114 turns", local), local
    assert re.search(r"Embedding, clustering, summarising .*━.* \d+/114 texts embedded", local), local
    assert "imported 114 turns" in local

    data, many = tmp_path / "data", tmp_path / "many.jsonl"
    many.write_text("".join(json.dumps({"user_id": "u", "session_id": f"s{i // 100}",
                                        "content": f"message {i} about topic {i % 37} and {i * 7919 % 1000}"})
                            + "\n" for i in range(1500)))  # three requests: the last one's jobs are waited for
    with serving(data):
        remote = run_in_a_terminal(["import", str(many), "--tenant", "mine", "--data", str(data)],
                                   clean_env())
    assert re.search(r"Importing .*━.* 1500/1500 turns", remote), remote
    assert re.search(r"Embedding, clustering, summarising .*━.* \d+/\d+ jobs", remote), remote
    piped = pmemo("import", str(SAMPLE), "--data", str(tmp_path / "piped"))
    assert piped.stderr == ""  # no bar (nor its blank lines) when not on a terminal
