"""The Saint Petersburg tables of ``spec/petersburg/``, loaded and checked: the card catalog of each
edition (effects compiled into their tables once), the phases, the set-ups, the final scoring, the game's
variants and options, the trading-card pairings.

Every table goes through :func:`engine.spec.load_table` (unknown key, missing field, wrong type, dangling
clause id -> :class:`~engine.errors.SpecError` naming table, row and field); cross-table references (a
pairing naming an unknown card, a delta for a card that does not exist, a symbol no worker shows, a
variety table that is not n(n+1)/2) fail the same way.  Effects are checked against the handler registry
(:mod:`engine.petersburg.effects`) and compiled once per edition (:func:`effect_tables`).  The compiled
ruleset the interpreter reads is :mod:`engine.petersburg.ruleset`; the card names in every language
:mod:`engine.petersburg.names`.

>>> [c.cost for c in catalog() if c.name == "Market"]
[5]
>>> catalog("second")[CARDS[0].index].name, len(CARDS) <= MAX_KINDS
('Lumberjack', True)
>>> variety_bonus(4), variety_bonus(12)
(10, 55)

The tables are a function of a :class:`~engine.spec.Tables` value: :func:`build_book` loads and checks
every table of it into a :class:`Book`, and the module's names (``CARDS``, ``PARAMS``, :func:`catalog` ...)
are the shipped book's (:data:`SHIPPED`).  A book of edited tables gives rulesets that differ from the
shipped ones only where the edit says, in-process (a fault model, a test).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from attrs import field, frozen

from engine.errors import SpecError
from engine.petersburg.effects import COLOURS, PHASE_NAMES, EffectTables, compile_effect
from engine.spec import Field, Tables, load_clauses, load_table

__all__ = [
    "CARDS",
    "COLOURS",
    "FINAL",
    "GAME_META",
    "KIND_BITS",
    "MAX_KINDS",
    "OPTIONS",
    "PARAMS",
    "PARAM_CLAUSES",
    "PHASES",
    "SETUPS",
    "SHIPPED",
    "STACKS",
    "VARIANTS",
    "VARIETY",
    "Book",
    "Card",
    "OptionSpec",
    "PhaseSpec",
    "SetupSpec",
    "build_book",
    "catalog",
    "edition_clauses",
    "effect_tables",
    "pairings",
    "variety_bonus",
]

GAME = "petersburg"

KIND_BITS = 6
"""The bits of a card kind in an interned action's key (:mod:`engine.petersburg.legal`): a buy or a play
packs its card's kind and the displaced card's kind + 1 (0: none) in ``KIND_BITS`` bits each."""
MAX_KINDS = (1 << KIND_BITS) - 1
"""The most card kinds a catalog may hold (63): every kind, and every kind + 1, fits ``KIND_BITS`` bits; the
cards table is refused at its first row beyond."""


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
    ``clause`` is the card's own rule: its row's clause in cards.toml, or the clause of the edition's delta
    row when that row gives the card a new effect; ``edition_clause`` is the clause of the edition's delta
    row (a new cost, name or effect), ``None`` where the edition leaves the card as the catalog prints it.

    >>> from engine.petersburg.ruleset import ruleset
    >>> obs = ruleset("second").cards[ruleset("second").kind["Observatory"]]
    >>> obs.cost, obs.clause, obs.edition_clause
    (7, 'SP-OBS-1', 'SP-EDITION-1')
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
    edition_clause: str | None = None

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


def _base_rows(tables: Tables) -> tuple[dict[str, Any], ...]:
    rows = load_table(GAME, "cards.toml", "card", _CARD_FIELDS, key="name", tables=tables)
    if len(rows) > MAX_KINDS:
        raise SpecError(
            f"{GAME}/cards.toml row {rows[MAX_KINDS]['name']!r}: card kind {MAX_KINDS} is one too many: "
            f"the interpreter's action keys hold {MAX_KINDS} card kinds ({KIND_BITS} bits for a kind + 1)"
        )
    return rows


_EDITION_FIELDS = [Field("name", str), Field("title", str), Field("clause", str, clause_ref=True)]
_DELTA_FIELDS = [
    Field("edition", str),
    Field("card", str),
    Field("name", str, required=False),
    Field("cost", int, required=False, check=_at_least(0)),
    Field("effect", dict, required=False),
    Field("clause", str, clause_ref=True),
]


def _editions(
    tables: Tables, base_rows: tuple[dict[str, Any], ...] | None = None
) -> tuple[tuple[dict[str, Any], ...], tuple[dict[str, Any], ...]]:
    eds = load_table(
        GAME, "editions.toml", "edition", _EDITION_FIELDS, key="name", allowed_top=("delta",), tables=tables
    )
    deltas = load_table(
        GAME, "editions.toml", "delta", _DELTA_FIELDS, allowed_top=("edition",), tables=tables
    )
    names = {e["name"] for e in eds}
    base = {r["name"] for r in (base_rows if base_rows is not None else _base_rows(tables))}
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


def _edition(
    rows: tuple[dict[str, Any], ...],
    editions: tuple[tuple[dict[str, Any], ...], tuple[dict[str, Any], ...]],
    edition: str,
) -> tuple[tuple[Card, ...], EffectTables]:
    """An edition's cards and their effects, compiled (the ruleset reads both)."""
    eds, deltas = editions
    if edition not in {e["name"] for e in eds}:
        raise SpecError(f"unknown edition {edition!r}")
    patch = {d["card"]: d for d in deltas if d["edition"] == edition}
    costs = tuple(
        patch[r["name"]]["cost"] if patch.get(r["name"], {}).get("cost") is not None else r["cost"]
        for r in rows
    )
    tables = EffectTables.empty(len(rows), costs=costs)
    cards: list[Card] = []
    for i, row in enumerate(rows):
        where = f"{GAME}/cards.toml row {row['name']!r}"
        d = patch.get(row["name"], {})
        effect = d["effect"] if d.get("effect") is not None else row["effect"]
        kind = None
        params: tuple[tuple[str, Any], ...] = ()
        if effect is not None:
            table = f"{GAME}/editions.toml" if d.get("effect") is not None else f"{GAME}/cards.toml"
            kind = compile_effect(tables, table, row["name"], i, effect)
            params = tuple((k, v) for k, v in effect.items() if k != "kind")
        cards.append(
            Card(
                index=i,
                key=row["name"],
                name=d.get("name") or row["name"],
                stack=row["stack"],
                colour=row["colour"],
                cost=costs[i],
                roubles=row["roubles"],
                vp=row["vp"],
                copies=row["copies"],
                symbols=_check_symbols(where, row["symbols"]),
                effect=kind,
                params=params,
                clause=d["clause"] if d.get("effect") is not None else row["clause"],
                edition_clause=d.get("clause"),
            )
        )
    names = [c.name for c in cards]
    if len(set(names)) != len(names):
        raise SpecError(f"{GAME}/editions.toml: edition {edition!r} gives two cards the same name")
    return tuple(cards), tables


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


