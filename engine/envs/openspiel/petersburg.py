"""Saint Petersburg as an OpenSpiel Python game, ``python_petersburg``; importing this module registers it.

    >>> import pyspiel
    >>> import engine.envs.openspiel
    >>> game = pyspiel.load_game("python_petersburg")
    >>> game.num_players(), game.get_type().dynamics.name
    (4, 'SEQUENTIAL')
    >>> game.min_utility()  # at worst 4 cards left in hand at the end, -5 VP each (SP-END-7)
    -20.0

Parameters: ``players`` 1..4 (default 4, as the PettingZoo environment), ``variant`` first or second,
``trading_discount``, ``max_rounds`` 0.. (0: to the end), ``rank_bonus`` (a finite number),
``terminal_rewards``.  A value out of range is refused with a ``ValueError`` naming the range:

    >>> pyspiel.load_game("python_petersburg", {"players": 5})
    Traceback (most recent call last):
    ...
    ValueError: python_petersburg: players must be 1..4, got 5

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

Observation strings are one short line (the tensors carry the detail): the round, phase and seat to act,
both rows, the player's hand, roubles and drawn card, every seat's VP, hand size and area size, the stacks'
sizes.  An information-state string is that line and a 16-digit digest of everything the player saw of the
history (every card drawn to the board, its own Observatory draws, every action, an unseen card taken into
another hand only as "taken"): equal exactly when the information states are (a digest collision aside,
one chance in 2**64).

An action or chance outcome is checked before anything changes: one out of range, a card the stack no
longer holds or an illegal action raises a ``ValueError`` naming what was expected (an illegal action: the
engine's refusal, naming the rule), and the state stays as it was.

    >>> state = game.new_initial_state()
    >>> state.apply_action(10**6)
    Traceback (most recent call last):
    ...
    ValueError: python_petersburg: chance outcome 1000000 is not a start-player marker assignment 0..23
    >>> state.history()
    []
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import attrs
import numpy as np
import pyspiel

from engine.envs import petersburg_codec
from engine.envs.openspiel.base import (
    Config,
    check_params,
    config_for,
    config_of,
    game_info,
    game_type,
    held,
    mix,
    returns_of,
    rewards_of,
    rng_of,
    typed,
)
from engine.envs.returns import petersburg_bounds as utility_bounds
from engine.envs.returns import rank_bonuses
from engine.errors import ArbiterError
from engine.game import Result
from engine.petersburg import GAME as SP
from engine.petersburg import Discard, Observe, Play, Setup, Take
from engine.petersburg import ruleset as sp_ruleset
from engine.petersburg.catalog import SETUPS, STACKS

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


class PetersburgConfig(Config):
    """A game's parameters, checked and resolved (states keep this, not the game object)."""

    def __init__(self, params: dict[str, Any]) -> None:
        check_params("python_petersburg", params, (SP.min_players, SP.max_players))
        self.params = params
        self.players = n = params["players"]
        self.rules = rules = sp_ruleset(
            str(params["variant"]), {"trading_discount": bool(params["trading_discount"])}
        )
        self.rank_bonus = float(params["rank_bonus"])
        self.max_rounds = params["max_rounds"]
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
        self.stack_of = {k: i for i, kinds in enumerate(rules.stack_kinds) for k in kinds}
        """The stack each kind of card comes from."""


def _config(game: Any) -> PetersburgConfig:
    config: PetersburgConfig = config_of(game, PetersburgConfig, PARAMETERS)
    return config


