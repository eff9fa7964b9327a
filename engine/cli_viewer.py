"""``arbiter view RECORD -o game.html``: a game record as one HTML page to step through
(:mod:`engine.viewer`).

>>> import argparse
>>> parser = argparse.ArgumentParser(prog="arbiter")
>>> register(parser.add_subparsers())
>>> parser.parse_args(["view", "game.jsonl", "--viewer", "1"]).viewer
1
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from engine.show import write_output
from engine.viewer import build_replay, replay_html


def run(args: argparse.Namespace) -> int:
    """Entry point of ``arbiter view``."""
    replay = build_replay(args.record, viewer=args.viewer)
    page = replay_html(replay)
    out = args.output or str(Path(args.record).with_suffix(".html"))
    write_output(out, page)
    opened = f", opens at the divergence (step {replay.start})" if replay.divergence else ""
    print(f"wrote {out}: {len(replay.steps)} steps{opened}", file=sys.stderr)
    return 0


def register(sub: Any) -> None:
    """Add ``view`` to the command line."""
    p = sub.add_parser(
        "view",
        help="write a game record as an HTML page to step through",
        description="Write one self-contained HTML page (no network) to step through a game "
        "record: the picture of each position, the narration of each step and the clauses "
        "applied, linked to their wording and seed passages. A record that diverges from the "
        "rules opens at the divergence and shows both sides.",
    )
    p.add_argument("record", metavar="RECORD", help="a game record (arbiter-record JSON Lines)")
    p.add_argument("-o", "--output", metavar="FILE.html", help="where to write (default: RECORD with .html)")
    p.add_argument("--viewer", type=int, metavar="SEAT", help="draw every position as this seat sees it")
    p.set_defaults(run=run)
