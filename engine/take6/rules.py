"""The 6 nimmt! rule tables, loaded from ``spec/take6/`` and checked at import.

Every number the interpreter uses comes from here: the decks, the bullhead rules, the set-ups (rows, hand
size, row capacity, player range), the end conditions (66, lowest or highest wins), the variants and the
options.  Each table is checked with :func:`engine.spec.load_table` (unknown keys, missing fields, dangling
clause ids fail loudly), then cross-checked here: kinds must name a handler the interpreter has, references
between tables must resolve, the bullhead rules must reproduce the seed's counts and total, and every deck
must be large enough for every player count its variants allow.

>>> bullheads(55), bullheads(33), bullheads(30), bullheads(25), bullheads(29)
(7, 5, 3, 2, 1)
>>> sum(bullheads(c) for c in rules_for("standard", 4).deck)
171
>>> r = rules_for("tactics", 3)
>>> (r.deck[0], r.deck[-1], r.rows, r.hand_size, r.capacity)
(1, 34, 4, 10, 5)

The rules are a function of the tables: :func:`build_book` builds a :class:`Book` (every table, checked)
from a :class:`~engine.spec.Tables` value, and the module's names (``VARIANTS``, ``BULLHEADS``,
:func:`rules_for` ...) are the shipped book's.  A book built from edited tables gives rules that differ
from the shipped ones only where the edit says, in-process (a fault model, a test):

>>> from engine.spec import Tables
>>> t = Tables.shipped("take6")
>>> doc = {"setup": [dict(row) for row in t.doc("setup.toml")["setup"]]}
>>> doc["setup"][0]["row_capacity"] = 4
>>> book = build_book(t.replace("setup.toml", doc, "setup/standard/row_capacity=4"))
>>> book.rules_for("standard", 4).capacity, rules_for("standard", 4).capacity
(4, 5)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from attrs import field, frozen

from engine.errors import IllegalSetup, SpecError
from engine.jsonio import show
from engine.spec import FIELD_CLAUSES, Field, Tables, load_clauses, load_table

__all__ = [
    "BULLHEADS",
    "BULLHEAD_CLAUSE",
    "BULLHEAD_SUBJECT",
    "DEAL_KINDS",
    "END_KINDS",
    "GAME_INFO",
    "OPTIONS",
    "PLACEMENT_KINDS",
    "PLAY_KINDS",
    "PREBUILT_ROWS",
    "SHIPPED",
    "VARIANTS",
    "Book",
    "GameInfo",
    "OptionSpec",
    "Rules",
    "VariantSpec",
    "build_book",
    "bullheads",
    "rules_for",
]

GAME = "take6"
CLAUSES = load_clauses(GAME)

# Handler kinds the interpreter implements; a table naming any other kind fails at import.
WHEN_KINDS = ("equals", "multiple_of", "otherwise")
DEAL_KINDS = ("shuffle", "draft")
PLAY_KINDS = ("simultaneous", "flip")
PLACEMENT_KINDS = ("ends", "ends_and_starts")
END_KINDS = ("threshold", "rounds")
WINNER_KINDS = ("lowest", "highest")
TIE_KINDS = ("share",)
DISPLAY_KINDS = ("penalty", "countdown")
PREBUILT_ROWS = 16
"""Row choices prebuilt per seat (``layout.TAKE``): a set-up of more rows is refused where the table loads."""


def _one_of(kinds: tuple[str, ...]) -> Any:
    def check(value: Any) -> str | None:
        return None if value in kinds else f"{value!r} is not one of {', '.join(kinds)}"

    return check


def _positive(value: Any) -> str | None:
    return None if value > 0 else "must be > 0"


def _clause_list(value: Any) -> str | None:
    if not all(isinstance(v, str) for v in value):
        return "must be a list of clause ids"
    return None


# --------------------------------------------------------------------------------------------------
# game.toml


@frozen
class GameInfo:
    """Metadata of the game (``spec/take6/game.toml``)."""

    name: str
    title: str
    min_players: int
    max_players: int
    default_variant: str
    max_game_length: int
    score_min: int
    score_max: int


def _load_game_info(tables: Tables) -> GameInfo:
    (row,) = load_table(
        GAME,
        "game.toml",
        "game",
        [
            Field("name", str),
            Field("title", str),
            Field("min_players", int, check=_positive),
            Field("max_players", int, check=_positive),
            Field("default_variant", str),
            Field("max_game_length", int, check=_positive),
            Field("score_min", int),
            Field("score_max", int),
            Field("clauses", list, check=_clause_list, clause_ref=True),
        ],
        key="name",
        tables=tables,
    )
    if row["name"] != GAME:
        raise SpecError(f"take6/game.toml [[game]] row 1: field 'name' must be {GAME!r}")
    row.pop("clauses")
    return GameInfo(**row)


# --------------------------------------------------------------------------------------------------
# bullheads.toml


def _load_bullheads(tables: Tables, low: int, high: int, expected_total: int | None) -> tuple[int, ...]:
    """Evaluate the ordered bullhead rules over ``low..high``; index a card to get its bullheads."""
    return _bullhead_table(tables, low, high, expected_total)[0]


def _bullhead_table(
    tables: Tables, low: int, high: int, expected_total: int | None, checked: bool = True
) -> tuple[tuple[int, ...], tuple[str, ...], tuple[str, ...]]:
    """Evaluate the ordered bullhead rules over ``low..high``: per card its bullheads, the clause of the rule
    that decides it (the first that matches) and that rule's subject (``55``, ``x11``, ``other``)."""
    table = "take6/bullheads.toml [[rule]]"
    rules = load_table(
        GAME,
        "bullheads.toml",
        "rule",
        [
            Field("when", str, check=_one_of(WHEN_KINDS)),
            Field("n", int, required=False, check=_positive),
            Field("bullheads", int, check=_positive),
            Field("count", int, check=_positive),
            Field("clause", str, clause_ref=True),
        ],
        tables=tables,
    )
    for i, rule in enumerate(rules, start=1):
        if (rule["when"] == "otherwise") != (rule["n"] is None):
            raise SpecError(f"{table} row {i}: field 'n' is required unless when = 'otherwise'")
    if rules[-1]["when"] != "otherwise":
        raise SpecError(f"{table}: the last rule must be when = 'otherwise' (every card needs a value)")
    if any(r["when"] == "otherwise" for r in rules[:-1]):
        raise SpecError(f"{table}: when = 'otherwise' must be the last rule (later rules would never apply)")
    values = [0] * (high + 1)
    deciding = [""] * (high + 1)
    subjects = [""] * (high + 1)
    counts = [0] * len(rules)
    for card in range(low, high + 1):
        for i, rule in enumerate(rules):
            kind, n = rule["when"], rule["n"]
            if (
                kind == "otherwise"
                or (kind == "equals" and card == n)
                or (kind == "multiple_of" and card % n == 0)
            ):
                values[card] = rule["bullheads"]
                deciding[card] = rule["clause"]
                subjects[card] = {"equals": f"{n}", "multiple_of": f"x{n}"}.get(kind, "other")
                counts[i] += 1
                break
    for i, rule in enumerate(rules):
        if checked and counts[i] != rule["count"]:
            raise SpecError(
                f"{table} row {i + 1}: field 'count': the rule decides {counts[i]} cards, "
                f"the table says {rule['count']}"
            )
    if checked and expected_total is not None and sum(values) != expected_total:
        raise SpecError(f"take6/deck.toml: bullhead_total {expected_total} but the rules give {sum(values)}")
    return tuple(values), tuple(deciding), tuple(subjects)