class PetersburgGame(pyspiel.Game):  # type: ignore[misc]
    """Saint Petersburg for OpenSpiel (see the module's docstring for the parameters)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**PARAMETERS, **(params or {})}
        config: PetersburgConfig = config_for(PetersburgConfig, p)  # checks the parameters
        super().__init__(
            typed(_TYPE, config.terminal),
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
    """A Saint Petersburg position: the engine's state, with chance drawing every card off a stack.  What it
    holds is what it pickles: the configuration (by its parameters), the engine's state, the draw under way,
    the rewards, what each seat was seen to take and each player's digest of the history."""

    engine = held("_engine", "The engine's state (None before the markers are placed).")

    def __init__(self, game: PetersburgGame, config: PetersburgConfig) -> None:
        super().__init__(game)
        self._g = config
        n = config.players
        self.engine = None
        self._draw: tuple[int, int, str] | None = None  # (stack, cards to draw, where they went)
        self._left: Counter[int] = Counter()  # the stack's cards not yet drawn (during a draw)
        self._outcomes: list[int] = []
        self._over = False
        self._rewards = [0.0] * n
        self._returns = [0.0] * n
        self.known = [[0] * config.rules.nkinds for _ in range(n)]
        """Cards each seat was seen to take into its hand and has not played (public memory)."""
        self._observed: tuple[int, int] | None = None
        """(seat, history index) of the Observatory draw awaiting its seat's decision."""
        self.hidden: list[list[tuple[int, int | None]]] = [[] for _ in range(n)]
        """Per seat: (draw, take) history indices of the Observatory cards it took into its hand unseen
        and has not played (take None: still undecided)."""
        self.views = [0] * n
        """Each player's digest of what it saw of the history (:func:`~engine.envs.openspiel.base.mix`)."""

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
        at = self.move_number()  # the history index of this action
        if self._over:
            raise ValueError("python_petersburg: the game is over")
        if self.engine is None:  # the markers, then the opening workers are drawn
            if not 0 <= action < len(config.markers):
                raise ValueError(
                    f"python_petersburg: chance outcome {action} is not a start-player marker assignment "
                    f"0..{len(config.markers) - 1}"
                )
            self._see(b"m%d" % action)
            names = config.rules.names
            setup = Setup(
                stacks=tuple(tuple(names[k] for k in stack) for stack in config.stacks),
                markers=config.markers[action],
            )
            self.engine = SP.new_game(
                config.players, variant=config.rules.variant, options=dict(config.rules.options), setup=setup
            )
            self._start_draw(config.stacks[0], 0, len(self.engine.upper), "upper")
        elif self._draw is not None:
            self._drawn(action, at)
        else:
            self._act(action, at)

    def _see(self, event: bytes, only: int | None = None, others: bytes = b"") -> None:
        """Every player sees ``event``; with ``only``, that seat alone, the others ``others``."""
        for p in range(self._g.players):
            self.views[p] = mix(self.views[p], event if only is None or p == only else others)

    def _drawn(self, kind: int, at: int) -> None:
        """A chance outcome: the next card drawn off the stack (public, but an Observatory's draw is seen by
        its seat alone)."""
        assert self._draw is not None
        index, _count, where = self._draw
        if self._left.get(kind, 0) <= 0:
            left = sorted(k for k, c in self._left.items() if c)
            raise ValueError(
                f"python_petersburg: chance outcome {kind} is not a card left in the {STACKS[index]} stack "
                f"(the outcomes are its kinds left: {left})"
            )
        if where == "drawn" and self._observed is not None:
            seat = self._observed[0]
            self._see(b"o%d" % kind, only=seat, others=b"o?")
            self._observed = (seat, at)
            self.hidden[seat].append((at, None))
        else:
            self._see(b"u%d" % kind)
        self._left[kind] -= 1
        self._outcomes.append(kind)
        if len(self._outcomes) == self._draw[1]:
            self._place_draw()

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
        self._left = Counter()
        self._outcomes = []

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
        codec = config.codec
        if not 0 <= action < codec.num_actions:
            raise ValueError(
                f"python_petersburg: action {action} is outside the actions 0..{codec.num_actions - 1}"
            )
        move = codec.decode(action, p)
        try:
            after = SP.apply(before, move)
        except ArbiterError as error:
            raise ValueError(
                f"python_petersburg: action {action} is not legal for P{p} now: {error}"
            ) from None
        if isinstance(move, Take) and move.source == "drawn":  # which card stays hidden from the others
            self._see(b"a%d" % action, only=p, others=b"t%d" % p)
        else:
            self._see(b"a%d" % action)
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
            self._left = Counter()
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
        config = self._g
        pools = [Counter(stack) for stack in config.stacks]
        chance = int(pyspiel.PlayerId.CHANCE)
        for at, step in enumerate(self.full_history()):
            if at and step.player == chance and at not in redrawn:  # a card drawn (0: the markers)
                pools[config.stack_of[history[at]]][history[at]] -= 1
        codec, names = config.codec, config.rules.names
        for q, d, t in unseen:
            pool = pools[config.stack_of[history[d]]]
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
    def observation_text(self, player: int) -> str:
        """What ``player`` sees now, as one short line (the observation tensor holds the whole of it)."""
        if self.engine is None:
            return f"P{player} setting up"
        if self._draw is not None:
            index, count, _ = self._draw
            return f"P{player} round {self.engine.round}: drawing {count} from the {STACKS[index]} stack"
        o = SP.observation(self.engine, player)
        head = f"P{player} round {o['round']} {o['phase']}"
        if o["to_act"]:
            head += f", P{o['to_act'][0]} to act, passes {o['passes']}"
        parts = [
            head + (", last round" if o["last_round"] else ""),
            f"upper {_names(o['upper'])}",
            f"lower {_names(o['lower'])}",
            f"hand {_names(o['hand'])}",
            f"{o['money']} roubles",
        ]
        if o["drawn"] == "hidden":
            parts.append("another seat holds a drawn card")
        elif o["drawn"] is not None:
            parts.append(f"drawn {o['drawn']}")
        if o["pub_queue"]:
            parts.append("pub " + " ".join(f"P{q}" for q in o["pub_queue"]))
        parts += [
            "VP " + " ".join(map(str, o["vp"])),
            "hands " + " ".join(map(str, o["hand_sizes"])),
            "areas " + " ".join(str(len(a)) for a in o["areas"]),
            "stacks " + " ".join(map(str, o["stack_sizes"].values())),
        ]
        if o["over"]:
            parts.append("over, roubles " + " ".join(map(str, o["final_money"])))
        return " | ".join(parts)

    def information_state_text(self, player: int) -> str:
        """``player``'s information state as one short line: what it sees now and the digest of what it saw
        of the history (see the module's docstring)."""
        return f"{self.observation_text(player)} | history {self.views[player]:016x}"

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


