"""Values of Saint Petersburg: the state, the actions, the explicit set-up and the cost derivation.

The state is an immutable :class:`State` (a named tuple: cheap to build on the hot path, compared by
value).  Cards are *kinds*: small ints indexing the ruleset's tables (``state.rules.names[k]``); copies of
a kind are interchangeable, so rows, hands and areas are tuples of kinds.

The layout (field order = tuple index; a transition builds its successor with a :func:`changer`, by field
name, and nothing else in the package indexes a state by number)::

    index  field          holds
    -----  -------------  -------------------------------------------------------------------------------
      0    rules          the compiled :class:`~engine.petersburg.ruleset.Ruleset` (variant + options)
      1    players        number of seats (1..4)
      2    round          round number, from 1
      3    phase_index    0 worker, 1 building, 2 aristocrat, 3 trading (the ``phase`` property names the
                          phase, Pub decisions, a drawn Observatory card and the end included)
      4    turn           the seat whose turn it is
      5    passes         consecutive passes so far in this phase (SP-PHASE-3)
      6    stacks         4 draw stacks (worker, building, aristocrat, trading), top card first
      7    upper          the upper card row, in placement order
      8    lower          the lower card row, in placement order
      9    discard        discarded cards, in order
     10    money          per seat
     11    vp             per seat
     12    hands          per seat, a sorted tuple of kinds
     13    areas          per seat, a sorted tuple of kinds
     14    turned         per seat, the kinds of the Observatories turned this round (SP-OBS-5)
     15    markers        per phase, the seat holding its start-player marker
     16    drawn          the card an Observatory drew (SP-OBS-1), awaiting its owner's decision (SP-OBS-4;
                          -1: none)
     17    pub_queue      seats still to decide on Pub purchases, the first decides now (SP-PUB-2)
     18    last_round     a stack placed its last card: the game ends after this round (SP-END-1..3)
     19    over           the game has ended, its final scoring done (SP-END-1)
     20    hidden         per stack, the cards of unknown order (sorted kinds), ``()`` when every stack's
                          order is known (the hot path tests only this)

A stack of unknown order (SP-REVEAL-1) holds *placeholder* kinds ``len(rules.names) + stack index``, out
of every table's range so that any lookup fails loudly; their identities are the multiset ``hidden[i]``.
Refills and an Observatory draw move placeholders like cards; while one sits in the upper row or is the
drawn card the phase is ``reveal``: nobody acts until a :class:`Reveal` (a chance step) names it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from attrs import field, frozen

from engine.errors import InputError
from engine.petersburg.catalog import PHASES, STACKS
from engine.petersburg.ruleset import Ruleset

PHASE_NAMES: tuple[str, ...] = tuple(p.name for p in PHASES)
"""The phases of a round by index (``State.phase_index``)."""
STATE_PHASES: tuple[str, ...] = (*PHASE_NAMES[:2], "pub", "observatory", *PHASE_NAMES[2:], "reveal", "over")
"""Every value of ``State.phase``."""
_SEAT_PLACES = {"hand": "hands", "area": "areas", "turned": "turned"}

__all__ = [
    "ACTION_TYPES",
    "PHASE_NAMES",
    "SOURCES",
    "STATE_PHASES",
    "Action",
    "Buy",
    "CostBreakdown",
    "Discard",
    "Observe",
    "Pass",
    "Play",
    "PubBuy",
    "Reduction",
    "Reveal",
    "State",
    "Take",
    "card_name",
    "changer",
    "pending_reveal",
]

SOURCES: tuple[str, ...] = ("upper", "lower", "drawn", "hand")
"""Where a card comes from: the upper row, the lower row, the Observatory's drawn card, the hand."""


