"""The Saint Petersburg tables of ``spec/petersburg/``, loaded, checked and compiled.

Every table goes through :func:`engine.spec.load_table` (unknown key, missing field, wrong type, dangling
clause id -> :class:`~engine.errors.SpecError` naming table, row and field); cross-table references (a
pairing naming an unknown card, a delta for a card that does not exist, a symbol no worker shows, a
variety table that is not n(n+1)/2) fail the same way.  Effects are checked against the handler registry
(:mod:`engine.petersburg.effects`).

A :class:`Ruleset` is the compiled form for one variant (edition) and option set: per-card tuples indexed
by the card *kind* (0..48, catalog order) that the interpreter reads on its hot path.

>>> rs = ruleset("first")
>>> rs.names[rs.kind["Market"]], rs.cost[rs.kind["Market"]]
('Market', 5)
>>> ruleset("second").names[rs.kind["Pope"]]
'Abbot'
>>> variety_bonus(4), variety_bonus(12)
(10, 55)
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from attrs import frozen

from engine.errors import IllegalSetup, SpecError
from engine.petersburg.effects import COLOURS, PHASE_NAMES, EffectTables, compile_effect
from engine.spec import Field, load_clauses, load_table

__all__ = [
    "CARDS",
    "COLOURS",
    "GAME_META",
    "OPTIONS",
    "PHASES",
    "SETUPS",
    "STACKS",
    "VARIANTS",
    "Card",
    "Names",
    "OptionSpec",
    "PhaseSpec",
    "Ruleset",
    "SetupSpec",
    "card_names",
    "catalog",
    "resolve_card",
    "ruleset",
    "variety_bonus",
]

GAME = "petersburg"


def _one_of(*values: str) -> Any:
    def check(v: Any) -> str | None:
        return None if v in values else f"must be one of {', '.join(values)}"

    return check


def _at_least(n: int) -> Any:
    def check(v: Any) -> str | None:
        return None if v >= n else f"must be >= {n}"

    return check


# ---------------------------------------------------------------------------------------------- cards


@frozen
class Card:
    """One card kind of an edition's catalog (copies are interchangeable).

    ``index`` is the kind id used in states; ``key`` the first-edition name (stable across editions);
    ``name`` the edition's name.  ``effect`` is the effect kind (or ``None``) and ``params`` its parameters.
    """

    index: int
    key: str
    name: str
    stack: str
    colour: str
    cost: int
    roubles: int
    vp: int
    copies: int
    symbols: tuple[str, ...]
    effect: str | None
    params: tuple[tuple[str, Any], ...]
    clause: str

    @property
    def trading(self) -> bool:
        """True for a trading card."""
        return self.stack == "trading"


_CARD_FIELDS = [
    Field("name", str),
    Field("stack", str, check=_one_of(*PHASE_NAMES)),
    Field("colour", str, check=_one_of(*COLOURS)),
    Field("cost", int, check=_at_least(0)),
    Field("roubles", int, required=False, default=0, check=_at_least(0)),
    Field("vp", int, required=False, default=0, check=_at_least(0)),
    Field("copies", int, check=_at_least(1)),
    Field("symbols", list, required=False, default=[]),
    Field("effect", dict, required=False),
    Field("clause", str, clause_ref=True),
]


@functools.cache
def _base_rows() -> tuple[dict[str, Any], ...]:
    return load_table(GAME, "cards.toml", "card", _CARD_FIELDS, key="name")


_EDITION_FIELDS = [Field("name", str), Field("title", str), Field("clause", str, clause_ref=True)]
_DELTA_FIELDS = [
    Field("edition", str),
    Field("card", str),
    Field("name", str, required=False),
    Field("cost", int, required=False, check=_at_least(0)),
    Field("effect", dict, required=False),
    Field("clause", str, clause_ref=True),
]


@functools.cache
def _editions() -> tuple[tuple[dict[str, Any], ...], tuple[dict[str, Any], ...]]:
    eds = load_table(GAME, "editions.toml", "edition", _EDITION_FIELDS, key="name", allowed_top=("delta",))
    deltas = load_table(GAME, "editions.toml", "delta", _DELTA_FIELDS, allowed_top=("edition",))
    names = {e["name"] for e in eds}
    base = {r["name"] for r in _base_rows()}
    seen: set[tuple[str, str]] = set()
    for i, d in enumerate(deltas, start=1):
        where = f"{GAME}/editions.toml [[delta]] row {i}"
        if d["edition"] not in names:
            raise SpecError(f"{where}: field 'edition' names unknown edition {d['edition']!r}")
        if d["card"] not in base:
            raise SpecError(f"{where}: field 'card' names unknown card {d['card']!r}")
        if (d["edition"], d["card"]) in seen:
            raise SpecError(f"{where}: second delta for {d['card']!r} in edition {d['edition']!r}")
        seen.add((d["edition"], d["card"]))
        if d["name"] is None and d["cost"] is None and d["effect"] is None:
            raise SpecError(f"{where}: changes nothing (give name, cost or effect)")
    return eds, deltas


def _check_symbols(where: str, symbols: list[Any]) -> tuple[str, ...]:
    if not all(isinstance(s, str) for s in symbols):
        raise SpecError(f"{where}: field 'symbols' must be a list of strings")
    return tuple(symbols)


@functools.cache
def catalog(edition: str = "first") -> tuple[Card, ...]:
    """The card kinds of an edition, in catalog order (index = kind id).

    >>> [c.name for c in catalog("second") if c.key == "Czar and Carpenter"]
    ['Czar & Carpenter']
    >>> sum(c.copies for c in catalog())
    116
    """
    eds, deltas = _editions()
    if edition not in {e["name"] for e in eds}:
        raise SpecError(f"unknown edition {edition!r}")
    patch = {d["card"]: d for d in deltas if d["edition"] == edition}
    cards: list[Card] = []
    scratch = EffectTables.empty(len(_base_rows()), costs=tuple(r["cost"] for r in _base_rows()))
    for i, row in enumerate(_base_rows()):
        where = f"{GAME}/cards.toml row {row['name']!r}"
        d = patch.get(row["name"], {})
        name = d.get("name") or row["name"]
        cost = d["cost"] if d.get("cost") is not None else row["cost"]
        effect = d["effect"] if d.get("effect") is not None else row["effect"]
        kind = None
        params: tuple[tuple[str, Any], ...] = ()
        if effect is not None:
            table = f"{GAME}/editions.toml" if d.get("effect") is not None else f"{GAME}/cards.toml"
            kind = compile_effect(scratch, table, row["name"], i, effect)
            params = tuple((k, v) for k, v in effect.items() if k != "kind")
        cards.append(
            Card(
                index=i,
                key=row["name"],
                name=name,
                stack=row["stack"],
                colour=row["colour"],
                cost=cost,
                roubles=row["roubles"],
                vp=row["vp"],
                copies=row["copies"],
                symbols=_check_symbols(where, row["symbols"]),
                effect=kind,
                params=params,
                clause=d.get("clause") or row["clause"],
            )
        )
    names = [c.name for c in cards]
    if len(set(names)) != len(names):
        raise SpecError(f"{GAME}/editions.toml: edition {edition!r} gives two cards the same name")
    return tuple(cards)


CARDS: tuple[Card, ...] = catalog("first")
"""The first-edition catalog (49 card kinds, 116 cards)."""

# ---------------------------------------------------------------------------------------------- other tables


@frozen
class PhaseSpec:
    """A phase: index, name, the colour it scores (-1 none), the stack refilled after it, round end?"""

    index: int
    name: str
    scores: int
    refill: int
    round_end: bool
    clause: str


@functools.cache
def _phase_tables() -> tuple[tuple[str, ...], tuple[PhaseSpec, ...], dict[str, int]]:
    stacks = load_table(
        GAME,
        "phases.toml",
        "stack",
        [Field("name", str), Field("clause", str, clause_ref=True)],
        key="name",
        allowed_top=("phase", "param"),
    )
    stack_names = tuple(s["name"] for s in stacks)
    if stack_names != PHASE_NAMES:
        raise SpecError(
            f"{GAME}/phases.toml [[stack]]: the interpreter knows stacks {PHASE_NAMES}, got {stack_names}"
        )
    rows = load_table(
        GAME,
        "phases.toml",
        "phase",
        [
            Field("name", str),
            Field("scores", str, check=_one_of("", *COLOURS)),
            Field("refill", str, check=_one_of(*stack_names)),
            Field("round_end", bool),
            Field("clause", str, clause_ref=True),
        ],
        key="name",
        allowed_top=("stack", "param"),
    )
    phases = tuple(
        PhaseSpec(
            i,
            r["name"],
            COLOURS.index(r["scores"]) if r["scores"] else -1,
            stack_names.index(r["refill"]),
            r["round_end"],
            r["clause"],
        )
        for i, r in enumerate(rows)
    )
    if tuple(p.name for p in phases) != PHASE_NAMES or [p.round_end for p in phases] != [
        False,
        False,
        False,
        True,
    ]:
        raise SpecError(
            f"{GAME}/phases.toml [[phase]]: expected phases {PHASE_NAMES} with round_end on the last"
        )
    params = load_table(
        GAME,
        "phases.toml",
        "param",
        [Field("name", str), Field("value", int), Field("clause", str, clause_ref=True)],
        key="name",
        allowed_top=("stack", "phase"),
    )
    known = {"board_cards", "hand_limit", "minimum_cost", "lower_row_discount", "identical_discount"}
    got = {p["name"]: p["value"] for p in params}
    for name in got:
        if name not in known:
            raise SpecError(
                f"{GAME}/phases.toml [[param]] ({name}): unknown parameter "
                f"(known: {', '.join(sorted(known))})"
            )
    for name in known:
        if name not in got:
            raise SpecError(f"{GAME}/phases.toml [[param]]: missing parameter {name!r}")
    return stack_names, phases, got


STACKS: tuple[str, ...] = _phase_tables()[0]
PHASES: tuple[PhaseSpec, ...] = _phase_tables()[1]
PARAMS: dict[str, int] = _phase_tables()[2]


@frozen
class SetupSpec:
    """Set-up for one player count: starting money, first workers, markers per seat (dealing order)."""

    players: int
    money: int
    first_workers: int
    markers: tuple[int, ...]
    clause: str


@functools.cache
def _setups() -> dict[int, SetupSpec]:
    rows = load_table(
        GAME,
        "setup.toml",
        "setup",
        [
            Field("players", int, check=_at_least(1)),
            Field("money", int, check=_at_least(0)),
            Field("first_workers", int, check=_at_least(0)),
            Field("markers", list),
            Field("clause", str, clause_ref=True),
        ],
        key="players",
    )
    out: dict[int, SetupSpec] = {}
    for r in rows:
        m = r["markers"]
        where = f"{GAME}/setup.toml [[setup]] (players={r['players']})"
        if (
            len(m) != r["players"]
            or not all(isinstance(x, int) and x >= 1 for x in m)
            or sum(m) != len(PHASES)
        ):
            raise SpecError(f"{where}: field 'markers' must give each seat >= 1 marker, {len(PHASES)} in all")
        out[r["players"]] = SetupSpec(r["players"], r["money"], r["first_workers"], tuple(m), r["clause"])
    return out


SETUPS: dict[int, SetupSpec] = _setups()


@functools.cache
def _final() -> tuple[tuple[int, ...], dict[str, Any]]:
    var = load_table(
        GAME,
        "scoring.toml",
        "variety",
        [
            Field("distinct", int, check=_at_least(0)),
            Field("vp", int, check=_at_least(0)),
            Field("clause", str, clause_ref=True),
        ],
        key="distinct",
        allowed_top=("final",),
    )
    table = [0] * len(var)
    for r in var:
        n = r["distinct"]
        if n >= len(var):
            raise SpecError(f"{GAME}/scoring.toml [[variety]] (distinct={n}): rows must be 0..{len(var) - 1}")
        if r["vp"] != n * (n + 1) // 2:
            raise SpecError(
                f"{GAME}/scoring.toml [[variety]] (distinct={n}): "
                f"field 'vp' must be n(n+1)/2 = {n * (n + 1) // 2}"
            )
        table[n] = r["vp"]
    final = load_table(
        GAME,
        "scoring.toml",
        "final",
        [Field("name", str), Field("value", (int, str)), Field("clause", str, clause_ref=True)],
        key="name",
        allowed_top=("variety",),
    )
    params = {r["name"]: r["value"] for r in final}
    expected = {"roubles_per_vp": int, "vp_per_hand_card": int, "variety_colour": str}
    for name, t in expected.items():
        if not isinstance(params.get(name), t):
            raise SpecError(f"{GAME}/scoring.toml [[final]]: parameter {name!r} missing or not {t.__name__}")
    for name in params:
        if name not in expected:
            raise SpecError(f"{GAME}/scoring.toml [[final]] ({name}): unknown parameter")
    if params["variety_colour"] not in COLOURS:
        raise SpecError(
            f"{GAME}/scoring.toml [[final]] (variety_colour): must be one of {', '.join(COLOURS)}"
        )
    return tuple(table), params


VARIETY: tuple[int, ...] = _final()[0]
FINAL: dict[str, Any] = _final()[1]


def variety_bonus(n: int) -> int:
    """VP for ``n`` different aristocrats: n(n+1)/2, capped at the table's last row (10 -> 55).

    >>> [variety_bonus(n) for n in range(12)]
    [0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 55]
    """
    return VARIETY[min(max(n, 0), len(VARIETY) - 1)]


@frozen
class OptionSpec:
    """A game option: name, default and the ruling clause it switches."""

    name: str
    default: bool
    description: str
    clause: str


@functools.cache
def _game_tables() -> tuple[dict[str, Any], dict[str, str], dict[str, OptionSpec]]:
    meta = load_table(
        GAME,
        "game.toml",
        "game",
        [
            Field("name", str),
            Field("title", str),
            Field("min_players", int),
            Field("max_players", int),
            Field("default_variant", str),
            Field("score", str),
            Field("tiebreak", str),
            Field("clause", str, clause_ref=True),
        ],
        allowed_top=("variant", "option"),
    )
    if len(meta) != 1:
        raise SpecError(f"{GAME}/game.toml [[game]]: expected exactly one row")
    variants = load_table(
        GAME,
        "game.toml",
        "variant",
        [
            Field("name", str),
            Field("edition", str),
            Field("description", str),
            Field("clause", str, clause_ref=True),
        ],
        key="name",
        allowed_top=("game", "option"),
    )
    eds = {e["name"] for e in _editions()[0]}
    for v in variants:
        if v["edition"] not in eds:
            raise SpecError(
                f"{GAME}/game.toml [[variant]] ({v['name']}): field 'edition' names unknown edition"
            )
    options = load_table(
        GAME,
        "game.toml",
        "option",
        [
            Field("name", str),
            Field("type", str, check=_one_of("bool")),
            Field("default", bool),
            Field("description", str),
            Field("clause", str, clause_ref=True),
        ],
        key="name",
        allowed_top=("game", "variant"),
    )
    known_options = {"trading_discount", "keep_roubles"}
    for o in options:
        if o["name"] not in known_options:
            raise SpecError(
                f"{GAME}/game.toml [[option]] ({o['name']}): the interpreter knows no such option"
            )
    m = meta[0]
    if m["default_variant"] != variants[0]["name"]:
        raise SpecError(f"{GAME}/game.toml [[game]]: default_variant must be the first variant")
    if sorted(SETUPS) != list(range(m["min_players"], m["max_players"] + 1)):
        raise SpecError(f"{GAME}/setup.toml: rows must cover players {m['min_players']}..{m['max_players']}")
    return (
        m,
        {v["name"]: v["edition"] for v in variants},
        {o["name"]: OptionSpec(o["name"], o["default"], o["description"], o["clause"]) for o in options},
    )


GAME_META: dict[str, Any] = _game_tables()[0]
VARIANTS: dict[str, str] = _game_tables()[1]
"""Variant name -> edition."""
OPTIONS: dict[str, OptionSpec] = _game_tables()[2]

# ---------------------------------------------------------------------------------------------- names


@frozen
class Names:
    """A card's names: English, German, Russian (first = preferred) and the spellings seed 001 uses."""

    card: str
    en: tuple[str, ...]
    de: tuple[str, ...]
    ru: tuple[str, ...]
    seed_terms: tuple[str, ...]


