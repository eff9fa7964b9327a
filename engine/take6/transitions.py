"""6 nimmt! transitions: one function, :func:`step`, shared by both API tiers, and the checks of the checked
tier (:func:`check`).

Every card is placed by :func:`engine.take6.placement.locate` (or, for the standard placement on the hot
path, by :func:`_place_fast`, which a property test checks against it).  Successor states are built
positionally from the layout drawn in :mod:`engine.take6.layout`; with a log (a list) each step appends the
readable lines :mod:`engine.take6.narration` words.

>>> from engine.take6 import GAME, Deal, Select
>>> s = GAME.new_game(2, setup=Deal(hands=((1, 2, 3, 4, 5, 6, 7, 8, 9, 10),
...                                         (11, 12, 13, 14, 15, 16, 17, 18, 19, 20)), rows=(30, 40, 50, 60)))
>>> log: list[str] = []
>>> s = step(step(s, Select(0, 1)), Select(1, 11), log)
>>> s.phase, s.chooser, log[-1]
('choose', 0, "  P0's 1 fits no row: P0 must choose a row to take [T6-PLACE-3].")
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from engine.errors import GameOver, IllegalAction, IllegalSetup, NotYourTurn
from engine.take6.deal import check_setup, deal_round
from engine.take6.layout import ALL, DROP, ONE, SELECT, ZEROS, Hands, Selects, ends_of, new
from engine.take6.model import Action, Deal, Draft, DraftStart, Flip, Select, State, TakeRow
from engine.take6.narration import card_names, describe_placement, plural, shown, standings
from engine.take6.placement import locate
from engine.take6.rules import BULLHEADS
from engine.take6.scoring import bullheads_of

__all__ = ["check", "step", "take_row", "turn_fast"]

_new = new
_ALL, _DROP, _SELECT, _ZEROS, _ONE, _BH = ALL, DROP, SELECT, ZEROS, ONE, BULLHEADS
_ends = ends_of
_bullheads_of = bullheads_of
_names = card_names
_plural = plural
_shown = shown
_standings = standings
_describe_placement = describe_placement


def _with(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """``values`` with ``values[index]`` replaced (via a list: the fastest way for short tuples)."""
    changed = list(values)
    changed[index] = value
    return tuple(changed)


def _resolve(
    s: State,
    rows_t: tuple[tuple[int, ...], ...],
    pending: tuple[tuple[int, int], ...],
    piles_t: tuple[tuple[int, ...], ...],
    penalties_t: tuple[int, ...],
    *,
    held: Hands,
    selects: Selects,
    log: list[str] | None,
) -> State:
    """Place the revealed cards of ``pending`` in ascending order (T6-TURN-1, T6-TURN-2); pause on a card
    that fits nowhere (T6-PLACE-3 / T6-PRO-5) with its player to act, else finish the turn.  Every card is
    placed by :func:`~engine.take6.placement.locate`."""
    rules = s[0]
    rows = list(rows_t)
    piles: list[tuple[int, ...]] | None = None
    penalties: list[int] | None = None
    cap = rules.capacity
    for k, (card, p) in enumerate(pending):
        pl = locate(rows, card, rules.placement, cap, rules.tie_to_start)
        if log is not None:
            log.append(_describe_placement(p, pl, rows))
        if pl.row is None:
            return _new(
                State,
                (
                    rules,
                    s[1],
                    "choose",
                    tuple(rows),
                    _ends(rows),
                    pending[k:],
                    piles_t if piles is None else tuple(piles),
                    penalties_t if penalties is None else tuple(penalties),
                    held,
                    selects,
                    _ZEROS[rules.players],
                    (p,),
                ),
            )
        r = pl.row
        row = rows[r]
        if pl.sixth:
            if piles is None or penalties is None:
                piles = list(piles_t)
                penalties = list(penalties_t)
            piles[p] = piles[p] + row
            penalties[p] += _bullheads_of(row)
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
        log=log,
    )


def _after_turn(
    s: State,
    rows: tuple[tuple[int, ...], ...],
    piles: tuple[tuple[int, ...], ...],
    penalties: tuple[int, ...],
    *,
    held: Hands,
    selects: Selects,
    last: int,
    log: list[str] | None,
) -> State:
    """After a turn's cards are all placed: the next turn, or the end of the round (T6-ROUND-1)."""
    rules = s[0]
    n = rules.players
    if rules.play == "flip":
        if any(held):
            return _new(
                State,
                (
                    rules,
                    s[1],
                    "flip",
                    rows,
                    _ends(rows),
                    (),
                    piles,
                    penalties,
                    held,
                    selects,
                    _ZEROS[n],
                    ((last + 1) % n,),
                ),
            )
    elif held[0]:
        return _new(
            State,
            (
                rules,
                s[1],
                "select",
                rows,
                _ends(rows),
                (),
                piles,
                penalties,
                held,
                selects,
                _ZEROS[n],
                _ALL[n],
            ),
        )
    return _end_round(s, rows, piles, penalties, held=held, selects=selects, log=log)


