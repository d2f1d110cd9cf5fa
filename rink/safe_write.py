"""Output files written whole or not at all, never over an existing file unless forced.

The data goes to a temporary file in the target's folder first. A new file then takes its name
exclusively (``os.link``, which fails if the name exists), so of several runs writing one file
at once exactly one succeeds; with ``force`` it replaces the old file (``os.replace``). New files
get the permissions ``open()`` would give them (0666 less the umask); a replaced file keeps its
own. Only regular files are ever replaced: never a symbolic link, FIFO, device or folder.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from pathlib import Path


class OutputError(Exception):
    """An output file that may not or cannot be written; ``str()`` is one line naming it."""


class OutputExists(OutputError):
    """The output file is already there and ``force`` was not given."""


class NotRegularFile(OutputError):
    """The output path is a symbolic link, FIFO, device, socket or folder: never replaced."""


_KINDS = ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISDIR, "a folder"),
          (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a device"),
          (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))


def existing_mode(path: str | Path) -> int | None:
    """The permission bits of the regular file at ``path``, or None if nothing is there.

    Raises NotRegularFile for anything else at ``path`` (a link is not followed).
    """
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    if stat.S_ISREG(info.st_mode):
        return stat.S_IMODE(info.st_mode) & 0o777
    kind = next((word for test, word in _KINDS if test(info.st_mode)), "a special file")
    raise NotRegularFile(f"{path}: is {kind}, not a regular file; rink only ever replaces "
                         "regular files (give another name)")


def check_writable(path: str | Path, force: bool) -> None:
    """Raise OutputError if ``path`` may not be written (exists without ``force``, or is not
    a regular file)."""
    if existing_mode(path) is not None and not force:
        raise OutputExists(f"{path}: already exists (use --force to overwrite it)")


def write_atomic(path: str | Path, data: str | bytes, *, force: bool = False) -> None:
    """Write ``data`` to ``path`` whole: a reader sees no file or the old one, or the new one.

    Raises OutputError (OutputExists, NotRegularFile) or OSError (cannot write there).
    """
    path = Path(path)
    check_writable(path, force)
    mode = existing_mode(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    temp = _write_temp(path, payload, mode)
    try:
        if force:
            existing_mode(path)  # something other than a regular file may have appeared
            os.replace(temp, path)
        else:
            _take_name(temp, path)
    finally:
        temp.unlink(missing_ok=True)


def _write_temp(path: Path, payload: bytes, mode: int | None) -> Path:
    """The data in a new temporary file beside ``path``: 0666 less the umask, or ``mode``."""
    while True:
        temp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
        try:
            handle = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            break
        except FileExistsError:
            continue
    try:
        with os.fdopen(handle, "wb") as out:
            if mode is not None:
                os.fchmod(out.fileno(), mode)
            out.write(payload)
            out.flush()
            os.fsync(out.fileno())
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    return temp


def _take_name(temp: Path, path: Path) -> None:
    """Give ``temp``'s data the name ``path``, only if no file has that name yet."""
    try:
        os.link(temp, path)
        return
    except FileExistsError:
        raise OutputExists(f"{path}: already exists (use --force to overwrite it)") from None
    except OSError as error:
        if error.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK):
            raise
    # no hard links on this file system: claim the name with an empty file, then fill it
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    except FileExistsError:
        raise OutputExists(f"{path}: already exists (use --force to overwrite it)") from None
    os.replace(temp, path)
