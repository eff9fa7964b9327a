"""Saint Petersburg transitions and the phase flow: one function, :func:`transition`, serves both API
tiers (the checked tier runs :func:`~engine.petersburg.checks.check` first).

Every successor is built by field name with a builder of the fields a step changes
(:func:`~engine.petersburg.model.changer`, compiled once at import).  A buy, a play and
a take are one acquisition (:func:`_acquire`: a card leaves a row, the drawn card or the hand for the
area, paid, or for the hand).  After the last consecutive pass of a phase the flow scores it, opens the Pub
decisions, refills the rows, moves to the next phase or round, or ends the game with the final scoring.
With ``trace`` a :class:`~engine.derivation.Trace`, each step records its derivation (each payment with
its cost, income per seat and card, Pub purchases, refills, phase and round changes, the final scoring and
the result): ``GAME.derive``, which narration renders.  Without one nothing is paid but an ``is not None``
test.

>>> from engine.derivation import Trace, render
>>> from engine.petersburg import GAME, Buy
>>> trace = Trace()
>>> s = transition(GAME.new_game(2, seed=1), Buy(0, "Shepherd"), trace)
>>> s.money, s.turn, render(trace.steps)[0]
((20, 25), 1, 'P0 buys Shepherd from the upper row for 5 R (20 R left) [SP-BUY-1]')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.derivation import Trace
from engine.petersburg.catalog import PHASES, STACKS
from engine.petersburg.costs import DRAWN, HAND, LOWER, SRC, UPPER, fast_cost, trace_cost
from engine.petersburg.legal import observatory_ready, pub_capacity, pub_rate
from engine.petersburg.model import (
    SOURCES,
    Buy,
    Discard,
    Observe,
    Pass,
    Play,
    PubBuy,
    Reveal,
    State,
    Take,
    card_name,
    changer,
    pending_reveal,
)
from engine.petersburg.names import kind_of
from engine.petersburg.scoring import final_breakdown, phase_income, standings

__all__ = ["TRANSITIONS", "transition"]


# the successor builders, by the fields each step changes (model.changer)
_acquired = changer("upper", "lower", "drawn", "hands", "discard", "areas", "money", "turn", "passes")
_taken = changer("upper", "lower", "drawn", "hands", "turn", "passes")
_passed = changer("passes", "turn")
_discarded = changer("drawn", "discard", "turn", "passes")
_observed = changer("stacks", "drawn", "turned", "passes")
_pub_bought = changer("money", "vp", "pub_queue")
_revealed = changer("upper", "drawn", "hidden")
_scored = changer("money", "vp", "passes")
_pub_opened = changer("pub_queue")
_refilled = changer("stacks", "upper", "last_round")
_phase_started = changer("phase_index", "turn", "passes")
_rows_moved = changer("discard", "lower", "upper")
_round_started = changer("markers", "turned", "round", "phase_index", "turn", "passes")
_finished = changer("vp", "passes", "over")


def transition(state: State, action: Any, trace: Trace | None = None) -> State:
    """Apply a legal action (unchecked); with ``trace``, record the derivation of the step."""
    return TRANSITIONS[type(action)](state, action, trace)


# ============================================================================================ helpers


def _remove(cards: tuple[int, ...], k: int) -> tuple[int, ...]:
    i = cards.index(k)
    return cards[:i] + cards[i + 1 :]


def _add_sorted(cards: tuple[int, ...], k: int) -> tuple[int, ...]:
    return tuple(sorted((*cards, k)))


def _set(values: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    """``values`` with item ``i`` replaced (a per-seat or per-stack tuple)."""
    return (*values[:i], v, *values[i + 1 :])


_SOURCE_WORDS = {"upper": "upper row", "lower": "lower row", "drawn": "Observatory's draw", "hand": "hand"}
"""How a source reads in a derivation's note."""


def _who(p: int) -> str:
    return f"P{p}"


# ============================================================================================ actions


