"""The JSON codec of 6 nimmt!: states and actions in their canonical JSON form, and back, validated.

A JSON state is read field by field (InputError naming the field) and built through
:func:`engine.take6.position.position`, so it is held to every rule a position is.

>>> from engine.take6 import GAME
>>> s = GAME.new_game(2, seed=1)
>>> state_from_json(state_to_json(s)) == s
True
>>> action_from_json({"type": "select", "player": 1, "card": 33})
Select(player=1, card=33)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.errors import InputError, PositionError
from engine.jsonio import field_name, show
from engine.take6.layout import MAXC, MAXP, TAKE
from engine.take6.model import Action, Deal, Draft, DraftStart, Flip, Select, Setup, State, TakeRow
from engine.take6.position import PHASES, position
from engine.take6.rules import GAME_INFO, VARIANTS
from engine.take6.scoring import bullheads_of

__all__ = [
    "action_from_json",
    "action_to_json",
    "setup_from_json",
    "setup_to_json",
    "state_from_json",
    "state_to_json",
]



def _int(data: Any, field: str, lo: int | None = None, hi: int | None = None) -> int:
    if isinstance(data, bool) or not isinstance(data, int):
        raise InputError(field, f"expected an integer, got {show(data)}")
    if (lo is not None and data < lo) or (hi is not None and data > hi):
        span = f">= {lo}" if hi is None else f"<= {hi}" if lo is None else f"from {lo} to {hi}"
        raise InputError(field, f"expected an integer {span}, got {data}")
    return data


def _list(data: Any, field: str, length: int | None = None) -> list[Any]:
    if not isinstance(data, list):
        raise InputError(field, f"expected a list, got {type(data).__name__}")
    if length is not None and len(data) != length:
        raise InputError(field, f"expected {length} entries, got {len(data)}")
    return data


def _cards(data: Any, field: str, length: int | None = None) -> tuple[int, ...]:
    return tuple(_int(c, f"{field}[{i}]", 1, MAXC) for i, c in enumerate(_list(data, field, length)))


def _obj(data: Any, field: str, keys: Sequence[str]) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise InputError(field, f"expected an object, got {type(data).__name__}")
    for k in data:
        if k not in keys:
            name = f"{field}.{field_name(k)}" if field else field_name(k)
            raise InputError(name, f"unknown field (known: {', '.join(keys)})")
    for k in keys:
        if k not in data:
            raise InputError(f"{field}.{k}" if field else k, "missing field")
    return data


# the JSON form: the game and its parameters, then the state's public fields from ``round`` to ``selected``
# (``rules`` is spelled out as variant/players/options; ``to_act`` is derived, not stored)
_STATE_KEYS = ("game", "variant", "players", "seed", "options", *State.FIELDS[2:13])


def setup_to_json(item: Setup) -> dict[str, Any]:
    """A round's explicit set-up (a deal, or a logic draft's start player) as JSON."""
    if isinstance(item, Deal):
        return {"type": "deal", "hands": [list(h) for h in item.hands], "rows": list(item.rows)}
    return {"type": "draft_start", "player": item.player}


def setup_from_json(data: Any, field: str) -> Setup:
    """Parse a round's explicit set-up (InputError naming the field)."""
    if not isinstance(data, dict) or data.get("type") not in ("deal", "draft_start"):
        raise InputError(f"{field}.type", "expected 'deal' or 'draft_start'")
    if data["type"] == "deal":
        d = _obj(data, field, ("type", "hands", "rows"))
        hands = tuple(
            _cards(h, f"{field}.hands[{i}]") for i, h in enumerate(_list(d["hands"], f"{field}.hands"))
        )
        return Deal(hands=hands, rows=_cards(d["rows"], f"{field}.rows"))
    d = _obj(data, field, ("type", "player"))
    return DraftStart(_int(d["player"], f"{field}.player", 0, MAXP - 1))


def state_to_json(state: State) -> dict[str, Any]:
    """Canonical JSON form of the whole state (``to_act`` is derived, so not stored)."""
    return {
        "game": "take6",
        "variant": state.variant,
        "players": state.players,
        "seed": state.seed,
        "options": dict(state.options),
        "round": state.round,
        "phase": state.phase,
        "rows": [list(r) for r in state.rows],
        "pending": [[c, p] for c, p in state.pending],
        "piles": [list(x) for x in state.piles],
        "penalties": list(state.penalties),
        "stock": list(state.stock),
        "start": state.start,
        "deals": [setup_to_json(x) for x in state.deals],
        "hands": [list(h) for h in state.hands],
        "selected": [c or None for c in state.selected],
    }