def _phase_tables(
    tables: Tables,
) -> tuple[tuple[str, ...], tuple[PhaseSpec, ...], dict[str, int], dict[str, str]]:
    stacks = load_table(
        GAME,
        "phases.toml",
        "stack",
        [Field("name", str), Field("clause", str, clause_ref=True)],
        key="name",
        allowed_top=("phase", "param"),
        tables=tables,
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
        tables=tables,
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
        tables=tables,
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
    return stack_names, phases, got, {p["name"]: p["clause"] for p in params}


@frozen
class SetupSpec:
    """Set-up for one player count: starting money, first workers, markers per seat (dealing order)."""

    players: int
    money: int
    first_workers: int
    markers: tuple[int, ...]
    clause: str


def _setups(tables: Tables, phases: int = len(PHASE_NAMES)) -> dict[int, SetupSpec]:
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
        tables=tables,
    )
    out: dict[int, SetupSpec] = {}
    for r in rows:
        m = r["markers"]
        where = f"{GAME}/setup.toml [[setup]] (players={r['players']})"
        if (
            len(m) != r["players"]
            or not all(isinstance(x, int) and x >= 1 for x in m)
            or sum(m) != phases
        ):
            raise SpecError(f"{where}: field 'markers' must give each seat >= 1 marker, {phases} in all")
        out[r["players"]] = SetupSpec(r["players"], r["money"], r["first_workers"], tuple(m), r["clause"])
    return out



def _final(tables: Tables, checked: bool = True) -> tuple[tuple[int, ...], dict[str, Any]]:
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
        tables=tables,
    )
    table = [0] * len(var)
    for r in var:
        n = r["distinct"]
        if n >= len(var):
            raise SpecError(f"{GAME}/scoring.toml [[variety]] (distinct={n}): rows must be 0..{len(var) - 1}")
        if checked and r["vp"] != n * (n + 1) // 2:
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
        tables=tables,
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


@frozen
class OptionSpec:
    """A game option: name, default and the ruling clause it switches."""

    name: str
    default: bool
    description: str
    clause: str


