"""The inspector end to end in headless Chromium (Debian's), against a live loopback server.

Screenshots of each step go to test-artifacts/. Needs `apt-get install -y chromium`
(and fonts-noto-cjk for readable Chinese in the screenshots).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import sample_seed
from .live import LiveServer

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

# Skipped on a developer's machine without Chromium; in CI a missing browser fails.
pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists() and not os.environ.get("CI"),
    reason="chromium not installed (apt-get install -y chromium)",
)


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    # Its own server: the fuzzing tests share theirs and delete things at random.
    server = LiveServer(tmp_path_factory.mktemp("web"), seed=sample_seed()).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


# every Content-Security-Policy violation the page reports, through a binding of the test's
# (a page script could not report it otherwise: the policy allows no inline script)
REPORT_CSP = """document.addEventListener("securitypolicyviolation", (e) =>
  window.cspViolation(`${e.violatedDirective} blocked ${e.blockedURI || "inline"}`));"""


@pytest.fixture
def violations() -> list[str]:
    return []


@pytest.fixture
def page(browser: Any, violations: list[str]) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.expose_function("cspViolation", lambda v: violations.append(v))
    context.add_init_script(REPORT_CSP)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: "Content Security Policy" in m.text and violations.append(f"console: {m.text}"))
    outside: list[str] = []
    pg.on("request", lambda r: r.url.startswith("http://127.0.0.1") or outside.append(r.url))
    yield pg
    context.close()
    assert not errors, errors
    assert not violations, f"the page broke its Content-Security-Policy: {violations}"
    assert not outside, f"the page fetched from outside: {outside}"


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=True)


def api(live: LiveServer) -> httpx.Client:
    return httpx.Client(base_url=live.url, headers={"Authorization": f"Bearer {live.key}"})


def test_inspector_flow(page: Any, live: LiveServer) -> None:
    # load: the key comes in the URL fragment, leaves the address bar, and is kept in the
    # tab's sessionStorage, not in localStorage (on disk, for every later visit)
    page.goto(f"{live.url}/#key={live.key}")
    page.wait_for_selector("#short-turns li.turn")
    assert "#key=" not in page.url and live.key not in page.url
    assert page.evaluate("sessionStorage.getItem('pmemo.key')") == live.key
    assert page.evaluate("localStorage.length") == 0
    page.reload()  # the tab keeps it
    page.wait_for_selector("#short-turns li.turn")
    assert page.locator("#owner").input_value() == "u:demo"
    assert page.locator("#timeline li.turn").count() > 20
    assert page.locator("#short-turns li.turn").count() == 20
    assert "Tenant t1" in page.locator("#stats").inner_text()
    shot(page, "web-01-load.png")

    # search: the packed context, each item with its tier, score and why
    page.fill("#query", "项目预算是多少？")
    page.click("#search-form button")
    page.wait_for_selector("#context-items li.item")
    first = page.locator("#context-items li.item").first
    assert first.locator(".badge").inner_text()
    assert float(first.locator(".score").inner_text()) >= 0
    assert first.locator(".why").inner_text().startswith("—")
    assert "10万" in page.locator("#context-items").inner_text()
    shot(page, "web-02-search.png")

    # edit key memory: add a line, then change it
    page.fill("#key-new", "Louis prefers short answers.")
    page.click("#key-add button")
    page.wait_for_selector("#key-lines li:has-text('Louis prefers short answers.')")
    page.locator("#key-lines li:has-text('Louis prefers short answers.') button.edit").click()
    page.fill("#key-lines input.key-edit", "Louis prefers answers in Chinese.")
    page.click("#key-lines form button")
    page.wait_for_selector("#key-lines li:has-text('Louis prefers answers in Chinese.')")
    with api(live) as c:
        lines = c.get("/v1/key", params={"user_id": "demo"}).json()["lines"]
    assert "Louis prefers answers in Chinese." in [k["text"] for k in lines]
    shot(page, "web-03-key-memory.png")

    # delete a turn: it disappears, and the page says what went with it
    # the first turn of the conversation: a summary and a cluster were derived from it
    victim = page.locator("#timeline li.turn").first
    turn_id = int(victim.get_attribute("data-id"))
    before = page.locator("#timeline li.turn").count()
    victim.locator("button.delete-turn").click()
    page.wait_for_selector("#removed:not([hidden])")
    assert "Forgot turn" in page.locator("#removed").inner_text()
    report = page.locator("#removed").inner_text()
    assert f"turns {turn_id} removed" in report
    assert "summaries" in report or "clusters" in report, report
    assert page.locator("#timeline li.turn").count() == before - 1
    assert page.locator(f"#timeline li[data-id='{turn_id}']").count() == 0
    with api(live) as c:
        assert c.get(f"/v1/turns/{turn_id}").status_code == 404
    shot(page, "web-04-delete-turn.png")


def test_inspector_asks_for_a_key(page: Any, live: LiveServer) -> None:
    page.goto(f"{live.url}/")
    page.evaluate("sessionStorage.clear()")
    page.reload()
    page.wait_for_selector("#status.error")
    assert "API key" in page.locator("#status").inner_text()
    page.fill("#key", "pm_wrong")
    page.click("#key-form button")
    page.wait_for_selector("#status.error:has-text('refused')")
    page.fill("#key", live.key)
    page.click("#key-form button")
    page.wait_for_selector("#short-turns li.turn")
    assert page.evaluate("sessionStorage.getItem('pmemo.key')") == live.key
    assert page.evaluate("localStorage.getItem('pmemo.key')") is None
    shot(page, "web-00-key-prompt.png")


def test_inspector_moves_an_old_key_out_of_local_storage(page: Any, live: LiveServer) -> None:
    # an earlier inspector kept the key in localStorage: it is used once and removed from there
    page.goto(f"{live.url}/")
    page.evaluate(f"localStorage.setItem('pmemo.key', {live.key!r}); sessionStorage.clear()")
    page.reload()
    page.wait_for_selector("#short-turns li.turn")
    assert page.evaluate("localStorage.getItem('pmemo.key')") is None
    assert page.evaluate("sessionStorage.getItem('pmemo.key')") == live.key


def test_inspector_policy_blocks_inline_script(page: Any, violations: list[str], live: LiveServer) -> None:
    """The policy is in force (and a violation would be seen): an injected inline script does not run."""
    page.goto(f"{live.url}/#key={live.key}")
    page.wait_for_selector("#short-turns li.turn")
    page.evaluate("""() => {
      const s = document.createElement("script");
      s.textContent = "window.injected = true";
      document.body.append(s);
      const b = document.createElement("b");
      b.setAttribute("onclick", "window.injected = true");
      document.body.append(b);
      b.click();
    }""")
    page.wait_for_timeout(200)
    assert page.evaluate("window.injected") is None
    assert any(v.startswith("script-src") for v in violations), violations
    assert any(v.startswith("console: ") for v in violations), violations
    violations.clear()  # expected here; the fixture fails on any other


def test_inspector_profile_and_episodes(page: Any, live: LiveServer) -> None:
    with api(live) as c:
        r = c.post("/v1/turns", json={"user_id": "demo", "session_id": "s9", "content": "我不吃辣"})
        assert r.status_code == 201, r.text
    page.goto(f"{live.url}/#key={live.key}")
    page.wait_for_selector("#short-turns li.turn")
    # facts are extracted in the background: reload until the column shows one
    for _ in range(50):
        if "辣" in page.locator("#facts").inner_text():
            break
        page.wait_for_timeout(200)
        page.click("#reload")
    facts = page.locator("#facts").inner_text()
    assert "辣" in facts and "confidence" in facts, facts
    assert page.locator("#episodes li").count() >= 1
    page.check("#profile-history")
    page.wait_for_selector("#facts li.fact")
    shot(page, "web-05-profile.png")


def wait_for(check: Any, timeout: float = 30) -> Any:
    """Poll ``check()`` until it returns something truthy: the live server learns in the background."""
    import time

    end = time.monotonic() + timeout
    while True:
        found = check()
        if found or time.monotonic() > end:
            assert found, "the server did not get there in time"
            return found
        time.sleep(0.1)


def test_people_page(page: Any, live: LiveServer) -> None:
    # a tenant of its own: the other tests' owners and turns stay out of it
    with httpx.Client(base_url=live.url, headers={"Authorization": f"Bearer {live.admin_key}"}) as adm:
        key = adm.post("/v1/admin/keys", json={"tenant": "people-page"}).json()["key"]
    with httpx.Client(base_url=live.url, headers={"Authorization": f"Bearer {key}"}) as c:
        for group, who, name, text in [
            ("study", "ni", "周霓", "大家好，叫我霓霓就行。我对花生过敏。"),
            ("work", "ni", "周霓", "我在腾讯工作"),
            ("study", "wt", "许文涛", "我不吃香菜"),
            ("study", "ni", "周霓", "12月23日考研，最近压力好大"),
        ]:
            turn = {"group_id": group, "session_id": f"{group}-chat", "content": text, "actor": name, "actor_id": who}
            assert c.post("/v1/turns", json=turn).status_code == 201

        def learned() -> bool:
            r = c.get("/v1/people/ni")
            if r.status_code != 200 or "霓霓" not in {a["alias"] for a in r.json()["aliases"]}:
                return False
            facts = c.get("/v1/people/ni/profile").json()["facts"]
            return {f["learned_in"] for f in facts} == {"g:study", "g:work"}

        wait_for(learned)

        def aliases() -> set[str]:
            return {a["alias"] for a in c.get("/v1/people/ni").json()["aliases"]}

        # the member list: both people, display names, aliases with their source, seen, messages
        page.goto(f"{live.url}/#key={key}")
        page.wait_for_selector("#short-turns li.turn")
        page.select_option("#owner", "g:study")
        page.wait_for_selector("#short-turns li.turn:has-text('我不吃香菜')")
        page.click("#tab-people")
        page.wait_for_selector("#members li.member >> nth=1")
        assert page.locator("#page-memory").is_hidden()
        assert page.locator("#members li.member").count() == 2
        ni = page.locator("#members li.member[data-id='ni']")
        wt = page.locator("#members li.member[data-id='wt']")
        assert ni.locator("button.show-person").inner_text() == "周霓"
        assert wt.locator("button.show-person").inner_text() == "许文涛"
        nickname = ni.locator(".alias[data-alias='霓霓']")
        assert nickname.locator(".badge").inner_text() == "learned"
        assert ni.locator(".alias[data-alias='周霓'] .badge").inner_text() == "name"
        seen = ni.locator(".member-seen").inner_text()
        assert "2 messages here" in seen and "first seen" in seen and "last seen" in seen, seen
        # the first member is shown: their profile in this group, and their agenda
        page.wait_for_selector("#person-panel:not([hidden])")
        assert page.locator("#person-name").inner_text() == "周霓"
        page.wait_for_selector("#person-facts li.fact")
        facts = page.locator("#person-facts").inner_text()
        assert "周霓对花生过敏" in facts and "腾讯" not in facts and "allergy:" not in facts, facts
        assert "考研" in page.locator("#person-agenda").inner_text()
        shot(page, "web-06-people.png")

        # add an alias, then remove it: dismissing the confirm keeps it
        ni.locator("input.alias-new").fill("Neko")
        ni.locator("form.alias-add button").click()
        chip = ni.locator(".alias[data-alias='Neko']")
        chip.wait_for()
        assert chip.locator(".badge").inner_text() == "registered"
        assert "Neko" in aliases()
        page.once("dialog", lambda d: d.dismiss())
        chip.locator("button.remove-alias").click()
        page.wait_for_timeout(300)
        assert chip.count() == 1 and "Neko" in aliases()
        messages: list[str] = []

        def accept(d: Any) -> None:
            messages.append(d.message)
            d.accept()

        page.once("dialog", accept)
        chip.locator("button.remove-alias").click()
        chip.wait_for(state="detached")
        assert "Neko" not in aliases() and "Neko" in messages[0]

        # the profile: in this group, or everywhere (the work group's fact comes in)
        page.check("#profile-all")
        page.wait_for_selector("#person-facts:has-text('周霓在腾讯工作')")
        facts = page.locator("#person-facts").inner_text()
        assert "周霓对花生过敏" in facts and "learned in g:work" in facts, facts
        shot(page, "web-07-people-everywhere.png")
        page.check("#profile-here")
        page.wait_for_selector("#person-facts:not(:has-text('腾讯'))")

        # another member: theirs, not hers
        wt.locator("button.show-person").click()
        page.wait_for_selector("#person-facts:has-text('许文涛不吃香菜')")
        assert page.locator("#person-name").inner_text() == "许文涛"
        assert "No dated plans" in page.locator("#person-agenda").inner_text()

        # back on the memory page, the context for a question asked by a member
        page.click("#tab-memory")
        page.select_option("#asker", "wt")
        page.fill("#query", "你认识霓霓吗？")
        page.click("#search-form button")
        page.wait_for_selector("#context-items li.tier-people")
        people = page.locator("#context-items li.tier-people").all_inner_texts()
        assert any("许文涛" in t for t in people) and any("周霓对花生过敏" in t for t in people), people
        shot(page, "web-08-context-people.png")
