"""What a failed tool call answers, and a reply made safe to write: no MCP import, so the worker processes
and the server share them.

>>> from engine.errors import IllegalAction
>>> error_payload(IllegalAction("T6-SELECT-1", "card 4 is not in P0's hand"))[1]["clause"]
'T6-SELECT-1'
>>> error_payload(KeyError("x"))[0]
"internal: KeyError: 'x'"
>>> error_payload(LimitReached("stopped after 30 s"))
('stopped after 30 s', {'field': None, 'message': 'stopped after 30 s', 'clause': None})
"""

from __future__ import annotations

from typing import Any

from engine.assistant.limits import LimitReached
from engine.errors import InputError, RuleViolation

__all__ = ["error_payload", "writable"]


def error_payload(exc: Exception) -> tuple[str, dict[str, Any]]:
    """The text and the structured ``error`` of a failed tool call: the field, or the clause, it names
    (none for a call stopped by one of the server's bounds; ``internal`` for an engine fault, with the
    exception's class and message)."""
    if isinstance(exc, InputError):
        return str(exc), {"field": exc.field, "message": exc.message, "clause": None}
    if isinstance(exc, RuleViolation):
        return str(exc), {"field": None, "message": exc.message, "clause": exc.clause}
    if isinstance(exc, LimitReached):
        return exc.message, {"field": None, "message": exc.message, "clause": None}
    message = f"{type(exc).__name__}: {exc}"
    return f"internal: {message}", {"field": "internal", "message": message, "clause": None}


def writable(value: Any) -> Any:
    """``value`` with every lone surrogate in its strings written as its escape (``\\ud800``): the reply
    goes out as UTF-8, which cannot hold one, and a reply that cannot be written is never answered.

    >>> writable({"term": [chr(0xD800) + "x"]})
    {'term': ['\\\\ud800x']}
    """
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return value.encode("utf-8", "backslashreplace").decode("utf-8")
        return value
    if isinstance(value, dict):
        return {writable(k): writable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [writable(v) for v in value]
    return value
