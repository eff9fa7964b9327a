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

from engine import cliargs, outputs
from engine.jsonio import one_line
from engine.viewer import build_replay, replay_html


def run(args: argparse.Namespace) -> int:
    """Entry point of ``arbiter view``."""
    out = args.output or str(Path(args.record).with_suffix(".html"))
    source = "-o" if args.output else "RECORD"
    outputs.guard(out, source=source, kind=outputs.VIEW_PAGE, force=args.force, inputs=[args.record])
    replay = build_replay(args.record, viewer=args.viewer)
    page = outputs.VIEW_PAGE.mark(replay_html(replay))
    outputs.write(out, page, source=source, kind=outputs.VIEW_PAGE, force=args.force, inputs=[args.record])
    opened = f", opens at the divergence (step {replay.start})" if replay.divergence else ""
    print(one_line(f"wrote {out}: {len(replay.steps)} steps{opened}"), file=sys.stderr)
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
    p.add_argument("--viewer", type=cliargs.seat("--viewer"), metavar="SEAT",
                   help="draw every position as this seat sees it")
    p.add_argument("--force", action="store_true",
                   help="replace an existing file that is not a page this command wrote (never the record)")
    p.set_defaults(run=run)
