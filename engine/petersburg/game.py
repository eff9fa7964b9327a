"""``GAME``: Saint Petersburg behind the :class:`engine.game.Game` protocol (JSON, observation, narration).

>>> from engine.petersburg import GAME, Buy
>>> s = GAME.new_game(2, seed=1)
>>> GAME.to_act(s)
(0,)
>>> a = next(a for a in GAME.legal_actions(s, 0) if isinstance(a, Buy))
>>> GAME.narrate(s, a, GAME.apply(s, a))[0]
'P0 buys Shepherd from the upper row for 5 R (20 R left)'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.errors import IllegalAction, InputError
from engine.game import Result
from engine.jsonio import show
from engine.petersburg import core
from engine.petersburg.catalog import (
    GAME_META,
    OPTIONS,
    PARAMS,
    PHASES,
    STACKS,
    VARIANTS,
    Ruleset,
    normalize_options,
    resolve_card,
    ruleset,
)
from engine.petersburg.model import (
    ACTION_TYPES,
    Buy,
    Discard,
    Observe,
    Pass,
    Play,
    PubBuy,
    Setup,
    State,
    Take,
)
from engine.spec import ClauseBook, load_clauses

__all__ = ["GAME", "PetersburgGame"]

_PHASE_NAMES = tuple(p.name for p in PHASES)


class PetersburgGame:
    """Saint Petersburg (1-4 players, first and second edition).  Use the module-level ``GAME``."""

    name = "petersburg"
    title = "Saint Petersburg"

    def __init__(self) -> None:
        self.min_players: int = GAME_META["min_players"]
        self.max_players: int = GAME_META["max_players"]
        self.variants: tuple[str, ...] = tuple(VARIANTS)
        self.options = dict(OPTIONS)
        self.clauses: ClauseBook = load_clauses("petersburg")

    # ------------------------------------------------------------------------------------------- protocol
    def new_game(
        self,
        players: int,
        *,
        seed: int = 0,
        variant: str | None = None,
        options: Mapping[str, Any] | None = None,
        setup: Any = None,
    ) -> State:
        """A new game at the start of the first worker phase (IllegalSetup on bad players/variant/setup)."""
        rs = ruleset(variant, options)
        core._setup_spec(players)
        if setup is None:
            setup = core.seeded_setup(players, seed=seed, variant=rs.variant)
        return core.initial_state(players, rs, setup)

    def to_act(self, state: State) -> tuple[int, ...]:
        """The seat that must act (``()`` when over)."""
        return core.to_act(state)

    def legal_actions(self, state: State, player: int) -> tuple[Any, ...]:
        """Every legal action of ``player``, pass first (``()`` if the player need not act)."""
        return core.legal_actions(state, player)

    def apply(self, state: State, action: Any) -> State:
        """Checked tier: raises IllegalAction / NotYourTurn / GameOver naming the clause."""
        return core.transition(state, core.check(state, action))

    def apply_unchecked(self, state: State, action: Any) -> State:
        """Unchecked tier: ``action`` must come from ``legal_actions`` of this very state."""
        return core._TRANSITIONS[type(action)](state, action, None)

    def is_terminal(self, state: State) -> bool:
        """True once the final scoring is done."""
        return bool(state.over)

    def result(self, state: State) -> Result:
        """VP per seat; ties broken by roubles (SP-END-8), still tied -> shared (SP-END-9)."""
        if not state.over:
            raise IllegalAction("SP-END-1", "the game is not over")
        ranking, winners = core.standings(state)
        return Result(scores=state.vp, winners=winners, ranking=ranking, tiebreak=state.money)

    # ------------------------------------------------------------------------------------------- views
    def observation(self, state: State, player: int) -> dict[str, Any]:
        """What ``player`` sees: own money and hand; others' hand sizes only (SP-SETUP-5)."""
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < state.players:
            raise InputError("player", f"expected a seat 0..{state.players - 1}, got {show(player)}")
        rs = state.rules
        names = rs.names
        drawn: str | None = None
        if state.drawn >= 0:
            drawn = names[state.drawn] if state.turn == player else "hidden"
        obs: dict[str, Any] = {
            "game": self.name,
            "player": player,
            "variant": rs.variant,
            "options": dict(rs.options),
            "players": state.players,
            "round": state.round,
            "phase": _PHASE_NAMES[state.phase],
            "to_act": list(core.to_act(state)),
            "passes": state.passes,
            "markers": {ph: state.markers[i] for i, ph in enumerate(_PHASE_NAMES)},
            "stack_sizes": {st: len(state.stacks[i]) for i, st in enumerate(STACKS)},
            "upper": [names[k] for k in state.upper],
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

    def describe_state(self, state: State) -> tuple[str, ...]:
        """Readable public position: round, phase, rows, stacks, each seat's VP, hand size and area."""
        rs = state.rules
        names = rs.names
        if state.over:
            head = f"Game over after round {state.round}"
        else:
            last = " (last round)" if state.last_round else ""
            head = (
                f"Round {state.round}{last}, {_PHASE_NAMES[state.phase]} phase: "
                f"P{core.to_act(state)[0]} to act, "
                f"{state.passes} consecutive pass(es)"
            )
        lines = [
            head,
            "Upper row: " + (", ".join(names[k] for k in state.upper) or "-"),
            "Lower row: " + (", ".join(names[k] for k in state.lower) or "-"),
            "Stacks: " + ", ".join(f"{st} {len(state.stacks[i])}" for i, st in enumerate(STACKS)),
        ]
        for p in range(state.players):
            area = _count(names, state.areas[p])
            money = f", {state.money[p]} R" if state.over else ""
            lines.append(f"P{p}: {state.vp[p]} VP{money}, {len(state.hands[p])} in hand; area: {area or '-'}")
        if state.over:
            lines.extend(_standings(state))
        return tuple(lines)

    def narrate(self, before: State, action: Any, after: State) -> tuple[str, ...]:
        """Log lines of one step: the action with its cost, then scorings, Pub purchases, refills, round
        ends, the final scoring breakdown and the standings."""
        lines: list[str] = []
        core.transition(before, core.check(before, action), lines)
        if after.over and not before.over:
            lines.extend(_standings(after))
        return tuple(lines)

    # ------------------------------------------------------------------------------------------- JSON
    def state_to_json(self, state: State) -> dict[str, Any]:
        """Canonical JSON of the whole state (cards by the edition's names; stacks top card first)."""
        rs = state.rules
        names = rs.names
        return {
            "game": self.name,
            "variant": rs.variant,
            "options": dict(rs.options),
            "players": state.players,
            "round": state.round,
            "phase": _PHASE_NAMES[state.phase],
            "turn": state.turn,
            "passes": state.passes,
            "stacks": {st: [names[k] for k in state.stacks[i]] for i, st in enumerate(STACKS)},
            "upper": [names[k] for k in state.upper],
            "lower": [names[k] for k in state.lower],
            "discard": [names[k] for k in state.discard],
            "money": list(state.money),
            "vp": list(state.vp),
            "hands": [[names[k] for k in h] for h in state.hands],
            "areas": [[names[k] for k in a] for a in state.areas],
            "turned": [[names[k] for k in t] for t in state.turned],
            "markers": {ph: state.markers[i] for i, ph in enumerate(_PHASE_NAMES)},
            "drawn": names[state.drawn] if state.drawn >= 0 else None,
            "pub_queue": list(state.pub_queue),
            "last_round": state.last_round,
            "over": state.over,
        }

    def state_from_json(self, data: Any) -> State:
        """Parse and validate a JSON state; InputError names the offending field."""
        return _state_from_json(data)

    def action_to_json(self, action: Any) -> dict[str, Any]:
        """Canonical JSON of an action: ``{"type": ..., "player": ..., <fields>}``."""
        for tag, cls in ACTION_TYPES.items():
            if type(action) is cls:
                out: dict[str, Any] = {"type": tag}
                for f in _ACTION_FIELDS[tag]:
                    out[f] = getattr(action, f)
                return out
        raise InputError("action", f"not a Saint Petersburg action: {show(action)}")

    def action_from_json(self, data: Any) -> Any:
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
                    f"action.{key}", f"unknown field for a {tag} action (known: {', '.join(fields)})"
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
}


