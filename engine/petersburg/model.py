"""Values of Saint Petersburg: the state, the actions, the explicit set-up and the cost derivation.

The state is an immutable :class:`State` (a named tuple: cheap to build on the hot path, compared by
value).  Cards are *kinds*: small ints indexing the ruleset's tables (``state.rules.names[k]``); copies of
a kind are interchangeable, so rows, hands and areas are tuples of kinds.

====================  ==============================================================================
field                 meaning
====================  ==============================================================================
``rules``             the compiled :class:`~engine.petersburg.catalog.Ruleset` (variant + options)
``players``           number of seats (1..4)
``round``             round number, from 1
``phase``             0 worker, 1 building, 2 aristocrat, 3 trading
``turn``              the seat whose turn it is
``passes``            consecutive passes so far in this phase (SP-PHASE-3)
``stacks``            4 draw stacks (worker, building, aristocrat, trading), top card first
``upper``/``lower``   the two card rows, in placement order
``discard``           discarded cards, in order
``money``/``vp``      per seat
``hands``/``areas``   per seat, sorted tuples of kinds
``turned``            per seat, the kinds of the Observatories turned this round (SP-OBS-5)
``markers``           per phase, the seat holding its start-player marker
``drawn``             the card an Observatory drew, awaiting its owner's decision (-1: none)
``pub_queue``         seats still to decide on Pub purchases, the first decides now (SP-PUB-2)
``last_round``        a stack placed its last card: the game ends after this round (SP-END-1..3)
``over``              final scoring done
====================  ==============================================================================
"""

from __future__ import annotations

from typing import Any, NamedTuple

from attrs import field, frozen

from engine.petersburg.catalog import Ruleset

__all__ = [
    "ACTION_TYPES",
    "SOURCES",
    "Action",
    "Buy",
    "CostBreakdown",
    "Discard",
    "Observe",
    "Pass",
    "Play",
    "PubBuy",
    "Reduction",
    "Setup",
    "State",
    "Take",
]

SOURCES: tuple[str, ...] = ("upper", "lower", "drawn", "hand")
"""Where a card comes from: the upper row, the lower row, the Observatory's drawn card, the hand."""


class State(NamedTuple):
    """A Saint Petersburg position (immutable): made by ``GAME.new_game`` or ``GAME.state_from_json``."""

    rules: Ruleset
    players: int
    round: int
    phase: int
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


# field indexes for the hot path (list(state)[I_X] = ...)
(
    I_RULES,
    I_PLAYERS,
    I_ROUND,
    I_PHASE,
    I_TURN,
    I_PASSES,
    I_STACKS,
    I_UPPER,
    I_LOWER,
    I_DISCARD,
    I_MONEY,
    I_VP,
    I_HANDS,
    I_AREAS,
    I_TURNED,
    I_MARKERS,
    I_DRAWN,
    I_PUBQ,
    I_LAST,
    I_OVER,
) = range(20)


