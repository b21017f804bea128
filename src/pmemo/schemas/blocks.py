"""Memory blocks (issue 20): listed, appended to and edited by the agent's tools."""

from __future__ import annotations

from pydantic import BaseModel, Field

from ..blocks.model import Block
from .common import Out, RowId, _id, examples
from .people import AtMostOneOwner

LABEL = r"^[A-Za-z0-9_-]{1,64}$"
MAX_BLOCK_TEXT = 100_000  # one edit's text; the block's own `limit` is checked by the library


class BlockScopeIn(AtMostOneOwner):
    """Whose block: a group's or a user's chat, or neither (then a label must name one block)."""

    user_id: str | None = _id(None, description="The private chat whose block this is.")
    group_id: str | None = _id(None, description="The group whose block this is.")
    agent_id: str = _id("default")


class BlockAppendIn(BlockScopeIn):
    model_config = examples({"group_id": "study", "text": "Ni's exam is on 23 December."})

    text: str = Field(min_length=1, max_length=MAX_BLOCK_TEXT, pattern=r"\S",
                      description="Added as a new line at the end of the block.")


class BlockReplaceIn(BlockScopeIn):
    model_config = examples({"group_id": "study", "old": "23 December", "new": "24 December", "version": 1234567})

    old: str = Field(min_length=1, max_length=MAX_BLOCK_TEXT, description="Text that occurs exactly once in the block.")
    new: str = Field(max_length=MAX_BLOCK_TEXT, description="What it becomes (empty: delete it).")
    version: RowId | None = Field(
        None,
        description="The block's version as you read it: if the file changed since, nothing changes (409)."
        ' Or send `If-Match: "<version>"`. Without: the change is made to the latest text.',
    )


class BlockOut(Out):
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
        return cls.read(b, file=b.path)


class BlocksOut(BaseModel):
    blocks: list[BlockOut]
