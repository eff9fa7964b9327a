"""The effect registry: one handler per effect kind named in ``spec/petersburg/cards.toml``.

A special card's row carries ``effect = { kind = "...", <parameters> }``.  Each kind maps to exactly one
:class:`EffectHandler` below, which declares its parameters (name, type, check) and *compiles* the
parameters into the precomputed tables the interpreter reads (:class:`EffectTables`).  The interpreter
never looks at a card's name or index: it reads these tables, so a card behaves as its data says.

======================  =====================================  ==========================================
kind                    parameters                             what the interpreter does with it
======================  =====================================  ==========================================
``displace_value``      ``value``                              the card counts as ``value`` when displaced
``hand_limit``          ``limit``                              owner's hand limit is at least ``limit``
``pub``                 ``roubles_per_vp``, ``max_vp``         after building scoring: buy VP (SP-PUB-1)
``observatory``         ``phase``                              turn it in that phase to draw (SP-OBS-1)
``cost_reduction``      ``colour``, ``amount``                 owner pays ``amount`` less per card of colour
``per_card_income``     ``count_colour``, ``roubles``, ``vp``  at its scoring: per owned card of colour
======================  =====================================  ==========================================

An unknown kind, a missing or unknown parameter or a bad value raises :class:`~engine.errors.SpecError`
naming the table, the row and the field:

>>> from engine.petersburg.effects import compile_effect, EffectTables
>>> tables = EffectTables.empty(3, costs=(3, 4, 5))
>>> compile_effect(tables, "cards.toml", "Pub", 0, {"kind": "pub", "roubles_per_vp": 2})
Traceback (most recent call last):
...
engine.errors.SpecError: cards.toml row 'Pub': field 'effect': kind 'pub' needs parameter 'max_vp'
>>> compile_effect(tables, "cards.toml", "X", 1, {"kind": "teleport"})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
engine.errors.SpecError: cards.toml row 'X': field 'effect': unknown effect kind 'teleport' (known: ...)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from attrs import define, frozen

from engine.errors import SpecError

__all__ = ["COLOURS", "HANDLERS", "PHASE_NAMES", "EffectHandler", "EffectTables", "Param", "compile_effect"]

COLOURS: tuple[str, ...] = ("green", "blue", "red")
"""Card colours; index = the colour id used in the interpreter's tables."""
PHASE_NAMES: tuple[str, ...] = ("worker", "building", "aristocrat", "trading")
"""Phase names; index = the phase id (checked against ``phases.toml`` at load)."""


def _colour(value: Any) -> str | None:
    return None if value in COLOURS else f"must be one of {', '.join(COLOURS)}"


def _phase(value: Any) -> str | None:
    return None if value in PHASE_NAMES else f"must be one of {', '.join(PHASE_NAMES)}"


def _positive(value: Any) -> str | None:
    return None if value >= 1 else "must be >= 1"


def _natural(value: Any) -> str | None:
    return None if value >= 0 else "must be >= 0"


@frozen
class Param:
    """One parameter of an effect kind: name, type and an optional value check."""

    name: str
    type: type
    check: Callable[[Any], str | None] | None = None


@define
class EffectTables:
    """Per-card tables the handlers fill in (mutable while compiling; the ruleset freezes them to tuples).

    Index = card kind (0..48 in catalog order).
    """

    displace_value: list[int]
    displace_clause: list[str]
    hand_limit: list[int]
    pub_rate: list[int]
    pub_max: list[int]
    observatory_phase: list[int]
    reducers: list[tuple[int, int, int]]
    per_card: list[tuple[int, int, int] | None]
    effect_clause: list[str | None]

    @classmethod
    def empty(cls, n: int, *, costs: tuple[int, ...]) -> EffectTables:
        """Tables for ``n`` cards with no effects: a card is displaced at its printed cost."""
        return cls(
            displace_value=list(costs),
            displace_clause=["SP-COST-7"] * n,
            hand_limit=[0] * n,
            pub_rate=[0] * n,
            pub_max=[0] * n,
            observatory_phase=[-1] * n,
            reducers=[],
            per_card=[None] * n,
            effect_clause=[None] * n,
        )


