"""6 nimmt! values: the frozen game state, the actions, and the explicit set-ups.

All are immutable.  Actions are frozen attrs classes that name their player and have an evaluable ``repr``;
the engine hands out interned instances (one per player and card) so ``legal_actions`` costs one tuple
build, but any equal instance is accepted.  The state is a ``NamedTuple`` (a tuple: immutable, hashable,
cheap to build on the hot path, and its ``repr`` evaluates back to an equal state).

>>> Select(player=0, card=33)
Select(player=0, card=33)
>>> Select(0, 33) == Select(0, 33), Select(0, 3) == TakeRow(0, 3)
(True, False)
>>> Deal(hands=[[3, 1], [2, 4]], rows=[9, 8])
Deal(hands=((3, 1), (2, 4)), rows=(9, 8))
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from attrs import field, frozen

from engine.take6.rules import Rules

__all__ = ["Action", "Deal", "Draft", "DraftStart", "Flip", "Select", "Setup", "State", "TakeRow"]


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


class State(NamedTuple):
    """The whole state of a 6 nimmt! game (immutable).

    ``rules`` are the game's resolved parameters (variant, player count, options: see
    :func:`~engine.take6.rules.rules_for`).  ``phase`` is ``draft`` (logic: picking from the face-up
    ``stock``), ``select`` (secret selection), ``choose`` (``pending[0]``'s player must take a row),
    ``flip`` (kids) or ``over``.  ``rows`` are ascending tuples; ``pending`` holds the revealed
    ``(card, player)`` pairs not yet placed, ascending; ``piles`` the cards each player took this round;
    ``penalties`` each player's bullheads taken in the whole game (this round included); ``stock`` the
    cards neither in hands nor on the table (undealt, or the logic pool), sorted; ``start`` the logic
    draft's start player; ``deals`` the explicit set-ups of the coming rounds; ``hands`` sorted hands (kids:
    piles, top card first); ``selected[p]`` player p's hidden card this turn, or 0; ``to_act`` the players
    who must act now.
    """

    rules: Rules
    seed: int
    round: int
    phase: str
    rows: tuple[tuple[int, ...], ...]
    pending: tuple[tuple[int, int], ...]
    piles: tuple[tuple[int, ...], ...]
    penalties: tuple[int, ...]
    stock: tuple[int, ...]
    start: int
    deals: tuple[Deal | DraftStart, ...]
    hands: tuple[tuple[int, ...], ...]
    selected: tuple[int, ...]
    to_act: tuple[int, ...]

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
        return tuple.__hash__(self)