class State(NamedTuple):
    """A Saint Petersburg position (immutable): made by ``GAME.new_game``, :func:`engine.petersburg.position`
    (the validated builder), ``GAME.from_notation`` or ``GAME.state_from_json``.

    >>> from engine.petersburg import GAME
    >>> s = GAME.new_game(2, seed=1)
    >>> s.phase, s.phase_index, s.cards("upper")
    ('worker', 0, ('Shepherd', 'Ship Builder', 'Gold Miner', 'Fur Trapper'))
    >>> len(s.box)
    0
    """

    rules: Ruleset
    players: int
    round: int
    phase_index: int
    turn: int
    passes: int
    stacks: tuple[tuple[int, ...], ...]
    upper: tuple[int, ...]
    lower: tuple[int, ...]
    discard: tuple[int, ...]
    money: tuple[int, ...]
    vp: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    areas: tuple[tuple[int, ...], ...]
    turned: tuple[tuple[int, ...], ...]
    markers: tuple[int, ...]
    drawn: int
    pub_queue: tuple[int, ...]
    last_round: bool
    over: bool
    hidden: tuple[tuple[int, ...], ...] = ()

    @property
    def phase(self) -> str:
        """The phase by name: ``worker``, ``building``, ``pub`` (Pub decisions after the building
        scoring), ``observatory`` (a drawn card awaits its owner), ``aristocrat``, ``trading``, ``reveal`` (a
        card drawn from a stack of unknown order awaits a :class:`Reveal`) or ``over``."""
        if self.over:
            return "over"
        if self.hidden and pending_reveal(self) >= 0:
            return "reveal"
        if self.pub_queue:
            return "pub"
        if self.drawn >= 0:
            return "observatory"
        return PHASE_NAMES[self.phase_index]

    @property
    def box(self) -> tuple[int, ...]:
        """The cards out of the game (in no place of the position), by kind, sorted: empty in a game that
        started from a set-up; a position may leave cards out."""
        rs = self.rules
        counts = [c.copies for c in rs.cards]
        nk = len(counts)
        places = (*self.stacks, self.upper, self.lower, self.discard, *self.hands, *self.areas, *self.hidden)
        for place in (*places, (self.drawn,) if self.drawn >= 0 else ()):
            for k in place:
                if k < nk:  # a placeholder's card is counted in ``hidden``
                    counts[k] -= 1
        return tuple(k for k, n in enumerate(counts) for _ in range(n))

    def cards(self, place: str, seat: int | None = None) -> tuple[str, ...]:
        """The cards of a place by name: ``upper``, ``lower``, ``discard``, ``box``, ``drawn``, a stack
        (``worker``, ``building``, ``aristocrat``, ``trading``), or a seat's ``hand``, ``area`` or
        ``turned``; a card of unknown identity is ``?`` and its stack's name (``?building``)."""
        rs = self.rules
        if place in _SEAT_PLACES:
            if seat is None or not 0 <= seat < self.players:
                raise InputError("seat", f"{place} needs a seat 0..{self.players - 1}, got {seat!r}")
            kinds = getattr(self, _SEAT_PLACES[place])[seat]
        elif place in STACKS:
            kinds = self.stacks[STACKS.index(place)]
        elif place == "drawn":
            kinds = (self.drawn,) if self.drawn >= 0 else ()
        elif place in ("upper", "lower", "discard", "box"):
            kinds = getattr(self, place)
        else:
            raise InputError("place", f"unknown place {place!r}")
        return tuple(card_name(rs, k) for k in kinds)

    def unknown(self, stack: str) -> tuple[str, ...]:
        """The cards of ``stack`` whose order is unknown (sorted by kind; drawn but not yet revealed ones
        included), by name: the multiset a :class:`Reveal` from that stack picks from (SP-REVEAL-1).

        >>> from engine.petersburg import position
        >>> s = position(players=2, unknown={"building": ["Pub", "Market"]})
        >>> s.cards("building"), s.unknown("building")
        (('?building', '?building'), ('Market', 'Pub'))
        """
        if stack not in STACKS:
            raise InputError("stack", f"unknown stack {stack!r}")
        if not self.hidden:
            return ()
        return tuple(self.rules.names[k] for k in self.hidden[STACKS.index(stack)])

    def __repr__(self) -> str:
        """A short line that shows the board: edition, round, phase, both rows, VP and roubles per seat
        (the exact, readable-back forms are the notation and the JSON state).

        >>> from engine.petersburg import GAME
        >>> GAME.new_game(2, seed=1)
        <petersburg.State first round 1 worker: upper Shepherd, Ship Builder, Gold Miner, Fur Trapper; \
lower -; VP 0 0; roubles 25 25>
        """

        def row(place: str) -> str:
            return ", ".join(self.cards(place)) or "-"

        return (
            f"<petersburg.State {self.rules.variant} round {self.round} {self.phase}: upper {row('upper')}; "
            f"lower {row('lower')}; VP {' '.join(map(str, self.vp))}; "
            f"roubles {' '.join(map(str, self.money))}>"
        )

    def _repr_svg_(self) -> str:
        """The whole board as SVG, for notebooks.  The drawing (which reads costs from the rules modules
        that import this one) is reached through :func:`engine.svg.repr_svg`, the registry's dispatch,
        so this module imports nothing that imports it back."""
        from engine.svg import repr_svg

        return repr_svg(self)


