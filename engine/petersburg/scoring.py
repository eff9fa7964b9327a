"""Saint Petersburg scores: a phase's income (SP-SCORE-1..3, SP-MARI-1, SP-OBS-5), the final scoring
(SP-END-4..7) and the standings (SP-END-8, SP-END-9).  Pure functions of a state; the transitions add what
they return.

>>> from engine.petersburg import GAME
>>> s = GAME.new_game(2, seed=1)
>>> phase_income(s, 0), final_breakdown(s, 0)["total"], standings(s)
(((0, 0), (0, 0)), 2, ((0, 1), (0, 1)))
"""

from __future__ import annotations

from engine.derivation import Trace
from engine.petersburg.catalog import VARIETY
from engine.petersburg.model import State

__all__ = ["VARIETY_CAP", "final_breakdown", "phase_income", "standings", "tiebreak_money"]

VARIETY_CAP = len(VARIETY) - 1
"""The most different aristocrats the variety bonus counts (SP-END-5)."""


def phase_income(state: State, colour: int, trace: Trace | None = None) -> tuple[tuple[int, int], ...]:
    """Per seat, the roubles and VP its cards of ``colour`` (a colour id) score now: each card's printed
    income (SP-SCORE-4), plus a per-card income for every owned card of its counted colour (the card's own
    clause: the Mariinskij Theater SP-MARI-1, the Tax Man SP-TAX-1); a
    turned Observatory scores nothing this round (SP-OBS-5).  With ``trace``, one ``income`` step per seat
    (SP-SCORE-4: what its cards indicate) whose children are each card's (``card-income``: SP-SCORE-4 for
    a printed income, the card's own clause for a per-card one, SP-OBS-5 for a turned card).  The phase's
    scoring clause (SP-SCORE-1..3: which colour scores) is the caller's step around them."""
    rs = state.rules
    out = []
    clause = "SP-SCORE-4"  # a card's printed income, and a seat's total
    cards: list[tuple[str, str, int, int]] = []
    for p in range(state.players):
        area = state.areas[p]
        r = v = 0
        if trace is not None:
            cards = []
        for k in area:
            if rs.colour[k] != colour:
                continue
            r += rs.roubles[k]
            v += rs.vp[k]
            if trace is not None:
                cards.append((clause, rs.names[k], rs.roubles[k], rs.vp[k]))
            pc = rs.per_card[k]
            if pc is not None:
                n = sum(1 for x in area if rs.colour[x] == pc[0])
                r += pc[1] * n
                v += pc[2] * n
                if trace is not None:
                    cards.append((rs.cards[k].clause, rs.names[k], pc[1] * n, pc[2] * n))
        for k in state.turned[p]:
            if rs.colour[k] == colour and "SP-OBS-5" not in rs.skips:  # a fault model may leave it out
                r -= rs.roubles[k]
                v -= rs.vp[k]
                if trace is not None:
                    cards.append(("SP-OBS-5", rs.names[k], -rs.roubles[k], -rs.vp[k]))
        out.append((r, v))
        if trace is not None:
            with trace.step(
                clause, "income", {"seat": p, "roubles": r, "vp": v}, note=f"P{p} scores +{r} R, +{v} VP"
            ):
                for c, name, cr, cv in cards:
                    trace.add(
                        c,
                        "card-income",
                        {"seat": p, "card": name, "subject": name, "roubles": cr, "vp": cv},
                        note=f"{name}: {cr:+} R, {cv:+} VP",
                    )
    return tuple(out)


