"""Fault models: named, minimal, printable edits of a game's rules.

A fault model says one way an implementation may differ from the rules, in the rules' own terms:

========  =====================================  ==================================================
kind      what differs                           signature
========  =====================================  ==================================================
edit      one value of a rule table              ``petersburg:edit:cards/Patriarch/cost=14``
swap      two values of one column exchanged     ``petersburg:swap:cards/Tax Man/vp,cards/Senator/vp``
drop      a row or an optional field left out    ``petersburg:drop:cards/Observatory/effect``
reading   the reading a ruling rejects           ``petersburg:reading:SP-COST-5``
option    another value of a game option         ``take6:option:kids_piles=strict``
skip      a procedural step not applied          ``petersburg:skip:SP-OBS-5``
negate    a step of an amount, the opposite sign ``petersburg:negate:SP-COST-7``
bound     a step's bound off by an amount        ``petersburg:bound:SP-BUY-2=-1``
shift     one field of every row off by as much  ``take6:shift:setup/*/row_capacity=1``
misread   a field of every row read from another ``petersburg:misread:*/*/effect.roubles=effect.vp``
========  =====================================  ==================================================

A table value is addressed ``FILE/ROW/FIELD``: the table file's stem, the row's key (the array's name
first when the file holds several arrays: ``phases/param/lower_row_discount/value``) and the field, a
parameter of an effect as ``effect.PARAM``.  Values are written as JSON (a bare word for a string).  Which
tables, fields and rows a game's faults range over is the ``faults`` declaration of its conformance kit
(a :class:`~engine.conformance.diagnosis.plan.FaultPlan`): the values the interpreter reads to play, never
prose, clause ids or the redundant figures that only guard a table against a typo.  A ``shift`` or a
``misread`` is one slip in how a column is read, shown in every row at once: its address names every row
with ``*`` (``FILE/*/FIELD``; ``*/*/effect.PARAM``: every effect holding that parameter, in every table),
and it changes each integer value of the column it finds (at least two rows).

A set of faults is applied with :func:`world`: the shipped tables edited in memory
(:meth:`engine.spec.Tables.replace`), the game built from them (``GAME.edited``), options and skipped
steps given to ``GAME.adopt``.  Nothing is written and the shipped rules are untouched.

>>> f = parse("petersburg:edit:phases/param/lower_row_discount/value=2")
>>> f.kind, f.target, f.value
('edit', 'phases/param/lower_row_discount/value', 2)
>>> f.signature
'petersburg:edit:phases/param/lower_row_discount/value=2'
>>> from engine.petersburg import GAME, cost_breakdown
>>> w = world("petersburg", (f,))
>>> cost_breakdown(w.adopt(GAME.new_game(2, seed=1)), 0, "Lumberjack", source="lower").cost
1
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from attrs import field, frozen

from engine.conformance.diagnosis.plan import FaultPlan, TableFaults
from engine.conformance.kits.base import get_kit
from engine.errors import ArbiterError, InputError
from engine.game import Game, get_game
from engine.spec import Tables, field_clause, load_clauses

__all__ = [
    "COLUMN_KINDS",
    "FAULT_KINDS",
    "Fault",
    "World",
    "address",
    "column_rows",
    "parse",
    "reading_option",
    "row_key",
    "target_row",
    "world",
]

FAULT_KINDS: Mapping[str, str] = {
    "edit": "one value of a rule table differs",
    "swap": "two values of one column are exchanged",
    "drop": "a row or an optional field of a rule table is left out",
    "reading": "the reading a ruling rejects is followed",
    "option": "another value of a game option is played",
    "skip": "a procedural step is not applied",
    "negate": "a step of an amount is applied with the opposite sign",
    "bound": "a step's bound is off by an amount",
    "shift": "a field of every row differs by one amount",
    "misread": "a field of every row is read from another of its fields",
}
"""Every kind of fault model, with a one-line meaning."""

COLUMN_KINDS = ("shift", "misread")
"""The kinds that change a column, every row at once (one slip in how the column is read)."""


@frozen(order=True)
class Fault:
    """One fault model (see the module docstring).  ``target`` is a table address, a clause id or an option
    name; ``value`` the peer's apparent value (for ``swap``: the other address); ``shipped`` the reference's
    value (for ``swap``: both values, in the order of the two addresses) and ``clause`` the clause of the row
    or the ruling, both for reports."""

    game: str
    kind: str
    target: str
    value: Any = field(default=None, eq=False, order=False)
    shipped: Any = field(default=None, eq=False, order=False)
    clause: str = field(default="", eq=False, order=False)
    key: str = field(default="", init=False, order=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "key", self.signature)

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Fault) and other.key == self.key

    @property
    def changes(self) -> frozenset[str]:
        """The table values the fault changes (a swap: both addresses); a reading, option, skip or negation:
        its own target.

        >>> sorted(parse("petersburg:swap:cards/Tax Man/vp,cards/Senator/vp").changes)
        ['cards/Senator/vp', 'cards/Tax Man/vp']
        """
        if self.kind in COLUMN_KINDS and isinstance(self.shipped, Mapping):
            return frozenset(self.shipped)  # every row's address it changes
        return frozenset((self.target, str(self.value))) if self.kind == "swap" else frozenset((self.target,))

    @property
    def signature(self) -> str:
        """The fault's stable name (a class signature's edit part)."""
        if self.kind in ("edit", "option", "bound", *COLUMN_KINDS):
            return f"{self.game}:{self.kind}:{self.target}={_show(self.value)}"
        if self.kind == "swap":
            return f"{self.game}:swap:{self.target},{self.value}"
        return f"{self.game}:{self.kind}:{self.target}"

    @property
    def file(self) -> str:
        """The table file a table fault edits (``""`` for the others)."""
        head = self.target.split("/")[0]
        if self.kind in COLUMN_KINDS:
            return "" if head == "*" else f"{head}.toml"
        return f"{head}.toml" if self.kind in ("edit", "swap", "drop") else ""

    def describe(self) -> str:
        """The fault in the spec's words: what the peer behaves as if, and what the rules say.

        >>> parse("petersburg:edit:phases/param/lower_row_discount/value=2").describe()
        'behaves as if phases.toml param lower_row_discount value were 2 (the rules: 1, SP-COST-3)'
        """
        shipped = self.shipped
        if self.kind in COLUMN_KINDS and isinstance(shipped, Mapping):
            rows = "; ".join(f"{_row_of(a)} {_show(v)}" for a, v in shipped.items())
            field = self.target.split("/")[-1]
            table = self.target.split("/")[:-2]
            where = "every row's" if table == ["*"] else f"every {_place('/'.join(table)).rstrip()} row's"
            how = (f"{abs(self.value)} {'more' if self.value > 0 else 'less'}" if self.kind == "shift"
                   else f"read from its {self.value}")
            return f"behaves as if {where} {field} were {how} (the rules: {rows}; {self.clause})"
        if self.kind == "swap" and isinstance(shipped, list) and len(shipped) == 2:
            rules = f"the rules: {_show(shipped[0])} and {_show(shipped[1])}"
        else:
            rules = f"the rules: {_show(shipped)}" if shipped is not None else "the rules"
        why = f" ({rules}, {self.clause})" if self.clause else f" ({rules})"
        if self.kind == "edit":
            return f"behaves as if {_place(self.target)} were {_show(self.value)}{why}"
        if self.kind == "swap":
            return f"behaves as if {_place(self.target)} and {_place(str(self.value))} were swapped{why}"
        if self.kind == "drop":
            return f"behaves as if {_place(self.target)} were left out{why}"
        if self.kind == "reading":
            return f"follows the reading ruling {self.target} rejects: {self.value}"
        if self.kind == "option":
            return f"plays option {self.target}={_show(self.value)} ({rules}, {self.clause})"
        step = f" ({self.value})" if self.value else ""
        if self.kind == "negate":
            return f"applies {self.target} with the opposite sign{step}"
        if self.kind == "bound":
            text = f" ({self.shipped})" if self.shipped else ""
            return (f"applies {self.target} with its bound {abs(self.value)} "
                    f"{'higher' if self.value > 0 else 'lower'}{text}")
        return f"does not apply {self.target}{step}"


def _show(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _place(target: str) -> str:
    parts = target.split("/")
    return f"{parts[0]}.toml {' '.join(parts[1:])}"


def _row_of(address: str) -> str:
    """A row address's row key, for a column fault's list (``setup/kids/row_capacity``: ``kids``)."""
    return address.split("/")[-2]


def parse(signature: str) -> Fault:
    """A fault from its signature, its shipped value and clause looked up (InputError naming what is wrong).

    >>> parse("take6:edit:setup/standard/row_capacity=4").shipped
    5
    >>> parse("take6:edit:setup/nowhere/rows=3")
    Traceback (most recent call last):
    ...
    engine.errors.InputError: edit: setup.toml has no row 'nowhere' (rows: standard, kids)
    """
    if not isinstance(signature, str) or signature.count(":") < 2:
        raise InputError("edit", f"expected GAME:KIND:TARGET, got {signature!r}")
    game, kind, rest = signature.split(":", 2)
    if kind not in FAULT_KINDS:
        raise InputError("edit", f"unknown kind {kind!r} (known: {', '.join(FAULT_KINDS)})")
    try:
        get_game(game)
    except ArbiterError as exc:
        raise InputError("edit", str(exc)) from None
    if kind in ("edit", "option", "bound", *COLUMN_KINDS):
        target, eq, raw = rest.partition("=")
        if not eq:
            raise InputError("edit", f"{kind} needs TARGET=VALUE, got {rest!r}")
        value: Any = _value(raw)
    elif kind == "swap":
        target, comma, value = rest.partition(",")
        if not comma:
            raise InputError("edit", f"swap needs TARGET,TARGET, got {rest!r}")
    else:
        target, value = rest, None
    return _completed(Fault(game, kind, target, value))


def _value(raw: str) -> Any:
    try:
        return json.loads(raw)
    except ValueError:
        return raw


def _completed(fault: Fault) -> Fault:
    """``fault`` with its shipped value and clause filled in from the shipped tables and clause book."""
    game, kind = fault.game, fault.kind
    book = load_clauses(game)
    if kind in ("reading", "skip", "negate", "bound"):
        if fault.target not in book:
            raise InputError("edit", f"unknown clause {fault.target!r}")
        clause = book[fault.target]
        if kind == "bound":
            if fault.value.__class__ is not int or fault.value == 0:
                raise InputError("edit", f"a bound moves by a whole number but {_show(fault.value)}")
            return Fault(game, kind, fault.target, fault.value, clause.text, fault.target)
        if kind == "reading":
            option = reading_option(game, fault.target)
            if option is None:
                raise InputError("edit", f"{fault.target} names no option for the reading it rejects")
            return Fault(game, kind, fault.target, clause.rejects or clause.alternative, None, fault.target)
        return Fault(game, kind, fault.target, clause.text, None, fault.target)
    if kind == "option":
        options = _options(game)
        if fault.target not in options:
            raise InputError("edit", f"unknown option {fault.target!r} (known: {', '.join(options)})")
        default, clause_id = options[fault.target]
        return Fault(game, kind, fault.target, fault.value, default, clause_id)
    tables = Tables.shipped(game)
    if kind in COLUMN_KINDS:
        return _column(tables, fault)
    if kind == "swap":
        both = [_read(tables, fault.target), _read(tables, str(fault.value))]
        return Fault(game, kind, fault.target, fault.value, both, _row_clause(tables, fault.target))
    return Fault(game, kind, fault.target, fault.value, _read(tables, fault.target, optional=kind == "drop"),
                 _row_clause(tables, fault.target))


def _column(tables: Tables, fault: Fault) -> Fault:
    """A shift or misread completed: ``shipped`` maps each row address it changes to the rules' value."""
    if fault.kind == "shift" and (fault.value.__class__ is not int or not fault.value):
        raise InputError("edit", f"a shift moves a column by a whole number but 0, got {fault.value!r}")
    field = fault.target.split("/")[-1]
    if fault.kind == "misread" and (not isinstance(fault.value, str) or fault.value == field):
        raise InputError("edit", f"a misread names another field of the rows, got {fault.value!r}")
    rows = column_rows(tables, fault.target, fault.value if fault.kind == "misread" else None)
    if len(rows) < 2:
        raise InputError("edit", f"{fault.target}: {len(rows)} row(s) hold it as a whole number (a column "
                                 "fault changes two or more; one row's value is an edit)")
    shipped = {address: _read(tables, address) for address, _other in rows}
    return Fault(fault.game, fault.kind, fault.target, fault.value, shipped, _row_clause(tables, rows[0][0]))


