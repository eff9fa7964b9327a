"""6 nimmt! scores: bullheads of cards, and the result of a finished game (T6-END-2, T6-END-3, T6-KIDS-4).

>>> bullheads_of((55, 10, 1))
11
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.game import Result
from engine.take6.model import State
from engine.take6.rules import BULLHEADS, Rules

__all__ = ["bullheads_of", "rank", "result_of"]

_BH = BULLHEADS


def bullheads_of(cards: Sequence[int]) -> int:
    """The bullheads of some cards (T6-BULL-1..5)."""
    return sum(map(_BH.__getitem__, cards))


def result_of(s: State, rules: Rules) -> Result:
    """Scores are bullheads taken; the lowest wins (T6-END-2; kids: the highest, T6-KIDS-4); ties share
    (T6-END-3) and the ranking lists tied seats by seat."""
    return rank(s.penalties, rules)


def rank(scores: tuple[int, ...], rules: Rules) -> Result:
    """The result of the bullheads each seat took, by the variant's winner rule (see :func:`result_of`)."""
    if rules.winner == "lowest":
        ranking = tuple(sorted(range(rules.players), key=lambda p: (scores[p], p)))
    else:
        ranking = tuple(sorted(range(rules.players), key=lambda p: (-scores[p], p)))
    best = scores[ranking[0]]
    winners = tuple(p for p in ranking if scores[p] == best)
    return Result(scores=scores, winners=winners, ranking=ranking)