def final_breakdown(state: State, p: int, trace: Trace | None = None) -> dict[str, int]:
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
    variety = rs.variety_bonus(distinct)
    capped = min(distinct, len(rs.variety) - 1)
    money = state.money[p] // rs.roubles_per_vp
    hand = len(state.hands[p]) * rs.vp_per_hand_card
    if trace is not None:
        total = variety + money + hand
        with trace.step(
            "SP-END-4", "final", {"seat": p, "total": total}, note=f"P{p}'s final scoring: {total:+} VP"
        ):
            trace.add(
                "SP-END-4",
                "variety",
                {"seat": p, "distinct": distinct, "vp": variety},
                note=f"{variety} VP for {distinct} different aristocrat(s)",
            )
            if distinct > capped:
                trace.add(
                    "SP-END-5",
                    "variety-cap",
                    {"seat": p, "distinct": distinct, "counted": capped},
                    note=f"no more for {distinct} than for {capped}",
                )
            trace.add(
                "SP-END-6",
                "money",
                {"seat": p, "roubles": state.money[p], "vp": money},
                note=f"{money} VP for {state.money[p]} R (the roubles are kept)",
            )
            trace.add(
                "SP-END-7",
                "hand",
                {"seat": p, "cards": len(state.hands[p]), "vp": hand},
                note=f"{hand} VP for {len(state.hands[p])} card(s) in hand",
            )
    return {
        "distinct_uncapped": distinct,
        "distinct_capped": capped,
        "variety": variety,
        "money": money,
        "hand": hand,
        "total": variety + money + hand,
    }


def tiebreak_money(state: State, p: int, trace: Trace | None = None) -> int:
    """The roubles of seat ``p`` that break a tie on VP (SP-END-8): all of them, as they are kept (SP-END-6);
    with the option ``keep_roubles=false`` only those left once each full 10 is paid in for its VP.

    >>> from engine.petersburg import GAME
    >>> tiebreak_money(GAME.new_game(2, seed=1, options={"keep_roubles": False}), 0)
    5
    """
    keep = dict(state.rules.options)["keep_roubles"]  # the ruleset holds every option
    money = int(state.money[p]) if keep else int(state.money[p] % state.rules.roubles_per_vp)
    if trace is not None:
        trace.add(
            "SP-END-6",
            "tiebreak-money",
            {"seat": p, "roubles": money, "keep_roubles": bool(keep)},
            note=f"P{p}'s {money} R break a tie"
            + ("" if keep else " (keep_roubles off: only what is left after the full 10s)"),
            chosen=None if keep else "keep_roubles=false",
        )
    return money


def standings(state: State, trace: Trace | None = None) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(ranking best first, winners): most VP, then most roubles (SP-END-8, the roubles counted by
    :func:`tiebreak_money`); still tied: shared (SP-END-9).  With ``trace``, one SP-END-8 ``result``
    step: each seat's place, VP and tie-break roubles, the tie-break where VP tie, a shared win."""
    if trace is not None:
        _traced_standings(state, trace)
    key = {p: (state.vp[p], tiebreak_money(state, p)) for p in range(state.players)}
    ranking = tuple(sorted(range(state.players), key=lambda p: (-key[p][0], -key[p][1], p)))
    best = key[ranking[0]]
    winners = tuple(p for p in ranking if key[p] == best)
    return ranking, winners


def _traced_standings(state: State, trace: Trace) -> None:
    """The SP-END-8 ``result`` step of :func:`standings`: the tie-break roubles of each seat (SP-END-6 and
    the ``keep_roubles`` option), each place, a tie on VP decided by roubles, a shared win (SP-END-9)."""
    key = {p: (state.vp[p], tiebreak_money(state, p)) for p in range(state.players)}
    ranking = tuple(sorted(range(state.players), key=lambda p: (-key[p][0], -key[p][1], p)))
    best = key[ranking[0]]
    winners = tuple(p for p in ranking if key[p] == best)
    data = {"ranking": list(ranking), "winners": list(winners)}
    with trace.step("SP-END-8", "result", data, note="most VP wins; a tie on VP goes to the most roubles"):
        for p in range(state.players):
            tiebreak_money(state, p, trace)
        for place, p in enumerate(ranking, 1):
            vp, money = key[p]
            trace.add(
                "SP-END-8",
                "place",
                {"seat": p, "place": place, "vp": vp, "roubles": money},
                note=f"{place}. P{p}: {vp} VP, {money} R",
            )
        vps = [key[p][0] for p in ranking]
        tied = sorted({v for v in vps if vps.count(v) > 1})
        if tied:
            trace.add("SP-END-8", "tiebreak", {"vp": tied}, note="tied on VP: the roubles decide")
        if len(winners) > 1:
            shared = ", ".join(f"P{w}" for w in winners)
            trace.add(
                "SP-END-9",
                "shared",
                {"winners": list(winners)},
                note=f"still tied on VP and roubles: {shared} share the win",
            )
