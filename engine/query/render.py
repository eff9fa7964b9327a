"""Terminal and JSON output for query answers: aligned columns and wrapped prose, never walls of JSON.

>>> print("\\n".join(table(["id", "text"], [["T6-X-1", "short"], ["SP-LONGER-12", "also short"]])))
id            text
------------  ----------
T6-X-1        short
SP-LONGER-12  also short
"""

from __future__ import annotations

import json
import re
import shutil
import textwrap
from collections.abc import Iterable, Sequence
from typing import Any

from engine.query.model import Answer, Step

__all__ = ["dumps", "quote_line", "render_answer", "ruling_lines", "table", "terminal_width", "wrap"]


def terminal_width(default: int = 100) -> int:
    """The width to wrap at: the terminal's, clamped to 72..120 (``default`` when not a terminal)."""
    cols = shutil.get_terminal_size((default, 24)).columns
    return max(72, min(cols, 120))


def wrap(text: str, width: int, indent: str = "", first: str | None = None) -> list[str]:
    """Wrap ``text`` to ``width`` columns; ``first`` prefixes the first line (default ``indent``).

    >>> wrap("one two three four five six seven eight", 24, indent="  ")
    ['  one two three four', '  five six seven eight']
    """
    lead = indent if first is None else first
    out = textwrap.wrap(
        " ".join(text.split()),
        width=max(20, width),
        initial_indent=lead,
        subsequent_indent=indent,
        break_long_words=False,
        break_on_hyphens=False,
    )
    return out or [lead.rstrip()]


def table(
    headers: Sequence[str],
    rows: Iterable[Sequence[Any]],
    *,
    width: int | None = None,
    indent: str = "",
) -> list[str]:
    """Aligned columns with a rule under the header; the last column wraps to ``width`` if given.

    >>> table(["n", "bullheads"], [[5, 2], [55, 7]])
    ['n   bullheads', '--  ---------', '5   2', '55  7']
    """
    body = [[str(x) for x in row] for row in rows]
    cols = len(headers)
    widths = [len(h) for h in headers]
    for row in body:
        for i, cell in enumerate(row[:cols]):
            if i < cols - 1 or width is None:
                widths[i] = max(widths[i], len(cell))
    if width is not None:
        lead = sum(widths[:-1]) + 2 * (cols - 1) + len(indent)
        widths[-1] = max(widths[-1], min(max((len(r[-1]) for r in body), default=0), max(20, width - lead)))

    def line(cells: Sequence[str]) -> list[str]:
        head = "".join(c.ljust(widths[i] + 2) for i, c in enumerate(cells[:-1]))
        last = cells[-1] if cells else ""
        if width is None or len(last) <= widths[-1]:
            return [(indent + head + last).rstrip()]
        pieces = textwrap.wrap(last, widths[-1], break_long_words=False) or [""]
        pad = " " * len(head)
        return [(indent + head + pieces[0]).rstrip()] + [(indent + pad + p).rstrip() for p in pieces[1:]]

    out = line(list(headers))
    out.append((indent + "  ".join("-" * w for w in widths)).rstrip())
    for row in body:
        out.extend(line(row + [""] * (cols - len(row))))
    return out


def quote_line(seed: str, where: str, quote: str, width: int, indent: str = "") -> list[str]:
    """A seed passage as wrapped lines: ``seed 003 · where: "quote"``."""
    text = f'seed {seed} · {where}: "{" ".join(quote.split())}"'
    return wrap(text, width, indent=indent + "  ", first=indent)


def _step_lines(index: int, step: Step, width: int) -> list[str]:
    tag = step.clause or "fact"
    value = "" if step.value is None else f"  → {_short(step.value)}"
    out = wrap(f"{step.detail}{value}", width, indent=" " * 18, first=f"  {index:>2}. {tag:<11} ")
    if step.rule:
        out.extend(wrap(step.rule, width, indent=" " * 18, first=" " * 16 + "  "))
    if step.cite is not None:
        out.extend(quote_line(step.cite.seed, step.cite.where, step.cite.quote, width, indent=" " * 18))
    if step.ruling is not None and step.ruling.rejects:
        label = "the ruling, not applied" if step.ruling.chosen else "a ruling; rejected reading"
        out.extend(wrap(f"{label}: {step.ruling.rejects}", width, indent=" " * 20, first=" " * 18 + "! "))
    return out


def ruling_lines(answer: Answer, width: int) -> list[str]:
    """The marked lines of the rulings an answer rests on, each with the reading its first step applies
    and how to ask for the other reading (``[]`` when it rests on none).

    >>> from engine.query.model import Step
    >>> a = Answer("demo", "take6", "?", "shared", None,
    ...            steps=[Step.of("T6-END-3", "P0 and P1 share the win")])
    >>> ruling_lines(a, 100)
    ['   ! ruling T6-END-3: P0 and P1 share the win; no option reads it otherwise']
    """
    out: list[str] = []
    for ruling in answer.rulings:
        reading = next(_reading(s) for s in answer.steps if s.ruling == ruling)
        # a `--option NAME=VALUE` is kept on one line, so it can be copied
        mark = re.sub(r"`[^`]*`", lambda m: m.group(0).replace(" ", "\0"), ruling.mark(reading))
        out.extend(line.replace("\0", " ") for line in wrap(mark, width, indent="     ", first="   ! "))
    return out


def _reading(step: Step) -> str:
    """What a step says the ruling reads: its own words, or the clause's wording where the step only
    lists the clause (``rule``, ``mentions``, ``disputed``, ``end`` answers: a topic label, the why)."""
    detail = step.detail.strip()
    listing = " · " in detail or detail.startswith("why: ") or len(detail.split()) < 3
    if listing:  # the clause's wording is the ruling's reading, not an option's
        chosen = step.ruling is not None and step.ruling.chosen
        detail = "" if chosen else step.rule
    return detail.rstrip(".")


def _short(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float, str)):
        return str(value)
    return json.dumps(value, ensure_ascii=False)


def render_answer(answer: Answer, *, width: int | None = None, brief: bool = False) -> list[str]:
    """The readable form of an answer: question, answer, then the table, the clause chain and notes.

    >>> print("\\n".join(render_answer(Answer("demo", None, "What is 2 + 2?", "4", 4))))
    Q: What is 2 + 2?
    A: 4
    """
    w = width or terminal_width()
    out = wrap(answer.question, w, indent="   ", first="Q: ")
    out.extend(wrap(answer.summary, w, indent="   ", first="A: "))
    out.extend(ruling_lines(answer, w))
    if brief:
        return out
    if answer.headers:
        out.append("")
        out.extend(table(answer.headers, answer.rows, width=w, indent="   "))
    if answer.steps:
        out.append("")
        out.append("   Why (clauses applied, in order):")
        for i, step in enumerate(answer.steps, start=1):
            out.extend(_step_lines(i, step, w))
    if answer.notes:
        out.append("")
        for note in answer.notes:
            out.extend(wrap(note, w, indent="     ", first="   * "))
    return out


def dumps(data: Any) -> str:
    """JSON for machines: indented, UTF-8 kept (German and Russian names stay readable).

    >>> dumps({"name": "Zar Peter"})
    '{\\n  "name": "Zar Peter"\\n}'
    """
    return json.dumps(data, ensure_ascii=False, indent=2)
