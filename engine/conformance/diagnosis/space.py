"""The fault-model space of a game: every fault its plan allows, and the candidates that could explain one
divergence.

:func:`fault_space` lists every single fault of a game's plan (its kit's
:class:`~engine.conformance.diagnosis.plan.FaultPlan`) with its default values: an integer a step either way
(one and two, and 0), another value of a string column, a boolean flipped, an element of a list left out or
kept alone, an effect left out or one of its parameters changed, two rows' values of a column swapped, a row
left out, every option's other values (named as the reading of the ruling that rejects it, where one does),
every skippable step, every step of an amount negated, every step's bound one off. A random draw of it is
the generated defective implementations the diagnosis is measured on.

:func:`candidates` is the part of that space one divergence can be explained by: the faults touching a
table row or a clause the reference derivation of the step read (a row is touched when its key, a card's
name, is named in the derivation or when a clause its row cites is one of the derivation's and few rows
cite it), with the integer values a step from the shipped one, the values of the same column, and the
shipped value moved by each difference the peer showed (its *apparent* value: a discount of 2 where the
rules say 1 shows as a price one rouble lower).

>>> space = fault_space("petersburg")
>>> any(f.signature == "petersburg:drop:cards/Observatory/effect" for f in space)
True
>>> found = candidates("petersburg", {"SP-COST-3"}, set(), {1})
>>> [f.value for f in found if f.kind == "edit"]  # and 8: another row's value
[-1, 0, 2, 3, 8]
>>> [f.signature for f in found if f.kind == "shift"]  # the column of the row read, one either way
['petersburg:shift:phases/param/*/value=1', 'petersburg:shift:phases/param/*/value=-1']
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from engine.conformance.diagnosis.faults import Fault, address, parse, reading_option, row_key
from engine.conformance.diagnosis.plan import FaultPlan, TableFaults
from engine.conformance.kits.base import get_kit
from engine.errors import InputError
from engine.game import get_game
from engine.spec import Tables, field_clause, load_clauses, row_clauses

__all__ = ["candidates", "fault_space"]

SPECIFIC = 3
"""A clause cited by at most this many rows of an array touches those rows (a clause every card cites, such
as the catalog's, touches none)."""


def _plan(game: str) -> FaultPlan:
    plan: FaultPlan = get_kit(game).faults  # type: ignore[attr-defined]
    return plan


def _ints(value: int, column: Iterable[Any], deltas: Iterable[int]) -> list[int]:
    out = {value - 1, value + 1, value - 2, value + 2, 0}
    out |= {v for v in column if isinstance(v, int) and not isinstance(v, bool)}
    for d in deltas:
        out |= {value + d, value - d}
    out.discard(value)
    return sorted(out)


def _alternatives(
    value: Any, column: list[Any], domain: tuple[Any, ...] | None, deltas: Iterable[int]
) -> list[Any]:
    """The values a fault may give a field holding ``value`` (``column``: the field's values in every row)."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return _ints(value, column, deltas)
    if isinstance(value, str):
        pool = domain if domain is not None else tuple(dict.fromkeys(v for v in column if isinstance(v, str)))
        return [v for v in pool if v != value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        out: list[Any] = [[v for v in value if v != gone] for gone in value] if len(value) > 1 else []
        out += [[]] if value else []  # every element left out
        out += [[v] for v in value] if len(value) > 2 else []
        seen = {v for c in column if isinstance(c, list) for v in c if isinstance(v, str)}
        out += [[*value, v] for v in sorted(seen - set(value))] if len(value) == 1 else []
        return out
    return []


def _row_faults(  # noqa: PLR0917 (one row of one table, in context)
    game: str, tables: Tables, plan: FaultPlan, spec: TableFaults, row: Mapping[str, Any],
    rows: list[Mapping[str, Any]], deltas: Iterable[int],
) -> Iterator[Fault]:
    key = row_key(spec, row)
    clause = field_clause(row)
    for name in spec.fields:
        if name not in row and name not in spec.defaults:
            continue
        value_now = row.get(name, spec.defaults.get(name))
        column = [r.get(name, spec.defaults.get(name)) for r in rows]
        domain = plan.domains.get(f"{key}.{name}", plan.domains.get(name))
        for value in _alternatives(value_now, column, domain, deltas):
            yield Fault(game, "edit", address(tables, spec, key, name), value, value_now,
                        field_clause(row, name))
    effect = row.get(spec.effect) if spec.effect else None
    if isinstance(effect, Mapping):
        yield Fault(game, "drop", address(tables, spec, key, str(spec.effect)), None, dict(effect), clause)
        for param, value in effect.items():
            if param == "kind":
                continue
            domain = plan.domains.get(param)
            for new in _alternatives(value, [value], domain, deltas):
                target = address(tables, spec, key, f"{spec.effect}.{param}")
                yield Fault(game, "edit", target, new, value, clause)
    if spec.drop:
        yield Fault(game, "drop", address(tables, spec, key), None, None, clause)


def _swaps(game: str, tables: Tables, spec: TableFaults, rows: list[Mapping[str, Any]],
           only: set[str] | None) -> Iterator[Fault]:
    for name in spec.swaps:
        for i, a in enumerate(rows):
            for b in rows[i + 1:]:
                ka, kb = row_key(spec, a), row_key(spec, b)
                if only is not None and ka not in only and kb not in only:
                    continue
                va, vb = a.get(name, spec.defaults.get(name)), b.get(name, spec.defaults.get(name))
                if va is None or vb is None or va == vb:
                    continue
                first, second = sorted((address(tables, spec, ka, name), address(tables, spec, kb, name)))
                row = a if first.endswith(f"/{ka}/{name}") else b
                both = [va, vb] if row is a else [vb, va]
                yield Fault(game, "swap", first, second, both, field_clause(row, name))


def _columns(game: str, tables: Tables, spec: TableFaults, rows: list[Mapping[str, Any]]) -> Iterator[Fault]:
    """The column faults of ``spec``'s integer fields and of the integer parameters of ``rows``' effects:
    each shifted one either way in every row, and each read from another such field of the same row (an
    effect's parameter: in every table's effects that hold both)."""
    columns = [(address(tables, spec, "*"), name, spec.fields) for name in spec.fields]
    params: dict[str, None] = {}
    for row in rows:
        effect = row.get(spec.effect) if spec.effect else None
        if isinstance(effect, Mapping):
            ints = (k for k, v in effect.items() if v.__class__ is int)
            params.update(dict.fromkeys(f"{spec.effect}.{k}" for k in ints))
    columns += [("*/*", name, tuple(params)) for name in params]
    for where, name, fields in columns:
        for signature in (f"shift:{where}/{name}=1", f"shift:{where}/{name}=-1",
                          *(f"misread:{where}/{name}={other}" for other in fields if other != name)):
            fault = _column(game, signature)
            if fault is not None:
                yield fault


@functools.cache
def _column(game: str, signature: str) -> Fault | None:
    """A column fault of ``game`` (``KIND:TARGET=VALUE``), ``None`` where fewer than two rows hold it."""
    try:
        return parse(f"{game}:{signature}")
    except InputError:
        return None


def _readings(game: str, only: set[str] | None) -> Iterator[Fault]:
    """Every option's other values: as the reading of the ruling that names it (``reading``), else
    ``option``; every skippable step, every step of an amount that can be negated and every bound that can
    be moved, one either way."""
    book = load_clauses(game)
    named: dict[tuple[str, Any], str] = {}
    for clause in book.values():
        found = reading_option(game, clause.id) if clause.ruling else None
        if found is not None:
            named[found] = clause.id
    g: Any = get_game(game)
    for name, spec in g.book.options.items():
        values = (not spec.default,) if isinstance(spec.default, bool) else tuple(
            v for v in spec.values if v != spec.default
        )
        for value in values:
            ruling = named.get((name, value))
            if ruling is not None:
                if only is None or ruling in only:
                    rejects = book[ruling].rejects or book[ruling].alternative
                    yield Fault(game, "reading", ruling, rejects, None, ruling)
            elif only is None or spec.clause in only:
                yield Fault(game, "option", name, value, spec.default, spec.clause)
    for clause_id in _plan(game).skips:
        if only is None or clause_id in only:
            yield Fault(game, "skip", clause_id, book[clause_id].text, None, clause_id)
    for clause_id in _plan(game).negations:
        if only is None or clause_id in only:
            yield Fault(game, "negate", clause_id, book[clause_id].text, None, clause_id)
    for clause_id in _plan(game).bounds:
        if only is None or clause_id in only:
            for by in (-1, 1):
                yield Fault(game, "bound", clause_id, by, book[clause_id].text, clause_id)


@functools.cache
def fault_space(game: str) -> tuple[Fault, ...]:
    """Every single fault of ``game``'s plan with its default values (see the module docstring), each once."""
    tables = Tables.shipped(game)
    plan = _plan(game)
    out: dict[str, Fault] = {}
    for spec in plan.tables:
        rows = list(tables.doc(spec.file)[spec.array])
        for row in rows:
            for f in _row_faults(game, tables, plan, spec, row, rows, ()):
                out.setdefault(f.signature, f)
        for f in _swaps(game, tables, spec, rows, None):
            out.setdefault(f.signature, f)
        for f in _columns(game, tables, spec, rows):
            out.setdefault(f.signature, f)
    for f in _readings(game, None):
        out.setdefault(f.signature, f)
    return tuple(out.values())


def _hits(spec: TableFaults, rows: list[Mapping[str, Any]], clauses: set[str], names: set[str]) -> list[bool]:
    """Which of ``rows`` a derivation that read ``clauses`` and named ``names`` read."""
    citing: dict[str, int] = {}
    for row in rows:
        for c in row_clauses(row):
            citing[c] = citing.get(c, 0) + 1
    hit = [
        any(c in clauses and citing[c] <= SPECIFIC for c in row_clauses(row))
        or row_key(spec, row) in names
        or row_key(spec, row).split("@")[0] in names
        for row in rows
    ]
    if spec.ordered and any(hit):  # the rows above the last one read were read too: none matched
        last = max(i for i, h in enumerate(hit) if h)
        hit = [True] * (last + 1) + hit[last + 1 :]
    return hit


def candidates(game: str, clauses: set[str], names: set[str], deltas: set[int]) -> list[Fault]:
    """The faults of ``game`` touching a derivation that read ``clauses`` and named ``names``, with the
    integer values a step away, of the same column, or the shipped value moved by each of ``deltas``.  A row
    read reads the rows it names too (a variant's deck, set-up and end)."""
    tables = Tables.shipped(game)
    plan = _plan(game)
    names = names | {plan.aliases[n] for n in names if n in plan.aliases}  # an edition's name: the row's key
    arrays = [(spec, list(tables.doc(spec.file)[spec.array])) for spec in plan.tables]
    named = set(names)
    for spec, rows in arrays:
        for row, read in zip(rows, _hits(spec, rows, clauses, names), strict=True):
            if read:
                named.update(v for v in row.values() if isinstance(v, str))
    out: dict[str, Fault] = {}
    steps = {d for d in deltas if 0 < abs(d) <= 40}
    for spec, rows in arrays:
        touched: set[str] = set()
        for row, read in zip(rows, _hits(spec, rows, clauses, named), strict=True):
            if read:
                touched.add(row_key(spec, row))
                for f in _row_faults(game, tables, plan, spec, row, rows, steps):
                    out.setdefault(f.signature, f)
        if touched:
            for f in _swaps(game, tables, spec, rows, touched):
                out.setdefault(f.signature, f)
            rows_read = [row for row in rows if row_key(spec, row) in touched]
            for f in _columns(game, tables, spec, rows_read):
                out.setdefault(f.signature, f)
    for f in _readings(game, clauses):
        out.setdefault(f.signature, f)
    return list(out.values())
