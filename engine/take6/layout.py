"""The 6 nimmt! state's layout, and the tables the hot path builds states from.

A :class:`~engine.take6.model.State` is a tuple.  The public constructor is
:func:`engine.take6.position.position` (keyword-only, validated); the transitions and the deal build their
successor states with :func:`build` (every field named, unchecked), from this layout; the hot path alone
(a selection recorded in ``Take6.apply_unchecked``, the two successors of ``transitions._place_fast``, the
seeded deal) builds positionally with :data:`new`, in this field order (named fields there cost the
unchecked tier 4-5%)::

    index  field      holds
    -----  ---------  ----------------------------------------------------------------------------
      0    rules      the resolved :class:`~engine.take6.rules.Rules` (variant, players, options)
      1    fixed      (seed, round, stock, start, deals): what a round does not change; stock is
                      None (derived) outside logic; seed None = each round's deal is a chance step
      2    phase      "draft" | "select" | "choose" | "flip" | "deal" | "over"
      3    rows       ((card, ...), ...), each ascending
      4    ends       (card, ...): each row's last card (the hot path's placement reads only these)
      5    pending    ((card, seat), ...): revealed, not yet placed, ascending
      6    piles      ((card, ...), ...): the cards each seat took this round
      7    penalties  (int, ...): bullheads taken in the whole game, this round included
      8    held       ((card, ...), ...): hands, a hidden selection still in them (kids: piles)
      9    selects    ((Select, ...), ...): each hand's prebuilt Select actions (() in kids)
     10    selected   (card or 0, ...): each seat's hidden selection this turn
     11    to_act     (seat, ...): who must act now

    State[1] ─┬─ 0 seed   1 round   2 stock   3 start   4 deals

>>> from engine.take6 import GAME
>>> s = GAME.new_game(2, seed=1)
>>> s[I_PHASE], s[I_FIXED][1], s[I_TO_ACT]
('select', 1, (0, 1))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any

from engine.errors import IllegalSetup
from engine.take6.model import Draft, Flip, Select, State, TakeRow
from engine.take6.rules import BULLHEADS, GAME_INFO, PREBUILT_ROWS, VARIANTS, Rules, rules_for

__all__ = [
    "ALL",
    "DRAFT",
    "DROP",
    "EMPTY",
    "FLIP",
    "F_DEALS",
    "F_ROUND",
    "F_SEED",
    "F_START",
    "F_STOCK",
    "I_ENDS",
    "I_FIXED",
    "I_HELD",
    "I_PENALTIES",
    "I_PENDING",
    "I_PHASE",
    "I_PILES",
    "I_ROWS",
    "I_RULES",
    "I_SELECTED",
    "I_SELECTS",
    "I_TO_ACT",
    "MAXC",
    "MAXP",
    "ONE",
    "TAKE",
    "TAKES",
    "ZEROS",
    "Hands",
    "Selects",
    "build",
    "ends_of",
    "new",
    "replace",
]

(
    I_RULES,
    I_FIXED,
    I_PHASE,
    I_ROWS,
    I_ENDS,
    I_PENDING,
    I_PILES,
    I_PENALTIES,
    I_HELD,
    I_SELECTS,
    I_SELECTED,
    I_TO_ACT,
) = range(12)
F_SEED, F_ROUND, F_STOCK, F_START, F_DEALS = range(5)
"""Positions in field 1, ``fixed``."""

new = tuple.__new__
"""``new(State, (rules, fixed, phase, ...))``: the positional fast construction, unchecked (bound once: a
``tuple.__new__`` attribute lookup at each call costs the hot path about 0.2 µs)."""

MAXP = GAME_INFO.max_players
MAXC = len(BULLHEADS) - 1
ALL = tuple(tuple(range(n)) for n in range(MAXP + 1))
ZEROS = tuple((0,) * n for n in range(MAXP + 1))
EMPTY = tuple(((),) * n for n in range(MAXP + 1))
# Interned actions (model.SELECTS[p][c] is Select(p, c): a state keeps each hand's selections prebuilt).
DRAFT = tuple(tuple(Draft(p, c) for c in range(MAXC + 1)) for p in range(MAXP))
TAKE = tuple(tuple(TakeRow(p, r) for r in range(PREBUILT_ROWS)) for p in range(MAXP))
"""TAKE[p][r] is TakeRow(p, r): PREBUILT_ROWS per seat, a bound the set-up table is checked against."""
TAKES = tuple(tuple(TAKE[p][:rows] for p in range(MAXP)) for rows in range(len(TAKE[0]) + 1))
FLIP = tuple((Flip(p),) for p in range(MAXP))
ONE = tuple((c,) for c in range(MAXC + 1))  # a row of one card, interned
Hands = tuple[tuple[int, ...], ...]
Selects = tuple[tuple[Select, ...], ...]


def ends_of(rows: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    """Each row's last card (field 4).

    >>> ends_of(((3, 9), (20,)))
    (9, 20)
    """
    return tuple([row[-1] for row in rows])


def _dropper(length: int, i: int) -> Callable[[tuple[Any, ...]], tuple[Any, ...]]:
    """An ``itemgetter`` returning a tuple of ``length`` items without its item ``i`` (one C call)."""
    keep = [k for k in range(length) if k != i]
    if len(keep) > 1:
        return itemgetter(*keep)
    if keep:  # one item left: a slice keeps it a tuple
        return itemgetter(slice(keep[0], keep[0] + 1))
    return itemgetter(slice(0, 0))


def _hand_size_bound() -> int:
    """The largest hand of any variant and player count (the tables fix it)."""
    sizes = []
    for variant in VARIANTS:
        for n in range(GAME_INFO.min_players, MAXP + 1):
            try:
                sizes.append(rules_for(variant, n).hand_size)
            except IllegalSetup:
                continue
    return max(sizes)


# DROP[length][i] drops item i from a tuple of that length (a hand, at the reveal)
DROP = tuple(tuple(_dropper(length, i) for i in range(length)) for length in range(_hand_size_bound() + 1))
"""DROP[length][i] drops item i from a tuple of that length (a hand, at the reveal)."""


Rows = tuple[tuple[int, ...], ...]
Fixed = tuple[Any, ...]


def build(
    *,
    rules: Rules,
    fixed: Fixed,
    phase: str,
    rows: Rows,
    ends: tuple[int, ...],
    pending: tuple[tuple[int, int], ...],
    piles: Rows,
    penalties: tuple[int, ...],
    held: Hands,
    selects: Selects,
    selected: tuple[int, ...],
    to_act: tuple[int, ...],
) -> State:
    """A successor state, every field named (unchecked: the transitions keep the invariants).

    >>> from engine.take6 import GAME
    >>> s = GAME.new_game(2, seed=1)
    >>> t = build(rules=s.rules, fixed=s[I_FIXED], phase="over", rows=s.rows, ends=s[I_ENDS], pending=(),
    ...           piles=s.piles, penalties=s.penalties, held=s[I_HELD], selects=s[I_SELECTS],
    ...           selected=s.selected, to_act=())
    >>> t.phase, t.rows == s.rows
    ('over', True)
    """
    return new(
        State, (rules, fixed, phase, rows, ends, pending, piles, penalties, held, selects, selected, to_act)
    )


def replace(s: State, **changes: Any) -> State:
    """``s`` with the named layout fields replaced (a cold-path helper: tools and tests, not transitions).

    >>> from engine.take6 import GAME
    >>> s = GAME.new_game(2, seed=1)
    >>> replace(s, phase="over", to_act=()).phase
    'over'
    """
    names = (
        "rules",
        "fixed",
        "phase",
        "rows",
        "ends",
        "pending",
        "piles",
        "penalties",
        "held",
        "selects",
        "selected",
        "to_act",
    )
    unknown = set(changes) - set(names)
    if unknown:
        raise TypeError(f"no layout field {sorted(unknown)[0]!r}")
    return build(**{name: changes.get(name, value) for name, value in zip(names, s, strict=True)})