def _game_tables(
    tables: Tables, edition_names: set[str] | None = None, setups: Mapping[int, Any] | None = None
) -> tuple[dict[str, Any], dict[str, str], dict[str, OptionSpec]]:
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
        tables=tables,
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
        tables=tables,
    )
    eds = edition_names if edition_names is not None else {e["name"] for e in _editions(tables)[0]}
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
        tables=tables,
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
    players = sorted(setups if setups is not None else _setups(tables))
    if players != list(range(m["min_players"], m["max_players"] + 1)):
        raise SpecError(f"{GAME}/setup.toml: rows must cover players {m['min_players']}..{m['max_players']}")
    return (
        m,
        {v["name"]: v["edition"] for v in variants},
        {o["name"]: OptionSpec(o["name"], o["default"], o["description"], o["clause"]) for o in options},
    )


# ---------------------------------------------------------------------------------------------- pairings


def _pairings(tables: Tables, cards: tuple[Card, ...]) -> tuple[dict[str, str], dict[int, str]]:
    """The trading cards' colour rules (colour -> ``any`` or ``symbol``) and the pairings (the kind of a
    trading card that displaces by symbol -> that symbol), checked against the first-edition catalog
    ``cards``."""
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
        tables=tables,
    )
    pairs = load_table(
        GAME,
        "pairings.toml",
        "pairing",
        [Field("trading", str), Field("symbol", str), Field("clause", str, clause_ref=True)],
        key="trading",
        allowed_top=("colour_rule",),
        tables=tables,
    )
    by_name = {c.key: c for c in cards}
    symbols = {s for c in cards for s in c.symbols}
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
    for c in cards:
        if c.trading:
            if c.colour not in match:
                raise SpecError(f"{GAME}/pairings.toml: no [[colour_rule]] for {c.colour} trading cards")
            if match[c.colour] == "symbol" and c.index not in out:
                raise SpecError(f"{GAME}/pairings.toml: trading card {c.key!r} needs a [[pairing]] row")
    return match, out



# ---------------------------------------------------------------------------------------------- the book


@frozen(eq=False, repr=False)
class Book:
    """Every Saint Petersburg table of one :class:`~engine.spec.Tables` value, loaded and cross-checked:
    the rules of the game as those tables say.  :data:`SHIPPED` is the shipped tables' book;
    :func:`build_book` builds one from any tables.  An edition's catalog and effect tables are compiled
    once per book (:meth:`edition`); ``rulesets`` memoises the compiled rulesets
    (:func:`engine.petersburg.ruleset.ruleset` with ``book=``).

    >>> SHIPPED.params["lower_row_discount"], SHIPPED.param_clauses["lower_row_discount"]
    (1, 'SP-COST-3')
    >>> SHIPPED.catalog("second")[SHIPPED.catalog()[0].index].name
    'Lumberjack'
    """

    tables: Tables
    rows: tuple[dict[str, Any], ...]
    editions: tuple[tuple[dict[str, Any], ...], tuple[dict[str, Any], ...]]
    stacks: tuple[str, ...]
    phases: tuple[PhaseSpec, ...]
    params: Mapping[str, int]
    param_clauses: Mapping[str, str]
    """The clause of each parameter of phases.toml's ``[[param]]`` rows: what a derivation cites for it."""
    setups: Mapping[int, SetupSpec]
    variety: tuple[int, ...]
    final: Mapping[str, Any]
    meta: Mapping[str, Any]
    variants: Mapping[str, str]
    """Variant name -> edition."""
    options: Mapping[str, OptionSpec]
    match: Mapping[str, str]
    symbol_of: Mapping[int, str]
    compiled: dict[str, tuple[tuple[Card, ...], EffectTables]] = field(factory=dict)
    rulesets: dict[tuple[Any, ...], Any] = field(factory=dict)

    def __repr__(self) -> str:
        return f"build_book({self.tables!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (build_book, (self.tables,))

    def edition(self, edition: str) -> tuple[tuple[Card, ...], EffectTables]:
        """An edition's cards and the tables its effects compiled into (compiled once per book)."""
        found = self.compiled.get(edition)
        if found is None:
            found = self.compiled[edition] = _edition(self.rows, self.editions, edition)
        return found

    def catalog(self, edition: str = "first") -> tuple[Card, ...]:
        """The card kinds of an edition, in catalog order (index = kind id)."""
        return self.edition(edition)[0]

    def effect_tables(self, edition: str = "first") -> EffectTables:
        """The per-kind tables an edition's effects compiled into (read-only)."""
        return self.edition(edition)[1]

    def edition_clauses(self, edition: str) -> tuple[str, ...]:
        """The clauses an edition plays by: its row's clause, then its delta rows' clauses (each once)."""
        eds, deltas = self.editions
        row = next((e for e in eds if e["name"] == edition), None)
        if row is None:
            raise SpecError(f"unknown edition {edition!r}")
        clauses = [row["clause"], *(d["clause"] for d in deltas if d["edition"] == edition)]
        return tuple(dict.fromkeys(clauses))

    def variety_bonus(self, n: int) -> int:
        """VP for ``n`` different aristocrats, capped at the variety table's last row."""
        return self.variety[min(max(n, 0), len(self.variety) - 1)]


