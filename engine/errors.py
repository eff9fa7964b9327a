"""Exceptions raised by the engine.

Every exception carries a one-line message meant for a person; the ones about rules also carry the id of
the clause that decided, so a caller can look it up (``arbiter rules ID``).

>>> err = IllegalAction("T6-SELECT-1", "card 7 is not in hand")
>>> err.clause, str(err)
('T6-SELECT-1', 'T6-SELECT-1: card 7 is not in hand')
"""

from __future__ import annotations


class ArbiterError(Exception):
    """Base class of every error this package raises on purpose."""


class SpecError(ArbiterError):
    """A rule table in ``spec/`` is malformed: names the table, the row and the field."""


class InputError(ArbiterError, ValueError):
    """External input (a record, JSON state, CLI argument, peer reply) is malformed.

    ``field`` names the offending field (a JSON path such as ``header.players`` or ``line 7: action``).

    >>> str(InputError("header.players", "expected an integer from 2 to 10, got 'four'"))
    "header.players: expected an integer from 2 to 10, got 'four'"
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class NotAnAction(InputError, TypeError):
    """``apply`` was given an action's JSON form (a dict) instead of an action value: a type error, not a
    rules violation; the game's ``action_from_json`` builds the action from its JSON form.

    >>> err = NotAnAction("take6", {"type": "select", "player": 0, "card": 3})
    >>> isinstance(err, TypeError), err.field
    (True, 'action')
    >>> print(err.message)
    expected a take6 action value, got a dict: build it with get_game('take6').action_from_json(...)
    """

    def __init__(self, game: str, action: object) -> None:
        got = type(action).__name__
        build = f"get_game({game!r}).action_from_json(...)"
        super().__init__("action", f"expected a {game} action value, got a {got}: build it with {build}")


class AmbiguousAction(InputError):
    """An action text that names several legal actions (as python-chess's ``AmbiguousMoveError``):
    ``readings`` are their texts, each naming one of them.

    >>> err = AmbiguousAction("action", "'buy Market' is ambiguous", ("buy Market upper", "buy Market lower"))
    >>> err.field, err.readings
    ('action', ('buy Market upper', 'buy Market lower'))
    """

    def __init__(self, field: str, message: str, readings: tuple[str, ...]) -> None:
        super().__init__(field, message)
        self.readings = readings


class RuleViolation(ArbiterError, ValueError):
    """An action or a set-up breaks a rule; ``clause`` is the id of the rule (e.g. ``T6-PLACE-2``)."""

    def __init__(self, clause: str, message: str) -> None:
        super().__init__(f"{clause}: {message}")
        self.clause = clause
        self.message = message


class IllegalAction(RuleViolation):
    """The action is not legal in this state; the state it was applied to is unchanged."""


class NotYourTurn(IllegalAction):
    """The acting player is not among the players who must act now."""


class GameOver(IllegalAction):
    """No action is legal because the game has ended."""


class IllegalSetup(RuleViolation):
    """A game could not be created: wrong player count, unknown variant, inconsistent explicit deal."""


class PositionError(InputError):
    """A position (built, written in notation or read as JSON) breaks a rule: ``field`` names the field or
    notation token, ``clause`` the rule it breaks.

    >>> err = PositionError("rows[2]", "T6-PLACE-2", "holds 6 cards, at most 5")
    >>> err.field, err.clause, str(err)
    ('rows[2]', 'T6-PLACE-2', 'rows[2]: holds 6 cards, at most 5 [T6-PLACE-2]')
    """

    def __init__(self, field: str, clause: str, message: str) -> None:
        super().__init__(field, f"{message} [{clause}]")
        self.clause = clause
        self.message = message
