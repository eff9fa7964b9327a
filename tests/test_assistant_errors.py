"""Every error a tool gives speaks the tool's language: it names one of the tool's own arguments (or the
rule broken), and holds no word of the command line — no ``--flag``, no ``arbiter ...`` command, no metavar
(``ID``, ``FILE``, ``CARD``), no example written as a command line (``e.g. rows 20 30 40 50``).

The bad calls are made from each tool's input schema, not by hand: every required argument left out, every
argument given a value of each JSON type its schema refuses, every bound of the schema passed (a minimum,
a maximum, an enum), out-of-range numbers and texts where the schema sets no bound, an unknown argument,
and lists longer than a call may hold.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.assistant.limits import MAX_LIST
from engine.assistant.tools import Tool, call, tools
from engine.cli import build_parser
from engine.errors import InputError, RuleViolation
from engine.jsonio import FileAccess

ROOT = Path(__file__).resolve().parent.parent
AT_ROOT = FileAccess.under(ROOT)
SP_STATE = "@docs/examples/petersburg-gold-smelter.json"
T6_POSITION = "standard 2 select 3.10/22/40.41.45/90 5.8.60*61/7.9.70.71 - - 12/0"
RECORD = "tests/data/records/good-take6-standard-2p.jsonl"

GOOD: dict[str, dict[str, Any]] = {
    "search_rules": {"text": "Zar Peter"},
    "get_rule": {"clause_id": "T6-PLACE-2"},
    "ask_mentions": {"term": ["Warehouse"]},
    "ask_disputed": {"game": "take6"},
    "ask_setup": {"game": "petersburg", "players": 4},
    "ask_end": {"game": "take6"},
    "ask_variants": {"game": "take6"},
    "ask_bullheads": {"cards": [55]},
    "ask_row": {"card": 72, "rows": [[12, 14, 19], [30], [29, 41, 52, 60, 71], [88]]},
    "ask_turn": {"rows": ["20", "30", "40", "50"], "cards": [3, 7, 45], "choose": ["3=0"]},
    "ask_cost": {"card": "Market", "owns": ["Market"]},
    "ask_displace": {"trading": "Gold Smelter", "target": "Gold Miner"},
    "ask_bonus": {"distinct": 7},
    "ask_card": {"name": "Market"},
    "ask_handlimit": {"owns": ["Warehouse"]},
    "ask_pub": {"money": 9, "owns": ["Pub"]},
    "ask_final": {"owns": ["Author"], "money": 27, "hand": ["Market"]},
    "ask_standings": {"game": "petersburg", "scores": [23, 23], "money": [30, 19]},
    "explain_action": {"game": "take6", "position": T6_POSITION,
                       "action": {"type": "select", "player": 1, "card": 7}},
    "legal_actions": {"game": "take6", "position": T6_POSITION, "player": 1},
    "card_cost": {"position": SP_STATE, "player": 0, "card": "Gold Smelter"},
    "check_record": {"path": RECORD},
    "record_position": {"game": "take6", "path": RECORD, "upto": 4},
    "render_position": {"game": "take6", "position": T6_POSITION, "viewer": 0},
}

_SAMPLES: dict[str, Any] = {
    "integer": 7, "number": 1.5, "string": "x", "boolean": True, "null": None, "array": [], "object": {},
}


def _metavars() -> set[str]:
    """Every upper-case word the command line's help uses for a value (``ID``, ``FILE``, ``CARD``...)."""
    seen: set[str] = set()

    def walk(parser: argparse.ArgumentParser) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub in action.choices.values():
                    walk(sub)
                continue
            names = action.metavar if isinstance(action.metavar, tuple) else (action.metavar or "",)
            if not any(names) and action.nargs != 0:
                names = (action.dest.upper(),)
            for name in names:
                seen.update(w for w in re.split(r"[|=.\s]", str(name)) if w.isupper() and len(w) > 1)

    walk(build_parser())
    return seen - {"JSON"}  # a format's name, in any message about JSON text


METAVARS = _metavars()
CLI = [
    re.compile(r"(?<![\w-])--[a-z]"),
    re.compile(r"\barbiter [a-z]"),
    re.compile(r"e\.g\.,? [a-z_]+ [^:\s]"),  # an example written as a command line
    re.compile(r"(?<![\w-])(" + "|".join(sorted(METAVARS)) + r")(?![\w-])"),
]


