"""Saint Petersburg's set-ups for differential fuzzing: a drawn seed, dealt by the reference.

Every chance event of Saint Petersburg (the stack orders, the start markers) is decided when the game
starts, so the generic seeded draw covers the whole game.  A drawn seed shrank better (7 actions) than
drawing each stack as a permutation (18 actions).

>>> from engine.conformance.campaign.setups.base import GameSetup
>>> PetersburgSetups().covers(GameSetup("petersburg", "first", 2, {}), None)
True
"""

from __future__ import annotations

from engine.conformance.campaign.setups.base import SetupMaker

__all__ = ["SETUPS", "PetersburgSetups"]


class PetersburgSetups(SetupMaker):
    """Saint Petersburg: the generic maker (a drawn seed, the reference deals the stacks and markers); a
    card a smaller position leaves out goes to the discard pile."""

    spare = "discard"
    seat_fields = ("turn", "markers")


SETUPS = PetersburgSetups()
"""The set-up maker a campaign draws Saint Petersburg games from (the ``fuzz_setups`` facet of the game)."""