def _acquire(s: State, p: int, k: int, src: int, t: int, *, into_hand: bool) -> State:
    """Card ``k`` leaves its source (the upper or lower row, the drawn card, or ``p``'s hand) for ``p``'s
    hand, unpaid (a take, SP-HAND-1), or ``p``'s area, paid, displacing ``t`` to the discard pile when
    ``t >= 0`` (a buy SP-BUY-1 or a play SP-HAND-4; SP-TRADE-1); then the next seat's turn (SP-PHASE-2)."""
    upper, lower, drawn, hands = s.upper, s.lower, s.drawn, s.hands
    if src == UPPER:
        upper = _remove(upper, k)
    elif src == LOWER:
        lower = _remove(lower, k)
    elif src == DRAWN:
        drawn = -1
    else:
        hands = _set(hands, p, _remove(hands[p], k))
    turn = _next_seat(s)
    if into_hand:
        hands = _set(hands, p, _add_sorted(hands[p], k))
        return _taken(s, upper=upper, lower=lower, drawn=drawn, hands=hands, turn=turn, passes=0)
    area = s.areas[p]
    cost = fast_cost(s.rules, area, k, src, t) * s.rules.charge  # SP-BUY-1: paid (a fault model's charge)
    discard = s.discard
    if t >= 0:
        area = _remove(area, t)
        discard = (*discard, t)
    return _acquired(
        s,
        upper=upper,
        lower=lower,
        drawn=drawn,
        hands=hands,
        discard=discard,
        areas=_set(s.areas, p, _add_sorted(area, k)),
        money=_set(s.money, p, s.money[p] - cost),
        turn=turn,
        passes=0,
    )


def _t_buy(s: State, a: Buy, trace: Trace | None = None) -> State:
    return _paid(s, a, SRC[a.source], "SP-BUY-3", trace=trace)


def _t_play(s: State, a: Play, trace: Trace | None = None) -> State:
    return _paid(s, a, HAND, "SP-HAND-4", trace=trace)


def _paid(s: State, a: Buy | Play, src: int, clause: str, *, trace: Trace | None = None) -> State:
    """A buy (from a row or the drawn card) or a play (from the hand): the card into the area, paid."""
    rs = s.rules
    p = a.player
    k = rs.kind[a.card] if a.card in rs.kind else kind_of(rs, a.card, clause)
    d = a.displace
    t = -1 if d is None else (rs.kind[d] if d in rs.kind else kind_of(rs, d, "SP-TRADE-1"))
    after = _acquire(s, p, k, src, t, into_hand=False)
    if trace is not None:
        grant = "SP-HAND-4" if src == HAND else "SP-OBS-4" if src == DRAWN else "SP-BUY-1"
        paid = s.money[p] - after.money[p]
        data = {
            "seat": p,
            "card": rs.names[k],
            "subject": rs.names[k],
            "source": SOURCES[src],
            "paid": paid,
            "money": after.money[p],
        }
        with trace.step(
            grant,
            "paid",
            data,
            note=f"P{p} {'plays' if src == HAND else 'buys'} {rs.names[k]} from the "
            f"{_SOURCE_WORDS.get(SOURCES[src], SOURCES[src])} for {paid} R ({after.money[p]} R left)",
        ):
            trace_cost(rs, s.areas[p], k, src, t, money=s.money[p], trace=trace)
            if t >= 0:
                trace.add(
                    "SP-TRADE-1",
                    "displaced",
                    {"seat": p, "card": rs.names[t], "by": rs.names[k]},
                    note=f"{rs.names[t]} is displaced to the discard pile",
                )
        _next_turn(after, trace)
    return after


def _next_seat(s: State) -> int:
    """The seat acting after the one whose turn it is: the next in seat order, wrapping around
    (SP-PHASE-2)."""
    return (s.turn + 1) % s.players


def _next_turn(s: State, trace: Trace) -> None:
    trace.add("SP-PHASE-2", "next-turn", {"to_act": s.turn}, note=f"seat {s.turn}'s turn")


def _t_take(s: State, a: Take, trace: Trace | None = None) -> State:
    rs = s.rules
    p = a.player
    k = rs.kind[a.card] if a.card in rs.kind else kind_of(rs, a.card, "SP-BUY-3")
    src = SRC[a.source]
    after = _acquire(s, p, k, src, -1, into_hand=True)
    if trace is not None:
        held = len(after.hands[p])
        trace.add(
            "SP-HAND-1" if src != DRAWN else "SP-OBS-4",
            "taken",
            {"seat": p, "card": rs.names[k], "source": a.source, "held": held},
            note=f"P{p} takes {rs.names[k]} from the {_SOURCE_WORDS.get(a.source, a.source)} into hand "
            f"unpaid ({held} in hand)",
        )
        _next_turn(after, trace)
    return after


