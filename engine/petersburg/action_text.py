"""Saint Petersburg actions as short text, both ways, relative to a state (as SAN is to a chess position).

The grammar (docs/positions.md, "Actions as text"); words are separated by spaces, any case::

    text     = [seat " "] action
    seat     = "P" number                       ; never needed: one seat acts at a time
    action   = "pass"
             | "buy " card [" " source] [" over " card]    ; from a row or the Observatory's drawn card
             | "hand " card [" " source]                   ; take it into the hand, unpaid ("take" too)
             | "play " card [" over " card]                ; from the hand into the area
             | card [" " source] [" over " card]           ; buy it, or play it from the hand
             | "observe " stack                            ; turn an Observatory: draw from that stack
             | "discard" [" " card]                        ; discard the drawn card
             | "pub " number                               ; buy that many VP at the Pub (0 declines)
             | "reveal " card                              ; the chance step: the card drawn is this one
    source   = ["from "] ("upper" | "lower" | "drawn")
    stack    = "worker" | "building" | "aristocrat" | "trading"

A card is named as in the state's edition, by any edition's name or an alias (other languages included:
:func:`engine.petersburg.names.resolve_card`) or by its notation code (``GoldSmelter``), in any case.
``over`` names the card a trading card displaces.

:func:`to_text` writes the shortest text that reads back as the action: the source only when the card lies
in both rows (``buy Market lower``), the displaced card always (``buy Gold Smelter over Gold Miner``).
:func:`from_text` reads a text: the legal action it names; a text naming several is refused with
AmbiguousAction listing them, a malformed one with InputError naming the part, and one naming an illegal
action with the IllegalAction the engine raises for it.

>>> from engine.petersburg import GAME, position
>>> s = position(players=2, phase="building", turn=1, markers=[0, 1, 0, 1], upper=["Market", "Pub"],
...              lower=["Market"], money=[25, 25])
>>> legal = GAME.legal_actions(s)
>>> from_text(s, "buy Market lower", legal)
Buy(player=1, card='Market', source='lower', displace=None)
>>> from_text(s, "buy markt", legal)
Traceback (most recent call last):
...
engine.errors.AmbiguousAction: action: 'buy markt' is ambiguous: it could be 'buy Market upper' or ...
>>> [to_text(s, a, legal) for a in legal][:4]
['pass', 'buy Market upper', 'hand Market upper', 'buy Pub']
"""

from __future__ import annotations

from typing import Any

from engine.action_input import (
    Matches,
    Reading,
    ambiguous,
    number,
    resolve,
    shortest,
    split_seat,
    words_of,
)
from engine.errors import InputError
from engine.jsonio import show
from engine.petersburg.catalog import STACKS
from engine.petersburg.checks import check
from engine.petersburg.legal import to_act
from engine.petersburg.model import (
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
    pending_reveal,
)
from engine.petersburg.names import resolve_card
from engine.petersburg.notation import card_code
from engine.petersburg.ruleset import Ruleset

__all__ = ["VERBS", "from_text", "to_text", "to_words"]

VERBS: tuple[str, ...] = ("pass", "buy", "hand", "take", "play", "observe", "discard", "pub", "reveal")
"""The words an action text may start with (after an optional seat), besides a card's name."""
ROW_SOURCES: tuple[str, ...] = ("upper", "lower", "drawn")
"""Where a bought or taken card comes from (``Buy.source``, ``Take.source``)."""
MAX_PUB_VP = 99

Legal = tuple[Any, ...]


def _card(rs: Ruleset, words: list[str], part: str) -> str:
    """The edition's name of the card ``words`` name (its name in any edition, an alias, its code)."""
    if not words:
        raise InputError(part, "a card name is missing")
    name = " ".join(words)
    k = rs.kind.get(name)
    if k is None:
        k = resolve_card(name)
    if k is None:
        code = card_code(name).casefold()
        k = next((i for i, n in enumerate(rs.names) if card_code(n).casefold() == code), None)
    if k is None or not 0 <= k < len(rs.names):
        raise InputError(part, f"no Saint Petersburg card called {show(name)}")
    return rs.names[k]


