"""The rules assistant's prompts: the tools put to work on a task a user brings (settle a rules dispute from
a position; check an implementation's game record).

>>> [a.name for a in prompts()[0].arguments]
['game', 'position', 'question', 'action']
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from attrs import frozen

from engine.assistant.tools import POSITION_SCHEMA
from engine.errors import InputError
from engine.game import game_names, get_game
from engine.jsonio import show
from engine.petersburg.names import resolve_card
from engine.query import rulesref
from engine.spec import all_clauses

__all__ = ["Prompt", "PromptArgument", "get_prompt", "prompts"]


@frozen
class PromptArgument:
    """One argument of a prompt (prompt arguments are text)."""

    name: str
    description: str
    required: bool = False


@frozen
class Prompt:
    """A task template: ``name``, ``title``, ``description``, its arguments, and the text it makes of them
    (one user message that says which tools to call, with which arguments)."""

    name: str
    title: str
    description: str
    arguments: tuple[PromptArgument, ...]
    render: Callable[[dict[str, str]], str]
    game: str | None = None
    """The game the prompt is about, when only one (its variants are that game's)."""


def _settle_dispute(args: dict[str, str]) -> str:
    game = args["game"]
    title = get_game(game).title
    action = args.get("action")
    if action and not action.lstrip().startswith("{"):
        action = json.dumps(action, ensure_ascii=False)  # a text action, quoted as the argument's value
    steps = [
        f'Call legal_actions with game "{game}" and this position as position: who must act now, and every '
        "legal action by its text (and in the game's JSON form).",
        (
            f"Call explain_action with game \"{game}\", this position and action {action}: legal or not, the "
            "clause that refuses it, the derivation, and what would make it legal."
            if action
            else "Call explain_action with each action the players disagree about (its text, as "
            "legal_actions prints it, e.g. \"P1 7\" or \"buy Market lower\"): legal or not, the clause that "
            "decides it, the derivation."
        ),
    ]
    if game == "petersburg":
        steps.append(
            "If the dispute is about a price, call card_cost with the position, the buyer's seat as player "
            "and the card: the printed cost, each reduction with its clause, and whether the buyer can pay."
        )
    steps.append(
        "Read every clause you rely on with get_rule (or the resource arbiter://clause/ID); search_rules "
        "finds one by its words."
    )
    listed = "\n".join(f"{i}. {step}" for i, step in enumerate(steps, 1))
    return (
        f"Settle a rules dispute in a game of {title} with the arbiter tools (the reference rules engine), "
        f"not from memory.\n\nThe dispute: {args['question']}\n\nThe position:\n{args['position']}\n\n"
        f"{listed}\n\nAnswer with the ruling first, then the clause ids it rests on with our wording and the "
        "verbatim seed passages they cite. Where a clause records a ruling (the seeds disagree or are "
        "silent), say so and name the variant that plays the other reading."
    )


def _check_implementation(args: dict[str, str]) -> str:
    record, path = args.get("record"), args.get("path")
    if (record is None) == (path is None):
        raise InputError("record/path", "give exactly one of record (the JSON Lines text) or path")
    source = f'path "{path}"' if path else "record set to the record below"
    position = (
        f'Call record_position with the record\'s game, path "{path}" and upto set to the divergence\'s '
        "index: the position before the diverging action; then call explain_action with that position "
        "and the record's action (the text the divergence quotes, or its JSON), and legal_actions with it."
        if path
        else "For the position before the diverging action, the record's own lines are the replay: the "
        "divergence names the action index and line."
    )
    text = (
        "Check a game record written by an implementation of the rules against the reference engine, and "
        "say what the implementation got wrong.\n\n"
        f"1. Call check_record with {source}: the status and the first divergence (the action index and "
        "line, what the record says, what the rules say, the deciding clauses, why).\n"
        f"2. If it diverges: {position}\n"
        "3. Call get_rule on each deciding clause (the first decides).\n\n"
        "Report: ok or the first divergence; the deciding clause with our wording and its verbatim seed "
        "passage; what the implementation does and what the rules require; and, for a refused action, what "
        "would have been legal. A malformed record is not a rules question: quote the error, which names "
        "the line and field."
    )
    if record is not None:
        text += f"\n\nThe record:\n{record}"
    return text


def _explain_rule(args: dict[str, str]) -> str:
    clause = args["clause_id"]
    return (
        f"Explain the rule {clause} to the players with the arbiter tools (the reference rules engine), not "
        "from memory.\n\n"
        f"1. Call get_rule with clause_id \"{clause}\" (or read the resource arbiter://clause/{clause}): our "
        "wording, every seed passage it cites verbatim, and the ruling where the seeds disagree.\n"
        f"2. Call search_rules with the clause's main words to find the clauses it works with.\n"
        "3. Where an ask_* tool answers a case of the rule (ask_row, ask_turn, ask_cost ...), work one "
        "small example through it.\n\n"
        "Answer with the rule in plain words first, then the seed passages quoted, the clauses it works "
        "with, and the example. Where the clause records a ruling, say so and name the variant for the other "
        "reading."
    )


def _explain_card(args: dict[str, str]) -> str:
    card = args["card"]
    variant = args.get("variant")
    edition = f' with variant "{variant}"' if variant else ""
    question = f"\n\nThe players ask: {args['question']}" if args.get("question") else ""
    return (
        f"Explain the Saint Petersburg card {card} with the arbiter tools (the reference rules engine), not "
        f"from memory.{question}\n\n"
        f"1. Call ask_card with name \"{card}\"{edition}: its kind, colour, printed cost, what it gives and "
        "the clauses that say so.\n"
        f"2. Call ask_cost with card \"{card}\"{edition} (and owns, the buyer's cards, if the question is "
        "about a player): what it costs and why; in a position, card_cost reads the player's cards itself.\n"
        "3. Read every clause you rely on with get_rule.\n\n"
        "Answer with what the card does and costs, each fact with its clause id and the seed passage it "
        "rests on."
    )


def prompts() -> list[Prompt]:
    """The prompts, in a fixed order.

    >>> [p.name for p in prompts()]
    ['settle_dispute', 'check_implementation', 'explain_rule', 'explain_card']
    """
    return [
        Prompt(
            "settle_dispute",
            "Settle a rules dispute from a position",
            "Players disagree about what the rules allow in a position: the legal actions, the verdict on "
            "the disputed action with its derivation, and the clauses with their seed passages.",
            (
                PromptArgument("game", f"which game: {', '.join(game_names())}", True),
                PromptArgument("position", POSITION_SCHEMA["description"], True),
                PromptArgument("question", "what the players disagree about, in their words", True),
                PromptArgument(
                    "action",
                    "the disputed action: its text ('P1 7', 'buy Market lower') or the game's JSON form "
                    "(optional)",
                ),
            ),
            _settle_dispute,
        ),
        Prompt(
            "check_implementation",
            "Check an implementation's game record",
            "Replay a game record an implementation wrote on the reference engine: the first divergence, "
            "the position there, the deciding clause, and what the implementation must change.",
            (
                PromptArgument("record", "the record's JSON Lines text (or give path)"),
                PromptArgument("path", "a path to the record file (or give record)"),
            ),
            _check_implementation,
        ),
        Prompt(
            "explain_rule",
            "Explain a rule",
            "One rule clause explained: its wording and verbatim seed passages, the clauses it works with, a "
            "worked example, and the ruling where the seeds disagree.",
            (PromptArgument("clause_id", "the clause id, such as T6-PLACE-2 or SP-COST-4", True),),
            _explain_rule,
        ),
        Prompt(
            "explain_card",
            "Explain a Saint Petersburg card",
            "What a Saint Petersburg card is, does and costs, each fact with its clause and seed passage.",
            (
                PromptArgument("card", "the card, by any of its names (English, German, Russian; either "
                               "edition)", True),
                PromptArgument("variant", "the edition: first (default) or second"),
                PromptArgument("question", "what the players ask about it, in their words"),
            ),
            _explain_card,
            game="petersburg",
        ),
    ]


def get_prompt(name: str, arguments: Mapping[str, Any] | None) -> tuple[Prompt, str]:
    """The prompt ``name`` and its text for ``arguments``; InputError names an unknown prompt, a missing or
    unknown argument, or an unknown game.

    >>> text = get_prompt("settle_dispute", {"game": "take6", "position": "LINE", "question": "Q?"})[1]
    >>> "legal_actions" in text and "explain_action" in text
    True
    """
    index = {p.name: p for p in prompts()}
    if name not in index:
        raise InputError("name", f"unknown prompt {name!r} (known: {', '.join(index)})")
    prompt = index[name]
    args = dict(arguments or {})
    known = {a.name for a in prompt.arguments}
    for key, value in args.items():
        if key not in known:
            raise InputError(key, f"unknown argument of {name} (known: {', '.join(sorted(known))})")
        if not isinstance(value, str):
            raise InputError(key, f"expected text, got {type(value).__name__}")
    for a in prompt.arguments:
        if a.required and not args.get(a.name):
            raise InputError(a.name, f"missing (the {name} prompt needs it)")
    if "game" in args and args["game"] not in game_names():
        raise InputError("game", f"unknown game {args['game']!r} (known: {', '.join(game_names())})")
    if "clause_id" in args:
        clause_id = args["clause_id"].strip().upper()
        if clause_id not in all_clauses(game_names()):
            near = rulesref.near_clauses(clause_id)
            hint = f"did you mean {', '.join(near)}?" if near else "search_rules finds clauses by their words"
            raise InputError("clause_id", f"unknown clause {show(args['clause_id'])} ({hint})")
        args["clause_id"] = clause_id
    if "card" in args and resolve_card(args["card"]) is None:
        raise InputError("card", f"no Saint Petersburg card called {show(args['card'])}")
    game = prompt.game or args.get("game")
    if "variant" in args and game is not None and args["variant"] not in get_game(game).variants:
        variants = ", ".join(get_game(game).variants)
        raise InputError("variant", f"unknown variant {show(args['variant'])} (known: {variants})")
    return prompt, prompt.render(args)
