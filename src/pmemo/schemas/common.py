"""Shared pieces of the REST bodies: id pattern, limits, the strict base, the scope and the problem body."""

from __future__ import annotations

import math
import re
from datetime import datetime
from typing import Annotated, Any, ClassVar, Self

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, TypeAdapter, ValidationError, model_validator
from pydantic.json_schema import GetJsonSchemaHandler, JsonSchemaValue
from pydantic_core import CoreSchema, PydanticCustomError

ID = r"^[A-Za-z0-9_.:@\-]{1,128}$"
MAX_CONTENT = 100_000
MAX_BATCH = 500
MAX_BUDGET = 32_000
MAX_QUERY = 20_000  # the library's own limit on a query or a text to resolve
MAX_RECENT = 50
MAX_ALIASES = 100
# Ids, batches and versions: at most 10**18, below SQLite's 2**63. Not 2**62: that prints as
# the float 4.611686018427388e18, which JSON-schema tools read back as ...388000 and then
# offer ids over the bound as valid ones.
MAX_ID = 10**18


def _id(default: Any = ..., **kw: Any) -> Any:
    return Field(default, pattern=ID, min_length=1, max_length=128, **kw)


class Strict(BaseModel):
    """An input body: no unknown fields and no coercion (``true`` is not 1, ``"5"`` is not 5,
    ``5`` is not ``"5"``); a datetime is an ISO 8601 string (``When``), as JSON has no other."""

    model_config = ConfigDict(extra="forbid", strict=True)

    # What the model validators ask beyond the fields (exactly one owner, ...) in JSON-schema
    # words, so that a request the OpenAPI document allows is one the server takes.
    body_rule: ClassVar[dict[str, Any]] = {}

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        schema = handler(core_schema)
        handler.resolve_ref_schema(schema).update(cls.body_rule)
        return schema


def examples(*bodies: dict[str, Any]) -> ConfigDict:
    """An input body's config with its OpenAPI examples (unknown fields refused, as ``Strict``'s)."""
    return ConfigDict(extra="forbid", json_schema_extra={"examples": list(bodies)})


_LAX_DATETIME: TypeAdapter[datetime] = TypeAdapter(datetime)


_NUMBER = re.compile(r"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*")


def _iso(value: Any) -> Any:
    """A date-time as ISO 8601 text (or a datetime); a number, or text that is one, is refused."""
    if not isinstance(value, str):
        return value  # a number or a bool is then refused by the strict datetime check
    if not _NUMBER.fullmatch(value):  # "0.5" would read as seconds since 1970 (a query string's number)
        try:
            return _LAX_DATETIME.validate_python(value)
        except ValidationError:
            pass
    raise PydanticCustomError("datetime_iso", "must be an ISO 8601 date-time like 2026-05-01T10:00:00+08:00")


When = Annotated[datetime, BeforeValidator(_iso)]


def _whole(value: Any) -> Any:
    # JSON has one number type: 84.0 is the integer 84 (and JSON Schema says so), 84.5 is not
    return int(value) if isinstance(value, float) and value.is_integer() else value


# The bounds go before the validator, or pydantic cannot put them in the JSON schema
RowId = Annotated[int, Field(ge=1, le=MAX_ID), BeforeValidator(_whole)]


def read_version(what: str) -> Any:
    """The optional ``version`` field of an edit: the one the caller read, else ``If-Match``."""
    return Field(None, description=f"The version you read; a {what} changed since then is left alone (409)."
                 " Or send `If-Match: \"<version>\"`.")


def either(*branches: dict[str, Any]) -> dict[str, Any]:
    """A JSON-schema rule that the body has one of these shapes: each branch names the fields
    it needs (``given``, with their JSON type) and the ones it leaves out or null (``absent``)."""
    rules = []
    for b in branches:
        props = {n: {"type": kind} for n, kind in b.get("given", {}).items()}
        props.update({n: {"type": "null"} for n in b.get("absent", ())})
        rules.append({"required": sorted(b.get("given", {})), "properties": props})
    return {"anyOf": rules}


EXACTLY_ONE_OWNER = either(
    {"given": {"user_id": "string"}, "absent": ["group_id"]},
    {"given": {"group_id": "string"}, "absent": ["user_id"]},
)


class ScopeIn(Strict):
    """Who the memory belongs to: exactly one of ``user_id`` / ``group_id``."""

    body_rule = EXACTLY_ONE_OWNER

    user_id: str | None = _id(None, examples=["alice"])
    group_id: str | None = _id(None, examples=[None])
    agent_id: str = _id("default")

    @model_validator(mode="after")
    def _one_owner(self) -> ScopeIn:
        if (self.user_id is None) == (self.group_id is None):
            raise ValueError("give exactly one of user_id or group_id")
        return self

    def scope(self) -> dict[str, Any]:
        return {"user_id": self.user_id, "group_id": self.group_id, "agent_id": self.agent_id}


def _finite(x: float) -> float:
    return x if math.isfinite(x) else 0.0


class Out(BaseModel):
    """A response body read from a library model: each field from the model's attribute of that name,
    but for those ``given`` (a renamed, nested or converted one); one the model lacks keeps its default."""

    @classmethod
    def read(cls, obj: Any, **given: Any) -> Self:
        return cls(**{n: getattr(obj, n) for n in cls.model_fields if n not in given and hasattr(obj, n)}, **given)


def owner_of(obj: Any) -> dict[str, Any]:
    """A model's owner as the bodies name it: ``user_id``, ``group_id`` and ``agent_id`` of its scope."""
    return {"user_id": obj.scope.user_id, "group_id": obj.scope.group_id, "agent_id": obj.scope.agent_id}


class Problem(BaseModel):
    """RFC 9457 problem body; every error has this shape."""

    type: str = "about:blank"
    title: str
    status: int
    code: str
    detail: str
    errors: list[dict[str, Any]] | None = None
    current_version: int | None = Field(None, description="409 only: the version that won")


class Removed(BaseModel):
    """What a delete removed or rebuilt, as the library reports it."""

    removed: dict[str, Any]