def _canonical_name(name: str) -> str:
    """An edition's exact name stays; an alias becomes the first-edition name."""
    for variant in VARIANTS:
        if name in ruleset(variant).kind:
            return name
    k = resolve_card(name)
    assert k is not None
    return ruleset().names[k]


def _count(names: tuple[str, ...], cards: tuple[int, ...]) -> str:
    out = []
    for k in dict.fromkeys(cards):
        n = cards.count(k)
        out.append(f"{names[k]} x{n}" if n > 1 else names[k])
    return ", ".join(out)


def _standings(state: State) -> list[str]:
    ranking, winners = core.standings(state)
    lines = ["Final standings (VP, then roubles) [SP-END-8]:"]
    for place, p in enumerate(ranking, start=1):
        mark = " (winner)" if p in winners else ""
        lines.append(f"  {place}. P{p}: {state.vp[p]} VP, {state.money[p]} R{mark}")
    if len(winners) > 1:
        lines.append(f"  shared win: {', '.join(f'P{p}' for p in winners)} [SP-END-9]")
    return lines


# ============================================================================================ JSON parsing


def _int(data: Any, field: str, lo: int, hi: int | None = None) -> int:
    if isinstance(data, bool) or not isinstance(data, int) or data < lo or (hi is not None and data > hi):
        rng = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise InputError(field, f"expected an integer {rng}, got {show(data)}")
    return data


