"""Saint Petersburg scores: a phase's income (SP-SCORE-1..3, SP-MARI-1, SP-OBS-5), the final scoring
(SP-END-4..7) and the standings (SP-END-8, SP-END-9).  Pure functions of a state; the transitions add what
they return.

>>> from engine.petersburg import GAME
>>> s = GAME.new_game(2, seed=1)
>>> phase_income(s, 0), final_breakdown(s, 0)["total"], standings(s)
(((0, 0), (0, 0)), 2, ((0, 1), (0, 1)))
"""

from __future__ import annotations

from engine.petersburg.catalog import FINAL, VARIETY, variety_bonus
from engine.petersburg.model import State

__all__ = ["VARIETY_CAP", "final_breakdown", "phase_income", "standings", "tiebreak_money"]

VARIETY_CAP = len(VARIETY) - 1
"""The most different aristocrats the variety bonus counts (SP-END-5)."""


def phase_income(state: State, colour: int) -> tuple[tuple[int, int], ...]:
    """Per seat, the roubles and VP its cards of ``colour`` (a colour id) score now: each card's printed
    income, plus a per-card income for every owned card of its counted colour (SP-MARI-1); a turned
    Observatory scores nothing this round (SP-OBS-5)."""
    rs = state.rules
    out = []
    for p in range(state.players):
        area = state.areas[p]
        r = v = 0
        for k in area:
            if rs.colour[k] != colour:
                continue
            r += rs.roubles[k]
            v += rs.vp[k]
            pc = rs.per_card[k]
            if pc is not None:
                n = sum(1 for x in area if rs.colour[x] == pc[0])
                r += pc[1] * n
                v += pc[2] * n
        for k in state.turned[p]:
            if rs.colour[k] == colour:
                r -= rs.roubles[k]
                v -= rs.vp[k]
        out.append((r, v))
    return tuple(out)


def final_breakdown(state: State, p: int) -> dict[str, int]:
    """Final-scoring parts for seat ``p`` (SP-END-4..7): ``distinct_uncapped`` (every different
    aristocrat), ``distinct_capped`` (the count the bonus scores, at most 10: SP-END-5), ``variety`` (its
    VP), ``money``, ``hand``, ``total``.

    >>> from engine.petersburg import GAME
    >>> final_breakdown(GAME.new_game(2, seed=1), 0)["distinct_capped"]
    0
    """
    rs = state.rules
    area = state.areas[p]
    distinct = len({k for k in area if rs.colour[k] == rs.variety_colour})
    variety = variety_bonus(distinct)
    capped = min(distinct, VARIETY_CAP)
    money = state.money[p] // FINAL["roubles_per_vp"]
    hand = len(state.hands[p]) * FINAL["vp_per_hand_card"]
    return {
        "distinct_uncapped": distinct,
        "distinct_capped": capped,
        "variety": variety,
        "money": money,
        "hand": hand,
        "total": variety + money + hand,
    }


def tiebreak_money(state: State, p: int) -> int:
    """The roubles of seat ``p`` that break a tie on VP (SP-END-8): all of them, as they are kept (SP-END-6);
    with the option ``keep_roubles=false`` only those left once each full 10 is paid in for its VP.

    >>> from engine.petersburg import GAME
    >>> tiebreak_money(GAME.new_game(2, seed=1, options={"keep_roubles": False}), 0)
    5
    """
    if dict(state.rules.options).get("keep_roubles", True):
        return int(state.money[p])
    return int(state.money[p] % FINAL["roubles_per_vp"])


def standings(state: State) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(ranking best first, winners): most VP, then most roubles (SP-END-8, the roubles counted by
    :func:`tiebreak_money`); still tied: shared (SP-END-9)."""
    key = {p: (state.vp[p], tiebreak_money(state, p)) for p in range(state.players)}
    ranking = tuple(sorted(range(state.players), key=lambda p: (-key[p][0], -key[p][1], p)))
    best = key[ranking[0]]
    winners = tuple(p for p in ranking if key[p] == best)
    return ranking, winners
