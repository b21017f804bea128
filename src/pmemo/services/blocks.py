"""Memory blocks (issue 20): the ``blocks_dir`` folder, read and watched, who sees which block,
and the agent's own edits written back to the files, as ``mem.core_memory``. Without a folder
there are no blocks: reads show none, edits are NotFound naming the setting.

>>> await mem.core_memory.append("notes", "Ni's exam is on 23 Dec.", group_id="study")  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import functools
from typing import Any

from .. import validate
from ..blocks.derive import HumanBlocks
from ..blocks.edit import appended, replaced
from ..blocks.folder import BlockFolder
from ..blocks.model import Block, check_label, visible, where_of
from ..config import Settings
from ..diary.persona import persona_of
from ..errors import NotFound
from ..pipelines.worker import Worker
from ..stores.base import FullStore


class BlocksService:
    """The blocks of one ``Memory``; ``open`` reads the folder, ``now`` is every block as it is."""

    def __init__(self, store: FullStore, worker: Worker, settings: Settings) -> None:
        self._store = store
        self._worker = worker  # its diary writes in the persona block's voice; its jobs derive blocks
        self.settings = settings
        self._folder: BlockFolder | None = None

    async def open(self) -> None:
        """Read and watch the ``blocks_dir`` folder; with ``blocks_derive_human``, keep the
        groups' derived ``human`` blocks current (a background job)."""
        if self.settings.blocks_dir:
            folder = await asyncio.to_thread(BlockFolder.open, self.settings.blocks_dir,
                                             poll=self.settings.blocks_poll)
            try:
                if self.settings.blocks_derive_human:
                    derived = HumanBlocks(self._store, folder, self.settings)
                    await asyncio.to_thread(derived.start)
                    self._worker.human_blocks = derived.run
            except BaseException:
                folder.close()
                raise
            self._folder = folder
        self._worker.diary.persona = persona_of(self.now)  # diary (issue 20)

    async def close(self) -> None:
        if self._folder is not None:
            await asyncio.to_thread(self._folder.close)

    def now(self) -> tuple[Block, ...]:
        """Every block as the folder holds it now (none without a folder)."""
        return self._folder.all() if self._folder is not None else ()

    def _edited(self) -> BlockFolder:
        if self._folder is None:
            raise NotFound("there are no memory blocks: open with blocks_dir=... (or set PMEMO_BLOCKS_DIR)")
        return self._folder

    async def blocks(self, /, **scope: Any) -> list[Block]:
        """The memory blocks of a chat (``group_id`` or ``user_id``): the ones its context shows,
        one per label, and those meant for it whose file has a ``problem``; without either, every
        block of the tenant and agent. Read from memory: the folder is reloaded as files change.

        >>> [(b.label, b.chars, b.limit, b.read_only) for b in await mem.blocks(group_id="study")]  # doctest: +SKIP
        """
        return visible(self.now(), where_of(scope))

    async def append(self, /, label: str, text: str, **scope: Any) -> Block:
        """Add ``text`` as a new line at the end of block ``label`` (one with ``read_only:
        false``) and write its file back; returns the block as it is now. Over its ``limit``:
        InvalidInput, nothing written."""
        return await asyncio.to_thread(self._edited().edit, check_label(label), where_of(scope),
                                       functools.partial(appended, text=text))

    async def replace(self, /, label: str, old: str, new: str, *, version: int | None = None,
                      **scope: Any) -> Block:
        """Replace ``old`` (which must occur once) by ``new`` in block ``label``. With ``version``
        (the one read), a file changed since is left alone: Conflict names the current one;
        without, the change is made to the latest text."""
        if version is not None:
            validate.positive_int("version", version, 2**62)
        return await asyncio.to_thread(self._edited().edit, check_label(label), where_of(scope),
                                       functools.partial(replaced, old=old, new=new), version)