def _bool(data: Any, field: str) -> bool:
    if not isinstance(data, bool):
        raise InputError(field, f"expected true or false, got {show(data)}")
    return data


def _cards(data: Any, field: str, rs: Ruleset) -> tuple[int, ...]:
    if not isinstance(data, list):
        raise InputError(field, f"expected a list of card names, got {type(data).__name__}")
    out = []
    for i, name in enumerate(data):
        k = resolve_card(name) if isinstance(name, str) else None
        if k is None:
            raise InputError(f"{field}[{i}]", f"unknown card {show(name)}")
        out.append(k)
    return tuple(out)


def _per_player(data: Any, field: str, n: int) -> list[Any]:
    if not isinstance(data, list) or len(data) != n:
        raise InputError(field, f"expected a list of {n} entries (one per player), got {show(data)}"[:200])
    return data


def _state_from_json(data: Any) -> State:
    if not isinstance(data, dict):
        raise InputError("state", f"expected an object, got {type(data).__name__}")
    keys = (
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
    for k in data:
        if k not in keys:
            raise InputError(k, f"unknown field (known: {', '.join(keys)})")
    for k in keys:
        if k not in data:
            raise InputError(k, "missing")
    if data["game"] != "petersburg":
        raise InputError("game", f"expected 'petersburg', got {show(data['game'])}")
    if not isinstance(data["variant"], str) or data["variant"] not in VARIANTS:
        raise InputError("variant", f"expected one of {', '.join(VARIANTS)}, got {show(data['variant'])}")
    if not isinstance(data["options"], dict):
        raise InputError("options", "expected an object")
    try:
        opts = normalize_options(data["options"])
    except IllegalAction as exc:  # pragma: no cover - normalize raises IllegalSetup
        raise InputError("options", exc.message) from exc
    except Exception as exc:
        raise InputError("options", str(exc)) from exc
    rs = ruleset(data["variant"], dict(opts))
    n = _int(data["players"], "players", GAME_META["min_players"], GAME_META["max_players"])
    rnd = _int(data["round"], "round", 1)
    if data["phase"] not in _PHASE_NAMES:
        raise InputError("phase", f"expected one of {', '.join(_PHASE_NAMES)}, got {show(data['phase'])}")
    phase = _PHASE_NAMES.index(data["phase"])
    turn = _int(data["turn"], "turn", 0, n - 1)
    passes = _int(data["passes"], "passes", 0, n - 1)
    st = data["stacks"]
    if not isinstance(st, dict) or set(st) != set(STACKS):
        raise InputError("stacks", f"expected an object with the stacks {', '.join(STACKS)}")
    stacks = []
    for i, name in enumerate(STACKS):
        cards = _cards(st[name], f"stacks.{name}", rs)
        for j, k in enumerate(cards):
            if rs.stack[k] != i:
                raise InputError(
                    f"stacks.{name}[{j}]", f"{rs.names[k]} belongs to the {STACKS[rs.stack[k]]} stack"
                )
        stacks.append(cards)
    upper = _cards(data["upper"], "upper", rs)
    lower = _cards(data["lower"], "lower", rs)
    if len(upper) + len(lower) > PARAMS["board_cards"]:
        raise InputError("upper", f"the rows hold at most {PARAMS['board_cards']} cards together")
    discard = _cards(data["discard"], "discard", rs)
    money = tuple(_int(v, f"money[{p}]", 0) for p, v in enumerate(_per_player(data["money"], "money", n)))
    vps = _per_player(data["vp"], "vp", n)
    vp = tuple(_int(v, f"vp[{p}]", -(10**6)) for p, v in enumerate(vps))
    hands = tuple(
        tuple(sorted(_cards(h, f"hands[{p}]", rs)))
        for p, h in enumerate(_per_player(data["hands"], "hands", n))
    )
    areas = tuple(
        tuple(sorted(_cards(a, f"areas[{p}]", rs)))
        for p, a in enumerate(_per_player(data["areas"], "areas", n))
    )
    turned = tuple(
        tuple(sorted(_cards(t, f"turned[{p}]", rs)))
        for p, t in enumerate(_per_player(data["turned"], "turned", n))
    )
    for p, t in enumerate(turned):
        for k in t:
            if rs.obs_phase[k] < 0:
                raise InputError(f"turned[{p}]", f"{rs.names[k]} cannot be turned")
            if t.count(k) > areas[p].count(k):
                raise InputError(f"turned[{p}]", f"more turned {rs.names[k]} than seat {p} owns")
    m = data["markers"]
    if not isinstance(m, dict) or set(m) != set(_PHASE_NAMES):
        raise InputError("markers", f"expected an object with the phases {', '.join(_PHASE_NAMES)}")
    markers = tuple(_int(m[ph], f"markers.{ph}", 0, n - 1) for ph in _PHASE_NAMES)
    drawn = -1
    if data["drawn"] is not None:
        d = _cards([data["drawn"]], "drawn", rs)
        drawn = d[0]
        if not turned[turn]:
            raise InputError("drawn", "a drawn card needs a turned Observatory of the seat to act")
    pq = data["pub_queue"]
    if not isinstance(pq, list) or len(set(map(repr, pq))) != len(pq):
        raise InputError("pub_queue", "expected a list of distinct seats")
    pub_queue = tuple(_int(v, f"pub_queue[{i}]", 0, n - 1) for i, v in enumerate(pq))
    if pub_queue and drawn >= 0:
        raise InputError("pub_queue", "Pub decisions and a drawn card cannot be pending together")
    last_round = _bool(data["last_round"], "last_round")
    over = _bool(data["over"], "over")
    # every card in exactly one place
    places = [*stacks, upper, lower, discard, *hands, *areas, (drawn,) if drawn >= 0 else ()]
    for k in range(rs.nkinds):
        total = sum(pl.count(k) for pl in places)
        if total != rs.cards[k].copies:
            raise InputError(
                "stacks", f"{total} x {rs.names[k]} in the game, the catalog has {rs.cards[k].copies}"
            )
    return State(
        rs,
        n,
        rnd,
        phase,
        turn,
        passes,
        tuple(stacks),
        upper,
        lower,
        discard,
        money,
        vp,
        hands,
        areas,
        turned,
        markers,
        drawn,
        pub_queue,
        last_round,
        over,
    )


GAME = PetersburgGame()
"""The Saint Petersburg game object (implements :class:`engine.game.Game`)."""

__all__ += ["Buy", "Discard", "Observe", "Pass", "Play", "PubBuy", "Setup", "Take"]