def _end_round(
    s: State,
    rows: tuple[tuple[int, ...], ...],
    piles: tuple[tuple[int, ...], ...],
    penalties: tuple[int, ...],
    *,
    held: Hands,
    selects: Selects,
    log: list[str] | None,
) -> State:
    """Score the round (T6-ROUND-2) and end the game (T6-END-1, T6-KIDS-3) or deal the next round."""
    rules = s[0]
    n = rules.players
    if rules.end == "threshold":
        assert rules.threshold is not None
        over = max(penalties) >= rules.threshold
    else:
        assert rules.rounds is not None
        over = s[1][1] >= rules.rounds
    if log is not None:
        sign = "-" if rules.display == "countdown" else "+"
        parts = [f"P{p} {sign}{_bullheads_of(piles[p])} = {_shown(rules, penalties[p])}" for p in range(n)]
        unit = "points left" if rules.display == "countdown" else "bullheads"
        log.append(f"Round {s[1][1]} ends ({unit}): {', '.join(parts)} [T6-ROUND-2].")
    if over:
        state: State = _new(
            State,
            (rules, s[1], "over", rows, _ends(rows), (), piles, penalties, held, selects, _ZEROS[n], ()),
        )
        if log is not None:
            log.extend(_standings(state, rules))
        return state
    seed, rnd, _, start, deals = s[1]
    return deal_round(rules, seed, rnd + 1, penalties, deals, prev_start=start, log=log)


def _select(s: State, p: int, card: int, log: list[str] | None) -> State:
    """Record a selection (T6-SELECT-1); the card stays in the stored hand, hidden, until the last player
    has selected: then all are revealed (T6-SELECT-2), leave their hands, and are placed."""
    sel = _with(s[10], p, card)
    acting = s[11]
    acting = acting[1:] if acting[0] == p else tuple(q for q in acting if q != p)
    if acting:
        if log is not None:
            log.append(f"P{p} selects a card, hidden until everyone has selected [T6-SELECT-1, T6-SELECT-2].")
        return _new(State, s[:10] + (sel, acting))  # noqa: RUF005 (concatenation is the fastest here)
    if log is None and s[0].placement == "ends":
        return _turn_fast(s, sel)
    held, selects = _reveal_hands(s[8], s[9], sel)
    return _reveal(s, sel, p, held=held, selects=selects, log=log)


def _reveal_hands(held: Hands, selects: Selects, sel: tuple[int, ...]) -> tuple[Hands, Selects]:
    """Every revealed card leaves its hand, and its selection the hand's prebuilt selections: both by one
    prebuilt ``itemgetter`` of the other positions (every hand has the same length during a selection)."""
    drop = _DROP[len(held[0])]
    new_held = list(held)
    new_selects = list(selects)
    p = 0
    for hand in held:
        without = drop[hand.index(sel[p])]
        new_held[p] = without(hand)
        new_selects[p] = without(new_selects[p])
        p += 1  # noqa: SIM113 (a counter is cheaper than enumerate's pairs)
    return tuple(new_held), tuple(new_selects)


def _turn_fast(s: State, sel: tuple[int, ...]) -> State:
    """Hot path of a revealed turn (``ends`` placement, no log): the cards leave the hands (as in
    :func:`_reveal_hands`, inlined) and are placed lowest first; ``sel.index`` names a card's player."""
    held = s[8]
    drop = _DROP[len(held[0])]
    new_held = list(held)
    new_selects = list(s[9])
    p = 0
    for hand in held:
        without = drop[hand.index(sel[p])]
        new_held[p] = without(hand)
        new_selects[p] = without(new_selects[p])
        p += 1  # noqa: SIM113 (a counter is cheaper than enumerate's pairs)
    cards = sorted(sel)
    rows, ends = list(s[3]), list(s[4])
    return _place_fast(s, rows, ends, cards, sel.index, s[6], s[7], tuple(new_held), tuple(new_selects))


