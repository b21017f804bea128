"""Memory blocks (issue 20): listed, appended to and edited by the agent's tools."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..blocks.model import Block
from .common import RowId, Strict, _id, either
from .people import owner_kw

LABEL = r"^[A-Za-z0-9_-]{1,64}$"
MAX_BLOCK_TEXT = 100_000  # one edit's text; the block's own `limit` is checked by the library


class BlockScopeIn(Strict):
    """Whose block: a group's or a user's chat, or neither (then a label must name one block)."""

    body_rule = either({"absent": ["user_id"]}, {"absent": ["group_id"]})

    user_id: str | None = _id(None, description="The private chat whose block this is.")
    group_id: str | None = _id(None, description="The group whose block this is.")
    agent_id: str = _id("default")

    @model_validator(mode="after")
    def _at_most_one_owner(self) -> BlockScopeIn:
        if self.user_id is not None and self.group_id is not None:
            raise ValueError("give at most one of user_id or group_id")
        return self

    def scope(self) -> dict[str, Any]:
        return owner_kw(self.user_id, self.group_id, self.agent_id)


class BlockAppendIn(BlockScopeIn):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"group_id": "study", "text": "Ni's exam is on 23 December."}]},
    )

    text: str = Field(min_length=1, max_length=MAX_BLOCK_TEXT, pattern=r"\S",
                      description="Added as a new line at the end of the block.")


class BlockReplaceIn(BlockScopeIn):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"group_id": "study", "old": "23 December", "new": "24 December",
                                         "version": 1234567}]},
    )

    old: str = Field(min_length=1, max_length=MAX_BLOCK_TEXT, description="Text that occurs exactly once in the block.")
    new: str = Field(max_length=MAX_BLOCK_TEXT, description="What it becomes (empty: delete it).")
    version: RowId | None = Field(
        None,
        description="The block's version as you read it: if the file changed since, nothing changes (409)."
        ' Or send `If-Match: "<version>"`. Without: the change is made to the latest text.',
    )


class BlockOut(BaseModel):
    label: str = Field(examples=["persona"])
    description: str
    value: str = Field(description="The block's text, as the context shows it.")
    chars: int = Field(description="Characters in `value`.")
    limit: int = Field(description="Most characters the block may hold.")
    read_only: bool
    editable: bool = Field(description="The agent's tools may change it (`read_only: false`, one tenant's, usable).")
    order: int
    tenant: str = Field(description="The tenant it is for, or `*` for every tenant.")
    agent: str | None
    group: str | None
    user: str | None
    file: str = Field(description="Its file, relative to the blocks folder.", examples=["persona.md"])
    version: int = Field(description="Changes with every change to the file; send it back to edit safely.")
    problem: str | None = Field(description="Why the file cannot be used (then it is in no context); null if fine.")

    @classmethod
    def of(cls, b: Block) -> BlockOut:
        return cls(label=b.label, description=b.description, value=b.value, chars=b.chars, limit=b.limit,
                   read_only=b.read_only, editable=b.editable, order=b.order, tenant=b.tenant, agent=b.agent,
                   group=b.group, user=b.user, file=b.path, version=b.version, problem=b.problem)


class BlocksOut(BaseModel):
    blocks: list[BlockOut]
