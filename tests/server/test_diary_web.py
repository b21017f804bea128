"""The inspector's Diary page in headless Chromium, against a live loopback server: the days of a
group newest first, an entry shown whole, a day looked up by date, a day written on demand;
under the page's Content-Security-Policy (the fixtures of test_web fail on any violation)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest

from pmemo import Settings

from .live import LiveServer
from .test_web import browser, open_inspector, page, pytestmark, shot, violations  # noqa: F401

GROUP = {"group_id": "study", "session_id": "s"}
NI, BO = {"actor_id": "ni", "actor": "周霓"}, {"actor_id": "bo", "actor": "Bo"}
SEED = [
    {**GROUP, **NI, "content": "下周三考高数，最近压力好大", "timestamp": "2024-12-20T12:00:00Z"},
    {**GROUP, **BO, "content": "霓霓加油！多做真题", "timestamp": "2024-12-20T12:05:00Z"},
    {**GROUP, **BO, "content": "明天一起去爬山吗", "timestamp": "2024-12-21T12:00:00Z"},
    {**GROUP, **NI, "content": "今天考完了，去吃火锅"},  # today: no entry yet
]


def noon_zone() -> tuple[str, date]:
    """A time zone where it is about noon now, and its date: today's entry is not due there for
    hours (a test at 23:58 UTC would otherwise find it written), and the seed's past days, at
    noon UTC, stay the same days there."""
    now = datetime.now(UTC)
    offset = max(-11, min(11, 12 - now.hour))
    return f"Etc/GMT{-offset:+d}", (now + timedelta(hours=offset)).date()


ZONE, TODAY = noon_zone()


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    settings = Settings(diary_tz=ZONE, rate_limit="off")
    server = LiveServer(tmp_path_factory.mktemp("diary-web"), seed=SEED, settings=settings).start()
    yield server
    server.stop()


def test_the_diary_page_browses_looks_up_and_writes_days(page: Any, live: LiveServer) -> None:  # noqa: F811
    open_inspector(page, live, "g:study")
    page.click("#tab-diary")
    page.wait_for_selector("#diary-days li[data-day]")
    days = page.locator("#diary-days li").evaluate_all("els => els.map(e => e.dataset.day)")
    assert days == ["2024-12-21", "2024-12-20"]  # newest first; today is not over, so not yet
    # the newest is shown, whole, with how it was written
    assert "December 21, 2024" in page.locator("#diary-title").inner_text()
    assert "明天一起去爬山吗" in page.locator("#diary-text").inner_text()
    assert "digest of what was said" in page.locator("#diary-meta").inner_text()
    assert "from 1 message" in page.locator("#diary-meta").inner_text()
    page.click("#diary-days li[data-day='2024-12-20'] button")
    page.wait_for_selector("#diary-text:has-text('下周三考高数，最近压力好大')")
    assert page.locator("#diary-days li.selected").get_attribute("data-day") == "2024-12-20"
    assert page.locator("#diary-day").input_value() == "2024-12-20"
    assert "2 条消息，2 人发言" in page.locator("#diary-text").inner_text()
    shot(page, "20-diary.png")
    # a day without an entry, looked up by date
    page.fill("#diary-day", "2024-12-22")
    page.click("#diary-form button[type=submit]")
    page.wait_for_selector("#diary-none:has-text('No entry for')")
    assert page.locator("#diary-entry").is_hidden()
    # today's, written now
    page.fill("#diary-day", "")
    page.click("#diary-write")
    page.wait_for_selector(f"#diary-days li[data-day='{TODAY.isoformat()}'].selected")
    assert "今天考完了，去吃火锅" in page.locator("#diary-text").inner_text()
    assert page.locator("#status").inner_text().startswith("Diary entry of ")
    assert page.locator("#diary-days li").count() == 3
    shot(page, "21-diary-written.png")