def _names(cards: list[str]) -> str:
    """Card names, a repeated one once with its count (``Market x2``); ``-`` for none."""
    counts = Counter(cards)
    return ", ".join(c if counts[c] == 1 else f"{c} x{counts[c]}" for c in dict.fromkeys(cards)) or "-"


class PetersburgObserver:
    """Observation and information-state tensors and strings of Saint Petersburg.  ``dict`` holds the
    tensor's named pieces, views into it in the order of the layout table (docs/environments.md); the
    information state adds ``known_hands`` (``n x K``: the cards each seat was seen to take into its hand
    and has not played)."""

    def __init__(self, config: PetersburgConfig, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params!r}")
        self.config = config
        self.recall = bool(iig_obs_type.perfect_recall)
        layout = config.codec.layout
        size = layout.size
        k = config.rules.nkinds
        self.tensor: Any = np.zeros(size + (config.players * k if self.recall else 0), np.float32)
        self.dict = layout.views(self.tensor)
        if self.recall:
            self.dict["known_hands"] = self.tensor[size:].reshape(config.players, k)
        self._obs = self.tensor[:size]
        self._observe = config.codec.observer().observe

    def set_from(self, state: PetersburgState, player: int) -> None:
        self.tensor.fill(0)
        if state.engine is not None and state._draw is None:
            self._obs[:] = self._observe(state.engine, player)
        if self.recall:
            self.dict["known_hands"][:] = state.known

    def string_from(self, state: PetersburgState, player: int) -> str:
        if self.recall:
            return state.information_state_text(player)
        return state.observation_text(player)


pyspiel.register_game(_TYPE, PetersburgGame)
