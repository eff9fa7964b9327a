"""The JSON Schemas the assistant's tools share: the inputs that name a game, a position or a seat, and the
structured results (an answer, a list of actions, a record's report, a state, a picture).

>>> object_schema({"game": GAME_SCHEMA}, ["game"])["additionalProperties"]
False
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.game import game_names

__all__ = [
    "ACTIONS_OUTPUT", "ANSWER_OUTPUT", "GAME_SCHEMA", "PICTURE_OUTPUT", "POSITION_SCHEMA", "REPORT_OUTPUT",
    "ROOT_ONLY", "SEAT_SCHEMA", "STATE_OUTPUT", "answer_output", "object_schema",
]

ROOT_ONLY = ("a file is read only when the server was given a folder to read, and then only a regular file "
             "in that folder, named relative to it; otherwise pass the content")
"""Said by every input that may name a file: a server started without ``--root`` reads none (a description
names no command-line flag: the client cannot set one)."""


def object_schema(properties: Mapping[str, Any], required: list[str]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": dict(properties),
        "required": required,
        "additionalProperties": False,
    }


GAME_SCHEMA: dict[str, Any] = {"type": "string", "enum": list(game_names()), "description": "which game"}
POSITION_SCHEMA: dict[str, Any] = {
    "type": ["object", "string"],
    "description": "the position: its notation line, much shorter than JSON (docs/positions.md; 6 nimmt! "
    "e.g. 'standard 2 select 3.10/22/40.41.45/90 5.8.60*61/7.9.70.71 - - 12/0'), or "
    "the game's JSON state (as written by the engine's state_to_json, e.g. "
    "docs/examples/petersburg-state.json), as an object, as JSON text, or '@FILE' to read it from a file ("
    + ROOT_ONLY + ")",
}
SEAT_SCHEMA: dict[str, Any] = {"type": "integer", "minimum": 0, "description": "a seat, from 0"}

# The structured results.  An answer (every ask_* tool, search_rules, get_rule, explain_action,
# card_cost) is engine.query.model.Answer.to_json(); its ``value`` is the question's own machine answer.
_TEXT = {"type": "string"}
_TEXTS = {"type": "array", "items": _TEXT}
_NULLABLE_TEXT = {"type": ["string", "null"]}
RULING_OUTPUT: dict[str, Any] = {
    "type": "object",
    "description": "a ruling the answer rests on (the seeds disagree or are silent): say so when citing it",
    "properties": {
        "id": {**_TEXT, "description": "the ruling's clause id"},
        "rejects": {**_TEXT, "description": "the reading the engine does not apply"},
        "option": {**_NULLABLE_TEXT, "description": "the game option NAME=VALUE selecting the other reading"},
        "chosen": {"type": "boolean", "description": "true: the answer applies that option's reading"},
        "other": {**_NULLABLE_TEXT, "description": "what else selects the other reading, if not an option"},
    },
    "required": ["id", "rejects", "option", "chosen"],
}
STEP_OUTPUT: dict[str, Any] = {
    "type": "object",
    "description": "one link of the chain of rules applied",
    "properties": {
        "clause": {**_NULLABLE_TEXT, "description": "the clause id applied (null: a plain fact of the case)"},
        "detail": {**_TEXT, "description": "what the clause does here"},
        "value": {"description": "a running value (a cost, a count), or null"},
        "rule": {**_NULLABLE_TEXT, "description": "our wording of the clause"},
        "cite": {
            "type": ["object", "null"],
            "description": "the clause's first seed passage, verbatim",
            "properties": {"seed": _TEXT, "where": _TEXT, "quote": _TEXT},
        },
        "ruling": {"anyOf": [RULING_OUTPUT, {"type": "null"}], "description": "the ruling the step applies"},
    },
    "required": ["clause", "detail"],
}
ANSWER_PROPERTIES: dict[str, Any] = {
    "kind": {**_TEXT, "description": "the question kind"},
    "game": {**_NULLABLE_TEXT, "description": "the game the answer concerns"},
    "question": {**_TEXT, "description": "the question, restated"},
    "summary": {**_TEXT, "description": "the answer in one line"},
    "value": {"description": "the machine answer (its form depends on the question)"},
    "clauses": {**_TEXTS, "description": "every clause id applied, in order: cite these"},
    "rulings": {"type": "array", "items": RULING_OUTPUT,
                "description": "the rulings the answer rests on: tell the user each one is a ruling"},
    "steps": {"type": "array", "items": STEP_OUTPUT},
    "table": {
        "type": "object",
        "properties": {"headers": _TEXTS, "rows": {"type": "array", "items": _TEXTS}},
        "required": ["headers", "rows"],
    },
    "notes": _TEXTS,
}
ANSWER_REQUIRED = ["kind", "game", "question", "summary", "value", "clauses", "rulings", "steps"]


def answer_output(**extra: Any) -> dict[str, Any]:
    """The schema of an answer, with ``extra`` properties (required too)."""
    return {
        "type": "object",
        "properties": {**ANSWER_PROPERTIES, **extra},
        "required": [*ANSWER_REQUIRED, *extra],
    }


ANSWER_OUTPUT = answer_output()
ACTIONS_OUTPUT: dict[str, Any] = {
    "type": "object",
    "properties": {
        "to_act": {"type": "array", "items": {"type": "integer"}, "description": "the seats that must act"},
        "over": {"type": "boolean", "description": "the game is over"},
        "actions": {
            "type": "object",
            "description": "per seat (its number as text), its legal actions in the game's JSON form",
            "additionalProperties": {"type": "array", "items": {"type": "object"}},
        },
        "texts": {
            "type": "object",
            "description": "per seat, the same actions in the same order by their short text, read against "
            "this position (what explain_action takes: '33', 'P1 33', 'buy Market lower')",
            "additionalProperties": _TEXTS,
        },
    },
    "required": ["to_act", "over", "actions", "texts"],
}
DIVERGENCE_OUTPUT: dict[str, Any] = {
    "type": "object",
    "properties": {
        "kind": {"enum": ["illegal", "claim", "result", "setup"]},
        "index": {"type": ["integer", "null"], "description": "the action's index (null: header or result)"},
        "line": {"type": "integer"},
        "record": {**_TEXT, "description": "what the record says"},
        "rules": {**_TEXT, "description": "what the rules say"},
        "clauses": {**_TEXTS, "description": "the deciding clauses, the first decides"},
        "reason": _TEXT,
        "fact": {**_TEXT, "description": "the claimed fact that differs"},
        "missing": {"type": "array", "items": {"type": "object"},
                    "description": "a legal-set claim: each legal action the record leaves out (action: its "
                    "JSON form, text: its text there, clause)"},
        "extra": {"type": "array", "items": {"type": "object"},
                  "description": "a legal-set claim: each action the record adds (action, text, clause, "
                  "reason)"},
    },
    "required": ["kind", "index", "line", "record", "rules", "clauses", "reason"],
}
FAULT_OUTPUT: dict[str, Any] = {
    "type": "object",
    "description": "one fault in the spec's words",
    "properties": {
        "signature": _TEXT,
        "kind": {"enum": ["edit", "swap", "drop", "reading", "option", "skip", "?"]},
        "describe": {**_TEXT, "description": "what the implementation behaves as if, and what the rules say"},
        "table": _NULLABLE_TEXT,
        "row": _NULLABLE_TEXT,
        "field": _NULLABLE_TEXT,
        "rules": {"description": "the value the rules give"},
        "peer": {"description": "the implementation's apparent value"},
        "clause": _NULLABLE_TEXT,
        "wording": _NULLABLE_TEXT,
        "seed": {"anyOf": [{"type": "object", "properties": {"seed": _TEXT, "where": _TEXT, "quote": _TEXT}},
                           {"type": "null"}]},
    },
    "required": ["signature", "kind", "describe", "clause"],
}
REPORT_OUTPUT: dict[str, Any] = {
    "type": "object",
    "properties": {
        "path": _TEXT,
        "status": {"enum": ["ok", "divergence", "malformed"]},
        "game": _NULLABLE_TEXT,
        "actions": {"type": "integer", "description": "actions validated"},
        "claims": {"type": "integer", "description": "claimed facts compared"},
        "finished": {"type": "boolean"},
        "seconds": {"type": "number"},
        "divergence": {"anyOf": [DIVERGENCE_OUTPUT, {"type": "null"}]},
        "error": {**_NULLABLE_TEXT, "description": "why a malformed record is not a record"},
        "diagnosis": {
            "type": "array",
            "description": "the divergence's diagnosis: every smallest set of faults (each an edit of the "
            "rule tables, a ruling's other reading, an option, or a step left out) under which the reference "
            "does what the record does there and at the steps before it, the likeliest first; empty when "
            "nothing explains it. Lead with the first: it says which rule the implementation gets wrong",
            "items": {"type": "array", "items": FAULT_OUTPUT},
        },
    },
    "required": ["path", "status", "game", "actions", "claims", "finished", "divergence", "error"],
}
STATE_OUTPUT: dict[str, Any] = {
    "type": "object",
    "description": "the game's JSON state (state_to_json): pass it as a position",
    "properties": {"game": {"enum": list(game_names())}, "variant": _TEXT, "players": {"type": "integer"}},
    "required": ["game", "variant", "players"],
}
PICTURE_OUTPUT: dict[str, Any] = {
    "type": "object",
    "properties": {
        "mime_type": {"const": "image/svg+xml"},
        "svg": {**_TEXT, "description": "the picture, SVG"},
        "width": {"type": "integer"},
        "height": {"type": "integer"},
        "png": {
            "type": ["object", "null"],
            "description": "the PNG rendering sent beside the SVG as an image (null without a renderer)",
            "properties": {"mime_type": {"const": "image/png"}, "bytes": {"type": "integer"}},
        },
    },
    "required": ["mime_type", "svg", "width", "height", "png"],
}