@functools.cache
def card_names() -> dict[str, Names]:
    """The names table (``spec/petersburg/names.toml``) by first-edition card name.

    >>> card_names()["Czar and Carpenter"].de[0]
    'Zar Peter'
    """
    rows = load_table(
        GAME,
        "names.toml",
        "name",
        [
            Field("card", str),
            Field("en", list),
            Field("de", list),
            Field("ru", list),
            Field("seed_terms", list),
        ],
        key="card",
    )
    base = {c.key for c in CARDS}
    out: dict[str, Names] = {}
    for r in rows:
        where = f"{GAME}/names.toml [[name]] (card={r['card']!r})"
        if r["card"] not in base:
            raise SpecError(f"{where}: field 'card' names unknown card")
        for f in ("en", "de", "ru", "seed_terms"):
            if not all(isinstance(x, str) and x for x in r[f]):
                raise SpecError(f"{where}: field {f!r} must be a list of non-empty strings")
            if f != "seed_terms" and not r[f]:
                raise SpecError(f"{where}: field {f!r} must name the card at least once")
        out[r["card"]] = Names(
            r["card"], tuple(r["en"]), tuple(r["de"]), tuple(r["ru"]), tuple(r["seed_terms"])
        )
    missing = base - set(out)
    if missing:
        raise SpecError(f"{GAME}/names.toml: no names for {', '.join(sorted(missing))}")
    return out