def _t_discard(s: State, a: Discard, trace: Trace | None = None) -> State:
    k = s.drawn
    after = _discarded(s, drawn=-1, discard=(*s.discard, k), turn=_next_seat(s), passes=0)
    if trace is not None:
        trace.add(
            "SP-OBS-6",
            "discarded",
            {"seat": a.player, "card": s.rules.names[k]},
            note=f"P{a.player} discards the drawn {s.rules.names[k]}",
        )
        _next_turn(after, trace)
    return after


def _t_observe(s: State, a: Observe, trace: Trace | None = None) -> State:
    rs = s.rules
    p = a.player
    obs = observatory_ready(rs, s.phase_index, s.areas[p], s.turned[p])
    i = STACKS.index(a.stack)
    stack = s.stacks[i]
    if trace is not None:
        trace.add(
            "SP-OBS-1",
            "drawn",
            {"seat": p, "card": card_name(rs, stack[0]), "stack": a.stack, "turned": rs.names[obs]},
            note=f"P{p} turns an {rs.names[obs]}, draws {card_name(rs, stack[0])} from the {a.stack} stack",
        )
        trace.add(
            "SP-OBS-5",
            "turned",
            {"seat": p, "card": rs.names[obs]},
            note=f"the turned {rs.names[obs]} loses its VP this round",
        )
    return _observed(
        s,
        stacks=_set(s.stacks, i, stack[1:]),
        drawn=stack[0],
        turned=_set(s.turned, p, _add_sorted(s.turned[p], obs)),
        passes=0,
    )


def _t_pass(s: State, a: Pass, trace: Trace | None = None) -> State:
    passes = s.passes + 1
    if trace is not None:
        trace.add(
            "SP-TURN-3",
            "passed",
            {"seat": a.player, "passes": passes},
            note=f"P{a.player} passes ({passes} consecutive)",
        )
    if passes >= s.players:
        if trace is not None:
            trace.add(
                "SP-PHASE-3",
                "phase-over",
                {"phase": PHASES[s.phase_index].name, "passes": passes},
                note=f"every player passed: the {PHASES[s.phase_index].name} phase's actions are over",
            )
        return _end_phase(s, trace)
    after = _passed(s, passes=passes, turn=_next_seat(s))
    if trace is not None:
        name = PHASES[s.phase_index].name
        trace.add("SP-PHASE-3", "goes-on", {"phase": name, "passes": passes},
                  note=f"{passes} of {s.players} players passed consecutively: the {name} phase goes on")
        _next_turn(after, trace)
    return after


def _t_pub(s: State, a: PubBuy, trace: Trace | None = None) -> State:
    p = a.player
    money, vp = s.money, s.vp
    if a.vp:
        rate = pub_rate(s.rules, s.areas[p])
        money = _set(money, p, money[p] - a.vp * rate)
        vp = _set(vp, p, vp[p] + a.vp)
    if trace is not None:
        paid = s.money[p] - money[p]
        trace.add(
            "SP-PUB-1",
            "pub-bought",
            {"seat": p, "vp": a.vp, "paid": paid},
            note=f"P{p} buys {a.vp} VP at the Pub for {paid} R" if a.vp else f"P{p} buys no VP at the Pub",
        )
    after = _pub_bought(s, money=money, vp=vp, pub_queue=s.pub_queue[1:])
    if after.pub_queue:
        if trace is not None:
            trace.add(
                "SP-PUB-2",
                "next-decision",
                {"to_act": after.pub_queue[0]},
                note=f"P{after.pub_queue[0]} decides on the Pub next",
            )
        return after
    if trace is not None:  # the Pub's last decision: the phase whose scoring opened it ends
        phase = PHASES[s.phase_index].name
        trace.add("SP-PUB-2", "pub-over", {"phase": phase, "queue": []},
                  note=f"every Pub decision after the {phase} scoring is taken")
    return _next_phase(after, trace)


