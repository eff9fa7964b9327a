"""What both games' action text shares: reading a text into its possible readings, resolving them against
a state's legal actions (as python-chess's ``parse_san`` does), and choosing the shortest text that reads
back to an action; plus :func:`read_action`, the one way a command or a tool reads an action given as JSON
or as text.

The games' own grammars are :mod:`engine.take6.action_text` and :mod:`engine.petersburg.action_text`
(docs/positions.md, "Actions as text").  A text is first split into words; :class:`Reading` is one way of
understanding it (an action class and the fields the text gave); :func:`resolve` finds the legal action it
names, refuses a text that names several with :class:`~engine.errors.AmbiguousAction` listing them, and
otherwise fills the fields the text left open with their likeliest values, so the engine's own check can
say why that action is refused.

>>> from engine.take6 import Select
>>> r = Reading(Select, {"card": 58})
>>> r.matches(Select(2, 58)), r.matches(Select(2, 57))
(True, False)
>>> number("58", "card", 1, 104)
58
>>> number("٥٨", "card", 1, 104)
Traceback (most recent call last):
...
engine.errors.InputError: card: expected a number from 1 to 104 (digits 0-9 only), got '\\u0665\\u0668'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from attrs import frozen

from engine import digits
from engine.errors import AmbiguousAction, InputError, RuleViolation
from engine.jsonio import loads, show

__all__ = [
    "MAX_TEXT",
    "Matches",
    "Reading",
    "ambiguous",
    "number",
    "read_action",
    "resolve",
    "seat_word",
    "seated",
    "shortest",
    "split_seat",
    "text_of_json",
    "words_of",
]

MAX_TEXT = 4000
"""The longest action text read (a 10-player 6 nimmt! deal, the longest action, is about 400 characters)."""
_MAX_DIGITS = 6


@frozen
class Reading:
    """One way of reading a text: an action class and the fields the text gave; a field the text left out
    is open (it matches any value)."""

    kind: type
    given: Mapping[str, Any]

    def matches(self, action: Any) -> bool:
        """Whether ``action`` is of this class and agrees with every given field."""
        return type(action) is self.kind and all(getattr(action, f) == v for f, v in self.given.items())


def words_of(text: Any) -> list[str]:
    """The words of an action text (split at white space); InputError for anything but a non-empty string
    of at most :data:`MAX_TEXT` characters.

    >>> words_of("  buy   Market lower ")
    ['buy', 'Market', 'lower']
    """
    if not isinstance(text, str):
        raise InputError("action", f"expected an action text, got {show(text)}")
    if len(text) > MAX_TEXT:
        raise InputError("action", f"an action text of {len(text)} characters (at most {MAX_TEXT})")
    words = text.split()
    if not words:
        raise InputError("action", "empty action text")
    return words


def number(word: str, part: str, lo: int, hi: int) -> int:
    """``word`` as a number from ``lo`` to ``hi``: ASCII digits only (no sign, no other script's digits),
    else InputError naming ``part``."""
    return digits.read_int(word, part, lo=lo, hi=hi, max_digits=_MAX_DIGITS)


def seat_word(word: str) -> int | None:
    """The seat a word names (``P2``, ``p2``), or ``None`` when the word is not a seat.

    >>> seat_word("P2"), seat_word("p10"), seat_word("Pub")
    (2, 10, None)
    """
    if len(word) >= 2 and word[0] in "Pp" and digits.number(word[1:]) is not None:
        if len(word) - 1 > _MAX_DIGITS:
            raise InputError("seat", f"expected a seat such as P0, got {show(word)}")
        return digits.number(word[1:])
    return None


def split_seat(words: list[str], players: int) -> tuple[int | None, list[str]]:
    """A leading seat word (``P2``) and the words after it; a seat the game does not have is InputError.

    >>> split_seat(["P1", "58"], 2), split_seat(["58"], 2)
    ((1, ['58']), (None, ['58']))
    """
    seat = seat_word(words[0])
    if seat is None:
        return None, words
    if seat >= players:
        raise InputError("seat", f"expected a seat P0..P{players - 1}, got {show(words[0])}")
    if len(words) == 1:
        raise InputError("action", f"{words[0]} and then what? (an action follows the seat)")
    return seat, words[1:]


def seated(text: str, seat: int | None) -> str:
    """``text`` with its seat in front (``P2 58``) unless it names one already or the action is a chance
    step's (``seat`` None): a text that reads back as the same action wherever it is shown, whoever is to
    act (a seat may start any text).

    >>> seated("buy Market", 1), seated("P1 58", 1), seated("reveal Market", None)
    ('P1 buy Market', 'P1 58', 'reveal Market')
    """
    if seat is None or seat_word(text.split(maxsplit=1)[0]) is not None:
        return text
    return f"P{seat} {text}"


def text_of_json(game: Any, state: Any, value: Any, seat: int | None) -> str | None:
    """The text of ``seat``'s action given in its JSON form (a record's, a peer's), in ``state``, with its
    seat (:func:`seated`); ``None`` for a value that is no action of the game.  For a person, beside the
    JSON: what ``arbiter explain --action`` takes in that position.

    >>> from engine.game import get_game
    >>> g = get_game("petersburg")
    >>> text_of_json(g, g.new_game(2, seed=1), {"type": "pass", "player": 0}, 0)
    'P0 pass'
    >>> text_of_json(g, g.new_game(2, seed=1), {"type": "fly"}, 0) is None
    True
    """
    try:
        return seated(game.action_to_text(state, game.action_from_json(value)), seat)
    except (InputError, RuleViolation):
        return None


class Matches(Exception):
    """Raised by :func:`resolve` when a text names several legal actions (``actions``); the game's reader
    turns it into :class:`~engine.errors.AmbiguousAction` with their texts (:func:`ambiguous`)."""

    def __init__(self, actions: list[Any]) -> None:
        super().__init__(f"{len(actions)} actions")
        self.actions = actions


def resolve(
    text: str, readings: Sequence[Reading], legal: Iterable[Any], fill: Callable[[Reading], Any]
) -> Any:
    """The action a text names: the one legal action matching one of its ``readings``; several raise
    :class:`Matches`; none, and the first reading with its open fields filled in (``fill``) is returned,
    for the engine's check to accept or refuse."""
    matched = [a for a in legal if any(r.matches(a) for r in readings)]
    if len(matched) == 1:
        return matched[0]
    if matched:
        raise Matches(matched)
    return fill(readings[0])


def ambiguous(text: str, matches: Matches, text_of: Callable[[Any], str]) -> AmbiguousAction:
    """The error for a text naming several legal actions, listing each one's text."""
    readings = tuple(text_of(a) for a in matches.actions)
    shown = [show(r) for r in readings]
    listed = ", ".join(shown[:-1]) + " or " + shown[-1]
    return AmbiguousAction("action", f"{show(text)} is ambiguous: it could be {listed}", readings)


def shortest(action: Any, forms: Iterable[str], read: Callable[[str], Any]) -> str | None:
    """The first of ``forms`` that reads back (``read``) as ``action``, or ``None``."""
    for form in forms:
        try:
            if read(form) == action:
                return form
        except (InputError, RuleViolation, Matches):
            continue
    return None


def read_action(game: Any, state: Any, value: Any, *, checked: bool = True) -> Any:
    """An action given as its JSON form (a dict, or a string starting with ``{``) or as text (any other
    string), read against ``state``: ``game.action_from_json`` or ``game.action_from_text``.  With
    ``checked=False`` an illegal text still gives the action it names (to explain why it is refused); an
    ambiguous or malformed one is InputError either way.

    >>> from engine.game import get_game
    >>> g = get_game("take6")
    >>> s = g.new_game(2, seed=1)
    >>> read_action(g, s, f"P1 {s.hands[1][0]}") == read_action(g, s, {"type": "select", "player": 1,
    ...                                                             "card": s.hands[1][0]})
    True
    """
    if isinstance(value, str) and value.lstrip().startswith("{"):
        value = loads(value, source="action")
    if isinstance(value, str):
        return game.action_from_text(state, value, checked=checked)
    return game.action_from_json(value)