# --------------------------------------------------------------------------------------------------
# deck.toml, setup.toml, end.toml, variants.toml, options.toml


_FIELD_CLAUSES = Field(FIELD_CLAUSES, dict, required=False, clause_ref=True)
"""A row's map from a field to the clause of the row it states (what a fault changing that field names)."""


def _load_named(tables: Tables, filename: str, array: str, fields: list[Field]) -> dict[str, dict[str, Any]]:
    rows = load_table(GAME, filename, array, [Field("name", str), *fields], key="name", tables=tables)
    return {r["name"]: r for r in rows}


def _load_decks(tables: Tables) -> dict[str, dict[str, Any]]:
    """deck.toml: each deck gives either its highest card or the per-player rule (tactics)."""
    decks = _load_named(
        tables,
        "deck.toml",
        "deck",
        [
            Field("low", int, check=_positive),
            Field("high", int, required=False, check=_positive),
            Field("per_player", int, required=False, check=_positive),
            Field("extra", int, required=False),
            Field("bullhead_total", int, required=False),
            Field("clause", str, clause_ref=True),
        ],
    )
    for name, deck in decks.items():
        if (deck["high"] is None) == (deck["per_player"] is None or deck["extra"] is None):
            raise SpecError(
                f"take6/deck.toml [[deck]] ({name}): give either 'high' or both 'per_player' and 'extra'"
            )
    return decks


