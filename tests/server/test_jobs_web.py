"""The inspector's Jobs page in headless Chromium, against a live loopback server whose embedding
service is down: the failed background jobs of the key's tenant newest first, each with what it
was for, its tries and its error; one retried by its button, then the rest by Retry all once the
service is back; under the page's Content-Security-Policy (the fixtures of test_web fail on any
violation)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from pmemo import Settings
from pmemo.embedders.hashing import HashingEmbedder

from .live import LiveServer
from .test_web import api, browser, page, pytestmark, shot, violations, wait_for  # noqa: F401


class Outage(HashingEmbedder):
    """An embedding service that is down until the test brings it back."""

    def __init__(self) -> None:
        super().__init__()
        self.down = True

    def embed_passages(self, texts: list[str]) -> Any:
        if self.down:
            raise ConnectionError("embedding service down")
        return super().embed_passages(texts)


OUTAGE = Outage()


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    seed = [{"user_id": "demo", "session_id": "s", "content": "the budget is 100k"}]
    server = LiveServer(tmp_path_factory.mktemp("jobs-web"), embedder=OUTAGE,  # type: ignore[arg-type]
                        # no diary: past its hour (23:55 UTC) the day's entry would be one more failed job
                        seed=seed, settings=Settings(rate_limit="off", diary_enabled=False)).start()
    yield server
    server.stop()


def test_the_jobs_page_lists_failed_jobs_and_retries_them(page: Any, live: LiveServer) -> None:  # noqa: F811
    with api(live) as c:
        later = c.post("/v1/turns", json={"group_id": "team", "session_id": "s", "content": "hello team"}).json()
        # its job fails three times, 1 s and 2 s apart, then waits in the list with the seed's
        wait_for(lambda: c.get("/v1/stats").json()["stats"]["failed_jobs"] == 2)
        jobs = c.get("/v1/jobs/failed").json()["jobs"]
    assert jobs[0]["payload"] == [later["id"]]  # newest first
    page.goto(f"{live.url}/#key={live.key}")
    page.click("#tab-jobs")
    page.wait_for_selector("#failed-jobs li.job")
    assert page.locator("#failed-jobs li.job").evaluate_all("els => els.map(e => +e.dataset.job)") == [
        j["id"] for j in jobs]
    newest = page.locator(f"#failed-jobs li[data-job='{jobs[0]['id']}']")
    text = newest.inner_text()
    assert "digest new turns" in text and f"turn {later['id']}" in text and "tried 3 times" in text, text
    assert newest.locator(".job-error").inner_text() == "ConnectionError: embedding service down"
    assert page.locator("#jobs-meta").inner_text() == "2 jobs failed every try"
    shot(page, "22-failed-jobs.png")

    OUTAGE.down = False  # the service is back
    newest.locator("button.retry").click()
    page.wait_for_selector(f"#failed-jobs li[data-job='{jobs[0]['id']}']", state="detached")
    assert page.locator("#status").inner_text() == "1 job queued again."
    assert page.locator("#failed-jobs li.job").count() == 1
    page.click("#jobs-retry-all")
    page.wait_for_selector("#failed-jobs li.empty:has-text('No failed jobs')")
    assert page.locator("#jobs-retry-all").is_hidden()
    with api(live) as c:
        wait_for(lambda: c.get("/v1/stats").json()["stats"]["pending_jobs"] == 0)
        assert c.get("/v1/stats").json()["stats"]["failed_jobs"] == 0
    shot(page, "23-failed-jobs-retried.png")
