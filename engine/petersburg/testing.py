"""Building positions for examples and tests: :func:`arrange` places named cards and keeps every card of
the catalog in exactly one place (cards it frees or does not need go to the discard pile).

>>> from engine.petersburg import GAME
>>> from engine.petersburg.testing import arrange
>>> s = arrange(GAME.new_game(2, seed=1), areas={0: ["Market", "Market"]}, upper=["Market"], turn=0)
>>> [s.rules.names[k] for k in s.areas[0]], s.rules.names[s.upper[0]]
(['Market', 'Market'], 'Market')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from engine.petersburg.catalog import PHASES, STACKS, resolve_card
from engine.petersburg.model import State

__all__ = ["arrange", "card_count", "kinds", "names"]


def kinds(state: State, cards: Sequence[str]) -> tuple[int, ...]:
    """Card names (any edition or alias) -> kinds; an unknown name raises ValueError."""
    out = []
    for name in cards:
        k = resolve_card(name)
        if k is None:
            raise ValueError(f"unknown card {name!r}")
        out.append(k)
    return tuple(out)


def names(state: State, cards: Sequence[int]) -> list[str]:
    """Kinds -> the edition's card names."""
    return [state.rules.names[k] for k in cards]


def card_count(state: State) -> Counter[int]:
    """How many cards of each kind the state holds, over every place (stacks, rows, hands, areas, discard,
    the Observatory's drawn card)."""
    c: Counter[int] = Counter()
    for place in (*state.stacks, state.upper, state.lower, state.discard, *state.hands, *state.areas):
        c.update(place)
    if state.drawn >= 0:
        c[state.drawn] += 1
    return c


def arrange(
    state: State,
    *,
    areas: Mapping[int, Sequence[str]] | None = None,
    hands: Mapping[int, Sequence[str]] | None = None,
    upper: Sequence[str] | None = None,
    lower: Sequence[str] | None = None,
    stacks: Mapping[str, Sequence[str]] | None = None,
    money: Mapping[int, int] | None = None,
    vp: Mapping[int, int] | None = None,
    turned: Mapping[int, Sequence[str]] | None = None,
    phase: str | None = None,
    turn: int | None = None,
    markers: Sequence[int] | None = None,
    **fields: Any,
) -> State:
    """A copy of ``state`` with the named cards placed; the rest keep their place while available, and the
    cards left over go to the discard pile.  Other ``fields`` are replaced as given (e.g. ``last_round``)."""
    rs = state.rules
    pool: Counter[int] = Counter({c.index: c.copies for c in rs.cards})

    def take(cards: Sequence[int], strict: bool) -> tuple[int, ...]:
        kept = []
        for k in cards:
            if pool[k] > 0:
                pool[k] -= 1
                kept.append(k)
            elif strict:
                raise ValueError(f"no {rs.names[k]} left to place")
        return tuple(kept)

    new_areas = list(state.areas)
    new_hands = list(state.hands)
    for seat, cards in (areas or {}).items():
        new_areas[seat] = tuple(sorted(take(kinds(state, cards), True)))
    for seat, cards in (hands or {}).items():
        new_hands[seat] = tuple(sorted(take(kinds(state, cards), True)))
    new_upper = take(kinds(state, upper), True) if upper is not None else None
    new_lower = take(kinds(state, lower), True) if lower is not None else None
    new_stacks: list[tuple[int, ...] | None] = [None] * len(STACKS)
    for name, cards in (stacks or {}).items():
        new_stacks[STACKS.index(name)] = take(kinds(state, cards), True)
    drawn = state.drawn
    if drawn >= 0 and not take((drawn,), False):
        drawn = -1
    for seat in range(state.players):
        if areas is None or seat not in areas:
            new_areas[seat] = take(state.areas[seat], False)
        if hands is None or seat not in hands:
            new_hands[seat] = take(state.hands[seat], False)
    if new_upper is None:
        new_upper = take(state.upper, False)
    if new_lower is None:
        new_lower = take(state.lower, False)
    for i in range(len(STACKS)):
        if new_stacks[i] is None:
            new_stacks[i] = take(state.stacks[i], False)
    discard = take(state.discard, False)
    discard += tuple(k for k in sorted(pool.elements()))
    out = state._replace(
        areas=tuple(new_areas),
        hands=tuple(new_hands),
        upper=new_upper,
        lower=new_lower,
        stacks=tuple(s for s in new_stacks if s is not None),
        discard=discard,
        drawn=drawn,
    )
    if money:
        out = out._replace(money=tuple(money.get(p, m) for p, m in enumerate(out.money)))
    if vp:
        out = out._replace(vp=tuple(vp.get(p, v) for p, v in enumerate(out.vp)))
    if turned:
        out = out._replace(
            turned=tuple(
                tuple(sorted(kinds(state, turned[p]))) if p in turned else t for p, t in enumerate(out.turned)
            )
        )
    if phase is not None:
        out = out._replace(phase_index=[p.name for p in PHASES].index(phase))
    if turn is not None:
        out = out._replace(turn=turn)
    if markers is not None:
        out = out._replace(markers=tuple(markers))
    if fields:
        out = out._replace(**fields)
    return out
