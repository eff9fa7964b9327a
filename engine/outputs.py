"""Writing a command's output files without destroying what the command did not write.

Every file a command writes (``arbiter view``'s page, ``show -o``, ``play --record``, ``fuzz --out`` and
``--report``, ``rules --write-docs``, ``vectors export`` and ``vectors perft --write``) goes through this
module: :func:`write` for a file the user names, :class:`Folder` for the files of an output folder, each with
the :class:`Kind` of file it writes.

**Authorship is proven, never guessed.**  Every file written carries a seal (:mod:`engine.seal`): the SHA-256
of its own bytes, in a place its format has room for.  An existing file is replaced only when the command can
prove that it wrote it: its seal for this kind verifies against its whole content, or, for the files of an
exported suite (whose formats leave no room), the export's sealed ``manifest.json`` lists the file with the
digest it has now.  A page quoting a seal, a file of the right shape, a file an earlier arbiter version wrote
(without a seal), a generated file edited since: none is proven, and the command stops with one line naming
the file and saying which of these it is, before any work is done, unless ``force`` (``--force``) says to
replace it.  Whatever ``force`` says, the command's own input is never overwritten, and a folder or a disk
device never is.

**No link is followed inside an output folder.**  The folder the user names is opened once (the user's own
links on the way to it are the user's choice); from there on every name is opened, created, renamed or
removed relative to that open folder, without following a link (``O_NOFOLLOW``, ``dir_fd``): a link put
where an output goes, or in place of a sub-folder (``schemas/``), is refused, never written through.  A file
is written to a new temporary file beside it and renamed over it, so an interrupted write leaves the old one
whole.  A name the user gives that is a terminal, a pipe, ``/dev/null`` or the command's own standard output
(``-o /dev/stdout``) is written into, never replaced.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "notes.html").write_text("my notes " + VIEW_PAGE.mark("<p>a page</p>"), encoding="utf-8")
>>> write(folder / "notes.html", "<p>page</p>", source="-o", kind=VIEW_PAGE)
Traceback (most recent call last):
...
engine.errors.InputError: -o: ... exists and was not written by arbiter view, or was changed since (...)
>>> write(folder / "page.html", "<p>page</p>", source="-o", kind=VIEW_PAGE)
>>> write(folder / "page.html", "<p>page, again</p>", source="-o", kind=VIEW_PAGE)
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import stat
import sys
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from types import TracebackType
from typing import TextIO

from attrs import frozen

from engine import seal as sealing
from engine.errors import InputError
from engine.jsonio import show

__all__ = [
    "CAMPAIGN_JSON",
    "CAMPAIGN_MD",
    "PERFT_FILE",
    "RECORD",
    "RULES_DOCS",
    "SUITE_FILE",
    "SVG_PICTURE",
    "VECTORS_MANIFEST",
    "VECTOR_CASE",
    "VIEW_PAGE",
    "Folder",
    "Kind",
    "guard",
    "shown",
    "write",
]

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


@frozen
class Kind:
    """A kind of output: the command that writes it (``writer``), its seal's ``tag`` and ``place`` (``None``:
    proven by a manifest listing it), whether ``--force`` exists (``force_flag``), and ``legacy``, a pattern
    of the first lines an earlier version wrote without a seal (said in the refusal, never taken as proof)."""

    writer: str
    tag: str
    place: sealing.Place | None
    force_flag: str | None = None
    legacy: str = ""

    def mark(self, text: str) -> str:
        """``text`` sealed as this kind's file (as :func:`write` writes it; sealed text is kept as it is)."""
        if self.place is None:
            return text
        return sealing.seal(text, self.tag, self.place)

    def looks_legacy(self, head: bytes) -> bool:
        """Whether the first lines look like this kind's file from before seals (for the message only)."""
        lines = b"\n".join(head.split(b"\n", 2)[:2]).decode("utf-8", "replace")
        return bool(self.legacy) and re.search(self.legacy, lines) is not None


