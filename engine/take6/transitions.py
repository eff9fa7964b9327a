"""6 nimmt! transitions: one function, :func:`step`, shared by both API tiers, and the checks of the checked
tier (:func:`check`).

Every card is placed by :func:`engine.take6.placement.locate` (or, for the standard placement on the hot
path, by :func:`_place_fast`, which a property test checks against it).  Successor states are built with
:func:`engine.take6.layout.build` (every field named; the next turn's selection on the hot path in
:func:`_place_fast` positionally, its one fast form).  Given a :class:`~engine.derivation.Trace`, each
step records its derivation: the reveal, every placement with the rule that chose the row, every row
taken and why, the bullheads of each card taken, round scores, the end and the result;
:mod:`engine.take6.narration` words the notes.  Without a
trace nothing is recorded (the hot path pays one ``is None`` test).

>>> from engine.derivation import Trace, render
>>> from engine.take6 import GAME, Deal, Select
>>> s = GAME.new_game(2, setup=Deal(hands=((1, 2, 3, 4, 5, 6, 7, 8, 9, 10),
...                                         (11, 12, 13, 14, 15, 16, 17, 18, 19, 20)), rows=(30, 40, 50, 60)))
>>> trace = Trace()
>>> s = step(step(s, Select(0, 1)), Select(1, 11), trace)
>>> s.phase, s.chooser
('choose', 0)
>>> for line in render(trace.steps)[-2:]: print(line)
P0's 1 fits no row: P0 must choose a row to take [T6-PLACE-3]
  no row's last card is lower than 1 [T6-PLACE-1]
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from engine.derivation import Trace
from engine.errors import GameOver, IllegalAction, IllegalSetup, NotYourTurn
from engine.take6.deal import check_setup, deal_round
from engine.take6.layout import (
    ALL,
    DROP,
    I_ENDS,
    I_FIXED,
    I_HELD,
    I_PENALTIES,
    I_PENDING,
    I_PHASE,
    I_PILES,
    I_ROWS,
    I_RULES,
    I_SELECTED,
    I_SELECTS,
    I_TO_ACT,
    ONE,
    ZEROS,
    Hands,
    Rows,
    Selects,
    build,
    ends_of,
    new,
    replace,
)
from engine.take6.model import SELECTS, Action, Deal, Draft, DraftStart, Flip, Select, State, TakeRow
from engine.take6.narration import (
    card_names,
    drafted_note,
    flip_note,
    placement_note,
    plural,
    reveal_note,
    round_note,
    sixth_note,
)
from engine.take6.placement import Placement, locate, search_clause
from engine.take6.rules import SHIPPED, Rules
from engine.take6.scoring import bullheads_of, end_step, result_of

__all__ = ["check", "granting_clause", "record_take", "step", "take_row", "turn_fast"]


def _with(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    """``values`` with ``values[index]`` replaced (via a list: the fastest way for short tuples)."""
    changed = list(values)
    changed[index] = value
    return tuple(changed)


def _choose_clause(rules: Rules) -> str:
    """The clause under which a card that fits no row makes its player take a row (T6-PLACE-3/T6-PRO-5)."""
    return "T6-PRO-5" if rules.placement == "ends_and_starts" else "T6-PLACE-3"


def record_take(trace: Trace, seat: int, cards: tuple[int, ...], rules: Rules | None = None) -> None:
    """The derivation of a row taken: the cards go to the seat's pile (T6-PILE-1), each card's bullheads
    by the rule of the table that decides it (T6-BULL-1..5), with the rule's subject (``55``, ``x11`` ...),
    as the tables of ``rules`` say (default: the shipped tables).

    >>> t = Trace()
    >>> record_take(t, 1, (55, 3))
    >>> [(s.clause, s.data["card"], s.data["heads"]) for s in t.steps[0].steps]
    [('T6-BULL-1', 55, 7), ('T6-BULL-5', 3, 1)]
    """
    book = rules.book if rules is not None and rules.book is not None else SHIPPED
    heads = book.heads
    with trace.step(
        "T6-PILE-1", "taken", {"seat": seat, "cards": list(cards), "heads": bullheads_of(cards, heads)}
    ):
        for c in cards:
            trace.add(
                book.head_clause[c],
                "bullheads",
                {"card": c, "heads": heads[c], "seat": seat, "subject": book.head_subject[c]},
            )


def _record_placement(
    trace: Trace, rules: Rules, seat: int, pl: Placement, rows: list[tuple[int, ...]]
) -> None:
    """The derivation of one placement, from :func:`~engine.take6.placement.locate`'s outcome: the row and
    side with every candidate (T6-PLACE-1 / T6-PRO-1..3), then the row's capacity (T6-PLACE-2 / T6-PRO-4):
    room for the card, or its 6th card takes the row; or the card fits no row (T6-PLACE-3 / T6-PRO-5),
    from the search that found none (``no-row``: every row's end, and start, T6-PLACE-1 / T6-PRO-1)."""
    card = pl.card
    if pl.row is None:
        wait = {"card": card, "seat": seat, "phase": "choose", "to_act": [seat]}
        with trace.step(pl.clauses[0], "fits-nowhere", wait, note=placement_note(seat, pl, rows)):
            both = rules.placement == "ends_and_starts"
            starts = {"starts": [r[0] for r in rows if r]} if both else {}
            trace.add(search_clause(rules.placement), "no-row",
                      {**wait, "ends": [r[-1] for r in rows if r], **starts,
                       "lengths": [len(r) for r in rows], "capacity": rules.capacity},
                      note=f"no row's last card is lower than {card}"
                      + (", nor its first card higher" if both else ""))
        return
    row = rows[pl.row]
    cap_clause = "T6-PRO-4" if rules.placement == "ends_and_starts" else "T6-PLACE-2"
    candidates = [[c.row, c.side, c.neighbour, c.difference] for c in pl.candidates]
    data = {"card": card, "seat": seat, "row": pl.row, "side": pl.side, "candidates": candidates}
    with trace.step(pl.clauses[0], "row", data, note=placement_note(seat, pl, rows)):
        for clause in pl.clauses[1:]:
            if clause != cap_clause:
                tie = clause == "T6-PRO-3"
                trace.add(clause, "tie" if tie else "closest", {"card": card, "row": pl.row},
                          chosen="professional_tie=start" if tie and rules.tie_to_start else None)
        facts = {
            "card": card,
            "seat": seat,
            "row": pl.row,
            "length": len(row),
            "capacity": rules.capacity,
            "cards": list(row),
        }
        if pl.sixth:
            with trace.step(cap_clause, "sixth", facts, note=sixth_note(seat, pl, row)):
                record_take(trace, seat, row, rules)
        else:
            trace.add(cap_clause, "room", facts)


def _resolve(
    s: State,
    rows_t: Rows,
    pending: tuple[tuple[int, int], ...],
    piles_t: Rows,
    penalties_t: tuple[int, ...],
    *,
    held: Hands,
    selects: Selects,
    trace: Trace | None,
) -> State:
    """Place the revealed cards of ``pending`` in ascending order (T6-TURN-1, T6-TURN-2); pause on a card
    that fits nowhere (T6-PLACE-3 / T6-PRO-5) with its player to act, else finish the turn.  Every card is
    placed by :func:`~engine.take6.placement.locate`."""
    rules = s[I_RULES]
    rows = list(rows_t)
    piles: list[tuple[int, ...]] | None = None
    penalties: list[int] | None = None
    cap = rules.capacity
    for k, (card, p) in enumerate(pending):
        pl = locate(rows, card, rules.placement, cap, rules.tie_to_start)
        if trace is not None:
            _record_placement(trace, rules, p, pl, rows)
        if pl.row is None:
            return build(
                rules=rules,
                fixed=s[I_FIXED],
                phase="choose",
                rows=tuple(rows),
                ends=ends_of(rows),
                pending=pending[k:],
                piles=piles_t if piles is None else tuple(piles),
                penalties=penalties_t if penalties is None else tuple(penalties),
                held=held,
                selects=selects,
                selected=ZEROS[rules.players],
                to_act=(p,),
            )
        r = pl.row
        row = rows[r]
        if pl.sixth:  # T6-PLACE-2: the row's cards to the seat's pile (T6-PILE-1), the card starts it anew
            if piles is None or penalties is None:
                piles = list(piles_t)
                penalties = list(penalties_t)
            piles[p] = piles[p] + row
            penalties[p] += bullheads_of(row, rules.heads)
            rows[r] = (card,)
        elif pl.side == "end":
            rows[r] = (*row, card)
        else:
            rows[r] = (card, *row)
    return _after_turn(
        s,
        tuple(rows),
        piles_t if piles is None else tuple(piles),
        penalties_t if penalties is None else tuple(penalties),
        held=held,
        selects=selects,
        last=pending[-1][1],
        trace=trace,
    )


def _after_turn(
    s: State,
    rows: Rows,
    piles: Rows,
    penalties: tuple[int, ...],
    *,
    held: Hands,
    selects: Selects,
    last: int,
    trace: Trace | None,
) -> State:
    """After a turn's cards are all placed: the next turn, or the end of the round (T6-ROUND-1)."""
    rules = s[I_RULES]
    n = rules.players
    if rules.play == "flip":  # kids: the next seat flips while any pile is left (T6-KIDS-2)
        nxt = ("T6-KIDS-2", "flip", ((last + 1) % n,)) if any(held) else None
    else:  # everyone selects again while hands hold cards (T6-SELECT-1)
        nxt = ("T6-SELECT-1", "select", ALL[n]) if held[0] else None
    if nxt is not None:
        clause, phase, acting = nxt
        if trace is not None:
            trace.add(clause, "next", {"phase": phase, "to_act": list(acting)})
        return build(
            rules=rules,
            fixed=s[I_FIXED],
            phase=phase,
            rows=rows,
            ends=ends_of(rows),
            pending=(),
            piles=piles,
            penalties=penalties,
            held=held,
            selects=selects,
            selected=ZEROS[n],
            to_act=acting,
        )
    return _end_round(s, rows, piles, penalties, held=held, selects=selects, trace=trace)


def _end_round(
    s: State,
    rows: Rows,
    piles: Rows,
    penalties: tuple[int, ...],
    *,
    held: Hands,
    selects: Selects,
    trace: Trace | None,
) -> State:
    """Score the round (T6-ROUND-2) and end the game (T6-END-1, T6-KIDS-3) or deal the next round."""
    rules = s[I_RULES]
    n = rules.players
    seed, rnd, _, start, deals = s[I_FIXED]
    if rules.end == "threshold":
        assert rules.threshold is not None
        over = max(penalties) >= rules.threshold
    else:
        assert rules.rounds is not None
        over = rnd >= rules.rounds
    if trace is not None:
        trace.add("T6-ROUND-1", "round-ends", {"round": rnd, "over": over})
        scores = [
            {"seat": p, "added": bullheads_of(piles[p], rules.heads), "total": penalties[p]} for p in range(n)
        ]
        with trace.step(
            "T6-ROUND-2",
            "round-scores",
            {"round": rnd, "scores": scores},
            note=round_note(rules, rnd, piles, penalties),
        ):
            book = rules.book or SHIPPED
            for p in range(n):
                with trace.step("T6-ROUND-2", "player-score", scores[p]):
                    for c in piles[p]:
                        trace.add(
                            book.head_clause[c],
                            "bullheads",
                            {"card": c, "heads": book.heads[c], "seat": p, "subject": book.head_subject[c]},
                        )
        end_step(trace, rules, rnd, penalties, over)
    if over:
        state = build(
            rules=rules,
            fixed=s[I_FIXED],
            phase="over",
            rows=rows,
            ends=ends_of(rows),
            pending=(),
            piles=piles,
            penalties=penalties,
            held=held,
            selects=selects,
            selected=ZEROS[n],
            to_act=(),
        )
        if trace is not None:
            result_of(state, rules, trace)
        return state
    return deal_round(rules, seed, rnd + 1, penalties, deals, prev_start=start, trace=trace)


def _select(s: State, p: int, card: int, trace: Trace | None) -> State:
    """Record a selection (T6-SELECT-1); the card stays in the stored hand, hidden, until the last player
    has selected: then all are revealed (T6-SELECT-2), leave their hands, and are placed."""
    sel = _with(s[I_SELECTED], p, card)
    acting = s[I_TO_ACT]
    acting = acting[1:] if acting[0] == p else tuple(q for q in acting if q != p)
    if acting:
        if trace is not None:
            trace.add(
                "T6-SELECT-1",
                "selected",
                {"seat": p},
                note=f"P{p} selects a card, hidden until everyone has selected",
            )
            trace.add("T6-SELECT-2", "waits", {"phase": "select", "to_act": list(acting)})
        return replace(s, selected=sel, to_act=acting)
    if trace is None and s[I_RULES].placement == "ends":
        return turn_fast(s, sel)
    held, selects = _reveal_hands(s[I_HELD], s[I_SELECTS], sel)
    return _reveal(s, sel, p, held=held, selects=selects, trace=trace)


def _reveal_hands(held: Hands, selects: Selects, sel: tuple[int, ...]) -> tuple[Hands, Selects]:
    """Every revealed card leaves its hand, and its selection the hand's prebuilt selections: both by one
    prebuilt ``itemgetter`` of the other positions (every hand has the same length during a selection)."""
    drop = DROP[len(held[0])]
    new_held = list(held)
    new_selects = list(selects)
    p = 0
    for hand in held:
        without = drop[hand.index(sel[p])]
        new_held[p] = without(hand)
        new_selects[p] = without(new_selects[p])
        p += 1  # noqa: SIM113 (a counter is cheaper than enumerate's pairs)
    return tuple(new_held), tuple(new_selects)


def turn_fast(s: State, sel: tuple[int, ...]) -> State:
    """Hot path of a revealed turn (``ends`` placement, no trace): the cards leave the hands (as in
    :func:`_reveal_hands`, inlined) and are placed lowest first; ``sel.index`` names a card's player."""
    held = s[I_HELD]
    drop = DROP[len(held[0])]
    new_held = list(held)
    new_selects = list(s[I_SELECTS])
    p = 0
    for hand in held:
        without = drop[hand.index(sel[p])]
        new_held[p] = without(hand)
        new_selects[p] = without(new_selects[p])
        p += 1  # noqa: SIM113 (a counter is cheaper than enumerate's pairs)
    cards = sorted(sel)
    rows, ends = list(s[I_ROWS]), list(s[I_ENDS])
    return _place_fast(
        s, rows, ends, cards, sel.index, s[I_PILES], s[I_PENALTIES], tuple(new_held), tuple(new_selects)
    )


def _place_fast(  # noqa: PLR0917 (the hot path: positional is the cheapest call)
    s: State,
    rows: list[tuple[int, ...]],
    ends: list[int],
    cards: Collection[int],
    owner: Callable[[int], int],
    piles: Rows,
    penalties: tuple[int, ...],
    held: Hands,
    selects: Selects,
    last: int = -1,
) -> State:
    """Hot path of :func:`_resolve` for the ``ends`` placement without a trace: place ``cards`` (ascending;
    ``owner(card)`` is its player) with the same outcome.  The state machine in properties/ checks every
    step against the traced path, which places each card with :func:`~engine.take6.placement.locate`."""
    rules = s[I_RULES]
    cap = rules.capacity
    for card in cards:
        # the row whose end is the highest one below the card (T6-PLACE-1); row ends are cards, never 0
        best_end = 0
        for end in ends:
            if end < card and end > best_end:  # two jumps: each comparison specializes (not chained)
                best_end = end
        if not best_end:
            # fits no row (T6-PLACE-3): only the lowest card can (each later card is above the row end the
            # card before it made), so all the cards wait for the player's row choice
            pending = tuple(zip(cards, map(owner, cards)))  # noqa: B905 (equal lengths by construction)
            # the hot path's positional form, in the layout's field order (see layout.build)
            return new(
                State,
                (
                    rules,
                    s[I_FIXED],
                    "choose",
                    tuple(rows),
                    tuple(ends),
                    pending,
                    piles,
                    penalties,
                    held,
                    selects,
                    ZEROS[rules.players],
                    (pending[0][1],),
                ),
            )
        r = ends.index(best_end)
        ends[r] = card
        best = rows[r]
        if len(best) < cap:
            rows[r] = best + ONE[card]
        else:
            # the 6th card: its player takes the row (T6-PLACE-2)
            p = owner(card)
            changed = list(piles)
            changed[p] += best
            piles = tuple(changed)
            totals = list(penalties)
            totals[p] += sum(map(rules.heads.__getitem__, best))
            penalties = tuple(totals)
            rows[r] = ONE[card]
    if rules.play == "flip":
        for c in cards:
            last = owner(c)
        return _after_turn(
            s, tuple(rows), piles, penalties, held=held, selects=selects, last=last, trace=None
        )
    if held[0]:  # the hot path's positional form, in the layout's field order (see layout.build)
        n = rules.players
        return new(
            State,
            (
                rules,
                s[I_FIXED],
                "select",
                tuple(rows),
                tuple(ends),
                (),
                piles,
                penalties,
                held,
                selects,
                ZEROS[n],
                ALL[n],
            ),
        )
    return _end_round(s, tuple(rows), piles, penalties, held=held, selects=selects, trace=None)


def _reveal(
    s: State, sel: tuple[int, ...], p: int, *, held: Hands, selects: Selects, trace: Trace | None
) -> State:
    pending = sorted(zip(sel, range(len(sel)), strict=True))
    if trace is not None:
        with trace.step(
            "T6-SELECT-2",
            "revealed",
            {"seat": p, "cards": [[c, q] for c, q in pending]},
            note=reveal_note(p, pending),
        ):
            trace.add(
                "T6-TURN-1",
                "order",
                {"cards": [c for c, _q in pending]},
                note="placed lowest first: " + ", ".join(str(c) for c, _q in pending),
            )
            trace.add("T6-TURN-2", "in-turn", {"cards": len(pending)})
    return _resolve(
        s, s[I_ROWS], tuple(pending), s[I_PILES], s[I_PENALTIES], held=held, selects=selects, trace=trace
    )


def take_row(s: State, p: int, r: int, trace: Trace | None) -> State:
    """Seat ``p`` takes row ``r`` for its waiting card (T6-PLACE-3 / T6-PRO-5, T6-PILE-1): the card starts
    the row, and the other waiting cards are placed on the rows as it left them (T6-TURN-1, T6-TURN-2)."""
    pending = s[I_PENDING]
    card = pending[0][0]
    rows = s[I_ROWS]
    row = rows[r]
    changed = list(s[I_PILES])
    changed[p] += row
    piles = tuple(changed)
    rules = s[I_RULES]
    heads = sum(map(rules.heads.__getitem__, row))
    totals = list(s[I_PENALTIES])
    totals[p] += heads
    penalties = tuple(totals)
    if trace is None and rules.placement == "ends":
        rows_list = list(rows)
        rows_list[r] = ONE[card]
        ends = list(s[I_ENDS])
        ends[r] = card
        owners = dict(pending[1:])  # the waiting cards (its keys, ascending) and their players
        return _place_fast(
            s, rows_list, ends, owners, owners.__getitem__, piles, penalties, s[I_HELD], s[I_SELECTS], p
        )
    rows = (*rows[:r], (card,), *rows[r + 1 :])
    if trace is not None:
        data = {"seat": p, "row": r, "card": card, "cards": list(row), "heads": heads}
        with trace.step(
            _choose_clause(rules),
            "takes",
            data,
            note=f"P{p} takes row {r}: {card_names(row)} ({plural(heads, 'bullhead')}); "
            f"{card} starts row {r}",
        ):
            record_take(trace, p, row, rules)
    if len(pending) > 1:
        if trace is not None:
            rest = [c for c, _q in pending[1:]]
            trace.add("T6-TURN-2", "rest", {"cards": rest},
                      note="then the other revealed cards, lowest first: " + ", ".join(map(str, rest)))
        return _resolve(
            s, rows, pending[1:], piles, penalties, held=s[I_HELD], selects=s[I_SELECTS], trace=trace
        )
    return _after_turn(s, rows, piles, penalties, held=s[I_HELD], selects=s[I_SELECTS], last=p, trace=trace)


def _draft(s: State, p: int, card: int, trace: Trace | None) -> State:
    rules = s[I_RULES]
    seed, rnd, stock, start, deals = s[I_FIXED]
    i = stock.index(card)
    stock = stock[:i] + stock[i + 1 :]
    held_before = s[I_HELD]
    hand = tuple(sorted((*held_before[p], card)))
    held = (*held_before[:p], hand, *held_before[p + 1 :])
    selects_before = s[I_SELECTS]
    selects = (*selects_before[:p], tuple(map(SELECTS[p].__getitem__, hand)), *selects_before[p + 1 :])
    n = rules.players
    drafted = sum(len(h) for h in held)
    if trace is not None:
        trace.add("T6-LOGIC-1", "drafted", {"seat": p, "card": card}, note=drafted_note(p, card))
    over = drafted >= n * rules.hand_size
    if over and trace is not None:
        trace.add(
            "T6-LOGIC-2",
            "rows",
            {"rows": list(stock), "phase": "select", "to_act": list(ALL[n])},
            note=f"The draft is over; the {len(stock)} cards left start the rows in ascending order: "
            f"{card_names(stock)}",
        )
    elif trace is not None:
        trace.add("T6-LOGIC-1", "next", {"phase": "draft", "to_act": [(start + drafted) % n]})
    return build(
        rules=rules,
        fixed=(seed, rnd, () if over else stock, start, deals),
        phase="select" if over else "draft",
        rows=tuple((c,) for c in stock) if over else s[I_ROWS],
        ends=stock if over else s[I_ENDS],
        pending=s[I_PENDING],
        piles=s[I_PILES],
        penalties=s[I_PENALTIES],
        held=held,
        selects=selects,
        selected=ZEROS[n] if over else s[I_SELECTED],
        to_act=ALL[n] if over else ((start + drafted) % n,),
    )


def _flip(s: State, p: int, trace: Trace | None) -> State:
    pile = s[I_HELD][p]
    card = pile[0]
    held_before = s[I_HELD]
    held = (*held_before[:p], pile[1:], *held_before[p + 1 :])
    if trace is not None:
        trace.add("T6-KIDS-2", "flipped", {"seat": p, "card": card}, note=flip_note(p, card))
    elif s[I_RULES].placement == "ends":
        return _place_fast(
            s,
            list(s[I_ROWS]),
            list(s[I_ENDS]),
            [card],
            {card: p}.__getitem__,
            s[I_PILES],
            s[I_PENALTIES],
            held,
            s[I_SELECTS],
        )
    return _resolve(
        s, s[I_ROWS], ((card, p),), s[I_PILES], s[I_PENALTIES], held=held, selects=s[I_SELECTS], trace=trace
    )


def _chance(s: State, a: Deal | DraftStart, trace: Trace | None) -> State:
    """The chance step of phase ``deal``: the round starts with the given deal (T6-SETUP-5) or, in logic,
    the given start player of the draft (T6-LOGIC-1)."""
    _seed, rnd, _stock, start, _deals = s[I_FIXED]
    return deal_round(s[I_RULES], None, rnd, s[I_PENALTIES], (a,), prev_start=start, trace=trace)


def step(s: State, a: Action | Deal | DraftStart, trace: Trace | None = None) -> State:
    """The one transition both tiers use: ``a`` must be legal in ``s``; with a trace, its derivation."""
    t = a.__class__
    if t is Select:
        return _select(s, a.player, a.card, trace)  # type: ignore[union-attr]
    if t is TakeRow:
        return take_row(s, a.player, a.row, trace)  # type: ignore[union-attr]
    if t is Draft:
        return _draft(s, a.player, a.card, trace)  # type: ignore[union-attr]
    if t is Flip:
        return _flip(s, a.player, trace)  # type: ignore[union-attr]
    return _chance(s, a, trace)  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------------
# Validation (the checked tier)


def _check_chance(s: State, a: object, trace: Trace | None) -> None:
    """A chance step: in phase ``deal`` only a deal of this round is legal (T6-SETUP-5, T6-LOGIC-1)."""
    rules = s.rules
    if s.phase != "deal":
        raise IllegalAction(
            "T6-SETUP-4", f"round {s.round} is already dealt: a deal comes only when a round starts"
        )
    wanted = "DraftStart" if rules.deal == "draft" else "Deal"
    if type(a).__name__ != wanted:
        raise IllegalAction(
            "T6-SETUP-5", f"round {s.round} waits for its deal (a {wanted}), not {type(a).__name__}"
        )
    try:
        check_setup(rules, a)
    except IllegalSetup as exc:
        raise IllegalAction(exc.clause, exc.message) from exc
    if trace is not None:
        clause = "T6-LOGIC-1" if rules.deal == "draft" else "T6-SETUP-5"
        trace.add(
            clause, "granted", {"round": s.round}, note=f"round {s.round} waits for its deal: a {wanted}"
        )


NOT_AN_ACTION = "T6-ACT-1"
"""The clause a value that is no 6 nimmt! action is refused under (only the players who must act act)."""

MAY_ACT = "T6-ACT-1"
"""The clause of the step every action's grant passes, that its seat must act now (the check that refuses
every other seat's row choice, flip or draft)."""

_PHASE_ACTION = {"select": Select, "choose": TakeRow, "draft": Draft, "flip": Flip}
_ACTION_NAME = {Select: "select", TakeRow: "take_row", Draft: "draft", Flip: "flip"}
_PHASE_WORDS = {
    "select": "a card selection",
    "choose": "a row choice",
    "draft": "a draft pick",
    "flip": "a flip",
}


def granting_clause(s: State, a: object) -> str:
    """The clause that makes an action of ``a``'s kind legal in ``s``: a selection T6-SELECT-1, a row
    choice the rule under which the waiting card fits no row (T6-PLACE-3 / T6-PRO-5), a draft pick
    T6-LOGIC-1, a flip T6-KIDS-2, a round's deal T6-SETUP-5 (logic: T6-LOGIC-1).

    >>> from engine.take6 import GAME
    >>> granting_clause(GAME.new_game(2, seed=1, variant="professional"), TakeRow(0, 1))
    'T6-PRO-5'
    """
    t = type(a)
    if t is TakeRow:
        return _choose_clause(s.rules)
    if t is Draft or t is DraftStart:
        return "T6-LOGIC-1"
    if t is Flip:
        return "T6-KIDS-2"
    if t is Deal:
        return "T6-SETUP-5"
    return "T6-SELECT-1" if t is Select else "T6-ACT-1"


def check(s: State, a: object, trace: Trace | None = None) -> None:
    """Raise the IllegalAction (naming the clause) that ``a`` breaks in ``s``; return if it is legal.

    With a trace, each check passed is recorded as a step (the game is on, the seat must act, the action
    is of the awaited kind, the card is in the hand ...), the granting clause last; a refusal raises before
    its step would be recorded (:meth:`Take6.why` records it from the exception)."""
    if s.phase == "over":
        raise GameOver("T6-ACT-2", "the game is over")
    if trace is not None:
        trace.add("T6-ACT-2", "game-on", {"phase": s.phase})
    t = type(a)
    if s[I_PHASE] == "deal" or t is Deal or t is DraftStart:
        _check_chance(s, a, trace)
        return

    if t not in _ACTION_NAME:
        raise IllegalAction(NOT_AN_ACTION, f"{a!r} is not a 6 nimmt! action")
    p = a.player  # type: ignore[attr-defined]
    if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < s.players:
        raise IllegalAction("T6-ACT-1", f"player must be a seat 0..{s.players - 1}, got {p!r}")
    if p not in s.to_act:
        if s.phase == "select":
            raise NotYourTurn("T6-SELECT-2", f"P{p} has already selected a card this turn")
        waiting = ", ".join(f"P{q}" for q in s.to_act)
        raise NotYourTurn(
            MAY_ACT, f"{_PHASE_WORDS[s.phase]} by {waiting} is awaited, not an action of P{p}"
        )
    if trace is not None:
        trace.add(
            MAY_ACT,
            "seat-acts",
            {"seat": p, "to_act": list(s.to_act)},
            note=f"P{p} is to act now ({_PHASE_WORDS[s.phase]} is awaited)",
        )
    expected = _PHASE_ACTION[s.phase]
    if t is not expected:
        if t is TakeRow:
            raise IllegalAction("T6-CHOOSE-1", f"P{p} has no card waiting for a row choice")
        raise IllegalAction("T6-ACT-1", f"{_PHASE_WORDS[s.phase]} by P{p} is awaited, not {_ACTION_NAME[t]}")
    if t is Select:
        card = a.card  # type: ignore[attr-defined]
        if card.__class__ is not int or card not in s.hands[p]:  # not a bool, a float or an int subclass
            raise IllegalAction("T6-SELECT-1", f"card {card!r} is not in P{p}'s hand")
        if trace is not None:
            trace.add(
                "T6-SELECT-1",
                "in-hand",
                {"seat": p, "card": card},
                note=f"P{p} holds {card} and selects it for this turn",
            )
    elif t is TakeRow:
        r = a.row  # type: ignore[attr-defined]
        if isinstance(r, bool) or not isinstance(r, int) or not 0 <= r < len(s.rows):
            raise IllegalAction("T6-CHOOSE-2", f"row must be 0..{len(s.rows) - 1}, got {r!r}")
        if trace is not None:
            trace.add(
                "T6-CHOOSE-2",
                "row-exists",
                {"seat": p, "row": r, "rows": len(s.rows)},
                note=f"row {r} is on the table (rows 0..{len(s.rows) - 1})",
            )
            card = s.pending[0][0]
            trace.add(
                "T6-CHOOSE-1",
                "waiting",
                {"seat": p, "card": card},
                note=f"P{p}'s {card} waits for a row choice",
            )
            trace.add(
                _choose_clause(s.rules),
                "may-take",
                {"seat": p, "row": r, "card": card},
                note=f"{card} fits no row, so P{p} may take any row: row {r} is on the table",
            )
            trace.add("T6-CHOOSE-2", "row-exists", {"row": r, "rows": len(s.rows)})
    elif t is Draft:
        card = a.card  # type: ignore[attr-defined]
        if card.__class__ is not int or card not in s.stock:  # not a bool, a float or an int subclass
            raise IllegalAction("T6-LOGIC-1", f"card {card!r} is not in the face-up pool")
        if trace is not None:
            trace.add(
                "T6-LOGIC-1",
                "in-pool",
                {"seat": p, "card": card},
                note=f"{card} lies in the face-up pool: P{p} may draft it",
            )
    elif trace is not None:
        trace.add("T6-KIDS-2", "flips", {"seat": p}, note=f"P{p} flips the top card of their pile")