def _t_reveal(s: State, a: Reveal, trace: Trace | None = None) -> State:
    rs = s.rules
    i = pending_reveal(s)
    k = rs.kind[a.card] if a.card in rs.kind else kind_of(rs, a.card, "SP-REVEAL-1")
    placeholder = len(rs.names) + i
    hidden = _set(s.hidden, i, _remove(s.hidden[i], k))
    hidden = hidden if any(hidden) else ()
    if trace is not None:
        trace.add(
            "SP-REVEAL-1",
            "revealed",
            {"card": rs.names[k], "stack": STACKS[i]},
            note=f"the card drawn from the {STACKS[i]} stack is {rs.names[k]}",
        )
    if s.drawn == placeholder:
        return _revealed(s, upper=s.upper, drawn=k, hidden=hidden)
    return _revealed(s, upper=_set(s.upper, s.upper.index(placeholder), k), drawn=s.drawn, hidden=hidden)


TRANSITIONS: dict[type, Callable[..., State]] = {
    Buy: _t_buy,
    Take: _t_take,
    Play: _t_play,
    Pass: _t_pass,
    Observe: _t_observe,
    Discard: _t_discard,
    PubBuy: _t_pub,
    Reveal: _t_reveal,
}
"""Action class -> its transition ``(state, action, trace=None) -> state`` (the unchecked tier calls it
directly)."""


# ============================================================================================ phase flow


def _score(s: State, colour: int, trace: Trace | None = None) -> State:
    """The phase's scoring (SP-SCORE-1..3): each seat's income (SP-SCORE-4) of ``colour`` added; the passes
    are over."""
    if trace is not None:
        phase = PHASES[s.phase_index]
        with trace.step(phase.clause, "scoring", {"phase": phase.name}, note=f"the {phase.name} scoring"):
            income = phase_income(s, colour, trace)
    else:
        income = phase_income(s, colour)
    money, vp = list(s.money), list(s.vp)
    for p, (r, v) in enumerate(income):
        money[p] += r
        vp[p] += v
    return _scored(s, money=tuple(money), vp=tuple(vp), passes=0)


def _end_phase(s: State, trace: Trace | None = None) -> State:
    """All passed (SP-PHASE-3): score the phase, then the Pub decisions (SP-PUB-1, SP-PUB-2) or on (every
    way on starts a phase, a round or the end with no passes)."""
    rs = s.rules
    phase = PHASES[s.phase_index]
    if phase.scores >= 0:
        s = _score(s, phase.scores, trace)
        pubs = any(rs.colour[k] == phase.scores for k in rs.pub_kinds)  # the Pub's scoring: decisions
        if pubs:
            n = s.players
            first = s.markers[s.phase_index]
            seats = ((first + i) % n for i in range(n))
            queue = tuple(p for p in seats if pub_capacity(rs, s.areas[p], s.money[p]))
            if queue:
                if trace is not None:
                    trace.add(
                        "SP-PUB-2",
                        "pub-decisions",
                        {"phase": phase.name, "queue": list(queue), "to_act": queue[0]},
                        note=f"Pub decisions: {', '.join(_who(p) for p in queue)}",
                    )
                return _pub_opened(s, pub_queue=queue)
        if trace is not None:
            # after a Pub's scoring, each owner left out can afford no VP (SP-PUB-1), the reason it is not
            # asked (SP-PUB-2: only owners who can afford 1 VP are)
            owners = [p for p in range(s.players) if pubs and pub_rate(rs, s.areas[p])]  # 0: no Pub
            with trace.step("SP-PUB-2", "no-pub", {"after": phase.name, "queue": []},
                            note=f"no Pub decisions after the {phase.name} scoring"):
                for p in owners:
                    trace.add("SP-PUB-1", "affords", {"seat": p, "money": s.money[p], "vp": 0},
                              note=f"{_who(p)} owns a Pub and can afford no VP with {s.money[p]} R")
    elif trace is not None:
        trace.add(
            "SP-SCORE-5", "no-scoring", {"phase": phase.name}, note=f"the {phase.name} phase has no scoring"
        )
    return _next_phase(s, trace)


