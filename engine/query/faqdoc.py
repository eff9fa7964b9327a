"""The executable blocks of a question-and-answer document (``docs/faq.md``, ``docs/queries.md``), parsed:
each ```` ```faq ```` block's command and what the engine must say (see :mod:`engine.query.faq`, which runs
them).  Parsing needs nothing of the engine, so the search can rank the FAQ's answers
(:mod:`engine.query.ranking`) without the command runner.

>>> doc = "\\n".join(["## Demo", "### Q: What does T6-DECK-1 say?", "```faq", "arbiter ask rule T6-DECK-1",
...                  'value: "T6-DECK-1"', "```"])
>>> [e.command for e in parse_faq(doc)]
['arbiter ask rule T6-DECK-1']
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from attrs import frozen

from engine.errors import InputError

__all__ = ["FaqEntry", "parse_faq", "read_faq"]

_NOTHING = object()


@frozen
class FaqEntry:
    """One executable answer: where it is, the question, the command and the expectations."""

    section: str
    question: str
    command: str
    line: int
    value: Any = _NOTHING
    clauses: tuple[str, ...] = ()
    summary: str | None = None
    error: str | None = None
    rulings: tuple[str, ...] | None = None

    @property
    def has_value(self) -> bool:
        """True when the block states an expected value."""
        return self.value is not _NOTHING


def parse_faq(text: str, *, name: str = "faq") -> list[FaqEntry]:
    """The executable blocks of a Markdown document (InputError names the file and line of a bad block)."""
    entries: list[FaqEntry] = []
    section = question = ""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        raw = lines[i]
        if raw.startswith("## "):
            section = raw[3:].strip()
        elif raw.startswith("### "):
            question = raw[4:].strip()
        elif raw.strip() == "```faq":
            start = i + 1
            body: list[str] = []
            i += 1
            while i < len(lines) and lines[i].strip() != "```":
                body.append(lines[i])
                i += 1
            if i >= len(lines):
                raise InputError(f"{name} line {start}", "unclosed ```faq block")
            entries.append(_entry(section, question, body, start, name))
        i += 1
    return entries


def _entry(section: str, question: str, body: list[str], start: int, name: str) -> FaqEntry:
    content = [(n, ln.strip()) for n, ln in enumerate(body, start=start + 1) if ln.strip()]
    if not content or not content[0][1].startswith(("arbiter ask ", "arbiter explain ")):
        raise InputError(f"{name} line {start}",
                         "a faq block starts with an 'arbiter ask ...' or 'arbiter explain ...' command")
    fields: dict[str, Any] = {}
    for number, text in content[1:]:
        key, sep, rest = text.partition(":")
        key = key.strip()
        rest = rest.strip()
        if not sep or key not in ("value", "clauses", "summary", "error", "rulings"):
            raise InputError(f"{name} line {number}",
                             f"expected value:, clauses:, summary:, rulings: or error:, got {text!r}")
        if key == "value":
            try:
                fields["value"] = json.loads(rest)
            except json.JSONDecodeError as exc:
                raise InputError(f"{name} line {number}", f"value is not JSON: {exc.msg}") from None
        elif key == "clauses":
            fields["clauses"] = tuple(c.strip() for c in rest.split(",") if c.strip())
        elif key == "rulings":
            listed = () if rest == "none" else rest.split(",")
            fields["rulings"] = tuple(c.strip() for c in listed if c.strip())
        else:
            fields[key] = rest
    if "error" in fields and ("value" in fields or "clauses" in fields or "rulings" in fields):
        raise InputError(f"{name} line {start}", "an error block expects nothing else")
    if not fields:
        raise InputError(f"{name} line {start}", "a faq block states at least one expectation")
    return FaqEntry(section, question, content[0][1], content[0][0], **fields)


def read_faq(path: Path) -> list[FaqEntry]:
    """Parse a Markdown file's executable blocks."""
    return parse_faq(path.read_text(encoding="utf-8"), name=path.name)
