"""A wrong Saint Petersburg peer: it forgets the minimum cost of 1 rouble (SP-COST-6).

``python -m engine.conformance.peers.petersburg_free_cards`` — the peer charges the raw cost (printed cost
minus the displaced card's value and every reduction) floored at 0 instead of at 1, so a card whose
reductions reach its price comes free.  The harness sees the peer's money differ from the rules' right
after the first such purchase.
"""

from __future__ import annotations

import sys
from typing import Any

from engine.conformance.peers.base import ReferencePeer, serve
from engine.petersburg import Buy, Play, cost_breakdown


class FreeCardsPeer(ReferencePeer):
    """Defect: after a purchase the reference prices at the minimum, the peer refunds the difference
    between the minimum and the raw cost (floored at 0)."""

    name = "petersburg free cards (no minimum cost)"

    def do_apply(self, player: int, action: Any) -> None:
        assert self.game is not None
        refund = 0
        parsed = self.game.action_from_json(action)
        if isinstance(parsed, Buy | Play) and self.game.name == "petersburg":
            source = parsed.source if isinstance(parsed, Buy) else "hand"
            try:
                quote = cost_breakdown(self.state, player, parsed.card, source=source,
                                       displace=parsed.displace)
            except ValueError:
                quote = None
            if quote is not None and quote.raw < quote.minimum:
                refund = quote.cost - max(quote.raw, 0)
        super().do_apply(player, action)
        if refund:
            money = list(self.state.money)
            money[player] += refund
            self.state = self.state._replace(money=tuple(money))


def main() -> int:
    """Serve the protocol on stdin/stdout."""
    return serve(FreeCardsPeer())


if __name__ == "__main__":
    sys.exit(main())