@frozen
class EffectHandler:
    """An effect kind: its parameters, the clause that states it, and how it compiles into the tables."""

    kind: str
    clause: str
    params: tuple[Param, ...]
    compile: Callable[[EffectTables, int, Mapping[str, Any]], None]
    summary: str


def _displace_value(t: EffectTables, k: int, p: Mapping[str, Any]) -> None:
    t.displace_value[k] = p["value"]
    t.displace_clause[k] = "SP-POTJ-1"


def _hand_limit(t: EffectTables, k: int, p: Mapping[str, Any]) -> None:
    t.hand_limit[k] = p["limit"]


def _pub(t: EffectTables, k: int, p: Mapping[str, Any]) -> None:
    t.pub_rate[k] = p["roubles_per_vp"]
    t.pub_max[k] = p["max_vp"]


def _observatory(t: EffectTables, k: int, p: Mapping[str, Any]) -> None:
    t.observatory_phase[k] = PHASE_NAMES.index(p["phase"])


def _cost_reduction(t: EffectTables, k: int, p: Mapping[str, Any]) -> None:
    t.reducers.append((k, COLOURS.index(p["colour"]), p["amount"]))


def _per_card_income(t: EffectTables, k: int, p: Mapping[str, Any]) -> None:
    t.per_card[k] = (COLOURS.index(p["count_colour"]), p["roubles"], p["vp"])


HANDLERS: dict[str, EffectHandler] = {
    h.kind: h
    for h in (
        EffectHandler(
            "displace_value",
            "SP-POTJ-1",
            (Param("value", int, _natural),),
            _displace_value,
            "counts as `value` roubles when a trading card displaces it",
        ),
        EffectHandler(
            "hand_limit",
            "SP-WAREHOUSE-1",
            (Param("limit", int, _positive),),
            _hand_limit,
            "the owner's hand limit is `limit`",
        ),
        EffectHandler(
            "pub",
            "SP-PUB-1",
            (Param("roubles_per_vp", int, _positive), Param("max_vp", int, _positive)),
            _pub,
            "after each building scoring the owner may buy up to `max_vp` VP at `roubles_per_vp` each",
        ),
        EffectHandler(
            "observatory",
            "SP-OBS-1",
            (Param("phase", str, _phase),),
            _observatory,
            "in `phase`, turn it as an action to draw the top card of a stack (not its last)",
        ),
        EffectHandler(
            "cost_reduction",
            "SP-COST-4",
            (Param("colour", str, _colour), Param("amount", int, _positive)),
            _cost_reduction,
            "the owner pays `amount` less for every card of `colour`",
        ),
        EffectHandler(
            "per_card_income",
            "SP-MARI-1",
            (
                Param("count_colour", str, _colour),
                Param("roubles", int, _natural),
                Param("vp", int, _natural),
            ),
            _per_card_income,
            "at its scoring: `roubles` and `vp` per card of `count_colour` the owner has",
        ),
    )
}
"""The registry: effect kind -> its one handler."""


def compile_effect(tables: EffectTables, table: str, row: str, card: int, effect: Mapping[str, Any]) -> str:
    """Check ``effect`` against its handler's parameters and compile it into ``tables``; return the kind."""
    where = f"{table} row {row!r}: field 'effect'"
    kind = effect.get("kind")
    if not isinstance(kind, str):
        raise SpecError(f"{where}: needs a string 'kind'")
    handler = HANDLERS.get(kind)
    if handler is None:
        raise SpecError(f"{where}: unknown effect kind {kind!r} (known: {', '.join(HANDLERS)})")
    names = {p.name for p in handler.params}
    for key in effect:
        if key != "kind" and key not in names:
            raise SpecError(
                f"{where}: kind {kind!r} has no parameter {key!r} (known: {', '.join(sorted(names))})"
            )
    for p in handler.params:
        if p.name not in effect:
            raise SpecError(f"{where}: kind {kind!r} needs parameter {p.name!r}")
        value = effect[p.name]
        if isinstance(value, bool) or not isinstance(value, p.type):
            raise SpecError(f"{where}: parameter {p.name!r} must be {p.type.__name__}, got {value!r}")
        if p.check is not None:
            problem = p.check(value)
            if problem:
                raise SpecError(f"{where}: parameter {p.name!r} {problem}")
    handler.compile(tables, card, effect)
    tables.effect_clause[card] = handler.clause
    return kind