def _load_setups(tables: Tables) -> dict[str, dict[str, Any]]:
    """setup.toml, each set-up's row count checked against the prebuilt row choices (PREBUILT_ROWS)."""
    setups = _load_named(
        tables,
        "setup.toml",
        "setup",
        [
            Field("rows", int, check=_positive),
            Field("hand_size", int, check=_positive),
            Field("row_capacity", int, check=_positive),
            Field("min_players", int, check=_positive),
            Field("max_players", int, check=_positive),
            Field("shrink_piles", bool),
            Field("clauses", list, check=_clause_list, clause_ref=True),
            _FIELD_CLAUSES,
        ],
    )
    _check_row_bound(setups)
    return setups


def _check_row_bound(setups: Mapping[str, Mapping[str, Any]]) -> None:
    """Every set-up's row count fits the prebuilt row choices (PREBUILT_ROWS): else the table is refused,
    naming the row.

    >>> _check_row_bound({"big": {"rows": 17}})
    Traceback (most recent call last):
    ...
    engine.errors.SpecError: take6/setup.toml [[setup]] row 1 (big): 'rows' 17: at most 16 (prebuilt TakeRows)
    """
    for i, (name, setup) in enumerate(setups.items(), start=1):
        if setup["rows"] > PREBUILT_ROWS:
            raise SpecError(
                f"take6/setup.toml [[setup]] row {i} ({name}): 'rows' {setup['rows']}: at most "
                f"{PREBUILT_ROWS} (prebuilt TakeRows)"
            )


def _load_ends(tables: Tables) -> dict[str, dict[str, Any]]:
    """end.toml: a threshold end needs its threshold, a fixed number of rounds its rounds."""
    ends = _load_named(
        tables,
        "end.toml",
        "end",
        [
            Field("kind", str, check=_one_of(END_KINDS)),
            Field("threshold", int, required=False, check=_positive),
            Field("rounds", int, required=False, check=_positive),
            Field("winner", str, check=_one_of(WINNER_KINDS)),
            Field("ties", str, check=_one_of(TIE_KINDS)),
            Field("clauses", list, check=_clause_list, clause_ref=True),
            _FIELD_CLAUSES,
        ],
    )
    for name, end in ends.items():
        need = "threshold" if end["kind"] == "threshold" else "rounds"
        if end[need] is None:
            raise SpecError(f"take6/end.toml [[end]] ({name}): kind {end['kind']!r} needs field {need!r}")
    return ends


@frozen
class VariantSpec:
    """One row of ``variants.toml``: which deck, set-up, deal, play, placement, end and display."""

    name: str
    title: str
    deck: str
    setup: str
    deal: str
    play: str
    placement: str
    end: str
    display: str
    countdown_from: int | None
    clauses: tuple[str, ...]


