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
import os
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from engine.errors import ArbiterError
from engine.jsonio import one_line

COMMAND_MODULES: tuple[str, ...] = (
    "engine.cli_play",
    "engine.bench",
    "engine.conformance.records.cli",
    "engine.conformance.vectors.cli",
    "engine.conformance.campaign.cli",
    "engine.conformance.kits.names",
    "engine.query.cli",
    "engine.show",
    "engine.assistant.cli",
    "engine.cli_viewer",
)


class _Parser(argparse.ArgumentParser):
    """argparse with the same one-line error style and exit code 2 as the rest of the command."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"arbiter: error: {one_line(message)} (see '{self.prog} --help')\n")


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser: one sub-command per registered module."""
    parser = _Parser(
        prog="arbiter",
        description="Reference rules engine for 6 nimmt! (Take 6!) and Saint Petersburg.",
    )
    from engine import __version__

    parser.add_argument("--version", action="version", version=f"arbiter {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


class _PipeGuard:
    """Standard output that outlives its reader: once the pipe is closed (``arbiter check ... | head -1``)
    further output is dropped and the command runs to its end, so its exit code (1 for a divergence, 2 for
    malformed input) is the one the shell sees, never a 0 made up for the broken pipe."""

    def __init__(self, inner: TextIO) -> None:
        self.inner = inner
        self.broken = False

    def write(self, text: str) -> int:
        if not self.broken:
            try:
                return self.inner.write(text)
            except BrokenPipeError:
                self.broken = True
        return len(text)

    def flush(self) -> None:
        if not self.broken:
            try:
                self.inner.flush()
            except BrokenPipeError:
                self.broken = True

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def _silence_closed_stdout(inner: TextIO) -> None:
    """Point the closed standard output at /dev/null, so the interpreter's last flush cannot fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, inner.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass  # not a real file (the tests' captured output): nothing will flush it at exit


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (0 ok, 1 a check found a divergence, 2 bad input)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    inner = sys.stdout
    guard = _PipeGuard(inner)
    sys.stdout = guard
    try:
        code: int = args.run(args)
        guard.flush()
    except ArbiterError as exc:
        print(f"arbiter: error: {one_line(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("arbiter: interrupted", file=sys.stderr)
        return 130
    finally:
        sys.stdout = inner
        if guard.broken:
            _silence_closed_stdout(inner)
    return code
