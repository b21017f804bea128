"""Memory blocks (issue 20): the markdown files always in context, for the key's tenant only.

Listed as the library's ``blocks()`` lists them; edited with MemGPT's two tools, only where
the file says ``read_only: false``. A block of another tenant is simply not found here.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Response

from ..schemas import Problem
from ..schemas.blocks import LABEL, BlockAppendIn, BlockOut, BlockReplaceIn, BlocksOut
from .deps import Mem, Tenant
from .routes_inspect import IfMatch, sent_version, tagged
from .routes_people import MaybeOwner

router = APIRouter(prefix="/v1", tags=["blocks"])

Label = Annotated[str, Path(pattern=LABEL, max_length=64, examples=["notes"], description="The block's label.")]
NOT_FOUND = {"model": Problem, "description": "no block with that label here (or no blocks folder)"}
READ_ONLY = {"model": Problem, "description": "the block is read-only (`read_only: true` in its file, or a block"
             " for every tenant): edit the file instead"}
CONFLICT = {"model": Problem, "description": "the file changed since the version you sent (the body has"
            " `current_version`, also the ETag), or another program kept rewriting it meanwhile"}
BUSY = {"model": Problem, "description": "another program kept rewriting the file meanwhile: try again"}
INVALID = ("the text would take the block over its `limit`, `old` does not occur exactly once, the label"
           " names several blocks (give group_id or user_id), or the block's file has a problem")


@router.get("/blocks", response_model=BlocksOut)
async def list_blocks(memory: Mem, tenant: Tenant, where: MaybeOwner) -> BlocksOut:
    """The memory blocks (`Memory.blocks`). With `group_id` or `user_id`: the ones that chat's
    context shows, one per label, and those meant for it whose file has a `problem`; without:
    every block of the tenant and agent. Each with its size against its limit, whether the
    agent may edit it, its file and its `version`.
    """
    blocks = await memory.blocks(tenant_id=tenant, **where)
    return BlocksOut(blocks=[BlockOut.of(b) for b in blocks])


@router.post("/blocks/{label}/append", response_model=BlockOut,
             responses={403: READ_ONLY, 404: NOT_FOUND, 409: BUSY, 422: {"model": Problem, "description": INVALID}})
async def append_block(label: Label, body: BlockAppendIn, memory: Mem, tenant: Tenant,
                       response: Response) -> BlockOut:
    """Add `text` as a new line at the end of a block (`Memory.core_memory_append`) and write
    its file back; returns the block as it is now, its `ETag` the new version."""
    return BlockOut.of(tagged(response, await memory.core_memory_append(label, body.text, tenant_id=tenant,
                                                                        **body.scope())))


@router.post("/blocks/{label}/replace", response_model=BlockOut,
             responses={403: READ_ONLY, 404: NOT_FOUND, 409: CONFLICT,
                        422: {"model": Problem, "description": INVALID}})
async def replace_block(label: Label, body: BlockReplaceIn, memory: Mem, tenant: Tenant, response: Response,
                        if_match: IfMatch = None) -> BlockOut:
    """Replace `old` (which must occur exactly once) by `new` in a block
    (`Memory.core_memory_replace`). With the version you read (`version` or `If-Match`), a file
    changed since is left alone: 409 with the current version."""
    block = await memory.core_memory_replace(label, body.old, body.new, version=sent_version(body.version, if_match),
                                             tenant_id=tenant, **body.scope())
    return BlockOut.of(tagged(response, block))
