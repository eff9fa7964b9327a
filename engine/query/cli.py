"""The ``rules``, ``ask`` and ``explain`` commands.

* ``arbiter rules`` — clauses by game and topic; ``arbiter rules ID`` — one clause with its citations and
  the tests, properties and vectors that check it; ``--disputed`` — the rulings; ``--write-docs DIR`` /
  ``--check-docs DIR`` — write or check the generated ``docs/rules/`` pages.
* ``arbiter ask KIND ...`` — a structured question (``arbiter ask`` alone lists them).
* ``arbiter explain GAME --state FILE --action TEXT`` — is this action legal here, and why (``--position
  TEXT`` instead: a notation line, a JSON state or ``@FILE``; the action as text, ``buy Market lower``, or
  in its JSON form).

Every command takes ``--json`` for machines.  Bad input prints one line naming the field and exits 2.

>>> from engine.cli import main
>>> main(["rules", "--topics", "--game", "take6"])  # doctest: +ELLIPSIS
take6: deck, bullheads, ...
0
"""

from __future__ import annotations

import argparse
import functools
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine import cliargs, jsonio
from engine.errors import InputError
from engine.game import game_names
from engine.query import rulesref
from engine.query.model import Answer
from engine.query.questions import Param, Question, all_questions
from engine.query.render import dumps, render_answer, table, terminal_width

__all__ = [
    "answer_for", "answer_for_command", "explain_for", "parse_command", "register", "run_ask", "run_explain",
    "run_rules",
]


def _emit(lines: Sequence[str]) -> None:
    for line in lines:
        print(line)


# --------------------------------------------------------------------------------------------------
# arbiter rules


def run_rules(args: argparse.Namespace) -> int:
    """Entry point of ``arbiter rules``."""
    try:
        return _run_rules(args)
    except (OSError, UnicodeDecodeError) as exc:
        folder = args.write_docs if args.write_docs is not None else args.check_docs
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "not a UTF-8 page"
        raise InputError(jsonio.show(str(folder)), f"cannot use the folder: {reason}") from None


def _run_rules(args: argparse.Namespace) -> int:
    width = terminal_width()
    if args.write_docs is not None:
        changed = rulesref.write_docs(Path(args.write_docs))
        done = ", ".join(changed) if changed else "already up to date"
        print(jsonio.one_line(f"docs written to {args.write_docs}: {done}"))
        return 0
    if args.check_docs is not None:
        stale = rulesref.stale_pages(Path(args.check_docs))
        if stale:
            print(f"{args.check_docs} is stale: {', '.join(stale)}; run "
                  f"'arbiter rules --write-docs {args.check_docs}'")
            return 1
        print(f"{args.check_docs} is up to date")
        return 0
    if args.id is not None:
        clause = rulesref.find_clause(args.id)
        checks = rulesref.checks_for(clause.id) + rulesref.vectors_for(clause.id)
        if args.json:
            print(dumps(rulesref.clause_json(clause, checks=checks)))
        else:
            _emit(rulesref.clause_lines(clause, width=width, checks=checks))
        return 0
    if args.topics:
        games = [args.game] if args.game else list(rulesref.games_with_clauses())
        found = {g: list(rulesref.topics(g)) for g in games}
        if args.json:
            print(dumps(found))
        else:
            for g, ts in found.items():
                print(f"{g}: {', '.join(ts) if ts else '(no clauses yet)'}")
        return 0
    clauses = rulesref.select(args.game, args.topic, disputed_only=args.disputed)
    if args.json:
        print(dumps([rulesref.clause_json(c) for c in clauses]))
    elif args.disputed:
        _emit(rulesref.disputed_lines(clauses, width=width))
    elif not clauses:
        print("(no clauses match)")
    else:
        _emit(rulesref.list_lines(clauses, width=width))
    return 0


def _register_rules(sub: Any) -> None:
    p = sub.add_parser("rules", help="the rule reference: clauses, citations, rulings, generated docs",
                       description="List clauses by game and topic, show one clause with its citations and "
                       "checks, list the rulings where the seeds disagree, or write/check docs/rules/.")
    p.add_argument("id", nargs="?", metavar="ID", help="a clause id (e.g. T6-PLACE-2): show it in full")
    p.add_argument("--game", choices=game_names(), help="only this game")
    p.add_argument("--topic", help="only this topic (see --topics)")
    p.add_argument("--topics", action="store_true", help="list the topics")
    p.add_argument("--disputed", action="store_true",
                   help="only the rulings (seeds disagree or are silent) and the variant for the other "
                   "reading")
    p.add_argument("--write-docs", metavar="DIR", help="write the generated rule pages (docs/rules)")
    p.add_argument("--check-docs", metavar="DIR", help="exit 1 when the pages in DIR are stale")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=run_rules)