def column_rows(tables: Tables, pattern: str, other: str | None = None) -> list[tuple[str, str | None]]:
    """Every row a column pattern names (``FILE/*/FIELD``, ``FILE/ARRAY/*/FIELD``; ``*/*/effect.PARAM``:
    every table's effects) whose value there is a whole number, as its address, with the address of the
    same row's ``other`` field where one is named (a row without a whole number there is left out).

    >>> [a for a, _ in column_rows(Tables.shipped("take6"), "setup/*/row_capacity")]
    ['setup/standard/row_capacity', 'setup/kids/row_capacity']
    """
    parts = pattern.split("/")
    if len(parts) < 3 or parts[-2] != "*":
        raise InputError("edit", f"{pattern}: a column fault names every row with * (FILE/*/FIELD)")
    field, head = parts[-1], parts[:-2]
    plan = _plan(tables.game)
    if head == ["*"]:
        if not field.startswith("effect."):
            raise InputError("edit", f"{pattern}: every table (*) names an effect's parameter (effect.PARAM)")
        specs = [t for t in plan.tables if t.effect]
    else:
        filename = f"{head[0]}.toml"
        specs = [t for t in plan.tables if t.file == filename and (len(head) == 1 or t.array == head[1])]
        if not specs or len(head) > 2 or (len(head) == 1 and len(specs) > 1):
            raise InputError("edit", f"{pattern}: no one array of rule values of {filename} "
                                     "(FILE[/ARRAY]/*/FIELD)")
    out: list[tuple[str, str | None]] = []
    for spec in specs:
        for row in tables.doc(spec.file)[spec.array]:
            key = row_key(spec, row)
            here = address(tables, spec, key, field)
            also = address(tables, spec, key, other) if other else None
            if all(_whole(tables, a) for a in (here, also) if a is not None):
                out.append((here, also))
    return out