def card_name(rs: Ruleset, k: int) -> str:
    """A kind's name; a placeholder (an unknown card of stack ``i``, kind ``len(names) + i``) is ``?`` and
    the stack's name.

    >>> from engine.petersburg.ruleset import ruleset
    >>> rs = ruleset()
    >>> card_name(rs, 0), card_name(rs, len(rs.names) + 1)
    ('Lumberjack', '?building')
    """
    names = rs.names
    return names[k] if k < len(names) else "?" + STACKS[k - len(names)]


def pending_reveal(s: State) -> int:
    """The stack whose drawn card must be revealed now (the Observatory's drawn card first, then the upper
    row in placement order), or -1.  Only meaningful when ``s.hidden``; not on the hot path."""
    nk = len(s.rules.names)
    if s.drawn >= nk:
        return s.drawn - nk
    for k in s.upper:
        if k >= nk:
            return k - nk
    return -1


def changer(*fields: str) -> Callable[..., State]:
    """A successor builder: ``build(state, **fields)`` is ``state`` with exactly ``fields`` changed, each
    given by name (keyword-only, all required); how every transition builds its successor.

    The builder is compiled once from the layout drawn above (as ``collections.namedtuple`` compiles its
    class): a single tuple of the new values and the state's other items, the fast form of ``_replace``
    and the only code that indexes a state by number.  A name that is not a field fails here, at import.

    >>> from engine.petersburg import GAME
    >>> after_buy = changer("turn", "money")
    >>> s = GAME.new_game(2, seed=1)
    >>> t = after_buy(s, turn=1, money=(20, 25))
    >>> (t.turn, t.money, t.upper == s.upper), t == s._replace(turn=1, money=(20, 25))
    ((1, (20, 25), True), True)
    """
    unknown = sorted(set(fields) - set(State._fields))
    if unknown or len(set(fields)) != len(fields) or not fields:
        raise TypeError(f"changer needs distinct State fields, got {fields!r} (unknown: {unknown})")
    items = ", ".join(name if name in fields else f"state[{i}]" for i, name in enumerate(State._fields))
    source = f"def successor(state, *, {', '.join(fields)}):\n    return new(State, ({items}))\n"
    namespace: dict[str, Any] = {"new": tuple.__new__, "State": State}
    exec(source, namespace)  # the generated code is the line above: one tuple, no other logic
    build: Callable[..., State] = namespace["successor"]
    build.__qualname__ = f"changer({', '.join(map(repr, fields))})"
    return build