def _types(schema: dict[str, Any]) -> set[str]:
    kinds = schema.get("type")
    found = {kinds} if isinstance(kinds, str) else set(kinds or ())
    for option in schema.get("anyOf", ()):
        found |= _types(option)
    if "number" in found:
        found.add("integer")  # every integer is a number
    return found


def _bad_values(schema: dict[str, Any]) -> Iterator[Any]:
    """Values the schema refuses, or that no tool can use: each refused JSON type, each bound passed."""
    allowed = _types(schema)
    if allowed:
        yield from (v for k, v in _SAMPLES.items() if k not in allowed)
    if "enum" in schema:
        yield "nope"
    if "minimum" in schema:
        yield schema["minimum"] - 1
    if "maximum" in schema:
        yield schema["maximum"] + 1
    if allowed == {"integer"} and "minimum" not in schema:
        yield from (-1, 10**6)
    if "string" in allowed and "enum" not in schema:
        yield from ("", "nope \u2028\x1b", "@no/such/file.json")
    if "array" in allowed:
        items = schema.get("items", {})
        yield from ([{}], [None], list(range(MAX_LIST + 1)))
        yield from ([v] for v in list(_bad_values(items))[:3])
    if "object" in allowed:
        yield from ({"type": "nope"}, {"game": "take6"})


def bad_calls(tool: Tool) -> Iterator[tuple[str, dict[str, Any]]]:
    """The tool's bad calls: a label and the arguments."""
    good = GOOD[tool.name]
    for name in tool.schema.get("required", ()):
        yield f"{name} missing", {k: v for k, v in good.items() if k != name}
    for name, prop in tool.schema["properties"].items():
        for value in _bad_values(prop):
            yield f"{name}={value!r:.40}", {**good, name: value}
    yield "an unknown argument: nope", {**good, "nope": 1}


def _named(tool: Tool, field: str) -> bool:
    """Whether an error's field names one of the tool's arguments (``action.card``, ``position 'x'``,
    ``record/path``)."""
    known = set(tool.schema["properties"]) | {"arguments"}
    head = re.match(r"[a-z_/]+", field)
    return head is not None and all(part in known for part in head.group(0).split("/"))


@pytest.mark.parametrize("tool", tools(), ids=lambda t: t.name)
def test_every_error_path_names_the_tools_own_argument(tool: Tool) -> None:
    """Each bad call made from the tool's schema is refused naming one of its arguments (or, for a value
    the rules refuse, the clause), and no message holds a command-line word."""
    assert tool.name in GOOD
    assert not call(tool.name, GOOD[tool.name], access=AT_ROOT).data.get("error")
    refused = 0
    for label, args in bad_calls(tool):
        try:
            call(tool.name, args, access=AT_ROOT)
        except InputError as exc:
            refused += 1
            assert _named(tool, exc.field) or exc.field == "nope" == label.split()[-1], (label, str(exc))
            text = str(exc)
        except RuleViolation as exc:
            refused += 1
            text = str(exc)
        else:
            continue  # a value the tool takes (an empty optional list, an unused seat)
        for pattern in CLI:
            assert not pattern.search(text), (tool.name, label, text)
    assert refused >= len(tool.schema["properties"])


def test_the_walk_knows_the_command_lines_words() -> None:
    """The metavars the walk refuses are the command line's own (so a new one is refused too)."""
    assert {"ID", "FILE", "CARD", "DIR", "GAME"} <= METAVARS
    assert CLI[3].search("ID: unknown clause") and not CLI[3].search("T6-PLACE-2: a card ID-like")


def test_examples_and_fields_are_the_tools(monkeypatch: pytest.MonkeyPatch) -> None:
    """The three errors that spoke the command line (issue 26): ``get_rule`` names ``clause_id`` and points
    to search_rules, ``ask_turn {}`` shows the rows as the argument's JSON, and search_rules takes the one
    string a model sends first."""
    with pytest.raises(InputError) as err:
        call("get_rule", {"clause_id": "nothing-like-it"})
    hint = "(search_rules finds clauses by their words)"
    assert str(err.value) == f"clause_id: unknown clause 'nothing-like-it' {hint}"
    with pytest.raises(InputError) as err:
        call("ask_turn", {})
    assert str(err.value) == "rows: give the rows on the table, e.g. rows: [[20], [30], [40], [50]]"
    one = call("search_rules", {"text": "Zar Peter"}).data
    assert one == call("search_rules", {"text": ["Zar", "Peter"]}).data
