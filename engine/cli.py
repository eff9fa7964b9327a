"""The ``arbiter`` command line (also ``python -m engine``).

Each command lives in its own module, which exposes ``register(subparsers)``; the module list below is the
whole command set.  Every failure the user can cause (bad arguments, malformed files, rule violations in
input) prints one line ``arbiter: error: ...`` to stderr and exits with code 2; never a traceback.

>>> main(["play", "take6", "--players", "1"])   # the error line goes to stderr
2
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from engine.errors import ArbiterError

COMMAND_MODULES: tuple[str, ...] = (
    "engine.play",
    "engine.bench",
    "engine.conformance.cli_check",
    "engine.conformance.cli_fuzz",
    "engine.conformance.names",
    "engine.query.cli",
    "engine.show",
    "engine.assistant.cli",
    "engine.viewer",
)


class _Parser(argparse.ArgumentParser):
    """argparse with the same one-line error style and exit code 2 as the rest of the command."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"arbiter: error: {message} (see '{self.prog} --help')\n")


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser: one sub-command per registered module."""
    parser = _Parser(
        prog="arbiter",
        description="Reference rules engine for 6 nimmt! (Take 6!) and Saint Petersburg.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (0 ok, 1 a check found a divergence, 2 bad input)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.run(args)
    except ArbiterError as exc:
        print(f"arbiter: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print("arbiter: interrupted", file=sys.stderr)
        return 130
    return code