@functools.cache
def _alias_index() -> dict[str, int]:
    index: dict[str, int] = {}
    by_key = {c.key: c.index for c in CARDS}
    for edition in {*VARIANTS.values()}:
        for c in catalog(edition):
            index[c.name] = c.index
    for n in card_names().values():
        k = by_key[n.card]
        for alias in (*n.en, *n.de, *n.ru, *n.seed_terms):
            folded = alias.casefold()
            if folded in index and index[folded] != k:
                raise SpecError(f"{GAME}/names.toml: alias {alias!r} names two cards")
            index[folded] = k
    return index


def resolve_card(name: str) -> int | None:
    """The card kind named ``name`` (any edition's name, or an alias from the names table, any case).

    >>> CARDS[resolve_card("Zar Peter")].key
    'Czar and Carpenter'
    >>> resolve_card("Unicorn") is None
    True
    """
    index = _alias_index()
    k = index.get(name)
    if k is None:
        k = index.get(name.casefold())
    return k


# ---------------------------------------------------------------------------------------------- ruleset


class Ruleset:
    """The compiled rules of one variant and option set: per-kind tuples for the interpreter.

    Instances are cached (one per variant and options), so two states of the same game share one ruleset
    and compare equal.  Read-only by convention: every table is a tuple.
    """

    __slots__ = (
        "cache",
        "cards",
        "colour",
        "cost",
        "displace_clause",
        "dval",
        "edition",
        "hand_limit",
        "hand_limit_kinds",
        "is_trading",
        "key",
        "kind",
        "names",
        "nkinds",
        "obs_phase",
        "observatory_kinds",
        "options",
        "per_card",
        "pub_kinds",
        "pub_max",
        "pub_rate",
        "reducer_clause",
        "reducers_for",
        "roubles",
        "stack",
        "stack_kinds",
        "targets_of",
        "variant",
        "variety_colour",
        "vp",
    )

    def __init__(self, variant: str, options: tuple[tuple[str, Any], ...]) -> None:
        self.variant = variant
        self.options = options
        self.cache: dict[int, dict[int, Any]] = {}  # interned action objects per seat (a memo, not state)
        self.edition = VARIANTS[variant]
        opts = dict(options)
        cards = catalog(self.edition)
        self.cards = cards
        n = len(cards)
        self.nkinds = n
        self.key = (variant, options)
        self.names = tuple(c.name for c in cards)
        self.kind = {c.name: c.index for c in cards}
        self.cost = tuple(c.cost for c in cards)
        self.roubles = tuple(c.roubles for c in cards)
        self.vp = tuple(c.vp for c in cards)
        self.colour = tuple(COLOURS.index(c.colour) for c in cards)
        self.stack = tuple(STACKS.index(c.stack) for c in cards)
        self.is_trading = tuple(c.trading for c in cards)
        self.stack_kinds = tuple(tuple(c.index for c in cards if c.stack == s) for s in STACKS)
        t = EffectTables.empty(n, costs=self.cost)
        for c in cards:
            if c.effect is not None:
                compile_effect(t, "cards", c.key, c.index, {"kind": c.effect, **dict(c.params)})
        self.dval = tuple(t.displace_value)
        self.displace_clause = tuple(t.displace_clause)
        self.hand_limit = tuple(t.hand_limit)
        self.hand_limit_kinds = tuple(k for k in range(n) if t.hand_limit[k])
        self.pub_rate = tuple(t.pub_rate)
        self.pub_max = tuple(t.pub_max)
        self.pub_kinds = tuple(k for k in range(n) if t.pub_max[k])
        self.obs_phase = tuple(t.observatory_phase)
        self.observatory_kinds = tuple(k for k in range(n) if t.observatory_phase[k] >= 0)
        self.per_card = tuple(t.per_card)
        # reducers_for[k]: ((reducer kind, amount), ...) applying to card k (SP-COST-4, SP-COST-5)
        discount_trading = bool(opts.get("trading_discount", True))
        red: list[tuple[tuple[int, int], ...]] = []
        for ci in range(n):
            red.append(
                tuple(
                    (r, amount)
                    for r, colour, amount in t.reducers
                    if self.colour[ci] == colour and (discount_trading or not self.is_trading[ci])
                )
            )
        self.reducers_for = tuple(red)
        self.reducer_clause = "SP-COST-5" if discount_trading else "SP-COST-4"
        self.targets_of = _targets(cards)
        if n > 64:
            raise SpecError(f"{GAME}/cards.toml: the interpreter's action keys allow 64 card kinds, got {n}")
        self.variety_colour = COLOURS.index(FINAL["variety_colour"])

    def __repr__(self) -> str:
        return f"ruleset({self.variant!r}, {dict(self.options)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (ruleset, (self.variant, dict(self.options)))


