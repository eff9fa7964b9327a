"""6 nimmt! actions as short text, both ways, relative to a state (as SAN is to a chess position).

The grammar (docs/positions.md, "Actions as text"); words are separated by spaces, any case::

    text    = [seat " "] action
    seat    = "P" number                      ; required only where several seats could take the action
    action  = number                          ; the phase's card action: select it, or draft it (logic)
            | "select " number | "draft " number
            | "row " number | "take row " number   ; take that row (numbered from 0)
            | "flip"                          ; kids: flip the top card of the pile
            | "deal " hands "|" cards         ; the chance step of phase deal: the round's deal
            | "start " seat                   ; logic, phase deal: the seat that drafts first
    hands   = cards *("/" cards)              ; one per seat, as in the position notation
    cards   = number *("." number)

:func:`to_text` writes the shortest text that reads back as the action: ``58`` for a selection when one
seat is to act, ``P2 58`` when several are (the simultaneous selection), ``draft 58``, ``row 2``,
``flip``, ``deal 1.2.3/4.5.6|7.8.9.10``, ``start P1``; an action that is not legal in the state is
written the same way, and reading it back gives the engine's refusal.  :func:`from_text`
reads a text: the legal action it names; a text naming several is refused with AmbiguousAction listing
them, a malformed one with InputError naming the part, and one naming an illegal action with the
IllegalAction the engine raises for it.

>>> from engine.take6 import GAME
>>> s = GAME.new_game(2, seed=1)
>>> s.hands[1][:3]
(5, 13, 23)
>>> from_text(s, "P1 13", GAME.legal_actions(s))
Select(player=1, card=13)
>>> to_text(s, Select(1, 13), GAME.legal_actions(s))
'P1 13'
>>> from_text(s, "row 9", GAME.legal_actions(s))
Traceback (most recent call last):
...
engine.errors.IllegalAction: T6-CHOOSE-1: P0 has no card waiting for a row choice
"""

from __future__ import annotations

from typing import Any

from engine import digits
from engine.action_input import (
    Matches,
    Reading,
    ambiguous,
    number,
    resolve,
    seat_word,
    shortest,
    split_seat,
    words_of,
)
from engine.errors import InputError
from engine.jsonio import show
from engine.take6.layout import MAXC
from engine.take6.model import Action, Deal, Draft, DraftStart, Flip, Select, Setup, State, TakeRow
from engine.take6.rules import PREBUILT_ROWS
from engine.take6.transitions import check

__all__ = ["VERBS", "from_text", "to_text", "to_words"]

VERBS: tuple[str, ...] = ("select", "draft", "row", "take", "flip", "deal", "start")
"""The words an action text may start with (after an optional seat), besides a card number."""

Legal = tuple[Any, ...]


def _card(word: str) -> int:
    return number(word, "card", 1, MAXC)


def _cards(text: str) -> tuple[int, ...]:
    if text == "-":
        return ()
    return tuple(_card(w) for w in text.split("."))


def _readings(state: State, words: list[str]) -> list[Reading]:
    """The readings of a text's words; InputError names a malformed part."""
    seat, rest = split_seat(words, state.players)
    verb = rest[0].lower()
    args = rest[1:]
    if verb in ("deal", "start"):
        if seat is not None:
            raise InputError("seat", f"a {verb} is a chance step: no seat takes it")
        if len(args) != 1:
            shape = "deal HANDS|ROWCARDS" if verb == "deal" else "start P<seat>"
            raise InputError(verb, f"expected {shape}, got {show(' '.join(rest))}")
        if verb == "start":
            start = seat_word(args[0])
            if start is None or start >= state.players:
                raise InputError("start", f"expected a seat P0..P{state.players - 1}, got {show(args[0])}")
            return [Reading(DraftStart, {"player": start})]
        hands, bar, rows = args[0].partition("|")
        if not bar:
            raise InputError("deal", f"expected HANDS|ROWCARDS, got {show(args[0])}")
        deal = Deal(hands=[_cards(h) for h in hands.split("/")], rows=_cards(rows))
        return [Reading(Deal, {"hands": deal.hands, "rows": deal.rows})]
    given: dict[str, Any] = {} if seat is None else {"player": seat}
    if verb == "take" and args[:1] and args[0].lower() == "row":
        verb, args = "row", args[1:]
    if verb == "flip":
        if args:
            raise InputError("flip", f"a flip names nothing more, got {show(' '.join(args))}")
        return [Reading(Flip, given)]
    if verb in ("select", "draft", "row"):
        if len(args) != 1:
            raise InputError(verb, f"expected {verb} and a number, got {show(' '.join(rest))}")
        if verb == "row":
            return [Reading(TakeRow, {**given, "row": number(args[0], "row", 0, PREBUILT_ROWS - 1)})]
        kind = Select if verb == "select" else Draft
        return [Reading(kind, {**given, "card": _card(args[0])})]
    if len(rest) == 1 and digits.number(verb) is not None:
        kind = Draft if state.phase == "draft" else Select
        return [Reading(kind, {**given, "card": _card(verb)})]
    raise InputError(
        "action",
        f"expected a card number or one of {', '.join(VERBS)}, got {show(' '.join(rest))}",
    )


