"""What one 6 nimmt! player may see: never another player's hand or hidden selection.

>>> from engine.take6 import GAME
>>> obs = observation(GAME.new_game(2, seed=1), 0)
>>> obs["turn"], len(obs["hand"]), obs["hand_sizes"]
(1, 10, [10, 10])
"""

from __future__ import annotations

from typing import Any

from engine.errors import InputError
from engine.jsonio import show
from engine.take6.model import State
from engine.take6.scoring import bullheads_of

__all__ = ["observation"]


def observation(state: State, player: int) -> dict[str, Any]:
    """``player``'s view: their own hand (kids: only their pile's size), the rows, the totals, the face-up
    logic pool, revealed cards awaiting placement, and only *whether* others have selected."""
    rules = state.rules
    n = state.players
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < n:
        raise InputError("player", f"expected a seat 0..{n - 1}, got {show(player)}")
    flip = rules.play == "flip"
    obs: dict[str, Any] = {
        "game": "take6",
        "variant": state.variant,
        "players": n,
        "player": player,
        "round": state.round,
        "turn": state.turn,
        "phase": state.phase,
        "to_act": list(state.to_act),
        "chooser": state.chooser,
        "rows": [list(r) for r in state.rows],
        "row_bullheads": [bullheads_of(r) for r in state.rows],
        "hand": None if flip else list(state.hands[player]),
        "hand_sizes": [len(h) for h in state.hands],
        "selected": [bool(c) for c in state.selected],
        "my_selection": state.selected[player] or None,
        "pending": [[c, p] for c, p in state.pending],
        "piles": [list(x) for x in state.piles],
        "penalties": list(state.penalties),
        "totals_before_round": list(state.totals_before_round),
        "pool": list(state.stock) if state.phase == "draft" else None,
        "stock_size": len(state.stock),
    }
    if rules.countdown_from is not None:
        obs["points_left"] = [rules.countdown_from - x for x in state.penalties]
    return obs
