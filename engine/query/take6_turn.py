"""A whole 6 nimmt! turn resolved by the engine itself, and the explanation of a 6 nimmt! action.

:func:`resolve_turn` builds a position through the engine's validated JSON form (the given rows, one
player per revealed card), applies every selection and the given row choices through the checked tier, and
reports the engine's own derivation of each step (:meth:`engine.take6.game.Take6.derive`: the reveal, each
placement with its rule, rows taken with each card's bullheads), so the answer is the engine's resolution,
not a second implementation of it.

>>> a = resolve_turn([[20], [30], [40], [50]], [3, 7, 45], [], None, {})
>>> a.value["waiting"]
{'player': 0, 'card': 3}
>>> resolve_turn([[20], [30], [40], [50]], [3, 7, 45], ["3=0"], None, {}).value["rows"]
[[3, 7], [30], [40, 45], [50]]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.digits import number
from engine.errors import InputError, RuleViolation
from engine.game import Game
from engine.jsonio import show
from engine.query.explain import Explanation
from engine.query.model import Answer, Step
from engine.query.take6_common import (
    GAME,
    _check_card,
    _check_rows,
    _place,
    _rules_for,
    bullhead_rule,
    derivation_steps,
    placement_steps,
    placement_value,
)

__all__ = ["explain_action", "resolve_turn"]

def _engine() -> Any:
    import engine.take6 as t6

    return t6


def _parse_choices(choose: Sequence[str], cards: Sequence[int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for item in choose:
        card_s, sep, row_s = item.partition("=")
        card, row = number(card_s.strip()), number(row_s.strip())
        if not sep or card is None or row is None:
            raise InputError("choose", f"expected CARD=ROW (e.g. 3=0, digits 0-9), got {show(item)}")
        if card not in cards:
            raise InputError("choose", f"card {card} is not among the revealed cards {list(cards)}")
        out[card] = row
    return out


def resolve_turn(rows: list[list[int]], cards: list[int], choose: list[str], variant: str | None,
                 options: Mapping[str, Any]) -> Answer:
    """Resolve one turn: ``cards[p]`` is seat p's revealed card; ``choose`` gives low cards' row choices."""
    t6 = _engine()
    if not rows:
        raise InputError("rows", "give the rows on the table, e.g. --rows 20 30 40 50")
    if len(cards) < 2:
        raise InputError("cards", "give the revealed cards of at least 2 players (one per seat)")
    rules = _rules_for(variant, len(cards), options)
    if rules.play != "simultaneous":
        raise InputError("--variant", f"{rules.variant} has no simultaneous turn (cards are flipped one at "
                         "a time)")
    if len(rows) != rules.rows:
        raise InputError("rows", f"{rules.variant} is played with {rules.rows} rows, got {len(rows)}")
    for c in cards:
        _check_card(c, "cards")
    if len(set(cards)) != len(cards):
        raise InputError("cards", "each card exists once; the revealed cards must differ")
    clean = _check_rows(rows, None, rules.capacity)
    on_table = {c for r in clean for c in r}
    for c in cards:
        if c in on_table:
            raise InputError("cards", f"card {c} is already on the table")
        if c not in rules.deck:
            raise InputError("cards", f"card {c} is not in the {rules.variant} deck for {len(cards)} players")
    for r in clean:
        for c in r:
            if c not in rules.deck:
                raise InputError("rows", f"card {c} is not in the {rules.variant} deck for {len(cards)} "
                                 "players")
    choices = _parse_choices(choose, cards)
    # A mid-round position the engine accepts: each player holds the revealed card and one spare (so the
    # round goes on after this turn); cards already played this round lie in the penalty piles (their
    # bullheads counted, then subtracted from the report); the rest of the deck is undealt.
    free = [c for c in reversed(rules.deck) if c not in on_table and c not in cards]
    n = len(cards)
    spares, free = free[:n], free[n:]
    played = rules.cards_dealt - len(on_table) - 2 * n
    if played < 0:
        raise InputError("rows", f"{len(on_table)} cards on the table: more than a round of {n} players "
                         "deals")
    filler, stock = free[:played], sorted(free[played:])
    piles: list[list[int]] = [sorted(filler[p::n]) for p in range(n)]
    start_pen = [sum(t6.bullheads(c) for c in pile) for pile in piles]
    data = {
        "game": "take6", "variant": rules.variant, "players": n, "seed": 0,
        "options": dict(rules.options), "round": 1, "phase": "select", "rows": clean, "pending": [],
        "piles": piles, "penalties": start_pen, "stock": stock, "start": 0,
        "deals": [], "hands": [sorted((c, s)) for c, s in zip(cards, spares, strict=True)],
        "selected": [None for _ in cards],
    }
    game: Game = t6.GAME
    state = start = game.state_from_json(data)
    derived: list[Any] = []
    for p, c in enumerate(cards):
        action = t6.Select(p, c)
        after = game.apply(state, action)
        if p == len(cards) - 1:  # the reveal and every placement (the earlier selections are hidden)
            derived.extend(t6.GAME.derive(state, action))
        state = after
    waiting = None
    waited: set[int] = set()
    while state.phase == "choose":
        card, p = state.pending[0]
        waited.add(card)
        if card not in choices:
            waiting = {"player": p, "card": card}
            break
        action = t6.TakeRow(p, choices[card])
        try:
            after = game.apply(state, action)
        except RuleViolation as exc:
            raise InputError("choose", f"{card}={choices[card]}: {exc}") from None
        derived.extend(t6.GAME.derive(state, action))
        state = after
    for card, row in choices.items():
        # a choice for a card that went to a row, or that goes to a row whatever the waiting cards' players
        # choose: the engine refuses it (the choice is asked for only while the card waits)
        if card not in waited and not _may_wait(game, state, card, choices):
            refusal = _refusal(game, start, t6.TakeRow(cards.index(card), row))
            raise InputError("choose", f"{card}={row}: {refusal}; {card} fits a row, so its player "
                             "chooses none")
    steps = derivation_steps(derived)
    # every card after the first went onto the rows as the cards before it left them (the ruling T6-TURN-2)
    steps.insert(min(2, len(steps)), Step.of("T6-TURN-2", "each card goes onto the rows as the lower cards "
                                             "placed before it left them"))
    order = sorted((c, p) for p, c in enumerate(cards))
    value: dict[str, Any] = {
        "order": [[c, p] for c, p in order],
        "rows": [list(r) for r in state.rows],
        "penalties": [a - b for a, b in zip(state.penalties, start_pen, strict=True)],
        "waiting": waiting,
    }
    shown_rows = " | ".join(" ".join(map(str, r)) for r in clean)
    question = (f"On the rows {shown_rows}, the cards {', '.join(f'P{p} {c}' for p, c in enumerate(cards))} "
                f"are revealed: what happens?")
    notes = []
    if waiting is not None:
        heads = [sum(t6.bullheads(x) for x in r) for r in state.rows]
        opts = ", ".join(f"row {i} ({' '.join(map(str, r))}: {h} bullheads)"
                         for i, (r, h) in enumerate(zip(state.rows, heads, strict=True)))
        summary = (f"placed in ascending order; P{waiting['player']}'s {waiting['card']} fits no row, so the "
                   f"turn waits for P{waiting['player']} to choose a row to take")
        notes.append(f"P{waiting['player']} may take any row: {opts}. The engine never chooses for the "
                     f"player; give --choose {waiting['card']}=ROW to continue.")
    else:
        summary = "rows after the turn: " + " | ".join(" ".join(map(str, r)) for r in state.rows)
        took = [f"P{p} took {k} bullhead{'s' if k != 1 else ''}"
                for p, k in enumerate(value["penalties"]) if k]
        if took:
            summary += "; " + ", ".join(took)
    return Answer(kind="turn", game=GAME, question=question, summary=summary, value=value,
                  steps=steps, notes=notes)


def _may_wait(game: Game, state: Any, card: int, choices: Mapping[int, int]) -> bool:
    """True when ``card`` can still come to wait for its player's row choice: it is pending, and some row
    choice of the cards waiting before it (those ``choices`` leaves open: every row tried, through the
    engine) leads to it fitting no row."""
    if state.phase != "choose" or all(c != card for c, _p in state.pending):
        return False
    first, p = state.pending[0]
    if first == card:
        return True
    rows = [choices[first]] if first in choices else range(len(state.rows))
    for row in rows:
        try:
            after = game.apply(state, _engine().TakeRow(p, row))
        except RuleViolation:
            continue
        if _may_wait(game, after, card, choices):
            return True
    return False


def _refusal(game: Game, state: Any, action: Any) -> str:
    """The engine's own refusal of ``action`` in ``state`` (its clause and message)."""
    try:
        game.apply(state, action)
    except RuleViolation as exc:
        return str(exc)
    raise AssertionError(f"the engine accepts {action!r}")  # pragma: no cover - a row choice at select


