"""6 nimmt! for learning agents: the fixed discrete action encoding and the observation vector.

Actions
=======

One discrete space of :data:`NUM_ACTIONS` = 215 for every variant and player count (``D`` = 104, the
highest card of any deck; ``R`` = 5, the most rows of any variant):

==============  ===============  =====================================================================
index           action           meaning
==============  ===============  =====================================================================
``c - 1``       ``Select(p, c)`` select card ``c`` (1..104) from the hand, hidden (T6-SELECT-1)
``104 + r``     ``TakeRow(p, r)`` take row ``r`` (0..4): the card fits no row (T6-PLACE-3)
``109 + c - 1`` ``Draft(p, c)``  logic: take card ``c`` from the face-up pool (T6-LOGIC-1)
``213``         ``Flip(p)``      kids: flip the top card of the pile (T6-KIDS-2)
``214``         wait             Parallel API only: this agent has nothing to do this step
==============  ===============  =====================================================================

>>> from engine.take6 import Select, TakeRow, Flip
>>> encode(Select(2, 33)), encode(TakeRow(0, 3)), encode(Flip(1)), decode(32, 2)
(32, 107, 213, Select(player=2, card=33))
>>> decode(WAIT, 0) is None
True

Observation
===========

A float32 vector of what the player may see: exactly the content of the engine's ``GAME.observation(state,
player)`` (:func:`observation_from_dict` encodes that dict; the environments use a :class:`Take6Observer`,
which builds the same vector straight from the state and keeps its public part between steps, and tests
check they agree at every step). Per-seat fields are indexed by seat (absolute, not rotated); ``D`` here is
the highest card of the variant's deck, ``R`` its rows, ``C`` the row capacity, ``n`` the players. The table
for the standard game with 4 players (``python -m engine.envs.take6_codec`` prints any other)::

    | field | offset | size | range | meaning |
    | `hand` | 0 | 104 | 0..1 | my hand: 1 at c-1 for each card c I hold (kids: all 0, piles are face down) |
    | `my_selection` | 104 | 104 | 0..1 | 1 at c-1 for the card c I selected this turn, not yet revealed |
    | `rows` | 208 | 20 (4 x 5) | 0..104 | the rows, row-major: row r's j-th card at r*C+j, 0 for empty |
    | `row_bullheads` | 228 | 4 | 0..35 | bullheads in each row |
    | `pending` | 232 | 4 | 0..104 | seat q's revealed card awaiting placement (0: none) |
    | `piles` | 236 | 416 (4 x 104) | 0..1 | 1 at q*D+c-1 if seat q took card c this round |
    | `penalties` | 652 | 4 | 0..236 | bullheads each seat took in the whole game |
    | `hand_sizes` | 656 | 4 | 0..10 | cards in each seat's hand (kids: pile), a hidden selection excluded |
    | `selected` | 660 | 4 | 0..1 | 1 if the seat has selected this turn (which card stays hidden) |
    | `to_act` | 664 | 4 | 0..1 | 1 if the seat must act now |
    | `seat` | 668 | 4 | 0..1 | one-hot: my seat |
    | `phase` | 672 | 5 | 0..1 | one-hot: draft, select, choose, flip, over |
    | `round` | 677 | 1 | 1..2500 | the round number |
    | `pool` | 678 | 104 | 0..1 | logic draft: 1 at c-1 for each face-up card c (else all 0) |
    | `stock_size` | 782 | 1 | 0..104 | cards neither in hands nor on the table |

The countdown variant adds ``points_left`` (n values: 66 minus the penalties).  Hidden from the player:
every other hand (kids: every pile, one's own too), every selection not yet revealed (one's own is in
``my_selection``), the undealt cards.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from engine.envs.layout import Layout, Slot
from engine.take6 import BULLHEADS, GAME, Action, Draft, Flip, Rules, Select, State, TakeRow, rules_for
from engine.take6.layout import (
    I_FIXED,
    I_HELD,
    I_PENALTIES,
    I_PENDING,
    I_PHASE,
    I_PILES,
    I_ROWS,
    I_SELECTED,
    I_TO_ACT,
)

__all__ = [
    "DRAFT0",
    "FLIP",
    "MAX_CARD",
    "MAX_ROWS",
    "NUM_ACTIONS",
    "PENALTIES_AT",
    "PHASES",
    "TAKE0",
    "WAIT",
    "Take6Codec",
    "Take6Observer",
    "codec",
    "decode",
    "decode_table",
    "encode",
    "layout_for",
    "observation_from_dict",
]

MAX_CARD = len(BULLHEADS) - 1
"""The highest card of any deck (104)."""


def _max_rows() -> int:
    rows = []
    for variant in GAME.variants:
        for n in range(GAME.min_players, GAME.max_players + 1):
            try:
                rows.append(rules_for(variant, n).rows)
            except Exception:
                continue
    return max(rows)


MAX_ROWS = _max_rows()
"""The most rows of any variant (5, kids)."""
TAKE0 = MAX_CARD
DRAFT0 = TAKE0 + MAX_ROWS
FLIP = DRAFT0 + MAX_CARD
WAIT = FLIP + 1
NUM_ACTIONS = WAIT + 1
PHASES = ("draft", "select", "choose", "flip", "over")
_PHASE = {name: i for i, name in enumerate(PHASES)}
_PAD = tuple((0,) * k for k in range(8 * 8))
_HEADS: dict[tuple[int, ...], int] = {}
"""Bullheads of a row, memoized (cleared past ``_HEADS_MAX`` rows)."""
_HEADS_MAX = 100_000
_BH = BULLHEADS
_ONE = np.float32(1.0)
"""1 as a float32 scalar: the cheapest value to write into a float32 array."""
# The observer reads the state's fields by position, as the engine does: the indexes are the engine's own
# (engine/take6/layout.py draws the layout); tests/test_envs_take6.py checks them against the named fields.
_FIXED, _PHASE_AT, _ROWS, _PENDING = I_FIXED, I_PHASE, I_ROWS, I_PENDING
_PILES, _PENALTIES, _HELD, _SELECTED, _TO_ACT = I_PILES, I_PENALTIES, I_HELD, I_SELECTED, I_TO_ACT
PENALTIES_AT = _PENALTIES
"""Where a state holds ``penalties`` (the environments' rewards read it with ``itemgetter``)."""


def encode(action: Action) -> int:
    """The index of an engine action (see the module's table)."""
    t = action.__class__
    if t is Select:
        return action.card - 1  # type: ignore[union-attr]
    if t is TakeRow:
        return TAKE0 + action.row  # type: ignore[union-attr]
    if t is Draft:
        return DRAFT0 + action.card - 1  # type: ignore[union-attr]
    if t is Flip:
        return FLIP
    raise TypeError(f"not a 6 nimmt! action: {action!r}")


def decode(index: int, player: int) -> Action | None:
    """The engine action of ``player`` that ``index`` encodes (``None`` for :data:`WAIT`)."""
    return decode_table(player)[index]


@functools.cache
def decode_table(player: int) -> tuple[Action | None, ...]:
    """Every index's action of ``player``, in index order (``decode(i, p)`` is ``decode_table(p)[i]``)."""
    out: list[Action | None] = [Select(player, c) for c in range(1, MAX_CARD + 1)]
    out += [TakeRow(player, r) for r in range(MAX_ROWS)]
    out += [Draft(player, c) for c in range(1, MAX_CARD + 1)]
    out += [Flip(player), None]
    return tuple(out)


def layout_for(rules: Rules) -> Layout:
    """The observation layout of one configuration (variant, players, options)."""
    n, d, r, c = rules.players, rules.deck[-1], rules.rows, rules.capacity
    top = max(_BH[1 : d + 1])
    score_max = GAME.score_bounds[1]
    slots = [
        Slot("hand", d, 0, 1, "my hand: 1 at c-1 for each card c I hold (kids: all 0, piles are face down)"),
        Slot("my_selection", d, 0, 1, "1 at c-1 for the card c I selected this turn, not yet revealed"),
        Slot(
            "rows",
            r * c,
            0,
            d,
            "the rows, row-major: row r's j-th card at r*C+j, 0 for empty",
            shape=(r, c),
        ),
        Slot("row_bullheads", r, 0, top * c, "bullheads in each row"),
        Slot("pending", n, 0, d, "seat q's revealed card awaiting placement (0: none)"),
        Slot("piles", n * d, 0, 1, "1 at q*D+c-1 if seat q took card c this round", shape=(n, d)),
        Slot("penalties", n, 0, score_max, "bullheads each seat took in the whole game"),
        Slot(
            "hand_sizes",
            n,
            0,
            rules.hand_size,
            "cards in each seat's hand (kids: pile), a hidden selection excluded",
        ),
        Slot("selected", n, 0, 1, "1 if the seat has selected this turn (which card stays hidden)"),
        Slot("to_act", n, 0, 1, "1 if the seat must act now"),
        Slot("seat", n, 0, 1, "one-hot: my seat"),
        Slot("phase", len(PHASES), 0, 1, "one-hot: " + ", ".join(PHASES)),
        Slot("round", 1, 1, GAME.max_game_length, "the round number"),
        Slot("pool", d, 0, 1, "logic draft: 1 at c-1 for each face-up card c (else all 0)"),
        Slot("stock_size", 1, 0, len(rules.deck), "cards neither in hands nor on the table"),
    ]
    if rules.countdown_from is not None:
        slots.append(
            Slot(
                "points_left",
                n,
                rules.countdown_from - score_max,
                rules.countdown_from,
                "countdown: points each seat has left",
            )
        )
    return Layout(tuple(slots))


class Take6Codec:
    """Observation vectors and action masks of one configuration; :func:`codec` caches one per rules.

    >>> from engine.take6 import GAME
    >>> s = GAME.new_game(4, seed=1)
    >>> c = codec(s.rules)
    >>> obs = c.observe(s, 0)
    >>> obs.shape, int(obs[c.layout.offset("round")]), int(c.mask(s, 0).sum())
    ((783,), 1, 10)
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.layout = layout = layout_for(rules)
        self.players = n = rules.players
        self.deck_high = rules.deck[-1]
        self.capacity = rules.capacity
        self.flip = rules.play == "flip"
        self.draft = rules.deal == "draft"
        self.deck_size = len(rules.deck)
        self.countdown = rules.countdown_from
        self.sign = -1 if rules.winner == "lowest" else 1
        """Rewards are ``sign`` times the bullheads taken: minus them where the lowest total wins."""
        o = layout.offset
        self.o_sel, self.o_rows, self.o_rbh = o("my_selection"), o("rows"), o("row_bullheads")
        self.o_pend, self.o_piles, self.o_pen = o("pending"), o("piles"), o("penalties")
        self.o_hs, self.o_selected, self.o_act = o("hand_sizes"), o("selected"), o("to_act")
        self.o_seat, self.o_phase, self.o_round = o("seat"), o("phase"), o("round")
        self.o_pool, self.o_stock = o("pool"), o("stock_size")
        self.o_left = o("points_left") if self.countdown is not None else -1
        self.s_pen = slice(self.o_pen, self.o_pen + n)
        if not self.o_hs + n == self.o_selected == self.o_act - n == self.o_seat - 2 * n:
            raise AssertionError("hand_sizes, selected, to_act and seat must be consecutive")
        self.rows = rules.rows
        if not self.o_rows + rules.rows * rules.capacity == self.o_rbh:
            raise AssertionError("rows and row_bullheads must be consecutive")
        self.s_rows = slice(self.o_rows, self.o_rbh + rules.rows)
        d = self.deck_high
        if not (o("hand"), self.o_sel, self.o_rows, self.o_hs + 4 * n) == (0, d, 2 * d, self.o_phase):
            raise AssertionError("the observer's regions (see Take6Observer) must lie in that order")
        self._no_mask = _frozen(np.zeros(NUM_ACTIONS, np.int8))
        self._wait_mask = _frozen(_mask_of([WAIT]))

    def observe(self, state: State, player: int) -> Any:
        """The observation vector of ``player`` (a new float32 array), from a fresh observer."""
        return Take6Observer(self).observe(state, player)

    def observer(self) -> Take6Observer:
        """A fast observer for one environment (it keeps the public table between steps)."""
        return Take6Observer(self)

    def mask(self, state: State, player: int) -> Any:
        """The action mask (read-only int8 array): 1 exactly at the encodings of the legal actions."""
        return self.mask_of(GAME.legal_actions(state, player))

    def mask_of(self, legal: tuple[Action, ...]) -> Any:
        """The mask of the legal actions ``legal`` (a new read-only int8 array, or the shared empty one)."""
        if not legal:
            return self._no_mask
        flags = bytearray(NUM_ACTIONS)
        if legal[0].__class__ is Select:
            for a in legal:
                flags[a.card - 1] = 1  # type: ignore[union-attr]
        else:
            for a in legal:
                flags[encode(a)] = 1
        return np.frombuffer(bytes(flags), np.int8)  # read-only, as a buffer of bytes is

    def wait_mask(self) -> Any:
        """The mask of an agent with nothing to do in a Parallel step: only :data:`WAIT`."""
        return self._wait_mask


class Take6Observer:
    """Observation vectors and action masks for one environment, the public part kept between steps.

    The regions of a vector (``D`` the deck's highest card, ``n`` seats; :class:`Take6Codec` checks the
    order)::

        0        D              2D                      o_hs                   o_seat   o_phase      size
        | hand   | my_selection | rows, row_bullheads, | hand_sizes, selected, | seat   | phase, round, |
        |        |              | pending, piles,      | to_act                |        | pool, stock,  |
        |        |              | penalties            |                       |        | (points_left) |
        '--- the seat's cards --'------ public --------'------- block ---------'- own --'--- public ---'

    * the public fields are alike for every seat: one table, with the other regions 0, written field by
      field when the state's rows, pending cards, piles, penalties, phase or round change (compared by
      identity first: a transition keeps the fields it does not touch); the rows and their bullheads in
      one write, a pile only its new cards;
    * an observation is a copy of that table with the seat's cards written card by card, the block from
      a cache per (phase, stored hands' sizes, selected flags, to_act), and the seat's one-hot.

    The masks of row choices and flips are cached per legal tuple (the engine keeps one tuple of each);
    :meth:`view` gives observation and mask at once, and a seat still to select gets its hand field and
    its mask from its legal selections in one pass.

    >>> from engine.take6 import GAME
    >>> s = GAME.new_game(3, seed=2)
    >>> c = codec(s.rules)
    >>> o = c.observer()
    >>> expected = observation_from_dict(GAME.observation(s, 1), s.rules)
    >>> bool((o.observe(s, 1) == expected).all()), bool((o.mask(s, 1) == c.mask(s, 1)).all())
    (True, True)
    """

    def __init__(self, codec: Take6Codec) -> None:
        self.codec = codec
        n = codec.players
        self._public: Any = np.zeros(codec.layout.size, np.float32)
        """The public fields of the state whose fields ``_table`` holds; 0 elsewhere."""
        self._table: list[Any] = [None] * 6
        """The state's fields the public table shows: fixed (round, stock), phase, rows, pending, piles,
        penalties (compared by identity, then by value)."""
        self._zeros: Any = np.zeros(max(codec.deck_high, n), np.float32)
        self._held: Any = None
        self._sizes: tuple[int, ...] = ()
        """The sizes of the stored hands ``_held``."""
        self._blocks: dict[tuple[str, tuple[int, ...], tuple[bool, ...], tuple[int, ...]], Any] = {}
        self._masks: dict[int, tuple[Any, Any]] = {}
        self._block = slice(codec.o_hs, codec.o_seat)
        self._o_seat = codec.o_seat
        self._o_sel = codec.o_sel - 1
        self._o_pend = codec.o_pend
        self._o_phase = codec.o_phase
        self._draft = codec.draft
        self._no_piles = ((),) * n
        self._select_hand = not codec.flip

    def observe(self, state: State, player: int) -> Any:
        """The observation vector of ``player`` (a new float32 array; the fields of the module's table)."""
        return self._observe(state, player, True)

    def view(self, state: State, player: int) -> tuple[Any, Any]:
        """``(observe(state, player), mask(state, player))`` in one pass: a seat still to select may
        select any card of its hand (T6-SELECT-1), so its legal selections give both its hand field and
        its mask."""
        legal = GAME.legal_actions(state, player)
        if not legal or legal[0].__class__ is not Select or state[_SELECTED][player]:
            return self._observe(state, player, True), self._mask_of(legal)
        out = self._observe(state, player, False)
        flags = bytearray(NUM_ACTIONS)
        for a in legal:
            i = a.card - 1  # type: ignore[union-attr]
            flags[i] = 1
            out[i] = _ONE
        return out, np.frombuffer(bytes(flags), np.int8)  # read-only, as a buffer of bytes is

    def _observe(self, state: State, player: int, cards: bool) -> Any:
        """The observation vector, the seat's hand field left 0 unless ``cards``."""
        table = self._table
        if (
            state[_ROWS] is not table[2]
            or state[_PENDING] is not table[3]
            or state[_PHASE_AT] is not table[1]
            or state[_FIXED] is not table[0]
            or state[_PILES] is not table[4]
            or state[_PENALTIES] is not table[5]
        ):
            self._update_public(state)
        out = self._public.copy()
        held = state[_HELD]
        phase = state[_PHASE_AT]
        selected = state[_SELECTED]
        if self._select_hand:  # kids: the piles are face down
            if cards:
                for c in held[player]:
                    out[c - 1] = _ONE
            mine = selected[player]
            if mine:
                if phase == "select":  # the stored hand keeps a selected card until the reveal
                    out[mine - 1] = 0.0
                out[self._o_sel + mine] = _ONE
        if held is not self._held:
            self._held = held
            self._sizes = tuple(map(len, held))
        key = (phase, self._sizes, tuple(map(bool, selected)), state[_TO_ACT])
        block = self._blocks.get(key)
        if block is None:
            if len(self._blocks) > 4096:
                self._blocks.clear()
            block = self._blocks[key] = self._block_of(*key)
        out[self._block] = block
        out[self._o_seat + player] = _ONE
        return out

    def _update_public(self, state: State) -> None:
        """Write the public fields that changed since the state the table shows."""
        out = self._public
        table = self._table
        old_fixed, old_phase, old_rows, old_pending, old_piles, old_penalties = table
        fixed, phase, rows, pending = state[_FIXED], state[_PHASE_AT], state[_ROWS], state[_PENDING]
        piles, penalties = state[_PILES], state[_PENALTIES]
        if rows is not old_rows and rows != old_rows:
            self._write_rows(rows)
        if pending is not old_pending and pending != old_pending:
            at = self._o_pend
            for _, q in old_pending or ():
                out[at + q] = 0.0
            for card, q in pending:
                out[at + q] = card
        if piles is not old_piles and piles != old_piles:
            self._write_piles(piles, old_piles or self._no_piles)
        if penalties is not old_penalties and penalties != old_penalties:
            c = self.codec
            out[c.s_pen] = penalties
            if c.countdown is not None:
                out[c.o_left : c.o_left + c.players] = [c.countdown - x for x in penalties]
        if phase != old_phase:
            at = self._o_phase
            if old_phase is not None:
                out[at + _PHASE[old_phase]] = 0.0
            out[at + _PHASE[phase]] = _ONE
            if self._draft:
                self._write_stock(fixed, phase)
        if fixed is not old_fixed and fixed != old_fixed:
            self._write_stock(fixed, phase)
        table[:] = (fixed, phase, rows, pending, piles, penalties)

    def _write_stock(self, fixed: tuple[Any, ...], phase: str) -> None:
        """The round, the stock's size and the logic pool (face up during the draft)."""
        c = self.codec
        out = self._public
        out[c.o_round] = fixed[1]
        if c.draft:
            out[c.o_pool : c.o_pool + c.deck_high] = self._zeros[: c.deck_high]
            stock = fixed[2]
            if phase == "draft":
                for card in stock:
                    out[c.o_pool + card - 1] = _ONE
            out[c.o_stock] = len(stock)
        else:
            # the stock is the deck less every card in play (not stored outside logic); every card dealt
            # stays in play (hand, selection, pending, row or pile) until the round ends
            out[c.o_stock] = c.deck_size - c.rules.cards_dealt

    def _write_rows(self, rows: tuple[tuple[int, ...], ...]) -> None:
        """The rows (R x C, padded with 0) and their bullheads, side by side: one write."""
        codec = self.codec
        cap = codec.capacity
        cells: list[int] = []
        for row in rows:
            cells += row
            cells += _PAD[cap - len(row)]
        cells += _PAD[cap * (codec.rows - len(rows))]  # no rows yet during a logic draft
        heads = _HEADS
        for row in rows:
            h = heads.get(row)
            if h is None:
                if len(heads) > _HEADS_MAX:
                    heads.clear()
                h = heads[row] = sum(map(_BH.__getitem__, row))
            cells.append(h)
        cells += _PAD[codec.rows - len(rows)]
        self._public[codec.s_rows] = cells

    def _write_piles(self, piles: tuple[tuple[int, ...], ...], old: tuple[tuple[int, ...], ...]) -> None:
        """Each seat's cards taken this round: a pile's new cards, or the whole pile when it changed
        otherwise (a new round)."""
        out = self._public
        at = self.codec.o_piles - 1
        d = self.codec.deck_high
        for pile, before in zip(piles, old, strict=True):
            if pile is not before and pile != before:
                k = len(before)
                if pile[:k] != before:
                    for c in before:
                        out[at + c] = 0.0
                    k = 0
                for c in pile[k:]:
                    out[at + c] = _ONE
            at += d

    def _block_of(
        self, phase: str, held: tuple[int, ...], selected: tuple[bool, ...], to_act: tuple[int, ...]
    ) -> Any:
        """hand_sizes, selected and to_act (consecutive) from the stored hands' sizes, which seats have
        selected and the seats to act."""
        sizes = list(held)
        if phase == "select":  # a selected card is still in the stored hand (see State)
            sizes = [size - flag for size, flag in zip(sizes, selected, strict=True)]
        return np.array([*sizes, *selected, *(q in to_act for q in range(self.codec.players))], np.float32)

    def mask(self, state: State, player: int) -> Any:
        """The action mask (read-only int8 array), as :meth:`Take6Codec.mask`."""
        return self._mask_of(GAME.legal_actions(state, player))

    def _mask_of(self, legal: tuple[Action, ...]) -> Any:
        """The mask of ``legal``; the masks of row choices, flips and draft picks are kept per legal tuple
        (the engine keeps one tuple of each seat's row choices and flip), those of selections are built
        (a hand's selections are new each turn)."""
        if legal and legal[0].__class__ is Select:
            return self.codec.mask_of(legal)
        masks = self._masks
        hit = masks.get(id(legal))
        if hit is not None and hit[0] is legal:
            return hit[1]
        mask = self.codec.mask_of(legal)
        if len(masks) > 64:
            masks.clear()
        masks[id(legal)] = (legal, mask)  # the entry keeps ``legal`` alive: its id stays its own
        return mask


def _mask_of(indices: list[int]) -> Any:
    mask: Any = np.zeros(NUM_ACTIONS, np.int8)
    mask[indices] = 1
    return mask


def _frozen(array: Any) -> Any:
    array.flags.writeable = False
    return array


@functools.cache
def codec(rules: Rules) -> Take6Codec:
    """The (cached) codec of a configuration."""
    return Take6Codec(rules)


def observation_from_dict(obs: dict[str, Any], rules: Rules) -> Any:
    """Encode the engine's observation dict (``GAME.observation``) as the vector of the module's table.

    The reference the fast :meth:`Take6Codec.observe` is checked against.
    """
    layout = layout_for(rules)
    out: Any = np.zeros(layout.size, np.float32)
    o = layout.offset
    d, c = rules.deck[-1], rules.capacity
    for card in obs["hand"] or ():
        out[o("hand") + card - 1] = 1
    if obs["my_selection"]:
        out[o("my_selection") + obs["my_selection"] - 1] = 1
    for r, row in enumerate(obs["rows"]):
        for j, card in enumerate(row):
            out[o("rows") + r * c + j] = card
        out[o("row_bullheads") + r] = obs["row_bullheads"][r]
    for card, q in obs["pending"]:
        out[o("pending") + q] = card
    for q, pile in enumerate(obs["piles"]):
        for card in pile:
            out[o("piles") + q * d + card - 1] = 1
    for q in range(rules.players):
        out[o("penalties") + q] = obs["penalties"][q]
        out[o("hand_sizes") + q] = obs["hand_sizes"][q]
        out[o("selected") + q] = obs["selected"][q]
        out[o("to_act") + q] = q in obs["to_act"]
    out[o("seat") + obs["player"]] = 1
    out[o("phase") + PHASES.index(obs["phase"])] = 1
    out[o("round")] = obs["round"]
    for card in obs["pool"] or ():
        out[o("pool") + card - 1] = 1
    out[o("stock_size")] = obs["stock_size"]
    if "points_left" in obs:
        out[layout.where("points_left")] = obs["points_left"]
    return out


def main() -> None:
    """Print the observation table of a configuration: ``python -m engine.envs.take6_codec [variant] [n]``."""
    import sys

    variant = sys.argv[1] if len(sys.argv) > 1 else "standard"
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    print(layout_for(rules_for(variant, players)).table())


if __name__ == "__main__":
    main()
