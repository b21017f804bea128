"""The inspector end to end in headless Chromium (Debian's), against a live loopback server.

Every page and action of the inspector, with a screenshot of each step in
test-artifacts/inspector/ (kept by CI as test artefacts; the path is printed at the end of
the run). Needs `apt-get install -y chromium` (and fonts-noto-cjk for readable Chinese in
the screenshots).
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
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "inspector"

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


@pytest.fixture(scope="module", autouse=True)
def say_where_the_screenshots_are(request: pytest.FixtureRequest) -> Iterator[None]:
    yield
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None and ARTIFACTS.exists():
        reporter.write_line(f"inspector screenshots: {ARTIFACTS}")


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
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, timezone_id="UTC")
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
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=True)


def api(live: LiveServer) -> httpx.Client:
    return httpx.Client(base_url=live.url, headers={"Authorization": f"Bearer {live.key}"})


def open_inspector(page: Any, live: LiveServer, owner: str = "u:demo") -> None:
    """The page with the test key, showing ``owner`` (the first owner is shown at first: the
    tests add owners that sort before u:demo)."""
    page.goto(f"{live.url}/#key={live.key}")
    page.wait_for_selector("#short-turns li.turn")
    if page.locator("#owner").input_value() != owner:
        page.select_option("#owner", owner)
        page.wait_for_selector(f"#status:has-text('{'group' if owner.startswith('g:') else 'user'} {owner[2:]},')")


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


def test_inspector_loads_with_the_key_from_the_url(page: Any, live: LiveServer) -> None:
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
    assert page.locator("#short-turns li.turn").count() == 20
    assert "Tenant t1" in page.locator("#stats").inner_text()
    assert page.locator("#status").inner_text() == "Showing user demo, all sessions."
    # the short-term column is the latest turns, each with its speaker
    with api(live) as c:
        turns = c.get("/v1/turns", params={"user_id": "demo", "limit": 1000}).json()["turns"]
    shown = [int(i) for i in page.locator("#short-turns li.turn").evaluate_all("els => els.map(e => e.dataset.id)")]
    assert shown == [t["id"] for t in turns[-20:]]
    assert page.locator("#short-turns li.turn .speaker").first.inner_text() in {"Louis", "assistant", "Tom", "Mei"}
    shot(page, "01-memory.png")


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
    shot(page, "00-key-prompt.png")


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


def test_search_lists_results_with_their_speakers(page: Any, live: LiveServer) -> None:
    open_inspector(page, live)
    page.fill("#query", "项目预算是多少？")
    page.fill("#limit", "5")
    page.click("#search-btn")
    page.wait_for_selector("#hits li.hit")
    assert page.locator("#context").is_hidden()
    hits = page.locator("#hits li.hit")
    assert hits.count() == 5
    assert "5 results" in page.locator("#hits-meta").inner_text()
    with api(live) as c:
        found = c.post("/v1/search", json={"user_id": "demo", "query": "项目预算是多少？", "limit": 5}).json()["hits"]
    assert [h.get_attribute("data-id") for h in hits.all()] == [h["id"] for h in found]
    first = hits.first
    assert first.locator(".badge").inner_text() and float(first.locator(".score").inner_text()) >= 0
    assert first.locator(".why").inner_text().startswith("—")
    assert "预算" in page.locator("#hits").inner_text()
    # a turn's speaker, time and place; a summary's speakers
    turn_hit = page.locator("#hits li.hit[data-id^='turn:']").first
    speakers = turn_hit.locator(".speakers").inner_text()
    assert speakers.split(" · ")[0] in {"Louis", "assistant", "Tom", "Mei"} and "session s" in speakers, speakers
    assert page.locator("#status").inner_text() == "Searched for “项目预算是多少？”."
    shot(page, "02-search.png")

    # the packed context instead: each item with its tier, score, why and who said it
    page.click("#context-btn")
    page.wait_for_selector("#context-items li.item")
    assert page.locator("#search-results").is_hidden()
    assert "10万" in page.locator("#context-items").inner_text()
    said = page.locator("#context-items li.item .speakers").all_inner_texts()
    assert any("Louis" in s for s in said), said
    assert "tokens" in page.locator("#context-meta").inner_text()
    shot(page, "03-context.png")


def test_key_memory_is_added_edited_and_deleted_after_a_confirm(page: Any, live: LiveServer) -> None:
    open_inspector(page, live)
    page.fill("#key-new", "Louis prefers short answers.")
    page.click("#key-add button")
    line = page.locator("#key-lines li:has-text('Louis prefers short answers.')")
    line.wait_for()
    assert "set by hand" in line.inner_text()
    line.locator("button.edit").click()
    page.fill("#key-lines input.key-edit", "Louis prefers answers in Chinese.")
    page.click("#key-lines form button[type=submit]")
    line = page.locator("#key-lines li:has-text('Louis prefers answers in Chinese.')")
    line.wait_for()
    with api(live) as c:
        lines = c.get("/v1/key", params={"user_id": "demo"}).json()["lines"]
    assert "Louis prefers answers in Chinese." in [k["text"] for k in lines]
    shot(page, "04-key-memory.png")
    page.once("dialog", lambda d: d.dismiss())
    line.locator("button.delete-key").click()
    page.wait_for_timeout(300)
    assert line.count() == 1
    page.once("dialog", lambda d: d.accept())
    line.locator("button.delete-key").click()
    line.wait_for(state="detached")
    with api(live) as c:
        assert "Louis prefers answers in Chinese." not in [
            k["text"] for k in c.get("/v1/key", params={"user_id": "demo"}).json()["lines"]]


def test_forget_a_turn_then_undo(page: Any, live: LiveServer) -> None:
    open_inspector(page, live)
    page.click("#tab-timeline")
    page.wait_for_selector("#timeline li.turn")
    # the first turn of the conversation: a summary and a topic were derived from it
    victim = page.locator("#timeline li.turn").first
    turn_id = int(victim.get_attribute("data-id"))
    victim.locator("button.forget-turn").click()
    page.wait_for_selector("#removed:not([hidden]) button.undo")
    report = page.locator("#removed").inner_text()
    assert "Forgot turn #1" in report and f"turn {turn_id} removed" in report, report
    assert "summaries" in report or "clusters" in report, report
    page.wait_for_selector(f"#timeline li.turn:not([data-id='{turn_id}'])")
    assert page.locator(f"#timeline li[data-id='{turn_id}']").count() == 0
    with api(live) as c:
        assert c.get(f"/v1/turns/{turn_id}").status_code == 404
    assert "Undo" in page.locator("#status").inner_text()
    shot(page, "05-forget-turn.png")

    page.click("#removed button.undo")
    page.wait_for_selector("#removed h3.restored")
    page.wait_for_selector(f"#timeline li.turn[data-id='{turn_id}']")
    with api(live) as c:
        assert c.get(f"/v1/turns/{turn_id}").status_code == 200
    assert page.locator("#status").inner_text().startswith("Restored batch")
    shot(page, "06-undo.png")

    # the forget log has the batch, restored
    page.click("#tab-forget")
    batch = page.locator("#batches li.batch").first
    batch.wait_for()
    text = batch.inner_text()
    assert "restored" in text and f"turn {turn_id} (session s1, #1) forgotten" in text, text
    assert batch.locator("button.restore").count() == 0


def test_erase_a_turn_asks_first(page: Any, live: LiveServer) -> None:
    open_inspector(page, live)
    victim = page.locator("#short-turns li.turn").last
    turn_id = int(victim.get_attribute("data-id"))
    asked: list[str] = []

    def dismiss(d: Any) -> None:
        asked.append(d.message)
        d.dismiss()

    page.once("dialog", dismiss)
    victim.locator("button.erase-turn").click()
    page.wait_for_timeout(300)
    assert "cannot be restored" in asked[0] and "for good" in asked[0]
    with api(live) as c:
        assert c.get(f"/v1/turns/{turn_id}").status_code == 200
    page.once("dialog", lambda d: d.accept())
    victim.locator("button.erase-turn").click()
    page.wait_for_selector("#removed:not([hidden]) h3:has-text('Erased')")
    assert page.locator("#removed button.undo").count() == 0
    assert "cannot be undone" in page.locator("#removed").inner_text()
    page.wait_for_selector(f"#short-turns li.turn[data-id='{turn_id}']", state="detached")
    with api(live) as c:
        assert c.get(f"/v1/turns/{turn_id}").status_code == 404
        assert c.post("/v1/restore", json={"turn_ids": [turn_id]}).status_code == 404
    shot(page, "07-erase-turn.png")


def test_forget_log_restores_and_erases_batches(page: Any, live: LiveServer) -> None:
    with api(live) as c:
        turns = c.get("/v1/turns", params={"user_id": "demo", "session_id": "s2"}).json()["turns"]
        a = c.post("/v1/forget", json={"turn_ids": [turns[2]["id"]], "reason": "test a"}).json()["batch"]
        b = c.post("/v1/forget", json={"turn_ids": [turns[3]["id"]], "reason": "test b"}).json()["batch"]
    open_inspector(page, live)
    page.click("#tab-forget")
    first = page.locator(f"#batches li.batch[data-batch='{b}']")
    second = page.locator(f"#batches li.batch[data-batch='{a}']")
    first.wait_for()
    text = first.inner_text()
    assert "can be restored" in text and "“test b”" in text and "u:demo" in text, text
    shot(page, "08-forget-log.png")

    second.locator("button.restore").click()
    page.wait_for_selector(f"#batches li.batch[data-batch='{a}'] .badge.restored")
    with api(live) as c:
        assert c.get(f"/v1/turns/{turns[2]['id']}").status_code == 200

    page.once("dialog", lambda d: d.dismiss())
    first.locator("button.purge").click()
    page.wait_for_timeout(300)
    assert "can be restored" in first.inner_text()
    messages: list[str] = []

    def accept(d: Any) -> None:
        messages.append(d.message)
        d.accept()

    page.once("dialog", accept)
    first.locator("button.purge").click()
    page.wait_for_selector(f"#batches li.batch[data-batch='{b}'] .badge.purged")
    assert "never be restored" in messages[0]
    assert first.locator("button.restore").count() == 0
    with api(live) as c:
        assert c.post("/v1/restore", json={"batch": b}).status_code == 409
    shot(page, "09-forget-log-after.png")


def test_timeline_filters_by_speaker_session_date_and_text_with_pages(page: Any, live: LiveServer) -> None:
    with api(live) as c:
        def ids(**params: Any) -> list[int]:
            found = c.get("/v1/turns", params={"user_id": "demo", "limit": 1000, **params}).json()["turns"]
            return [t["id"] for t in found]

        louis, s2, everyone = ids(actor="Louis"), ids(session_id="s2"), ids()
        day = ids(since="2024-03-13T00:00:00Z", until="2024-03-13T23:59:59.999Z")
        budget = ids(text="预算")

    def shown() -> list[int]:
        return [int(i) for i in page.locator("#timeline li.turn").evaluate_all("els => els.map(e => e.dataset.id)")]

    def settle() -> None:  # an action's requests start at once: wait until they are all answered
        page.wait_for_selector("body[aria-busy='false']", state="attached")

    open_inspector(page, live)
    page.click("#tab-timeline")
    page.wait_for_selector("#timeline li.turn")
    assert shown() == everyone[:50] and page.locator("#tl-range").inner_text() == "turns 1–50"
    assert page.locator("#tl-prev").is_disabled() and page.locator("#tl-next").is_enabled()

    # speaker: the display names seen (this private chat's speakers have no person ids)
    options = page.locator("#tl-speaker option").all_inner_texts()
    assert {"everyone", "Louis", "assistant", "Tom", "Mei"} <= set(options), options
    page.select_option("#tl-speaker", "name:Louis")
    settle()
    assert shown() == louis[:48] and len(louis) <= 50
    assert set(page.locator("#timeline li.turn .speaker").all_inner_texts()) == {"Louis"}

    # pages of 25 of Louis's turns
    page.select_option("#tl-size", "25")
    settle()
    assert shown() == louis[:25]
    page.click("#tl-next")
    settle()
    assert shown() == louis[25:50] and page.locator("#tl-range").inner_text().startswith("turns 26–")
    shot(page, "10-timeline-speaker-page-2.png")
    page.click("#tl-prev")
    settle()
    assert shown() == louis[:25]

    # a session (the header's select follows, and the status line says so), a day, a text
    page.click("#tl-clear")
    settle()
    page.select_option("#tl-session", "s2")
    settle()
    assert shown() == s2[:25] and page.locator("#session").input_value() == "s2"
    assert page.locator("#status").inner_text() == "Showing user demo, session s2."
    page.select_option("#tl-session", "")
    settle()
    page.fill("#tl-since", "2024-03-13")
    page.fill("#tl-until", "2024-03-13")
    settle()
    page.select_option("#tl-size", "100")
    settle()
    assert shown() == day and day
    assert page.locator("#timeline li.day").all_inner_texts() == ["Wednesday, March 13, 2024"]
    shot(page, "11-timeline-day.png")
    page.click("#tl-clear")
    page.fill("#tl-text", "预算")
    page.click("#tl-form button[type=submit]")
    settle()
    assert shown() == budget[:100] and budget
    assert all("预算" in t for t in page.locator("#timeline li.turn").all_inner_texts())


def test_status_line_follows_the_owner(page: Any, live: LiveServer) -> None:
    with api(live) as c:
        r = c.post("/v1/turns", json={"group_id": "team", "session_id": "t1", "content": "周五开会", "actor": "Ann",
                                      "actor_id": "ann"})
        assert r.status_code == 201
    open_inspector(page, live)
    assert page.locator("#status").inner_text() == "Showing user demo, all sessions."
    page.select_option("#owner", "g:team")
    page.wait_for_selector("#short-turns li.turn:has-text('周五开会')")
    page.wait_for_selector("#status:has-text('Showing group team, all sessions.')")
    assert page.locator("#short-turns .speaker").all_inner_texts() == ["Ann"]
    page.select_option("#session", "t1")
    page.wait_for_selector("#status:has-text('Showing group team, session t1.')")
    page.select_option("#owner", "u:demo")
    page.wait_for_selector("#status:has-text('Showing user demo, all sessions.')")
    assert page.locator("#session").input_value() == ""
    shot(page, "12-owner-switched.png")


def test_clusters_and_episodes_in_words(page: Any, live: LiveServer) -> None:
    open_inspector(page, live)
    page.wait_for_selector("#clusters li.cluster")
    topics = page.locator("#clusters").inner_text()
    assert "turns on this topic" in topics or "turn on this topic" in topics, topics
    assert "hits" not in topics and "not recalled by a search yet" in topics or "recalled about" in topics
    episodes = page.locator("#episodes").inner_text()
    assert "A conversation (session s" in episodes and "minutes" in episodes, episodes
    assert "importance" not in episodes and "brought into a context" in episodes
    summaries = page.locator("#summaries").inner_text()
    assert "of session s1" in summaries and "extractive" not in summaries
    shot(page, "13-tiers-in-words.png")


def _card_facts(live: LiveServer, user: str, texts: list[str], wanted: int) -> list[dict[str, Any]]:
    with api(live) as c:
        for i, text in enumerate(texts):
            turn = {"user_id": user, "session_id": "s1", "content": text, "actor": "Ming",
                    "timestamp": f"2024-03-0{i + 1}T10:00:00+08:00"}
            assert c.post("/v1/turns", json=turn).status_code == 201
        return wait_for(lambda: (f := c.get("/v1/profile", params={"user_id": user}).json()["facts"])
                        and len(f) >= wanted and f)


def test_profile_card_reads_as_sentences(page: Any, live: LiveServer) -> None:
    facts = _card_facts(live, "ming", ["我不吃辣", "我在腾讯工作", "3月8日我要去体检"], 3)
    open_inspector(page, live)
    page.select_option("#owner", "u:ming")
    page.wait_for_selector("#facts li.fact >> nth=2")
    card = page.locator("#facts").inner_text()
    for f in facts:
        assert f["sentence"] in card
        assert f["key"] not in card, (f["key"], card)  # no raw keys (event:…, diet:…)
    assert "ming在腾讯工作" in card and "不吃辣" in card and "体检" in card, card
    assert "explicit" not in card and "confidence" not in card, card
    assert "learned from what was said in turn" in card and "sure (" in card, card
    shot(page, "14-profile-card.png")


def test_a_fact_is_edited_and_deleted_with_undo(page: Any, live: LiveServer) -> None:
    facts = _card_facts(live, "fang", ["我在腾讯工作"], 1)
    fid = facts[0]["id"]
    open_inspector(page, live)
    page.select_option("#owner", "u:fang")
    fact = page.locator(f"#facts li.fact[data-id='{fid}']")
    fact.wait_for()

    # edit: the sentence changes, the source says so, the old value is history
    fact.locator("button.edit-fact").click()
    page.fill("#facts input.fact-edit", "字节跳动")
    page.click("#facts form.fact-form button[type=submit]")
    page.wait_for_selector(f"#facts li.fact[data-id='{fid}']:has-text('fang在字节跳动工作')")
    assert "corrected by hand" in fact.inner_text()
    assert "Fact corrected" in page.locator("#status").inner_text()
    with api(live) as c:
        assert c.get(f"/v1/facts/{fid}").json()["value"] == "字节跳动"
    page.check("#profile-history")
    page.wait_for_selector("#facts li.fact-old:has-text('fang在腾讯工作')")
    assert "replaced on" in page.locator("#facts li.fact-old").inner_text()
    assert page.locator("#facts li.fact-old button.edit-fact").count() == 0  # history is not edited
    shot(page, "15-fact-edited.png")
    page.uncheck("#profile-history")
    page.wait_for_selector("#facts li.fact-old", state="detached")

    # someone else changes it meanwhile: the save is refused and the page shows theirs
    fact.locator("button.edit-fact").click()
    with api(live) as c:
        assert c.put(f"/v1/facts/{fid}", json={"value": "阿里"}).status_code == 200
    page.fill("#facts input.fact-edit", "美团")
    page.click("#facts form.fact-form button[type=submit]")
    page.wait_for_selector("#status.error:has-text('changed this fact')")
    page.wait_for_selector(f"#facts li.fact[data-id='{fid}']:has-text('fang在阿里工作')")
    with api(live) as c:
        assert c.get(f"/v1/facts/{fid}").json()["value"] == "阿里"

    # delete, then undo
    fact.locator("button.delete-fact").click()
    page.wait_for_selector("#removed:not([hidden]) button.undo")
    assert "Deleted the fact: fang在阿里工作" in page.locator("#removed").inner_text()
    fact.wait_for(state="detached")
    with api(live) as c:
        assert c.get(f"/v1/facts/{fid}").status_code == 404
    shot(page, "16-fact-deleted.png")
    page.click("#removed button.undo")
    fact.wait_for()
    with api(live) as c:
        assert c.get(f"/v1/facts/{fid}").json()["value"] == "阿里"


def test_inspector_profile_and_episodes(page: Any, live: LiveServer) -> None:
    with api(live) as c:
        r = c.post("/v1/turns", json={"user_id": "demo", "session_id": "s9", "content": "我不吃辣"})
        assert r.status_code == 201, r.text
    open_inspector(page, live)
    # facts are extracted in the background: reload until the column shows one
    for _ in range(50):
        if "辣" in page.locator("#facts").inner_text():
            break
        page.wait_for_timeout(200)
        page.click("#reload")
    facts = page.locator("#facts").inner_text()
    assert "辣" in facts and "sure" in facts, facts
    assert page.locator("#episodes li").count() >= 1
    page.check("#profile-history")
    page.wait_for_selector("#facts li.fact")
    shot(page, "17-profile.png")


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
        shot(page, "18-people.png")

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
        shot(page, "19-people-everywhere.png")
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
        page.click("#context-btn")
        page.wait_for_selector("#context-items li.tier-people")
        people = page.locator("#context-items li.tier-people").all_inner_texts()
        assert any("许文涛" in t for t in people) and any("周霓对花生过敏" in t for t in people), people
        shot(page, "20-context-people.png")