def _fill(state: State, reading: Reading) -> Action | Setup:
    """The action a reading names when no legal action matches it: the open seat is the card's holder, else
    the first seat to act, else seat 0."""
    given = dict(reading.given)
    if reading.kind in (Deal, DraftStart):
        return reading.kind(**given)
    if "player" not in given:
        card = given.get("card")
        holders = [p for p in range(state.players) if card in state.hands[p] or card == state.selected[p]]
        acting = state.to_act
        given["player"] = holders[0] if holders and reading.kind is Select else (acting[0] if acting else 0)
    return reading.kind(**given)  # type: ignore[no-any-return]


def _read(state: State, text: str, legal: Legal) -> Action | Setup:
    return resolve(text, _readings(state, words_of(text)), legal, lambda r: _fill(state, r))  # type: ignore[no-any-return]


def from_text(state: State, text: Any, legal: Legal, *, checked: bool = True) -> Action | Setup:
    """The action ``text`` names in ``state`` (``legal``: the state's legal actions, every acting seat's).

    Raises AmbiguousAction (an InputError) listing the readings of a text naming several legal actions,
    InputError naming the malformed part, and — when ``checked`` — the engine's IllegalAction for an
    action that is not legal; with ``checked=False`` that action is returned (to explain its refusal)."""
    try:
        action = _read(state, text, legal)
    except Matches as many:
        raise ambiguous(text, many, lambda a: to_text(state, a, legal)) from None
    if checked:
        check(state, action)
    return action


def to_text(state: State, action: Action | Setup, legal: Legal) -> str:
    """The shortest text that reads back as ``action`` in ``state`` (``legal``: the state's legal actions);
    for an action that is not legal there too, reading its text back gives the engine's refusal."""
    t = type(action)
    if t is Deal:
        hands = "/".join(".".join(map(str, h)) or "-" for h in action.hands)  # type: ignore[union-attr]
        return f"deal {hands}|{'.'.join(map(str, action.rows))}"  # type: ignore[union-attr]
    if t is DraftStart:
        return f"start P{action.player}"  # type: ignore[union-attr]
    if t not in (Select, Draft, TakeRow, Flip):
        raise InputError("action", f"not a 6 nimmt! action: {show(action)}")
    p = action.player  # type: ignore[union-attr]
    if t is Select:
        c = action.card  # type: ignore[union-attr]
        full = f"P{p} select {c}"
        forms = [f"P{p} {c}", full] if len(state.to_act) > 1 else [str(c), f"P{p} {c}", full]
    elif t is Draft:
        full = f"P{p} draft {action.card}"  # type: ignore[union-attr]
        forms = [f"draft {action.card}", full]  # type: ignore[union-attr]
    elif t is TakeRow:
        full = f"P{p} row {action.row}"  # type: ignore[union-attr]
        forms = [f"row {action.row}", full]  # type: ignore[union-attr]
    else:
        full = f"P{p} flip"
        forms = ["flip", full]
    found = shortest(action, forms, lambda form: _read(state, form, legal))
    return found if found is not None else full


def to_words(state: State, action: Action | Setup) -> str:
    """The action in plain words, as the clause a question puts after "May": ``P2 select 58``, ``P1 take
    row 2``, ``P0 draft 58 from the face-up pool``, ``P3 flip the top card of their pile``, ``round 3 be
    dealt 1.2.3/4.5.6|7.8.9.10``, ``the draft of round 2 start with P1``.

    >>> from engine.take6 import GAME
    >>> to_words(GAME.new_game(2, seed=1), TakeRow(1, 2))
    'P1 take row 2'
    """
    t = type(action)
    if t not in (Select, Draft, TakeRow, Flip, Deal, DraftStart):
        raise InputError("action", f"not a 6 nimmt! action: {show(action)}")
    if t is Deal:
        return f"round {state.round} be dealt {to_text(state, action, ())[len('deal '):]}"
    if t is DraftStart:
        return f"the draft of round {state.round} start with P{action.player}"  # type: ignore[union-attr]
    who = f"P{action.player}"  # type: ignore[union-attr]
    if t is Select:
        return f"{who} select {action.card}"  # type: ignore[union-attr]
    if t is Draft:
        return f"{who} draft {action.card} from the face-up pool"  # type: ignore[union-attr]
    if t is TakeRow:
        return f"{who} take row {action.row}"  # type: ignore[union-attr]
    return f"{who} flip the top card of their pile"