def _load_variants(
    tables: Tables,
    decks: Mapping[str, Any] | None = None,
    setups: Mapping[str, Any] | None = None,
    ends: Mapping[str, Any] | None = None,
) -> dict[str, VariantSpec]:
    """variants.toml, each row's deck, set-up and end checked against their tables (read from ``tables``
    unless given)."""
    known_tables = {
        "deck": decks if decks is not None else _load_decks(tables),
        "setup": setups if setups is not None else _load_setups(tables),
        "end": ends if ends is not None else _load_ends(tables),
    }
    rows = load_table(
        GAME,
        "variants.toml",
        "variant",
        [
            Field("name", str),
            Field("title", str),
            Field("deck", str),
            Field("setup", str),
            Field("deal", str, check=_one_of(DEAL_KINDS)),
            Field("play", str, check=_one_of(PLAY_KINDS)),
            Field("placement", str, check=_one_of(PLACEMENT_KINDS)),
            Field("end", str),
            Field("display", str, check=_one_of(DISPLAY_KINDS)),
            Field("countdown_from", int, required=False, check=_positive),
            Field("clauses", list, check=_clause_list, clause_ref=True),
            _FIELD_CLAUSES,
        ],
        key="name",
        tables=tables,
    )
    out: dict[str, VariantSpec] = {}
    for i, row in enumerate(rows, start=1):
        where = f"take6/variants.toml [[variant]] row {i} ({row['name']})"
        for name, known in known_tables.items():
            if row[name] not in known:
                raise SpecError(f"{where}: field {name!r} names unknown {name} {row[name]!r}")
        if (row["display"] == "countdown") != (row["countdown_from"] is not None):
            raise SpecError(f"{where}: field 'countdown_from' is required exactly when display = 'countdown'")
        if row["deal"] == "draft" and row["play"] == "flip":
            raise SpecError(
                f"{where}: a drafted hand cannot be a face-down pile (deal 'draft' with play 'flip')"
            )
        fields = {k: v for k, v in row.items() if k != FIELD_CLAUSES}
        out[row["name"]] = VariantSpec(**{**fields, "clauses": tuple(row["clauses"])})
    return out


@frozen
class OptionSpec:
    """One row of ``options.toml``: an alternative reading of a ruling, selectable per game."""

    name: str
    values: tuple[str, ...]
    variants: tuple[str, ...]
    clause: str
    doc: str

    @property
    def default(self) -> str:
        """The first listed value."""
        return self.values[0]


def _load_options(tables: Tables, variants: Mapping[str, VariantSpec]) -> dict[str, OptionSpec]:
    rows = load_table(
        GAME,
        "options.toml",
        "option",
        [
            Field("name", str),
            Field(
                "values",
                list,
                check=lambda v: (
                    None
                    if v and all(isinstance(x, str) for x in v)
                    else "must be a non-empty list of strings"
                ),
            ),
            Field("variants", list, check=_clause_list),
            Field("clause", str, clause_ref=True),
            Field("doc", str),
        ],
        key="name",
        tables=tables,
    )
    out: dict[str, OptionSpec] = {}
    for i, row in enumerate(rows, start=1):
        for v in row["variants"]:
            if v not in variants:
                raise SpecError(
                    f"take6/options.toml [[option]] row {i}: field 'variants' names unknown variant {v!r}"
                )
        out[row["name"]] = OptionSpec(
            row["name"], tuple(row["values"]), tuple(row["variants"]), row["clause"], row["doc"]
        )
    return out


# --------------------------------------------------------------------------------------------------
# The book: every table of one Tables value, checked


