"""The seal a command puts in every file it writes, so that it can later prove it wrote the file.

A seal reads ``arbiter seal TAG HEX``: ``TAG`` names the kind of file (``view``, ``record``, ...) and ``HEX``
is the SHA-256 of the file's bytes as written, with ``HEX`` itself counted as 64 zeros.  It sits where the
file's format has room for it (:class:`Place`): an HTML or Markdown comment, a JSON document's first member
``seal``, a game record's ``header.source.seal``.  A file *proves* it was written as sealed when one of the
seals in its first :data:`SCAN` bytes verifies against its whole content: a page that merely quotes a seal,
a file of the same shape, or a generated file edited since, does not.

>>> page = seal("<!DOCTYPE html>\\n<p>page</p>\\n", "view", in_comment("Written by arbiter view"))
>>> page.splitlines()[1][:48] + " ... -->"
'<!-- Written by arbiter view (arbiter seal view  ... -->'
>>> proven_tags(page.encode())
['view']
>>> proven_tags(page.replace("page", "notes").encode())
[]
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from collections.abc import Callable, Iterable

__all__ = ["SCAN", "Place", "candidates", "in_comment", "json_member", "proven_tags", "record_source", "seal",
           "sealed_with"]

SCAN = 1 << 20
"""How far into a file its seal is looked for (a record's header line holds it, with the set-up before it)."""

MAX_CANDIDATES = 8
"""How many seal-like strings in that head are tried (text quoting seals comes after the writer's own)."""

PATTERN = re.compile(rb"arbiter seal ([a-z]+) ([0-9a-f]{64})")
_ZEROS = b"0" * 64

Place = Callable[[str, str], str]
"""Where a kind of file has room for its seal: ``place(text, seal)`` is ``text`` with ``seal`` put in."""


def in_comment(label: str) -> Place:
    """A comment line ``<!-- LABEL (SEAL) -->``: after an HTML doctype line, else first (a page, an SVG
    picture, a Markdown page)."""

    def place(text: str, seal: str) -> str:
        line = f"<!-- {label} ({seal}) -->\n"
        doctype = "<!DOCTYPE html>\n"
        if text.startswith(doctype):
            return doctype + line + text[len(doctype) :]
        return line + text

    return place


def json_member(text: str, seal: str) -> str:
    """The first member ``"seal"`` of the JSON object the text opens with (a report, a manifest, the first
    line of a JSON Lines file whose schema allows it)."""
    brace = text.index("{")
    return f'{text[: brace + 1]}"seal":{json.dumps(seal)},{text[brace + 1 :]}'


def record_source(text: str, seal: str) -> str:
    """A game record's header line (its first) with ``source.seal`` added: the record's schema leaves
    ``source`` open for what the writing implementation says of itself."""
    first, newline, rest = text.partition("\n")
    header = json.loads(first)
    source = header.get("source")
    header["source"] = {**(source if isinstance(source, dict) else {}), "seal": seal}
    return json.dumps(header, ensure_ascii=False, separators=(",", ":")) + newline + rest


def _digest(chunks: Iterable[bytes]) -> str:
    h = hashlib.sha256()
    for chunk in chunks:
        h.update(chunk)
    return h.hexdigest()


def seal(text: str, tag: str, place: Place) -> str:
    """``text`` sealed as a file of kind ``tag``; text already sealed so is returned as it is."""
    if tag in proven_tags(text.encode("utf-8")):
        return text
    token = secrets.token_hex(32)  # a unique stand-in: where the seal went, whatever the text around it says
    placed = place(text, f"arbiter seal {tag} {token}").encode("utf-8")
    at = placed.index(token.encode())
    zeroed = placed[:at] + _ZEROS + placed[at + 64 :]
    return (placed[:at] + _digest([zeroed]).encode() + placed[at + 64 :]).decode("utf-8")


def candidates(head: bytes) -> list[tuple[str, str, int]]:
    """The seal-like strings in a file's first bytes: (tag, hex, offset of the hex), at most
    :data:`MAX_CANDIDATES`."""
    out = []
    for match in PATTERN.finditer(head):
        out.append((match.group(1).decode(), match.group(2).decode(), match.start(2)))
        if len(out) == MAX_CANDIDATES:
            break
    return out


def sealed_with(head: bytes, rest: Iterable[bytes]) -> tuple[list[str], str]:
    """The tags whose seal verifies in a file read as ``head`` (its first :data:`SCAN` bytes or all of it)
    then ``rest``, and the digest of the whole file as it is (what an export's manifest lists)."""
    trials = []
    for tag, hexdigest, at in candidates(head):
        h = hashlib.sha256(head[:at] + _ZEROS + head[at + 64 :])
        trials.append((tag, hexdigest, h))
    whole = hashlib.sha256(head)
    for chunk in rest:
        whole.update(chunk)
        for _tag, _hex, h in trials:
            h.update(chunk)
    return [tag for tag, hexdigest, h in trials if h.hexdigest() == hexdigest], whole.hexdigest()


def proven_tags(data: bytes) -> list[str]:
    """The tags whose seal verifies in ``data`` (a whole file)."""
    return sealed_with(data[:SCAN], [data[SCAN:]])[0]