def _whole(tables: Tables, address: str) -> bool:
    try:
        value = _read(tables, address)
    except InputError:
        return False
    return value.__class__ is int


# ------------------------------------------------------------------------------------------ addressing


def _plan(game: str) -> FaultPlan:
    plan: FaultPlan = get_kit(game).faults  # type: ignore[attr-defined]
    return plan


def _arrays(doc: Mapping[str, Any]) -> list[str]:
    return [name for name, rows in doc.items() if isinstance(rows, list)]


def address(tables: Tables, spec: TableFaults, key: str, field: str = "") -> str:
    """The address of row ``key``'s ``field`` of ``spec``'s array (the form :func:`parse` reads: the array's
    name only when its file holds several; ``key`` ``*``: every row, a column fault's).

    >>> from engine.conformance.diagnosis.plan import TableFaults
    >>> address(Tables.shipped("petersburg"), TableFaults("phases.toml", "param", "name"), "*", "value")
    'phases/param/*/value'
    """
    array = [spec.array] if len(_arrays(tables.doc(spec.file))) > 1 else []
    return "/".join([spec.file[: -len(".toml")], *array, key, *([field] if field else [])])


def row_key(spec: TableFaults, row: Mapping[str, Any]) -> str:
    """A row's key under ``spec`` (``FIELD@FIELD``: both values joined by ``@``)."""
    return "@".join(str(row.get(k)) for k in spec.key.split("@"))