@frozen(eq=False, repr=False)
class Book:
    """Every 6 nimmt! table of one :class:`~engine.spec.Tables` value, loaded and cross-checked: the rules
    of the game as those tables say.  :data:`SHIPPED` is the shipped tables' book; :func:`build_book`
    builds one from any tables (an edited copy: a fault model, a test).  ``rules_for`` resolves a game's
    :class:`Rules` from the book (each resolved once per book).

    ``heads[card]`` is the card's bullheads (index 0 unused), ``head_clause[card]`` the clause of the rule
    that decides it (T6-BULL-1 for 55) and ``head_subject[card]`` that rule's subject (``55``, ``x11``,
    ``x10``, ``x5``, ``other``).

    >>> SHIPPED.heads[55], SHIPPED.head_clause[55], SHIPPED.head_subject[22]
    (7, 'T6-BULL-1', 'x11')
    """

    tables: Tables
    info: GameInfo
    decks: Mapping[str, Mapping[str, Any]]
    setups: Mapping[str, Mapping[str, Any]]
    ends: Mapping[str, Mapping[str, Any]]
    variants: Mapping[str, VariantSpec]
    options: Mapping[str, OptionSpec]
    heads: tuple[int, ...]
    head_clause: tuple[str, ...]
    head_subject: tuple[str, ...]
    full_high: int
    memo: dict[tuple[str, int, tuple[tuple[str, str], ...]], Rules] = field(factory=dict)

    def __repr__(self) -> str:
        return f"build_book({self.tables!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (build_book, (self.tables,))

    def rules_for(self, variant: str | None, players: int, options: Mapping[str, Any] | None = None) -> Rules:
        """Resolve the rules of ``variant`` (default: the first) for ``players`` with ``options``.

        Raises IllegalSetup (T6-VAR-1 for an unknown variant or option, T6-SETUP-1 for a player count
        outside the set-up's range, the option's clause for a bad option value).
        """
        info = self.info
        name = info.default_variant if variant is None else variant
        if name not in self.variants:
            raise IllegalSetup("T6-VAR-1", f"unknown variant {name!r} (known: {', '.join(self.variants)})")
        if isinstance(players, bool) or not isinstance(players, int):
            raise IllegalSetup("T6-SETUP-1", f"players must be an integer, got {players!r}")
        if not info.min_players <= players <= info.max_players:
            raise IllegalSetup(
                "T6-SETUP-1",
                f"6 nimmt! is for {info.min_players} to {info.max_players} players, got {players}",
            )
        key = (name, players, _clean_options(self.options, name, options))
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = _resolve(self, *key)
        return found


def build_book(tables: Tables, *, checked: bool = True) -> Book:
    """Load and cross-check every table of ``tables``: a SpecError names the table, the row and the field;
    every variant must set up every player count of its set-up (fail here, not mid-game).

    ``checked=False`` leaves out the transcription checks (each bullhead rule's ``count``, the deck's
    ``bullhead_total``): redundant figures that guard the shipped tables against a typo, which tables edited
    on purpose (a fault model) need not keep."""
    info = _load_game_info(tables)
    decks, setups, ends = _load_decks(tables), _load_setups(tables), _load_ends(tables)
    variants = _load_variants(tables, decks, setups, ends)
    options = _load_options(tables, variants)
    if info.default_variant != next(iter(variants)):
        raise SpecError("take6/game.toml: default_variant must be the first row of variants.toml")
    full_high = max(d["high"] or 0 for d in decks.values())
    total = next((d["bullhead_total"] for d in decks.values() if d["bullhead_total"] is not None), None)
    low = min(d["low"] for d in decks.values())
    heads, clause, subject = _bullhead_table(tables, low, full_high, total, checked)
    book = Book(tables, info, decks, setups, ends, variants, options, heads, clause, subject, full_high)
    _check_every_variant(book)
    return book


# --------------------------------------------------------------------------------------------------
# Rules: everything the interpreter needs for one (variant, players, options)


