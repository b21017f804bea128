"""The inspector's Blocks page in headless Chromium against a live server with a blocks folder:
every block of the key's tenant with its size, limit, whether the agent may edit it and its file,
a broken file's problem shown plainly, and an edit to a file shown after a reload. The page
keeps its Content-Security-Policy (no inline code), as every page does (``test_web.page``)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pmemo import Settings

from .conftest import sample_seed
from .live import LiveServer
from .test_web import browser, page, pytestmark, shot, violations  # noqa: F401 - fixtures and the Chromium mark

FILES = {
    "persona.md": "---\nlabel: persona\ndescription: Who the agent is\nlimit: 300\ntenant: t1\n---\nI am Momo.\n",
    "notes.md": "---\nlabel: notes\nread_only: false\ntenant: t1\nuser: demo\n---\nDemo likes tea.\n",
    "broken.md": "---\nlabel: rules\ntenant: t1\nlimit: 5\n---\nfar more than five characters\n",
}


@pytest.fixture(scope="module")
def blocks_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("blocks")
    for name, text in FILES.items():
        (root / name).write_text(text, "utf-8")
    return root


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory, blocks_dir: Path) -> Iterator[LiveServer]:
    settings = Settings.from_env(blocks_dir=str(blocks_dir), rate_limit="off")
    server = LiveServer(tmp_path_factory.mktemp("web-blocks"), seed=sample_seed(), settings=settings).start()
    yield server
    server.stop()


def test_blocks_page_lists_blocks_and_problems(page: Any, live: LiveServer, blocks_dir: Path) -> None:  # noqa: F811
    page.goto(f"{live.url}/#key={live.key}")
    page.wait_for_selector("#short-turns li.turn")
    page.click("#tab-blocks")
    page.wait_for_selector("#blocks li.block")
    assert page.locator("#page-blocks").is_visible() and page.locator("#page-memory").is_hidden()
    items = {li.get_attribute("data-label"): li for li in page.locator("#blocks li.block").all()}
    assert set(items) == {"notes", "persona", "rules"}
    persona = items["persona"].inner_text()
    assert "read-only" in persona and "10 / 300 chars" in persona and "file persona.md" in persona
    assert "Who the agent is" in persona and "I am Momo." in persona
    notes = items["notes"].inner_text()
    assert "editable" in notes and "for user demo" in notes
    broken = items["rules"]
    assert "broken" in (broken.get_attribute("class") or "")
    problem = broken.locator(".block-problem")
    assert problem.get_attribute("role") == "alert"
    assert "Not used: the body is 29 characters, over its limit of 5" in problem.inner_text()
    assert "1 with a problem" in page.locator("#blocks-meta").inner_text()
    shot(page, "20-blocks.png")
    # the file is fixed by hand: after the watcher reloads it, Reload shows it in use
    (blocks_dir / "broken.md").write_text("---\nlabel: rules\ntenant: t1\nlimit: 50\n---\nBe kind.\n", "utf-8")
    end = time.monotonic() + 30
    while "all in use" not in page.locator("#blocks-meta").inner_text():
        assert time.monotonic() < end, "the fixed file was not shown in use"
        page.click("#reload")
        page.wait_for_selector("body[aria-busy='false']")
        time.sleep(0.1)
    assert page.locator("#blocks li.block.broken").count() == 0
    shot(page, "21-blocks-fixed.png")