def _nonneg(_inst: Any, attribute: Any, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{attribute.name} must be an int >= 0, got {value!r}")


@frozen
class Buy:
    """Buy ``card`` from ``source`` (``upper``, ``lower`` or ``drawn``), paying its cost (SP-BUY-1).

    A trading card names the card it ``displace``s from the buyer's area (SP-TRADE-1).

    >>> Buy(player=0, card="Market", source="lower")
    Buy(player=0, card='Market', source='lower', displace=None)
    """

    player: int = field(validator=_nonneg)
    card: str
    source: str = "upper"
    displace: str | None = None


@frozen
class Take:
    """Take ``card`` from ``source`` (``upper``, ``lower`` or ``drawn``) into hand, unpaid (SP-HAND-1).

    >>> Take(player=1, card="Pub")
    Take(player=1, card='Pub', source='upper')
    """

    player: int = field(validator=_nonneg)
    card: str
    source: str = "upper"


@frozen
class Play:
    """Play ``card`` from the hand into the area, paying its cost now (SP-HAND-4).

    >>> Play(player=0, card="Bank", displace="Market")
    Play(player=0, card='Bank', displace='Market')
    """

    player: int = field(validator=_nonneg)
    card: str
    displace: str | None = None


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
    stack: str


@frozen
class Discard:
    """Discard the card the Observatory drew (SP-OBS-4).

    >>> Discard(player=0, card="Czar")
    Discard(player=0, card='Czar')
    """

    player: int = field(validator=_nonneg)
    card: str


@frozen
class PubBuy:
    """Buy ``vp`` victory points at the Pub right after building scoring; 0 declines (SP-PUB-1).

    >>> PubBuy(player=1, vp=3)
    PubBuy(player=1, vp=3)
    """

    player: int = field(validator=_nonneg)
    vp: int = field(validator=_nonneg)


Action = Buy | Take | Play | Pass | Observe | Discard | PubBuy
ACTION_TYPES: dict[str, type] = {
    "buy": Buy,
    "take": Take,
    "play": Play,
    "pass": Pass,
    "observe": Observe,
    "discard": Discard,
    "pub": PubBuy,
}
"""JSON ``type`` -> action class."""


@frozen
class Setup:
    """An explicit set-up: each stack's order (top card first) and the seat holding each phase's marker.

    ``stacks`` = (worker, building, aristocrat, trading), card names of any edition or alias;
    ``markers`` = (worker, building, aristocrat, trading) -> seat.  ``GAME.new_game(n, setup=...)`` checks it
    against the catalog and the player-count table (IllegalSetup, SP-SETUP-6).  ``Setup.seeded`` gives the
    set-up a seed produces (SP-SETUP-7).

    >>> s = Setup.seeded(3, seed=1)
    >>> [len(x) for x in s.stacks], sorted(s.markers.count(p) for p in range(3))
    ([31, 28, 27, 30], [1, 1, 2])
    """

    stacks: tuple[tuple[str, ...], ...]
    markers: tuple[int, ...]

    @classmethod
    def seeded(cls, players: int, *, seed: int = 0, variant: str | None = None) -> Setup:
        """The set-up the seeded shuffle produces (see :func:`engine.petersburg.core.seeded_setup`)."""
        from engine.petersburg.core import seeded_setup

        return seeded_setup(players, seed=seed, variant=variant)


@frozen
class Reduction:
    """One step of a cost derivation: roubles off, the clause that grants it, and why."""

    amount: int
    clause: str
    reason: str


@frozen
class CostBreakdown:
    """How a card's cost is derived (the engine charges exactly ``cost``).

    ``printed`` (SP-COST-1) minus ``displaced_value`` (a trading card's target, SP-COST-7 / SP-POTJ-1) minus
    each reduction, but never below ``minimum`` (SP-COST-6); ``affordable`` when ``cost <= money``.
    """

    card: str
    source: str
    printed: int
    displaced: str | None
    displaced_value: int
    displaced_clause: str | None
    reductions: tuple[Reduction, ...]
    minimum: int
    cost: int
    money: int
    affordable: bool

    @property
    def raw(self) -> int:
        """The cost before the minimum applies (may be 0 or negative)."""
        return self.printed - self.displaced_value - sum(r.amount for r in self.reductions)

    def lines(self) -> tuple[str, ...]:
        """The derivation as readable lines, each naming its clause."""
        out = [f"{self.card}: printed cost {self.printed} [SP-COST-1]"]
        if self.displaced is not None:
            out.append(
                f"  - {self.displaced_value} for displacing {self.displaced} [{self.displaced_clause}]"
            )
        out.extend(f"  - {r.amount} {r.reason} [{r.clause}]" for r in self.reductions)
        note = f" (raw {self.raw}, minimum {self.minimum})" if self.raw < self.minimum else ""
        out.append(
            f"  = {self.cost}{note} [SP-COST-6]; has {self.money}: "
            f"{'affordable' if self.affordable else 'cannot afford'} [SP-BUY-2]"
        )
        return tuple(out)