@functools.cache
def _pairings() -> tuple[dict[str, str], dict[int, str]]:
    rules = load_table(
        GAME,
        "pairings.toml",
        "colour_rule",
        [
            Field("colour", str, check=_one_of(*COLOURS)),
            Field("match", str, check=_one_of("any", "symbol")),
            Field("clause", str, clause_ref=True),
        ],
        key="colour",
        allowed_top=("pairing",),
    )
    pairs = load_table(
        GAME,
        "pairings.toml",
        "pairing",
        [Field("trading", str), Field("symbol", str), Field("clause", str, clause_ref=True)],
        key="trading",
        allowed_top=("colour_rule",),
    )
    by_name = {c.key: c for c in CARDS}
    symbols = {s for c in CARDS for s in c.symbols}
    out: dict[int, str] = {}
    for i, p in enumerate(pairs, start=1):
        where = f"{GAME}/pairings.toml [[pairing]] row {i} (trading={p['trading']!r})"
        card = by_name.get(p["trading"])
        if card is None or not card.trading:
            raise SpecError(f"{where}: field 'trading' must name a trading card")
        if p["symbol"] not in symbols:
            raise SpecError(f"{where}: field 'symbol' {p['symbol']!r} is shown by no card")
        out[card.index] = p["symbol"]
    match = {r["colour"]: r["match"] for r in rules}
    for c in CARDS:
        if c.trading:
            if c.colour not in match:
                raise SpecError(f"{GAME}/pairings.toml: no [[colour_rule]] for {c.colour} trading cards")
            if match[c.colour] == "symbol" and c.index not in out:
                raise SpecError(f"{GAME}/pairings.toml: trading card {c.key!r} needs a [[pairing]] row")
    return match, out


