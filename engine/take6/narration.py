"""Readable text about 6 nimmt! positions and steps: the notes of a step's derivation, and the position.

The transitions record each step's derivation (:mod:`engine.derivation`) when given a trace; the notes of
its steps are worded here (a placement, a row taken, the reveal, round scores ...), and ``GAME.narrate``
renders the derivation, one line per noted step with its clause, so the story told is the transition the
engine made.

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
from engine.take6.scoring import bullheads_of, shown

__all__ = [
    "card_names",
    "describe_state",
    "drafted_note",
    "flip_note",
    "placement_note",
    "plural",
    "reveal_note",
    "round_note",
    "sixth_note",
]


def card_names(cards: Sequence[int]) -> str:
    """Cards as text, separated by spaces."""
    return " ".join(str(c) for c in cards)


def plural(n: int, word: str) -> str:
    """``1 bullhead``, ``2 bullheads``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def placement_note(p: int, pl: Placement, rows: Sequence[tuple[int, ...]]) -> str:
    """Where a card goes, next to which card, and among which candidates (or that it fits no row).

    >>> from engine.take6.placement import place
    >>> placement_note(0, place(((12, 14, 19), (30,)), 33), ((12, 14, 19), (30,)))
    "P0's 33 goes after 30 in row 1, the closest of 19 (+14), 30 (+3)"
    """
    if pl.row is None:
        return f"P{p}'s {pl.card} fits no row: P{p} must choose a row to take"
    row = rows[pl.row]
    where = "after" if pl.side == "end" else "before"
    neighbour = row[-1] if pl.side == "end" else row[0]
    text = f"P{p}'s {pl.card} goes {where} {neighbour} in row {pl.row}"
    if len(pl.candidates) > 1:
        text += ", the closest of " + ", ".join(f"{c.neighbour} (+{c.difference})" for c in pl.candidates)
    return text


def sixth_note(p: int, pl: Placement, row: tuple[int, ...]) -> str:
    """A 6th card taking its row."""
    return (
        f"as the row's 6th card it takes {card_names(row)} ({plural(bullheads_of(row), 'bullhead')}) "
        f"for P{p}, and {pl.card} starts row {pl.row}"
    )


def reveal_note(p: int, pending: Sequence[tuple[int, int]]) -> str:
    """The last selection: every card revealed."""
    return f"P{p} selects a card. All revealed: " + ", ".join(
        f"P{q} {c}" for c, q in pending
    )


def round_note(rules: Rules, rnd: int, piles: Sequence[tuple[int, ...]], penalties: Sequence[int]) -> str:
    """A round's scores: each seat's bullheads of the round and its total (countdown: points left)."""
    sign = "-" if rules.display == "countdown" else "+"
    parts = [f"P{p} {sign}{bullheads_of(piles[p])} = {shown(rules, penalties[p])}" for p in range(len(piles))]
    unit = "points left" if rules.display == "countdown" else "bullheads"
    return f"Round {rnd} ends ({unit}): {', '.join(parts)}"


def drafted_note(p: int, card: int) -> str:
    """A logic draft pick."""
    return f"P{p} drafts {card}"


def flip_note(p: int, card: int) -> str:
    """A kids flip."""
    return f"P{p} flips {card}"


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