def _locate(
    tables: Tables, target: str
) -> tuple[TableFaults, dict[str, Any], list[str], list[dict[str, Any]], int]:
    """The plan entry, the document, the field path and the rows of ``target``, and the row's index."""
    parts = target.split("/")
    filename = f"{parts[0]}.toml"
    try:
        doc = tables.doc(filename)
    except ArbiterError:
        raise InputError("edit", f"no table {filename}") from None
    arrays = _arrays(doc)
    rest = parts[1:]
    if len(arrays) > 1:
        if not rest or rest[0] not in arrays:
            raise InputError("edit", f"{filename} holds several arrays: name one of {', '.join(arrays)}")
        array, rest = rest[0], rest[1:]
    else:
        array = arrays[0]
    spec = next((t for t in _plan(tables.game).tables if t.file == filename and t.array == array), None)
    if spec is None:
        raise InputError("edit", f"{filename} [[{array}]] holds no rule value a fault may change")
    if not rest:
        raise InputError("edit", f"{target}: name a row of {filename}")
    rows = list(doc[array])
    keys = [row_key(spec, r) for r in rows]
    if rest[0] not in keys:
        raise InputError("edit", f"{filename} has no row {rest[0]!r} (rows: {', '.join(keys)})")
    return spec, dict(doc), rest[1:], rows, keys.index(rest[0])


