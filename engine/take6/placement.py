"""Where a card goes: the pure placement function the engine resolves every card with.

A row is a tuple of ascending cards; the table is a tuple of rows, numbered from 0::

    row 0:  12  14  19          a card goes after the row END that is the highest one below it (T6-PLACE-1);
    row 1:  30                  in professional also before the row START that is the lowest one above it
    row 2:  29  41  52  60  71  (T6-PRO-1); the smallest difference over all candidates wins, an end
    row 3:  88                  beating a start on a tie (T6-PRO-3).

    place 33:  candidates  row 0 end 19 (14)  row 1 end 30 (3)  row 2 end 71? no, 71 > 33
               -> after 30 in row 1 (not after 29: 29 is not a row's last card)
    place 72:  row 2 end 71 (1) -> row 2 holds 5 cards: 72 is its 6th card; the player takes the five
               and 72 starts row 2 (T6-PLACE-2)
    place 10:  no row end below 10 -> fits nowhere: the player chooses a row to take (T6-PLACE-3)

:func:`place` explains a placement (every candidate with its difference, the chosen row and side, whether it
is a 6th card, or that the card fits nowhere) together with the clause ids that decided.  The engine itself
calls :func:`locate`, the same computation, so an explanation cannot disagree with the engine.

>>> p = place(((12, 14, 19), (30,), (29, 41, 52, 60, 71), (88,)), 33)
>>> p.row, p.side, p.sixth, p.clauses
(1, 'end', False, ('T6-PLACE-1',))
>>> [(c.row, c.neighbour, c.difference) for c in p.candidates]
[(0, 19, 14), (1, 30, 3)]
>>> place(((12, 14, 19), (30,), (29, 41, 52, 60, 71), (88,)), 72).sixth
True
>>> place(((12, 14, 19), (30,), (29, 41, 52, 60, 71), (88,)), 10).fits
False
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from attrs import frozen

from engine.take6.rules import GAME_INFO, rules_for

__all__ = ["Candidate", "Placement", "fast_end_row", "locate", "place", "search_clause"]

END = "end"
START = "start"


@frozen
class Candidate:
    """A place a card could go: after the end or before the start (``side``) of ``row``, next to
    ``neighbour``, at ``difference`` from it."""

    row: int
    side: str
    neighbour: int
    difference: int


@frozen
class Placement:
    """The outcome of placing ``card``: the candidates considered, the chosen ``row``/``side`` (``None`` when
    the card fits nowhere and its player must choose a row), whether the card is the row's 6th (the player
    takes the row), and the clauses that decided."""

    card: int
    candidates: tuple[Candidate, ...]
    row: int | None
    side: str | None
    sixth: bool
    clauses: tuple[str, ...]

    @property
    def fits(self) -> bool:
        """False when the card fits no row (T6-PLACE-3 / T6-PRO-5): the player must choose a row."""
        return self.row is not None


def search_clause(placement: str) -> str:
    """The clause of the search for a card's row under a placement kind (``ends``: after a row's last card,
    T6-PLACE-1; ``ends_and_starts``: at either end, T6-PRO-1), also of a search that finds none.

    >>> search_clause("ends"), search_clause("ends_and_starts")
    ('T6-PLACE-1', 'T6-PRO-1')
    """
    return "T6-PRO-1" if placement == "ends_and_starts" else "T6-PLACE-1"


def locate(
    rows: Sequence[Sequence[int]], card: int, placement: str, capacity: int, tie_to_start: bool = False
) -> Placement:
    """The placement of ``card`` on ``rows`` under a placement kind (``ends`` or ``ends_and_starts``), a row
    capacity and the professional tie rule: the search for its row (T6-PLACE-1 after a row's last card,
    T6-PRO-1 at either end: :func:`search_clause`), the smallest difference, and the row's capacity.
    Pure; used by the engine for every card it resolves."""
    both = placement == "ends_and_starts"
    candidates: list[Candidate] = []
    for i, row in enumerate(rows):
        if not row:
            continue
        if row[-1] < card:
            candidates.append(Candidate(i, END, row[-1], card - row[-1]))
        elif both and row[0] > card:
            candidates.append(Candidate(i, START, row[0], row[0] - card))
    if not candidates:
        return Placement(card, (), None, None, False, ("T6-PRO-5",) if both else ("T6-PLACE-3",))
    preferred = START if tie_to_start else END
    best = min(candidates, key=lambda c: (c.difference, c.side != preferred))
    clauses = [search_clause(placement), *(["T6-PRO-2"] if both else [])]
    if both and sum(1 for c in candidates if c.difference == best.difference) > 1:
        clauses.append("T6-PRO-3")
    sixth = len(rows[best.row]) >= capacity
    if sixth:
        clauses.append("T6-PRO-4" if both else "T6-PLACE-2")
    return Placement(card, tuple(candidates), best.row, best.side, sixth, tuple(clauses))


def place(
    rows: Sequence[Sequence[int]],
    card: int,
    variant: str | None = None,
    options: Mapping[str, Any] | None = None,
) -> Placement:
    """Explain where ``card`` goes on ``rows`` in ``variant`` (default standard), with the clause ids.

    The row capacity, the placement kind and the professional tie rule come from the tables.

    >>> place(((20,), (30, 40)), 10, "professional").row, place(((20,), (30, 40)), 10, "professional").side
    (0, 'start')
    >>> tie = place(((18,), (22,)), 20, "professional")
    >>> tie.row, tie.side, tie.clauses
    (0, 'end', ('T6-PRO-1', 'T6-PRO-2', 'T6-PRO-3'))
    """
    rules = rules_for(variant, GAME_INFO.min_players, options)
    return locate(
        rows, card, rules.placement, rules.capacity, rules.option_map.get("professional_tie") == "start"
    )


def fast_end_row(rows: Sequence[Sequence[int]], card: int) -> int:
    """Hot-path equivalent of :func:`locate` for the ``ends`` placement: the row whose last card is the
    highest one below ``card``, or -1 when the card fits no row.  A property test checks it agrees.

    >>> fast_end_row(((12, 14, 19), (30,), (29, 41, 52, 60, 71), (88,)), 33)
    1
    """
    best = -1
    best_end = 0
    for i, row in enumerate(rows):
        end = row[-1]
        if best_end < end < card:
            best = i
            best_end = end
    return best
