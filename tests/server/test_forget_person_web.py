"""Forgetting a person in the inspector (issue 44 §7), in headless Chromium against a live
server: the person panel's buttons forget them in this group or everywhere after a confirmation
(dismissing it changes nothing), the outcome box's Undo restores the batch, and the forget log
says what went."""

from __future__ import annotations

from typing import Any

import httpx

from .live import LiveServer
from .test_web import browser, live, page, pytestmark, shot, violations, wait_for  # noqa: F401  (fixtures)


def test_forget_a_person_with_confirmation_and_undo(page: Any, live: LiveServer) -> None:  # noqa: F811
    with httpx.Client(base_url=live.url, headers={"Authorization": f"Bearer {live.admin_key}"}) as adm:
        key = adm.post("/v1/admin/keys", json={"tenant": "forget-person"}).json()["key"]
    c = httpx.Client(base_url=live.url, headers={"Authorization": f"Bearer {key}"})
    for group, who, name, text in [("study", "ni", "周霓", "大家好，叫我霓霓就行。我家猫叫年糕"),
                                   ("study", "wt", "许文涛", "周霓对花生过敏"),
                                   ("work", "ni", "周霓", "我在腾讯工作")]:
        turn = {"group_id": group, "session_id": "s", "content": text, "actor": name, "actor_id": who}
        assert c.post("/v1/turns", json=turn, params={"wait": "true"}).status_code == 201

    def members(group: str = "study") -> list[str]:
        return [m["person"]["id"] for m in c.get("/v1/people", params={"group_id": group}).json()["members"]]

    wait_for(lambda: c.get("/v1/people/ni/profile", params={"group_id": "study"}).json().get("facts"))
    before = c.get("/v1/people/ni").json()

    page.goto(f"{live.url}/#key={key}")
    page.wait_for_selector("#short-turns li.turn")
    page.select_option("#owner", "g:study")
    page.click("#tab-people")
    ni = page.locator("#members li.member[data-id='ni']")
    ni.locator("button.show-person").click()
    page.wait_for_selector("#person-panel:not([hidden]) #person-facts li.fact")
    assert page.locator("#forget-person-here").inner_text() == "Forget in this group…"

    # dismissing the confirmation changes nothing
    page.once("dialog", lambda d: d.dismiss())
    page.click("#forget-person-here")
    page.wait_for_timeout(300)
    assert ni.count() == 1 and "ni" in members()

    # in this group: gone from its members, known elsewhere; the confirmation said what would go
    asked: list[str] = []

    def accept(d: Any) -> None:
        asked.append(d.message)
        d.accept()

    page.once("dialog", accept)
    page.click("#forget-person-here")
    page.wait_for_selector("#removed:not([hidden]) h3:has-text('Forgot 周霓 in group study')")
    ni.wait_for(state="detached")
    assert "Forget 周霓 in group study?" in asked[0] and "1 message they wrote" in asked[0], asked
    assert "they stay known elsewhere" in asked[0] and "霓霓" in asked[0]
    assert "ni" not in members() and "ni" in members("work") and c.get("/v1/people/ni").status_code == 200
    assert "no longer a member of g:study" in page.locator("#removed").inner_text()
    shot(page, "25-person-forgotten-here.png")
    page.click("#removed button.undo")
    page.wait_for_selector("#removed h3.restored")
    ni.wait_for()
    assert "ni" in members() and c.get("/v1/people/ni").json() == before

    # everywhere: the person itself goes; Undo brings them back as they were
    ni.locator("button.show-person").click()
    page.wait_for_selector("#person-panel:not([hidden]) #person-name:has-text('周霓')")
    asked.clear()
    page.once("dialog", accept)
    page.click("#forget-person-all")
    page.wait_for_selector("#removed:not([hidden]) h3:has-text('Forgot 周霓 everywhere')")
    ni.wait_for(state="detached")
    assert "and the person record itself" in asked[0], asked
    assert c.get("/v1/people/ni").status_code == 404
    assert "the person record is gone" in page.locator("#removed").inner_text()
    shot(page, "26-person-forgotten-everywhere.png")
    page.click("#removed button.undo")
    page.wait_for_selector("#removed h3.restored")
    ni.wait_for()
    assert c.get("/v1/people/ni").json() == before and "ni" in members("work")

    # the forget log lists both batches, restored, with what went
    page.click("#tab-forget")
    page.wait_for_selector("#batches li.batch")
    log = page.locator("#batches").inner_text()
    assert "a person's" in log and "and their record deleted" in log, log
    c.close()
