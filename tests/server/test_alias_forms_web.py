"""The inspector's people page (issue 44 §6) in headless Chromium against a live server: the
forms pmemo generated from a name are shown apart from the names people were really called by."""

from __future__ import annotations

from typing import Any

import httpx

from .live import LiveServer
from .test_web import browser, live, page, pytestmark, shot, violations, wait_for  # noqa: F401  (fixtures)


def test_generated_forms_are_shown_apart(page: Any, live: LiveServer) -> None:  # noqa: F811
    with httpx.Client(base_url=live.url, headers={"Authorization": f"Bearer {live.admin_key}"}) as adm:
        key = adm.post("/v1/admin/keys", json={"tenant": "alias-forms"}).json()["key"]
    with httpx.Client(base_url=live.url, headers={"Authorization": f"Bearer {key}"}) as c:
        for who, name, text in [("ni", "周霓", "大家好，叫我霓霓就行"), ("wl", "王磊", "周霓好")]:
            turn = {"group_id": "study", "session_id": "s", "content": text, "actor": name, "actor_id": who}
            assert c.post("/v1/turns", json=turn).status_code == 201

        def learned() -> bool:
            r = c.get("/v1/people/ni")
            return r.status_code == 200 and {"霓霓", "周老师"} <= {a["alias"] for a in r.json()["aliases"]}

        wait_for(learned)
        sources = {a["alias"]: a["source"] for a in c.get("/v1/people/ni").json()["aliases"]}

    page.goto(f"{live.url}/#key={key}")
    page.wait_for_selector("#short-turns li.turn")
    page.select_option("#owner", "g:study")
    page.click("#tab-people")
    ni = page.locator("#members li.member[data-id='ni']")
    ni.wait_for()
    said = ni.locator(".aliases:not(.guessed) .alias").evaluate_all("els => els.map(e => e.dataset.alias)")
    guessed = ni.locator(".aliases.guessed .alias").evaluate_all("els => els.map(e => e.dataset.alias)")
    assert set(said) == {a for a, s in sources.items() if s != "generated"} == {"周霓", "霓霓"}
    assert set(guessed) == {a for a, s in sources.items() if s == "generated"} and "周老师" in guessed
    assert ni.locator(".aliases.guessed .guessed-label").inner_text() == "guessed from the name:"
    assert "only once someone here used it" in (ni.locator(".aliases.guessed").get_attribute("title") or "")
    assert ni.locator(".aliases.guessed .alias[data-alias='周老师'] .badge").inner_text() == "generated"
    shot(page, "24-people-guessed-forms.png")
