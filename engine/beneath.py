"""Opening a file beneath a folder without ever leaving it: how ``arbiter mcp --root DIR`` reads a file.

Checking a path and then opening it leaves a gap: a folder on the path swapped for a link between the
check and the open leads the open out of the folder.  So the name is never resolved first.  It is walked
one component at a time from a descriptor of the root, each component opened relative to the folder
before it (``dir_fd``) and never followed if it is a link (``O_NOFOLLOW``; ``O_DIRECTORY`` for a folder):

* a link met on the way is read (``readlink``) and its target walked the same way: a relative target from
  the link's own folder, an absolute one from the root, which it must name a place under;
* ``..`` goes back one folder of the walk and never above the root;
* a component swapped between its status and its open fails the open (a link is not followed), and is
  looked at again.

The file opened is then checked from its descriptor: a regular file (a pipe or a device is refused from its
status before it is opened); **one name only** (``st_nlink == 1``: a hard link to a file outside the root
lies inside the root by every path, so a file with a second name is refused); and, where the system says
where an open file lies (``/proc/self/fd``), under the root (a folder moved out during the walk).

>>> import tempfile, pathlib
>>> root = pathlib.Path(tempfile.mkdtemp())
>>> _ = (root / "a.json").write_text("{}")
>>> (root / "sub").mkdir()
>>> fd = open_beneath(root, "sub/../a.json", source="position")
>>> os.read(fd, 10), os.close(fd)
(b'{}', None)
>>> open_beneath(root, "../etc/passwd", source="position")
Traceback (most recent call last):
...
engine.errors.InputError: position: outside the folder this server may read
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from engine.errors import InputError

__all__ = ["MAX_LINKS", "NOT_REGULAR", "OUTSIDE", "TWO_NAMES", "open_beneath", "supported"]

MAX_LINKS = 40
"""The most links one walk follows (the system's own limit for a path): more is a loop."""

OUTSIDE = "outside the folder this server may read"
NOT_REGULAR = "not a regular file (a pipe, a device or a folder is not read)"
TWO_NAMES = (
    "a file with more than one name (a hard link) is not read: another of its names may lie outside the "
    "folder this server may read"
)

_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0) | os.O_CLOEXEC
_FILE_FLAGS = (
    os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    | os.O_CLOEXEC
)
_SWAPPED = {errno.ELOOP, errno.ENOTDIR, errno.EMLINK}
"""What an ``O_NOFOLLOW``/``O_DIRECTORY`` open says when the component became a link or a file."""


def supported() -> bool:
    """Whether this system opens files relative to a folder without following links (POSIX: yes)."""
    return os.open in os.supports_dir_fd and hasattr(os, "O_NOFOLLOW") and hasattr(os, "O_DIRECTORY")


def _parts(name: str, roots: tuple[Path, ...], source: str) -> list[str]:
    """The components of ``name`` to walk from the root: a relative name as it is; an absolute one must
    start with one of ``roots`` (the root's real path, the root as given), which is cut off."""
    parts = name.split("/")
    if not name.startswith("/"):
        return parts
    for root in roots:
        head = str(root).split("/")
        if parts[: len(head)] == head:
            return parts[len(head) :]
    raise InputError(source, OUTSIDE)


def _fail(source: str, exc: OSError) -> InputError:
    return InputError(source, f"cannot read: {exc.strerror or exc}")


def _step(here: int, part: str, last: bool, source: str) -> tuple[int | None, str | None]:
    """Open one component under the folder ``here``: its descriptor, or the target of the link it is
    (never followed), or None twice when it changed between its status and its open (look again)."""
    try:
        status = os.stat(part, dir_fd=here, follow_symlinks=False)
        if stat.S_ISLNK(status.st_mode):
            return None, os.readlink(part, dir_fd=here)
        if last and not stat.S_ISREG(status.st_mode):  # before opening: a pipe or a device is never opened
            raise InputError(source, NOT_REGULAR)
        if not last and not stat.S_ISDIR(status.st_mode):
            raise InputError(source, "cannot read: Not a directory")
        return os.open(part, _FILE_FLAGS if last else _DIR_FLAGS, dir_fd=here), None
    except OSError as exc:
        if exc.errno in _SWAPPED:
            return None, None
        raise _fail(source, exc) from None


def _under(fd: int, roots: tuple[Path, ...]) -> bool:
    """Whether the open file ``fd`` lies under one of ``roots``, as far as the system says."""
    try:
        where = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:  # no /proc: the walk alone answers
        return True
    return any(where.startswith(f"{root}/") for root in roots)


def open_beneath(root: Path, name: str, *, source: str, given: Path | None = None) -> int:
    """A descriptor of the regular file ``name`` (relative to ``root``, or absolute under it), opened for
    reading without following any link out of ``root`` (the module's walk); ``given`` is the root as the
    user named it, accepted at the start of an absolute name as ``root`` (its real path) is.  Refuses with
    an :class:`InputError` naming ``source``."""
    roots = (root,) if given is None or given == root else (root, given)
    if not name or "\x00" in name:
        raise InputError(source, "not a file name")
    parts = _parts(name, roots, source)
    try:
        folders = [os.open(root, _DIR_FLAGS)]
    except OSError as exc:
        raise _fail(source, exc) from None
    links = 0
    try:
        while parts:
            part = parts.pop(0)
            if part in ("", "."):
                continue
            if part == "..":
                if len(folders) == 1:
                    raise InputError(source, OUTSIDE)
                os.close(folders.pop())
                continue
            fd, target = _step(folders[-1], part, not any(p not in ("", ".") for p in parts), source)
            if fd is not None:
                if not parts or all(p in ("", ".") for p in parts):
                    return _checked(fd, roots, source)
                folders.append(fd)
                continue
            links += 1
            if links > MAX_LINKS:
                raise InputError(source, "cannot read: Too many levels of symbolic links")
            if target is None:  # changed under the walk: look at it again
                parts.insert(0, part)
                continue
            if target.startswith("/"):
                for extra in folders[1:]:
                    os.close(extra)
                del folders[1:]
            parts = _parts(target, roots, source) + parts
        raise InputError(source, NOT_REGULAR)  # the name is the root itself
    finally:
        for fd in folders:
            os.close(fd)


def _checked(fd: int, roots: tuple[Path, ...], source: str) -> int:
    """``fd`` if it is a regular file with one name, lying under the root; else closed and refused."""
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):
            raise InputError(source, NOT_REGULAR)
        if status.st_nlink > 1:
            raise InputError(source, TWO_NAMES)
        if not _under(fd, roots):
            raise InputError(source, OUTSIDE)
    except BaseException:
        os.close(fd)
        raise
    return fd
