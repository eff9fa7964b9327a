r"""The clauses a trial of the diagnosis rates is judged by: those a fault names (the rows it edits cite,
its reading's ruling, its skipped step) and those a line of a rule module computes a step of (the
clause ids its function writes or reads, the functions it calls, the options and fields it reads).

The rates (:mod:`engine.conformance.diagnosis.rates`) count a code mutant's class a hit when it names one
of its line's clauses; a fault's, when its diagnosis is the fault or behaves as it does.

>>> line_clauses("engine/take6/x.py", 'def f(a):\n    # T6-PLACE-2\n    return a < 2\n', 3, "take6")
('T6-PLACE-2',)
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Sequence

from engine.conformance.diagnosis.faults import COLUMN_KINDS, Fault, target_row
from engine.mutation.driver import ROOT
from engine.spec import FIELD_CLAUSES, Tables, field_clause, load_clauses, row_clauses

__all__ = ["fault_clauses", "line_clauses"]

_CLAUSE = re.compile(r"\b([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*?-)(\d+)(?:\.\.(\d+))?((?:/\d+)*)\b")


def _clause_ids(text: str, known: frozenset[str]) -> list[str]:
    """The clause ids ``text`` names (``SP-COST-1..7``: every one of the range; ``T6-SELECT-1/2``: both),
    those of ``known`` only.

    >>> _clause_ids("T6-SELECT-1/2, SP-COST-3..4", frozenset({"T6-SELECT-1", "T6-SELECT-2", "SP-COST-3",
    ...                                                       "SP-COST-4"}))
    ['T6-SELECT-1', 'T6-SELECT-2', 'SP-COST-3', 'SP-COST-4']
    """
    out: list[str] = []
    for m in _CLAUSE.finditer(text):
        first = int(m.group(2))
        last = int(m.group(3)) if m.group(3) else first
        out += [f"{m.group(1)}{n}" for n in range(first, min(last, first + 20) + 1)]
        out += [f"{m.group(1)}{n}" for n in m.group(4).split("/") if n]  # T6-SELECT-1/2: both
    return [c for c in dict.fromkeys(out) if c in known]


def line_clauses(path: str, source: str, line: int, game: str) -> tuple[str, ...]:
    """The clauses a line of a rule module computes a step of: every clause id written in the innermost
    function around it that names any (its code, comments and docstring: the clauses of its
    ``trace.add``/``trace.step`` calls and ``Reduction`` values, ``# SP-COST-3`` notes, the module's
    constants it reads that name one: ``MAY_ACT``), else in the
    module's docstring (a module-level line, or a helper that names none); then those the docstrings of
    the functions the line calls name (a call of ``hand_limit(...)`` computes the hand limit's step; an
    ``if``'s test, those its branches call: it decides whether their steps are taken), and
    those of the options and parameters its strings name (``'professional_tie'``: that option's clause)
    and of the state fields it reads or writes whose layout table names a clause (``passes=0``:
    SP-PHASE-3).

    >>> src = 'def f(a):\\n    # T6-PLACE-2: the lowest row\\n    return a < 2\\n'
    >>> line_clauses("engine/take6/x.py", src, 3, "take6")
    ('T6-PLACE-2',)
    >>> src = "def g():\\n    'Rows (T6-PRO-1).'\\n\\ndef f(a):\\n    'T6-PLACE-2.'\\n    return g() < a\\n"
    >>> line_clauses("engine/take6/x.py", src, 6, "take6")
    ('T6-PLACE-2', 'T6-PRO-1')
    >>> line_clauses("engine/take6/x.py", 'TURN = "T6-ACT-1"\\ndef f(a):\\n    return a(TURN)\\n', 3, "take6")
    ('T6-ACT-1',)
    """
    known = load_clauses(game).ids()
    lines = source.splitlines()
    tree = ast.parse(source)
    enclosing = [
        node for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.lineno <= line <= (node.end_lineno or node.lineno)
    ]
    constants = _clause_constants(tree, known)
    own: list[str] = []
    for node in sorted(enclosing, key=lambda n: -n.lineno):  # innermost first
        first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        read = [constants[n.id] for n in ast.walk(node) if isinstance(n, ast.Name) and n.id in constants]
        own = _clause_ids("\n".join([*lines[first - 1:node.end_lineno], *read]), known)
        if own:
            break
    if not own:
        own = _clause_ids(ast.get_docstring(tree) or "", known)
    smallest = _statement(tree, line)
    calls = [*_calls_on(smallest), *(n for stmt in _guarded(tree, smallest) for n in _calls_on(stmt))]
    called = [c for name in calls for c in _clause_ids(_docstring_of(tree, name), known)]
    read = [*_literals(smallest), *_attributes(smallest)]
    named = [c for text in read for c in _named_rows(game).get(text, ())]
    fields = _layout_fields(game)
    touched = (*_attributes(smallest), *_written(smallest, line))
    named += [c for name in touched for c in fields.get(name, ())]
    return tuple(dict.fromkeys([*own, *called, *named]))


def _clause_constants(tree: ast.Module, known: frozenset[str]) -> dict[str, str]:
    """The module's constants that name a clause (``MAY_ACT = "SP-TURN-2"``): a function reading one
    computes a step of that clause, as if it wrote the id."""
    out: dict[str, str] = {}
    for node in tree.body:
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
                and isinstance(node.value.value, str) and _clause_ids(node.value.value, known)):
            out.update((t.id, node.value.value) for t in node.targets if isinstance(t, ast.Name))
    return out


def _statement(tree: ast.Module, line: int) -> ast.AST | None:
    """The smallest statement holding ``line`` (of a compound statement, its head: an ``if``'s or
    ``while``'s test, a ``for``'s iterable)."""
    scope: list[ast.AST] = []
    for n in ast.walk(tree):
        if isinstance(n, ast.If | ast.While):
            scope.append(n.test)
        elif isinstance(n, ast.For):
            scope.append(n.iter)
        elif isinstance(n, ast.stmt) and not isinstance(
                n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.With | ast.Try):
            scope.append(n)
    scope = [n for n in scope if getattr(n, "lineno", 0) <= line <= (getattr(n, "end_lineno", 0) or 0)]
    return min(scope, key=lambda n: (getattr(n, "end_lineno", 0) or 0) - getattr(n, "lineno", 0),
               default=None)


def _guarded(tree: ast.Module, test: ast.AST | None) -> list[ast.stmt]:
    """The plain statements an ``if``'s or ``while``'s ``test`` decides whether to run: those directly in its
    body and its ``else`` (a test changed runs the other branch, so the line computes whether each of their
    steps is taken); nested compound statements are decided by their own tests."""
    if test is None:
        return []
    for n in ast.walk(tree):
        if isinstance(n, ast.If | ast.While) and n.test is test:
            return [s for s in (*n.body, *n.orelse) if not isinstance(
                s, ast.If | ast.While | ast.For | ast.With | ast.Try | ast.FunctionDef | ast.ClassDef)]
    return []


def _calls_on(node: ast.AST | None) -> list[str]:
    """The names of the plain functions ``node`` calls (``f(x)``, not methods)."""
    if node is None:
        return []
    return [c.func.id for c in ast.walk(node) if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)]


def _literals(node: ast.AST | None) -> list[str]:
    """The string constants of ``node``."""
    if node is None:
        return []
    return [c.value for c in ast.walk(node) if isinstance(c, ast.Constant) and isinstance(c.value, str)]


def _attributes(node: ast.AST | None) -> list[str]:
    """The attribute names ``node`` reads (``rules.placement``: ``placement``)."""
    if node is None:
        return []
    return [a.attr for a in ast.walk(node) if isinstance(a, ast.Attribute)]


def _written(node: ast.AST | None, line: int) -> list[str]:
    """The names ``node`` assigns (``drawn = -1``: the successor's field the transition builds) and the
    keyword argument names on ``line`` of its calls (``_passed(s, passes=0)``: ``passes``; of a call over
    several lines, only those written on ``line``)."""
    if node is None:
        return []
    stored = [n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]
    return [*stored, *(k.arg for c in ast.walk(node) if isinstance(c, ast.Call) for k in c.keywords
                       if k.arg and k.lineno <= line <= (k.end_lineno or k.lineno))]


_LAYOUT_HEAD = re.compile(r"^(\s*)index\s+field\s+holds\s*$")
_LAYOUT_ROW = re.compile(r"^\s*\d+\s+([a-z_]+)\s+(.*)$")


@functools.cache
def _layout_fields(game: str) -> dict[str, tuple[str, ...]]:
    """Field -> clauses, from the state layout tables drawn in the game package's module docstrings
    (``index  field  holds``): a field whose description names a clause (``passes  consecutive passes so
    far in this phase (SP-PHASE-3)``) holds that clause's fact, so a line reading it (``s.passes``) or
    writing it (``passes=0``) computes that clause's step.

    >>> _layout_fields("petersburg")["passes"]
    ('SP-PHASE-3',)
    """
    known = load_clauses(game).ids()
    out: dict[str, tuple[str, ...]] = {}
    for path in sorted((ROOT / "engine" / game).glob("*.py")):
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        field, text, inside = "", "", False
        for line in [*doc.splitlines(), ""]:
            row = _LAYOUT_ROW.match(line) if inside else None
            if _LAYOUT_HEAD.match(line):
                inside = True
                continue
            if row or not line.strip() or (inside and not line.startswith(" " * 10)):
                if field:
                    found = _clause_ids(text, known)
                    if found:
                        out[field] = tuple(dict.fromkeys((*out.get(field, ()), *found)))
                field, text = (row.group(1), row.group(2)) if row else ("", "")
                if not line.strip():
                    inside = False
            elif inside and field:
                text += " " + line.strip()
    return out


@functools.cache
def _named_rows(game: str) -> dict[str, tuple[str, ...]]:
    """Name -> clauses of every option and parameter row of the game's shipped tables (a line reading
    ``option_map.get('professional_tie')`` computes the step of that option's clause), and of every field
    a row's ``field_clauses`` states a clause of (a line reading ``rules.placement`` computes the step of
    the placement rule a variant's ``placement`` states)."""
    tables = Tables.shipped(game)
    out: dict[str, tuple[str, ...]] = {}

    def add(name: str, found: Sequence[str]) -> None:
        out[name] = tuple(dict.fromkeys((*out.get(name, ()), *found)))

    for doc in tables.docs.values():
        for array, rows in doc.items():
            if not isinstance(rows, list):
                continue
            for row in rows:
                if not isinstance(row, dict):
                    continue
                if array in ("option", "param") and isinstance(row.get("name"), str) and row_clauses(row):
                    add(row["name"], row_clauses(row))
                for name in row.get(FIELD_CLAUSES) or {}:
                    add(str(name), [field_clause(row, str(name))])
    return out


def _docstring_of(tree: ast.Module, name: str) -> str:
    """The docstring of function ``name`` as the module sees it: its own top-level one, or one imported
    from another engine module (``from engine.x import name``); ``""`` otherwise."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return ast.get_docstring(node) or ""
        if (isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("engine.")
                and any((a.asname or a.name) == name for a in node.names)):
            real = next(a.name for a in node.names if (a.asname or a.name) == name)
            path = ROOT / (node.module.replace(".", "/") + ".py")
            if path.is_file():
                other = ast.parse(path.read_text(encoding="utf-8"))
                return next((ast.get_docstring(d) or "" for d in other.body
                             if isinstance(d, ast.FunctionDef) and d.name == real), "")
    return ""


def fault_clauses(fault: Fault) -> tuple[str, ...]:
    """The clauses a fault names: every clause the rows it edits cite (a swap: both rows), else its own
    (a reading's ruling, a skipped step, an option's clause); a card's effect left out or changed names
    the rules of that effect too (its clause's numbered family).

    >>> from engine.conformance.diagnosis.faults import parse
    >>> fault_clauses(parse("petersburg:drop:cards/Observatory/effect"))
    ('SP-OBS-1', 'SP-OBS-2', 'SP-OBS-3', 'SP-OBS-4', 'SP-OBS-5', 'SP-OBS-6')
    """
    out = [fault.clause] if fault.clause else []
    if fault.kind in ("edit", "drop", "swap", *COLUMN_KINDS):
        for target in sorted(fault.changes):  # a swap: both rows; a shift or misread: every row
            out += _row_clauses(fault.game, target)
    elif fault.kind in ("reading", "skip", "negate", "bound"):
        out.append(fault.target)
    effect = fault.target.split("/")[-1].split(".")[0] == "effect"
    if fault.kind in ("edit", "drop", *COLUMN_KINDS) and effect:
        # a card's effect left out or changed: every rule of that effect (SP-OBS-1 .. SP-OBS-6)
        families = {c.rsplit("-", 1)[0] for c in out if c}
        out += [c for c in load_clauses(fault.game) if c.rsplit("-", 1)[0] in families]  # the book's order
    return tuple(dict.fromkeys(c for c in out if c))


@functools.cache
def _row_clauses(game: str, target: str) -> tuple[str, ...]:
    return row_clauses(target_row(Tables.shipped(game), target))
