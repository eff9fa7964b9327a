"""A wrong 6 nimmt! peer: a card lower than every row end goes to the row with the fewest bullheads,
without asking its player.

``python -m engine.conformance.peers.take6_fewest_heads`` — the classic weak implementation the style guide
warns about: the engine choosing for the player.  Our rules make it a decision of the player (T6-PLACE-3,
T6-CHOOSE-1): the reference stops and asks that seat to take a row, this peer does not, so the harness
sees a difference in who must act (or in the scores) right after the first low card.
"""

from __future__ import annotations

import sys

from engine.conformance.peers.base import ReferencePeer, serve
from engine.take6.model import TakeRow
from engine.take6.rules import bullheads


class FewestHeadsPeer(ReferencePeer):
    """Defect: whenever a seat must choose a row, the peer takes the cheapest row for it (lowest index on
    a tie) and carries on."""

    name = "take6 fewest heads (chooses the row for the player)"

    def after_apply(self) -> None:
        game = self.game
        assert game is not None
        while not game.is_terminal(self.state):
            acting = game.to_act(self.state)
            choices = [a for a in game.legal_actions(self.state, acting[0]) if isinstance(a, TakeRow)]
            if len(acting) != 1 or not choices:
                return
            rows = self.kit.facts(self.state)["rows"]
            best = min(choices, key=lambda a: (sum(bullheads(c) for c in rows[a.row]), a.row))
            self.state = game.apply(self.state, best)


def main() -> int:
    """Serve the protocol on stdin/stdout."""
    return serve(FewestHeadsPeer())


if __name__ == "__main__":
    sys.exit(main())
