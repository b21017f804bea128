"""A folder of block files, held in memory and reloaded as the files change.

The folder's ``*.md`` files (and those one folder down, such as ``derived/``; hidden names
skipped) are read once at open, then again whenever the watcher says something changed:
only files whose size or times changed are read and parsed again. Reads of the blocks
(every ``context()``) take the snapshot and never touch the disk.

A file that cannot be used (bad YAML, no label, a body over its limit, two files with one
label and scope, no permission to read it) is kept as a block with ``problem`` set and
logged once with its name and what to fix; it is listed, never put in a context, and the
other blocks work on. It is not replaced by its last good version: what is in the prompt is
what the files say, and an edit that broke a file shows as broken at once.

Edits (``edit``) hold one lock, so two writers of this process never interleave; each reads
the file, checks the version it was asked for, applies the change to the latest text and
renames the new file into place (``write.replace_file``).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from ..errors import Conflict, Forbidden, InvalidInput, NotFound, StoreError
from .edit import rewritten, within_limit
from .model import ANY_TENANT, Block, Where, applies, target
from .parse import parse
from .watch import Watcher
from .write import replace_file

log = logging.getLogger("pmemo.blocks")

EDIT_TRIES = 8  # rounds of an edit while another program keeps rewriting the file
BOM = "\ufeff"


@dataclass(frozen=True)
class _Entry:
    signature: tuple[int, ...]  # size, inode, mtime and ctime (ns): changes with every write
    block: Block  # as parsed, before the duplicate check
    good: Block | None  # the last version without a problem, whose label and scope a broken one keeps


class BlockFolder:
    """``BlockFolder.open(path)``; ``all()`` the blocks; ``close()`` stops watching."""

    def __init__(self, root: Path, *, poll: bool = False, interval: float = 0.5) -> None:
        self.root = root
        self._entries: dict[str, _Entry] = {}
        self._blocks: tuple[Block, ...] = ()
        self._scan = threading.Lock()
        self._write = threading.Lock()
        self._watcher = Watcher(root, self.refresh, poll=poll, interval=interval)

    @classmethod
    def open(cls, path: str | os.PathLike[str], *, poll: bool = False, interval: float = 0.5) -> BlockFolder:
        """Read the folder (made if missing) and start watching it."""
        root = Path(path).expanduser()
        root.mkdir(parents=True, exist_ok=True)
        folder = cls(root.resolve(), poll=poll, interval=interval)
        folder.refresh()
        folder._watcher.start()
        return folder

    def close(self) -> None:
        self._watcher.stop()

    @property
    def watching(self) -> str:
        """"watching" (file events) or "polling"."""
        return self._watcher.mode

    def all(self) -> tuple[Block, ...]:
        return self._blocks

    # ---- reading -------------------------------------------------------------------------
    def refresh(self, changed: set[Path] | None = None) -> None:
        """Read again the files that changed (all whose size or times differ, and ``changed``)."""
        with self._scan:
            entries: dict[str, _Entry] = {}
            for rel in self._files():
                path = self.root / rel
                try:
                    stat = path.stat()
                except OSError:
                    continue  # gone between the listing and now
                old = self._entries.get(rel)
                signature = (stat.st_size, stat.st_ino, stat.st_mtime_ns, stat.st_ctime_ns)
                if old is not None and old.signature == signature and not (changed and path in changed):
                    entries[rel] = old
                    continue
                block = self._read(rel, old.good if old else None)
                entries[rel] = _Entry(signature, block, block if block.problem is None else old.good if old else None)
            before = {b.path: b for b in self._blocks}
            blocks = _unique(e.block for e in entries.values())
            for block in blocks:  # said before it is seen: a reader of all() finds it logged
                if block.problem is not None and before.get(block.path) != block:
                    log.warning("blocks: %s is not used: %s", self.root / block.path, block.problem)
            self._entries = entries
            self._blocks = blocks

    def _files(self) -> list[str]:
        """The block files, relative to the folder: its own first, then one folder down."""
        found = []
        for depth, pattern in ((0, "*.md"), (1, "*/*.md")):
            for path in self.root.glob(pattern):
                rel = path.relative_to(self.root).as_posix()
                if not any(part.startswith(".") for part in rel.split("/")) and path.is_file():
                    found.append((depth, rel))
        return [rel for _, rel in sorted(found)]

    def _read(self, rel: str, known: Block | None) -> Block:
        try:
            raw = (self.root / rel).read_bytes()
        except OSError as exc:
            base = parse(rel, b"", known)
            return replace(base, problem=f"cannot read the file ({exc.strerror or exc}): give pmemo read access to it")
        return parse(rel, raw, known)

    # ---- writing -------------------------------------------------------------------------
    def edit(self, label: str, where: Where, change: Callable[[str], str], version: int | None = None) -> Block:
        """Apply ``change`` to the text of the block ``label`` means in ``where`` and write the
        file back. ``version``: the one the caller read; if the file changed since, Conflict
        (nothing written). Without it the change is applied to the latest text."""
        with self._write:
            for _ in range(EDIT_TRIES):
                done = self._edit_once(label, where, change, version)
                if done is not None:
                    return done
            raise Conflict(f"block {label!r} kept changing while it was being edited: try again")

    def _edit_once(self, label: str, where: Where, change: Callable[[str], str], version: int | None) -> Block | None:
        """One round of ``edit``: the block as written, or None when the file changed under it."""
        chosen = self._target(label, where)
        path = self.root / chosen.path
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            self.refresh({path})  # removed since the last reload: choose again
            return None
        except OSError as exc:
            raise InvalidInput(f"block {label!r} ({chosen.path}) cannot be read ({exc.strerror}):"
                               " give pmemo access to it") from exc
        current = parse(chosen.path, raw, chosen)
        if current.problem is not None:
            raise InvalidInput(f"block {label!r} ({chosen.path}) cannot be edited: {current.problem}")
        if (current.label, current.scope) != (chosen.label, chosen.scope):
            self.refresh({path})  # the file says something else now: choose again
            return None
        _check_editable(current)
        if version is not None and version != current.version:
            raise Conflict(f"block {label!r} changed since version {version} (it is {current.version} now):"
                           " read it again and redo the edit", current_version=current.version)
        value = within_limit(current, change(current.value))
        text = raw.decode("utf-8")
        data = ((BOM if text.startswith(BOM) else "") + rewritten(text.removeprefix(BOM), value)).encode("utf-8")
        if path.read_bytes() != raw:
            return None  # another program wrote it meanwhile: the next round reads that
        try:
            replace_file(path, data)
        except OSError as exc:
            raise StoreError(f"cannot write {path} ({exc.strerror}): pmemo needs to write in {path.parent}") from exc
        self.refresh({path})
        return next((b for b in self._blocks if b.path == chosen.path), parse(chosen.path, data, chosen))

    def _target(self, label: str, where: Where) -> Block:
        found = target(self._blocks, label, where)
        if found is not None:
            return found
        broken = [b for b in self._blocks if b.label == label and b.problem and applies(b, where)]
        if broken:
            raise InvalidInput(f"block {label!r} ({broken[0].path}) cannot be edited: {broken[0].problem}")
        here = sorted({b.label for b in self._blocks if applies(b, where)})
        raise NotFound(f"no block labelled {label!r} here; the blocks here are: {', '.join(here) or 'none'}")


def _check_editable(block: Block) -> None:
    if block.tenant == ANY_TENANT:
        raise Forbidden(f"block {block.label!r} ({block.path}) is for every tenant (tenant: '*'): no agent"
                        " may edit it with the tools; edit the file itself")
    if block.read_only:
        raise Forbidden(f"block {block.label!r} is read-only: set `read_only: false` in {block.path}"
                        " to let the agent edit it")


def _unique(blocks: Iterable[Block]) -> tuple[Block, ...]:
    """The blocks, a later file with the label and scope of an earlier one marked as a duplicate."""
    seen: dict[tuple[object, ...], str] = {}
    out = []
    for block in blocks:
        key = (block.label, *block.scope)
        if block.problem is None and key in seen:
            block = replace(block, problem=f"label {block.label!r} with the same scope is in {seen[key]}"
                                           " too: rename one of them or give them different scopes")
        elif block.problem is None:
            seen[key] = block.path
        out.append(block)
    return tuple(out)
