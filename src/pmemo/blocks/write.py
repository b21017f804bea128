"""Writing a block file atomically: a reader (the watcher, an editor, another agent) sees the
old file or the new one, never half of it, and a crash leaves one of the two.

The new bytes go to a hidden temporary file in the same folder (same file system, so the
rename is atomic; a dot name, so the folder's loader and most watchers skip it), flushed
to disk, given the old file's mode, then renamed over it.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

NEW_FILE_MODE = 0o600  # a derived block holds what people said: private, as the data directory


def replace_file(path: Path, data: bytes) -> None:
    """Put ``data`` at ``path`` in one rename, keeping the mode of the file it replaces."""
    try:
        mode = path.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = NEW_FILE_MODE
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        raise
    _sync_dir(path.parent)


def _sync_dir(folder: Path) -> None:
    """The rename itself is durable once the folder is flushed (where the OS allows it)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)
