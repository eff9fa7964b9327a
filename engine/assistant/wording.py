"""Errors and notes in a tool's own words.

The engine words some messages for the command line: a flag (``--displace``, a field ``--action: card``),
an example written as a command line (``e.g. --rows 20 30 40 50``), a metavar (``ID``).  A tool's caller
cannot type any of those; it sets the tool's arguments.  So every message a tool gives passes through
:func:`words_for` (and its field through :func:`field_for`), which name the tool's argument instead and
write an example as the argument's JSON value, read with the tool's own input schema.

>>> schema = {"properties": {"rows": {"type": "array", "items": {"anyOf": [
...     {"type": "array", "items": {"type": "integer"}}, {"type": "string"}]}}}}
>>> words_for(schema, "give the rows on the table, e.g. --rows '12 14 19' 30 88")
'give the rows on the table, e.g. rows: [[12, 14, 19], [30], [88]]'
>>> field_for(schema, "--rows")
'rows'
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Mapping
from typing import Any

from engine import digits

__all__ = ["FLAG", "field_for", "flag_words", "words_for"]

FLAG = re.compile(r"(?<![\w-])--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)")
"""A command-line flag in a message."""

_EXAMPLE = re.compile(r"(e\.g\.,? )--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)((?: (?:'[^']*'|[^\s'(),;]+))+)")
"""An example written as a command line: ``e.g. --rows 20 30 40 50``."""


def flag_words(text: str) -> str:
    """``text`` with each flag named without its dashes (a parameter's help made into a description).

    >>> flag_words("the position (or --state)")
    'the position (or state)'
    """
    return FLAG.sub(lambda m: m.group(1).replace("-", "_"), text)


def _argument(schema: Mapping[str, Any], flag: str) -> str:
    """The tool's name for a command-line flag's value: its argument, else the position's field."""
    name = flag.replace("-", "_")
    known = schema.get("properties", {})
    if name in known or "position" not in known:
        return name
    return f"position.{name}"


def _value(word: str, schema: Mapping[str, Any]) -> Any:
    """One word of a command line as the JSON value ``schema`` describes (a list of integers, an integer,
    text)."""
    kinds = [schema, *schema.get("anyOf", ())]
    numbers = word.replace(",", " ").split()
    if numbers and all(digits.number(n, signed=True) is not None for n in numbers):
        if any(k.get("type") == "array" for k in kinds):
            return [int(n) for n in numbers]
        if len(numbers) == 1 and any(k.get("type") == "integer" for k in kinds):
            return int(numbers[0])
    return word


def _example(schema: Mapping[str, Any], flag: str, words: str) -> str:
    """``--flag words`` as ``argument: JSON value`` (a list for an array argument)."""
    name = _argument(schema, flag)
    prop = schema.get("properties", {}).get(name, {})
    try:
        parts = shlex.split(words)
    except ValueError:
        parts = words.split()
    if prop.get("type") == "array":
        value: Any = [_value(w, prop.get("items", {})) for w in parts]
    else:
        value = _value(" ".join(parts), prop)
    return f"{name}: {json.dumps(value, ensure_ascii=False)}"


def words_for(schema: Mapping[str, Any], text: str, aliases: Mapping[str, str] | None = None) -> str:
    """``text`` in the words of the tool whose input schema is ``schema``: each command-line example as
    the argument's JSON value, each flag (``--displace``) as the argument (``displace``), each metavar of
    ``aliases`` (a placeholder for the form of a value: ``NAME=VALUE``) in plain letters.

    >>> words_for({"properties": {"option": {}}}, "expected NAME=VALUE", {"NAME=VALUE": "option"})
    'expected name=value'
    """
    text = _EXAMPLE.sub(lambda m: m.group(1) + _example(schema, m.group(2), m.group(3).strip()), text)
    text = FLAG.sub(lambda m: _argument(schema, m.group(1)), text)
    for metavar in sorted(aliases or {}, key=len, reverse=True):
        text = re.sub(rf"(?<![\w-]){re.escape(metavar)}(?![\w-])", metavar.lower(), text)
    return text


def field_for(schema: Mapping[str, Any], field: str, aliases: Mapping[str, str] | None = None) -> str:
    """An error's field in the tool's terms: ``--action: card`` is ``action.card``, ``--upto`` ``upto``, a
    metavar of ``aliases`` the argument it stands for.

    >>> field_for({"properties": {"action": {}}}, "--action: action.card")
    'action.card'
    """
    head, sep, rest = field.partition(": ")
    if sep and FLAG.fullmatch(head):
        head = _argument(schema, head[2:])
        return rest if rest == head or rest.startswith(head + ".") else f"{head}.{rest}"
    if aliases and field in aliases:
        return aliases[field]
    return words_for(schema, field, aliases)
