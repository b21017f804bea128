"""API docs at /docs, served without a CDN.

Swagger UI's assets come from the ``fastapi-offline`` wheel when it is installed (it
vendors Swagger UI 5, which renders OpenAPI 3.1); otherwise /docs is a small local
page that lists the routes from /openapi.json. Either way nothing is fetched from
outside this server.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

ASSETS = "/docs-assets"

_MINIMAL = """<!doctype html><html><head><meta charset="utf-8"><title>pmemo API</title>
<style>body{font:14px system-ui,sans-serif;max-width:960px;margin:2em auto;
padding:0 1em}
code{background:#f3f3f3;padding:0 .3em}.m{display:inline-block;width:5em;font-weight:bold}
pre{background:#f7f7f7;padding:.6em;overflow:auto}</style></head><body>
<h1>pmemo API</h1><p>Machine-readable spec: <a href="/openapi.json">/openapi.json</a>.
Every /v1 route needs <code>Authorization: Bearer &lt;key&gt;</code>.</p><div id="r"></div>
<script>
fetch('/openapi.json').then(r=>r.json()).then(s=>{const root=document.getElementById('r');
for(const [p,ops] of Object.entries(s.paths)){for(const [m,op] of Object.entries(ops)){
const d=document.createElement('div');const h=document.createElement('h3');
h.innerHTML='<span class="m"></span><code></code>';
h.querySelector('.m').textContent=m.toUpperCase();
h.querySelector('code').textContent=p;d.appendChild(h);const t=document.createElement('pre');
t.textContent=(op.summary||'')+'\\n'+(op.description||'');d.appendChild(t);
root.appendChild(d);}}});
</script></body></html>"""


def _assets_dir() -> Path | None:
    try:
        import fastapi_offline
    except ImportError:
        return None
    path = Path(fastapi_offline.__file__).parent / "static"
    return path if (path / "swagger-ui-bundle.js").is_file() else None


def install(app: FastAPI) -> str:
    """Add /docs to ``app``; returns which page it serves: "swagger-ui" or "minimal"."""
    assets = _assets_dir()
    if assets is None:

        @app.get("/docs", include_in_schema=False)
        async def minimal_docs() -> HTMLResponse:
            return HTMLResponse(_MINIMAL)

        return "minimal"

    app.mount(ASSETS, StaticFiles(directory=assets), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    async def swagger_docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url="/openapi.json",
            title="pmemo API",
            swagger_js_url=f"{ASSETS}/swagger-ui-bundle.js",
            swagger_css_url=f"{ASSETS}/swagger-ui.css",
            swagger_favicon_url=f"{ASSETS}/favicon.png",
            swagger_ui_parameters={"persistAuthorization": True},
        )

    return "swagger-ui"
