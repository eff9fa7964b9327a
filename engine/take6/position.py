"""The 6 nimmt! position builder: :func:`position`, the one named constructor of a state.

It accepts any position the rules can reach — rows of 1 to 5 cards, equal hands of any size, totals from
earlier rounds, a selection half made, cards waiting for a row choice, a logic draft, a kids flip, a round
waiting for its deal, a finished game — and refuses anything else with one
:class:`~engine.errors.PositionError` naming the field and the clause.  Cards it is not told about are out
of the game this round (undealt: ``state.stock``).  The engine's JSON codec and the notation reader build
their states through it.

>>> s = position(players=2, rows=[[3, 10], [22], [40, 41, 45], [90]], hands=[[5, 8, 60], [7, 9, 70]],
...              totals=[12, 0], round=2, seed=None)
>>> s.phase, s.to_act, s.turn, s.penalties
('select', (0, 1), 8, (12, 0))
>>> position(players=2, rows=[[3, 10], [22], [40, 41, 45], [90]], hands=[[5, 8, 60], [7, 9]])
Traceback (most recent call last):
...
engine.errors.PositionError: hands[1]: holds 2 cards, seat 0 holds 3: one card a turn each [T6-SELECT-1]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.errors import IllegalSetup, PositionError
from engine.jsonio import show
from engine.position_input import integer, listed
from engine.take6.deal import check_setup
from engine.take6.layout import MAXC
from engine.take6.model import Setup, State
from engine.take6.placement import locate
from engine.take6.rules import VARIANTS, Rules, rules_for
from engine.take6.scoring import bullheads_of

__all__ = ["PHASES", "position", "to_act_of"]

PHASES: tuple[str, ...] = ("draft", "select", "choose", "flip", "deal", "over")
"""Every phase a 6 nimmt! state can be in (``deal``: a round waiting for its deal, a chance step)."""


def _card_list(value: Any, field: str, deck_clause: str, top: int) -> tuple[int, ...]:
    return tuple(
        integer(c, f"{field}[{i}]", deck_clause, 1, top)
        for i, c in enumerate(listed(value, field, deck_clause))
    )


def to_act_of(
    phase: str,
    rules: Rules,
    start: int,
    pending: tuple[tuple[int, int], ...],
    *,
    hands: tuple[tuple[int, ...], ...],
    selected: tuple[int, ...],
) -> tuple[int, ...]:
    """The seats that must act in a position (a state stores them; this derives them from the rest)."""
    n = rules.players
    if phase == "select":
        return tuple(p for p in range(n) if not selected[p])
    if phase == "choose":
        return (pending[0][1],)
    if phase == "draft":
        return ((start + sum(len(h) for h in hands)) % n,)
    if phase == "flip":
        return ((n * rules.hand_size - sum(len(h) for h in hands)) % n,)
    return ()


def _rules(variant: Any, players: Any, options: Any, hands: Any) -> Rules:
    if variant is None:
        variant = next(iter(VARIANTS))
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise PositionError(
            "variant", "T6-VAR-1", f"unknown variant {show(variant)} (known: {', '.join(VARIANTS)})"
        )
    if players is None:
        players = len(listed(hands, "hands", "T6-SETUP-1"))
    players = integer(players, "players", "T6-SETUP-1", None)  # the range is the rules value's (T6-SETUP-1)
    if options is not None and not isinstance(options, Mapping):
        raise PositionError(
            "options", "T6-VAR-1", f"expected an object of option values, got {show(options)}"
        )
    try:
        return rules_for(variant, players, options)
    except IllegalSetup as exc:
        field = "players" if exc.clause in ("T6-SETUP-1", "T6-SETUP-2", "T6-KIDS-5") else "options"
        raise PositionError(field, exc.clause, exc.message) from exc


def position(
    *,
    hands: Sequence[Sequence[int]],
    rows: Sequence[Sequence[int]] = (),
    players: int | None = None,
    variant: str | None = None,
    options: Mapping[str, Any] | None = None,
    seed: int | None = None,
    round: int = 1,
    phase: str | None = None,
    selected: Sequence[int | None] | None = None,
    pending: Sequence[Sequence[int]] = (),
    piles: Sequence[Sequence[int]] | None = None,
    totals: Sequence[int] | None = None,
    start: int = 0,
    deals: Sequence[Setup] = (),
) -> State:
    """A validated 6 nimmt! position; raises :class:`~engine.errors.PositionError` naming field and clause.

    ``hands[p]`` is seat p's hand (any order; kids: the face-down pile, top card first); ``rows`` the rows,
    each ascending; ``selected[p]`` the card seat p has secretly selected this turn (``None``: not yet);
    ``pending`` the revealed ``(card, seat)`` pairs waiting to be placed (phase ``choose``: the first fits
    no row); ``piles[p]`` the cards seat p took this round; ``totals[p]`` seat p's bullheads from earlier
    rounds (``state.penalties`` adds this round's piles).  ``phase`` defaults to ``choose`` with cards
    pending, ``draft`` in logic without rows, ``flip`` in kids, else ``select``.  ``start`` is the logic
    draft's first drafter.  Later rounds are dealt from ``deals`` (explicit set-ups, one per round), then
    from ``seed``; without a seed each later round waits in phase ``deal`` for its deal as a chance step.

    >>> s = position(players=2, rows=[[30], [40], [50], [60]], hands=[[2], [11]], pending=[(1, 0)],
    ...              seed=3)
    >>> s.phase, s.chooser, s.turn
    ('choose', 0, 9)
    """
    rules = _rules(variant, players, options, hands)
    n = rules.players
    deck = rules.deck
    top = MAXC
    deck_clause = rules.deck_clause
    if seed is not None:
        seed = integer(seed, "seed", "T6-SETUP-4", 0)
    rnd = integer(round, "round", "T6-ROUND-2", 1, rules.rounds)
    # the seats' values
    hands_in = listed(hands, "hands", "T6-SETUP-1", n)
    held_in = [_card_list(h, f"hands[{p}]", deck_clause, top) for p, h in enumerate(hands_in)]
    rows_t = tuple(
        _card_list(r, f"rows[{i}]", deck_clause, top)
        for i, r in enumerate(listed(rows, "rows", "T6-SETUP-3"))
    )
    sel_in = [None] * n if selected is None else listed(selected, "selected", "T6-SELECT-1", n)
    sel = tuple(
        0 if c is None else integer(c, f"selected[{p}]", deck_clause, 1, top) for p, c in enumerate(sel_in)
    )
    pend: list[tuple[int, int]] = []
    for i, pair in enumerate(listed(pending, "pending", "T6-TURN-1")):
        item = listed(pair, f"pending[{i}]", "T6-TURN-1", None)
        if len(item) != 2:
            raise PositionError(f"pending[{i}]", "T6-TURN-1", "expected a (card, seat) pair")
        pend.append(
            (
                integer(item[0], f"pending[{i}][0]", deck_clause, 1, top),
                integer(item[1], f"pending[{i}][1]", "T6-ACT-1", 0, n - 1),
            )
        )
    pend_t = tuple(pend)
    piles_t = tuple(
        _card_list(x, f"piles[{p}]", deck_clause, top)
        for p, x in enumerate(listed(((),) * n if piles is None else piles, "piles", "T6-PILE-1", n))
    )
    totals_t = tuple(
        integer(x, f"totals[{p}]", "T6-ROUND-2", 0)
        for p, x in enumerate(listed((0,) * n if totals is None else totals, "totals", "T6-ROUND-2", n))
    )
    start = integer(start, "start", "T6-LOGIC-1", 0, n - 1)
    if start and rules.deal != "draft":
        raise PositionError("start", "T6-LOGIC-1", "a draft start player belongs to the logic variant only")
    try:
        deals_t = check_setup(rules, tuple(deals) if isinstance(deals, Sequence) else deals)
    except IllegalSetup as exc:
        raise PositionError("deals", exc.clause, exc.message) from exc
    # the phase
    if phase is None:
        if pend_t:
            phase = "choose"
        elif rules.deal == "draft" and not rows_t:
            phase = "draft"
        else:
            phase = "flip" if rules.play == "flip" else "select"
    if phase not in PHASES:
        raise PositionError("phase", "T6-VAR-1", f"expected one of {', '.join(PHASES)}, got {show(phase)}")
    # every card of the variant's deck at most once; the rest is out of the game (the stock)
    in_deck = set(deck)
    seen: dict[int, str] = {}
    places = [
        *((f"hands[{p}]", h) for p, h in enumerate(held_in)),
        ("selected", tuple(c for c in sel if c)),
        ("pending", tuple(c for c, _ in pend_t)),
        *((f"rows[{i}]", r) for i, r in enumerate(rows_t)),
        *((f"piles[{p}]", x) for p, x in enumerate(piles_t)),
    ]
    for where, cards in places:
        for c in cards:
            if c not in in_deck:
                raise PositionError(
                    where, deck_clause, f"card {c} is not in the {rules.variant} deck {deck[0]}..{deck[-1]}"
                )
            if c in seen:
                raise PositionError(where, "T6-DECK-1", f"card {c} is also in {seen[c]}")
            seen[c] = where
    # rows: as many as the set-up lays, each of 1..capacity cards, ascending
    if phase in ("draft", "deal"):
        if rows_t:
            clause = "T6-LOGIC-2" if phase == "draft" else "T6-SETUP-3"
            raise PositionError("rows", clause, f"no rows lie on the table in phase {phase}")
    else:
        if len(rows_t) != rules.rows:
            raise PositionError(
                "rows",
                "T6-KIDS-1" if rules.play == "flip" else "T6-SETUP-3",
                f"expected {rules.rows} rows, got {len(rows_t)}",
            )
        for i, r in enumerate(rows_t):
            if not r:
                raise PositionError(f"rows[{i}]", "T6-PLACE-3", "a row always holds at least one card")
            if len(r) > rules.capacity:
                raise PositionError(
                    f"rows[{i}]", "T6-PLACE-2", f"holds {len(r)} cards, at most {rules.capacity}"
                )
            if list(r) != sorted(r):
                clause = "T6-PRO-2" if rules.placement != "ends" else "T6-PLACE-1"
                raise PositionError(f"rows[{i}]", clause, "a row's cards ascend")
    # hands: sorted sets (kids: piles in order), within the hand size
    flip = rules.play == "flip"
    held = tuple(h if flip else tuple(sorted(h)) for h in held_in)
    h_size = rules.hand_size
    size_clause = "T6-KIDS-1" if flip else "T6-SETUP-2"
    for p, h in enumerate(held):
        extra = 1 if sel[p] else 0
        if len(h) + extra > h_size:
            raise PositionError(
                f"hands[{p}]", size_clause, f"holds {len(h) + extra} cards, a hand has at most {h_size}"
            )
    sizes = [len(h) for h in held]
    # totals and piles
    if rnd == 1 and any(totals_t):
        raise PositionError("totals", "T6-ROUND-2", "round 1 has no earlier rounds to total")
    most = (rnd - 1) * bullheads_of(deck)  # an earlier round took at most every bullhead of the deck
    for p, t in enumerate(totals_t):
        if t > most:
            raise PositionError(
                f"totals[{p}]",
                "T6-ROUND-2",
                f"{t} bullheads from {rnd - 1} earlier round(s); each takes at most the deck's "
                f"{bullheads_of(deck)}, so at most {most}",
            )
    over = _game_over(rules, rnd, totals_t, before=True)
    if phase != "over" and over:
        raise PositionError(
            "totals",
            "T6-END-1" if rules.end == "threshold" else "T6-KIDS-3",
            f"the game ended before round {rnd}",
        )
    if phase in ("draft", "deal") and any(piles_t):
        raise PositionError("piles", "T6-PILE-1", f"nobody has taken a row yet in phase {phase}")
    penalties = tuple(t + bullheads_of(x) for t, x in zip(totals_t, piles_t, strict=True))
    if any(sel) and phase != "select":
        raise PositionError(
            "selected", "T6-SELECT-2", f"hidden selections exist only in phase select, not {phase}"
        )
    if pend_t and phase != "choose":
        raise PositionError(
            "pending", "T6-TURN-1", f"cards wait for placement only in phase choose, not {phase}"
        )
    # the shape of each phase
    if phase == "select":
        if rules.play != "simultaneous":
            raise PositionError(
                "phase", "T6-SELECT-1", f"the {rules.variant} variant has no secret selection"
            )
        made = [sizes[p] + (1 if sel[p] else 0) for p in range(n)]
        for p in range(1, n):
            if made[p] != made[0]:
                raise PositionError(
                    f"hands[{p}]",
                    "T6-SELECT-1",
                    f"holds {made[p]} cards, seat 0 holds {made[0]}: one card a turn each",
                )
        if not any(made):
            raise PositionError("hands", "T6-ROUND-1", "every hand is empty: the round is over")
        if all(sel):
            raise PositionError(
                "selected", "T6-SELECT-2", "every player has selected: the cards are revealed"
            )
    elif phase == "choose":
        if not pend_t:
            raise PositionError("pending", "T6-PLACE-3", "a row choice needs a revealed card waiting for it")
        order = [c for c, _ in pend_t]
        if order != sorted(order):
            raise PositionError("pending", "T6-TURN-1", "the revealed cards are placed in ascending order")
        seats = [q for _, q in pend_t]
        if len(set(seats)) != len(seats):
            raise PositionError("pending", "T6-SELECT-1", "a player reveals one card a turn")
        first = locate(rows_t, pend_t[0][0], rules.placement, rules.capacity, rules.tie_to_start)
        if first.fits:
            clause = "T6-PRO-5" if rules.placement != "ends" else "T6-PLACE-3"
            raise PositionError("pending[0]", clause, f"card {pend_t[0][0]} fits a row: no row choice is due")
        if flip:
            _check_flips(rules, sizes, pending=pend_t)
        else:
            for p in range(1, n):
                if sizes[p] != sizes[0]:
                    raise PositionError(
                        f"hands[{p}]", "T6-SELECT-2", "every revealed card has left its hand: hands are equal"
                    )
            if max(sizes) >= h_size:  # the hands are equal: one full hand means all
                raise PositionError("hands", "T6-SELECT-2", "the revealed cards have left full hands")
    elif phase == "flip":
        if not flip:
            raise PositionError("phase", "T6-KIDS-2", f"the {rules.variant} variant does not flip cards")
        _check_flips(rules, sizes, pending=())
    elif phase == "draft":
        if rules.deal != "draft":
            raise PositionError("phase", "T6-LOGIC-1", f"the {rules.variant} variant has no draft")
        total = sum(sizes)
        if total >= n * h_size:
            raise PositionError("hands", "T6-LOGIC-2", "the draft is complete: the rows are laid")
        for p in range(n):
            want = total // n + (1 if (p - start) % n < total % n else 0)
            if sizes[p] != want:
                raise PositionError(
                    f"hands[{p}]",
                    "T6-LOGIC-1",
                    f"holds {sizes[p]} cards, the draft from seat {start} gives it {want}",
                )
    elif phase == "deal":
        if any(sizes):
            raise PositionError("hands", "T6-SETUP-4", "before the deal every hand is empty")
        if seed is not None or deals_t:
            raise PositionError(
                "phase", "T6-SETUP-4", "with a seed or explicit deals the round is dealt, not awaited"
            )
        if rules.deal == "draft" and rnd > 1 and rules.option_map.get("logic_start") == "rotate":
            raise PositionError(
                "phase", "T6-LOGIC-3", "with logic_start=rotate the draft starts without a chance step"
            )
    elif phase == "over":
        if any(sizes):
            raise PositionError("hands", "T6-END-1", "a finished game has no cards in hand")
        if not _game_over(rules, rnd, penalties):
            clause = "T6-END-1" if rules.end == "threshold" else "T6-KIDS-3"
            raise PositionError("phase", clause, "the game is not over: nobody reached the end")
    # the stock: stored only in logic (the face-up pool while drafting, else empty)
    if rules.deal == "draft":
        stock = tuple(c for c in deck if c not in seen) if phase in ("draft", "deal") else ()
    else:
        stock = ()
    to_act = to_act_of(phase, rules, start, pend_t, hands=held, selected=sel)
    return State(
        rules, seed, rnd, phase, rows_t, pend_t, piles_t, penalties, stock, start, deals_t, held, sel, to_act
    )


def _game_over(rules: Rules, rnd: int, totals: tuple[int, ...], *, before: bool = False) -> bool:
    """Has the game ended (T6-END-1, T6-KIDS-3): by the totals, or (``before=False``) by the last round?"""
    if rules.end == "threshold":
        assert rules.threshold is not None
        return max(totals) >= rules.threshold
    assert rules.rounds is not None
    return not before and rnd >= rules.rounds


def _check_flips(rules: Rules, sizes: list[int], *, pending: tuple[tuple[int, int], ...]) -> None:
    """Kids: seats flip in order from seat 0, so pile sizes tell how many flips are done (T6-KIDS-2)."""
    n, h = rules.players, rules.hand_size
    done = n * h - sum(sizes)
    want = [h - done // n - (1 if p < done % n else 0) for p in range(n)]
    for p in range(n):
        if sizes[p] != want[p]:
            raise PositionError(
                f"hands[{p}]", "T6-KIDS-2", f"pile of {sizes[p]} cards, seat-order flips leave {want[p]}"
            )
    if pending:
        if len(pending) != 1 or done == 0 or pending[0][1] != (done - 1) % n:
            raise PositionError("pending", "T6-KIDS-2", "only the card just flipped waits for a row choice")
    elif done == n * h:
        raise PositionError("hands", "T6-KIDS-3", "every pile is played out: the game is over")
