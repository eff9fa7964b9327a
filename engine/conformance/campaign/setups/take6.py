"""6 nimmt!'s set-ups for differential fuzzing: every round's deal drawn card by card.

>>> from engine.conformance.campaign.setups.base import GameSetup
>>> Take6Setups().covers(GameSetup("take6", "standard", 2, [{"type": "deal"}]), type("S", (), {"round": 2}))
False
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from engine.conformance.campaign.setups.base import GameSetup, SetupMaker
from engine.game import Game

__all__ = ["SETUPS", "Take6Setups"]


class Take6Setups(SetupMaker):
    """6 nimmt!: one deal per round, each a permutation of the variant's deck cut into hands then row
    starters (so shrinking moves toward hands 1..10, 11..20, ...); logic rounds draw the first drafter.

    The number of rounds is drawn too (shrinking toward one); the game stops when it would need a round
    the set-up does not deal, since the reference would then fall back to its seeded deal.
    """

    MAX_ROUNDS = 12
    spare = "stock"
    seat_fields = ("start",)
    seat_cards = ("selected",)
    seat_pairs = ("pending",)
    shared = ("rows", "stock")
    deals = "deals"
    seed = "seed"

    def draw(self, draw: st.DrawFn, game: Game, kit: Any, setup: GameSetup, max_steps: int) -> Any:
        from engine.take6.rules import rules_for

        rules = rules_for(setup.variant, setup.players, dict(setup.options))
        n, h = setup.players, rules.hand_size
        most = max(1, min(self.MAX_ROUNDS, max_steps // max(1, n * h) + 1))
        rounds = draw(st.integers(1, most))
        out: list[dict[str, Any]] = []
        for _ in range(rounds):
            if rules.deal == "draft":
                out.append({"type": "draft_start", "player": draw(st.integers(0, n - 1))})
                continue
            order = draw(st.permutations(rules.deck))[: rules.cards_dealt]
            out.append({"type": "deal", "hands": [list(order[p * h : (p + 1) * h]) for p in range(n)],
                        "rows": list(order[n * h :])})
        return out

    def covers(self, setup: GameSetup, state: Any) -> bool:
        return int(state.round) <= len(setup.setup)


SETUPS = Take6Setups()
"""The set-up maker a campaign draws 6 nimmt! games from (the ``fuzz_setups`` facet of the game)."""