def build_book(tables: Tables, *, checked: bool = True) -> Book:
    """Load and cross-check every table of ``tables`` (a SpecError names the table, the row and the field):
    the card catalog and both editions (effects compiled), the phases and parameters, the set-ups, the final
    scoring, the game's variants and options, the pairings.

    ``checked=False`` leaves out the transcription check of the variety table (each row's VP is
    n(n+1)/2): a redundant formula guarding the shipped table against a typo, which tables edited on
    purpose (a fault model) need not keep."""
    rows = _base_rows(tables)
    editions = _editions(tables, rows)
    stacks, phases, params, param_clauses = _phase_tables(tables)
    setups = _setups(tables, len(phases))
    variety, final = _final(tables, checked)
    meta, variants, options = _game_tables(tables, {e["name"] for e in editions[0]}, setups)
    first = _edition(rows, editions, "first")
    match, symbol_of = _pairings(tables, first[0])
    book = Book(tables, rows, editions, stacks, phases, params, param_clauses, setups, variety, final, meta,
                variants, options, match, symbol_of)
    book.compiled["first"] = first
    for edition in {e["name"] for e in editions[0]}:
        book.edition(edition)  # every edition compiles (fail here, not mid-game)
    return book


load_clauses(GAME)  # fail at import if the clause book is broken
SHIPPED: Book = build_book(Tables.shipped(GAME))
"""The book of the shipped tables (``spec/petersburg/``): every name below is its."""

CARDS: tuple[Card, ...] = SHIPPED.catalog("first")
"""The first-edition catalog (49 card kinds, 116 cards)."""
STACKS: tuple[str, ...] = SHIPPED.stacks
PHASES: tuple[PhaseSpec, ...] = SHIPPED.phases
PARAMS: Mapping[str, int] = SHIPPED.params
PARAM_CLAUSES: Mapping[str, str] = SHIPPED.param_clauses
"""The clause of each parameter of phases.toml's ``[[param]]`` rows: what a derivation cites for it."""
SETUPS: Mapping[int, SetupSpec] = SHIPPED.setups
VARIETY: tuple[int, ...] = SHIPPED.variety
FINAL: Mapping[str, Any] = SHIPPED.final
GAME_META: Mapping[str, Any] = SHIPPED.meta
VARIANTS: Mapping[str, str] = SHIPPED.variants
"""Variant name -> edition."""
OPTIONS: Mapping[str, OptionSpec] = SHIPPED.options


def catalog(edition: str = "first") -> tuple[Card, ...]:
    """The card kinds of an edition, in catalog order (index = kind id), of the shipped tables.

    >>> [c.name for c in catalog("second") if c.key == "Czar and Carpenter"]
    ['Czar & Carpenter']
    >>> sum(c.copies for c in catalog())
    116
    """
    return SHIPPED.catalog(edition)


def edition_clauses(edition: str) -> tuple[str, ...]:
    """The clauses an edition plays by, from editions.toml: its row's clause, then its delta rows' clauses
    (each once, in table order).

    >>> edition_clauses("first"), edition_clauses("second")
    (('SP-VARIANT-1',), ('SP-VARIANT-1', 'SP-EDITION-1', 'SP-MARI-2'))
    """
    return SHIPPED.edition_clauses(edition)


def effect_tables(edition: str = "first") -> EffectTables:
    """The per-kind tables an edition's effects compiled into (read-only: the ruleset copies them to tuples).

    >>> effect_tables().hand_limit[catalog()[0].index]
    0
    """
    return SHIPPED.effect_tables(edition)


def pairings() -> tuple[Mapping[str, str], Mapping[int, str]]:
    """The shipped trading cards' colour rules (colour -> ``any`` or ``symbol``) and pairings (the kind of
    a trading card that displaces by symbol -> that symbol)."""
    return SHIPPED.match, SHIPPED.symbol_of


def variety_bonus(n: int) -> int:
    """VP for ``n`` different aristocrats: n(n+1)/2, capped at the table's last row (10 -> 55).

    >>> [variety_bonus(n) for n in range(12)]
    [0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 55]
    """
    return SHIPPED.variety_bonus(n)
