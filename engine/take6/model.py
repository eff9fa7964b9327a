"""6 nimmt! values: the frozen game state, the actions, and the explicit set-ups.

All are immutable.  Actions are frozen attrs classes that name their player and have an evaluable ``repr``;
the engine hands out interned instances (one per player and card) so ``legal_actions`` costs one tuple
build, but any equal instance is accepted.  The state is a tuple with named properties (immutable,
hashable, cheap to build on the hot path, and its ``repr`` evaluates back to an equal state).

>>> Select(player=0, card=33)
Select(player=0, card=33)
>>> Select(0, 33) == Select(0, 33), Select(0, 3) == TakeRow(0, 3)
(True, False)
>>> Deal(hands=[[3, 1], [2, 4]], rows=[9, 8])
Deal(hands=((3, 1), (2, 4)), rows=(9, 8))
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from attrs import field, frozen

from engine.take6.rules import BULLHEADS, GAME_INFO, Rules

__all__ = [
    "SELECTS",
    "Action",
    "Deal",
    "Draft",
    "DraftStart",
    "Flip",
    "Select",
    "Setup",
    "State",
    "TakeRow",
    "selects_of",
]


@frozen
class Select:
    """A player secretly selects ``card`` from their hand for this turn (T6-SELECT-1)."""

    player: int
    card: int


@frozen
class TakeRow:
    """A player whose card fits no row takes ``row`` (numbered from 0); their card starts it (T6-PLACE-3)."""

    player: int
    row: int


@frozen
class Draft:
    """Logic variant: a player takes ``card`` from the face-up pool into their hand (T6-LOGIC-1)."""

    player: int
    card: int


@frozen
class Flip:
    """Kids variant: a player flips the top card of their face-down pile and places it (T6-KIDS-2)."""

    player: int


Action = Select | TakeRow | Draft | Flip


def _tuple_of_tuples(hands: Iterable[Iterable[int]]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(h) for h in hands)


def _card_tuple(cards: Iterable[int]) -> tuple[int, ...]:
    return tuple(cards)


@frozen
class Deal:
    """An explicit deal of one round: ``hands[p]`` is player p's hand, ``rows[i]`` the card starting row i.

    In the kids variant ``hands[p]`` is player p's face-down pile, top card first; elsewhere a hand is a
    set and the state keeps it sorted.

    >>> Deal(hands=((9, 2), (5, 7)), rows=(1, 3))
    Deal(hands=((9, 2), (5, 7)), rows=(1, 3))
    """

    hands: tuple[tuple[int, ...], ...] = field(converter=_tuple_of_tuples)
    rows: tuple[int, ...] = field(converter=_card_tuple)


@frozen
class DraftStart:
    """An explicit set-up of one logic round: the player who drafts first (T6-LOGIC-1, T6-LOGIC-3)."""

    player: int


Setup = Deal | DraftStart


# Interned selections: SELECTS[p][c] is Select(p, c); a state keeps each hand's selections prebuilt, so
# ``legal_actions`` in the selection phase returns a stored tuple.
SELECTS: tuple[tuple[Select, ...], ...] = tuple(
    tuple(Select(p, c) for c in range(len(BULLHEADS))) for p in range(GAME_INFO.max_players)
)


def selects_of(rules: Rules, held: tuple[tuple[int, ...], ...]) -> tuple[tuple[Select, ...], ...]:
    """The prebuilt selections of each hand (``()`` in kids, where nothing is selected)."""
    if rules.play == "flip":
        return ()
    return tuple(
        tuple(SELECTS[p][c] if 0 <= p < len(SELECTS) and 0 < c < len(BULLHEADS) else Select(p, c) for c in h)
        for p, h in enumerate(held)
    )


def _without(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    i = hand.index(card)
    return hand[:i] + hand[i + 1 :]


class State(tuple):  # type: ignore[type-arg]
    """The whole state of a 6 nimmt! game (immutable).

    ``rules`` are the game's resolved parameters (variant, player count, options: see
    :func:`~engine.take6.rules.rules_for`).  ``phase`` is ``draft`` (logic: picking from the face-up
    ``stock``), ``select`` (secret selection), ``choose`` (``pending[0]``'s player must take a row),
    ``flip`` (kids), ``deal`` (a round waiting for its deal: a chance step, when the game has no seed) or
    ``over``.  ``rows`` are ascending tuples; ``pending`` holds the revealed
    ``(card, player)`` pairs not yet placed, ascending; ``piles`` the cards each player took this round;
    ``penalties`` each player's bullheads taken in the whole game (this round included); ``stock`` the
    cards neither in hands nor on the table (undealt, or the logic pool), sorted; ``start`` the logic
    draft's start player; ``deals`` the explicit set-ups of the coming rounds; ``hands`` sorted hands (kids:
    piles, top card first); ``selected[p]`` player p's hidden card this turn, or 0; ``to_act`` the players
    who must act now.

    Build a state with :func:`engine.take6.position` (keyword-only, validated: the one named constructor);
    ``State(...)`` takes the public fields above positionally, unchecked, so that ``repr`` evaluates back to
    an equal state.  The stored layout (drawn in :mod:`engine.take6.layout`) is internal: during a
    selection a selected card stays in the stored hand (``held``) until the turn is revealed; ``hands``
    shows each hand without its hidden selection, so no view shows a card in both places.  Outside logic
    the stock is not stored: it is the deck less every card in play.  Equal games give equal states.
    ``repr`` is one short line showing the table; ``State(*s.__getnewargs__())`` rebuilds an equal state.

    >>> from engine.take6.rules import rules_for
    >>> s = State(rules_for("standard", 2), 0, 1, "select", ((1,), (2,), (3,), (4,)), (), ((), ()), (0, 0),
    ...           tuple(range(25, 105)), 0, (), ((5, 6), (7, 8)), (0, 0), (0, 1))
    >>> s.hands
    ((5, 6), (7, 8))
    >>> s = State(*s.__getnewargs__()[:11], ((5,), (7, 8)), (6, 0), (1,))   # player 0 has selected 6
    >>> s.hands, s.selected, s.to_act
    (((5,), (7, 8)), (6, 0), (1,))
    >>> State(*s.__getnewargs__()) == s
    True
    >>> s
    <take6.State standard round 1 select: rows 1 / 2 / 3 / 4; bullheads 0 0; to act P1>
    """

    __slots__ = ()
    FIELDS = (
        "rules",
        "seed",
        "round",
        "phase",
        "rows",
        "pending",
        "piles",
        "penalties",
        "stock",
        "start",
        "deals",
        "hands",
        "selected",
        "to_act",
    )

    def __new__(  # noqa: PLR0917 (the public fields, in order)
        cls,
        rules: Rules,
        seed: int | None,
        round: int,
        phase: str,
        rows: tuple[tuple[int, ...], ...],
        pending: tuple[tuple[int, int], ...],
        piles: tuple[tuple[int, ...], ...],
        penalties: tuple[int, ...],
        stock: tuple[int, ...],
        start: int,
        deals: tuple[Deal | DraftStart, ...],
        hands: tuple[tuple[int, ...], ...],
        selected: tuple[int, ...],
        to_act: tuple[int, ...],
    ) -> State:
        held = hands
        if phase == "select" and any(selected):
            held = tuple(tuple(sorted((*h, c))) if c else h for h, c in zip(hands, selected, strict=True))
        kept = stock if rules.deal == "draft" else None  # derived from the other fields: see ``stock``
        fixed = (seed, round, kept, start, deals)
        ends = tuple([row[-1] for row in rows])
        layout = (rules, fixed, phase, rows, ends, pending, piles, penalties, held, selects_of(rules, held))
        return tuple.__new__(cls, (*layout, selected, to_act))

    def __getnewargs__(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.FIELDS)

    def __repr__(self) -> str:
        """A short line that shows the table: variant, round, phase, the rows, the bullheads taken and who
        acts (the exact, readable-back forms are the notation and the JSON state)."""
        rows = " / ".join(" ".join(map(str, r)) for r in self.rows)
        heads = " ".join(map(str, self.penalties))
        acting = " ".join(f"P{p}" for p in self.to_act) or "nobody"
        return (
            f"<take6.State {self.variant} round {self.round} {self.phase}: rows {rows}; "
            f"bullheads {heads}; to act {acting}>"
        )

    def _repr_svg_(self) -> str:
        """The whole table as SVG, for notebooks.  The drawing (which reads a finished game's result from
        the scoring module, which imports this one) is reached through :func:`engine.svg.repr_svg`, the
        registry's dispatch, so this module imports nothing that imports it back."""
        from engine.svg import repr_svg

        return repr_svg(self)

    @property
    def rules(self) -> Rules:
        """The game's resolved parameters."""
        return self[0]  # type: ignore[no-any-return]

    @property
    def seed(self) -> int | None:
        """The game's seed (round r is dealt from ``derived_seed(seed, r)`` unless set up explicitly);
        ``None``: each later round waits in phase ``deal`` for its deal."""
        return self[1][0]  # type: ignore[no-any-return]

    @property
    def round(self) -> int:
        """The round number, from 1."""
        return self[1][1]  # type: ignore[no-any-return]

    @property
    def phase(self) -> str:
        """``draft``, ``select``, ``choose``, ``flip`` or ``over``."""
        return self[2]  # type: ignore[no-any-return]

    @property
    def rows(self) -> tuple[tuple[int, ...], ...]:
        """The rows on the table, each ascending."""
        return self[3]  # type: ignore[no-any-return]

    @property
    def pending(self) -> tuple[tuple[int, int], ...]:
        """Revealed ``(card, player)`` pairs awaiting placement, ascending."""
        return self[5]  # type: ignore[no-any-return]

    @property
    def piles(self) -> tuple[tuple[int, ...], ...]:
        """The cards each player took this round."""
        return self[6]  # type: ignore[no-any-return]

    @property
    def penalties(self) -> tuple[int, ...]:
        """Each player's bullheads taken in the whole game."""
        return self[7]  # type: ignore[no-any-return]

    @property
    def stock(self) -> tuple[int, ...]:
        """Cards neither in hands nor on the table, sorted: the logic pool, or the cards a deal left out
        (stored only in logic; after a deal it is the deck less every card in play)."""
        stock: tuple[int, ...] | None = self[1][2]
        if stock is not None:
            return stock
        in_play = {c for h in self[8] for c in h} | {c for row in self[3] for c in row}
        in_play |= {c for pile in self[6] for c in pile} | {c for c, _ in self[5]}
        return tuple(c for c in self[0].deck if c not in in_play)

    @property
    def start(self) -> int:
        """The logic draft's start player."""
        return self[1][3]  # type: ignore[no-any-return]

    @property
    def deals(self) -> tuple[Deal | DraftStart, ...]:
        """The explicit set-ups of the coming rounds."""
        return self[1][4]  # type: ignore[no-any-return]

    @property
    def hands(self) -> tuple[tuple[int, ...], ...]:
        """Each player's hand, sorted (kids: the face-down pile, top card first), without the card the
        player has selected this turn."""
        held: tuple[tuple[int, ...], ...] = self[8]
        selected: tuple[int, ...] = self[10]
        if self[2] != "select" or not any(selected):
            return held
        return tuple(_without(h, c) if c else h for h, c in zip(held, selected, strict=True))

    @property
    def selected(self) -> tuple[int, ...]:
        """``selected[p]`` is player p's hidden card this turn, or 0."""
        return self[10]  # type: ignore[no-any-return]

    @property
    def to_act(self) -> tuple[int, ...]:
        """The players who must act now."""
        return self[11]  # type: ignore[no-any-return]

    @property
    def turn(self) -> int:
        """The turn of the round being played, from 1 (kids: the flip, from 1); 0 in a draft, before a
        deal and once the game is over.

        >>> from engine.take6 import GAME
        >>> GAME.new_game(2, seed=1).turn
        1
        """
        phase: str = self[2]
        h: int = self[0].hand_size
        held: tuple[tuple[int, ...], ...] = self[8]
        if phase == "select":
            return h - len(held[0]) + 1
        if phase == "choose" and self[0].play != "flip":
            return h - len(held[0])
        if phase in ("flip", "choose"):
            return len(held) * h - sum(map(len, held)) + (phase == "flip")
        return 0

    @property
    def totals_before_round(self) -> tuple[int, ...]:
        """Each player's bullheads from the earlier rounds (``penalties`` less this round's piles)."""
        bh = self[0].heads
        return tuple(t - sum(bh[c] for c in pile) for t, pile in zip(self[7], self[6], strict=True))

    @property
    def chooser(self) -> int | None:
        """The seat that must choose a row to take (phase ``choose``), else ``None``."""
        return self[11][0] if self[2] == "choose" else None

    @property
    def variant(self) -> str:
        """The variant's name."""
        return self.rules.variant

    @property
    def players(self) -> int:
        """The number of players."""
        return self.rules.players

    @property
    def options(self) -> tuple[tuple[str, str], ...]:
        """The options in force, as sorted ``(name, value)`` pairs."""
        return self.rules.options

    def __eq__(self, other: object) -> bool:
        return type(other) is State and tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(self[:9] + self[10:])  # the prebuilt selections follow from the hands
