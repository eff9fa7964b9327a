"""The rules assistant's tools and resources, independent of any protocol: what ``arbiter mcp`` serves.

A :class:`Tool` is a name, a description an assistant can act on, a JSON input schema and a handler; every
handler calls the engine's own query functions (:func:`engine.query.ask`,
:func:`engine.query.explain.explain`, :func:`engine.conformance.records.check.check_record`,
:mod:`engine.svg`),
so a tool's answer is the CLI's answer.  :func:`call` validates the arguments against the schema first
(an :class:`~engine.errors.InputError` names the bad field), then runs the handler; a rule the input
breaks is reported with its clause id.

The tools, by purpose:

* ``search_rules``, ``get_rule`` — find rules in every language of the seeds; one clause in full;
* ``ask_<kind>`` — one tool per ``arbiter ask`` question kind (``ask_cost``, ``ask_row`` ...;
  ``ask_standings``: who wins, every seat ranked with the tie-break rules);
* ``explain_action``, ``legal_actions``, ``card_cost`` — about a position (the game's JSON state);
* ``check_record``, ``record_position`` — replay a game record: its first divergence, or its position
  after N actions;
* ``render_position`` — the position as a picture: SVG, and PNG for clients that cannot show SVG.

Every tool declares the JSON Schema of its structured result (``output_schema``) beside that of its
arguments.  The server's other two offerings have their own modules: :mod:`engine.assistant.resources`
(every clause and seed document, and their templates) and :mod:`engine.assistant.prompts` (settle a rules
dispute from a position; check an implementation's game record).
Texts name the tool's own arguments: an error the engine words for the command line (``--displace``,
``--action: card``) is reworded for the tool (``displace``, ``action.card``).

>>> result = call("ask_bullheads", {"cards": [55]})
>>> result.data["value"], result.data["clauses"]
(7, ['T6-BULL-1', 'T6-BULL-6'])
>>> call("ask_bullheads", {"cards": "many"})
Traceback (most recent call last):
...
engine.errors.InputError: cards: 'many' is not of type 'array'
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from attrs import evolve, frozen
from jsonschema import Draft202012Validator

from engine import jsonio
from engine.conformance.records.check import check_record, format_report
from engine.errors import InputError
from engine.game import game_names, get_game
from engine.petersburg import displacement_targets
from engine.positions import load_position_arg as load_position
from engine.query import rulesref
from engine.query.explain import explain, state_from_record
from engine.query.model import Answer
from engine.query.questions import Param, Question, all_questions, ask
from engine.query.render import render_answer
from engine.svg import board_svg

__all__ = ["NO_ROOT", "POSITION_SCHEMA", "TEXT_WIDTH", "Tool", "ToolResult", "call", "tool_index", "tools"]

TEXT_WIDTH = 100


@frozen
class ToolResult:
    """What a tool returns: ``text`` for a person or a model to read, ``data`` as JSON (it conforms to the
    tool's ``output_schema``), and, for pictures, ``svg`` and its ``png`` rendering."""

    text: str
    data: dict[str, Any]
    svg: str | None = None
    png: bytes | None = None


@frozen
class Tool:
    """One tool: ``name``, ``title``, ``description`` (when to use it, what it returns), the JSON Schema of
    its arguments, the handler taking the validated arguments, and the JSON Schema of its structured
    result."""

    name: str
    title: str
    description: str
    schema: dict[str, Any]
    handler: Callable[[dict[str, Any]], ToolResult]
    output_schema: dict[str, Any]


# --------------------------------------------------------------------------------------------------
# Schemas


ROOT_ONLY = ("a file is read only when the server was given a folder to read, and then only a regular file "
             "in that folder, named relative to it; otherwise pass the content")
"""Said by every input that may name a file: a server started without ``--root`` reads none (a description
names no command-line flag: the client cannot set one)."""


def _param_schema(p: Param) -> dict[str, Any]:
    """The JSON Schema of one question parameter (the same checks ``Param.check`` then applies)."""
    one: dict[str, Any]
    if p.type is int:
        one = {"type": "integer"}
    elif p.type is bool:
        one = {"type": "boolean"}
    elif p.type is list:
        one = {
            "anyOf": [{"type": "array", "items": {"type": "integer"}}, {"type": "string"}],
            "description": "a list of integers, or text such as '12 14 19'",
        }
    else:
        one = {"type": "string"}
        if p.choices:
            one["enum"] = list(p.choices)
    out: dict[str, Any] = {"type": "array", "items": one} if p.many else dict(one)
    described = p.help + (f" ({one['description']})" if "description" in one else "")
    out["description"] = _FLAG.sub(lambda m: m.group(1).replace("-", "_"), described)  # --position: position
    if "@FILE" in described:
        out["description"] += f"; {ROOT_ONLY}"
    return out


def _object(properties: Mapping[str, Any], required: list[str]) -> dict[str, Any]:
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


def _answer_output(**extra: Any) -> dict[str, Any]:
    """The schema of an answer, with ``extra`` properties (required too)."""
    return {
        "type": "object",
        "properties": {**ANSWER_PROPERTIES, **extra},
        "required": [*ANSWER_REQUIRED, *extra],
    }


ANSWER_OUTPUT = _answer_output()
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
    },
    "required": ["to_act", "over", "actions"],
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
        "missing": {"type": "array", "items": {"type": "object"}},
        "extra": {"type": "array", "items": {"type": "object"}},
    },
    "required": ["kind", "index", "line", "record", "rules", "clauses", "reason"],
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