def _read(tables: Tables, target: str, *, optional: bool = False) -> Any:
    spec, _doc, path, rows, i = _locate(tables, target)
    value: Any = rows[i]
    if not path:
        return None if optional else _bad(target, "names a row, not a value")
    head, _, param = path[0].partition(".")
    allowed = (*spec.fields, *spec.swaps, *((spec.effect,) if spec.effect else ()))
    if head not in allowed or len(path) > 1:
        return _bad(target, f"is not a rule value (fields: {', '.join(allowed)})")
    value = value.get(head, spec.defaults.get(head))
    if param:
        if not isinstance(value, Mapping) or param not in value or param == "kind":
            return _bad(target, "names no parameter of the row's effect")
        value = value[param]
    return value


def _bad(target: str, why: str) -> Any:
    raise InputError("edit", f"{target} {why}")


def target_row(tables: Tables, target: str) -> Mapping[str, Any]:
    """The row a table address names (InputError naming what is missing).

    >>> target_row(Tables.shipped("take6"), "setup/standard/row_capacity")["row_capacity"]
    5
    """
    _spec, _doc, _path, rows, i = _locate(tables, target)
    return rows[i]


def _row_clause(tables: Tables, target: str) -> str:
    _spec, _doc, path, rows, i = _locate(tables, target)
    return field_clause(rows[i], path[0].partition(".")[0] if path else "")


def _write(tables: Tables, target: str, value: Any, *, drop: bool = False, label: str) -> Tables:
    spec, doc, path, rows, i = _locate(tables, target)
    rows = copy.deepcopy(rows)
    if not path:
        del rows[i]
    else:
        head, _, param = path[0].partition(".")
        if drop and not param:
            rows[i].pop(head, None)
        elif param:
            if not isinstance(rows[i].get(head), Mapping):
                raise InputError("edit", f"{target}: the row has no {head} left to change")
            rows[i][head] = {**rows[i][head], param: value}
        else:
            rows[i][head] = value
    doc[spec.array] = rows
    return tables.replace(spec.file, doc, label)


def _options(game: str) -> dict[str, tuple[Any, str]]:
    """A game's options: name -> (default, clause)."""
    g: Any = get_game(game)
    options = g.book.options
    out: dict[str, tuple[Any, str]] = {}
    for name, spec in options.items():
        out[name] = (spec.default, spec.clause)
    return out


def reading_option(game: str, ruling: str) -> tuple[str, Any] | None:
    """The option (name, value) that selects the reading ``ruling`` rejects, from the clause's
    ``alternative`` (``option NAME=VALUE`` or ``option NAME = "VALUE"``); ``None`` when it names none.

    >>> reading_option("petersburg", "SP-COST-5"), reading_option("take6", "T6-PRO-3")
    (('trading_discount', False), ('professional_tie', 'start'))
    """
    book = load_clauses(game)
    clause = book[ruling] if ruling in book.ids() else None
    text = (clause.alternative or "") if clause is not None else ""
    if not text.startswith("option "):
        return None
    head = text[len("option "):].split(":", 1)[0]
    name, eq, raw = head.partition("=")
    if not eq:
        return None
    name, raw = name.strip(), raw.strip().strip('"')
    options = _options(game)
    if name not in options:
        return None
    default = options[name][0]
    value: Any = {"true": True, "false": False}.get(raw, raw) if isinstance(default, bool) else raw
    return name, value


# ------------------------------------------------------------------------------------------ the world


