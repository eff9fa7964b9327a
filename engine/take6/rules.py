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
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from attrs import field, frozen

from engine.errors import IllegalSetup, SpecError
from engine.jsonio import show
from engine.spec import Field, load_clauses, load_table

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
    "VARIANTS",
    "GameInfo",
    "OptionSpec",
    "Rules",
    "VariantSpec",
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


def _load_game_info() -> GameInfo:
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
    )
    if row["name"] != GAME:
        raise SpecError(f"take6/game.toml [[game]] row 1: field 'name' must be {GAME!r}")
    row.pop("clauses")
    return GameInfo(**row)


# --------------------------------------------------------------------------------------------------
# bullheads.toml


def _load_bullheads(low: int, high: int, expected_total: int | None) -> tuple[int, ...]:
    """Evaluate the ordered bullhead rules over ``low..high``; index a card to get its bullheads."""
    return _bullhead_table(low, high, expected_total)[0]


def _bullhead_table(
    low: int, high: int, expected_total: int | None
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
        if counts[i] != rule["count"]:
            raise SpecError(
                f"{table} row {i + 1}: field 'count': the rule decides {counts[i]} cards, "
                f"the table says {rule['count']}"
            )
    if expected_total is not None and sum(values) != expected_total:
        raise SpecError(f"take6/deck.toml: bullhead_total {expected_total} but the rules give {sum(values)}")
    return tuple(values), tuple(deciding), tuple(subjects)


# --------------------------------------------------------------------------------------------------
# deck.toml, setup.toml, end.toml, variants.toml, options.toml


def _load_named(filename: str, array: str, fields: list[Field]) -> dict[str, dict[str, Any]]:
    rows = load_table(GAME, filename, array, [Field("name", str), *fields], key="name")
    return {r["name"]: r for r in rows}


_DECKS = _load_named(
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
for _name, _deck in _DECKS.items():
    if (_deck["high"] is None) == (_deck["per_player"] is None or _deck["extra"] is None):
        raise SpecError(
            f"take6/deck.toml [[deck]] ({_name}): give either 'high' or both 'per_player' and 'extra'"
        )


def _load_setups() -> dict[str, dict[str, Any]]:
    """setup.toml, each set-up's row count checked against the prebuilt row choices (PREBUILT_ROWS)."""
    setups = _load_named(
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


_SETUPS = _load_setups()

_ENDS = _load_named(
    "end.toml",
    "end",
    [
        Field("kind", str, check=_one_of(END_KINDS)),
        Field("threshold", int, required=False, check=_positive),
        Field("rounds", int, required=False, check=_positive),
        Field("winner", str, check=_one_of(WINNER_KINDS)),
        Field("ties", str, check=_one_of(TIE_KINDS)),
        Field("clauses", list, check=_clause_list, clause_ref=True),
    ],
)
for _name, _end in _ENDS.items():
    _need = "threshold" if _end["kind"] == "threshold" else "rounds"
    if _end[_need] is None:
        raise SpecError(f"take6/end.toml [[end]] ({_name}): kind {_end['kind']!r} needs field {_need!r}")


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


def _load_variants() -> dict[str, VariantSpec]:
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
        ],
        key="name",
    )
    out: dict[str, VariantSpec] = {}
    for i, row in enumerate(rows, start=1):
        where = f"take6/variants.toml [[variant]] row {i} ({row['name']})"
        for name, known in (("deck", _DECKS), ("setup", _SETUPS), ("end", _ENDS)):
            if row[name] not in known:
                raise SpecError(f"{where}: field {name!r} names unknown {name} {row[name]!r}")
        if (row["display"] == "countdown") != (row["countdown_from"] is not None):
            raise SpecError(f"{where}: field 'countdown_from' is required exactly when display = 'countdown'")
        if row["deal"] == "draft" and row["play"] == "flip":
            raise SpecError(
                f"{where}: a drafted hand cannot be a face-down pile (deal 'draft' with play 'flip')"
            )
        out[row["name"]] = VariantSpec(**{**row, "clauses": tuple(row["clauses"])})
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


def _load_options(variants: Mapping[str, VariantSpec]) -> dict[str, OptionSpec]:
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


GAME_INFO = _load_game_info()
VARIANTS: dict[str, VariantSpec] = _load_variants()
OPTIONS: dict[str, OptionSpec] = _load_options(VARIANTS)
if GAME_INFO.default_variant != next(iter(VARIANTS)):
    raise SpecError("take6/game.toml: default_variant must be the first row of variants.toml")

_FULL_HIGH = max(d["high"] or 0 for d in _DECKS.values())
_TOTAL = next((d["bullhead_total"] for d in _DECKS.values() if d["bullhead_total"] is not None), None)
BULLHEADS, BULLHEAD_CLAUSE, BULLHEAD_SUBJECT = _bullhead_table(
    min(d["low"] for d in _DECKS.values()), _FULL_HIGH, _TOTAL
)
"""``BULLHEADS[card]`` is the card's bullheads (index 0 unused), evaluated once from ``bullheads.toml``;
``BULLHEAD_CLAUSE[card]`` the clause of the rule that decides it (T6-BULL-1 for 55) and
``BULLHEAD_SUBJECT[card]`` that rule's subject (``55``, ``x11``, ``x10``, ``x5``, ``other``)."""


def bullheads(card: int) -> int:
    """The bullheads on ``card`` (T6-BULL-1 .. T6-BULL-5, evaluated from the ordered table).

    >>> [bullheads(c) for c in (1, 5, 10, 11, 55, 104)]
    [1, 2, 3, 5, 7, 1]
    """
    return BULLHEADS[card]


# --------------------------------------------------------------------------------------------------
# Rules: everything the interpreter needs for one (variant, players, options)


@frozen(repr=False)
class Rules:
    """The resolved parameters of one game: a variant for a player count with its options.

    ``deck`` is the sorted tuple of the cards in play; ``hand_size`` is cards per hand (per face-down pile
    in kids); ``threshold`` is ``None`` for a fixed number of rounds.
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

    def __repr__(self) -> str:
        if self.options:
            return f"rules_for({self.variant!r}, {self.players}, {dict(self.options)!r})"
        return f"rules_for({self.variant!r}, {self.players})"

    @property
    def deck_clause(self) -> str:
        """The clause of this variant's deck, from its row of deck.toml.

        >>> rules_for("standard", 4).deck_clause, rules_for("tactics", 4).deck_clause
        ('T6-DECK-1', 'T6-TACT-1')
        """
        return str(_DECKS[VARIANTS[self.variant].deck]["clause"])

    @property
    def cards_dealt(self) -> int:
        """Cards leaving the deck in a deal: the hands and the row starters."""
        return self.players * self.hand_size + self.rows


def _deck_cards(deck: Mapping[str, Any], players: int) -> tuple[int, ...]:
    high = deck["high"] if deck["high"] is not None else deck["per_player"] * players + deck["extra"]
    return tuple(range(deck["low"], min(high, _FULL_HIGH) + 1))


def _clean_options(variant: str, options: Mapping[str, Any] | None) -> tuple[tuple[str, str], ...]:
    given = dict(options or {})
    out: list[tuple[str, str]] = []
    for name, spec in OPTIONS.items():
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
        if name in OPTIONS:
            raise IllegalSetup(
                OPTIONS[name].clause,
                f"option {name} does not apply to variant {variant} "
                f"(only {', '.join(OPTIONS[name].variants)})",
            )
        raise IllegalSetup("T6-VAR-1", f"unknown option {show(name)} (known: {', '.join(OPTIONS) or 'none'})")
    return tuple(out)


@functools.cache
def _rules(variant: str, players: int, options: tuple[tuple[str, str], ...]) -> Rules:
    spec = VARIANTS[variant]
    setup = _SETUPS[spec.setup]
    end = _ENDS[spec.end]
    option_map = dict(options)
    deck = _deck_cards(_DECKS[spec.deck], players)
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
    )


def rules_for(variant: str | None, players: int, options: Mapping[str, Any] | None = None) -> Rules:
    """Resolve the rules of ``variant`` (default: the first) for ``players`` with ``options``.

    Raises IllegalSetup (T6-VAR-1 for an unknown variant or option, T6-SETUP-1 for a player count outside
    the set-up's range, the option's clause for a bad option value).

    >>> rules_for("kids", 4).hand_size, rules_for("kids", 10).hand_size
    (15, 9)
    >>> rules_for("kids", 7, {"kids_piles": "strict"})
    Traceback (most recent call last):
    ...
    engine.errors.IllegalSetup: T6-KIDS-5: kids: 7 hands of 15 and 5 rows need more than the 104 cards ...
    """
    name = GAME_INFO.default_variant if variant is None else variant
    if name not in VARIANTS:
        raise IllegalSetup("T6-VAR-1", f"unknown variant {name!r} (known: {', '.join(VARIANTS)})")
    if isinstance(players, bool) or not isinstance(players, int):
        raise IllegalSetup("T6-SETUP-1", f"players must be an integer, got {players!r}")
    if not GAME_INFO.min_players <= players <= GAME_INFO.max_players:
        raise IllegalSetup(
            "T6-SETUP-1",
            f"6 nimmt! is for {GAME_INFO.min_players} to {GAME_INFO.max_players} players, got {players}",
        )
    return _rules(name, players, _clean_options(name, options))


def _check_every_variant() -> None:
    """Every variant must set up for every player count of its set-up (fail at import, not mid-game)."""
    for name, spec in VARIANTS.items():
        setup = _SETUPS[spec.setup]
        for n in range(setup["min_players"], setup["max_players"] + 1):
            try:
                r = rules_for(name, n)
            except IllegalSetup as exc:
                raise SpecError(f"take6/variants.toml ({name}): cannot set up {n} players: {exc}") from exc
            if r.hand_size < 1:
                raise SpecError(f"take6/variants.toml ({name}): {n} players get empty hands")
        for clause in spec.clauses:
            CLAUSES.require(clause)


_check_every_variant()