def _refill(s: State, stack_index: int, trace: Trace | None = None) -> State:
    """Fill the upper row from a stack up to the board's cards (SP-REFILL-1, SP-REFILL-2); a stack that
    runs out makes this round the last (SP-END-1, SP-END-3)."""
    rs = s.rules
    need = rs.board - len(s.upper) - len(s.lower)
    if need <= 0:
        if trace is not None:  # a step even when the board is full (it draws nothing): not narrated
            trace.add(rs.book.param_clauses["board_cards"], "refill", {"stack": STACKS[stack_index],
                                                                       "cards": []})
        return s
    stack = s.stacks[stack_index]
    drawn = stack[:need]
    ended = len(stack) <= need
    if trace is not None:
        names_drawn = [card_name(rs, k) for k in drawn]
        with trace.step(
            rs.book.param_clauses["board_cards"],
            "refill",
            {"stack": STACKS[stack_index], "cards": names_drawn},
            note=f"{len(drawn)} from the {STACKS[stack_index]} stack: {', '.join(names_drawn) or 'nothing'}",
        ):
            if any(k >= len(rs.names) for k in drawn):
                trace.add(
                    "SP-REVEAL-1",
                    "unknown-order",
                    {"stack": STACKS[stack_index]},
                    note="of unknown order: each awaits its reveal",
                )
            if len(stack) < need:
                trace.add(
                    "SP-REFILL-2",
                    "short",
                    {"missing": need - len(stack)},
                    note=f"short by {need - len(stack)}",
                )
            if ended:
                last = stack_index == 0 and s.phase_index == len(PHASES) - 1
                trace.add(
                    "SP-END-3" if last else "SP-END-1",
                    "last-round",
                    {"stack": STACKS[stack_index]},
                    note="the worker stack is empty: next round is the last"
                    if last
                    else "the stack is empty: the game ends after this round",
                )
    return _refilled(
        s,
        stacks=_set(s.stacks, stack_index, stack[need:]),
        upper=s.upper + drawn,
        last_round=s.last_round or ended,
    )


def _next_phase(s: State, trace: Trace | None = None) -> State:
    """Refill and start the next phase (SP-PHASE-2); after the round's last phase: the round end
    (SP-ROUND-1..3) or, in the last round, the final scoring."""
    phase = PHASES[s.phase_index]
    if not phase.round_end:
        s = _refill(s, phase.refill, trace)
        ph = s.phase_index + 1
        s = _phase_started(s, phase_index=ph, turn=s.markers[ph], passes=0)
        if trace is not None:
            trace.add(
                "SP-PHASE-2",
                "phase-start",
                {"phase": PHASES[ph].name, "round": s.round, "to_act": s.turn},
                note=f"round {s.round}, {PHASES[ph].name} phase: P{s.turn} starts",
            )
        return s
    if s.last_round:
        return _final_scoring(s, trace)
    gone = s.lower
    if trace is not None:
        trace.add("SP-END-1", "goes-on", {"round": s.round, "over": False},
                  note=f"no stack ran out by round {s.round}: the game goes on")
        trace.add(
            "SP-ROUND-1",
            "round-end",
            {"round": s.round, "discarded": [s.rules.names[k] for k in gone]},
            note=f"end of round {s.round}: the lower row is discarded, the upper row moves down",
        )
    s = _refill(_rows_moved(s, discard=s.discard + gone, lower=s.upper, upper=()), phase.refill, trace)
    n = s.players
    markers = tuple((m + 1) % n for m in s.markers)
    s = _round_started(
        s, markers=markers, turned=((),) * n, round=s.round + 1, phase_index=0, turn=markers[0], passes=0
    )
    if trace is not None:
        trace.add(
            "SP-ROUND-3", "markers", {"markers": list(markers)}, note="the start-player markers pass one seat"
        )
        trace.add(
            "SP-PHASE-2",
            "phase-start",
            {"phase": PHASES[0].name, "round": s.round, "to_act": s.turn},
            note=f"round {s.round}, worker phase: P{s.turn} starts",
        )
    return s


def _final_scoring(s: State, trace: Trace | None = None) -> State:
    """The game ends after its last round (SP-END-1): the final scoring (SP-END-4..7) added to each seat's
    VP; the game is over (with ``trace``, the result: SP-END-8, SP-END-9)."""
    if trace is not None:
        trace.add("SP-END-1", "game-over", {"round": s.round, "over": True, "to_act": []},
                  note=f"round {s.round} was the last: the game ends")
    vp = list(s.vp)
    for p in range(s.players):
        b = final_breakdown(s, p, trace)
        vp[p] += b["total"]
    after = _finished(s, vp=tuple(vp), passes=0, over=True)
    if trace is not None:
        standings(after, trace)
    return after
