"""Executable question-and-answer documents: ``docs/faq.md`` and ``docs/queries.md``.

Each answer carries a fenced block with the info string ``faq``: the ``arbiter ask`` command that answers it,
then what the engine must say::

    ```faq
    arbiter ask bullheads 55
    value: 7
    clauses: T6-BULL-1
    ```

* ``value:`` — JSON; the answer's ``value`` must equal it (for an object: every key given must be equal,
  other keys are not checked; for a list of objects: the first items must match);
* ``clauses:`` — ids the answer's chain of clauses must include;
* ``summary:`` — words the one-line answer must contain;
* ``rulings:`` — the rulings the answer rests on, exactly (``none`` for none; an option's other reading of a
  ruling is written ``SP-END-6 (option keep_roubles=false)``), so the page says which rulings each answer
  rests on and cannot hide one;
* ``error:`` — the command must be refused with an InputError naming this field.

The test suite runs every block (:func:`check_entry`), so a document cannot drift from the engine.  The
``## `` heading above a block is its section (the FAQ has one per game); the ``### `` heading is its question.

>>> doc = "\\n".join(["## Demo", "### Q: What does T6-DECK-1 say?", "```faq", "arbiter ask rule T6-DECK-1",
...                  'value: "T6-DECK-1"', "```"])
>>> [e.command for e in parse_faq(doc)]
['arbiter ask rule T6-DECK-1']
>>> check_entry(parse_faq(doc)[0])
[]
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from attrs import frozen

from engine.errors import InputError
from engine.query.model import Answer

__all__ = ["FaqEntry", "check_entry", "parse_faq", "read_faq", "ruling_labels", "run_command"]

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


def run_command(command: str) -> Answer:
    """Run one ``arbiter ask ...`` / ``arbiter explain ...`` command line through the command-line parser
    and return its answer."""
    from engine.query.cli import answer_for_command

    return answer_for_command(command)


def ruling_labels(answer: Answer) -> tuple[str, ...]:
    """The rulings an answer rests on as a ``rulings:`` line writes them.

    >>> from engine.query.questions import ask
    >>> ruling_labels(ask("standings", {"game": "petersburg", "scores": [23, 23], "money": [30, 19],
    ...                                 "option": ["keep_roubles=false"]}))
    ('SP-END-6 (option keep_roubles=false)',)
    """
    return tuple(f"{r.id} (option {r.option})" if r.chosen else r.id for r in answer.rulings)


def _matches(expected: Any, actual: Any) -> bool:
    """Equal, except that an object matches when the keys it gives match, and a list of objects matches
    the first items of the actual list."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        return all(k in actual and _matches(v, actual[k]) for k, v in expected.items())
    if isinstance(expected, list) and isinstance(actual, list) and any(isinstance(x, dict) for x in expected):
        pairs = zip(expected, actual, strict=False)
        return len(actual) >= len(expected) and all(_matches(e, a) for e, a in pairs)
    return bool(json.loads(json.dumps(actual)) == expected)


def check_entry(entry: FaqEntry) -> list[str]:
    """Run an entry; return what disagrees (``[]`` when the engine says what the document says)."""
    where = f"line {entry.line} ({entry.question or entry.command})"
    try:
        answer = run_command(entry.command)
    except InputError as exc:
        if entry.error is not None:
            ok = exc.field == entry.error or exc.field.endswith(entry.error)
            return [] if ok else [f"{where}: refused on field {exc.field!r}, expected {entry.error!r}: {exc}"]
        return [f"{where}: {entry.command!r} failed: {exc}"]
    if entry.error is not None:
        return [f"{where}: expected an error on {entry.error!r}, got the answer {answer.summary!r}"]
    problems = []
    if entry.has_value and not _matches(entry.value, answer.value):
        problems.append(f"{where}: value {json.dumps(answer.value, ensure_ascii=False)} does not match "
                        f"{json.dumps(entry.value, ensure_ascii=False)}")
    missing = [c for c in entry.clauses if c not in answer.clauses]
    if missing:
        problems.append(f"{where}: the answer does not apply {', '.join(missing)} (it applies "
                        f"{', '.join(answer.clauses) or 'no clause'})")
    if entry.rulings is not None and sorted(entry.rulings) != sorted(ruling_labels(answer)):
        rests = ", ".join(ruling_labels(answer)) or "none"
        problems.append(f"{where}: the answer rests on the rulings {rests}, the block lists "
                        f"{', '.join(entry.rulings) or 'none'}")
    if entry.summary is not None and entry.summary not in answer.summary:
        problems.append(f"{where}: summary {answer.summary!r} does not contain {entry.summary!r}")
    return problems