def _card_fields(rs: Ruleset, verb: str, words: list[str], *, source: bool, over: bool) -> dict[str, Any]:
    """The card, its source and the displaced card named by the words after a verb."""
    lowered = [w.casefold() for w in words]
    given: dict[str, Any] = {}
    if "over" in lowered:
        i = lowered.index("over")
        if not over:
            raise InputError("over", f"{verb} displaces no card")
        given["displace"] = _card(rs, words[i + 1 :], "over")
        words, lowered = words[:i], lowered[:i]
    if words and lowered[-1] in ROW_SOURCES:
        if not source:
            raise InputError("source", f"{verb} takes no source: {show(words[-1])}")
        given["source"] = lowered[-1]
        words, lowered = words[:-1], lowered[:-1]
        if words and lowered[-1] == "from":
            words = words[:-1]
    given["card"] = _card(rs, words, "card")
    return given


def _readings(state: State, words: list[str]) -> list[Reading]:
    """The readings of a text's words; InputError names a malformed part."""
    rs = state.rules
    seat, rest = split_seat(words, state.players)
    verb, args = rest[0].casefold(), rest[1:]
    given: dict[str, Any] = {} if seat is None else {"player": seat}
    if verb == "reveal":
        if seat is not None:
            raise InputError("seat", "a reveal is a chance step: no seat takes it")
        return [Reading(Reveal, {"card": _card(rs, args, "card")})]
    if verb == "pass":
        if args:
            raise InputError("pass", f"a pass names nothing more, got {show(' '.join(args))}")
        return [Reading(Pass, given)]
    if verb == "pub":
        if len(args) != 1:
            raise InputError("pub", "expected pub and the VP to buy (pub 0 declines); the card: buy Pub")
        return [Reading(PubBuy, {**given, "vp": number(args[0], "vp", 0, MAX_PUB_VP)})]
    if verb == "observe":
        if len(args) > 1 or (args and args[0].casefold() not in STACKS):
            raise InputError("stack", f"expected one of {', '.join(STACKS)}, got {show(' '.join(args))}")
        return [Reading(Observe, {**given, **({"stack": args[0].casefold()} if args else {})})]
    if verb == "discard":
        return [Reading(Discard, {**given, **({"card": _card(rs, args, "card")} if args else {})})]
    if verb in ("hand", "take"):
        return [Reading(Take, {**given, **_card_fields(rs, verb, args, source=True, over=False)})]
    if verb == "buy":
        return [Reading(Buy, {**given, **_card_fields(rs, verb, args, source=True, over=True)})]
    if verb == "play":
        return [Reading(Play, {**given, **_card_fields(rs, verb, args, source=False, over=True)})]
    try:
        fields = _card_fields(rs, "a card", rest, source=True, over=True)
    except InputError as exc:
        if exc.field != "card":
            raise
        raise InputError(
            "action", f"expected one of {', '.join(VERBS)} or a card's name, got {show(' '.join(rest))}"
        ) from None
    buy = Reading(Buy, {**given, **fields})
    if "source" in fields:
        return [buy]
    play = Reading(Play, {**given, **fields})
    k = rs.kind[fields["card"]]
    p = seat if seat is not None else (to_act(state) or (0,))[0]
    in_rows = k in state.upper or k in state.lower or k == state.drawn
    return [play, buy] if not in_rows and k in state.hands[p] else [buy, play]


def _fill(state: State, reading: Reading) -> Any:
    """The action a reading names when no legal action matches it: the seat to act (else seat 0); the
    row the card lies in (the drawn card, the upper row, the lower row); no displaced card; the drawn card
    for a discard; the first stack of two cards or more for an Observatory."""
    rs = state.rules
    given = dict(reading.given)
    if reading.kind is Reveal:
        return Reveal(**given)
    given.setdefault("player", (to_act(state) or (0,))[0])
    kind = rs.kind.get(given.get("card", ""))
    if reading.kind in (Buy, Take) and "source" not in given:
        places = {"drawn": state.drawn == kind, "upper": kind in state.upper, "lower": kind in state.lower}
        given["source"] = next((source for source, here in places.items() if here), "upper")
    if reading.kind is Discard and "card" not in given:
        given["card"] = card_name(rs, state.drawn) if state.drawn >= 0 else "nothing"
    if reading.kind is Observe and "stack" not in given:
        given["stack"] = next((STACKS[i] for i, st in enumerate(state.stacks) if len(st) >= 2), STACKS[0])
    return reading.kind(**given)