# --------------------------------------------------------------------------------------------------
# explain


def explain_action(game: Game, state: Any, action: Any, refusal: RuleViolation | None) -> Explanation:
    """The 6 nimmt! part of an explanation: where a selected card goes on the current rows (through the
    engine's placement function), or what a row choice takes."""
    t6 = _engine()
    rules = _rules_for(state.variant, state.players, dict(state.options))
    steps: list[Step] = []
    value: dict[str, Any] = {}
    notes: list[str] = []
    headers: tuple[str, ...] = ()
    rows_t: tuple[tuple[str, ...], ...] = ()
    why = t6.GAME.why(state, action)
    checks = [Step.from_derivation(d) for d in why.steps if d.note]
    if refusal is not None and refusal.clause in ("T6-SELECT-1", "T6-SELECT-2", "T6-ACT-1", "T6-ACT-2"):
        return Explanation(steps=tuple(checks))
    steps.extend(checks)
    if isinstance(action, (t6.Select, t6.Flip)):
        if isinstance(action, t6.Select):
            card = action.card
        else:
            pile = state.hands[action.player] if 0 <= action.player < state.players else ()
            if not pile:
                return Explanation(steps=tuple(steps))
            card = pile[0]
            steps.append(Step.of("T6-KIDS-2", f"player {action.player} flips {card}, the top of their pile"))
        placement = _place(state.rows, card, state.variant, dict(state.options))
        steps.extend(placement_steps(state.rows, placement, rules.capacity, dict(state.options)))
        value["placement"] = placement_value(state.rows, placement)
        value["summary"] = (f"on the current rows {card} goes to row {placement.row}"
                            if placement.row is not None
                            else f"{card} fits no row: its player will choose a row to take")
        lower = [c for c, _p in state.pending if c < card]
        if isinstance(action, t6.Select):
            notes.append("Cards revealed in the same turn are placed lowest first (T6-TURN-1), each on "
                         "the rows as the earlier ones left them (T6-TURN-2); a lower card played by "
                         "another player this turn can change where this one goes.")
        if lower:
            notes.append(f"Lower cards still to be placed first: {lower}.")
    elif isinstance(action, t6.TakeRow):
        if 0 <= action.row < len(state.rows) and (refusal is None or state.phase == "choose"):
            row = state.rows[action.row]
            heads = sum(t6.bullheads(c) for c in row)
            card = state.pending[0][0] if state.pending else None
            steps.append(Step.of("T6-PLACE-3", f"player {action.player} takes row {action.row} ({list(row)}, "
                                 f"{heads} bullheads)" + (f"; {card} starts the row" if card else ""), heads))
            steps.append(Step.of("T6-PILE-1", "the taken cards go to the player's penalty pile"))
            for c in row:
                v, clause = bullhead_rule(c)
                steps.append(Step.of(clause, f"card {c}: {v} bullhead{'s' if v != 1 else ''}", v))
            value["takes"] = list(row)
            value["penalty"] = heads
            value["summary"] = f"takes row {action.row}: {heads} bullheads"
        if state.phase == "choose":
            heads_all = [sum(t6.bullheads(c) for c in r) for r in state.rows]
            headers = ("row", "cards", "bullheads")
            rows_t = tuple((str(i), " ".join(map(str, r)), str(h))
                           for i, (r, h) in enumerate(zip(state.rows, heads_all, strict=True)))
            notes.append("Any row may be taken; the player chooses (the engine never chooses for the "
                         "player).")
    if refusal is not None and refusal.clause == "T6-CHOOSE-1" and state.phase != "choose":
        notes.append("To make it legal: a row may be taken only when your revealed card fits no row and the "
                     "turn waits for your choice (T6-PLACE-3); now select a card instead.")
    return Explanation(steps=tuple(steps), headers=headers, rows=rows_t, notes=tuple(notes), value=value)
