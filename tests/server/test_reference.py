"""docs/REST.md is the reference written from the OpenAPI document, and kept current."""

from __future__ import annotations

from pathlib import Path

from pmemo.server.reference import markdown

DOC = Path(__file__).parents[2] / "docs" / "REST.md"


def test_rest_reference_is_current(app) -> None:  # noqa: ANN001 - the app fixture
    spec = app.openapi()
    assert DOC.read_text(encoding="utf-8") == markdown(spec), (
        "docs/REST.md is stale: run .venv/bin/python -m pmemo.server.reference > docs/REST.md"
    )
    for path, item in spec["paths"].items():
        for method in item:
            assert f"### `{method.upper()} {path}`" in DOC.read_text(encoding="utf-8")
