"""Saint Petersburg's set-ups for differential fuzzing: a drawn seed, dealt by the reference.

Every chance event of Saint Petersburg (the stack orders, the start markers) is decided when the game
starts, so the generic seeded draw covers the whole game.  A drawn seed shrank better (7 actions) than
drawing each stack as a permutation (18 actions).

>>> from engine.conformance.campaign.setups.base import GameSetup
>>> PetersburgSetups().covers(GameSetup("petersburg", "first", 2, {}), None)
True
>>> three = {"players": 2, "markers": {"worker": 0, "building": 1, "aristocrat": 1, "trading": 1}}
>>> [m["markers"] for m in PetersburgSetups().reseated(three)][0]  # a seat fewer: 2 markers each
{'worker': 0, 'building': 0, 'aristocrat': 1, 'trading': 1}
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from typing import Any

from engine.conformance.campaign.setups.base import SetupMaker
from engine.petersburg.catalog import SETUPS as SEATINGS

__all__ = ["SETUPS", "PetersburgSetups"]


class PetersburgSetups(SetupMaker):
    """Saint Petersburg: the generic maker (a drawn seed, the reference deals the stacks and markers); a
    card a smaller position leaves out goes to the box (the cards out of the game, which a notation line
    leaves unwritten), and the start markers of a position a seat fewer are dealt again."""

    spare = "box"
    seat_fields = ("turn", "markers", "pub_queue")
    shared = ("upper", "lower", "discard")
    RESEATINGS = 4
    """How many ways of dealing the markers again a smaller position tries."""

    def reseated(self, state: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
        """A position a seat fewer whose start markers no longer fit its player count (SP-SETUP-3: two
        players hold two each): the markers dealt again over the seats left, the fewest moved first; its
        consecutive passes (SP-PHASE-3) at most one fewer than the seats."""
        markers = state.get("markers")
        players = int(state["players"])
        if not isinstance(markers, Mapping) or players not in SEATINGS:
            return
        base = dict(state)
        passes = state.get("passes")
        if isinstance(passes, int) and passes > players - 1:
            base["passes"] = players - 1
        wanted = sorted(SEATINGS[players].markers)
        decks, held = list(markers), list(markers.values())
        if sorted(held.count(p) for p in range(players)) == wanted:
            if base != state:
                yield base
            return
        dealt = [(sum(a != b for a, b in zip(seats, held, strict=True)), seats)
                 for seats in itertools.product(range(players), repeat=len(decks))
                 if sorted(seats.count(p) for p in range(players)) == wanted]
        for _moved, seats in sorted(dealt)[: self.RESEATINGS]:
            yield {**base, "markers": dict(zip(decks, seats, strict=True))}


SETUPS = PetersburgSetups()
"""The set-up maker a campaign draws Saint Petersburg games from (the ``fuzz_setups`` facet of the game)."""
