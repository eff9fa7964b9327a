"""Command-line registration of ``arbiter check`` and ``arbiter vectors`` (see :mod:`engine.conformance`).

>>> import argparse
>>> parser = argparse.ArgumentParser(prog="arbiter")
>>> register(parser.add_subparsers())
>>> parser.parse_args(["check", "game.jsonl", "--json"]).json
True
"""

from __future__ import annotations

from typing import Any

from engine.conformance.check import register_check
from engine.conformance.vectors import register_vectors


def register(sub: Any) -> None:
    """Add ``check`` and ``vectors`` to the command line."""
    register_check(sub)
    register_vectors(sub)
