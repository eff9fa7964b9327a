"""Readable text about 6 nimmt! positions and steps: placements, round scores, standings, the position.

The transitions append these lines to a log when one is given (``GAME.narrate`` re-runs the transition with
a log), so the story told is the transition the engine made.

>>> from engine.take6 import GAME
>>> describe_state(GAME.new_game(2, seed=1))[0]
'Round 1, turn 1, select: waiting for P0, P1.'
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.take6.model import State
from engine.take6.notation import to_notation
from engine.take6.placement import Placement
from engine.take6.rules import Rules
from engine.take6.scoring import bullheads_of, result_of

__all__ = ["card_names", "describe_placement", "describe_state", "end_clause", "plural", "shown", "standings"]

_bullheads_of = bullheads_of
_result = result_of


def card_names(cards: Sequence[int]) -> str:
    """Cards as text, separated by spaces."""
    return " ".join(str(c) for c in cards)


_names = card_names


def plural(n: int, word: str) -> str:
    """``1 bullhead``, ``2 bullheads``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


_plural = plural


def shown(rules: Rules, penalty: int) -> str:
    """A total as the variant shows it (countdown: points left, T6-COUNT-1)."""
    if rules.countdown_from is not None:
        return str(rules.countdown_from - penalty)
    return str(penalty)


def describe_placement(p: int, pl: Placement, rows: Sequence[tuple[int, ...]]) -> str:
    """Where a card goes and why, with the clauses."""
    cited = ", ".join(pl.clauses)
    if pl.row is None:
        return f"  P{p}'s {pl.card} fits no row: P{p} must choose a row to take [{cited}]."
    row = rows[pl.row]
    where = "after" if pl.side == "end" else "before"
    neighbour = row[-1] if pl.side == "end" else row[0]
    text = f"  P{p}'s {pl.card} goes {where} {neighbour} in row {pl.row}"
    if len(pl.candidates) > 1:
        others = ", ".join(f"{c.neighbour} (+{c.difference})" for c in pl.candidates)
        text += f", the closest of {others}"
    if pl.sixth:
        text += (
            f"; as the row's 6th card it takes {_names(row)} ({_plural(_bullheads_of(row), 'bullhead')}) "
            f"for P{p}, and {pl.card} starts row {pl.row}"
        )
    return text + f" [{cited}]."


def standings(s: State, rules: Rules) -> list[str]:
    """The final standings, with the winners' clauses."""
    res = _result(s, rules)
    unit = "points left" if rules.display == "countdown" else "bullheads"
    lines = [f"Game over after round {s.round} ({end_clause(rules)})."]
    for place, p in enumerate(res.ranking, start=1):
        lines.append(f"  {place}. P{p}: {shown(rules, s.penalties[p])} {unit}")
    win = " and ".join(f"P{p}" for p in res.winners)
    rule = "T6-KIDS-4" if rules.winner == "highest" else "T6-END-2"
    if len(res.winners) > 1:
        lines.append(f"Winners: {win}, tied, share the win [{rule}, T6-END-3].")
    else:
        lines.append(f"Winner: {win} [{rule}].")
    return lines


def end_clause(rules: Rules) -> str:
    """Why the game ended, with the clause."""
    if rules.countdown_from is not None:
        return "someone is out of points [T6-END-1, T6-COUNT-1]"
    if rules.end == "threshold":
        return f"a total reached {rules.threshold} bullheads [T6-END-1]"
    return "every pile is played out [T6-KIDS-3]"


def describe_state(state: State) -> tuple[str, ...]:
    """The public position: round, turn and phase, who must act, the rows with their bullheads, the totals,
    and the position's notation line."""
    rules = state.rules
    waiting = ", ".join(f"P{p}" for p in state.to_act) or "nobody"
    turn = f", turn {state.turn}" if state.turn else ""
    lines = [f"Round {state.round}{turn}, {state.phase}: waiting for {waiting}."]
    if state.phase == "deal":
        lines[0] = f"Round {state.round} waits for its deal (a chance step) [T6-SETUP-4]."
    if state.chooser is not None:
        lines.append(f"  P{state.chooser} must choose a row to take for {state.pending[0][0]} [T6-PLACE-3].")
    if state.phase == "draft":
        lines.append(f"  Face-up pool: {card_names(state.stock)}")
    for i, r in enumerate(state.rows):
        lines.append(f"  Row {i}: {card_names(r):<20} ({plural(bullheads_of(r), 'bullhead')})")
    label = "Points left" if rules.display == "countdown" else "Bullheads taken"
    lines.append(f"  {label}: " + ", ".join(f"P{p} {shown(rules, x)}" for p, x in enumerate(state.penalties)))
    lines.append(f"  Position: {to_notation(state)}")
    return tuple(lines)
