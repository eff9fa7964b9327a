"""The outcomes of :mod:`engine.mutation`: the journal a run appends to, the score and the per-module table.

>>> OUTCOMES[-1]
'equivalent'
"""

from __future__ import annotations

import fnmatch
import json
import tomllib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Protocol, TypeVar

__all__ = [
    "EQUIVALENTS",
    "JOURNAL_RESULTS",
    "OUTCOMES",
    "Known",
    "equivalent_reason",
    "equivalents",
    "module_lines",
    "read_journal",
    "score_lines",
    "survivors_of",
]

EQUIVALENTS = Path(__file__).resolve().parent / "equivalents.toml"
"""The mutants listed as equivalent, each with its reason."""


class Mutant(Protocol):
    """What the report reads of a mutant (:class:`engine.mutation.mutant.Mutant`)."""

    @property
    def path(self) -> str: ...

    @property
    def line(self) -> int: ...

    @property
    def before(self) -> str: ...

    @property
    def after(self) -> str: ...

    @property
    def node(self) -> tuple[str, str]: ...

    def describe(self) -> str: ...


M = TypeVar("M", bound=Mutant)


Known = dict[tuple[str, str | None], str]
"""The equivalent mutants: (description pattern, source-line pattern or None) -> reason."""

ROOT = Path(__file__).resolve().parents[2]


def equivalents() -> Known:
    """The mutants shown equivalent (no behaviour can tell them apart), from equivalents.toml:
    (description pattern, pattern of the mutated line's source or None) -> reason.  Both are fnmatch
    patterns; ``source`` tells apart two mutants of a module whose descriptions are alike (the same change
    on two lines), matched against the original line, stripped."""
    if not EQUIVALENTS.is_file():
        return {}
    data = tomllib.loads(EQUIVALENTS.read_text(encoding="utf-8"))
    return {(row["mutant"], row.get("source")): row["reason"] for row in data.get("equivalent", [])}


def _source_line(path: str, line: int) -> str:
    try:
        lines = (ROOT / path).read_text(encoding="utf-8").splitlines()
    except OSError:
        return ""
    return lines[line - 1].strip() if 0 < line <= len(lines) else ""


def equivalent_reason(mutant: Mutant, known: Known) -> str | None:
    """Why ``mutant`` is equivalent, when an entry of ``known`` matches its description (and the source of
    its line, where the entry gives one).

    >>> class M:
    ...     path, line = "engine/mutation/report.py", 7
    ...     def describe(self) -> str: return "engine/mutation/report.py:7: a -> b"
    >>> change = "engine/mutation/report.py:*: a -> b"
    >>> equivalent_reason(M(), {(change, "from __future__ *"): "why"})  # type: ignore[arg-type]
    'why'
    >>> equivalent_reason(M(), {(change, "import *"): "why"}) is None  # type: ignore[arg-type]
    True
    """
    for (pattern, source), reason in known.items():
        if fnmatch.fnmatchcase(mutant.describe(), pattern) and (
            source is None or fnmatch.fnmatchcase(_source_line(mutant.path, mutant.line), source)
        ):
            return reason
    return None



JOURNAL_RESULTS = ("killed", "timeout", "survived")

OUTCOMES = ("killed", "timeout", "survived", "unconfirmed", "equivalent")
"""What :func:`run` groups the mutants by: ``unconfirmed`` survived a budgeted share of its tests only."""


def read_journal(path: Path) -> dict[str, tuple[str, float | None]]:
    """The outcomes a journal holds, by mutant description, each with the budget it survived within (None:
    all its tests ran); a missing file holds none; a line that is not ``{"mutant": ..., "result": ...}``
    stops the run naming the line.

    >>> import tempfile; p = Path(tempfile.mkdtemp()) / "j.jsonl"
    >>> _ = p.write_text('{"mutant": "a:1: x -> y", "result": "killed", "seconds": 2.0}\\n')
    >>> read_journal(p)
    {'a:1: x -> y': ('killed', None)}
    """
    if not path.exists():
        return {}
    if not path.is_file():
        raise SystemExit(f"mutation: --journal {path}: not a regular file")
    out: dict[str, tuple[str, float | None]] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except ValueError:
            entry = None
        if (
            not isinstance(entry, dict)
            or not isinstance(entry.get("mutant"), str)
            or entry.get("result") not in JOURNAL_RESULTS
            or not isinstance(entry.get("budget", 0), (int, float))
        ):
            raise SystemExit(f"mutation: --journal {path}, line {number}: not an outcome "
                             '{"mutant": "...", "result": "killed|timeout|survived"}')
        out[entry["mutant"]] = (entry["result"], entry.get("budget"))
    return out


