"""6 nimmt! scores: bullheads of cards, the end of the game, and its result (T6-END-1..3, T6-KIDS-3/4).

With a :class:`~engine.derivation.Trace`, :func:`end_step` and :func:`result_of` record their derivation:
why the game ends or goes on, every seat's total and place, the winners and a shared win.

>>> bullheads_of((55, 10, 1))
11
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.derivation import Trace
from engine.game import Result
from engine.take6.model import State
from engine.take6.rules import BULLHEADS, Rules

__all__ = ["bullheads_of", "end_step", "rank", "result_of", "shown"]


def bullheads_of(cards: Sequence[int], heads: Sequence[int] = BULLHEADS) -> int:
    """The bullheads of some cards (T6-BULL-1..5): by the shipped table, or ``heads`` (a ``Rules.heads``)."""
    return sum(map(heads.__getitem__, cards))


def shown(rules: Rules, penalty: int) -> str:
    """A total as the variant shows it (countdown: points left, T6-COUNT-1).

    >>> from engine.take6.rules import rules_for
    >>> shown(rules_for("countdown", 2), 10), shown(rules_for("standard", 2), 10)
    ('56', '10')
    """
    if rules.countdown_from is not None:
        return str(rules.countdown_from - penalty)
    return str(penalty)


def end_step(trace: Trace, rules: Rules, rnd: int, penalties: tuple[int, ...], over: bool) -> None:
    """The derivation of the end check after round ``rnd``: a total at the threshold (T6-END-1; countdown
    T6-COUNT-1) or the last round played (T6-KIDS-3)."""
    says = "over" if over else "goes-on"
    head = f"Game over after round {rnd}" if over else f"The game goes on after round {rnd}"
    if rules.end == "threshold":
        data = {"round": rnd, "highest": max(penalties), "threshold": rules.threshold}
        if rules.countdown_from is not None:
            why = "someone is out of points" if over else "everyone has points left"
            with trace.step("T6-END-1", says, data, note=f"{head}: {why}"):
                trace.add("T6-COUNT-1", "countdown", {"from": rules.countdown_from})
            return
        why = (
            f"a total reached {rules.threshold} bullheads"
            if over
            else f"no total reached {rules.threshold} bullheads"
        )
        trace.add("T6-END-1", says, data, note=f"{head}: {why}")
        return
    why = "every pile is played out" if over else f"round {rnd} of {rules.rounds} is over"
    trace.add(
        "T6-KIDS-3",
        says,
        {"round": rnd, "rounds": rules.rounds},
        note=f"{head}: {why}",
    )


def result_of(s: State, rules: Rules, trace: Trace | None = None) -> Result:
    """Scores are bullheads taken; the lowest wins (T6-END-2; kids: the highest, T6-KIDS-4); ties share
    (T6-END-3) and the ranking lists tied seats by seat.  With a trace: the winners' step, each seat's
    place and total beneath it, and the shared win.

    >>> from engine.take6 import GAME
    >>> from engine.derivation import render
    >>> t = Trace()
    >>> s = GAME.from_notation("standard 2 over 1/2/3/4 -/- - -/- 66/40")
    >>> result_of(s, s.rules, t).winners, render(t.steps)[0]
    ((1,), 'Winner: P1, with the fewest bullheads (40) [T6-END-2]')
    """
    return rank(s.penalties, rules, trace)


def rank(scores: tuple[int, ...], rules: Rules, trace: Trace | None = None) -> Result:
    """The result of the bullheads each seat took, by the variant's winner rule (see :func:`result_of`);
    the standings question ranks plain scores through it."""
    lowest = rules.winner == "lowest"
    if lowest:
        ranking = tuple(sorted(range(rules.players), key=lambda p: (scores[p], p)))
    else:
        ranking = tuple(sorted(range(rules.players), key=lambda p: (-scores[p], p)))
    best = scores[ranking[0]]
    winners = tuple(p for p in ranking if scores[p] == best)
    if trace is not None:
        clause = "T6-END-2" if lowest else "T6-KIDS-4"
        unit = "points left" if rules.display == "countdown" else "bullheads"
        most = "fewest" if lowest else "most"
        who = " and ".join(f"P{p}" for p in winners)
        note = (
            f"Winners: {who}, tied with the {most} bullheads ({shown(rules, best)} {unit}), share the win"
            if len(winners) > 1
            else f"Winner: {who}, with the {most} bullheads ({shown(rules, best)})"
        )
        data = {"winners": list(winners), "ranking": list(ranking), "scores": list(scores), "best": best}
        with trace.step(clause, "winners", data, note=note):
            for place, p in enumerate(ranking, start=1):
                trace.add(
                    clause,
                    "place",
                    {"seat": p, "place": place, "total": scores[p]},
                    note=f"{place}. P{p}: {shown(rules, scores[p])} {unit}",
                )
            if len(winners) > 1:
                trace.add(
                    "T6-END-3",
                    "shared",
                    {"winners": list(winners)},
                    note="tied players share the win; the ranking lists them by seat",
                )
    return Result(scores=scores, winners=winners, ranking=ranking)