VIEW_PAGE = Kind("arbiter view", "view",
                 sealing.in_comment("Written by arbiter view: a generated page, replaced when the record is "
                                    "viewed again"), "--force",
                 re.escape("<!-- Written by arbiter view: a generated page, replaced when the record is "
                           "viewed again. -->"))
"""``arbiter view``'s page."""
SVG_PICTURE = Kind("arbiter show", "show", sealing.in_comment("Written by arbiter show"), "--force",
                   re.escape("<!-- Written by arbiter show. -->"))
"""``arbiter show -o``'s picture."""
RECORD = Kind("arbiter", "record", sealing.record_source, None,
              r'^\{"type":"header".*"implementation":"arbiter-rules"|^\{"type":"header".*"version":"fuzzed"')
"""A game record this engine wrote (``play --record``, a fuzz run's records): sealed in its header's
``source``."""
CAMPAIGN_JSON = Kind("arbiter fuzz", "report", sealing.json_member, None,
                     r'"format": "arbiter-campaign-report"')
"""A campaign's JSON report."""
CAMPAIGN_MD = Kind("arbiter fuzz", "report", sealing.in_comment("Written by arbiter fuzz"), None,
                   r"^# Conformance campaign: ")
"""A campaign's Markdown report."""
VECTORS_MANIFEST = Kind("arbiter vectors export", "manifest", sealing.json_member, "--force",
                        r'"format": "arbiter-vectors"')
"""An exported suite's ``manifest.json``: it lists the export's files with their digests."""
SUITE_FILE = Kind("arbiter vectors export", "suite", None, "--force")
"""A file of an exported suite (cases, perft counts, schemas), proven by the manifest's digest of it: the
suite's formats are read by other implementations and stay as the schemas say."""
VECTOR_CASE = Kind("arbiter fuzz", "vector", sealing.json_member, None, r'^\{"id":.*"clauses":.*"kind":')
"""A test vector a fuzz campaign writes for a class (its schema allows a first member ``seal``)."""
PERFT_FILE = Kind("arbiter vectors perft", "perft", sealing.json_member, "--force",
                  r'^\{"id":.*"game":.*"counts":')
"""``arbiter vectors perft --write``'s file (the first perft line holds the seal, which readers ignore)."""
_DOCS_LABEL = "Written by `arbiter rules --write-docs docs/rules` from spec/; edit spec/, not this page."
RULES_DOCS = Kind("arbiter rules --write-docs", "docs", sealing.in_comment(_DOCS_LABEL), None,
                  "^" + re.escape(f"<!-- {_DOCS_LABEL} -->"))
"""A page of the rules reference (``docs/rules/``)."""

_WRITERS = {k.tag: k.writer for k in (VIEW_PAGE, SVG_PICTURE, RECORD, CAMPAIGN_JSON, VECTORS_MANIFEST,
                                       VECTOR_CASE, PERFT_FILE, RULES_DOCS)}


def shown(path: str | Path) -> str:
    """A path for a message: escaped (a newline in a name stays ``\\n``), a long one cut to its end."""
    text = str(path)
    if len(text) > 60:
        text = "…" + text[-59:]
    return show(text)


def _how(kind: Kind) -> str:
    if kind.force_flag:
        return f" ({kind.force_flag} replaces it)"
    return " (remove it or choose another name)"


def _failed(source: str, what: str, exc: OSError | ValueError) -> InputError:
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return InputError(source, f"cannot write {what}: {reason}")


_Identity = tuple[int, int, int, int]


def _identity(status: os.stat_result) -> _Identity:
    return status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns


