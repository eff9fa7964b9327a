"""Saint Petersburg as an OpenSpiel Python game, ``python_petersburg``; importing this module registers it.

    >>> import pyspiel
    >>> import engine.envs.openspiel
    >>> game = pyspiel.load_game("python_petersburg")
    >>> game.num_players(), game.get_type().dynamics.name
    (4, 'SEQUENTIAL')
    >>> game.min_utility()  # at worst 4 cards left in hand at the end, -5 VP each (SP-END-7)
    -20.0

Parameters: ``players`` 1..4 (default 4, as the PettingZoo environment), ``variant`` first or second,
``trading_discount``, ``max_rounds`` (0: to the end), ``rank_bonus``, ``terminal_rewards``.

The dynamics are *sequential*.  Chance is explicit: one node for the start-player markers (uniform over
the assignments the set-up table allows), then one node per card drawn from a stack (the opening workers,
every refill, every Observatory draw), each kind weighted by its copies left in that stack; the stacks'
order is never fixed in advance, so nothing in the state reveals a card before it is drawn.

``resample_from_infostate(player, sampler)`` redraws what ``player`` has not seen: every card another
seat's Observatory drew and took into its hand (or still holds undecided), unless that card was played
since, drawn together without replacement from what the stack held besides the cards everybody saw; the
game's actions are replayed with those draws and their ``Take`` actions.

Utility bounds come from the tables: a seat's VP only falls at the final scoring, by ``vp_per_hand_card``
per card left in a hand of at most the largest hand limit; the upper bound adds, over the most rounds the
stacks allow (every two rounds draw at least ``board_cards`` cards), every card's VP, Pub VP and income as
if one seat owned them all, then the largest variety bonus and the roubles' VP.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import attrs
import numpy as np
import pyspiel

from engine.envs import petersburg_codec
from engine.envs.aec import rank_bonuses
from engine.envs.openspiel.base import (
    Shared,
    config_of,
    game_info,
    game_type,
    held,
    returns_of,
    rewards_of,
    rng_of,
    typed,
)
from engine.game import Result
from engine.petersburg import GAME as SP
from engine.petersburg import Discard, Observe, Play, Setup, Take, variety_bonus
from engine.petersburg import ruleset as sp_ruleset
from engine.petersburg.catalog import FINAL, PARAMS, SETUPS, STACKS

__all__ = ["PetersburgConfig", "PetersburgGame", "PetersburgObserver", "PetersburgState", "utility_bounds"]

PARAMETERS: dict[str, Any] = {
    "players": 4,
    "variant": "first",
    "trading_discount": True,
    "max_rounds": 0,
    "rank_bonus": 0.0,
    "terminal_rewards": False,
}
MAX_LENGTH = 20_000

_TYPE = game_type(
    "python_petersburg",
    "Saint Petersburg (arbiter reference engine)",
    pyspiel.GameType.Dynamics.SEQUENTIAL,
    (SP.min_players, SP.max_players),
    PARAMETERS,
)


def utility_bounds(rules: Any, players: int, rank_bonus: float = 0.0) -> tuple[float, float]:
    """(min, max) of a seat's return (its final VP, plus the rank bonus) under ``rules``.

    >>> lo, hi = utility_bounds(sp_ruleset("first"), 2)
    >>> lo, hi > 0
    (-20.0, True)
    """
    kinds = range(rules.nkinds)
    copies = [rules.cards[k].copies for k in kinds]
    colour: Counter[str] = Counter()
    for k in kinds:
        colour[rules.colour[k]] += copies[k]
    total = sum(copies)
    rounds = 2 * -(-total // PARAMS["board_cards"]) + 3
    vp = money = 0
    for k in kinds:
        per = rules.per_card[k]
        count = colour[per[0]] if per else 0
        vp += copies[k] * (rules.vp[k] + rules.pub_max[k] + (per[2] * count if per else 0))
        money += copies[k] * (rules.roubles[k] + (per[1] * count if per else 0))
    start = max(s.money for s in SETUPS.values() if s.players == players)
    most = rounds * vp + variety_bonus(rules.nkinds) + (start + rounds * money) // FINAL["roubles_per_vp"]
    hand = max(PARAMS["hand_limit"], *rules.hand_limit)
    b = abs(float(rank_bonus))
    return float(FINAL["vp_per_hand_card"] * hand) - b, float(most) + b


class PetersburgConfig(Shared):
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
        spec = SETUPS[n]
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


def _config(game: Any) -> PetersburgConfig:
    config: PetersburgConfig = config_of(game, PetersburgConfig, PARAMETERS)
    return config


class PetersburgGame(pyspiel.Game):  # type: ignore[misc]
    """Saint Petersburg for OpenSpiel (see the module's docstring for the parameters)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**PARAMETERS, **(params or {})}
        config = PetersburgConfig(p)
        super().__init__(
            typed(_TYPE, bool(p["terminal_rewards"])),
            game_info(
                config.codec.num_actions,
                max(config.rules.nkinds, len(config.markers)),
                config.players,
                utility_bounds(config.rules, config.players, config.rank_bonus),
                MAX_LENGTH,
            ),
            p,
        )

    def new_initial_state(self) -> PetersburgState:
        """The state before the start-player markers are placed."""
        return PetersburgState(self, _config(self))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> PetersburgObserver:
        """Observation (``perfect_recall=False``) or information state (``True``)."""
        return PetersburgObserver(
            _config(self), iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class PetersburgState(pyspiel.State):  # type: ignore[misc]
    """A Saint Petersburg position: the engine's state, with chance drawing every card off a stack."""

    engine = held("_engine", "The engine's state (None before the markers are placed).")

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
        self._steps = 0  # the history index of the next action
        self._stack_of: dict[int, int] = {}
        """History index of each card drawn -> the stack it came from."""
        self._observed: tuple[int, int] | None = None
        """(seat, history index) of the Observatory draw awaiting its seat's decision."""
        self.hidden: list[list[tuple[int, int | None]]] = [[] for _ in range(n)]
        """Per seat: (draw, take) history indices of the Observatory cards it took into its hand unseen
        and has not played (take None: still undecided)."""
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
        at = self._steps
        self._steps += 1
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
            self._stack_of[at] = self._draw[0]
            if self._draw[2] == "drawn" and self._observed is not None:
                seat = self._observed[0]
                self._observed = (seat, at)
                self.hidden[seat].append((at, None))
            if len(self._outcomes) == self._draw[1]:
                self._place_draw()
        else:
            self._act(int(action), at)
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

    def _track(self, p: int, move: Any, at: int) -> None:
        """Which cards the seats saw: a card taken from a row is public, an Observatory card taken into
        the hand is not (until it is played); one bought or discarded is public."""
        rules = self._g.rules
        if isinstance(move, Observe):
            self._observed = (p, -1)  # the draw's index comes with the chance node
        elif isinstance(move, Discard) or getattr(move, "source", None) == "drawn":
            assert self._observed is not None
            draw = self._observed[1]
            self.hidden[p] = [(d, t) for d, t in self.hidden[p] if d != draw]
            if isinstance(move, Take):
                self.hidden[p].append((draw, at))
            self._observed = None
        elif isinstance(move, Take):
            self.known[p][rules.kind[move.card]] += 1
        elif isinstance(move, Play):
            k = rules.kind[move.card]
            if self.known[p][k]:
                self.known[p][k] -= 1
            else:  # an unseen card of this kind is now seen: its draw stays as it was
                history = self.history()
                for i, (d, _) in enumerate(self.hidden[p]):
                    if history[d] == k:
                        del self.hidden[p][i]
                        break

    def _act(self, action: int, at: int) -> None:
        config = self._g
        before = self.engine
        p = self.current_player()
        move = config.codec.decode(action, p)
        after = SP.apply(before, move)
        self._track(p, move, at)
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

    # ------------------------------------------------------------------------------ resampling
    def resample_from_infostate(self, player: int, sampler: Any) -> PetersburgState:
        """A state ``player`` cannot tell from this one (see the module's docstring); ``sampler`` is
        OpenSpiel's probability sampler (what ISMCTS passes)."""
        history = [int(a) for a in self.history()]
        unseen = [(q, d, t) for q, cards in enumerate(self.hidden) if q != player for d, t in cards]
        if not unseen:
            return self.clone()  # type: ignore[no-any-return]
        rng = rng_of(sampler)
        redrawn = {d for _, d, _ in unseen}
        pools = [Counter(stack) for stack in self._g.stacks]
        for at, stack in self._stack_of.items():
            if at not in redrawn:
                pools[stack][history[at]] -= 1
        codec, names = self._g.codec, self._g.rules.names
        for q, d, t in unseen:
            pool = pools[self._stack_of[d]]
            k = rng.choice(sorted(pool.elements()))
            pool[k] -= 1
            history[d] = k
            if t is not None:  # the Take of that card names it
                take = codec.decode(history[t], q)
                history[t] = codec.encode(attrs.evolve(take, card=names[k]))
        world: PetersburgState = self.get_game().new_initial_state()
        for action in history:
            world.apply_action(action)
        return world

    # ------------------------------------------------------------------------------ views
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
        return rewards_of(self)

    def returns(self) -> list[float]:
        return returns_of(self)

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


pyspiel.register_game(_TYPE, PetersburgGame)
