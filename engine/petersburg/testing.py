"""Changing positions for examples and tests: :func:`arrange` places named cards in a copy of a state and
builds it with the position builder (cards it frees from their places go to the box, out of the game).

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

from engine.petersburg.catalog import PHASES, STACKS
from engine.petersburg.model import State
from engine.petersburg.names import resolve_card
from engine.petersburg.position import position

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
    discard: Sequence[str] | None = None,
    money: Mapping[int, int] | None = None,
    vp: Mapping[int, int] | None = None,
    turned: Mapping[int, Sequence[str]] | None = None,
    phase: str | None = None,
    turn: int | None = None,
    markers: Sequence[int] | None = None,
    **fields: Any,
) -> State:
    """A copy of ``state`` with the named cards placed, built by :func:`engine.petersburg.position` (so
    validated): every place not named keeps the cards it had while copies are left; the cards a named
    place takes from elsewhere leave there, and nothing goes to the discard pile unless named (``discard``).
    ``phase`` is a phase name (``worker`` ... ``trading``, ``pub``, ``observatory``, ``over``); other
    ``fields`` (``passes``, ``round``, ``drawn``, ``pub_queue``, ``last_round``) are given as to the builder
    (``drawn`` as a card name)."""
    rs = state.rules
    pool: Counter[int] = Counter({c.index: c.copies for c in rs.cards})

    def named(cards: Sequence[str]) -> tuple[int, ...]:
        out = kinds(state, cards)
        for k in out:
            if pool[k] <= 0:
                raise ValueError(f"no {rs.names[k]} left to place")
            pool[k] -= 1
        return out

    def kept(cards: Sequence[int]) -> list[str]:
        out = []
        for k in cards:
            if pool[k] > 0:
                pool[k] -= 1
                out.append(rs.names[k])
        return out

    new_areas = {p: named(c) for p, c in (areas or {}).items()}
    new_hands = {p: named(c) for p, c in (hands or {}).items()}
    new_upper = named(upper) if upper is not None else None
    new_lower = named(lower) if lower is not None else None
    new_stacks = {name: named(cards) for name, cards in (stacks or {}).items()}
    new_discard = named(discard) if discard is not None else None
    drawn = fields.pop("drawn", rs.names[state.drawn] if state.drawn >= 0 else None)
    if drawn is not None and not kept(kinds(state, [drawn])):
        drawn = None
    area_names = [names(state, new_areas[p]) if p in new_areas else [] for p in range(state.players)]
    hand_names = [names(state, new_hands[p]) if p in new_hands else [] for p in range(state.players)]
    for p in range(state.players):
        if p not in new_areas:
            area_names[p] = kept(state.areas[p])
        if p not in new_hands:
            hand_names[p] = kept(state.hands[p])
    rows: dict[str, Any] = {
        "upper": names(state, new_upper) if new_upper is not None else kept(state.upper),
        "lower": names(state, new_lower) if new_lower is not None else kept(state.lower),
    }
    stack_names = {
        name: names(state, new_stacks[name]) if name in new_stacks else kept(state.stacks[i])
        for i, name in enumerate(STACKS)
    }
    discard_names = names(state, new_discard) if new_discard is not None else kept(state.discard)
    turned_t = {
        p: list(turned[p]) if turned and p in turned else names(state, t) for p, t in enumerate(state.turned)
    }
    return position(
        players=state.players,
        variant=rs.variant,
        options=dict(rs.options),
        round=fields.pop("round", state.round),
        phase=phase if phase is not None else _phase(state, drawn),
        turn=state.turn if turn is None else turn,
        passes=fields.pop("passes", state.passes),
        markers=state.markers if markers is None else markers,
        stacks=stack_names,
        discard=discard_names,
        money=[(money or {}).get(p, m) for p, m in enumerate(state.money)],
        vp=[(vp or {}).get(p, v) for p, v in enumerate(state.vp)],
        hands=hand_names,
        areas=area_names,
        turned=[turned_t[p] for p in range(state.players)],
        drawn=drawn,
        pub_queue=fields.pop("pub_queue", state.pub_queue),
        last_round=fields.pop("last_round", state.last_round),
        **rows,
        **fields,
    )


def _phase(state: State, drawn: str | None) -> str:
    if state.phase == "observatory" and drawn is None:
        return PHASES[state.phase_index].name
    return state.phase
