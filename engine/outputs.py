"""Writing a command's output file without destroying what the command did not write.

Every file a command writes (``arbiter view``'s page, ``show -o``, ``play --record``, ``fuzz --out`` and
``--report``, ``rules --write-docs``, ``vectors export`` and ``vectors perft --write``) goes through
:func:`write`, with the :class:`Kind` of file it writes.
An existing file is replaced only when it is one the command itself wrote: its first lines carry the kind's
marker (a generated page's comment, a record's header naming this engine or a fuzz run, a report's
``format``), or ``force`` says so.  Whatever ``force`` says, the command's own input is never overwritten
and a folder or a disk device never is (``/dev/null``, a terminal or a pipe is written into, not replaced).
The text is written to a temporary file beside the target and renamed over it, so an interrupted write
leaves the old file whole.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "notes.html").write_text("my notes", encoding="utf-8")
>>> write(folder / "notes.html", VIEW_PAGE.mark("<p>page</p>"), source="-o", kind=VIEW_PAGE)
Traceback (most recent call last):
...
engine.errors.InputError: -o: ... exists and was not written by arbiter view (--force replaces it)
"""

from __future__ import annotations

import os
import re
import stat
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

from attrs import frozen

from engine.errors import InputError
from engine.jsonio import show

__all__ = [
    "CAMPAIGN_JSON",
    "CAMPAIGN_MD",
    "PERFT_FILE",
    "RECORD",
    "SVG_PICTURE",
    "VECTORS_MANIFEST",
    "VECTOR_CASE",
    "VIEW_PAGE",
    "Kind",
    "guard",
    "write",
]

HEAD = 4096
"""How much of an existing file is read to find its marker."""


@frozen
class Kind:
    """A kind of output: the command that writes it, how its marker is put in (``mark``) and found
    (``generated``, given the file's first :data:`HEAD` characters), and whether ``--force`` exists."""

    writer: str
    generated: Callable[[str], bool]
    marker: str = ""
    force_flag: str | None = None

    def mark(self, text: str) -> str:
        """``text`` with the marker put in: after an HTML doctype line, else first."""
        if not self.marker:
            return text
        doctype = "<!DOCTYPE html>\n"
        if text.startswith(doctype):
            return f"{doctype}{self.marker}\n{text[len(doctype) :]}"
        return f"{self.marker}\n{text}"


def _has(marker: str) -> Callable[[str], bool]:
    # the first line or, after a doctype, the second
    return lambda head: marker in "\n".join(head.split("\n", 2)[:2])


VIEW_MARKER = "<!-- Written by arbiter view: a generated page, replaced when the record is viewed again. -->"
VIEW_PAGE = Kind("arbiter view", _has(VIEW_MARKER), VIEW_MARKER, "--force")
"""``arbiter view``'s page."""
SVG_MARKER = "<!-- Written by arbiter show. -->"
SVG_PICTURE = Kind("arbiter show", lambda head: head.startswith(SVG_MARKER), SVG_MARKER, "--force")
"""``arbiter show -o``'s picture."""

_OURS = re.compile(r'"implementation"\s*:\s*"arbiter-rules"|"version"\s*:\s*"fuzzed"')


def _our_record(head: str) -> bool:
    first = head.split("\n", 1)[0]
    return '"arbiter-record"' in first and '"header"' in first and bool(_OURS.search(first))


RECORD = Kind("arbiter", _our_record)
"""A game record this engine wrote (``play --record``, a fuzz run's records): its header's ``source``
names the engine (``arbiter-rules``) or a fuzz run (version ``fuzzed``)."""
CAMPAIGN_JSON = Kind("arbiter fuzz", lambda head: '"format": "arbiter-campaign-report"' in head[:200])
"""A campaign's JSON report."""
CAMPAIGN_MD = Kind("arbiter fuzz", lambda head: head.startswith("# Conformance campaign: "))
"""A campaign's Markdown report."""


VECTORS_MANIFEST = Kind("arbiter vectors export", lambda head: '"format": "arbiter-vectors"' in head[:200],
                        force_flag="--force")