def _targets(cards: tuple[Card, ...]) -> tuple[tuple[int, ...], ...]:
    match, symbol_of = _pairings()
    out: list[tuple[int, ...]] = []
    for c in cards:
        if not c.trading:
            out.append(())
            continue
        rule = match[c.colour]
        out.append(
            tuple(
                t.index
                for t in cards
                if not t.trading
                and t.colour == c.colour
                and (rule == "any" or symbol_of[c.index] in t.symbols)
            )
        )
    return tuple(out)


@functools.cache
def _ruleset(variant: str, options: tuple[tuple[str, Any], ...]) -> Ruleset:
    return Ruleset(variant, options)


def normalize_options(options: Mapping[str, Any] | None) -> tuple[tuple[str, Any], ...]:
    """Options with defaults filled in, as a sorted tuple; unknown names or wrong types -> IllegalSetup."""
    opts = dict(options or {})
    out: dict[str, Any] = {}
    for name in opts:
        if name not in OPTIONS:
            raise IllegalSetup("SP-VARIANT-2", f"unknown option {name!r} (known: {', '.join(OPTIONS)})")
    for name, spec in OPTIONS.items():
        value = opts.get(name, spec.default)
        if not isinstance(value, bool):
            raise IllegalSetup("SP-VARIANT-2", f"option {name!r} must be true or false, got {value!r}")
        out[name] = value
    return tuple(sorted(out.items()))


def ruleset(variant: str | None = None, options: Mapping[str, Any] | None = None) -> Ruleset:
    """The compiled ruleset of a variant (default ``first``) and options; unknown ones -> IllegalSetup."""
    v = GAME_META["default_variant"] if variant is None else variant
    if v not in VARIANTS:
        raise IllegalSetup("SP-VARIANT-1", f"unknown variant {v!r} (known: {', '.join(VARIANTS)})")
    return _ruleset(v, normalize_options(options))


load_clauses(GAME)  # fail at import if the clause book is broken