def _nonneg(inst: Any, attribute: Any, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InputError(f"{type(inst).__name__}.{attribute.name}", f"must be an int >= 0, got {value!r}")


def _text(inst: Any, attribute: Any, value: Any) -> None:
    if not isinstance(value, str):
        raise InputError(f"{type(inst).__name__}.{attribute.name}", f"must be a string, got {value!r}")


def _text_or_none(inst: Any, attribute: Any, value: Any) -> None:
    if value is not None:
        _text(inst, attribute, value)


@frozen
class Buy:
    """Buy ``card`` from ``source`` (``upper``, ``lower`` or ``drawn``), paying its cost (SP-BUY-1).

    A trading card names the card it ``displace``s from the buyer's area (SP-TRADE-1).

    >>> Buy(player=0, card="Market", source="lower")
    Buy(player=0, card='Market', source='lower', displace=None)
    """

    player: int = field(validator=_nonneg)
    card: str = field(validator=_text)
    source: str = field(default="upper", validator=_text)
    displace: str | None = field(default=None, validator=_text_or_none)


@frozen
class Take:
    """Take ``card`` from ``source`` (``upper``, ``lower`` or ``drawn``) into hand, unpaid (SP-HAND-1).

    >>> Take(player=1, card="Pub")
    Take(player=1, card='Pub', source='upper')
    """

    player: int = field(validator=_nonneg)
    card: str = field(validator=_text)
    source: str = field(default="upper", validator=_text)


@frozen
class Play:
    """Play ``card`` from the hand into the area, paying its cost now (SP-HAND-4).

    >>> Play(player=0, card="Bank", displace="Market")
    Play(player=0, card='Bank', displace='Market')
    """

    player: int = field(validator=_nonneg)
    card: str = field(validator=_text)
    displace: str | None = field(default=None, validator=_text_or_none)


@frozen
class Pass:
    """Pass (SP-TURN-3); the phase ends when all players pass consecutively (SP-PHASE-3).

    >>> Pass(player=2)
    Pass(player=2)
    """

    player: int = field(validator=_nonneg)


@frozen
class Observe:
    """Turn an Observatory and draw the top card of ``stack`` (SP-OBS-1).

    >>> Observe(player=0, stack="trading")
    Observe(player=0, stack='trading')
    """

    player: int = field(validator=_nonneg)
    stack: str = field(validator=_text)


@frozen
class Discard:
    """Discard the card the Observatory drew (SP-OBS-4).

    >>> Discard(player=0, card="Czar")
    Discard(player=0, card='Czar')
    """

    player: int = field(validator=_nonneg)
    card: str = field(validator=_text)


@frozen
class PubBuy:
    """Buy ``vp`` victory points at the Pub right after building scoring; 0 declines (SP-PUB-1).

    >>> PubBuy(player=1, vp=3)
    PubBuy(player=1, vp=3)
    """

    player: int = field(validator=_nonneg)
    vp: int = field(validator=_nonneg)


@frozen
class Reveal:
    """A chance step: the card drawn from a stack of unknown order is ``card`` (SP-REVEAL-1).  It must be
    one of that stack's unknown cards (``state.unknown(stack)``); no seat takes it.

    >>> Reveal(card="Market")
    Reveal(card='Market')
    """

    card: str = field(validator=_text)


Action = Buy | Take | Play | Pass | Observe | Discard | PubBuy | Reveal
ACTION_TYPES: dict[str, type] = {
    "buy": Buy,
    "take": Take,
    "play": Play,
    "pass": Pass,
    "observe": Observe,
    "discard": Discard,
    "pub": PubBuy,
    "reveal": Reveal,
}
"""JSON ``type`` -> action class."""


@frozen
class Reduction:
    """One step of a cost derivation: roubles off, the clause that grants it, why, and the card that
    grants it (the identical card or the reducer owned; ``None`` for the lower row)."""

    amount: int
    clause: str
    reason: str
    card: str | None = None


@frozen
class CostBreakdown:
    """How a card's cost is derived (the engine charges exactly ``cost``).

    ``printed`` (SP-COST-1) minus ``displace_value`` (a trading card's target, SP-COST-7 / SP-POTJ-1) minus
    each reduction, but never below ``minimum`` (SP-COST-6); ``affordable`` when ``cost <= money``.
    """

    card: str
    source: str
    printed: int
    displace: str | None
    displace_value: int
    displace_clause: str | None
    reductions: tuple[Reduction, ...]
    minimum: int
    cost: int
    money: int
    affordable: bool

    @property
    def raw(self) -> int:
        """The cost before the minimum applies (may be 0 or negative)."""
        return self.printed - self.displace_value - sum(r.amount for r in self.reductions)

    def lines(self) -> tuple[str, ...]:
        """The derivation as readable lines, each naming its clause."""
        out = [f"{self.card}: printed cost {self.printed} [SP-COST-1]"]
        if self.displace is not None:
            out.append(f"  - {self.displace_value} for displacing {self.displace} [{self.displace_clause}]")
        out.extend(f"  - {r.amount} {r.reason} [{r.clause}]" for r in self.reductions)
        note = f" (raw {self.raw}, minimum {self.minimum})" if self.raw < self.minimum else ""
        out.append(
            f"  = {self.cost}{note} [SP-COST-6]; has {self.money}: "
            f"{'affordable' if self.affordable else 'cannot afford'} [SP-BUY-2]"
        )
        return tuple(out)
