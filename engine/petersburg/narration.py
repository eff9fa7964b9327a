"""Readable text about Saint Petersburg positions and steps: the public position, each step rendered from
its derivation, the final standings.

>>> from engine.petersburg import GAME
>>> describe_state(GAME.new_game(2, seed=1))[0]
'Round 1, worker phase: P0 to act, 0 consecutive pass(es)'
"""

from __future__ import annotations

from typing import Any

from engine.derivation import Trace, render
from engine.petersburg import scoring
from engine.petersburg.catalog import STACKS
from engine.petersburg.checks import check
from engine.petersburg.legal import to_act
from engine.petersburg.model import PHASE_NAMES, State
from engine.petersburg.notation import to_notation
from engine.petersburg.transitions import transition

__all__ = ["describe_state", "narrate", "standings"]

_DECISION = {
    "pub": ", Pub decisions [SP-PUB-2]",
    "observatory": ", a card drawn by the Observatory [SP-OBS-4]",
    "reveal": ", a card drawn from a stack of unknown order awaits its reveal [SP-REVEAL-1]",
}


def describe_state(state: State) -> tuple[str, ...]:
    """Readable public position: round, phase, rows, stacks, each seat's VP, hand size and area, and the
    position's notation line."""
    rs = state.rules
    names = rs.names
    if state.over:
        head = f"Game over after round {state.round}"
    else:
        last = " (last round)" if state.last_round else ""
        decision = _DECISION.get(state.phase, "")
        head = (
            f"Round {state.round}{last}, {PHASE_NAMES[state.phase_index]} phase{decision}: "
            f"{_acting(state)} to act, "
            f"{state.passes} consecutive pass(es)"
        )
    lines = [
        head,
        "Upper row: " + (", ".join(state.cards("upper")) or "-"),
        "Lower row: " + (", ".join(names[k] for k in state.lower) or "-"),
        "Stacks: " + ", ".join(f"{st} {len(state.stacks[i])}" for i, st in enumerate(STACKS)),
    ]
    for p in range(state.players):
        area = _count(names, state.areas[p])
        money = f", {state.money[p]} R" if state.over else ""
        lines.append(f"P{p}: {state.vp[p]} VP{money}, {len(state.hands[p])} in hand; area: {area or '-'}")
    if state.over:
        lines.extend(standings(state))
    lines.append(f"Position: {to_notation(state)}")
    return tuple(lines)


def _acting(state: State) -> str:
    seats = to_act(state)
    return f"P{seats[0]}" if seats else "chance (a reveal)"


def narrate(before: State, action: Any, after: State) -> tuple[str, ...]:
    """Readable lines of one step: its derivation rendered (:meth:`GAME.derive`: the transition records it
    when given a trace): the action with its cost, each reduction and the minimum, then scorings, Pub
    purchases, refills, phase and round changes, the final scoring and the result.  ``after`` is not read:
    the derivation re-runs the transition."""
    trace = Trace()
    transition(before, check(before, action), trace)
    return render(trace.steps)


def _count(names: tuple[str, ...], cards: tuple[int, ...]) -> str:
    out = []
    for k in dict.fromkeys(cards):
        n = cards.count(k)
        out.append(f"{names[k]} x{n}" if n > 1 else names[k])
    return ", ".join(out)


def standings(state: State) -> list[str]:
    """The final standings (VP, then roubles), with the clauses."""
    ranking, winners = scoring.standings(state)
    lines = ["Final standings (VP, then roubles) [SP-END-8]:"]
    for place, p in enumerate(ranking, start=1):
        mark = " (winner)" if p in winners else ""
        lines.append(f"  {place}. P{p}: {state.vp[p]} VP, {state.money[p]} R{mark}")
    if len(winners) > 1:
        lines.append(f"  shared win: {', '.join(f'P{p}' for p in winners)} [SP-END-9]")
    return lines


# ============================================================================================ JSON parsing
