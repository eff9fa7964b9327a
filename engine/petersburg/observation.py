"""What one Saint Petersburg player may see: own money and hand; the others' hand sizes only (SP-SETUP-5).

>>> from engine.petersburg import GAME
>>> obs = observation(GAME.new_game(2, seed=1), 1)
>>> obs["phase"], obs["money"], obs["hand_sizes"]
('worker', 25, [0, 0])
"""

from __future__ import annotations

from typing import Any

from engine.errors import InputError
from engine.jsonio import show
from engine.petersburg.catalog import STACKS
from engine.petersburg.legal import to_act
from engine.petersburg.model import PHASE_NAMES, State, card_name

__all__ = ["observation"]


def observation(state: State, player: int) -> dict[str, Any]:
    """What ``player`` sees: own money and hand; others' hand sizes only (SP-SETUP-5)."""
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < state.players:
        raise InputError("player", f"expected a seat 0..{state.players - 1}, got {show(player)}")
    rs = state.rules
    names = rs.names
    drawn: str | None = None
    if state.drawn >= 0:
        drawn = card_name(rs, state.drawn) if state.turn == player else "hidden"
    obs: dict[str, Any] = {
        "game": "petersburg",
        "player": player,
        "variant": rs.variant,
        "options": dict(rs.options),
        "players": state.players,
        "round": state.round,
        "phase": state.phase,
        "to_act": list(to_act(state)),
        "passes": state.passes,
        "markers": {ph: state.markers[i] for i, ph in enumerate(PHASE_NAMES)},
        "stack_sizes": {st: len(state.stacks[i]) for i, st in enumerate(STACKS)},
        "upper": list(state.cards("upper")),
        "lower": [names[k] for k in state.lower],
        "discard": [names[k] for k in state.discard],
        "vp": list(state.vp),
        "areas": [[names[k] for k in a] for a in state.areas],
        "turned": [[names[k] for k in t] for t in state.turned],
        "hand_sizes": [len(h) for h in state.hands],
        "hand": [names[k] for k in state.hands[player]],
        "money": state.money[player],
        "drawn": drawn,
        "pub_queue": list(state.pub_queue),
        "last_round": state.last_round,
        "over": state.over,
    }
    if state.over:
        obs["final_money"] = list(state.money)
    return obs