# --------------------------------------------------------------------------------------------------
# arbiter ask


def _add_param(p: argparse.ArgumentParser, param: Param) -> None:
    conv: Any = cliargs.integer(param.name) if param.type is int else str
    kwargs: dict[str, Any] = {"help": param.help}
    if param.type is bool:
        p.add_argument(f"--{param.name.replace('_', '-')}", dest=param.name, action="store_true",
                       default=None, help=param.help)
        return
    if param.choices and not param.many:
        kwargs["choices"] = param.choices
    if param.metavar:
        kwargs["metavar"] = param.metavar
    if param.required:
        p.add_argument(param.name, type=conv, nargs="+" if param.many else None, **kwargs)
    else:
        flag = f"--{param.name.replace('_', '-')}"
        if param.many:
            p.add_argument(flag, dest=param.name, type=conv, nargs="+", action="extend", **kwargs)
        else:
            p.add_argument(flag, dest=param.name, type=conv, **kwargs)


def _question_parser(sub: Any, q: Question) -> None:
    epilog = ("examples:\n" + "\n".join(f"  {e}" for e in q.examples)) if q.examples else None
    game = f" [{q.game}]" if q.game else ""
    p = sub.add_parser(q.name, help=q.help + game, description=q.help + game, epilog=epilog,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    for param in q.params:
        _add_param(p, param)
    p.add_argument("--json", action="store_true", help="print the answer as JSON")
    p.add_argument("--brief", action="store_true", help="print only the question and the answer")
    p.set_defaults(question=q.name)


def answer_for(args: argparse.Namespace) -> Answer:
    """The answer to a parsed ``arbiter ask`` command line (what the FAQ tests run)."""
    q = all_questions()[args.question]
    params = {p.name: getattr(args, p.name, None) for p in q.params}
    return q.handler(**q.bind(params))


def run_ask(args: argparse.Namespace) -> int:
    """Entry point of ``arbiter ask``."""
    if getattr(args, "question", None) is None:
        rows = [[q.name, q.game or "any", q.help] for q in all_questions().values()]
        _emit(table(["question", "game", "what it answers"], rows, width=terminal_width()))
        print("\n'arbiter ask KIND --help' shows a question's parameters and examples.")
        return 0
    answer = answer_for(args)
    if args.json:
        print(dumps(answer.to_json()))
    else:
        _emit(render_answer(answer, brief=args.brief))
    return 0


def _register_ask(sub: Any) -> None:
    p = sub.add_parser("ask", help="answer a structured rules question, with the clauses behind it",
                       description="Answer a rules question without building a game. "
                       "'arbiter ask' alone lists the questions.")
    kinds = p.add_subparsers(dest="question", metavar="KIND", parser_class=type(p))
    for q in all_questions().values():
        _question_parser(kinds, q)
    p.set_defaults(run=run_ask, json=False, brief=False)


@functools.cache
def _parser() -> argparse.ArgumentParser:
    """The command line's parser, built once (parsing does not change it)."""
    from engine.cli import build_parser

    parser: argparse.ArgumentParser = build_parser()
    return parser


def parse_command(command: str) -> argparse.Namespace:
    """Parse an ``arbiter ask ...`` or ``arbiter explain ...`` command line (a string, as written in the
    docs) into its arguments.  A malformed line raises InputError naming ``command``."""
    try:
        words = shlex.split(command)
    except ValueError as exc:  # an unbalanced quote
        raise InputError("command", f"{jsonio.show(command)} does not split: {exc}") from None
    if words[:1] == ["arbiter"]:
        words = words[1:]
    if words[:1] not in (["ask"], ["explain"]):
        raise InputError("command", "expected 'arbiter ask ...' or 'arbiter explain ...', got "
                         + jsonio.show(command))
    parser = _parser()
    try:
        args = parser.parse_args(words)
    except SystemExit as exc:
        raise InputError("command", f"{jsonio.show(command)} does not parse (exit {exc.code})") from None
    return args


def answer_for_command(command: str) -> Answer:
    """Run an ``arbiter ask``/``arbiter explain`` command line and return its answer (no printing)."""
    args = parse_command(command)
    if args.command == "explain":
        return explain_for(args)
    if getattr(args, "question", None) is None:
        raise InputError("command", "name a question: arbiter ask KIND ...")
    return answer_for(args)


# --------------------------------------------------------------------------------------------------
# arbiter explain


def _is_file(text: str) -> bool:
    try:
        return Path(text).is_file()
    except (OSError, ValueError):  # a name too long for the system, a NUL byte
        return False


def _read_json_arg(field: str, text: str) -> Any:
    """JSON given inline, or ``@path`` / a path to a file holding it, read through :mod:`engine.jsonio`."""
    if not text.startswith("@") and not text.lstrip().startswith(("{", "[", '"')) and _is_file(text):
        text = "@" + text
    return jsonio.read_arg(text, source=field)


def _read_action_arg(text: str) -> Any:
    """``--action``: JSON inline (a value starting with ``{``), ``@FILE`` or a path to a ``.json`` file
    holding it, or else the action's text (``buy Market lower``, ``P2 58``), read against the state."""
    json_like = text.startswith("@") or text.lstrip().startswith(("{", "[", '"'))
    if json_like or (text.endswith(".json") and _is_file(text)):
        return _read_json_arg("--action", text)
    return text


def explain_for(args: argparse.Namespace) -> Answer:
    """The answer to a parsed ``arbiter explain`` command line."""
    from engine.query import explain

    sources = [x for x in (args.state, args.record, args.case, args.position) if x is not None]
    if len(sources) != 1:
        raise InputError(
            "--state/--record/--case/--position",
            "give exactly one of --state, --record, --case or --position",
        )
    if args.upto is not None and (args.record is None or args.upto < 0):
        raise InputError("--upto", f"expected a number of actions >= 0 with --record, got {args.upto}")
    if args.vector is not None and args.case is None:
        raise InputError("--vector", "goes with --case ID")
    for flag, path in (("--record", args.record), ("--vector", args.vector)):
        if path is not None and not _is_file(path):
            raise InputError(flag, f"no such file: {jsonio.show(path)}")
    # an error about an argument read from a file quotes none of the file (engine.jsonio)
    def from_file(text: str | None) -> bool:
        return text is not None and (text.startswith("@") or _is_file(text))

    action_file, state_file = from_file(args.action), from_file(args.state)
    with jsonio.quoting_no_content(action_file):
        action = _read_action_arg(args.action)  # the arguments are read before any replay
    if args.position is not None:
        from engine.positions import load_position

        state = load_position(args.game, args.position, source="--position")
    elif args.state is not None:
        with jsonio.quoting_no_content(state_file):
            state = explain.state_from_file(args.game, _read_json_arg("--state", args.state))
    elif args.record is not None:
        state = explain.state_from_record(args.game, Path(args.record), upto=args.upto)
    else:
        state = explain.state_from_vector(args.game, args.case, Path(args.vector) if args.vector else None)
    with jsonio.quoting_no_content(action_file):
        return explain.explain(args.game, state, action)


def run_explain(args: argparse.Namespace) -> int:
    """Entry point of ``arbiter explain``."""
    answer = explain_for(args)
    if args.json:
        print(dumps(answer.to_json()))
    else:
        _emit(render_answer(answer, brief=args.brief))
    return 0


def _register_explain(sub: Any) -> None:
    p = sub.add_parser("explain", help="is an action legal in a state, and why (the clauses applied)",
                       description="Explain an action: legal or not, the chain of clauses, the cost "
                       "derivation or the 6 nimmt! placement, and what would make an illegal action legal.")
    p.add_argument("game", choices=game_names(), help="which game")
    p.add_argument("--state", metavar="JSON|FILE",
                   help="the state, as the game's JSON form (inline or a file)")
    p.add_argument("--record", metavar="FILE", help="a game record (arbiter-record JSON Lines)")
    p.add_argument("--position", metavar="TEXT",
                   help="the position: a notation line, a JSON state or @FILE (docs/positions.md)")
    p.add_argument("--upto", type=cliargs.count("--upto", lo=0), default=None, metavar="N",
                   help="with --record: replay the first N actions (default: all)")
    p.add_argument("--case", metavar="ID", help="a conformance vector's position (a hand-picked case id, or "
                   "one in --vector FILE)")
    p.add_argument("--vector", metavar="FILE", help="with --case: an exported vector file (<game>.jsonl)")
    p.add_argument("--action", required=True, metavar="TEXT|JSON|FILE",
                   help="the action: its text ('buy Market lower', 'P2 58'; docs/positions.md) or the game's "
                   "JSON form (a value starting with '{', or @FILE)")
    p.add_argument("--json", action="store_true", help="print the answer as JSON")
    p.add_argument("--brief", action="store_true", help="print only the question and the answer")
    p.set_defaults(run=run_explain)


def register(sub: Any) -> None:
    """Add ``rules``, ``ask`` and ``explain`` to the command line."""
    _register_rules(sub)
    _register_ask(sub)
    _register_explain(sub)