def _place_fast(  # noqa: PLR0917 (the hot path: positional is the cheapest call)
    s: State,
    rows: list[tuple[int, ...]],
    ends: list[int],
    cards: Collection[int],
    owner: Callable[[int], int],
    piles: tuple[tuple[int, ...], ...],
    penalties: tuple[int, ...],
    held: Hands,
    selects: Selects,
    last: int = -1,
) -> State:
    """Hot path of :func:`_resolve` for the ``ends`` placement without a log: place ``cards`` (ascending;
    ``owner(card)`` is its player) with the same outcome.  The state machine in properties/ checks every
    step against the logged path, which places each card with :func:`~engine.take6.placement.locate`."""
    rules = s[0]
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
            return _new(
                State,
                (
                    rules,
                    s[1],
                    "choose",
                    tuple(rows),
                    tuple(ends),
                    pending,
                    piles,
                    penalties,
                    held,
                    selects,
                    _ZEROS[rules.players],
                    (pending[0][1],),
                ),
            )
        r = ends.index(best_end)
        ends[r] = card
        best = rows[r]
        if len(best) < cap:
            rows[r] = best + _ONE[card]
        else:
            # the 6th card: its player takes the row (T6-PLACE-2)
            p = owner(card)
            changed = list(piles)
            changed[p] += best
            piles = tuple(changed)
            totals = list(penalties)
            totals[p] += sum(map(_BH.__getitem__, best))
            penalties = tuple(totals)
            rows[r] = _ONE[card]
    if rules.play == "flip":
        for c in cards:
            last = owner(c)
        return _after_turn(s, tuple(rows), piles, penalties, held=held, selects=selects, last=last, log=None)
    if held[0]:
        n = rules.players
        return _new(
            State,
            (
                rules,
                s[1],
                "select",
                tuple(rows),
                tuple(ends),
                (),
                piles,
                penalties,
                held,
                selects,
                _ZEROS[n],
                _ALL[n],
            ),
        )
    return _end_round(s, tuple(rows), piles, penalties, held=held, selects=selects, log=None)


def _reveal(
    s: State, sel: tuple[int, ...], p: int, *, held: Hands, selects: Selects, log: list[str] | None
) -> State:
    pending = sorted(zip(sel, range(len(sel)), strict=True))
    if log is not None:
        log.append(
            f"P{p} selects a card. All revealed [T6-SELECT-2] and placed lowest first [T6-TURN-1]: "
            + ", ".join(f"P{q} {c}" for c, q in pending)
            + "."
        )
    return _resolve(s, s[3], tuple(pending), s[6], s[7], held=held, selects=selects, log=log)


def _take_row(s: State, p: int, r: int, log: list[str] | None) -> State:
    pending = s[5]
    card = pending[0][0]
    rows = s[3]
    row = rows[r]
    changed = list(s[6])
    changed[p] += row
    piles = tuple(changed)
    heads = sum(map(_BH.__getitem__, row))
    totals = list(s[7])
    totals[p] += heads
    penalties = tuple(totals)
    if log is None and s[0].placement == "ends":
        rows_list = list(rows)
        rows_list[r] = _ONE[card]
        ends = list(s[4])
        ends[r] = card
        owners = dict(pending[1:])  # the waiting cards (its keys, ascending) and their players
        return _place_fast(s, rows_list, ends, owners, owners.__getitem__, piles, penalties, s[8], s[9], p)
    rows = (*rows[:r], (card,), *rows[r + 1 :])
    if log is not None:
        log.append(
            f"  P{p} takes row {r}: {_names(row)} ({_plural(heads, 'bullhead')}); {card} starts row {r} "
            f"[T6-PLACE-3, T6-PILE-1]."
        )
    if len(pending) > 1:
        return _resolve(s, rows, pending[1:], piles, penalties, held=s[8], selects=s[9], log=log)
    return _after_turn(s, rows, piles, penalties, held=s[8], selects=s[9], last=p, log=log)


def _draft(s: State, p: int, card: int, log: list[str] | None) -> State:
    rules = s[0]
    seed, rnd, stock, start, deals = s[1]
    i = stock.index(card)
    stock = stock[:i] + stock[i + 1 :]
    hand = tuple(sorted((*s[8][p], card)))
    held = _with(s[8], p, hand)
    selects = _with(s[9], p, tuple(map(_SELECT[p].__getitem__, hand)))
    n = rules.players
    drafted = sum(len(h) for h in held)
    if log is not None:
        log.append(f"P{p} drafts {card} [T6-LOGIC-1].")
    if drafted < n * rules.hand_size:
        fixed = (seed, rnd, stock, start, deals)
        return _new(State, (rules, fixed, *s[2:8], held, selects, s[10], ((start + drafted) % n,)))
    rows = tuple((c,) for c in stock)
    if log is not None:
        log.append(
            f"The draft is over; the {len(stock)} cards left start the rows in ascending order: "
            f"{_names(stock)} [T6-LOGIC-2]."
        )
    return _new(
        State,
        (
            rules,
            (seed, rnd, (), start, deals),
            "select",
            rows,
            stock,
            (),
            s[6],
            s[7],
            held,
            selects,
            _ZEROS[n],
            _ALL[n],
        ),
    )