def module_lines(mutants: Sequence[Mutant], outcome: Mapping[str, Sequence[Mutant]]) -> list[str]:
    """The per-module table (Markdown): mutants, killed, equivalent, survivors and the score of each file.

    The score is the share of the mutants not listed as equivalent that a test killed; a mutant that
    survived a budgeted share of its tests (*unconfirmed*) counts against it.

    >>> from engine.mutation.mutant import Mutant
    >>> m, u = Mutant("engine/x.py", 1, "a", "b", lambda: ""), Mutant("engine/x.py", 2, "a", "b", lambda: "")
    >>> module_lines([m, u], {"killed": [m], "unconfirmed": [u]})[-1]
    '| engine/x.py | 2 | 1 | 0 | 0 | 1 | 50.0% |'
    """
    status = {id(m): kind for kind, ms in outcome.items() for m in ms}
    out = [
        "| module | mutants | killed | equivalent | survived | unconfirmed | score |",
        "|---|---|---|---|---|---|---|",
    ]
    for path in sorted({m.path for m in mutants}):
        mine = [m for m in mutants if m.path == path]
        killed = sum(1 for m in mine if status.get(id(m)) in ("killed", "timeout"))
        equivalent = sum(1 for m in mine if status.get(id(m)) == "equivalent")
        survived = sum(1 for m in mine if status.get(id(m)) == "survived")
        unconfirmed = sum(1 for m in mine if status.get(id(m)) == "unconfirmed")
        scored = killed + survived + unconfirmed
        rate = f"{100.0 * killed / scored:.1f}%" if scored else "-"
        row = (path, len(mine), killed, equivalent, survived, unconfirmed, rate)
        out.append("| " + " | ".join(map(str, row)) + " |")
    return out


def score_lines(mutants: Sequence[Mutant], outcome: Mapping[str, Sequence[Mutant]]) -> list[str]:
    """The report: the score for code and for tables, then every survivor."""
    lines = []
    kinds: tuple[tuple[str, Callable[[Mutant], bool]], ...] = (
        ("code", lambda m: m.path.endswith(".py")),
        ("tables", lambda m: m.path.endswith(".toml")),
    )
    for kind, test in kinds:
        total = [m for m in mutants if test(m)]
        if not total:
            continue
        killed = len([m for m in [*outcome["killed"], *outcome["timeout"]] if test(m)])
        equivalent = len([m for m in outcome["equivalent"] if test(m)])
        scored = len(total) - equivalent
        rate = 100.0 * killed / scored if scored else 100.0
        unconfirmed = len([m for m in outcome.get("unconfirmed", []) if test(m)])
        lines.append(
            f"{kind:<7} {killed}/{scored} killed ({rate:.1f}%), {equivalent} equivalent, {len(total)} mutants"
            + (f" ({unconfirmed} more survived only a budgeted share of their tests)" if unconfirmed else "")
        )
    for m in outcome["survived"]:
        lines.append(f"SURVIVED  {m.describe()}")
    for m in outcome.get("unconfirmed", []):
        lines.append(f"UNCONFIRMED  {m.describe()}  (survived a budgeted share of its tests)")
    known = equivalents()
    for m in outcome["equivalent"]:
        lines.append(f"EQUIVALENT  {m.describe()}  ({equivalent_reason(m, known)})")
    return lines


def survivors_of(report: Path, mutants: Sequence[M]) -> list[M]:
    """The mutants a report lists as SURVIVED: same file and change, at the nearest line (within 5: the file
    may have been edited since)."""
    out: list[M] = []
    for line in report.read_text(encoding="utf-8").splitlines():
        if not line.startswith("SURVIVED  "):
            continue
        where, _, change = line[len("SURVIVED  ") :].partition(": ")
        before, _, after = change.partition(" -> ")
        path, _, number = where.rpartition(":")
        near = [
            m
            for m in mutants
            if m.path == path
            and (before, after) in ((m.before, m.after), m.node)
            and abs(m.line - int(number)) <= 5
            and m not in out
        ]
        if near:
            out.append(min(near, key=lambda m: abs(m.line - int(number))))
    return out