class Folder:
    """An output folder, opened once; every file in it is checked, written and removed relative to it,
    no link followed.

    ``path`` is the folder the user names (created with its parents when ``create``); without ``create`` a
    missing folder is an empty one (nothing to check, nothing written).  ``source`` names the argument in
    errors.

    >>> import tempfile
    >>> with Folder(tempfile.mkdtemp(), source="--out") as out:
    ...     digest = out.write("01-x.vector.json", '{"id": "x"}\\n', kind=VECTOR_CASE)
    ...     out.check("01-x.vector.json", kind=VECTOR_CASE)
    ...     out.names()
    ['01-x.vector.json']
    """

    def __init__(self, path: str | Path | None, *, source: str, create: bool = False,
                 label: str | None = None) -> None:
        self.source = source
        self.shown = label or shown(path or "")
        self.prefix = ""
        """The folder's path inside the one the user named (``schemas/``), for messages."""
        self.fd: int | None = None
        if path is None:  # a sub-folder not there yet (see sub)
            return
        try:
            if create:
                os.makedirs(path, exist_ok=True)
            self.fd = os.open(path, os.O_RDONLY | _DIRECTORY | _CLOEXEC)
        except FileNotFoundError:
            if create:
                raise InputError(source, f"cannot use the folder {self.shown}: cannot create it") from None
        except NotADirectoryError:
            if create:
                raise InputError(source, f"cannot use the folder {self.shown}: a file blocks it") from None
            raise InputError(source, f"{self.shown} is not a folder") from None
        except (OSError, ValueError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise InputError(source, f"cannot use the folder {self.shown}: {reason}") from None

    def __enter__(self) -> Folder:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """Close the folder (its files were written when :meth:`write` returned)."""
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def _name(self, name: str) -> str:
        return shown(self.prefix + name)

    def _opened(self, fd: int | None, name: str) -> Folder:
        folder = Folder(None, source=self.source, label=self._name(name))
        folder.fd, folder.prefix = fd, f"{self.prefix}{name}/"
        return folder

    def sub(self, name: str, *, create: bool = False) -> Folder:
        """The sub-folder ``name`` (created when ``create``); a link in its place is refused, not followed."""
        if self.fd is None:
            if create:
                raise InputError(self.source, f"cannot create {self._name(name)}")
            return self._opened(None, name)
        try:
            if create:
                with contextlib.suppress(FileExistsError):
                    os.mkdir(name, 0o777, dir_fd=self.fd)
            status = os.stat(name, dir_fd=self.fd, follow_symlinks=False)
        except FileNotFoundError:
            return self._opened(None, name)
        except (OSError, ValueError) as exc:
            raise _failed(self.source, self._name(name), exc) from None
        if stat.S_ISLNK(status.st_mode):
            raise InputError(self.source, f"{self._name(name)} is a link; not followed (remove it)")
        if not stat.S_ISDIR(status.st_mode):
            raise InputError(self.source, f"{self._name(name)} is not a folder; not replaced")
        try:
            fd = os.open(name, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC, dir_fd=self.fd)
        except (OSError, ValueError) as exc:
            raise _failed(self.source, self._name(name), exc) from None
        return self._opened(fd, name)

    def names(self) -> list[str]:
        """The names in the folder, sorted (none when it does not exist yet)."""
        return [] if self.fd is None else sorted(os.listdir(self.fd))

    def probe(self) -> None:
        """Make sure the folder can be written, before the work starts: a new file of a fresh name is
        created and removed (never an existing name, never through a link)."""
        if self.fd is None:
            raise InputError(self.source, f"cannot write to {self.shown}")
        name = f".arbiter-probe-{secrets.token_hex(8)}"
        try:
            os.close(os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o600,
                             dir_fd=self.fd))
            os.unlink(name, dir_fd=self.fd)
        except OSError as exc:
            raise _failed(self.source, f"to {self.shown}", exc) from None

    def status(self, name: str) -> os.stat_result | None:
        """The status of ``name`` itself (a link is not followed), ``None`` when there is none."""
        if self.fd is None:
            return None
        try:
            return os.stat(name, dir_fd=self.fd, follow_symlinks=False)
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            raise _failed(self.source, self._name(name), exc) from None

    def _read(self, name: str) -> Iterator[bytes]:
        """The file's bytes in chunks, the first :data:`engine.seal.SCAN` bytes first."""
        assert self.fd is not None
        fd = os.open(name, os.O_RDONLY | _NOFOLLOW | _NONBLOCK | _CLOEXEC, dir_fd=self.fd)
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise OSError(0, "not a regular file")
            yield handle.read(sealing.SCAN)
            while chunk := handle.read(1 << 20):
                yield chunk

    def read(self, name: str, limit: int = 16 << 20) -> bytes:
        """The content of the regular file ``name`` (a link is not followed), at most ``limit`` bytes."""
        if self.fd is None:
            raise FileNotFoundError(name)
        data = b""
        for chunk in self._read(name):
            data += chunk
            if len(data) > limit:
                raise OSError(0, f"more than {limit} bytes")
        return data

    def refusal(self, name: str, *, kind: Kind, force: bool = False, digests: Mapping[str, str] | None = None,
                where: str | None = None) -> tuple[str | None, _Identity | None]:
        """Why ``name`` may not be replaced (``None``: it may), and the identity of the file found there;
        ``where`` names it in the message (default: the folder and the name)."""
        status = self.status(name)
        if status is None:
            return None, None
        where = where or self._name(name)
        if stat.S_ISLNK(status.st_mode):
            return (None if force else f"{where} is a link; not followed" + _how(kind)), _identity(status)
        if not stat.S_ISREG(status.st_mode):
            return f"{where} is a folder or a device; not replaced", None
        if force:
            return None, _identity(status)
        try:
            chunks = self._read(name)
            head = next(chunks, b"")
            tags, digest = sealing.sealed_with(head, chunks)
        except OSError as exc:
            raise InputError(self.source, f"cannot read {where}: {exc.strerror or exc}") from None
        if kind.tag in tags or (digests is not None and digests.get(name) == digest):
            return None, _identity(status)
        if tags:
            other = _WRITERS.get(tags[0], "another arbiter command")
            return f"{where} was written by {other}, not by {kind.writer}; not replaced" + _how(kind), None
        if kind.looks_legacy(head):
            return (f"{where} looks like a file an earlier arbiter version wrote, without the seal this "
                    "version checks; not replaced" + _how(kind)), None
        return f"{where} exists and was not written by {kind.writer}, or was changed since" + _how(kind), None

    def check(self, name: str, *, kind: Kind, force: bool = False, digests: Mapping[str, str] | None = None,
              where: str | None = None) -> None:
        """Refuse (InputError naming the file) to replace ``name`` unless this command can prove it wrote it
        (:meth:`refusal`)."""
        reason, _ = self.refusal(name, kind=kind, force=force, digests=digests, where=where)
        if reason is not None:
            raise InputError(self.source, reason)

    def write(self, name: str, text: str, *, kind: Kind, force: bool = False,
              digests: Mapping[str, str] | None = None, where: str | None = None) -> str:
        """Write ``text`` sealed as ``kind`` to ``name`` as :meth:`check` allows; returns the SHA-256 of the
        bytes written."""
        reason, found = self.refusal(name, kind=kind, force=force, digests=digests, where=where)
        if reason is not None:
            raise InputError(self.source, reason)
        if self.fd is None:
            raise InputError(self.source, f"cannot write {where or self._name(name)}: no folder {self.shown}")
        data = kind.mark(text).encode("utf-8")
        self._replace(name, data, found, where or self._name(name))
        return sealing.sealed_with(data[: sealing.SCAN], [data[sealing.SCAN :]])[1]

    def _replace(self, name: str, data: bytes, found: _Identity | None, where: str) -> None:
        assert self.fd is not None
        temporary = f".{name[:80]}.{secrets.token_hex(6)}.tmp"
        try:
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o666,
                         dir_fd=self.fd)
        except (OSError, ValueError) as exc:
            raise _failed(self.source, where, exc) from None
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            now = self.status(name)
            if (None if now is None else _identity(now)) != found:
                raise InputError(self.source, f"{where} changed while it was being written; not replaced")
            if now is not None and stat.S_ISREG(now.st_mode):
                os.chmod(temporary, stat.S_IMODE(now.st_mode), dir_fd=self.fd)
            os.replace(temporary, name, src_dir_fd=self.fd, dst_dir_fd=self.fd)
        except OSError as exc:
            self._discard(temporary)
            raise _failed(self.source, where, exc) from None
        except BaseException:
            self._discard(temporary)
            raise

    def _discard(self, name: str) -> None:
        with contextlib.suppress(OSError):
            os.unlink(name, dir_fd=self.fd)

    def remove(self, name: str, *, kind: Kind) -> bool:
        """Remove ``name`` when this command can prove it wrote it; ``False`` (left alone) otherwise."""
        reason, found = self.refusal(name, kind=kind)
        if reason is not None or found is None or self.fd is None:
            return False
        os.unlink(name, dir_fd=self.fd)
        return True