def _flip(s: State, p: int, log: list[str] | None) -> State:
    pile = s[8][p]
    card = pile[0]
    held = _with(s[8], p, pile[1:])
    if log is not None:
        log.append(f"P{p} flips {card} [T6-KIDS-2].")
    elif s[0].placement == "ends":
        return _place_fast(s, list(s[3]), list(s[4]), [card], {card: p}.__getitem__, s[6], s[7], held, s[9])
    return _resolve(s, s[3], ((card, p),), s[6], s[7], held=held, selects=s[9], log=log)


def _chance(s: State, a: Deal | DraftStart, log: list[str] | None) -> State:
    """The chance step of phase ``deal``: the round starts with the given deal (T6-SETUP-5) or, in logic,
    the given start player of the draft (T6-LOGIC-1)."""
    _seed, rnd, _stock, start, _deals = s[1]
    return deal_round(s[0], None, rnd, s[7], (a,), prev_start=start, log=log)


def _step(s: State, a: Action | Deal | DraftStart, log: list[str] | None = None) -> State:
    """The one transition both tiers use: ``a`` must be legal in ``s``."""
    t = a.__class__
    if t is Select:
        return _select(s, a.player, a.card, log)  # type: ignore[union-attr]
    if t is TakeRow:
        return _take_row(s, a.player, a.row, log)  # type: ignore[union-attr]
    if t is Draft:
        return _draft(s, a.player, a.card, log)  # type: ignore[union-attr]
    if t is Flip:
        return _flip(s, a.player, log)  # type: ignore[union-attr]
    return _chance(s, a, log)  # type: ignore[arg-type]


step = _step
take_row = _take_row
turn_fast = _turn_fast


# --------------------------------------------------------------------------------------------------
# Validation (the checked tier)


def _check_chance(s: State, a: object) -> None:
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


_PHASE_ACTION = {"select": Select, "choose": TakeRow, "draft": Draft, "flip": Flip}
_ACTION_NAME = {Select: "select", TakeRow: "take_row", Draft: "draft", Flip: "flip"}
_PHASE_WORDS = {
    "select": "a card selection",
    "choose": "a row choice",
    "draft": "a draft pick",
    "flip": "a flip",
}


def check(s: State, a: object) -> None:
    """Raise the IllegalAction (naming the clause) that ``a`` breaks in ``s``; return if it is legal."""
    if s.phase == "over":
        raise GameOver("T6-ACT-2", "the game is over")
    t = type(a)
    if s[2] == "deal" or t is Deal or t is DraftStart:
        _check_chance(s, a)
        return

    if t not in _ACTION_NAME:
        raise IllegalAction("T6-ACT-1", f"{a!r} is not a 6 nimmt! action")
    p = a.player  # type: ignore[attr-defined]
    if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < s.players:
        raise IllegalAction("T6-ACT-1", f"player must be a seat 0..{s.players - 1}, got {p!r}")
    if p not in s.to_act:
        if s.phase == "select":
            raise NotYourTurn("T6-SELECT-2", f"P{p} has already selected a card this turn")
        waiting = ", ".join(f"P{q}" for q in s.to_act)
        raise NotYourTurn(
            "T6-ACT-1", f"{_PHASE_WORDS[s.phase]} by {waiting} is awaited, not an action of P{p}"
        )
    expected = _PHASE_ACTION[s.phase]
    if t is not expected:
        if t is TakeRow:
            raise IllegalAction("T6-CHOOSE-1", f"P{p} has no card waiting for a row choice")
        raise IllegalAction("T6-ACT-1", f"{_PHASE_WORDS[s.phase]} by P{p} is awaited, not {_ACTION_NAME[t]}")
    if t is Select:
        card = a.card  # type: ignore[attr-defined]
        if card not in s.hands[p] or isinstance(card, bool):
            raise IllegalAction("T6-SELECT-1", f"card {card!r} is not in P{p}'s hand")
    elif t is TakeRow:
        r = a.row  # type: ignore[attr-defined]
        if isinstance(r, bool) or not isinstance(r, int) or not 0 <= r < len(s.rows):
            raise IllegalAction("T6-CHOOSE-2", f"row must be 0..{len(s.rows) - 1}, got {r!r}")
    elif t is Draft:
        card = a.card  # type: ignore[attr-defined]
        if card not in s.stock or isinstance(card, bool):
            raise IllegalAction("T6-LOGIC-1", f"card {card!r} is not in the face-up pool")
