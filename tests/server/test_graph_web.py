"""The inspector's entities page (issue 20) in headless Chromium against a live server: a
person's triples over time (a replaced employer marked, with when it ended), links to the
entities they connect, and an entity nobody here knows. Screenshots go where test_web's do."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

import httpx

from .live import LiveServer
from .test_web import browser, live, page, pytestmark, shot, violations, wait_for  # noqa: F401  (fixtures)

T0 = datetime(2026, 9, 1, 20, 0, tzinfo=timezone(timedelta(hours=8)))


def test_entity_page(page: Any, live: LiveServer) -> None:  # noqa: F811
    with httpx.Client(base_url=live.url, headers={"Authorization": f"Bearer {live.admin_key}"}) as adm:
        key = adm.post("/v1/admin/keys", json={"tenant": "graph-page"}).json()["key"]
    with httpx.Client(base_url=live.url, headers={"Authorization": f"Bearer {key}"}) as c:
        for days, who, name, text in [(0, "ni", "周霓", "大家好，叫我霓霓就行。我在腾讯上班，我家猫叫年糕"),
                                      (0, "wt", "许文涛", "霓霓是我同学"),
                                      (30, "ni", "周霓", "我从腾讯跳槽到字节了")]:
            turn = {"group_id": "study", "session_id": "s", "content": text, "actor": name, "actor_id": who,
                    "timestamp": (T0 + timedelta(days=days, minutes=len(text))).isoformat()}
            assert c.post("/v1/turns", json=turn).status_code == 201

        def learned() -> bool:
            r = c.get("/v1/triples", params={"group_id": "study", "subject": "ni", "predicate": "works_at",
                                             "history": True})
            return r.status_code == 200 and len(r.json()["triples"]) == 2

        wait_for(learned)

    page.goto(f"{live.url}/#key={key}")
    page.wait_for_selector("#short-turns li.turn")
    page.click("#tab-graph")
    page.wait_for_selector("#entity-people button.entity-link[data-key='ni']")
    assert page.locator("#page-memory").is_hidden() and page.locator("#entity-panel").is_hidden()
    page.click("#entity-people button.entity-link[data-key='ni']")
    page.wait_for_selector("#entity-panel:not([hidden])")
    assert page.locator("#entity-title").inner_text() == "周霓"
    assert "person" in page.locator("#entity-kind").inner_text()

    # over time: the old employer replaced (marked, with when it ended), the new one holding
    old = page.locator("#entity-triples li.triple.closed")
    assert old.count() == 1 and "周霓在腾讯工作" in old.inner_text()
    assert "→" in old.locator(".triple-when").inner_text() and old.locator(".badge").inner_text() == "replaced"
    now = page.locator("#entity-triples li.triple:not(.closed)[data-predicate='works_at']")
    assert "周霓在字节工作" in now.inner_text() and "since" in now.locator(".triple-when").inner_text()
    sentences = page.locator("#entity-triples .triple-sentence").all_inner_texts()
    assert sentences.index("周霓在腾讯工作") < sentences.index("周霓在字节工作")  # oldest first
    assert {"周霓的猫叫年糕", "周霓和许文涛是同学"} <= set(sentences)
    links = set(page.locator("#entity-links button.entity-link").all_inner_texts())
    assert {"许文涛", "年糕", "字节"} <= links and "腾讯" not in links  # neighbours now
    shot(page, "30-entity-person.png")

    # a neighbour's page, by its link: the company, and who works there now
    page.click("#entity-links button.entity-link[data-key='字节']")
    page.wait_for_selector("#entity-title:text-is('字节')")
    assert "org" in page.locator("#entity-kind").inner_text()
    assert page.locator("#entity-triples .triple-sentence").all_inner_texts() == ["周霓在字节工作"]
    shot(page, "31-entity-org.png")

    # by name, a nickname resolving to the person; and a name nobody here knows
    page.fill("#entity-name", "霓霓")
    page.click("#entity-form button")
    page.wait_for_selector("#entity-title:text-is('周霓')")
    page.fill("#entity-name", "没有这个")
    page.click("#entity-form button")
    page.wait_for_selector("#status.error:has-text('没有这个')")
    assert page.locator("#entity-panel").is_hidden()
