"""The ``standings`` question: who wins, and in what order, from a position or from plain scores.

Every ranking is the engine's own: 6 nimmt! ranks through :func:`engine.take6.scoring.rank` (the function a
finished game's result comes from), Saint Petersburg through :func:`engine.petersburg.scoring.standings` on a
position the engine's builder made (VP, then the roubles :func:`~engine.petersburg.scoring.tiebreak_money`
counts).  The answer cites the tie-break clauses of the variant and options asked about.  The question is
shared; each game answers it with the handler its questions module registers (``game_handler``), and this
module keeps what both use: the argument checks, the places, the seat names.

>>> from engine.query.questions import ask
>>> ask("standings", {"game": "petersburg", "scores": [23, 23], "money": [30, 19]}).value["winners"]
[0]
>>> ask("standings", {"game": "petersburg", "scores": [23, 23], "money": [30, 19],
...                   "option": ["keep_roubles=false"]}).value["winners"]
[1]
>>> ask("standings", {"game": "take6", "scores": [40, 12, 70]}).value["ranking"]
[1, 0, 2]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.errors import InputError
from engine.game import game_names
from engine.query.model import Answer
from engine.query.questions import Param, Question, dispatch, register

__all__ = ["check_scores", "places", "seat_names", "standings"]


def places(ranking: Sequence[int], key: dict[int, Any]) -> dict[int, int]:
    """Place of each seat (1 = first); seats with equal ``key`` share a place (1, 1, 3 ...).

    >>> places([1, 0, 2], {0: 5, 1: 5, 2: 9})
    {1: 1, 0: 1, 2: 3}
    """
    out: dict[int, int] = {}
    for i, p in enumerate(ranking):
        prev = ranking[i - 1] if i else None
        out[p] = out[prev] if prev is not None and key[prev] == key[p] else i + 1
    return out


def check_scores(scores: Sequence[int], field: str) -> None:
    """Refuse an empty or negative score list, naming ``field``."""
    if not scores:
        raise InputError(field, "give one score per seat, e.g. --scores 23 23")
    for s in scores:
        if s < 0:
            raise InputError(field, f"scores are 0 or more, got {s}")


def seat_names(seats: Sequence[int]) -> str:
    """``P0 and P2``.

    >>> seat_names([0, 2])
    'P0 and P2'
    """
    return " and ".join(f"P{p}" for p in seats)


def standings(game: str, *, position: str | None, scores: list[int], money: list[int], variant: str | None,
              option: list[str]) -> Answer:
    """Rank every seat of ``game`` from a position or from plain scores (and roubles), tie-breaks cited."""
    if (position is None) == (not scores):
        raise InputError("--position/--scores", "give either --position or --scores (one per seat)")
    if position is not None and (variant is not None or option):
        raise InputError("--variant", "a position carries its own variant and options")
    return dispatch("standings", game, position=position, scores=scores, money=money, variant=variant,
                     option=option)


register(Question(
    "standings", None,
    "who wins: every seat ranked from a position or from scores (and roubles), with the tie-break rules",
    (Param("game", str, "which game", choices=game_names()),
     Param("position", str, "a position (notation line, JSON state or @FILE)", required=False,
           metavar="TEXT"),
     Param("scores", int, "each seat's score in seat order: VP (Saint Petersburg), bullheads taken "
           "(6 nimmt!; countdown: points left)", required=False, many=True, metavar="N"),
     Param("money", int, "Saint Petersburg: each seat's roubles, in seat order", required=False, many=True,
           metavar="R"),
     Param("variant", str, "variant (default: the standard game)", required=False),
     Param("option", str, "a game option NAME=VALUE (repeatable), e.g. keep_roubles=false", required=False,
           many=True, metavar="NAME=VALUE")),
    standings,
    ("arbiter ask standings petersburg --scores 23 23 --money 30 19",
     "arbiter ask standings petersburg --scores 23 23 --money 30 19 --option keep_roubles=false",
     "arbiter ask standings take6 --scores 40 12 70",
     "arbiter ask standings take6 --scores 26 54 0 --variant countdown"),
))
