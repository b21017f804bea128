"""The error responses of every operation in the OpenAPI document, as the server sends them:
``application/problem+json`` bodies of the ``Problem`` schema.

A route declares only what is its own (``responses={409: {...}}``); what follows from the
kind of route is added here, so a new route is documented without repeating it:

- every ``/v1`` route: 401 (no, unknown or revoked key), 403 (the wrong kind of key) and
  429 (the key's rate limit, a tenant quota or its backlog of background work);
- a route with parameters or a body: 422; with a path parameter: 404 (not in this tenant);
  with a body: 413 (over the route's body cap);
- a conditional or idempotent write (an ``If-Match`` or ``Idempotency-Key`` header): 409.

schemathesis (tests/server/test_fuzz.py) checks that no status or media type goes undeclared.
"""

from __future__ import annotations

from typing import Any

from .problems import PROBLEM_TYPE

PROBLEM_REF = "#/components/schemas/Problem"

WHY = {
    401: "no API key, or an unknown or revoked one",
    403: "this key may not use this route (an admin key on memory, a tenant key on admin)",
    404: "no such item in this key's tenant",
    409: "the item changed since the version sent, or the idempotency key was used for another write",
    413: "the request body is over this route's cap; `setting` names the limit",
    422: "invalid input: `detail` names the field and what to fix",
    429: "too many requests with this key, or too many turns of the tenant waiting for the background"
         " (both: see Retry-After), or a tenant quota is full",
}
METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")


def statuses(path: str, operation: dict[str, Any]) -> set[int]:
    """The 4xx statuses an operation can answer from what it is (see the module docstring)."""
    params = operation.get("parameters", [])
    takes = {p.get("in") for p in params}
    headers = {str(p.get("name", "")).lower() for p in params if p.get("in") == "header"}
    if "requestBody" in operation:
        takes.add("body")
    found: set[int] = set()
    if path.startswith("/v1"):
        found |= {401, 403, 429}
    if "path" in takes:
        found.add(404)
    if takes:
        found.add(422)
    if "body" in takes:
        found.add(413)
    if headers & {"if-match", "idempotency-key"}:
        found.add(409)
    return found


def document(spec: dict[str, Any], problem_schema: dict[str, Any]) -> dict[str, Any]:
    """Declare each operation's problem responses in ``spec`` (in place) and return it."""
    for path, item in spec.get("paths", {}).items():
        for method, op in item.items():
            if method not in METHODS:
                continue
            responses = op.setdefault("responses", {})
            for status in sorted(statuses(path, op)):
                responses.setdefault(str(status), {"description": WHY[status]})
            for code, response in responses.items():
                if code.isdigit() and int(code) >= 400:
                    response["content"] = {PROBLEM_TYPE: {"schema": {"$ref": PROBLEM_REF}}}
    spec.setdefault("components", {}).setdefault("schemas", {}).setdefault("Problem", problem_schema)
    return spec