def _same(a: str | Path, b: str | Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def _stream(path: str | Path) -> TextIO | str | None:
    """Where to write when the named path is a stream, written into and never replaced: the command's own
    standard output or error (``-o /dev/stdout``, also when it is a file the shell opened), else the path of
    a terminal, a pipe or ``/dev/null``; ``None`` for anything else."""
    try:
        status = os.stat(path)  # the name the user gave, followed: /dev/stdout is a link to the stream
    except (OSError, ValueError):
        return None
    for fd, stream in ((1, sys.stdout), (2, sys.stderr)):
        try:
            if os.path.samestat(status, os.fstat(fd)):
                return stream
        except OSError:
            continue
    if stat.S_ISCHR(status.st_mode) or stat.S_ISFIFO(status.st_mode):
        return str(path)
    return None


def _parent(path: str | Path, source: str, *, missing_ok: bool = False) -> tuple[Folder, str]:
    """The folder of a file the user names (opened as named) and the file's name in it (``missing_ok``: a
    folder that is not there is returned unopened)."""
    text = os.fspath(path)
    head, name = os.path.split(text)
    if name in ("", ".", ".."):
        raise InputError(source, f"{shown(text)} is a folder; not replaced")
    try:
        folder = Folder(head or ".", source=source)
    except InputError:
        folder = Folder(None, source=source)
    if folder.fd is None and not missing_ok:
        raise InputError(source, f"cannot write {shown(text)}: no folder {shown(head or '.')}")
    return folder, name


def guard(path: str | Path, *, source: str, kind: Kind, force: bool = False,
          inputs: Iterable[str | Path] = ()) -> Path:
    """The target ``path`` if the command may write it (checked before the work starts), else an
    :class:`InputError` naming ``source``: never one of ``inputs``, never a folder or a disk device, a link
    only with ``force`` (the link is replaced, not followed), an existing file only when this command can
    prove it wrote it (or ``force``); a stream (a terminal, a pipe, ``/dev/null``, standard output) is
    written into."""
    for given in inputs:
        if str(given) != "-" and _same(path, given):
            raise InputError(source, f"{shown(path)} is the input; write the output elsewhere")
    if _stream(path) is not None:
        return Path(path)
    folder, name = _parent(path, source, missing_ok=True)  # no folder: said by the write, after the input
    with folder:
        folder.check(name, kind=kind, force=force, where=shown(path))
    return Path(path)


def write(path: str | Path, text: str, *, source: str, kind: Kind, force: bool = False,
          inputs: Iterable[str | Path] = ()) -> None:
    """Write ``text``, sealed as ``kind``, to ``path`` as :func:`guard` allows: into a stream, or to a new
    temporary file beside the target, renamed over it."""
    guard(path, source=source, kind=kind, force=force, inputs=inputs)
    data = kind.mark(text)
    stream = _stream(path)
    if not isinstance(stream, str | type(None)):
        stream.write(data)
        stream.flush()
        return
    if stream is not None:  # a terminal or a pipe: opened without waiting for a reader
        try:
            fd = os.open(stream, os.O_WRONLY | _NONBLOCK | getattr(os, "O_NOCTTY", 0) | _CLOEXEC)
            os.set_blocking(fd, True)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(data)
        except OSError as exc:
            raise _failed(source, shown(path), exc) from None
        return
    folder, name = _parent(path, source)
    with folder:
        folder.write(name, data, kind=kind, force=force, where=shown(path))
