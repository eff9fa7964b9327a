"""The rules assistant's tools and resources, independent of any protocol: what ``arbiter mcp`` serves.

A :class:`Tool` is a name, a description an assistant can act on, a JSON input schema and a handler; every
handler calls the engine's own query functions (:func:`engine.query.ask`,
:func:`engine.query.explain.explain`, :func:`engine.conformance.check.check_record`, :mod:`engine.svg`),
so a tool's answer is the CLI's answer.  :func:`call` validates the arguments against the schema first
(an :class:`~engine.errors.InputError` names the bad field), then runs the handler; a rule the input
breaks is reported with its clause id.

The tools, by purpose:

* ``search_rules``, ``get_rule`` — find rules in every language of the seeds; one clause in full;
* ``ask_<kind>`` — one tool per ``arbiter ask`` question kind (``ask_cost``, ``ask_row`` ...);
* ``explain_action``, ``legal_actions``, ``card_cost`` — about a position (the game's JSON state);
* ``check_record``, ``record_position`` — replay a game record: its first divergence, or its position
  after N actions;
* ``render_position`` — the position as an SVG picture.

Resources: ``arbiter://clause/<ID>`` (every clause: wording, citations, ruling) and ``arbiter://seed/<KEY>``
(every seed document, verbatim).

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
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from attrs import evolve, frozen
from jsonschema import Draft202012Validator

from engine import jsonio
from engine.conformance.check import check_record, format_report
from engine.errors import InputError
from engine.game import GAME_MODULES, get_game
from engine.petersburg import displacement_targets
from engine.positions import load_position_arg as load_position
from engine.query import rulesref
from engine.query.explain import explain, state_from_record
from engine.query.model import Answer
from engine.query.questions import Param, Question, all_questions, ask
from engine.query.render import render_answer
from engine.spec import seed_document, seed_index
from engine.svg import board_svg

__all__ = [
    "RESOURCE_PREFIX",
    "Resource",
    "Tool",
    "ToolResult",
    "call",
    "read_resource",
    "resources",
    "tools",
]

RESOURCE_PREFIX = "arbiter://"
TEXT_WIDTH = 100


@frozen
class ToolResult:
    """What a tool returns: ``text`` for a person or a model to read, ``data`` as JSON, and, for pictures,
    ``svg``."""

    text: str
    data: dict[str, Any]
    svg: str | None = None


@frozen
class Tool:
    """One tool: ``name``, ``title``, ``description`` (when to use it, what it returns), the JSON Schema of
    its arguments, and the handler taking the validated arguments."""

    name: str
    title: str
    description: str
    schema: dict[str, Any]
    handler: Callable[[dict[str, Any]], ToolResult]


@frozen
class Resource:
    """One readable document: ``uri``, ``name``, ``description``, MIME type, and a reader for its text."""

    uri: str
    name: str
    description: str
    mime_type: str
    read: Callable[[], str]


# --------------------------------------------------------------------------------------------------
# Schemas


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
    out["description"] = p.help + (f" ({one['description']})" if "description" in one else "")
    return out


def _object(properties: Mapping[str, Any], required: list[str]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": dict(properties),
        "required": required,
        "additionalProperties": False,
    }


GAME_SCHEMA: dict[str, Any] = {"type": "string", "enum": list(GAME_MODULES), "description": "which game"}
POSITION_SCHEMA: dict[str, Any] = {
    "type": ["object", "string"],
    "description": "the position: the game's JSON state (as written by the engine's state_to_json, e.g. "
    "docs/examples/petersburg-state.json), as an object, as JSON text, or '@FILE' to read it from a file",
}
SEAT_SCHEMA: dict[str, Any] = {"type": "integer", "minimum": 0, "description": "a seat, from 0"}


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
    game = f" ({q.game} only)" if q.game else ""
    examples = "; ".join(q.examples)
    description = (
        f"{q.help[0].upper()}{q.help[1:]}{game}. {extra}Answers with the chain of rules applied: each clause "
        "id with its wording and the verbatim seed passage it rests on; cite those when you answer."
        + (f" Same as the command line: {examples}." if examples else "")
    )

    def handler(args: dict[str, Any]) -> ToolResult:
        return _answer_result(ask(q.name, args))

    return Tool(name, title, description, schema, handler)


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
    players = game.state_to_json(state)["players"]
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


def _render(args: dict[str, Any]) -> ToolResult:
    state = position_of(args["game"], args["position"])
    svg = board_svg(
        args["game"], state, viewer=args.get("viewer"), hand=args.get("hand"), costs_for=args.get("costs_for")
    )
    data = {"mime_type": "image/svg+xml", "svg": svg}
    return ToolResult(svg, data, svg=svg)


def _text(words: str) -> str:
    """A description written over several source lines, as one line."""
    return " ".join(words.split())


EXPLAIN_HELP = _text("""
Is this action legal in this position, and why. Give the game, the position (the game's JSON state) and the
action in the game's JSON form (6 nimmt!: {"type": "select", "player": 0, "card": 33} or {"type": "take_row",
"player": 0, "row": 2}; Saint Petersburg: {"type": "buy", "player": 0, "card": "Market", "source": "upper"},
add "displace" for a trading card). Answers legal or not, the refusing clause, the derivation (the cost
broken down, or the row the card goes to), the chain of clauses with their seed passages, what the engine
then does, and for an illegal action what would make it legal. legal_actions shows a position's action forms.
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
The position as an SVG picture (image/svg+xml): a 6 nimmt! table (rows with card numbers and bullheads,
totals, the revealed cards waiting, each player's bullheads; hand adds one player's hand) or a Saint
Petersburg board (both rows with each card's effective cost for costs_for, each player's area by colour, VP,
money, phases and start markers, stacks left). With viewer, only what that seat may see is drawn.
""")
RULE_HELP = _text("""
One clause by id (such as T6-PLACE-2 or SP-COST-4): our wording, every seed passage it cites verbatim, and
the ruling and the other reading where the seeds disagree. Find ids with search_rules.
""")
SEARCH_HELP = _text("""
Finds clauses, card names and seed passages in English, German and Russian (a card named in any language
brings in its other names).
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
        ),
        Tool(
            "check_record",
            "Check a game record",
            CHECK_HELP,
            _object(
                {
                    "record": {"type": "string", "description": "the record's JSON Lines text"},
                    "path": {"type": "string", "description": "or: a path to a record file"},
                },
                [],
            ),
            _check_record,
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
                        "description": "a game record file (arbiter-record JSON Lines)",
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
                },
                ["game", "position"],
            ),
            _render,
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
    """
    index = tool_index()
    if name not in index:
        raise InputError("name", f"unknown tool {name!r} (known: {', '.join(index)})")
    tool = index[name]
    with jsonio.file_access(access):
        return tool.handler(_validate(tool, arguments or {}))


# --------------------------------------------------------------------------------------------------
# Resources


def resources() -> list[Resource]:
    """Every clause and every seed document, as readable resources.

    >>> names = [r.uri for r in resources()]
    >>> "arbiter://clause/T6-PLACE-2" in names, "arbiter://seed/004" in names
    (True, True)
    """
    out: list[Resource] = []
    for clause in rulesref.select():

        def read(c: Any = clause) -> str:
            return "\n".join(rulesref.clause_lines(c, width=TEXT_WIDTH))

        out.append(
            Resource(
                f"{RESOURCE_PREFIX}clause/{clause.id}",
                clause.id,
                f"{clause.game} · {clause.topic}: {clause.text}",
                "text/plain",
                read,
            )
        )
    for key, seed in seed_index().items():

        def read_seed(k: str = key) -> str:
            return seed_document(k)

        mime = "text/markdown" if seed.file.endswith(".md") else "text/plain"
        out.append(
            Resource(
                f"{RESOURCE_PREFIX}seed/{key}",
                f"seed {key}",
                f"{seed.title} ({seed.language}), verbatim",
                mime,
                read_seed,
            )
        )
    return out


def read_resource(uri: str) -> tuple[Resource, str]:
    """The resource at ``uri`` and its text; InputError naming ``uri`` when there is none.

    >>> read_resource("arbiter://clause/T6-DECK-1")[1].splitlines()[0].startswith("T6-DECK-1")
    True
    """
    for r in resources():
        if r.uri == uri:
            return r, r.read()
    raise InputError(
        "uri",
        f"no resource {uri!r} (clauses are {RESOURCE_PREFIX}clause/ID, seeds {RESOURCE_PREFIX}seed/KEY)",
    )
