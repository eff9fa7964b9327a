"""The rules assistant's tools and resources, independent of any protocol: what ``arbiter mcp`` serves.

A :class:`Tool` is a name, a description an assistant can act on, a JSON input schema and a handler; every
handler calls the engine's own query functions (:func:`engine.query.ask`,
:func:`engine.query.explain.explain`, :func:`engine.conformance.records.check.check_record`,
:mod:`engine.svg`), so a tool's answer is the CLI's answer.  :func:`call` validates the arguments against
the schema first (an :class:`~engine.errors.InputError` names the bad field), then runs the handler; a
rule the input breaks is reported with its clause id.

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
engine.errors.InputError: cards: 'many' is not of type 'array', 'integer'
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Mapping
from typing import IO, Any

from attrs import evolve, frozen
from jsonschema import Draft202012Validator

from engine import jsonio
from engine.assistant.limits import check_arguments
from engine.assistant.schemas import (
    ACTIONS_OUTPUT,
    ANSWER_OUTPUT,
    GAME_SCHEMA,
    PICTURE_OUTPUT,
    POSITION_SCHEMA,
    REPORT_OUTPUT,
    ROOT_ONLY,
    SEAT_SCHEMA,
    STATE_OUTPUT,
    answer_output,
    object_schema,
)
from engine.assistant.wording import field_for, flag_words, words_for
from engine.conformance.records.check import check_record, format_report
from engine.errors import InputError
from engine.game import get_game
from engine.petersburg import displacement_targets
from engine.positions import load_position_arg as load_position
from engine.query import rulesref
from engine.query.explain import explain, state_from_record
from engine.query.model import Answer
from engine.query.questions import Param, Question, all_questions, ask
from engine.query.render import render_answer
from engine.svg import board_svg

__all__ = [
    "NO_ROOT", "POSITION_SCHEMA", "ROOT_ONLY", "TEXT_WIDTH", "Tool", "ToolResult", "call", "tool_index",
    "tools",
]

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
    heavy: bool = False
    """Its work grows with its input (a picture, a record's replay): the server runs it in workers of its
    own, so it never delays a lookup (:mod:`engine.assistant.pool`)."""
    aliases: tuple[tuple[str, str], ...] = ()
    """The command line's names (metavars) of its arguments, ``(("ID", "clause_id"),)``: an error worded
    with one names the argument instead."""


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
    out: dict[str, Any]
    if p.many and p.type is list:
        out = {"type": "array", "items": one}
    elif p.many:  # one value, or a list of them (the text a model sends first, as a list of one)
        out = {"type": ["array", one["type"]], "items": one}
    else:
        out = dict(one)
    described = p.help + (f" ({one['description']})" if "description" in one else "")
    if p.many and p.type is not list:
        described += " (one value or a list)"
    out["description"] = flag_words(described)  # --position: position
    if "@FILE" in described:
        out["description"] += f"; {ROOT_ONLY}"
    return out


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
        if err.validator == "anyOf":  # name the forms it may take, not "any of the given schemas"
            got = err.instance
            shown = json.dumps(got) if got is None or isinstance(got, bool) else jsonio.show(got)
            raise InputError(path, f"expected {_forms(err.validator_value)}, got {shown}")
        raise InputError(path, err.message)
    return dict(arguments)


_FORM = {"string": "a text", "object": "an object", "array": "a list", "integer": "an integer",
         "number": "a number", "boolean": "true or false"}
_ITEMS = {"string": "texts", "integer": "integers", "number": "numbers", "object": "objects"}


def _forms(options: list[dict[str, Any]]) -> str:
    """The forms an ``anyOf`` allows, in words.

    >>> _forms([{"type": "array", "items": {"type": "integer"}}, {"type": "string"}])
    'a list of integers or a text'
    """
    words = []
    for option in options:
        kind, items = option.get("type"), option.get("items", {}).get("type")
        if kind == "array" and isinstance(items, str) and items in _ITEMS:
            words.append(f"a list of {_ITEMS[items]}")
        else:
            words.append(_FORM.get(kind, "a value") if isinstance(kind, str) else "a value")
    return " or ".join(words)


# --------------------------------------------------------------------------------------------------
# Tools made from the question registry


def _answer_result(answer: Answer) -> ToolResult:
    return ToolResult("\n".join(render_answer(answer, width=TEXT_WIDTH)), answer.to_json())


def _question_tool(q: Question, name: str, title: str, extra: str = "") -> Tool:
    schema = object_schema(
        {p.name: _param_schema(p) for p in q.params}, [p.name for p in q.params if p.required]
    )
    game = f" ({get_game(q.game).title} only)" if q.game else ""
    needs = [p.name for p in q.params if p.required]
    takes = [p.name for p in q.params if not p.required]
    arguments = (f"Give {', '.join(needs)}" if needs else "No argument is needed") + (
        f"; optional: {', '.join(takes)}." if takes else "."
    )
    description = f"{q.help[0].upper()}{q.help[1:]}{game}. {extra}{arguments}"

    def handler(args: dict[str, Any]) -> ToolResult:
        return _answer_result(ask(q.name, args))

    return Tool(name, title, description, schema, handler, ANSWER_OUTPUT, aliases=_aliases(q.params))


def _aliases(params: tuple[Param, ...]) -> tuple[tuple[str, str], ...]:
    """The command line's names of the parameters' values: each metavar, and the name in capitals (its
    metavar when it has none)."""
    out = {p.name.upper(): p.name for p in params}
    out.update((p.metavar, p.name) for p in params if p.metavar)
    return tuple(out.items())


def _get_rule(args: dict[str, Any]) -> ToolResult:
    try:
        clause = rulesref.find_clause(args["clause_id"])
    except InputError:
        near = rulesref.near_clauses(args["clause_id"])
        hint = " (search_rules finds clauses by their words)"
        extra = f"; did you mean {', '.join(near)}?" if near else hint
        raise InputError("clause_id", f"unknown clause {jsonio.show(args['clause_id'])}{extra}") from None
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


def _legal_actions(args: dict[str, Any]) -> ToolResult:
    game = get_game(args["game"])
    state = position_of(args["game"], args["position"])
    acting = list(game.to_act(state))
    seats = [args["player"]] if args.get("player") is not None else acting
    players = game.players_of(state)
    for seat in seats:
        if not 0 <= seat < players:
            raise InputError("player", f"expected a seat 0..{players - 1}, got {seat}")
    legal = {str(p): game.legal_actions(state, p) for p in seats}
    actions = {p: [game.action_to_json(a) for a in acts] for p, acts in legal.items()}
    texts = {p: [game.action_to_text(state, a) for a in acts] for p, acts in legal.items()}
    lines = [f"To act: {', '.join(f'P{p}' for p in acting) or 'nobody (the game is over)'}"]
    for p, shown in texts.items():
        listed = "; ".join(shown) or "none (this seat need not act now)"
        lines.append(f"P{p}: {len(shown)} legal action(s): {listed}")
    data = {"to_act": acting, "over": game.is_terminal(state), "actions": actions, "texts": texts}
    return ToolResult("\n".join(lines), data)


def _card_cost(args: dict[str, Any]) -> ToolResult:
    """What a card costs a player in a position: the position's play area, roubles and the card's place."""
    game = get_game("petersburg")
    state = position_of("petersburg", args["position"])
    full = game.state_to_json(state)
    player = args["player"]
    if not 0 <= player < full["players"]:
        raise InputError("player", f"expected a seat 0..{full['players'] - 1}, got {player}")
    try:
        card = ask("card", {"name": args["card"], "variant": full["variant"]}).value["name"]
    except InputError as exc:
        raise InputError("card", exc.message) from None
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


def _record_file(path: str) -> tuple[IO[str], str]:
    """The record file a tool's ``path`` names, open under the server's file policy, and its name in
    messages: the path as the client gave it (never the server's own path to it)."""
    name = f"path {jsonio.show(path)}"
    return io.TextIOWrapper(jsonio.open_file(path, source=name), encoding="utf-8"), name


def _scrubbed(text: str, name: str) -> str:
    """``text`` about the file ``name`` with every quoted value after the name cut (:func:`jsonio.scrub`)."""
    if text.startswith(name):
        return name + jsonio.scrub(text[len(name) :])
    return jsonio.scrub(text)


def _check_record(args: dict[str, Any]) -> ToolResult:
    if (args.get("record") is None) == (args.get("path") is None):
        raise InputError("record/path", "give exactly one of record (the JSON Lines text) or path")
    if args.get("record") is not None:
        report = check_record(io.StringIO(args["record"]), name="record")
    else:
        stream, name = _record_file(args["path"])
        with stream, jsonio.hidden_content():  # a malformed file is described, not quoted
            report = check_record(stream, name=name)
        if report.error is not None:
            report = evolve(report, error=_scrubbed(report.error, name))
    return ToolResult("\n".join(format_report(report, TEXT_WIDTH)), report.to_json())


def _record_position(args: dict[str, Any]) -> ToolResult:
    game = get_game(args["game"])
    stream, name = _record_file(args["path"])
    try:
        with stream, jsonio.hidden_content():
            state = state_from_record(args["game"], stream, upto=args.get("upto"), name=name)
    except InputError as exc:  # the replay names the command line's flags; the tool's fields are these
        field = {"--record": "path", "--upto": "upto"}.get(exc.field, exc.field)
        raise InputError(_scrubbed(field, name), _scrubbed(exc.message, name)) from None
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
game's JSON state) and the action, as its short text (6 nimmt!: "33", "P0 33", "row 2"; Saint Petersburg:
"buy Market", "buy Market lower", "Gold Smelter over Gold Miner", "hand Lumberjack", "pass"; a card by any
of its names) or in the game's JSON form ({"type": "select", "player": 0, "card": 33}; {"type": "buy",
"player": 0, "card": "Market", "source": "upper"}). A text naming several legal actions is refused,
listing them. Answers legal or not, the refusing clause, the derivation (the cost broken down, or the row
the card goes to), the chain of clauses with their seed passages, what the engine then does, and for an
illegal action what would make it legal. legal_actions lists a position's actions by their texts.
""")

LEGAL_HELP = _text("""
Every legal action of the seats that must act now (or of one seat) in a position: each by its short text
(what explain_action takes, e.g. "P1 33" or "buy Market lower") and in the game's JSON form. Also says who
must act and whether the game is over.
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
    action = {
        "anyOf": [
            {"type": "string", "description": "the action's text (docs/positions.md, 'Actions as text')"},
            {"type": "object", "description": "the action in the game's JSON form"},
        ],
        "description": "the action: its short text, read against the position (6 nimmt! '33', 'P0 33', "
        "'row 2'; Saint Petersburg 'buy Market lower', 'Gold Smelter over Gold Miner', 'pass'), or the "
        "game's JSON form of it",
    }
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
            object_schema({**game_position, "action": action}, ["game", "position", "action"]),
            _explain,
            ANSWER_OUTPUT,
        ),
        Tool(
            "legal_actions",
            "List the legal actions in a position",
            LEGAL_HELP,
            object_schema(
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
            object_schema(
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
            answer_output(
                position={"type": "object", "description": "what the position says of the buyer and card"},
            ),
        ),
        Tool(
            "check_record",
            "Check a game record",
            CHECK_HELP,
            object_schema(
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
            heavy=True,
        ),
        Tool(
            "record_position",
            "The position of a game record",
            RECORD_POSITION_HELP,
            object_schema(
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
            heavy=True,
        ),
        Tool(
            "render_position",
            "Draw a position as SVG",
            RENDER_HELP,
            object_schema(
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
            heavy=True,
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
            object_schema({p.name: _param_schema(p) for p in rule.params}, ["clause_id"]),
            _get_rule,
            answer_output(clause={"type": "object", "description": "the clause: id, wording, citations"}),
            aliases=_aliases(rule.params),
        )
    )
    for q in questions.values():
        if q.name not in ("search", "rule"):
            out.append(_question_tool(q, f"ask_{q.name}", f"Ask: {q.name}"))
    out.extend(_position_tools())
    return out


_QUESTION = re.compile(r"the '[a-z_]+' question")
"""How the question registry names itself in an error (``the 'search' question needs it``)."""


def tool_index() -> dict[str, Tool]:
    """The tools by name."""
    return {t.name: t for t in tools()}


NO_ROOT = jsonio.FileAccess(
    stdin=False, max_bytes=None, hint="this server was given no folder to read; pass the content itself"
)
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
    engine.errors.InputError: position '/etc/passwd': reading files is off here (this server was given no ...

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
    aliases = dict(tool.aliases)
    try:
        if not isinstance(arguments or {}, Mapping):
            raise InputError("arguments", f"expected an object, got {type(arguments).__name__}")
        check_arguments(arguments or {})  # bounded before the schema is applied
        with jsonio.file_access(access):
            result = tool.handler(_validate(tool, arguments or {}))
    except InputError as exc:
        field = field_for(tool.schema, exc.field, aliases)
        message = _QUESTION.sub(f"the {tool.name} tool", words_for(tool.schema, exc.message, aliases))
        raise InputError(field, message) from None
    data = dict(result.data)
    for key in ("summary", "notes"):
        if isinstance(data.get(key), str):
            data[key] = words_for(tool.schema, data[key])
        elif isinstance(data.get(key), list):
            data[key] = [words_for(tool.schema, x) if isinstance(x, str) else x for x in data[key]]
    text = result.text if result.svg is not None else words_for(tool.schema, result.text)
    return evolve(result, text=text, data=data)
