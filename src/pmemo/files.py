"""Private files: a data directory is ``0700`` and every file pmemo keeps in it ``0600``.

Memory holds every tenant's conversations, so no other local account may read it. Modes
are set explicitly (not left to the umask). SQLite creates a database's ``-wal`` and
``-shm`` files with the database file's own mode, so making the database file private
before the first connection keeps them private too; ``private_sqlite`` also fixes the
ones an older pmemo left behind.

>>> import tempfile, stat
>>> root = private_dir(Path(tempfile.mkdtemp()) / "data")
>>> oct(stat.S_IMODE(root.stat().st_mode))
'0o700'
"""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

log = logging.getLogger("pmemo.files")

DIR_MODE = 0o700
FILE_MODE = 0o600
SQLITE_SIDECARS = ("-wal", "-shm", "-journal")


def private_dir(path: str | os.PathLike[str]) -> Path:
    """Create ``path`` (and its parents) if missing; a directory made here is ``0700``.

    An existing directory keeps its mode: it may be shared on purpose (see ``warn_if_open``).
    """
    root = Path(path)
    if not root.is_dir():
        root.mkdir(parents=True, exist_ok=True, mode=DIR_MODE)
        os.chmod(root, DIR_MODE)  # mkdir's mode is masked by the umask
    return root


def private_file(path: str | os.PathLike[str]) -> Path:
    """Create ``path`` empty if missing, and make it ``0600`` (an existing one too)."""
    file = Path(path)
    try:
        fd = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    except FileExistsError:
        _chmod(file)
    else:
        try:
            os.fchmod(fd, FILE_MODE)
        finally:
            os.close(fd)
    return file


def private_sqlite(path: str | os.PathLike[str]) -> Path:
    """``private_file`` for a SQLite database and any WAL, SHM or journal file beside it."""
    db = private_file(path)
    for suffix in SQLITE_SIDECARS:
        side = db.with_name(db.name + suffix)
        if side.exists():
            _chmod(side)
    return db


def sqlite_bytes(path: str | os.PathLike[str]) -> int:
    """Bytes on disk of a SQLite database with its WAL, SHM and journal files (0 if missing)."""
    db = Path(path)
    total = 0
    for file in (db, *(db.with_name(db.name + suffix) for suffix in SQLITE_SIDECARS)):
        try:
            total += file.stat().st_size
        except OSError:
            pass  # no such sidecar (or removed meanwhile)
    return total


def warn_if_open(path: str | os.PathLike[str]) -> bool:
    """Log a warning (and return True) when the data directory is group or world readable."""
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        return False
    if not mode & 0o077:
        return False
    log.warning(
        "data directory %s has mode %s: other local accounts can read every tenant's memory; run 'chmod 700 %s'",
        path,
        oct(mode)[2:].rjust(4, "0"),
        path,
    )
    return True


def _chmod(path: Path) -> None:
    try:
        if stat.S_IMODE(path.stat().st_mode) != FILE_MODE:
            os.chmod(path, FILE_MODE)
    except FileNotFoundError:
        pass  # SQLite removed a sidecar between the check and here
    except OSError as exc:  # not our file: say so once, and go on
        log.warning("cannot make %s private (mode 0600): %s", path, exc.strerror)
