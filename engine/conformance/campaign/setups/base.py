"""What a generated game starts from, and how a game's set-ups are generated (the generic maker).

A :class:`SetupMaker` draws the explicit set-up of one generated game; the generic one draws a seed and lets
the reference deal.  Each game's own maker lives beside it, in ``<game>.py``.

>>> from engine.conformance.kits.base import get_kit
>>> from engine.game import get_game
>>> s = GameSetup("petersburg", "first", 2, None)
>>> seeded_setup(get_game("petersburg"), get_kit("petersburg"), s, 7) == seeded_setup(
...     get_game("petersburg"), get_kit("petersburg"), s, 7)
True
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from attrs import field, frozen
from hypothesis import strategies as st

from engine.game import Game

__all__ = ["GameSetup", "SetupMaker", "seeded_setup"]


@frozen
class GameSetup:
    """What a generated game starts from: game, variant, player count, options and explicit set-up (JSON)."""

    game: str
    variant: str
    players: int
    setup: Any = field(eq=False)
    options: Mapping[str, Any] = field(factory=dict, eq=False)


def seeded_setup(game: Game, kit: Any, setup: GameSetup, seed: int) -> Any:
    """The explicit set-up (JSON) the reference engine deals from ``seed``, read off the first state.

    This suits a game whose chance events are all decided when it starts (Saint Petersburg's stack
    orders and markers); a game that deals again later registers its own :class:`SetupMaker`.
    """
    state = game.new_game(setup.players, seed=seed, variant=setup.variant, options=dict(setup.options))
    return kit.setup_to_json(kit.explicit_setup([state]))


class SetupMaker:
    """How set-ups of one game are generated: the generic maker draws a seed and lets the reference deal
    (:func:`seeded_setup`); a game may register a finer one whose draws shrink card by card.

    The class attributes tell :mod:`engine.conformance.campaign.positions` how a position of the game's JSON
    state shrinks: a card taken out goes to the list ``spare`` (every card must stay somewhere), a seat
    taken out renumbers the seats named by ``seat_fields`` and gives up the cards of ``seat_cards``; the
    later rounds' deals (``deals``) are not cards in play, and a position leaving them out leaves out the
    ``seed`` that would deal them instead."""

    spare: str | None = None
    """The JSON state's list receiving the cards a smaller position leaves out (``None``: none)."""
    seat_fields: tuple[str, ...] = ()
    """JSON state fields naming seats (a number, an object of numbers, or a list of seats in order)."""
    seat_cards: tuple[str, ...] = ()
    """JSON state fields holding one card (or ``null``) per seat."""
    seat_pairs: tuple[str, ...] = ()
    """JSON state fields listing ``[card, seat]`` pairs (a seat taken out loses its pairs' cards)."""
    shared: tuple[str, ...] = ()
    """JSON state lists that are not one entry per seat, even when as long as the player count (a seat
    taken out keeps them whole)."""
    deals: str | None = None
    """The JSON state's list of the later rounds' deals (``None``: every chance event is in the position)."""
    seed: str | None = None
    """The JSON state's field seeding the deals of rounds ``deals`` does not give (``None``: none)."""

    def reseated(self, state: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
        """Valid readings of a position a seat fewer (its JSON ``state``) that taking the seat's entries out
        leaves invalid (a game's per-seat shares that must fit the player count); none by default."""
        return iter(())

    def draw(self, draw: st.DrawFn, game: Game, kit: Any, setup: GameSetup, max_steps: int) -> Any:
        """The explicit set-up (JSON) of one generated game."""
        return seeded_setup(game, kit, setup, draw(st.integers(0, 2**32 - 1)))

    def covers(self, setup: GameSetup, state: Any) -> bool:
        """Whether the set-up still decides every chance event up to ``state`` (else the game stops)."""
        return True