def state_from_json(data: Any) -> State:
    """Parse and validate a JSON state (InputError naming the field; PositionError also the clause)."""
    d = _obj(data, "", _STATE_KEYS)
    if d["game"] != "take6":
        raise InputError("game", f"expected 'take6', got {show(d['game'])}")
    variant = d["variant"]
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise InputError("variant", f"unknown variant {show(variant)} (known: {', '.join(VARIANTS)})")
    n = _int(d["players"], "players", GAME_INFO.min_players, GAME_INFO.max_players)
    seed = None if d["seed"] is None else _int(d["seed"], "seed", 0)
    if not isinstance(d["options"], dict):
        raise InputError("options", "expected an object")
    if d["phase"] not in PHASES:
        raise InputError("phase", f"expected one of {', '.join(PHASES)}, got {show(d['phase'])}")
    rows = tuple(_cards(r, f"rows[{i}]") for i, r in enumerate(_list(d["rows"], "rows")))
    pending = []
    for i, item in enumerate(_list(d["pending"], "pending")):
        pair = _list(item, f"pending[{i}]", 2)
        pending.append(
            (_int(pair[0], f"pending[{i}][0]", 1, MAXC), _int(pair[1], f"pending[{i}][1]", 0, n - 1))
        )
    piles = tuple(_cards(x, f"piles[{i}]") for i, x in enumerate(_list(d["piles"], "piles", n)))
    penalties = tuple(
        _int(x, f"penalties[{i}]", 0) for i, x in enumerate(_list(d["penalties"], "penalties", n))
    )
    totals = []
    for p in range(n):
        before = penalties[p] - bullheads_of(piles[p])
        if before < 0:
            raise InputError(f"penalties[{p}]", "less than the bullheads of the player's pile")
        totals.append(before)
    stock = _cards(d["stock"], "stock")
    deals = tuple(setup_from_json(x, f"deals[{i}]") for i, x in enumerate(_list(d["deals"], "deals")))
    hands = tuple(_cards(x, f"hands[{i}]") for i, x in enumerate(_list(d["hands"], "hands", n)))
    selected = tuple(
        None if x is None else _int(x, f"selected[{i}]", 1, MAXC)
        for i, x in enumerate(_list(d["selected"], "selected", n))
    )
    try:
        state = position(
            players=n,
            variant=variant,
            options=d["options"],
            seed=seed,
            round=_int(d["round"], "round", 1),
            phase=d["phase"],
            rows=rows,
            hands=hands,
            selected=selected,
            pending=pending,
            piles=piles,
            totals=totals,
            start=_int(d["start"], "start", 0, n - 1),
            deals=deals,
        )
    except PositionError as exc:  # the builder's totals are the JSON state's penalties less the piles
        if exc.field.startswith("totals"):
            raise PositionError("penalties" + exc.field[len("totals") :], exc.clause, exc.message) from None
        raise
    for p, h in enumerate(hands):
        if state.hands[p] != h:
            raise InputError(f"hands[{p}]", "must be sorted")
    if dict(state.options) != d["options"]:
        raise InputError("options", f"must list every option of the variant: {dict(state.options)}")
    if stock != state.stock:
        twice = sorted(c for c in set(stock) if stock.count(c) > 1)
        if twice:
            raise PositionError("stock", "T6-DECK-1", f"card {twice[0]} is listed twice")
        if stock != tuple(sorted(stock)):
            raise InputError("stock", "must be sorted")
        missing = sorted(set(state.stock) - set(stock))
        if missing:
            raise InputError("stock", f"card {missing[0]} of the deck is nowhere")
        raise InputError(
            "stock", f"card {sorted(set(stock) - set(state.stock))[0]} is also elsewhere or not in the deck"
        )
    return state


def action_to_json(action: Action | Setup) -> dict[str, Any]:
    """Canonical JSON form: ``{"type": ..., "player": ..., ...}`` (a chance step: the deal's set-up)."""
    if isinstance(action, Select):
        return {"type": "select", "player": action.player, "card": action.card}
    if isinstance(action, TakeRow):
        return {"type": "take_row", "player": action.player, "row": action.row}
    if isinstance(action, Draft):
        return {"type": "draft", "player": action.player, "card": action.card}
    if isinstance(action, Flip):
        return {"type": "flip", "player": action.player}
    return setup_to_json(action)


def action_from_json(data: Any) -> Action | Setup:
    """Parse and validate a JSON action (InputError naming the field).

    >>> action_from_json({"type": "select", "player": 1, "card": 0})
    Traceback (most recent call last):
    ...
    engine.errors.InputError: card: expected an integer from 1 to 104, got 0
    """
    if not isinstance(data, dict):
        raise InputError("action", f"expected an object, got {type(data).__name__}")
    kind = data.get("type")
    if kind == "select":
        d = _obj(data, "", ("type", "player", "card"))
        return Select(_int(d["player"], "player", 0, MAXP - 1), _int(d["card"], "card", 1, MAXC))
    if kind == "take_row":
        d = _obj(data, "", ("type", "player", "row"))
        return TakeRow(_int(d["player"], "player", 0, MAXP - 1), _int(d["row"], "row", 0, len(TAKE[0]) - 1))
    if kind == "draft":
        d = _obj(data, "", ("type", "player", "card"))
        return Draft(_int(d["player"], "player", 0, MAXP - 1), _int(d["card"], "card", 1, MAXC))
    if kind == "flip":
        d = _obj(data, "", ("type", "player"))
        return Flip(_int(d["player"], "player", 0, MAXP - 1))
    if kind in ("deal", "draft_start"):
        return setup_from_json(data, "action")
    raise InputError("type", f"expected select, take_row, draft, flip, deal or draft_start, got {show(kind)}")