class World:
    """The rules under a set of faults: the game built from the edited tables, with the options, skipped
    steps, negated steps and moved bounds the faults name.  :meth:`adopt` puts a reference position under
    these rules; :meth:`new_game` starts one.  Raises InputError when the faults cannot be applied (the
    edited tables do not load, two faults of one value)."""

    def __init__(self, game: str, faults: Sequence[Fault]) -> None:
        self.name = game
        self.faults = tuple(sorted(set(faults)))
        base: Any = get_game(game)
        tables = Tables.shipped(game)
        options: dict[str, Any] = {}
        steps: dict[str, set[Any]] = {"skips": set(), "negated": set(), "bounds": set()}  # adopt's own names
        plan = _plan(game)
        touched: set[str] = set()
        for f in self.faults:
            for place in _places(f):
                if place in touched:
                    raise InputError("edit", f"two faults change {place}")
                touched.add(place)
            if f.kind in _RUNTIME:  # a step the game's adopt changes: negated, or its bound moved
                name, listing, how = _RUNTIME[f.kind]
                allowed: tuple[str, ...] = getattr(plan, listing)
                if f.target not in allowed:
                    listed = ", ".join(allowed) or "none"
                    raise InputError("edit", f"{f.target}'s step {how} ({listing}: {listed})")
                steps[name].add(f.target if f.kind == "negate" else (f.target, int(f.value)))
                continue
            tables = _apply(tables, f, options, steps["skips"], plan)
        try:
            self.game: Game = base.edited(tables, checked=False) if tables.edits else base
        except ArbiterError as exc:
            raise InputError("edit", f"{', '.join(f.signature for f in self.faults)}: {exc}") from None
        self.options = options
        self.steps = {name: frozenset(given) for name, given in steps.items() if given}
        """The steps the game's ``adopt`` leaves out, negates or moves the bound of, by argument name."""

    def __repr__(self) -> str:
        return f"World({self.name!r}, [{', '.join(f.signature for f in self.faults)}])"

    def adopt(self, state: Any) -> Any:
        """``state`` (a reference position) under these rules."""
        extra: dict[str, Any] = {}
        if self.options:
            extra["options"] = self.options
        extra.update(self.steps)
        return self.game.adopt(state, **extra)  # type: ignore[attr-defined]

    def new_game(self, players: int, **kwargs: Any) -> Any:
        """A new game under these rules (the options the faults name override the given ones, in the
        variants they apply to: a kids' option leaves a standard game as it is)."""
        variant = kwargs.get("variant") or self.game.variants[0]
        known: Any = getattr(self.game, "book", None)
        applying = {
            k: v for k, v in self.options.items()
            if known is None or variant in (getattr(known.options.get(k), "variants", None) or (variant,))
        }
        options = {**dict(kwargs.pop("options", None) or {}), **applying}
        state = self.game.new_game(players, options=options, **kwargs)
        return self.adopt(state) if self.steps else state


_RUNTIME: Mapping[str, tuple[str, str, str]] = {"negate": ("negated", "negations", "cannot be negated"),
                                                "bound": ("bounds", "bounds", "has no bound to move")}
"""The fault kinds the game's ``adopt`` applies: the argument it takes them as, the plan's field listing the
steps it allows, and what a step not listed says."""


def _places(fault: Fault) -> Iterator[str]:
    if fault.kind in COLUMN_KINDS:
        for address in sorted(fault.changes):
            yield f"False:{address}"  # each row, as its edit would
    elif fault.kind == "swap":
        yield fault.target
        yield str(fault.value)
    else:
        yield f"{fault.kind in ('reading', 'option')}:{fault.target}"


def _apply(tables: Tables, f: Fault, options: dict[str, Any], skips: set[str], plan: FaultPlan) -> Tables:
    if f.kind == "edit":
        return _write(tables, f.target, f.value, label=f.signature)
    if f.kind == "drop":
        return _write(tables, f.target, None, drop=True, label=f.signature)
    if f.kind == "swap":
        a, b = _read(tables, f.target), _read(tables, str(f.value))
        tables = _write(tables, f.target, b, label=f.signature)
        return _write(tables, str(f.value), a, label=f.signature)
    if f.kind in COLUMN_KINDS:
        for address, other in column_rows(tables, f.target, f.value if f.kind == "misread" else None):
            value = _read(tables, address) + f.value if f.kind == "shift" else _read(tables, str(other))
            tables = _write(tables, address, value, label=f.signature)
        return tables
    if f.kind == "option":
        options[f.target] = f.value
        return tables
    if f.kind == "reading":
        found = reading_option(f.game, f.target)
        if found is None:
            raise InputError("edit", f"{f.target} names no option for the reading it rejects")
        options[found[0]] = found[1]
        return tables
    edits = plan.skips.get(f.target)
    if edits is None:
        raise InputError("edit", f"{f.target}'s step cannot be left out (skippable: {', '.join(plan.skips)})")
    if not edits:
        skips.add(f.target)
    for signature in edits:
        tables = _apply(tables, parse(signature), options, skips, plan)
    return tables


def world(game: str, faults: Iterable[Fault]) -> World:
    """The rules of ``game`` under ``faults`` (see :class:`World`)."""
    return World(game, tuple(faults))