def _validate(tool: Tool, arguments: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments, checked against the tool's schema; the first error names the field."""
    if not isinstance(arguments, Mapping):
        raise InputError("arguments", f"expected an object, got {type(arguments).__name__}")
    errors = sorted(
        Draft202012Validator(tool.schema).iter_errors(dict(arguments)), key=lambda e: list(e.path)
    )
    if errors:
        err = errors[0]
        path = ".".join(str(p) for p in err.absolute_path) or "arguments"
        if err.validator == "required":
            missing = err.message.split("'")[1] if "'" in err.message else err.message
            raise InputError(missing, f"missing (the {tool.name} tool needs it)")
        if err.validator == "additionalProperties":
            known = tool.schema.get("properties", {})
            extra = [k for k in err.instance if k not in known] if isinstance(err.instance, dict) else []
            where = extra[0] if path == "arguments" and extra else path
            raise InputError(where, f"unknown argument of {tool.name} (known: {', '.join(known)})")
        raise InputError(path, err.message)
    return dict(arguments)


# --------------------------------------------------------------------------------------------------
# Tools made from the question registry


def _answer_result(answer: Answer) -> ToolResult:
    return ToolResult("\n".join(render_answer(answer, width=TEXT_WIDTH)), answer.to_json())


def _question_tool(q: Question, name: str, title: str, extra: str = "") -> Tool:
    schema = _object({p.name: _param_schema(p) for p in q.params}, [p.name for p in q.params if p.required])
    game = f" ({get_game(q.game).title} only)" if q.game else ""
    needs = [p.name for p in q.params if p.required]
    takes = [p.name for p in q.params if not p.required]
    arguments = (f"Give {', '.join(needs)}" if needs else "No argument is needed") + (
        f"; optional: {', '.join(takes)}." if takes else "."
    )
    description = f"{q.help[0].upper()}{q.help[1:]}{game}. {extra}{arguments}"

    def handler(args: dict[str, Any]) -> ToolResult:
        return _answer_result(ask(q.name, args))

    return Tool(name, title, description, schema, handler, ANSWER_OUTPUT)


def _get_rule(args: dict[str, Any]) -> ToolResult:
    clause = rulesref.find_clause(args["clause_id"])
    answer = ask("rule", {"clause_id": clause.id})
    data = answer.to_json()
    data["clause"] = rulesref.clause_json(clause)
    text = "\n".join(rulesref.clause_lines(clause, width=TEXT_WIDTH))
    return ToolResult(text, data)


# --------------------------------------------------------------------------------------------------
# Tools about a position


def position_of(game: str, position: Any) -> Any:
    """The state a tool's ``position`` argument names (an object is the JSON state itself)."""
    text = position if isinstance(position, str) else json.dumps(position)
    return load_position(game, text)


def _explain(args: dict[str, Any]) -> ToolResult:
    state = position_of(args["game"], args["position"])
    return _answer_result(explain(args["game"], state, args["action"]))


def _short(action: Mapping[str, Any]) -> str:
    rest = ", ".join(f"{k}={v}" for k, v in action.items() if k not in ("type", "player") and v is not None)
    return f"{action.get('type', '?')} {rest}".strip()


def _legal_actions(args: dict[str, Any]) -> ToolResult:
    game = get_game(args["game"])
    state = position_of(args["game"], args["position"])
    acting = list(game.to_act(state))
    seats = [args["player"]] if args.get("player") is not None else acting
    players = game.players_of(state)
    for seat in seats:
        if not 0 <= seat < players:
            raise InputError("player", f"expected a seat 0..{players - 1}, got {seat}")
    actions = {str(p): [game.action_to_json(a) for a in game.legal_actions(state, p)] for p in seats}
    lines = [f"To act: {', '.join(f'P{p}' for p in acting) or 'nobody (the game is over)'}"]
    for p, acts in actions.items():
        shown = "; ".join(_short(a) for a in acts) or "none (this seat need not act now)"
        lines.append(f"P{p}: {len(acts)} legal action(s): {shown}")
    data = {"to_act": acting, "over": game.is_terminal(state), "actions": actions}
    return ToolResult("\n".join(lines), data)


def _card_cost(args: dict[str, Any]) -> ToolResult:
    """What a card costs a player in a position: the position's play area, roubles and the card's place."""
    game = get_game("petersburg")
    state = position_of("petersburg", args["position"])
    full = game.state_to_json(state)
    player = args["player"]
    if not 0 <= player < full["players"]:
        raise InputError("player", f"expected a seat 0..{full['players'] - 1}, got {player}")
    card = ask("card", {"name": args["card"], "variant": full["variant"]}).value["name"]
    where = [src for src in ("upper", "lower") if card in full[src]]
    if card in full["hands"][player]:
        where.append("hand")
    source = args.get("source") or (where[0] if where else "upper")
    params: dict[str, Any] = {
        "card": card,
        "owns": list(full["areas"][player]),
        "row": source,
        "money": full["money"][player],
        "variant": full["variant"],
        "option": [f"{k}={json.dumps(v)}" for k, v in sorted(full["options"].items())],
    }
    options: list[dict[str, Any]] = []
    if args.get("displace"):
        params["displace"] = args["displace"]
        answer = ask("cost", params)
    elif ask("card", {"name": card, "variant": full["variant"]}).value["trading"]:
        targets = displacement_targets(state, player, card)
        if not targets:
            raise InputError(
                "displace",
                f"{card} is a trading card and P{player}'s play area holds no card it may "
                "displace (SP-TRADE-1)",
            )
        answers = sorted(
            (ask("cost", {**params, "displace": t}) for t in targets),
            key=lambda a: (a.value["cost"], a.value.get("displace", "")),
        )
        options = [{"displace": a.value.get("displace"), "cost": a.value["cost"]} for a in answers]
        answer = answers[0]
    else:
        answer = ask("cost", params)
    data = answer.to_json()
    data["position"] = {
        "player": player,
        "found_in": where,
        "source": source,
        "money": full["money"][player],
        "area": list(full["areas"][player]),
    }
    found = ", ".join(where) if where else f"neither row nor P{player}'s hand (the cost if it were there)"
    text = "\n".join(render_answer(answer, width=TEXT_WIDTH)) + f"\nIn this position the card is in: {found}."
    if options:
        data["displace_options"] = options
        shown = "; ".join(f"displacing {o['displace']}: {o['cost']}" for o in options)
        text += (
            f"\nA trading card displaces a card of the play area; the cheapest is shown. Options: {shown}."
        )
    return ToolResult(text, data)


def _record_file(path: str) -> Path:
    """The record file a tool's ``path`` names, under the server's file policy (its ``--root``)."""
    return jsonio.allowed_path(path, source=f"path {jsonio.show(path)}")


def _check_record(args: dict[str, Any]) -> ToolResult:
    if (args.get("record") is None) == (args.get("path") is None):
        raise InputError("record/path", "give exactly one of record (the JSON Lines text) or path")
    if args.get("record") is not None:
        report = check_record(io.StringIO(args["record"]), name="record")
    else:
        path = _record_file(args["path"])
        with jsonio.hidden_content():  # a malformed file is described, not quoted
            report = check_record(path, name=f"path {jsonio.show(args['path'])}")
        if report.error is not None:
            report = evolve(report, error=jsonio.scrub(report.error))
    return ToolResult("\n".join(format_report(report, TEXT_WIDTH)), report.to_json())


def _record_position(args: dict[str, Any]) -> ToolResult:
    game = get_game(args["game"])
    path = _record_file(args["path"])
    try:
        with jsonio.hidden_content():
            state = state_from_record(args["game"], path, upto=args.get("upto"))
    except InputError as exc:  # the replay names the command line's flags; the tool's fields are these
        field = {"--record": "path", "--upto": "upto"}.get(exc.field, exc.field)
        raise InputError(jsonio.scrub(field), jsonio.scrub(exc.message)) from None
    data = game.state_to_json(state)
    text = (
        "\n".join(game.describe_state(state)) + "\n\nThe position (pass it as position):\n" + json.dumps(data)
    )
    return ToolResult(text, data)


def _png(svg: str, scale: float) -> bytes | None:
    """The PNG rendering of a picture, or None when the renderer (resvg-py, the ``mcp`` extra) is missing."""
    try:
        from engine.raster import svg_to_png
    except ImportError:  # pragma: no cover - the mcp extra installs it
        return None
    try:
        return svg_to_png(svg, scale=scale)
    except ImportError:  # pragma: no cover
        return None


def _render(args: dict[str, Any]) -> ToolResult:
    state = position_of(args["game"], args["position"])
    svg = board_svg(
        args["game"], state, viewer=args.get("viewer"), hand=args.get("hand"), costs_for=args.get("costs_for")
    )
    png = _png(svg, args.get("scale", 1.0))
    size = re.search(r'<svg [^>]*width="(\d+)" height="(\d+)"', svg)
    width, height = (int(size.group(1)), int(size.group(2))) if size else (0, 0)
    data = {
        "mime_type": "image/svg+xml",
        "svg": svg,
        "width": width,
        "height": height,
        "png": {"mime_type": "image/png", "bytes": len(png)} if png is not None else None,
    }
    return ToolResult(svg, data, svg=svg, png=png)


def _text(words: str) -> str:
    """A description written over several source lines, as one line."""
    return " ".join(words.split())


EXPLAIN_HELP = _text("""
Is this action legal in this position, and why. Give the game, the position (a notation line or the
game's JSON state) and the action in the game's JSON form (6 nimmt!: {"type": "select", "player": 0,
"card": 33} or {"type": "take_row", "player": 0, "row": 2}; Saint Petersburg: {"type": "buy", "player": 0,
"card": "Market", "source": "upper"}, add "displace" for a trading card). Answers legal or not, the
refusing clause, the derivation (the cost broken down, or the row the card goes to), the chain of clauses
with their seed passages, what the engine then does, and for an illegal action what would make it legal.
legal_actions shows a position's action forms.
""")

LEGAL_HELP = _text("""
Every legal action of the seats that must act now (or of one seat) in a position, in the game's JSON form,
ready to pass to explain_action. Also says who must act and whether the game is over.
""")
COST_HELP = _text("""
What a Saint Petersburg card costs a player here, and why: reads the player's play area and roubles from the
position and where the card lies (upper row, lower row or hand; or give source), then derives the cost with
the engine's own cost function: printed cost, the value of the card a trading card displaces (give displace,
or every possible one is tried and the cheapest shown), each reduction with its clause, the minimum of 1,
and whether the player can pay. Use it for "what does the Gold Smelter cost me here, and why".
""")
CHECK_HELP = _text("""
Replay a game record (arbiter-record JSON Lines: a header, one line per action, an optional result) on the
reference engine and report the first divergence: the action index and line, what the record says, what the
rules say, the deciding clause ids and why. Give the record's text, or a path to a record file.
""")
RECORD_POSITION_HELP = _text("""
The position of a game record after its first N actions (all of them by default), replayed on the reference
engine: a few readable lines and the game's JSON state, which the position tools (explain_action,
legal_actions, card_cost, render_position) take as their position.
""")
RENDER_HELP = _text("""
The position as a picture, as a PNG image (image/png, scale sets its size) beside the SVG (image/svg+xml):
a 6 nimmt! table (rows with card numbers and bullheads,
totals, the revealed cards waiting, each player's bullheads; hand adds one player's hand) or a Saint
Petersburg board (both rows with each card's effective cost for costs_for, each player's area by colour, VP,
money, phases and start markers, stacks left). With viewer, only what that seat may see is drawn.
""")
RULE_HELP = _text("""
One clause by id (such as T6-PLACE-2 or SP-COST-4): our wording, every seed passage it cites verbatim, and
the ruling and the other reading where the seeds disagree. Find ids with search_rules.
""")
SEARCH_HELP = _text("""
Ranks clauses, seed passages and FAQ answers for a question in plain words, in English, German and Russian
(a card named in any language, or misspelt, brings in its other names), and names the ask tool that answers
it with arguments taken from the question (ready only when it ran and restated them).
""")


def _position_tools() -> list[Tool]:
    game_position = {"game": GAME_SCHEMA, "position": POSITION_SCHEMA}
    action = {"type": "object", "description": "the action in the game's JSON form"}
    card = {"type": "string", "description": "the card, by any of its names (en, de, ru)"}
    source = {
        "type": "string",
        "enum": ["upper", "lower", "hand", "drawn"],
        "description": "where the card comes from (default: where it lies)",
    }
    displace = {"type": "string", "description": "for a trading card: the card of the play area it replaces"}
    return [
        Tool(
            "explain_action",
            "Explain an action in a position",
            EXPLAIN_HELP,
            _object({**game_position, "action": action}, ["game", "position", "action"]),
            _explain,
            ANSWER_OUTPUT,
        ),
        Tool(
            "legal_actions",
            "List the legal actions in a position",
            LEGAL_HELP,
            _object(
                {
                    **game_position,
                    "player": {**SEAT_SCHEMA, "description": "only this seat (default: every seat to act)"},
                },
                ["game", "position"],
            ),
            _legal_actions,
            ACTIONS_OUTPUT,
        ),
        Tool(
            "card_cost",
            "What a Saint Petersburg card costs a player in a position",
            COST_HELP,
            _object(
                {
                    "position": POSITION_SCHEMA,
                    "player": {**SEAT_SCHEMA, "description": "the buyer's seat"},
                    "card": card,
                    "source": source,
                    "displace": displace,
                },
                ["position", "player", "card"],
            ),
            _card_cost,
            _answer_output(
                position={"type": "object", "description": "what the position says of the buyer and card"},
            ),
        ),
        Tool(
            "check_record",
            "Check a game record",
            CHECK_HELP,
            _object(
                {
                    "record": {"type": "string", "description": "the record's JSON Lines text"},
                    "path": {
                        "type": "string",
                        "description": f"or: a path to a record file ({ROOT_ONLY})",
                    },
                },
                [],
            ),
            _check_record,
            REPORT_OUTPUT,
        ),
        Tool(
            "record_position",
            "The position of a game record",
            RECORD_POSITION_HELP,
            _object(
                {
                    "game": GAME_SCHEMA,
                    "path": {
                        "type": "string",
                        "description": f"a game record file (arbiter-record JSON Lines; {ROOT_ONLY})",
                    },
                    "upto": {
                        "type": "integer",
                        "minimum": 0,
                        "description": "after this many actions (default: all)",
                    },
                },
                ["game", "path"],
            ),
            _record_position,
            STATE_OUTPUT,
        ),
        Tool(
            "render_position",
            "Draw a position as SVG",
            RENDER_HELP,
            _object(
                {
                    **game_position,
                    "viewer": {**SEAT_SCHEMA, "description": "draw only what this seat may see"},
                    "hand": {**SEAT_SCHEMA, "description": "6 nimmt!: also draw this seat's hand"},
                    "costs_for": {**SEAT_SCHEMA, "description": "Saint Petersburg: whose costs to print"},
                    "scale": {
                        "type": "number",
                        "minimum": 0.1,
                        "maximum": 8,
                        "description": "the PNG's size, times the SVG's (default 1)",
                    },
                },
                ["game", "position"],
            ),
            _render,
            PICTURE_OUTPUT,
        ),
    ]


def tools() -> list[Tool]:
    """Every tool, in a fixed order: rules, questions, positions, records, pictures."""
    questions = all_questions()
    out = [
        _question_tool(
            questions["search"],
            "search_rules",
            "Search the rules",
            SEARCH_HELP + " ",
        ),
    ]
    rule = questions["rule"]
    out.append(
        Tool(
            "get_rule",
            "Get one rule",
            RULE_HELP,
            _object({p.name: _param_schema(p) for p in rule.params}, ["clause_id"]),
            _get_rule,
            _answer_output(clause={"type": "object", "description": "the clause: id, wording, citations"}),
        )
    )
    for q in questions.values():
        if q.name not in ("search", "rule"):
            out.append(_question_tool(q, f"ask_{q.name}", f"Ask: {q.name}"))
    out.extend(_position_tools())
    return out


def tool_index() -> dict[str, Tool]:
    """The tools by name."""
    return {t.name: t for t in tools()}


NO_ROOT = jsonio.FileAccess(stdin=False, max_bytes=None, hint="the server reads files only when started with "
                            "arbiter mcp --root DIR; pass the content itself")
"""The tools' file policy by default: no file at all (``arbiter mcp`` without ``--root``)."""


def call(
    name: str, arguments: Mapping[str, Any] | None, *, access: jsonio.FileAccess = NO_ROOT
) -> ToolResult:
    """Run tool ``name``, reading files (an ``@FILE`` position, a record's ``path``) only as ``access``
    allows (default: none; ``arbiter mcp --root DIR``: regular files under DIR).  InputError names an
    unknown tool or the bad argument, RuleViolation its clause.

    >>> call("legal_actions", {"game": "take6", "position": "@/etc/passwd"})
    Traceback (most recent call last):
    ...
    engine.errors.InputError: position '/etc/passwd': reading files is off here (the server reads files ...

    The engine words some errors and notes for the command line; they come back in the tool's terms:

    >>> try:
    ...     call("ask_cost", {"card": "Gold Smelter"})
    ... except InputError as exc:
    ...     print(exc.message[:70])
    Gold Smelter is a trading card: say which card it displaces (displace)
    """
    index = tool_index()
    if name not in index:
        raise InputError("name", f"unknown tool {name!r} (known: {', '.join(index)})")
    tool = index[name]
    try:
        with jsonio.file_access(access):
            result = tool.handler(_validate(tool, arguments or {}))
    except InputError as exc:
        raise InputError(_field_for(tool, exc.field), _words_for(tool, exc.message)) from None
    data = dict(result.data)
    for key in ("summary", "notes"):
        if isinstance(data.get(key), str):
            data[key] = _words_for(tool, data[key])
        elif isinstance(data.get(key), list):
            data[key] = [_words_for(tool, x) if isinstance(x, str) else x for x in data[key]]
    text = result.text if result.svg is not None else _words_for(tool, result.text)
    return evolve(result, text=text, data=data)


_FLAG = re.compile(r"(?<![\w-])--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)")


def _argument(tool: Tool, flag: str) -> str:
    """The tool's name for a command-line flag's value: its argument, else the position's field."""
    name = flag.replace("-", "_")
    known = tool.schema.get("properties", {})
    if name in known or "position" not in known:
        return name
    return f"position.{name}"


def _words_for(tool: Tool, text: str) -> str:
    """``text`` with each command-line flag (``--displace``) named as the tool's argument (``displace``)."""
    return _FLAG.sub(lambda m: _argument(tool, m.group(1)), text)


def _field_for(tool: Tool, field: str) -> str:
    """An error's field in the tool's terms: ``--action: card`` is ``action.card``, ``--upto`` ``upto``.

    >>> _field_for(tool_index()["explain_action"], "--action: action.card")
    'action.card'
    """
    head, sep, rest = field.partition(": ")
    if sep and _FLAG.fullmatch(head):
        head = _argument(tool, head[2:])
        return rest if rest == head or rest.startswith(head + ".") else f"{head}.{rest}"
    return _words_for(tool, field)
