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
========  =====================================  ==================================================

A table value is addressed ``FILE/ROW/FIELD``: the table file's stem, the row's key (the array's name
first when the file holds several arrays: ``phases/param/lower_row_discount/value``) and the field, a
parameter of an effect as ``effect.PARAM``.  Values are written as JSON (a bare word for a string).  Which
tables, fields and rows a game's faults range over is the ``faults`` declaration of its conformance kit
(a :class:`~engine.conformance.diagnosis.plan.FaultPlan`): the values the interpreter reads to play, never
prose, clause ids or the redundant figures that only guard a table against a typo.

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
    "FAULT_KINDS",
    "Fault",
    "World",
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
}
"""Every kind of fault model, with a one-line meaning."""


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
        """The table values the fault changes (a swap: both addresses); a reading, option or skip: its own
        target.

        >>> sorted(parse("petersburg:swap:cards/Tax Man/vp,cards/Senator/vp").changes)
        ['cards/Senator/vp', 'cards/Tax Man/vp']
        """
        return frozenset((self.target, str(self.value))) if self.kind == "swap" else frozenset((self.target,))

    @property
    def signature(self) -> str:
        """The fault's stable name (a class signature's edit part)."""
        if self.kind in ("edit", "option"):
            return f"{self.game}:{self.kind}:{self.target}={_show(self.value)}"
        if self.kind == "swap":
            return f"{self.game}:swap:{self.target},{self.value}"
        return f"{self.game}:{self.kind}:{self.target}"

    @property
    def file(self) -> str:
        """The table file a table fault edits (``""`` for the others)."""
        return f"{self.target.split('/')[0]}.toml" if self.kind in ("edit", "swap", "drop") else ""

    def describe(self) -> str:
        """The fault in the spec's words: what the peer behaves as if, and what the rules say.

        >>> parse("petersburg:edit:phases/param/lower_row_discount/value=2").describe()
        'behaves as if phases.toml param lower_row_discount value were 2 (the rules: 1, SP-COST-3)'
        """
        shipped = self.shipped
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
        return f"does not apply {self.target}{step}"


def _show(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _place(target: str) -> str:
    parts = target.split("/")
    return f"{parts[0]}.toml {' '.join(parts[1:])}"


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
    if kind in ("edit", "option"):
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
    if kind in ("reading", "skip"):
        if fault.target not in book:
            raise InputError("edit", f"unknown clause {fault.target!r}")
        clause = book[fault.target]
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
    if kind == "swap":
        both = [_read(tables, fault.target), _read(tables, str(fault.value))]
        return Fault(game, kind, fault.target, fault.value, both, _row_clause(tables, fault.target))
    return Fault(game, kind, fault.target, fault.value, _read(tables, fault.target, optional=kind == "drop"),
                 _row_clause(tables, fault.target))


# ------------------------------------------------------------------------------------------ addressing


def _plan(game: str) -> FaultPlan:
    plan: FaultPlan = get_kit(game).faults  # type: ignore[attr-defined]
    return plan


def _arrays(doc: Mapping[str, Any]) -> list[str]:
    return [name for name, rows in doc.items() if isinstance(rows, list)]


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
    """The rules under a set of faults: the game built from the edited tables, with the options and
    skipped steps the faults name.  :meth:`adopt` puts a reference position under these rules;
    :meth:`new_game` starts one.  Raises InputError when the faults cannot be applied (the edited tables
    do not load, two faults of one value)."""

    def __init__(self, game: str, faults: Sequence[Fault]) -> None:
        self.name = game
        self.faults = tuple(sorted(set(faults)))
        base: Any = get_game(game)
        tables = Tables.shipped(game)
        options: dict[str, Any] = {}
        skips: set[str] = set()
        plan = _plan(game)
        touched: set[str] = set()
        for f in self.faults:
            for place in _places(f):
                if place in touched:
                    raise InputError("edit", f"two faults change {place}")
                touched.add(place)
            tables = _apply(tables, f, options, skips, plan)
        try:
            self.game: Game = base.edited(tables, checked=False) if tables.edits else base
        except ArbiterError as exc:
            raise InputError("edit", f"{', '.join(f.signature for f in self.faults)}: {exc}") from None
        self.options = options
        self.skips = frozenset(skips)

    def __repr__(self) -> str:
        return f"World({self.name!r}, [{', '.join(f.signature for f in self.faults)}])"

    def adopt(self, state: Any) -> Any:
        """``state`` (a reference position) under these rules."""
        extra: dict[str, Any] = {}
        if self.options:
            extra["options"] = self.options
        if self.skips:
            extra["skips"] = self.skips
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
        return self.adopt(state) if self.skips else state


def _places(fault: Fault) -> Iterator[str]:
    if fault.kind == "swap":
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
