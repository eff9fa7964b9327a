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
from typing import Any

from engine.errors import InputError
from engine.query.faqdoc import FaqEntry, parse_faq, read_faq
from engine.query.model import Answer

__all__ = ["FaqEntry", "check_entry", "parse_faq", "read_faq", "ruling_labels", "run_command"]

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