@frozen(repr=False)
class Rules:
    """The resolved parameters of one game: a variant for a player count with its options.

    ``deck`` is the sorted tuple of the cards in play; ``hand_size`` is cards per hand (per face-down pile
    in kids); ``threshold`` is ``None`` for a fixed number of rounds; ``heads[card]`` a card's bullheads.
    ``book`` is the :class:`Book` they were resolved from and ``edits`` its tables' edit labels (``()``
    for the shipped tables): rules of edited tables never equal the shipped ones.
    """

    variant: str
    players: int
    deck: tuple[int, ...]
    rows: int
    hand_size: int
    capacity: int
    deal: str
    play: str
    placement: str
    end: str
    threshold: int | None
    rounds: int | None
    winner: str
    display: str
    countdown_from: int | None
    options: tuple[tuple[str, str], ...]
    option_map: Mapping[str, str] = field(eq=False)
    tie_to_start: bool = False
    heads: tuple[int, ...] = field(default=(), eq=False)
    book: Book | None = field(default=None, eq=False)
    edits: tuple[str, ...] = ()

    def __repr__(self) -> str:
        opts = f", {dict(self.options)!r}" if self.options else ""
        edits = f" [edited: {', '.join(self.edits)}]" if self.edits else ""
        return f"rules_for({self.variant!r}, {self.players}{opts}){edits}"

    def __reduce__(self) -> tuple[Any, ...]:
        if not self.edits or self.book is None:
            return (rules_for, (self.variant, self.players, dict(self.options)))
        return (_rules_of_book, (self.book, self.variant, self.players, dict(self.options)))

    @property
    def deck_clause(self) -> str:
        """The clause of this variant's deck, from its row of deck.toml.

        >>> rules_for("standard", 4).deck_clause, rules_for("tactics", 4).deck_clause
        ('T6-DECK-1', 'T6-TACT-1')
        """
        book = self.book or SHIPPED
        return str(book.decks[book.variants[self.variant].deck]["clause"])

    @property
    def cards_dealt(self) -> int:
        """Cards leaving the deck in a deal: the hands and the row starters."""
        return self.players * self.hand_size + self.rows


def _rules_of_book(book: Book, variant: str, players: int, options: Mapping[str, Any]) -> Rules:
    return book.rules_for(variant, players, options)


def _deck_cards(deck: Mapping[str, Any], players: int, full_high: int) -> tuple[int, ...]:
    high = deck["high"] if deck["high"] is not None else deck["per_player"] * players + deck["extra"]
    return tuple(range(deck["low"], min(high, full_high) + 1))


def _clean_options(
    known: Mapping[str, OptionSpec], variant: str, options: Mapping[str, Any] | None
) -> tuple[tuple[str, str], ...]:
    given = dict(options or {})
    out: list[tuple[str, str]] = []
    for name, spec in known.items():
        if variant not in spec.variants:
            continue
        value = given.pop(name, spec.default)
        if value not in spec.values:
            raise IllegalSetup(
                spec.clause, f"option {name} must be one of {', '.join(spec.values)}, got {value!r}"
            )
        out.append((name, value))
    if given:
        name = sorted(given)[0]
        if name in known:
            raise IllegalSetup(
                known[name].clause,
                f"option {name} does not apply to variant {variant} "
                f"(only {', '.join(known[name].variants)})",
            )
        raise IllegalSetup("T6-VAR-1", f"unknown option {show(name)} (known: {', '.join(known) or 'none'})")
    return tuple(out)


