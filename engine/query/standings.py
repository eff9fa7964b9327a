"""The ``standings`` question: who wins, and in what order, from a position or from plain scores.

Every ranking is the engine's own: 6 nimmt! ranks through :func:`engine.take6.scoring.rank` (the function a
finished game's result comes from), Saint Petersburg through :func:`engine.petersburg.scoring.standings` on a
position the engine's builder made (VP, then the roubles :func:`~engine.petersburg.scoring.tiebreak_money`
counts).  The answer cites the tie-break clauses of the variant and options asked about.

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

import importlib
from collections.abc import Sequence
from typing import Any

from engine.errors import InputError
from engine.game import game_names
from engine.query.model import Answer, Step
from engine.query.questions import Param, Question, register

__all__ = ["places", "standings"]


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


def _seats(scores: Sequence[int], field: str) -> None:
    if not scores:
        raise InputError(field, "give one score per seat, e.g. --scores 23 23")
    for s in scores:
        if s < 0:
            raise InputError(field, f"scores are 0 or more, got {s}")


def _names(seats: Sequence[int]) -> str:
    return " and ".join(f"P{p}" for p in seats)


# --------------------------------------------------------------------------------------------------
# 6 nimmt!


def _take6(position: str | None, scores: list[int], money: list[int], variant: str | None,
           option: list[str]) -> Answer:
    from engine.query.take6_common import _parse_options, _rules_for

    if money:
        raise InputError("money", "6 nimmt! has no money: give --scores only")
    narration = importlib.import_module("engine.take6.narration")
    scoring = importlib.import_module("engine.take6.scoring")
    notes: list[str] = []
    if position is not None:
        load = importlib.import_module("engine.positions").load_position
        state = load("take6", position, source="position")
        rules = state.rules
        taken = tuple(int(x) for x in state.penalties)
        over = state.phase == "over"
        source = f"the position (round {state.round})"
    else:
        _seats(scores, "scores")
        rules = _rules_for(variant, len(scores), _parse_options(option))
        if rules.countdown_from is not None:
            taken = tuple(rules.countdown_from - s for s in scores)
            source = "points left " + " ".join(map(str, scores))
        else:
            taken = tuple(scores)
            source = "bullheads " + " ".join(map(str, scores))
        # plain scores of a threshold game are final once a total reached it; the kids game's are final
        over = rules.end != "threshold" or any(t >= rules.threshold for t in taken)
    result = scoring.rank(taken, rules)
    shown = [narration.shown(rules, t) for t in taken]
    unit = "points left" if rules.display == "countdown" else "bullheads"
    steps: list[Step] = []
    if rules.display == "countdown":
        steps.append(Step.of("T6-COUNT-1", f"countdown: each player's {rules.countdown_from} points minus "
                             "the bullheads taken; the most points left wins"))
    if rules.winner == "highest":
        steps.append(Step.of("T6-KIDS-4", "kids: the most bullheads taken wins"))
    else:
        steps.append(Step.of("T6-END-2", "the fewest bullheads taken wins"))
    place = places(result.ranking, {p: taken[p] for p in result.ranking})
    tied = [p for p in result.ranking if sum(1 for q in result.ranking if place[q] == place[p]) > 1]
    steps.append(Step.of("T6-END-3", "tied players share the place (no tie-break): "
                         + (_names(tied) + " tied" if tied else "no tie")))
    if rules.end == "threshold":
        reached = [p for p in range(len(taken)) if taken[p] >= rules.threshold]
        if reached:
            steps.append(Step.of("T6-END-1", f"{_names(reached)} reached {rules.threshold} bullheads: the "
                                 "game ends after that round", rules.threshold))
        else:
            steps.append(Step.of("T6-END-1", f"no total has reached {rules.threshold}: the game goes on "
                                 "(standings so far)", rules.threshold))
    elif not over:
        steps.append(Step.of("T6-KIDS-3", "the game ends when every pile is played out (standings so far)"))
    if not over:
        notes.append("The game is not over: these are the standings so far.")
    rows = [[str(place[p]), f"P{p}", str(shown[p]), "winner" if p in result.winners else ""]
            for p in result.ranking]
    win = _names(result.winners)
    lead = "win" if over else "lead"
    summary = (f"{win} {lead + ('' if len(result.winners) > 1 else 's')}"
               + (" (tied, shared)" if len(result.winners) > 1 else "")
               + f"; order {' > '.join(f'P{p}' for p in result.ranking)} by {unit}")
    value = {"game": "take6", "variant": rules.variant, "ranking": list(result.ranking),
             "winners": list(result.winners), "over": over,
             "places": [{"seat": p, "place": place[p], "score": shown[p], "bullheads": taken[p]}
                        for p in result.ranking]}
    return Answer(kind="standings", game="take6", question=f"Who wins 6 nimmt! ({rules.variant}) from "
                  f"{source}?", summary=summary, value=value, steps=steps,
                  headers=("place", "seat", unit, ""), rows=rows, notes=notes)


# --------------------------------------------------------------------------------------------------
# Saint Petersburg


def _petersburg(position: str | None, scores: list[int], money: list[int], variant: str | None,
                option: list[str]) -> Answer:
    from engine.query.petersburg_questions import _parse_options, _ruleset

    core = importlib.import_module("engine.petersburg.scoring")
    notes: list[str] = []
    steps: list[Step] = []
    if position is not None:
        state = importlib.import_module("engine.positions").load_position("petersburg", position,
                                                                          source="position")
        over = bool(state.over)
        if not over:
            final = [core.final_breakdown(state, p)["total"] for p in range(state.players)]
            steps.append(Step.of("SP-END-4", "if the game ended now, the final scoring adds: "
                                 + ", ".join(f"P{p} {t:+d} VP" for p, t in enumerate(final))))
            steps.append(Step.of("SP-END-6", "1 VP per full 10 roubles"))
            steps.append(Step.of("SP-END-7", "-5 VP per card in hand"))
            state = state._replace(vp=tuple(v + t for v, t in zip(state.vp, final, strict=True)))
            notes.append("The game is not over: the ranking adds the final scoring as if it ended now.")
        source = f"the position (round {state.round}, {'over' if over else state.phase})"
    else:
        _seats(scores, "scores")
        if len(money) != len(scores):
            raise InputError("money", f"give the roubles of each seat ({len(scores)}, in seat order), "
                             f"got {len(money)}")
        for m in money:
            if m < 0:
                raise InputError("money", f"roubles are 0 or more, got {m}")
        rs = _ruleset(variant, _parse_options(option))
        build = importlib.import_module("engine.petersburg.position").position
        try:
            state = build(players=len(scores), variant=rs.variant, options=dict(rs.options), phase="over",
                          last_round=True, vp=scores, money=money)
        except InputError as exc:
            raise InputError({"vp": "scores"}.get(exc.field.split("[")[0], exc.field), exc.message) from None
        over = True
        source = "VP " + " ".join(map(str, scores)) + ", roubles " + " ".join(map(str, money))
    ranking, winners = core.standings(state)
    n = state.players
    tie = [core.tiebreak_money(state, p) for p in range(n)]
    key = {p: (state.vp[p], tie[p]) for p in range(n)}
    place = places(ranking, key)
    kept = bool(dict(state.rules.options).get("keep_roubles", True))
    steps.append(Step.of("SP-END-8", "the most VP wins; a tie on VP goes to the most roubles"))
    if kept:
        steps.append(Step.of("SP-END-6", "the roubles are kept after the final scoring: all of them break "
                             "the tie"))
    else:
        steps.append(Step.of("SP-END-6", "option keep_roubles=false: each full 10 roubles was paid in, so "
                             "the roubles left (" + ", ".join(f"P{p} {tie[p]}" for p in range(n))
                             + ") break the tie"))
    vp_tied = sorted({p for p in range(n) for q in range(n) if p != q and state.vp[p] == state.vp[q]})
    if vp_tied:
        steps.append(Step(None, f"{_names(vp_tied)} tied on VP: roubles decide"))
    shared = [p for p in ranking if sum(1 for q in ranking if place[q] == place[p]) > 1]
    steps.append(Step.of("SP-END-9", "still tied on VP and roubles: the place is shared — "
                         + (_names(shared) if shared else "nobody")))
    if n == 1:
        steps.append(Step.of("SP-SOLO-1", "solo: the player is the sole winner; the score is the VP"))
    rows = [[str(place[p]), f"P{p}", str(state.vp[p]), str(state.money[p]), str(tie[p]),
             "winner" if p in winners else ""] for p in ranking]
    summary = (f"{_names(winners)} {'win' if over else 'lead'}{'' if len(winners) > 1 else 's'}"
               + (" (tied, shared)" if len(winners) > 1 else "")
               + f"; order {' > '.join(f'P{p}' for p in ranking)} by VP, then "
               + ("roubles" if kept else "roubles left after converting"))
    value = {"game": "petersburg", "variant": state.rules.variant, "ranking": list(ranking),
             "winners": list(winners), "over": over, "keep_roubles": kept,
             "places": [{"seat": p, "place": place[p], "vp": int(state.vp[p]), "roubles": int(state.money[p]),
                         "tiebreak": tie[p]} for p in ranking]}
    return Answer(kind="standings", game="petersburg", question=f"Who wins Saint Petersburg from {source}?",
                  summary=summary, value=value, steps=steps,
                  headers=("place", "seat", "VP", "roubles", "tie-break", ""), rows=rows, notes=notes)


def standings(game: str, *, position: str | None, scores: list[int], money: list[int], variant: str | None,
              option: list[str]) -> Answer:
    """Rank every seat of ``game`` from a position or from plain scores (and roubles), tie-breaks cited."""
    if (position is None) == (not scores):
        raise InputError("--position/--scores", "give either --position or --scores (one per seat)")
    if position is not None and (variant is not None or option):
        raise InputError("--variant", "a position carries its own variant and options")
    if game == "take6":
        return _take6(position, scores, money, variant, option)
    return _petersburg(position, scores, money, variant, option)


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
