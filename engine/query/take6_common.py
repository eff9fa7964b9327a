"""What the 6 nimmt! questions and the turn resolver share: the engine's rules and placement, card and row
checks, and the placement steps an answer shows.

>>> bullhead_rule(55)
(7, 'T6-BULL-1')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.errors import IllegalSetup, InputError
from engine.query.model import Step

__all__ = [
    "GAME",
    "_check_card",
    "_check_rows",
    "_parse_options",
    "_place",
    "_row_table",
    "_rules_for",
    "_rules_module",
    "bullhead_rule",
    "chosen_option",
    "derivation_steps",
    "placement_steps",
    "placement_value",
]


GAME = "take6"


def _rules_module() -> Any:
    from engine.take6 import rules

    return rules


def _place(rows: Sequence[Sequence[int]], card: int, variant: str | None, options: Mapping[str, Any]) -> Any:
    from engine.take6.placement import place

    return place(rows, card, variant, options)


def _parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    from engine.play import parse_options

    return parse_options(list(pairs))


def _rules_for(variant: str | None, players: int, options: Mapping[str, Any]) -> Any:
    try:
        return _rules_module().rules_for(variant, players, options)
    except IllegalSetup as exc:
        field = "--variant" if exc.clause == "T6-VAR-1" and "variant" in exc.message else "--option"
        if exc.clause == "T6-SETUP-1":
            field = "players"
        raise InputError(field, str(exc)) from None


def bullhead_rule(card: int) -> tuple[int, str]:
    """The bullheads of ``card`` and the clause of the table row that decides them (the engine's own
    evaluation of ``spec/take6/bullheads.toml``: :data:`engine.take6.rules.BULLHEAD_CLAUSE`).

    >>> bullhead_rule(55), bullhead_rule(66), bullhead_rule(70), bullhead_rule(65), bullhead_rule(64)
    ((7, 'T6-BULL-1'), (5, 'T6-BULL-2'), (3, 'T6-BULL-3'), (2, 'T6-BULL-4'), (1, 'T6-BULL-5'))
    """
    rules = _rules_module()
    return rules.bullheads(card), str(rules.BULLHEAD_CLAUSE[card])


def derivation_steps(derivation: Sequence[Any]) -> list[Step]:
    """An answer's steps from an engine derivation (:class:`engine.derivation.Step` trees): each noted
    step with its clause, and each card's bullheads (a leaf without a note) with its table rule.

    >>> from engine.derivation import Step as D
    >>> bull = D("T6-BULL-1", "bullheads", {"card": 55, "heads": 7})
    >>> [s.clause for s in derivation_steps([D("T6-PILE-1", "taken", note="P0 takes 55", steps=(bull,))])]
    ['T6-PILE-1', 'T6-BULL-1']
    """
    out: list[Step] = []
    for root in derivation:
        for d in root.walk():
            if d.note:
                out.append(Step.from_derivation(d))
            elif d.says == "bullheads" and "card" in d.data:
                heads = d.data["heads"]
                unit = "bullhead" if heads == 1 else "bullheads"
                out.append(Step.from_derivation(d, f"card {d.data['card']}: {heads} {unit}", heads))
    return out


def _check_card(card: int, field: str = "card") -> int:
    rules = _rules_module()
    top = len(rules.BULLHEADS) - 1
    if not 1 <= card <= top:
        raise InputError(field, f"a 6 nimmt! card is a number from 1 to {top}, got {card}")
    return card


def _check_rows(rows: Sequence[Sequence[int]], card: int | None, capacity: int) -> list[list[int]]:
    seen: set[int] = set()
    out = []
    for i, row in enumerate(rows):
        if not row:
            raise InputError(f"rows[{i}]", "a row holds at least one card")
        if len(row) > capacity:
            raise InputError(f"rows[{i}]", f"a row holds at most {capacity} cards, got {len(row)}")
        for c in row:
            _check_card(c, f"rows[{i}]")
            if c in seen:
                raise InputError(f"rows[{i}]", f"card {c} appears twice on the table")
            seen.add(c)
        if list(row) != sorted(row):
            raise InputError(f"rows[{i}]", f"a row's cards ascend from its first card, got {list(row)}")
        out.append(list(row))
    if card is not None and card in seen:
        raise InputError("card", f"card {card} is already on the table")
    return out


def _row_table(rows: Sequence[Sequence[int]], placement: Any) -> list[list[str]]:
    by_row = {c.row: c for c in placement.candidates}
    out = []
    for i, row in enumerate(rows):
        cand = by_row.get(i)
        if cand is None:
            fit = "—"
        else:
            where = "after" if cand.side == "end" else "before"
            fit = f"{where} {cand.neighbour}: difference {cand.difference}"
            if placement.row == i:
                fit += "  ← chosen"
        heads = sum(_rules_module().bullheads(c) for c in row)
        out.append([str(i), " ".join(map(str, row)), f"{len(row)}", str(heads), fit])
    return out


def chosen_option(clause: str, options: Mapping[str, Any]) -> str | None:
    """``NAME=VALUE`` when ``options`` set the option of ruling ``clause`` (the options table's row naming
    it) to a value other than its default: the step applying ``clause`` then reads it the other way.

    >>> chosen_option("T6-PRO-3", {"professional_tie": "start"}), chosen_option("T6-PRO-3", {})
    ('professional_tie=start', None)
    """
    for spec in _rules_module().OPTIONS.values():
        value = options.get(spec.name, spec.default)
        if spec.clause == clause and value != spec.default:
            return f"{spec.name}={value}"
    return None


def placement_steps(rows: Sequence[Sequence[int]], placement: Any, capacity: int,
                    game_options: Mapping[str, Any] | None = None) -> list[Step]:
    """The clause chain of a placement, one step per clause the placement function named (``game_options``:
    the game's, so a ruling read the other way by one is marked)."""
    steps: list[Step] = []
    card = placement.card
    rules = _rules_module()
    if placement.row is None:
        heads = [sum(rules.bullheads(c) for c in r) for r in rows]
        options = ", ".join(f"row {i} ({h} bullheads)" for i, h in enumerate(heads))
        for clause in placement.clauses:
            steps.append(
                Step.of(
                    clause,
                    f"{card} is lower than every row's last card"
                    + (" and higher than every row's first card" if clause == "T6-PRO-5" else "")
                    + f": its player chooses a row to take — {options}",
                )
            )
        steps.append(Step.of("T6-PILE-1", "the taken cards go to the player's penalty pile"))
        return steps
    chosen = next(c for c in placement.candidates if c.row == placement.row and c.side == placement.side)
    others = [c for c in placement.candidates if c is not chosen]
    where = "after the end" if chosen.side == "end" else "before the start"
    for clause in placement.clauses:
        if clause in ("T6-PLACE-1", "T6-PRO-1"):
            rivals = "; ".join(f"row {c.row} {c.side} {c.neighbour}: {c.difference}" for c in others)
            tail = f"; others: {rivals})" if rivals else ", the only candidate)"
            detail = (
                f"{card} goes {where} {chosen.neighbour} of row {chosen.row} "
                f"(difference {chosen.difference}{tail}"
            )
            steps.append(Step.of(clause, detail, placement.row))
        elif clause == "T6-PRO-2":
            steps.append(Step.of(clause, "only a row's first or last card counts, never a gap inside it"))
        elif clause == "T6-PRO-3":
            steps.append(Step.of(clause, f"a tie at difference {chosen.difference}: the {chosen.side} wins",
                                 chosen=chosen_option(clause, game_options or {})))
        elif clause in ("T6-PLACE-2", "T6-PRO-4"):
            taken = list(rows[placement.row])
            heads = sum(rules.bullheads(c) for c in taken)
            steps.append(
                Step.of(
                    clause,
                    f"row {placement.row} already holds {len(taken)} cards (capacity "
                    f"{capacity}): {card} is its 6th card — its player takes {taken} "
                    f"({heads} bullheads) and {card} starts the row",
                    heads,
                )
            )
            steps.append(Step.of("T6-PILE-1", "the taken cards go to the player's penalty pile"))
        else:
            steps.append(Step.of(clause, "applies"))
    return steps


def placement_value(rows: Sequence[Sequence[int]], placement: Any) -> dict[str, Any]:
    """The machine form of a placement: row, side, 6th card, cards taken and their bullheads, candidates."""
    rules = _rules_module()
    taken = list(rows[placement.row]) if placement.sixth and placement.row is not None else []
    return {
        "card": placement.card,
        "fits": placement.row is not None,
        "row": placement.row,
        "side": placement.side,
        "sixth": placement.sixth,
        "takes": taken,
        "penalty": sum(rules.bullheads(c) for c in taken),
        "candidates": [
            {"row": c.row, "side": c.side, "neighbour": c.neighbour, "difference": c.difference}
            for c in placement.candidates
        ],
        "clauses": list(placement.clauses),
    }
