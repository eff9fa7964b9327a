"""Saint Petersburg for learning agents: the fixed discrete action encoding and the observation vector.

Cards are *kinds* ``k`` (0..K-1, the catalog's order, K = 49 in both editions).  A *pair* is a card kind
with its displacement target: ``(k, none)`` for a card that displaces nothing, ``(k, t)`` for a trading
card ``k`` and each card ``t`` it may displace (the catalog's pairing tables); the pairs are listed kind by
kind, targets ascending, P = 214 in both editions (:meth:`PetersburgCodec.pairs`).  Sources are 0 upper
row, 1 lower row, 2 the Observatory's drawn card.

=========================  ======================  ==============================================
index                      action                  meaning
=========================  ======================  ==============================================
``0``                      ``Pass(p)``             pass (SP-TURN-3)
``1 + s``                  ``Observe(p, s)``       turn an Observatory, draw from stack s (worker,
                                                   building, aristocrat, trading)
``5 + k``                  ``Discard(p, k)``       discard the drawn card k (SP-OBS-4)
``5 + K + src*K + k``      ``Take(p, k, src)``     take k into the hand (SP-HAND-1)
``5 + 4K + src*P + pair``  ``Buy(p, k, src, t)``   buy k, displacing t if any (SP-BUY-1)
``5 + 4K + 3P + pair``     ``Play(p, k, t)``       play k from the hand (SP-HAND-4)
``5 + 4K + 4P + v``        ``PubBuy(p, v)``        buy v VP at the Pub, 0..V (SP-PUB-1)
=========================  ======================  ==============================================

With K = 49, P = 214 and V = 10 (two Pubs of at most 5 VP each): 1068 actions.

>>> from engine.petersburg import Buy, Pass, ruleset
>>> c = codec(ruleset("first"), 2)
>>> c.num_actions, c.encode(Pass(1)), c.decode(c.encode(Buy(0, "Market", "lower")), 0)
(1068, 0, Buy(player=0, card='Market', source='lower', displace=None))

Observation
===========

A float32 vector with exactly the content of the engine's ``GAME.observation(state, player)``
(:func:`observation_from_dict` encodes that dict; a :class:`PetersburgObserver` builds the same vector from
the state, keeping its public fields between steps, and tests check they agree at every step). Card
multisets are counts per kind; the order of cards within a row has no effect in the rules and is not
encoded. Per-seat fields are indexed by seat. The table for 4 players (``python -m
engine.envs.petersburg_codec [n]`` prints any other)::

    | field | offset | size | range | meaning |
    |---|---:|---:|---|---|
    | `hand` | 0 | 49 | 0..6 | my hand: count per kind |
    | `money` | 49 | 1 | 0..100000 | my roubles |
    | `drawn` | 50 | 49 | 0..1 | one-hot: the card my Observatory drew, awaiting my decision |
    | `drawn_hidden` | 99 | 1 | 0..1 | 1 if another seat holds a drawn card (which stays hidden) |
    | `upper` | 100 | 49 | 0..8 | upper row: count per kind |
    | `lower` | 149 | 49 | 0..8 | lower row: count per kind |
    | `discard` | 198 | 49 | 0..6 | discard pile: count per kind |
    | `stack_sizes` | 247 | 4 | 0..116 | cards left in the worker, building, aristocrat and trading stacks |
    | `areas` | 251 | 196 (4 x 49) | 0..6 | seat q's area: count of kind k at q*K+k |
    | `turned` | 447 | 196 (4 x 49) | 0..6 | Observatories seat q turned this round, per kind |
    | `vp` | 643 | 4 | -10000..100000 | each seat's victory points |
    | `hand_sizes` | 647 | 4 | 0..10 | cards in each seat's hand |
    | `final_money` | 651 | 4 | 0..100000 | each seat's roubles, shown once the game is over (else 0) |
    | `to_act` | 655 | 4 | 0..1 | 1 if the seat must act now |
    | `seat` | 659 | 4 | 0..1 | one-hot: my seat |
    | `pub_queue` | 663 | 4 | 0..4 | seat's place in the queue of Pub decisions, from 1 (0: not queued) |
    | `markers` | 667 | 16 (4 x 4) | 0..1 | 1 at phase*n+q if seat q holds that phase's start-player marker |
    | `phase` | 683 | 8 | 0..1 | one-hot: worker/building/pub/observatory/aristocrat/trading/reveal/over |
    | `round` | 691 | 1 | 1..10000 | the round number |
    | `passes` | 692 | 1 | 0..3 | consecutive passes in this phase |
    | `last_round` | 693 | 1 | 0..1 | 1 once a stack ran out: this round is the last |
    | `over` | 694 | 1 | 0..1 | 1 when the game is over |

Hidden from the player: the other seats' hands (their sizes are shown) and roubles (until the end), a
card another seat's Observatory drew, the order of the stacks.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from engine.envs.layout import Layout, Slot
from engine.petersburg import (
    GAME,
    Buy,
    Discard,
    Observe,
    Pass,
    Play,
    PubBuy,
    Ruleset,
    State,
    Take,
    resolve_card,
    ruleset,
)
from engine.petersburg.catalog import PHASES, STACKS
from engine.petersburg.model import STATE_PHASES

__all__ = ["SOURCES", "PetersburgCodec", "PetersburgObserver", "codec", "layout_for", "observation_from_dict"]

SOURCES = ("upper", "lower", "drawn")
"""The sources of a buy or a take, in encoding order."""
_SRC = {name: i for i, name in enumerate(SOURCES)}
_PHASE_SLOT = {name: i for i, name in enumerate(STATE_PHASES)}
MONEY_MAX = 100_000
VP_MIN, VP_MAX = -10_000, 100_000
ROUND_MAX = 10_000


def layout_for(rules: Ruleset, players: int) -> Layout:
    """The observation layout of ``players`` seats under ``rules``."""
    n, k = players, rules.nkinds
    copies = max(c.copies for c in rules.cards)
    total = sum(c.copies for c in rules.cards)
    board = 8
    return Layout(
        (
            Slot("hand", k, 0, copies, "my hand: count per kind"),
            Slot("money", 1, 0, MONEY_MAX, "my roubles"),
            Slot("drawn", k, 0, 1, "one-hot: the card my Observatory drew, awaiting my decision"),
            Slot("drawn_hidden", 1, 0, 1, "1 if another seat holds a drawn card (which stays hidden)"),
            Slot("upper", k, 0, board, "upper row: count per kind"),
            Slot("lower", k, 0, board, "lower row: count per kind"),
            Slot("discard", k, 0, copies, "discard pile: count per kind"),
            Slot(
                "stack_sizes",
                len(STACKS),
                0,
                total,
                "cards left in the worker, building, aristocrat and trading stacks",
            ),
            Slot("areas", n * k, 0, copies, "seat q's area: count of kind k at q*K+k", shape=(n, k)),
            Slot(
                "turned", n * k, 0, copies, "Observatories seat q turned this round, per kind", shape=(n, k)
            ),
            Slot("vp", n, VP_MIN, VP_MAX, "each seat's victory points"),
            Slot("hand_sizes", n, 0, 10, "cards in each seat's hand"),
            Slot("final_money", n, 0, MONEY_MAX, "each seat's roubles, shown once the game is over (else 0)"),
            Slot("to_act", n, 0, 1, "1 if the seat must act now"),
            Slot("seat", n, 0, 1, "one-hot: my seat"),
            Slot("pub_queue", n, 0, n, "seat's place in the queue of Pub decisions, from 1 (0: not queued)"),
            Slot(
                "markers",
                len(PHASES) * n,
                0,
                1,
                "1 at phase*n+q if seat q holds that phase's start-player marker",
                shape=(len(PHASES), n),
            ),
            Slot("phase", len(STATE_PHASES), 0, 1, "one-hot: " + "/".join(STATE_PHASES)),
            Slot("round", 1, 1, ROUND_MAX, "the round number"),
            Slot("passes", 1, 0, max(n - 1, 1), "consecutive passes in this phase"),
            Slot("last_round", 1, 0, 1, "1 once a stack ran out: this round is the last"),
            Slot("over", 1, 0, 1, "1 when the game is over"),
        )
    )


class PetersburgCodec:
    """The action encoding, masks and observation vectors of ``players`` seats under one ruleset."""

    def __init__(self, rules: Ruleset, players: int) -> None:
        self.rules = rules
        self.players = players
        k = self.kinds = rules.nkinds
        self.pair_list = tuple(
            (c, t) for c in range(k) for t in (rules.targets_of[c] if rules.is_trading[c] else (-1,))
        )
        self.pair_index = {pair: i for i, pair in enumerate(self.pair_list)}
        p = len(self.pair_list)
        self.pub_max = sum(rules.cards[c].copies * rules.pub_max[c] for c in rules.pub_kinds)
        self.observe0 = 1
        self.discard0 = 1 + len(STACKS)
        self.take0 = self.discard0 + k
        self.buy0 = self.take0 + len(SOURCES) * k
        self.play0 = self.buy0 + len(SOURCES) * p
        self.pub0 = self.play0 + p
        self.num_actions = self.pub0 + self.pub_max + 1
        self._ids: dict[int, tuple[Any, int]] = {}
        self._decoded: dict[tuple[int, int], Any] = {}
        self.layout = layout = layout_for(rules, players)
        o = layout.offset
        self.o = {name: o(name) for name in layout.names()}
        self._no_mask = _frozen(np.zeros(self.num_actions, np.int8))

    def pairs(self) -> tuple[tuple[str, str | None], ...]:
        """The pairs by name: ``(card, displaced card or None)``, in encoding order."""
        names = self.rules.names
        return tuple((names[c], names[t] if t >= 0 else None) for c, t in self.pair_list)

    def _kind(self, name: str) -> int:
        k = self.rules.kind.get(name)
        if k is None:
            k = resolve_card(name)
            if k is None:
                raise ValueError(f"unknown card {name!r}")
        return k

    def encode(self, action: Any) -> int:
        """The index of an engine action (see the module's table)."""
        t = type(action)
        if t is Pass:
            return 0
        if t is Observe:
            return self.observe0 + STACKS.index(action.stack)
        if t is Discard:
            return self.discard0 + self._kind(action.card)
        if t is Take:
            return self.take0 + _SRC[action.source] * self.kinds + self._kind(action.card)
        if t is Buy or t is Play:
            target = -1 if action.displace is None else self._kind(action.displace)
            pair = self.pair_index[(self._kind(action.card), target)]
            if t is Play:
                return self.play0 + pair
            return self.buy0 + _SRC[action.source] * len(self.pair_list) + pair
        if t is PubBuy:
            return self.pub0 + int(action.vp)
        raise TypeError(f"not a Saint Petersburg action: {action!r}")

    def decode(self, index: int, player: int) -> Any:
        """The engine action of ``player`` that ``index`` encodes."""
        key = (index, player)
        found = self._decoded.get(key)
        if found is None:
            found = self._decoded[key] = self._decode(index, player)
        return found

    def _decode(self, index: int, player: int) -> Any:
        names = self.rules.names
        if not 0 <= index < self.num_actions:
            raise ValueError(f"action index must be 0..{self.num_actions - 1}, got {index}")
        if index == 0:
            return Pass(player)
        if index < self.discard0:
            return Observe(player, STACKS[index - self.observe0])
        if index < self.take0:
            return Discard(player, names[index - self.discard0])
        if index < self.buy0:
            src, k = divmod(index - self.take0, self.kinds)
            return Take(player, names[k], SOURCES[src])
        if index < self.pub0:
            if index < self.play0:
                src, pair = divmod(index - self.buy0, len(self.pair_list))
            else:
                src, pair = -1, index - self.play0
            k, t = self.pair_list[pair]
            target = names[t] if t >= 0 else None
            if src < 0:
                return Play(player, names[k], target)
            return Buy(player, names[k], SOURCES[src], target)
        return PubBuy(player, index - self.pub0)

    def legal_indices(self, state: State, player: int) -> list[int]:
        """The encodings of the legal actions, in the engine's order."""
        ids = self._ids
        out = []
        for a in GAME.legal_actions(state, player):
            hit = ids.get(id(a))
            if hit is None or hit[0] is not a:  # the engine interns its actions: one encoding per object
                hit = ids[id(a)] = (a, self.encode(a))
            index: int = hit[1]
            out.append(index)
        return out

    def mask(self, state: State, player: int) -> Any:
        """The action mask (read-only int8 array): 1 exactly at the encodings of the legal actions."""
        indices = self.legal_indices(state, player)
        if not indices:
            return self._no_mask
        flags = bytearray(self.num_actions)
        for i in indices:
            flags[i] = 1
        return np.frombuffer(bytes(flags), np.int8)  # read-only, as a buffer of bytes is

    def observer(self) -> PetersburgObserver:
        """A fast observer for one environment (it keeps the public fields between steps)."""
        return PetersburgObserver(self)

    def observe(self, state: State, player: int) -> Any:
        """The observation vector of ``player`` (a new float32 array), from a fresh observer."""
        return PetersburgObserver(self).observe(state, player)


class PetersburgObserver:
    """Observation vectors for one environment: the public fields kept in one table between steps.

    The fields every seat sees alike (rows, discard, stacks, areas, Observatories turned, VP, hand sizes,
    the start-player markers, the Pub queue, phase, round, ...) are written into one table field by field,
    only when the state's field changed (compared by identity: a transition keeps the fields it does not
    touch; a seat's area or turned cards per seat).  An observation is a copy of that table with the
    seat's own fields written: its hand, roubles, the drawn card (or ``drawn_hidden``) and its one-hot.

    >>> from engine.petersburg import GAME
    >>> s = GAME.new_game(3, seed=2)
    >>> c = codec(s.rules, 3)
    >>> expected = observation_from_dict(GAME.observation(s, 1), s.rules)
    >>> bool((c.observer().observe(s, 1) == expected).all())
    True
    """

    def __init__(self, codec: PetersburgCodec) -> None:
        self.codec = codec
        o = codec.o
        if o["hand"] != 0:
            raise AssertionError("the observer writes the hand at offset 0")
        self._public: Any = np.zeros(codec.layout.size, np.float32)
        self._zeros: Any = np.zeros(codec.kinds, np.float32)
        self._seen: dict[str, Any] = {}
        """Per public field, the state's value the table shows."""
        self._areas: list[Any] = [None] * codec.players
        self._turned: list[Any] = [None] * codec.players
        n = codec.players
        self._s_stacks = slice(o["stack_sizes"], o["stack_sizes"] + len(STACKS))
        self._s_vp = slice(o["vp"], o["vp"] + n)
        self._s_sizes = slice(o["hand_sizes"], o["hand_sizes"] + n)
        self._s_final = slice(o["final_money"], o["final_money"] + n)
        self._s_act = slice(o["to_act"], o["to_act"] + n)
        self._s_queue = slice(o["pub_queue"], o["pub_queue"] + n)
        self._s_markers = slice(o["markers"], o["markers"] + len(PHASES) * n)
        self._s_phase = slice(o["phase"], o["phase"] + len(STATE_PHASES))

    def view(self, state: State, player: int) -> tuple[Any, Any]:
        """``(observe(state, player), codec.mask(state, player))``."""
        return self.observe(state, player), self.codec.mask(state, player)

    def observe(self, state: State, player: int) -> Any:
        """The observation vector of ``player`` (a new float32 array; the fields of the module's table)."""
        c = self.codec
        o = c.o
        k = c.kinds
        n = c.players
        pub = self._public
        seen = self._seen
        get = seen.get
        for name in ("upper", "lower", "discard"):
            cards = getattr(state, name)
            if cards is not get(name):
                _write_counts(pub, o[name], cards, self._zeros)
                seen[name] = cards
        for name, last in (("areas", self._areas), ("turned", self._turned)):
            base = o[name]
            for q, cards in enumerate(getattr(state, name)):
                if cards is not last[q]:
                    _write_counts(pub, base + q * k, cards, self._zeros)
                    last[q] = cards
        stacks = state.stacks
        if stacks is not get("stacks"):
            pub[self._s_stacks] = [len(s) for s in stacks]
            seen["stacks"] = stacks
        vp = state.vp
        if vp is not get("vp"):
            pub[self._s_vp] = vp
            seen["vp"] = vp
        hands = state.hands
        if hands is not get("hands"):
            pub[self._s_sizes] = [len(h) for h in hands]
            seen["hands"] = hands
        over = state.over
        final = state.money if over else None  # the roubles are shown once the game is over
        if final is not get("final"):
            pub[self._s_final] = final or self._zeros[:n]
            seen["final"] = final
        to_act = GAME.to_act(state)
        if to_act != get("to_act"):
            pub[self._s_act] = self._zeros[:n]
            for q in to_act:
                pub[o["to_act"] + q] = 1
            seen["to_act"] = to_act
        queue = state.pub_queue
        if queue is not get("pub_queue"):
            pub[self._s_queue] = self._zeros[:n]
            for i, q in enumerate(queue):
                pub[o["pub_queue"] + q] = i + 1
            seen["pub_queue"] = queue
        markers = state.markers
        if markers is not get("markers"):
            pub[self._s_markers] = [float(markers[ph] == q) for ph in range(len(PHASES)) for q in range(n)]
            seen["markers"] = markers
        phase = state.phase
        if phase != get("phase"):
            pub[self._s_phase] = self._zeros[: len(STATE_PHASES)]
            pub[o["phase"] + _PHASE_SLOT[phase]] = 1
            seen["phase"] = phase
        pub[o["round"]] = state.round
        pub[o["passes"]] = state.passes
        pub[o["last_round"]] = state.last_round
        pub[o["over"]] = over
        out = pub.copy()
        for card in state.hands[player]:
            out[card] += 1  # hand is the first field (offset 0)
        out[o["money"]] = state.money[player]
        if state.drawn >= 0:
            if state.turn == player:
                out[o["drawn"] + state.drawn] = 1
            else:
                out[o["drawn_hidden"]] = 1
        out[o["seat"] + player] = 1
        return out


def _write_counts(out: Any, base: int, cards: tuple[int, ...], zeros: Any) -> None:
    """Count per kind of ``cards`` into ``out[base : base + K]`` (``zeros`` holds K zeros)."""
    out[base : base + len(zeros)] = zeros
    for c in cards:
        out[base + c] += 1


def _frozen(array: Any) -> Any:
    array.flags.writeable = False
    return array


@functools.cache
def codec(rules: Ruleset, players: int) -> PetersburgCodec:
    """The (cached) codec of ``players`` seats under ``rules``."""
    return PetersburgCodec(rules, players)


def observation_from_dict(obs: dict[str, Any], rules: Ruleset) -> Any:
    """Encode the engine's observation dict (``GAME.observation``) as the vector of the module's table.

    The reference the fast :meth:`PetersburgCodec.observe` is checked against.
    """
    n = obs["players"]
    layout = layout_for(rules, n)
    o = layout.offset
    k = rules.nkinds
    kind = rules.kind
    out: Any = np.zeros(layout.size, np.float32)
    for field in ("hand", "upper", "lower", "discard"):
        for name in obs[field]:
            out[o(field) + kind[name]] += 1
    out[o("money")] = obs["money"]
    if obs["drawn"] == "hidden":
        out[o("drawn_hidden")] = 1
    elif obs["drawn"] is not None:
        out[o("drawn") + kind[obs["drawn"]]] = 1
    out[layout.where("stack_sizes")] = [obs["stack_sizes"][s] for s in STACKS]
    for field in ("areas", "turned"):
        for q, cards in enumerate(obs[field]):
            for name in cards:
                out[o(field) + q * k + kind[name]] += 1
    out[layout.where("vp")] = obs["vp"]
    out[layout.where("hand_sizes")] = obs["hand_sizes"]
    if "final_money" in obs:
        out[layout.where("final_money")] = obs["final_money"]
    for q in obs["to_act"]:
        out[o("to_act") + q] = 1
    out[o("seat") + obs["player"]] = 1
    for i, q in enumerate(obs["pub_queue"]):
        out[o("pub_queue") + q] = i + 1
    for ph, p in enumerate(PHASES):
        out[o("markers") + ph * n + obs["markers"][p.name]] = 1
    out[o("phase") + STATE_PHASES.index(obs["phase"])] = 1
    out[o("round")] = obs["round"]
    out[o("passes")] = obs["passes"]
    out[o("last_round")] = obs["last_round"]
    out[o("over")] = obs["over"]
    return out


def main() -> None:
    """Print the observation table: ``python -m engine.envs.petersburg_codec [players] [variant]``."""
    import sys

    players = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    variant = sys.argv[2] if len(sys.argv) > 2 else None
    print(layout_for(ruleset(variant), players).table())


if __name__ == "__main__":
    main()