def _resolve(book: Book, variant: str, players: int, options: tuple[tuple[str, str], ...]) -> Rules:
    spec = book.variants[variant]
    setup = book.setups[spec.setup]
    end = book.ends[spec.end]
    option_map = dict(options)
    deck = _deck_cards(book.decks[spec.deck], players, book.full_high)
    lo, hi = setup["min_players"], setup["max_players"]
    if not lo <= players <= hi:
        raise IllegalSetup("T6-SETUP-1", f"{variant} is for {lo} to {hi} players, got {players}")
    hand = setup["hand_size"]
    if players * hand + setup["rows"] > len(deck):
        share = (len(deck) - setup["rows"]) // players
        if setup["shrink_piles"] and option_map.get("kids_piles", "shrink") == "shrink":
            hand = share
        else:
            raise IllegalSetup(
                "T6-KIDS-5" if setup["shrink_piles"] else "T6-SETUP-2",
                f"{variant}: {players} hands of {hand} and {setup['rows']} rows need more than the "
                f"{len(deck)} cards of the deck",
            )
    return Rules(
        variant=variant,
        players=players,
        deck=deck,
        rows=setup["rows"],
        hand_size=hand,
        capacity=setup["row_capacity"],
        deal=spec.deal,
        play=spec.play,
        placement=spec.placement,
        end=end["kind"],
        threshold=end["threshold"],
        rounds=end["rounds"],
        winner=end["winner"],
        display=spec.display,
        countdown_from=spec.countdown_from,
        options=options,
        option_map=option_map,
        tie_to_start=option_map.get("professional_tie") == "start",
        heads=book.heads,
        book=book,
        edits=book.tables.edits,
    )


def _check_every_variant(book: Book) -> None:
    """Every variant must set up for every player count of its set-up (fail at load, not mid-game)."""
    for name, spec in book.variants.items():
        setup = book.setups[spec.setup]
        for n in range(setup["min_players"], setup["max_players"] + 1):
            try:
                r = book.rules_for(name, n)
            except IllegalSetup as exc:
                raise SpecError(f"take6/variants.toml ({name}): cannot set up {n} players: {exc}") from exc
            if r.hand_size < 1:
                raise SpecError(f"take6/variants.toml ({name}): {n} players get empty hands")
        for clause in spec.clauses:
            CLAUSES.require(clause)


SHIPPED: Book = build_book(Tables.shipped(GAME))
"""The book of the shipped tables (``spec/take6/``): every name below is its."""

GAME_INFO: GameInfo = SHIPPED.info
VARIANTS: Mapping[str, VariantSpec] = SHIPPED.variants
OPTIONS: Mapping[str, OptionSpec] = SHIPPED.options
BULLHEADS: tuple[int, ...] = SHIPPED.heads
"""``BULLHEADS[card]`` is the card's bullheads (index 0 unused), evaluated once from ``bullheads.toml``."""
BULLHEAD_CLAUSE: tuple[str, ...] = SHIPPED.head_clause
"""The clause of the bullhead rule that decides each card (T6-BULL-1 for 55)."""
BULLHEAD_SUBJECT: tuple[str, ...] = SHIPPED.head_subject
"""The subject of the bullhead rule that decides each card (``55``, ``x11``, ``x10``, ``x5``, ``other``)."""


def bullheads(card: int) -> int:
    """The bullheads on ``card`` (T6-BULL-1 .. T6-BULL-5, evaluated from the ordered table).

    >>> [bullheads(c) for c in (1, 5, 10, 11, 55, 104)]
    [1, 2, 3, 5, 7, 1]
    """
    return BULLHEADS[card]


def rules_for(variant: str | None, players: int, options: Mapping[str, Any] | None = None) -> Rules:
    """Resolve the rules of ``variant`` (default: the first) for ``players`` with ``options``, from the
    shipped tables (:meth:`Book.rules_for` of :data:`SHIPPED`).

    Raises IllegalSetup (T6-VAR-1 for an unknown variant or option, T6-SETUP-1 for a player count outside
    the set-up's range, the option's clause for a bad option value).

    >>> rules_for("kids", 4).hand_size, rules_for("kids", 10).hand_size
    (15, 9)
    >>> rules_for("kids", 7, {"kids_piles": "strict"})
    Traceback (most recent call last):
    ...
    engine.errors.IllegalSetup: T6-KIDS-5: kids: 7 hands of 15 and 5 rows need more than the 104 cards ...
    """
    return SHIPPED.rules_for(variant, players, options)
