"""The JSON codec of Saint Petersburg: states and actions in their canonical JSON form, and back, validated.

Cards are written by the edition's names, stacks top card first.  A JSON state is read field by field and
built through :func:`engine.petersburg.position.position`, so it is held to every rule a position is; the
optional ``box`` lists the cards out of the game (without it every card of the catalog must be placed).

A stack of unknown order (SP-REVEAL-1) is an object instead of a list: ``{"top": [known cards, top
first], "unknown": [its other cards, a multiset, sorted]}``; a card drawn from it and not yet revealed
(phase ``reveal``) is written ``"?STACK"`` in the upper row or as ``drawn`` (and stays in ``unknown``).

>>> from engine.petersburg import GAME
>>> s = GAME.new_game(2, seed=1)
>>> state_from_json(state_to_json(s)) == s
True
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.errors import InputError
from engine.jsonio import field_name, show
from engine.petersburg.catalog import GAME_META, STACKS, VARIANTS
from engine.petersburg.model import ACTION_TYPES, PHASE_NAMES, State, card_name
from engine.petersburg.names import resolve_card
from engine.petersburg.position import position
from engine.petersburg.ruleset import ruleset

__all__ = ["action_from_json", "action_to_json", "state_from_json", "state_to_json"]

_STATE_KEYS = (
    "game",
    "variant",
    "options",
    "players",
    "round",
    "phase",
    "turn",
    "passes",
    "stacks",
    "upper",
    "lower",
    "discard",
    "money",
    "vp",
    "hands",
    "areas",
    "turned",
    "markers",
    "drawn",
    "pub_queue",
    "last_round",
    "over",
)
"""The keys of a JSON state; ``box`` (the cards out of the game) is optional."""


def state_to_json(state: State) -> dict[str, Any]:
    """Canonical JSON of the whole state (cards by the edition's names; stacks top card first)."""
    rs = state.rules
    names = rs.names
    return {
        "game": "petersburg",
        "variant": rs.variant,
        "options": dict(rs.options),
        "players": state.players,
        "round": state.round,
        "phase": PHASE_NAMES[state.phase_index],
        "turn": state.turn,
        "passes": state.passes,
        "stacks": {st: _stack_json(state, i) for i, st in enumerate(STACKS)},
        "upper": [card_name(rs, k) for k in state.upper],
        "lower": [names[k] for k in state.lower],
        "discard": [names[k] for k in state.discard],
        "money": list(state.money),
        "vp": list(state.vp),
        "hands": [[names[k] for k in h] for h in state.hands],
        "areas": [[names[k] for k in a] for a in state.areas],
        "turned": [[names[k] for k in t] for t in state.turned],
        "markers": {ph: state.markers[i] for i, ph in enumerate(PHASE_NAMES)},
        "drawn": card_name(rs, state.drawn) if state.drawn >= 0 else None,
        "pub_queue": list(state.pub_queue),
        "last_round": state.last_round,
        "over": state.over,
        **({"box": [names[k] for k in state.box]} if state.box else {}),
    }


def _stack_json(state: State, i: int) -> Any:
    """A stack: its cards top first, or ``{"top": [...], "unknown": [...]}`` with cards of unknown order."""
    names = state.rules.names
    top = [names[k] for k in state.stacks[i] if k < len(names)]
    if not state.hidden or not state.hidden[i]:
        return top
    return {"top": top, "unknown": [names[k] for k in state.hidden[i]]}


def _stacks_from_json(st: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    known: dict[str, Any] = {}
    unknown: dict[str, Any] = {}
    for name, value in st.items():
        if isinstance(value, dict):
            if set(value) - {"top", "unknown"} or "unknown" not in value:
                raise InputError(
                    f"stacks.{name}", 'a stack of unknown order is {"top": [...], "unknown": [...]}'
                )
            known[name] = value.get("top", [])
            unknown[name] = value["unknown"]
        else:
            known[name] = value
    return known, unknown


def state_from_json(data: Any) -> State:
    """Parse and validate a JSON state; InputError (PositionError for a rule) names the offending field."""
    if not isinstance(data, dict):
        raise InputError("state", f"expected an object, got {type(data).__name__}")
    for k in data:
        if k not in _STATE_KEYS and k != "box":
            raise InputError(field_name(k), f"unknown field (known: {', '.join(_STATE_KEYS)}, box)")
    for k in _STATE_KEYS:
        if k not in data:
            raise InputError(k, "missing")
    if data["game"] != "petersburg":
        raise InputError("game", f"expected 'petersburg', got {show(data['game'])}")
    n = data["players"]
    if (
        isinstance(n, bool)
        or not isinstance(n, int)
        or not GAME_META["min_players"] <= n <= GAME_META["max_players"]
    ):
        raise InputError(
            "players", f"expected an integer {GAME_META['min_players']}..{GAME_META['max_players']}"
        )
    if data["phase"] not in PHASE_NAMES:
        raise InputError("phase", f"expected one of {', '.join(PHASE_NAMES)}, got {show(data['phase'])}")
    for k in ("over", "last_round"):
        if not isinstance(data[k], bool):
            raise InputError(k, f"expected true or false, got {show(data[k])}")
    st, m = data["stacks"], data["markers"]
    if not isinstance(st, dict) or set(st) != set(STACKS):
        raise InputError("stacks", f"expected an object with the stacks {', '.join(STACKS)}")
    if not isinstance(m, dict) or set(m) != set(PHASE_NAMES):
        raise InputError("markers", f"expected an object with the phases {', '.join(PHASE_NAMES)}")
    phase = data["phase"]
    if data["over"]:
        phase = "over"
    elif data["pub_queue"]:
        phase = "pub"
    elif any(isinstance(c, str) and c.startswith("?") for c in [data["drawn"], *_listed(data["upper"])]):
        phase = "reveal"
    elif data["drawn"] is not None:
        phase = "observatory"
    known, unknown = _stacks_from_json(st)
    state = position(
        players=n,
        variant=data["variant"],
        options=data["options"],
        round=data["round"],
        phase=phase,
        turn=data["turn"],
        passes=data["passes"],
        markers=[m[ph] for ph in PHASE_NAMES],
        upper=data["upper"],
        lower=data["lower"],
        stacks=known,
        unknown=unknown,
        discard=data["discard"],
        money=data["money"],
        vp=data["vp"],
        hands=data["hands"],
        areas=data["areas"],
        turned=data["turned"],
        drawn=data["drawn"],
        pub_queue=data["pub_queue"],
        last_round=data["last_round"],
    )
    if PHASE_NAMES[state.phase_index] != data["phase"]:
        raise InputError(
            "phase", f"a {state.phase} decision is taken in the {PHASE_NAMES[state.phase_index]} phase"
        )
    box = data.get("box", [])
    if not isinstance(box, list) or not all(isinstance(b, str) for b in box):
        raise InputError("box", "expected a list of card names")
    given = Counter(k for k in map(resolve_card, box) if k is not None)
    if sum(given.values()) != len(box):
        raise InputError("box", "unknown card name")
    if given != Counter(state.box):
        rs = state.rules
        missing = sorted((Counter(state.box) - given).elements())
        if missing and "box" not in data:
            k = missing[0]
            raise InputError(
                "stacks",
                f"{rs.cards[k].copies - state.box.count(k)} x {rs.names[k]} in the game, "
                f"the catalog has {rs.cards[k].copies}",
            )
        raise InputError("box", "must list exactly the cards in no other place")
    return state


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def action_to_json(action: Any) -> dict[str, Any]:
    """Canonical JSON of an action: ``{"type": ..., "player": ..., <fields>}``."""
    for tag, cls in ACTION_TYPES.items():
        if type(action) is cls:
            out: dict[str, Any] = {"type": tag}
            for f in _ACTION_FIELDS[tag]:
                out[f] = getattr(action, f)
            return out
    raise InputError("action", f"not a Saint Petersburg action: {show(action)}")


def action_from_json(data: Any) -> Any:
    """Parse and validate a JSON action (cards by name: any edition's name or a known alias)."""
    if not isinstance(data, dict):
        raise InputError("action", f"expected an object, got {type(data).__name__}")
    tag = data.get("type")
    if not isinstance(tag, str) or tag not in ACTION_TYPES:
        raise InputError("action.type", f"expected one of {', '.join(ACTION_TYPES)}, got {show(tag)}")
    fields = _ACTION_FIELDS[tag]
    for key in data:
        if key != "type" and key not in fields:
            raise InputError(
                f"action.{field_name(key)}", f"unknown field for a {tag} action (known: {', '.join(fields)})"
            )
    values: dict[str, Any] = {}
    for f in fields:
        optional = f == "displace" or (f == "source" and tag in ("buy", "take"))
        if f not in data:
            if optional:
                continue
            raise InputError(f"action.{f}", "missing")
        v = data[f]
        if f in ("player", "vp"):
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise InputError(f"action.{f}", f"expected an integer >= 0, got {show(v)}")
        elif f in ("card", "displace"):
            if v is None and f == "displace":
                pass
            elif not isinstance(v, str) or resolve_card(v) is None:
                raise InputError(f"action.{f}", f"unknown card {show(v)}")
            else:
                v = _canonical_name(v)
        elif f == "source":
            if v not in ("upper", "lower", "drawn"):
                raise InputError("action.source", f"expected upper, lower or drawn, got {show(v)}")
        elif f == "stack" and v not in STACKS:
            raise InputError("action.stack", f"expected one of {', '.join(STACKS)}, got {show(v)}")
        values[f] = v
    return ACTION_TYPES[tag](**values)


_ACTION_FIELDS: dict[str, tuple[str, ...]] = {
    "buy": ("player", "card", "source", "displace"),
    "take": ("player", "card", "source"),
    "play": ("player", "card", "displace"),
    "pass": ("player",),
    "observe": ("player", "stack"),
    "discard": ("player", "card"),
    "pub": ("player", "vp"),
    "reveal": ("card",),
}


def _canonical_name(name: str) -> str:
    """An edition's exact name stays; an alias becomes the first-edition name."""
    for variant in VARIANTS:
        if name in ruleset(variant).kind:
            return name
    k = resolve_card(name)
    assert k is not None
    return ruleset().names[k]
