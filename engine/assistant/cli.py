"""``arbiter mcp``: serve the rules assistant over the Model Context Protocol on stdio.

The MCP SDK is an optional extra (``pip install 'arbiter-rules[mcp]'``); it is imported only when the
command runs, so the rest of the command line works without it.

>>> from engine.cli import build_parser
>>> build_parser().parse_args(["mcp"]).command
'mcp'
"""

from __future__ import annotations

import argparse
import importlib
from typing import Any

from engine import cliargs
from engine.assistant.limits import TIME_LIMIT
from engine.errors import ArbiterError

__all__ = ["register", "run"]


def run(args: argparse.Namespace) -> int:
    """Entry point of ``arbiter mcp``: serve until the client disconnects."""
    try:
        importlib.import_module("mcp")
    except ImportError:
        raise ArbiterError("mcp: the MCP SDK is not installed; pip install 'arbiter-rules[mcp]'") from None
    if args.root is not None:
        importlib.import_module("engine.jsonio").FileAccess.under(args.root)  # a bad folder refused at once
    server = importlib.import_module("engine.assistant.server")
    server.serve_stdio(args.root, time_limit=args.time_limit, workers=args.workers)
    return 0


def register(sub: Any) -> None:
    """Add ``mcp`` to the command line."""
    p = sub.add_parser(
        "mcp",
        help="serve the rules assistant over MCP (stdio)",
        description="Serve the engine's rules answers to an AI assistant over the Model Context Protocol on "
        "standard input/output: tools to search the rules, get a rule, ask every question kind, explain an "
        "action or list the legal actions in a position, check a game record and draw a position; every "
        "clause and seed document as a resource. See docs/assistant.md.",
    )
    p.add_argument(
        "--root",
        metavar="DIR",
        help="let the tools read files (an '@FILE' position, a record's path) under DIR: regular files with "
        "one name (no hard link), each at most 16 MiB, no link leading out of DIR followed (default: no file "
        "is read)",
    )
    p.add_argument(
        "--time-limit",
        metavar="SECONDS",
        type=cliargs.seconds("--time-limit", hi=3600),
        default=TIME_LIMIT,
        help=f"stop a tool call that runs longer (default {TIME_LIMIT:g}; each call runs in a worker "
        "process)",
    )
    p.add_argument(
        "--workers",
        metavar="N",
        type=cliargs.count("--workers", hi=64),
        default=None,
        help="worker processes for the heavy tools, drawing and replaying (default: one per core; two more "
        "serve the lookups)",
    )
    p.set_defaults(run=run)