def _read(state: State, text: str, legal: Legal) -> Any:
    return resolve(text, _readings(state, words_of(text)), legal, lambda r: _fill(state, r))


def from_text(state: State, text: Any, legal: Legal, *, checked: bool = True) -> Any:
    """The action ``text`` names in ``state`` (``legal``: the state's legal actions, or its reveals).

    Raises AmbiguousAction (an InputError) listing the readings of a text naming several legal actions,
    InputError naming the malformed part, and — when ``checked`` — the engine's IllegalAction for an
    action that is not legal; with ``checked=False`` that action is returned (to explain its refusal)."""
    try:
        action = _read(state, text, legal)
    except Matches as many:
        raise ambiguous(text, many, lambda a: to_text(state, a, legal)) from None
    if checked:
        return check(state, action)
    return action


def to_text(state: State, action: Any, legal: Legal) -> str:
    """The shortest text that reads back as ``action`` in ``state`` (``legal``: the state's legal actions);
    for an action that is not legal there too, reading its text back gives the engine's refusal."""
    t = type(action)
    if t is Reveal:
        return f"reveal {action.card}"
    if t not in (Pass, Buy, Take, Play, Observe, Discard, PubBuy):
        raise InputError("action", f"not a Saint Petersburg action: {show(action)}")
    p = f"P{action.player}"
    if t is Pass:
        forms = ["pass", f"{p} pass"]
    elif t is Buy or t is Take:
        verb = "buy" if t is Buy else "hand"
        over = f" over {action.displace}" if t is Buy and action.displace is not None else ""
        card, src = action.card, action.source
        forms = [f"{verb} {card}{over}", f"{verb} {card} {src}{over}", f"{p} {verb} {card} {src}{over}"]
    elif t is Play:
        over = f" over {action.displace}" if action.displace is not None else ""
        forms = [f"play {action.card}{over}", f"{p} play {action.card}{over}"]
    elif t is Observe:
        forms = [f"observe {action.stack}", f"{p} observe {action.stack}"]
    elif t is Discard:
        forms = ["discard", f"discard {action.card}", f"{p} discard {action.card}"]
    else:
        forms = [f"pub {action.vp}", f"{p} pub {action.vp}"]
    found = shortest(action, forms, lambda form: _read(state, form, legal))
    return found if found is not None else forms[-1]


def to_words(state: State, action: Any) -> str:
    """The action in plain words, as the clause a question puts after "May": ``P0 buy the Market from the
    lower row``, ``P1 buy the Gold Smelter from the upper row, displacing the Gold Miner``, ``P0 take the
    drawn Wharf into the hand``, ``P2 buy 3 VP at the Pub``, ``the card drawn from the building stack be
    the Market``.

    >>> from engine.petersburg import GAME, Buy
    >>> to_words(GAME.new_game(2, seed=1), Buy(0, "Market", "lower"))
    'P0 buy the Market from the lower row'
    """
    t = type(action)
    if t not in (Pass, Buy, Take, Play, Observe, Discard, PubBuy, Reveal):
        raise InputError("action", f"not a Saint Petersburg action: {show(action)}")
    if t is Reveal:
        i = pending_reveal(state) if state.hidden else -1
        stack = f"the {STACKS[i]} stack" if i >= 0 else "a stack of unknown order"
        return f"the card drawn from {stack} be the {action.card}"
    who = f"P{action.player}"
    if t is Pass:
        return f"{who} pass"
    if t is Observe:
        return f"{who} turn an Observatory to draw the top card of the {action.stack} stack"
    if t is Discard:
        return f"{who} discard the drawn {action.card}"
    if t is PubBuy:
        return f"{who} buy {action.vp or 'no'} VP at the Pub"
    over = f", displacing the {action.displace}" if getattr(action, "displace", None) is not None else ""
    if t is Play:
        return f"{who} play the {action.card} from the hand{over}"
    verb, into = ("buy", "") if t is Buy else ("take", " into the hand")
    if action.source == "drawn":
        return f"{who} {verb} the drawn {action.card}{into}{over}"
    return f"{who} {verb} the {action.card} from the {action.source} row{into}{over}"
