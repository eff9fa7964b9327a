"""Both games as OpenSpiel Python games: ``python_take6`` and ``python_petersburg``.

Importing this module registers them (``pyspiel.register_game``); then ``pyspiel.load_game`` finds them::

    >>> import pyspiel
    >>> import engine.envs.openspiel_games
    >>> game = pyspiel.load_game("python_take6", {"players": 3, "variant": "tactics"})
    >>> state = game.new_initial_state()
    >>> state.is_chance_node(), len(state.chance_outcomes())
    (True, 34)

**6 nimmt!** (``python_take6``; parameters ``players`` 2..10, ``variant``, ``options`` as
``"name:value/..."``, ``max_rounds`` (0: play to the game's end; else the game stops after that many
rounds, for short experiments), ``rank_bonus``; both games take ``terminal_rewards``: true gives the
whole return at the end only, the reward model MCTS requires).  The dynamics are *simultaneous*: in a
selection every player selects at once (one joint action, ``apply_actions``), which is the rule
(T6-SELECT-2); a row choice, a logic draft pick and a kids flip are sequential nodes of the one player to
act.  Chance is explicit: each
round's deal is one chance node per card (hands in seat order, then the row starters; kids: each pile top
card first), uniform over the cards not yet dealt; in logic the start player of the draft is the chance
node.  ``pyspiel.convert_to_turn_based`` gives the turn-based form that sequential algorithms (MCTS) need.

**Saint Petersburg** (``python_petersburg``; parameters ``players`` 1..4, ``variant`` first or second,
``trading_discount``, ``rank_bonus``) is *sequential*.  Chance is explicit: one node for the start-player
markers (uniform over the assignments the set-up table allows), then one node per card drawn from a stack
(the opening workers, every refill, every Observatory draw), each kind weighted by its copies left in that
stack; the stacks' order is never fixed in advance, so nothing in the state reveals a card before it is
drawn.

Both are imperfect-information general-sum games whose rewards are the environments' (6 nimmt!: minus
the bullheads taken, kids plus; Saint Petersburg: VP gained; plus the optional rank bonus at the end).
Actions use the encodings of :mod:`engine.envs.take6_codec` (without ``WAIT``) and
:mod:`engine.envs.petersburg_codec`; observation tensors are the environments' vectors.  The information
state adds what a player remembers beyond the current observation: 6 nimmt!, which seat played which card
this round; Saint Petersburg, the cards each seat was seen to take into its hand and has not played.
Information-state strings are the player's whole sequence of observations.  States serialize as their
action history (OpenSpiel's default), which replays exactly: the engine is deterministic given the chance
outcomes.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import numpy as np
import pyspiel

from engine.envs import petersburg_codec, take6_codec
from engine.envs.aec import rank_bonuses
from engine.game import Result
from engine.petersburg import GAME as SP
from engine.petersburg import Observe, Play, Setup, Take
from engine.petersburg import ruleset as sp_ruleset
from engine.petersburg.catalog import SETUPS as SP_SETUPS
from engine.petersburg.catalog import STACKS
from engine.take6 import GAME as T6
from engine.take6 import Deal, DraftStart, Flip, Select, rules_for

__all__ = ["PetersburgGame", "PetersburgState", "Take6Game", "Take6State", "parse_options"]

_T6_PARAMS: dict[str, Any] = {
    "players": 4,
    "variant": "standard",
    "options": "",
    "max_rounds": 0,
    "rank_bonus": 0.0,
    "terminal_rewards": False,
}
_SP_PARAMS: dict[str, Any] = {
    "players": 2,
    "variant": "first",
    "trading_discount": True,
    "max_rounds": 0,
    "rank_bonus": 0.0,
    "terminal_rewards": False,
}


def _game_type(
    name: str, title: str, dynamics: Any, players: tuple[int, int], params: Any, *, terminal: bool = False
) -> Any:
    """A game type of both games: explicit chance, imperfect information, general sum, every view; per-step
    rewards, or terminal rewards only (what MCTS requires)."""
    rewards = pyspiel.GameType.RewardModel
    return pyspiel.GameType(
        short_name=name,
        long_name=title,
        dynamics=dynamics,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=rewards.TERMINAL if terminal else rewards.REWARDS,
        min_num_players=players[0],
        max_num_players=players[1],
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


def _typed(base: Any, terminal: bool) -> Any:
    """``base``, or the same type with terminal rewards."""
    if not terminal:
        return base
    players = (base.min_num_players, base.max_num_players)
    return _game_type(
        base.short_name, base.long_name, base.dynamics, players, base.parameter_specification, terminal=True
    )


def _rewards(state: Any) -> list[float]:
    """The rewards of the last decision (with terminal rewards: the returns at the end, else 0)."""
    if state._g.terminal:
        return state._returns if state._over else [0.0] * state._g.players
    return state._rewards  # type: ignore[no-any-return]


def _returns(state: Any) -> list[float]:
    """The returns so far (with terminal rewards: 0 until the end)."""
    if state._g.terminal and not state._over:
        return [0.0] * state._g.players
    return state._returns  # type: ignore[no-any-return]


def _info(actions: int, chance: int, players: int, bound: float, length: int) -> Any:
    return pyspiel.GameInfo(
        num_distinct_actions=actions,
        max_chance_outcomes=chance,
        num_players=players,
        min_utility=-bound,
        max_utility=bound,
        utility_sum=None,
        max_game_length=length,
    )


def parse_options(text: str) -> dict[str, str]:
    """``"a:b/c:d"`` -> ``{"a": "b", "c": "d"}`` (the engine checks the names and values).

    OpenSpiel's game strings reserve ``,`` and ``=``, hence ``:`` and ``/``.

    >>> parse_options("professional_tie:start"), parse_options("")
    ({'professional_tie': 'start'}, {})
    """
    out: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in text.split("/"))):
        name, eq, value = part.partition(":")
        if not eq or not name.strip():
            raise ValueError(f"options: expected name:value, got {part!r}")
        out[name.strip()] = value.strip()
    return out


def _result_of(scores: tuple[int, ...], higher_wins: bool) -> Result:
    n = len(scores)
    ranking = tuple(sorted(range(n), key=lambda p: (-scores[p] if higher_wins else scores[p], p)))
    best = scores[ranking[0]]
    return Result(scores=scores, winners=tuple(p for p in ranking if scores[p] == best), ranking=ranking)


# ============================================================================================ 6 nimmt!

_T6_TYPE = _game_type(
    "python_take6",
    "6 nimmt! (arbiter reference engine)",
    pyspiel.GameType.Dynamics.SIMULTANEOUS,
    (T6.min_players, T6.max_players),
    _T6_PARAMS,
)


class Take6Game(pyspiel.Game):  # type: ignore[misc]
    """6 nimmt! for OpenSpiel (see the module's docstring for the parameters)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**_T6_PARAMS, **(params or {})}
        players = int(p["players"])
        options = parse_options(str(p["options"]))
        rules_for(str(p["variant"]), players, options)  # a bad variant, count or option fails here
        bound = T6.score_bounds[1] + abs(float(p["rank_bonus"]))
        super().__init__(
            _typed(_T6_TYPE, bool(p["terminal_rewards"])),
            _info(take6_codec.WAIT, max(take6_codec.MAX_CARD, players), players, bound, T6.max_game_length),
            p,
        )

    def new_initial_state(self) -> Take6State:
        """The state before the first deal."""
        return Take6State(self, _t6_config(self))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Take6Observer:
        """Observation (``perfect_recall=False``) or information state (``True``)."""
        return Take6Observer(
            _t6_config(self), iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class _Shared:
    """An immutable value that clones of a state share (``copy.deepcopy`` returns it as is)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        return self


class _Held(_Shared):
    """An engine state (an immutable value) held by an OpenSpiel state: clones share it."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


def _held(name: str, doc: str) -> Any:
    """A property storing an engine state in a :class:`_Held` (so cloning a state does not copy it)."""

    def get(self: Any) -> Any:
        return getattr(self, name).value

    def put(self: Any, value: Any) -> None:
        setattr(self, name, _Held(value))

    return property(get, put, doc=doc)


class Take6Config(_Shared):
    """A game's parameters, resolved (states keep this, not the game object)."""

    def __init__(self, params: dict[str, Any]) -> None:
        self.players = int(params["players"])
        self.options = parse_options(str(params["options"]))
        self.rules = rules_for(str(params["variant"]), self.players, self.options)
        self.max_rounds = int(params["max_rounds"])
        self.rank_bonus = float(params["rank_bonus"])
        self.terminal = bool(params["terminal_rewards"])
        self.codec = take6_codec.codec(self.rules)


_CONFIGS: dict[tuple[Any, ...], Any] = {}


def _config(game: Any, kind: type, defaults: dict[str, Any]) -> Any:
    params = {**defaults, **game.get_parameters()}
    key = (kind.__name__, *sorted(params.items()))
    found = _CONFIGS.get(key)
    if found is None:
        found = _CONFIGS[key] = kind(params)
    return found


def _t6_config(game: Any) -> Take6Config:
    config: Take6Config = _config(game, Take6Config, _T6_PARAMS)
    return config


class Take6State(pyspiel.State):  # type: ignore[misc]
    """A 6 nimmt! position: dealing (chance) or the engine's state."""

    engine = _held("_engine", "The engine's state (None while a round is dealt).")
    _base = _held("_base_held", "The engine state a new round's deal replaces (None: round 1).")

    def __init__(self, game: Take6Game, config: Take6Config) -> None:
        super().__init__(game)
        self._g = config
        n = config.players
        self.engine = None
        self._base = None
        self._dealt: list[int] = []
        self._round = 1
        self._over = False
        self._rewards = [0.0] * n
        self._returns = [0.0] * n
        self.played: list[set[int]] = [set() for _ in range(n)]
        """Cards each seat revealed this round (public)."""
        self.seen: list[list[str]] = [[] for _ in range(n)]
        """Each player's observation strings so far (its information state)."""
        self._record()

    # ------------------------------------------------------------------------------ dealing
    def _deal_size(self) -> int:
        r = self._g.rules
        return 1 if r.deal == "draft" else r.cards_dealt

    def _dealing(self) -> bool:
        return self.engine is None

    def current_player(self) -> int:
        if self._over:
            return int(pyspiel.PlayerId.TERMINAL)
        if self._dealing():
            return int(pyspiel.PlayerId.CHANCE)
        if self.engine.phase == "select":
            return int(pyspiel.PlayerId.SIMULTANEOUS)
        return int(T6.to_act(self.engine)[0])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        rules = self._g.rules
        if rules.deal == "draft":
            n = rules.players
            return [(p, 1.0 / n) for p in range(n)]
        left = [c for c in rules.deck if c not in self._dealt]
        return [(c - 1, 1.0 / len(left)) for c in left]

    def _legal_actions(self, player: int) -> list[int]:
        if self._over or self._dealing():
            return []
        return sorted(take6_codec.encode(a) for a in T6.legal_actions(self.engine, player))

    def _apply_action(self, action: int) -> None:
        if self._dealing():
            self._dealt.append(int(action) if self._g.rules.deal == "draft" else int(action) + 1)
            if len(self._dealt) == self._deal_size():
                self._start_round()
            self._record()  # the rewards of the step before stay until the next decision (OpenSpiel's rule)
            return
        p = self.current_player()
        move = take6_codec.decode(int(action), p)
        assert move is not None  # WAIT is not an OpenSpiel action
        if isinstance(move, Flip):
            self.played[p].add(self._top_of(p))
        self._advance(T6.apply(self.engine, move))

    def _apply_actions(self, actions: list[int]) -> None:
        state = self.engine
        for p, a in enumerate(actions):
            move = take6_codec.decode(int(a), p)
            assert isinstance(move, Select)
            self.played[p].add(move.card)
            state = T6.apply(state, move)
        self._advance(state)

    def _top_of(self, p: int) -> int:
        """The card a kids flip reveals (the top of the pile)."""
        top: int = self.engine.hands[p][0]
        return top

    def _start_round(self) -> None:
        g = self._g
        rules = g.rules
        n = rules.players
        if rules.deal == "draft":
            setup: Any = DraftStart(self._dealt[0])
        else:
            h = rules.hand_size
            setup = Deal(
                hands=[self._dealt[p * h : (p + 1) * h] for p in range(n)], rows=self._dealt[n * h :]
            )
        if self._base is None:
            self.engine = T6.new_game(n, variant=rules.variant, options=g.options, setup=setup)
        else:  # a later round: the engine dealt it from its seed; the chance outcomes replace that deal
            data = T6.state_to_json(self._base)
            if isinstance(setup, DraftStart):
                data["start"] = setup.player
            else:
                hands = [list(x) for x in setup.hands]
                data["hands"] = hands if rules.play == "flip" else [sorted(x) for x in hands]
                data["rows"] = [[c] for c in setup.rows]
                dealt = set(self._dealt)
                data["stock"] = [c for c in rules.deck if c not in dealt]
            self.engine = T6.state_from_json(data)
        self._dealt = []
        self.played = [set() for _ in range(n)]

    def _advance(self, after: Any) -> None:
        g = self._g
        before = self.engine
        sign = g.codec.sign
        self._rewards = [
            float(sign * (a - b)) for a, b in zip(after.penalties, before.penalties, strict=True)
        ]
        self.engine = after
        stop = T6.is_terminal(after)
        if not stop and after.round != self._round:  # a new round: its deal is chance's
            if g.max_rounds and self._round >= g.max_rounds:
                stop = True
            else:
                self._round = after.round
                self._base = after
                self.engine = None
        if stop:
            self._over = True
            if T6.is_terminal(after):
                result = T6.result(after)
            else:
                result = _result_of(after.penalties, higher_wins=sign > 0)
            bonus = rank_bonuses(result, g.rank_bonus)
            self._rewards = [r + b for r, b in zip(self._rewards, bonus, strict=True)]
        self._returns = [a + b for a, b in zip(self._returns, self._rewards, strict=True)]
        self._record()

    # ------------------------------------------------------------------------------ views
    def _record(self) -> None:
        for p in range(self._g.players):
            self.seen[p].append(self.observation_text(p))

    def observation_text(self, player: int) -> str:
        """What ``player`` sees now, as one line."""
        if self._dealing():
            mine = self._my_dealt(player)
            return f"round {self._round} deal: {len(self._dealt)}/{self._deal_size()} dealt, mine {mine}"
        o = T6.observation(self.engine, player)
        return (
            f"p{player} r{o['round']} {o['phase']} hand {o['hand']} rows {o['rows']} pending {o['pending']} "
            f"selected {o['selected']} mine {o['my_selection']} penalties {o['penalties']} "
            f"to_act {o['to_act']}"
            + (f" pool {o['pool']}" if o["pool"] else "")
            + (" over" if self._over else "")
        )

    def _my_dealt(self, player: int) -> list[int]:
        rules = self._g.rules
        if rules.deal == "draft" or rules.play == "flip":
            return []
        h = rules.hand_size
        return sorted(self._dealt[player * h : (player + 1) * h])

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"start P{action}" if self._g.rules.deal == "draft" else f"deal {action + 1}"
        return repr(take6_codec.decode(int(action), player))

    def is_terminal(self) -> bool:
        return self._over

    def rewards(self) -> list[float]:
        return _rewards(self)

    def returns(self) -> list[float]:
        return _returns(self)

    def __str__(self) -> str:
        if self._dealing():
            return f"round {self._round} dealing: {self._dealt}"
        return "\n".join(T6.describe_state(self.engine)) + (
            f"\nselected {list(self.engine.selected)}; hands {[list(h) for h in self.engine.hands]}"
        )


class Take6Observer:
    """Observation and information-state tensors and strings of 6 nimmt! (see the module's docstring)."""

    def __init__(self, game: Take6Config, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params!r}")
        self.game = game
        self.recall = bool(iig_obs_type.perfect_recall)
        size = game.codec.layout.size
        d = game.rules.deck[-1]
        extra = game.players * d if self.recall else 0
        self.tensor: Any = np.zeros(size + extra, np.float32)
        self.dict = {"observation": self.tensor[:size]}
        if self.recall:
            self.dict["played"] = self.tensor[size:].reshape(game.players, d)
        self._observe = game.codec.observer().observe

    def set_from(self, state: Take6State, player: int) -> None:
        self.tensor.fill(0)
        if state.engine is not None:
            self.dict["observation"][:] = self._observe(state.engine, player)
        else:
            obs = self.dict["observation"]
            for c in state._my_dealt(player):
                obs[c - 1] = 1
        if self.recall:
            for q, cards in enumerate(state.played):
                for c in cards:
                    self.dict["played"][q, c - 1] = 1

    def string_from(self, state: Take6State, player: int) -> str:
        if self.recall:
            return "\n".join(state.seen[player])
        return state.observation_text(player)


pyspiel.register_game(_T6_TYPE, Take6Game)


# ========================================================================================= Saint Petersburg

_SP_TYPE = _game_type(
    "python_petersburg",
    "Saint Petersburg (arbiter reference engine)",
    pyspiel.GameType.Dynamics.SEQUENTIAL,
    (SP.min_players, SP.max_players),
    _SP_PARAMS,
)
_SP_MAX_LENGTH = 20_000
_SP_UTILITY = 1_000.0


class PetersburgConfig(_Shared):
    """A game's parameters, resolved (states keep this, not the game object)."""

    def __init__(self, params: dict[str, Any]) -> None:
        self.players = n = int(params["players"])
        self.rules = rules = sp_ruleset(
            str(params["variant"]), {"trading_discount": bool(params["trading_discount"])}
        )
        self.rank_bonus = float(params["rank_bonus"])
        self.max_rounds = int(params["max_rounds"])
        self.terminal = bool(params["terminal_rewards"])
        self.codec = petersburg_codec.codec(rules, n)
        spec = SP_SETUPS[n]
        pattern = sorted(spec.markers)
        self.markers = tuple(
            m
            for m in itertools.product(range(n), repeat=len(STACKS))
            if sorted(m.count(p) for p in range(n)) == pattern
        )
        """Every start-player marker assignment the set-up table allows (the first chance node's outcomes)."""
        self.stacks = tuple(
            tuple(sorted(k for k in kinds for _ in range(rules.cards[k].copies)))
            for kinds in rules.stack_kinds
        )
        """Each stack's cards in a canonical order (kinds ascending): the engine's placeholder order."""


def _sp_config(game: Any) -> PetersburgConfig:
    config: PetersburgConfig = _config(game, PetersburgConfig, _SP_PARAMS)
    return config


class PetersburgGame(pyspiel.Game):  # type: ignore[misc]
    """Saint Petersburg for OpenSpiel (see the module's docstring for the parameters)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**_SP_PARAMS, **(params or {})}
        config = PetersburgConfig(p)
        super().__init__(
            _typed(_SP_TYPE, bool(p["terminal_rewards"])),
            _info(
                config.codec.num_actions,
                max(config.rules.nkinds, len(config.markers)),
                config.players,
                _SP_UTILITY,
                _SP_MAX_LENGTH,
            ),
            p,
        )

    def new_initial_state(self) -> PetersburgState:
        """The state before the start-player markers are placed."""
        return PetersburgState(self, _sp_config(self))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> PetersburgObserver:
        """Observation (``perfect_recall=False``) or information state (``True``)."""
        return PetersburgObserver(
            _sp_config(self), iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class PetersburgState(pyspiel.State):  # type: ignore[misc]
    """A Saint Petersburg position: the engine's state, with chance drawing every card off a stack."""

    engine = _held("_engine", "The engine's state (None before the markers are placed).")

    def __init__(self, game: PetersburgGame, config: PetersburgConfig) -> None:
        super().__init__(game)
        self._g = config
        n = config.players
        self.engine = None
        self._draw: tuple[int, int, str] | None = None  # (stack, cards to draw, where they went)
        self._left: Counter[int] = Counter()  # the stack's cards not yet drawn
        self._outcomes: list[int] = []
        self._over = False
        self._rewards = [0.0] * n
        self._returns = [0.0] * n
        self.known = [[0] * config.rules.nkinds for _ in range(n)]
        """Cards each seat was seen to take into its hand and has not played (public memory)."""
        self.seen: list[list[str]] = [[] for _ in range(n)]
        self._record()

    def current_player(self) -> int:
        if self._over:
            return int(pyspiel.PlayerId.TERMINAL)
        if self.engine is None or self._draw is not None:
            return int(pyspiel.PlayerId.CHANCE)
        return int(SP.to_act(self.engine)[0])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.engine is None:
            m = len(self._g.markers)
            return [(i, 1.0 / m) for i in range(m)]
        total = sum(self._left.values())
        return [(k, c / total) for k, c in sorted(self._left.items()) if c]

    def _legal_actions(self, player: int) -> list[int]:
        if self.current_player() != player:
            return []
        return sorted(self._g.codec.legal_indices(self.engine, player))

    def _apply_action(self, action: int) -> None:
        config = self._g
        if self.engine is None:  # the markers, then the opening workers are drawn
            names = config.rules.names
            setup = Setup(
                stacks=tuple(tuple(names[k] for k in stack) for stack in config.stacks),
                markers=config.markers[int(action)],
            )
            self.engine = SP.new_game(
                config.players, variant=config.rules.variant, options=dict(config.rules.options), setup=setup
            )
            self._start_draw(config.stacks[0], 0, len(self.engine.upper), "upper")
        elif self._draw is not None:
            k = int(action)
            self._left[k] -= 1
            self._outcomes.append(k)
            if len(self._outcomes) == self._draw[1]:
                self._place_draw()
        else:
            self._act(int(action))
        self._record()

    def _start_draw(self, stack: tuple[int, ...], index: int, count: int, where: str) -> None:
        self._draw = (index, count, where)
        self._left = Counter(stack)
        self._outcomes = []

    def _place_draw(self) -> None:
        assert self._draw is not None
        index, count, where = self._draw
        s = self.engine
        stacks = list(s.stacks)
        stacks[index] = tuple(sorted(self._left.elements()))
        if where == "upper":
            s = s._replace(
                upper=s.upper[: len(s.upper) - count] + tuple(self._outcomes), stacks=tuple(stacks)
            )
        else:
            s = s._replace(drawn=self._outcomes[0], stacks=tuple(stacks))
        self.engine = s
        self._draw = None

    def _act(self, action: int) -> None:
        config = self._g
        before = self.engine
        p = self.current_player()
        move = config.codec.decode(action, p)
        after = SP.apply(before, move)
        rules = config.rules
        if isinstance(move, Take) and move.source != "drawn":
            self.known[p][rules.kind[move.card]] += 1
        elif isinstance(move, Play) and self.known[p][rules.kind[move.card]]:
            self.known[p][rules.kind[move.card]] -= 1
        self.engine = after
        self._rewards = [float(a - b) for a, b in zip(after.vp, before.vp, strict=True)]
        for i, (old, new) in enumerate(zip(before.stacks, after.stacks, strict=True)):
            if len(new) < len(old):  # cards came off this stack: chance says which
                self._start_draw(
                    old, i, len(old) - len(new), "drawn" if isinstance(move, Observe) else "upper"
                )
        stop = SP.is_terminal(after)
        if not stop and config.max_rounds and after.round > config.max_rounds:
            stop = True
            self._draw = None  # the game stops before the next round's cards are drawn
        if stop:
            self._over = True
            if SP.is_terminal(after):
                result = SP.result(after)
            else:  # stopped after max_rounds: ranked by VP, then roubles (SP-END-8)
                key = [(after.vp[q], after.money[q]) for q in range(after.players)]
                ranking = tuple(sorted(range(after.players), key=lambda q: (-key[q][0], -key[q][1], q)))
                winners = tuple(q for q in ranking if key[q] == key[ranking[0]])
                result = Result(scores=after.vp, winners=winners, ranking=ranking, tiebreak=after.money)
            bonus = rank_bonuses(result, config.rank_bonus)
            self._rewards = [r + b for r, b in zip(self._rewards, bonus, strict=True)]
        self._returns = [a + b for a, b in zip(self._returns, self._rewards, strict=True)]

    def _record(self) -> None:
        for p in range(self._g.players):
            self.seen[p].append(self.observation_text(p))

    def observation_text(self, player: int) -> str:
        """What ``player`` sees now, as one line."""
        if self.engine is None:
            return "setting up"
        if self._draw is not None:
            index, count, _ = self._draw
            return f"drawing {count} from the {STACKS[index]} stack"
        o = SP.observation(self.engine, player)
        return (
            f"p{player} r{o['round']} {o['phase']} to_act {o['to_act']} "
            f"upper {o['upper']} lower {o['lower']} "
            f"hand {o['hand']} money {o['money']} vp {o['vp']} hands {o['hand_sizes']} areas {o['areas']} "
            f"turned {o['turned']} drawn {o['drawn']} pub {o['pub_queue']} passes {o['passes']}"
            + (" last round" if o["last_round"] else "")
            + (f" over {o['final_money']}" if o["over"] else "")
        )

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.engine is None:
                return f"markers {self._g.markers[action]}"
            return f"draw {self._g.rules.names[action]}"
        return repr(self._g.codec.decode(int(action), player))

    def is_terminal(self) -> bool:
        return self._over

    def rewards(self) -> list[float]:
        return _rewards(self)

    def returns(self) -> list[float]:
        return _returns(self)

    def __str__(self) -> str:
        if self.engine is None:
            return "setting up"
        text = "\n".join(SP.describe_state(self.engine))
        return (
            text
            + f"\nmoney {list(self.engine.money)}; hands {[list(h) for h in self.engine.hands]}"
            + (f"; drawing {self._draw} {self._outcomes}" if self._draw else "")
        )


class PetersburgObserver:
    """Observation and information-state tensors and strings of Saint Petersburg."""

    def __init__(self, config: PetersburgConfig, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params!r}")
        self.config = config
        self.recall = bool(iig_obs_type.perfect_recall)
        size = config.codec.layout.size
        k = config.rules.nkinds
        self.tensor: Any = np.zeros(size + (config.players * k if self.recall else 0), np.float32)
        self.dict = {"observation": self.tensor[:size]}
        if self.recall:
            self.dict["known_hands"] = self.tensor[size:].reshape(config.players, k)
        self._observe = config.codec.observer().observe

    def set_from(self, state: PetersburgState, player: int) -> None:
        self.tensor.fill(0)
        if state.engine is not None and state._draw is None:
            self.dict["observation"][:] = self._observe(state.engine, player)
        if self.recall:
            self.dict["known_hands"][:] = state.known

    def string_from(self, state: PetersburgState, player: int) -> str:
        if self.recall:
            return "\n".join(state.seen[player])
        return state.observation_text(player)


pyspiel.register_game(_SP_TYPE, PetersburgGame)
