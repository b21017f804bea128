"""Issue 18 §11: the inspector's security headers over HTTP, and a page that needs no inline
script or style (so its policy can forbid both)."""

from __future__ import annotations

from html.parser import HTMLParser

import httpx
import pytest

from pmemo.web import STATIC


def policy(r: httpx.Response) -> dict[str, str]:
    directives = [d.strip().split(None, 1) for d in r.headers["content-security-policy"].split(";")]
    return {d[0]: d[1] if len(d) > 1 else "" for d in directives if d}


@pytest.mark.parametrize(
    "path", ["/", "/static/index.html", "/static/app.js", "/static/core.js", "/static/style.css"]
)
async def test_inspector_pages_carry_the_policy(anon: httpx.AsyncClient, path: str) -> None:
    r = await anon.get(path)
    assert r.status_code == 200, r.text
    csp = policy(r)
    assert csp["default-src"] == "'none'"
    assert csp["script-src"] == "'self'" and csp["style-src"] == "'self'"
    assert csp["connect-src"] == "'self'" and csp["frame-ancestors"] == "'none'"
    assert "unsafe" not in r.headers["content-security-policy"]
    assert r.headers["x-frame-options"] == "DENY"
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "no-referrer"


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/v1/stats"),
        ("GET", "/healthz"),
        ("GET", "/openapi.json"),
        ("GET", "/docs"),
        ("GET", "/nowhere"),
        ("GET", "/mcp"),
        ("DELETE", "/v1/turns/1"),
    ],
)
async def test_every_response_is_not_sniffed_and_sends_no_referrer(
    client: httpx.AsyncClient, anon: httpx.AsyncClient, method: str, path: str
) -> None:
    for c in (client, anon):  # answered, refused (401) and not found alike
        r = await c.request(method, path)
        assert r.headers["x-content-type-options"] == "nosniff", (path, r.status_code)
        assert r.headers["referrer-policy"] == "no-referrer", (path, r.status_code)


class Inline(HTMLParser):
    """Collects what a script-src/style-src 'self' policy would block in a page."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        if tag == "script" and not names.get("src"):
            self.found.append("inline <script>")
        if tag == "style":
            self.found.append("<style>")
        self.found += [f"{tag} {name}=" for name in names if name.startswith("on") or name == "style"]
        if any((value or "").strip().lower().startswith("javascript:") for value in names.values()):
            self.found.append(f"{tag} javascript: URL")


def test_the_page_has_no_inline_script_or_style() -> None:
    parser = Inline()
    parser.feed((STATIC / "index.html").read_text("utf-8"))
    assert parser.found == []
    # and the scripts never make markup from strings (they build nodes, insert text)
    scripts = sorted(STATIC.glob("*.js"))
    assert {"app.js", "core.js"} <= {s.name for s in scripts}
    for path in scripts:
        script = path.read_text("utf-8")
        for risky in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function",
                      ".style", "setAttribute(\"style"):
            assert risky not in script, (path.name, risky)
        assert "localStorage.setItem" not in script, path.name  # the key lives in sessionStorage