"""An exported suite's ``manifest.json``; the files it lists (and ``schemas/``) are the export's own."""


def _vector_case(head: str) -> bool:
    first = head.split("\n", 1)[0]
    return first.startswith('{"id":') and '"clauses":' in first and '"kind":' in first


VECTOR_CASE = Kind("arbiter", _vector_case)
"""A test vector (a case: ``id``, ``clauses``, ``kind``), as a fuzz campaign writes one per class."""


def _perft_file(head: str) -> bool:
    first = head.split("\n", 1)[0]
    return first.startswith('{"id":') and '"counts":' in first and '"game":' in first


PERFT_FILE = Kind("arbiter vectors perft", _perft_file, force_flag="--force")
"""``arbiter vectors perft --write``'s file: perft lines (``id``, ``game``, ``counts``) from its first."""


def _same(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def guard(path: str | Path, *, source: str, kind: Kind, force: bool = False,
          inputs: Iterable[str | Path] = ()) -> Path:
    """The target ``path`` if the command may write it, else an :class:`InputError` naming ``source``: never
    one of ``inputs``, never anything but a regular file, and an existing file only when ``kind`` finds its
    marker in it (or ``force``)."""
    target = Path(path)
    shown = _named(path)
    for given in inputs:
        if str(given) != "-" and _same(target, Path(given)):
            raise InputError(source, f"{shown} is the input; write the output elsewhere")
    try:
        status = os.lstat(target)
    except FileNotFoundError:
        return target
    except OSError as exc:
        raise InputError(source, f"cannot write {shown}: {exc.strerror or exc}") from None
    if stat.S_ISLNK(status.st_mode) and not force:
        raise InputError(source, f"{shown} is a link; not replaced" + _how(kind))
    try:
        status = os.stat(target)
    except OSError as exc:
        raise InputError(source, f"cannot write {shown}: {exc.strerror or exc}") from None
    if stat.S_ISCHR(status.st_mode) or stat.S_ISFIFO(status.st_mode):
        return target  # /dev/null, a terminal, a pipe: written into, never replaced
    if not stat.S_ISREG(status.st_mode):
        raise InputError(source, f"{shown} is a folder or a disk device; not replaced")
    if force:
        return target
    try:
        with target.open("rb") as handle:
            head = handle.read(HEAD).decode("utf-8", "replace")
    except OSError as exc:
        raise InputError(source, f"cannot read {shown}: {exc.strerror or exc}") from None
    if not kind.generated(head):
        raise InputError(source, f"{shown} exists and was not written by {kind.writer}" + _how(kind))
    return target


def _named(path: str | Path) -> str:
    """The path for a message, escaped; a long one keeps its end (the file's own name)."""
    text = str(path)
    if len(text) > 60:
        text = "…" + text[-59:]
    return show(text)


def _how(kind: Kind) -> str:
    if kind.force_flag:
        return f" ({kind.force_flag} replaces it)"
    return " (remove it or choose another name)"


def write(path: str | Path, text: str, *, source: str, kind: Kind, force: bool = False,
          inputs: Iterable[str | Path] = ()) -> None:
    """Write ``text`` (UTF-8) to ``path`` as :func:`guard` allows: to a temporary file beside it, renamed
    over it."""
    target = guard(path, source=source, kind=kind, force=force, inputs=inputs)
    try:
        stream = not stat.S_ISREG(os.stat(target).st_mode)
    except OSError:
        stream = False
    if stream:  # a character device or a pipe: opened without waiting for a reader
        try:
            fd = os.open(target, os.O_WRONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
            os.set_blocking(fd, True)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
        except OSError as exc:
            raise InputError(source, f"cannot write {_named(path)}: {exc.strerror or exc}") from None
        return
    folder = target.parent if str(target.parent) else Path()
    try:
        fd, temporary = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise InputError(source, f"cannot write {_named(path)}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, target)
    except OSError as exc:
        Path(temporary).unlink(missing_ok=True)
        raise InputError(source, f"cannot write {_named(path)}: {exc.strerror or exc}") from None
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
