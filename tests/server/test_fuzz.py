"""Schemathesis fuzzing of the OpenAPI spec against a live loopback server: no 5xx, ever.

Bounded: a few examples per operation, no shrinking deadline, well under two minutes.
"""

from __future__ import annotations

from typing import Any

import schemathesis
from hypothesis import HealthCheck, settings

from pmemo.server import KeyStore, create_app

from .live import LiveServer

# The spec comes from an app built over no memory: building it touches nothing.
_keys = KeyStore(":memory:")
schema = schemathesis.openapi.from_dict(create_app(None, _keys).openapi())
_keys.close()


@schema.parametrize()
@settings(max_examples=8, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_no_5xx(case: Any, live: LiveServer) -> None:
    key = live.admin_key if case.path.startswith("/v1/admin") else live.key
    response = case.call(base_url=live.url, headers={"Authorization": f"Bearer {key}"}, timeout=30)
    assert response.status_code < 500, (case.method, case.path, response.text[:500])
    if response.status_code >= 400:
        ctype = response.headers.get("content-type") or [""]
        ctype = ctype[0] if isinstance(ctype, list) else ctype
        assert ctype.startswith("application/problem+json"), (case.path, response.text[:200])
        assert "Traceback" not in response.text
