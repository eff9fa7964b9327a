"""6 nimmt! as an OpenSpiel Python game, ``python_take6``; importing this module registers it.

    >>> import pyspiel
    >>> import engine.envs.openspiel
    >>> game = pyspiel.load_game("python_take6", {"players": 3, "variant": "tactics"})
    >>> state = game.new_initial_state()
    >>> state.is_chance_node(), len(state.chance_outcomes())
    (True, 34)
    >>> game.min_utility(), game.max_utility()  # 65 bullheads before the last round, then 30 cards' worth
    (-116.0, 0.0)

Parameters: ``players`` 2..10, ``variant``, ``options`` as ``"name:value/..."``, ``max_rounds`` (0: play
to the game's end; else the game stops after that many rounds, for short experiments), ``rank_bonus``,
``terminal_rewards`` (true gives the whole return at the end only, the reward model MCTS requires).

The dynamics are *simultaneous*, and every decision node is a simultaneous node (OpenSpiel's convention):
in a selection every seat selects at once (T6-SELECT-2); at a row choice, a logic draft pick or a kids
flip the seat to act chooses and every other seat passes its single legal action,
:data:`~engine.envs.take6_codec.WAIT`.  ``pyspiel.convert_to_turn_based`` gives the turn-based form that
sequential algorithms (MCTS, ISMCTS) need; :class:`~engine.envs.openspiel.base.TurnBasedResampler` gives
ISMCTS the resampling that form lacks.

Chance is explicit: each round's deal is one chance node per card (hands in seat order, then the row
starters; kids: each pile top card first), uniform over the cards not yet dealt; in logic the start player
of the draft is the chance node.  ``resample_from_infostate(player, sampler)`` deals anew every card
``player`` has not seen this round, keeping its own hand, the row starters and every card a seat has
revealed (kids: flipped), and replays the game's actions on that deal.

Utility bounds come from the tables: a seat takes at most the ``n * hand_size`` cards played in a round
(each row keeps a card), so at most the bullheads of the deck's ``n * hand_size`` heaviest cards, on top of
at most ``threshold - 1`` before the last round; plus the rank bonus.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from engine.envs import take6_codec
from engine.envs.aec import rank_bonuses
from engine.envs.openspiel.base import (
    Shared,
    config_of,
    game_info,
    game_type,
    held,
    parse_options,
    result_of,
    returns_of,
    rewards_of,
    rng_of,
    typed,
)
from engine.take6 import GAME as T6
from engine.take6 import Deal, DraftStart, Flip, Rules, Select, bullheads, rules_for

__all__ = ["Take6Config", "Take6Game", "Take6Observer", "Take6State", "utility_bounds"]

PARAMS: dict[str, Any] = {
    "players": 4,
    "variant": "standard",
    "options": "",
    "max_rounds": 0,
    "rank_bonus": 0.0,
    "terminal_rewards": False,
}
WAIT = take6_codec.WAIT

_TYPE = game_type(
    "python_take6",
    "6 nimmt! (arbiter reference engine)",
    pyspiel.GameType.Dynamics.SIMULTANEOUS,
    (T6.min_players, T6.max_players),
    PARAMS,
)


def utility_bounds(rules: Rules, rank_bonus: float = 0.0) -> tuple[float, float]:
    """(min, max) of a seat's return under ``rules``, from the deck, set-up and end tables.

    A round adds ``n * hand_size`` cards to the ``rows`` on the table and leaves at least one card in each
    row, so one seat takes at most the ``n * hand_size`` heaviest cards of the deck; before the last round
    of a threshold game every total is below the threshold; a game of fixed rounds has that many rounds.

    >>> utility_bounds(rules_for("standard", 4, {}))  # 65 + the 40 heaviest cards (107 bullheads)
    (-172.0, 0.0)
    >>> utility_bounds(rules_for("kids", 2, {}), rank_bonus=1.0)  # one round, the most bullheads win
    (-1.0, 98.0)
    """
    heads = sorted((bullheads(c) for c in rules.deck), reverse=True)
    per_round = sum(heads[: rules.players * rules.hand_size])
    if rules.end == "threshold":
        worst = (rules.threshold or 0) - 1 + per_round
    else:
        worst = (rules.rounds or 1) * per_round
    b = abs(float(rank_bonus))
    return (-float(worst) - b, b) if rules.winner == "lowest" else (-b, float(worst) + b)


class Take6Game(pyspiel.Game):  # type: ignore[misc]
    """6 nimmt! for OpenSpiel (see the module's docstring for the parameters)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**PARAMS, **(params or {})}
        players = int(p["players"])
        rules = rules_for(str(p["variant"]), players, parse_options(str(p["options"])))
        super().__init__(
            typed(_TYPE, bool(p["terminal_rewards"])),
            game_info(
                take6_codec.NUM_ACTIONS,
                max(take6_codec.MAX_CARD, players),
                players,
                utility_bounds(rules, float(p["rank_bonus"])),
                T6.max_game_length,
            ),
            p,
        )

    def new_initial_state(self) -> Take6State:
        """The state before the first deal."""
        return Take6State(self, _config(self))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Take6Observer:
        """Observation (``perfect_recall=False``) or information state (``True``)."""
        return Take6Observer(
            _config(self), iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class Take6Config(Shared):
    """A game's parameters, resolved (states keep this, not the game object)."""

    def __init__(self, params: dict[str, Any]) -> None:
        self.players = int(params["players"])
        self.options = parse_options(str(params["options"]))
        self.rules = rules_for(str(params["variant"]), self.players, self.options)
        self.max_rounds = int(params["max_rounds"])
        self.rank_bonus = float(params["rank_bonus"])
        self.terminal = bool(params["terminal_rewards"])
        self.codec = take6_codec.codec(self.rules)


def _config(game: Any) -> Take6Config:
    config: Take6Config = config_of(game, Take6Config, PARAMS)
    return config


class Take6State(pyspiel.State):  # type: ignore[misc]
    """A 6 nimmt! position: dealing (chance) or the engine's state."""

    engine = held("_engine", "The engine's state (None while a round is dealt).")
    _base = held("_base_held", "The engine state a new round's deal replaces (None: round 1).")

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
        return int(pyspiel.PlayerId.SIMULTANEOUS)

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
        if player not in T6.to_act(self.engine):
            return [WAIT]
        return sorted(take6_codec.encode(a) for a in T6.legal_actions(self.engine, player))

    def _apply_action(self, action: int) -> None:
        """A chance outcome: the next card dealt (logic: the draft's start player)."""
        self._dealt.append(int(action) if self._g.rules.deal == "draft" else int(action) + 1)
        if len(self._dealt) == self._deal_size():
            self._start_round()
        self._record()  # the rewards of the step before stay until the next decision (OpenSpiel's rule)

    def _apply_actions(self, actions: list[int]) -> None:
        """One joint action: the seats to act act (a selection: all at once), the others pass."""
        state = self.engine
        acting = T6.to_act(state)
        for p, a in enumerate(actions):
            if p not in acting:
                if int(a) != WAIT:
                    raise ValueError(f"player {p} has nothing to do now: its only legal action is {WAIT}")
                continue
            move = take6_codec.decode(int(a), p)
            if move is None:
                raise ValueError(f"player {p} must act now, got the pass action {WAIT}")
            if isinstance(move, Select):
                self.played[p].add(move.card)
            elif isinstance(move, Flip):
                self.played[p].add(state.hands[p][0])  # the top of the pile is revealed
            state = T6.apply(state, move)
        self._advance(state)

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
                result = result_of(after.penalties, higher_wins=sign > 0)
            bonus = rank_bonuses(result, g.rank_bonus)
            self._rewards = [r + b for r, b in zip(self._rewards, bonus, strict=True)]
        self._returns = [a + b for a, b in zip(self._returns, self._rewards, strict=True)]
        self._record()

    # ------------------------------------------------------------------------------ resampling
    def resample_from_infostate(self, player: int, sampler: Any) -> Take6State:
        """A state ``player`` cannot tell from this one, drawn uniformly: each round's cards that it has
        not seen are dealt anew among the places it cannot see (the other hands and the undealt cards;
        kids: every pile below the cards flipped), then the game's actions are replayed on that deal.
        ``sampler`` is OpenSpiel's probability sampler (what ISMCTS passes)."""
        rules = self._g.rules
        if rules.deal == "draft":  # logic: every card is drafted face up; nothing is hidden
            return self.clone()  # type: ignore[no-any-return]
        rng = rng_of(sampler)
        n, h, size = rules.players, rules.hand_size, self._deal_size()
        flip = rules.play == "flip"
        chance = int(pyspiel.PlayerId.CHANCE)
        rounds: list[list[int]] = []  # each round's deal, as cards
        shown: list[list[set[int]]] = []  # each round: the cards each seat revealed
        flips: list[list[int]] = []  # each round (kids): how many cards each seat flipped
        decisions: list[int] = []
        for step in self.full_history():
            a = int(step.action)
            if step.player == chance:
                if not rounds or len(rounds[-1]) == size:
                    rounds.append([])
                    shown.append([set() for _ in range(n)])
                    flips.append([0] * n)
                rounds[-1].append(a + 1)
                continue
            decisions.append(a)
            move = take6_codec.decode(a, int(step.player))
            if isinstance(move, Select):
                shown[-1][move.player].add(move.card)
            elif isinstance(move, Flip):
                flips[-1][move.player] += 1
        outcomes: list[int] = []
        for cards, seen, flipped in zip(rounds, shown, flips, strict=True):
            known = []
            for i, c in enumerate(cards):
                q, j = divmod(i, h)
                known.append(
                    i >= n * h or (flip and j < flipped[q]) or (not flip and (q == player or c in seen[q]))
                )
            kept = {c for c, k in zip(cards, known, strict=True) if k}
            pool = [c for c in rules.deck if c not in kept]
            fresh = iter(rng.sample(pool, known.count(False)))
            outcomes += [c - 1 if k else next(fresh) - 1 for c, k in zip(cards, known, strict=True)]
        world: Take6State = self.get_game().new_initial_state()
        chance_at = decision_at = 0
        while chance_at < len(outcomes) or decision_at < len(decisions):
            if world.is_chance_node():
                world.apply_action(outcomes[chance_at])
                chance_at += 1
            else:
                world.apply_actions(decisions[decision_at : decision_at + n])
                decision_at += n
        return world

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
        if int(action) == WAIT:
            return "wait"
        return repr(take6_codec.decode(int(action), player))

    def is_terminal(self) -> bool:
        return self._over

    def rewards(self) -> list[float]:
        return rewards_of(self)

    def returns(self) -> list[float]:
        return returns_of(self)

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


pyspiel.register_game(_TYPE, Take6Game)
