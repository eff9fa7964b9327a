"""What a seat's return can be, for both frameworks: the rank bonus, the bounds of a return derived from the
tables, and the return of a seat that made an illegal move.  Nothing here imports PettingZoo or OpenSpiel
(each framework's module imports this one).

>>> from engine.take6 import rules_for
>>> take6_bounds(rules_for("standard", 4))  # 65 + the 40 heaviest cards (107 bullheads)
(-172.0, 0.0)
>>> illegal_return(take6_bounds(rules_for("standard", 4)))
-173.0
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.game import Result
from engine.petersburg import variety_bonus
from engine.petersburg.catalog import FINAL, PARAMS, SETUPS
from engine.take6 import Rules, bullheads

__all__ = ["illegal_return", "petersburg_bounds", "rank_bonuses", "take6_bounds"]


def rank_bonuses(result: Result, scale: float) -> tuple[float, ...]:
    """``scale * (opponents ranked below - opponents ranked above) / (n - 1)`` per seat; ties count neither.

    Two seats tie when their scores and tie-breaks are equal.

    >>> rank_bonuses(Result(scores=(3, 9, 3), winners=(0, 2), ranking=(0, 2, 1)), 1.0)
    (0.5, -1.0, 0.5)
    """
    n = len(result.scores)
    if n < 2 or not scale:
        return (0.0,) * n
    tie = result.tiebreak or (0,) * n
    key = [(result.scores[p], tie[p]) for p in range(n)]
    place = {p: i for i, p in enumerate(result.ranking)}
    out = []
    for p in range(n):
        wins = sum(1 for q in range(n) if key[q] != key[p] and place[q] > place[p])
        losses = sum(1 for q in range(n) if key[q] != key[p] and place[q] < place[p])
        out.append(scale * (wins - losses) / (n - 1))
    return tuple(out)


def take6_bounds(rules: Rules, rank_bonus: float = 0.0) -> tuple[float, float]:
    """(min, max) of a 6 nimmt! seat's return under ``rules``, from the deck, set-up and end tables.

    A round adds ``n * hand_size`` cards to the ``rows`` on the table and leaves at least one card in each
    row, so one seat takes at most the ``n * hand_size`` heaviest cards of the deck; before the last round
    of a threshold game every total is below the threshold; a game of fixed rounds has that many rounds.

    >>> from engine.take6 import rules_for
    >>> take6_bounds(rules_for("kids", 2), rank_bonus=1.0)  # one round, the most bullheads win
    (-1.0, 98.0)
    """
    heads = sorted((bullheads(c) for c in rules.deck), reverse=True)
    per_round = sum(heads[: rules.players * rules.hand_size])
    if rules.end == "threshold":
        worst = (rules.threshold or 0) - 1 + per_round
    else:
        worst = (rules.rounds or 1) * per_round
    b = abs(float(rank_bonus))
    return (-float(worst) - b, b) if rules.winner == "lowest" else (-b, float(worst) + b)


def petersburg_bounds(rules: Any, players: int, rank_bonus: float = 0.0) -> tuple[float, float]:
    """(min, max) of a Saint Petersburg seat's return (its final VP, plus the rank bonus) under ``rules``.

    VP only fall at the final scoring, by ``vp_per_hand_card`` per card left in a hand of at most the
    largest hand limit; the upper bound adds, over the most rounds the stacks allow (every two rounds draw
    at least ``board_cards`` cards), every card's VP, Pub VP and income as if one seat owned them all, then
    the largest variety bonus and the roubles' VP.

    >>> from engine.petersburg import ruleset
    >>> lo, hi = petersburg_bounds(ruleset("first"), 2)
    >>> lo, hi > 0
    (-20.0, True)
    """
    kinds = range(rules.nkinds)
    copies = [rules.cards[k].copies for k in kinds]
    colour: Counter[str] = Counter()
    for k in kinds:
        colour[rules.colour[k]] += copies[k]
    total = sum(copies)
    rounds = 2 * -(-total // PARAMS["board_cards"]) + 3
    vp = money = 0
    for k in kinds:
        per = rules.per_card[k]
        count = colour[per[0]] if per else 0
        vp += copies[k] * (rules.vp[k] + rules.pub_max[k] + (per[2] * count if per else 0))
        money += copies[k] * (rules.roubles[k] + (per[1] * count if per else 0))
    start = max(s.money for s in SETUPS.values() if s.players == players)
    most = rounds * vp + variety_bonus(rules.nkinds) + (start + rounds * money) // FINAL["roubles_per_vp"]
    hand = max(PARAMS["hand_limit"], *rules.hand_limit)
    b = abs(float(rank_bonus))
    return float(FINAL["vp_per_hand_card"] * hand) - b, float(most) + b


def illegal_return(bounds: tuple[float, float]) -> float:
    """The return of a seat whose illegal move ended the game (by default): one below the lowest return a
    game can give (``min - 1``), so it ranks below every other seat, whatever they had (each has at least
    ``min``): it loses, as a classic PettingZoo game's ``-1`` is a loss.

    >>> illegal_return((-20.0, 6304.0))  # Saint Petersburg: at worst 4 cards left in hand, -5 VP each
    -21.0
    """
    return float(bounds[0]) - 1.0
