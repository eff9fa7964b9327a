"""6 nimmt! as an OpenSpiel Python game, ``python_take6``; importing this module registers it.

    >>> import pyspiel
    >>> import engine.envs.openspiel
    >>> game = pyspiel.load_game("python_take6", {"players": 3, "variant": "tactics"})
    >>> state = game.new_initial_state()
    >>> state.is_chance_node(), len(state.chance_outcomes())
    (True, 34)
    >>> game.min_utility(), game.max_utility()  # 65 bullheads before the last round, then 30 cards' worth
    (-116.0, 0.0)

Parameters: ``players`` 2..10, ``variant``, ``options`` as ``"name:value/..."``, ``max_rounds`` 0..
(0: play to the game's end; else the game stops after that many rounds, for short experiments),
``rank_bonus`` (a finite number), ``terminal_rewards`` (true gives the whole return at the end only, the
reward model MCTS requires).  A value out of range is refused with a ``ValueError`` naming the range:

    >>> pyspiel.load_game("python_take6", {"players": 11})
    Traceback (most recent call last):
    ...
    ValueError: python_take6: players must be 2..10, got 11

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

Observation strings are one short line (the tensors carry the detail): the round, phase and seats to act,
the rows, the player's hand and selection, which seats have selected, the revealed cards and the
penalties.  An information-state string is that line and a 16-digit digest of everything the player saw of
the history (its own cards and the row starters as dealt, every joint action, every flipped card): equal
exactly when the information states are (a digest collision aside, one chance in 2**64).

    >>> state.observation_string(0)
    'P0 round 1 dealing: 0 of 34 cards dealt, mine -'

An action is checked before anything changes: an outcome that is not a card still to deal, a joint action
of the wrong length or with an illegal action raises a ``ValueError`` naming what was expected, and the
state stays as it was.

    >>> state.apply_action(10**6)
    Traceback (most recent call last):
    ...
    ValueError: python_take6: chance outcome 1000000 is not a card left to deal: the outcomes are c - 1 ...
    >>> state.history()
    []
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from engine.envs import take6_codec
from engine.envs.openspiel.base import (
    Config,
    cards_text,
    check_params,
    config_for,
    config_of,
    game_info,
    game_type,
    held,
    mix,
    parse_options,
    result_of,
    returns_of,
    rewards_of,
    rng_of,
    typed,
)
from engine.envs.returns import rank_bonuses
from engine.envs.returns import take6_bounds as utility_bounds
from engine.take6 import GAME as T6
from engine.take6 import Deal, DraftStart, Flip, Select, rules_for

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


class Take6Game(pyspiel.Game):  # type: ignore[misc]
    """6 nimmt! for OpenSpiel (see the module's docstring for the parameters)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**PARAMS, **(params or {})}
        config: Take6Config = config_for(Take6Config, p)  # checks the parameters
        super().__init__(
            typed(_TYPE, config.terminal),
            game_info(
                take6_codec.NUM_ACTIONS,
                max(take6_codec.MAX_CARD, config.players),
                config.players,
                utility_bounds(config.rules, config.rank_bonus),
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


class Take6Config(Config):
    """A game's parameters, checked and resolved (states keep this, not the game object)."""

    def __init__(self, params: dict[str, Any]) -> None:
        check_params("python_take6", params, (T6.min_players, T6.max_players))
        self.params = params
        self.players = params["players"]
        self.options = parse_options(str(params["options"]))
        self.rules = rules_for(str(params["variant"]), self.players, self.options)
        self.max_rounds = params["max_rounds"]
        self.rank_bonus = float(params["rank_bonus"])
        self.terminal = bool(params["terminal_rewards"])
        self.codec = take6_codec.codec(self.rules)
        self.cards = frozenset(self.rules.deck)


def _config(game: Any) -> Take6Config:
    config: Take6Config = config_of(game, Take6Config, PARAMS)
    return config


class Take6State(pyspiel.State):  # type: ignore[misc]
    """A 6 nimmt! position: dealing (chance) or the engine's state.  What it holds is what it pickles: the
    configuration (by its parameters), the engine's state, the round's deal so far, the rewards, the cards
    revealed this round and each player's digest of the history."""

    engine = held("_engine", "The engine's state (None while a round is dealt).")
    _base = held("_base_held", "The engine state a later round's deal replaces (None otherwise).")

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
        self.views = [0] * n
        """Each player's digest of what it saw of the history (:func:`~engine.envs.openspiel.base.mix`)."""

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
        g = self._g
        rules = g.rules
        if self._over:
            raise ValueError("python_take6: the game is over")
        if not self._dealing():
            raise ValueError(
                f"python_take6: a decision node takes apply_actions, one action for each of the "
                f"{g.players} players, not apply_action({action})"
            )
        index = len(self._dealt)
        if rules.deal == "draft":
            if not 0 <= action < g.players:
                raise ValueError(
                    f"python_take6: chance outcome {action} is not a start player 0..{g.players - 1}"
                )
            outcome = action
            for p in range(g.players):
                self.views[p] = mix(self.views[p], b"s%d" % action)
        else:
            outcome = action + 1
            if outcome not in g.cards or outcome in self._dealt:
                deck = rules.deck
                raise ValueError(
                    f"python_take6: chance outcome {action} is not a card left to deal: the outcomes are "
                    f"c - 1 for the {len(deck) - index} cards c of {deck[0]}..{deck[-1]} not dealt yet "
                    "this round"
                )
            self._see_deal(index, outcome)
        self._dealt.append(outcome)
        if len(self._dealt) == self._deal_size():
            self._start_round()

    def _see_deal(self, index: int, card: int) -> None:
        """Each player's view of the ``index``-th card of a deal: its own cards and the row starters are
        seen (kids: a pile is face down, even to its owner), the others are not."""
        rules = self._g.rules
        h = rules.hand_size
        owner = index // h if index < rules.players * h and rules.play != "flip" else -1
        public = index >= rules.players * h
        seen, unseen = b"d%d" % card, b"d?"
        for p in range(self._g.players):
            self.views[p] = mix(self.views[p], seen if public or p == owner else unseen)

    def _apply_actions(self, actions: list[int]) -> None:
        """One joint action: the seats to act act (a selection: all at once), the others pass.  Every
        action is checked before any is applied."""
        n = self._g.players
        if self._over or self._dealing():
            where = "the game is over" if self._over else "a chance node takes apply_action (the next card)"
            raise ValueError(f"python_take6: {where}, not apply_actions")
        if len(actions) != n:
            raise ValueError(
                f"python_take6: a joint action has one action for each of the {n} players, got {len(actions)}"
            )
        state = self.engine
        acting = T6.to_act(state)
        moves: list[Any] = []
        for p, a in enumerate(actions):
            if p not in acting:
                if a != WAIT:
                    raise ValueError(
                        f"python_take6: player {p} has nothing to do now: its only legal action is {WAIT} "
                        f"(wait), got {a}"
                    )
                continue
            legal = self._legal_actions(p)
            if a not in legal:
                raise ValueError(f"python_take6: action {a} is not legal for player {p} now (legal: {legal})")
            moves.append(take6_codec.decode(a, p))
        event = b"j" + b",".join(b"%d" % a for a in actions)
        for move in moves:
            if isinstance(move, Select):
                self.played[move.player].add(move.card)
            elif isinstance(move, Flip):
                card = state.hands[move.player][0]  # the top of the pile is revealed
                self.played[move.player].add(card)
                event += b"f%d" % card
            state = T6.apply(state, move)
        for p in range(n):
            self.views[p] = mix(self.views[p], event)
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
            self._base = None
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
    def observation_text(self, player: int) -> str:
        """What ``player`` sees now, as one short line (the observation tensor holds the whole of it)."""
        if self._dealing():
            return (
                f"P{player} round {self._round} dealing: {len(self._dealt)} of {self._deal_size()} "
                f"{'start player' if self._g.rules.deal == 'draft' else 'cards'} dealt, "
                f"mine {cards_text(self._my_dealt(player))}"
            )
        o = T6.observation(self.engine, player)
        parts = [f"P{player} round {o['round']} {o['phase']}" + _seats(", to act", o["to_act"])]
        if o["rows"]:
            parts.append("rows " + " / ".join(" ".join(map(str, row)) for row in o["rows"]))
        if o["pool"]:
            parts.append(f"pool {cards_text(o['pool'])}")
        if o["hand"] is None:
            parts.append(f"pile {o['hand_sizes'][player]} face down")
        else:
            parts.append(f"hand {cards_text(o['hand'])}")
        if o["my_selection"] is not None:
            parts.append(f"mine {o['my_selection']}")
        if any(o["selected"]):
            parts.append(_seats("selected", [q for q, s in enumerate(o["selected"]) if s]))
        if o["pending"]:
            parts.append("revealed " + " ".join(f"{c}:P{q}" for c, q in o["pending"]))
        parts.append("penalties " + " ".join(map(str, o["penalties"])))
        return " | ".join(parts)

    def information_state_text(self, player: int) -> str:
        """``player``'s information state as one short line: what it sees now and the digest of what it saw
        of the history (see the module's docstring)."""
        return f"{self.observation_text(player)} | history {self.views[player]:016x}"

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


def _seats(label: str, seats: Any) -> str:
    return f"{label} " + " ".join(f"P{q}" for q in seats) if len(seats) else ""


class Take6Observer:
    """Observation and information-state tensors and strings of 6 nimmt!.  ``dict`` holds the tensor's
    named pieces, views into it in the order of the layout table (docs/environments.md); the information
    state adds ``played`` (``n x D``: 1 where seat q revealed card c this round)."""

    def __init__(self, game: Take6Config, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params!r}")
        self.game = game
        self.recall = bool(iig_obs_type.perfect_recall)
        layout = game.codec.layout
        size = layout.size
        d = game.rules.deck[-1]
        extra = game.players * d if self.recall else 0
        self.tensor: Any = np.zeros(size + extra, np.float32)
        self.dict = layout.views(self.tensor)
        if self.recall:
            self.dict["played"] = self.tensor[size:].reshape(game.players, d)
        self._obs = self.tensor[:size]
        self._observe = game.codec.observer().observe

    def set_from(self, state: Take6State, player: int) -> None:
        self.tensor.fill(0)
        if state.engine is not None:
            self._obs[:] = self._observe(state.engine, player)
        else:
            hand = self.dict["hand"]
            for c in state._my_dealt(player):
                hand[c - 1] = 1
        if self.recall:
            played = self.dict["played"]
            for q, cards in enumerate(state.played):
                for c in cards:
                    played[q, c - 1] = 1

    def string_from(self, state: Take6State, player: int) -> str:
        if self.recall:
            return state.information_state_text(player)
        return state.observation_text(player)


pyspiel.register_game(_TYPE, Take6Game)
