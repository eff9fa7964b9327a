"""``arbiter fuzz --peer 'COMMAND'``: differential fuzzing of another implementation against this engine.

Exit code 0: no divergence in the games played; 1: a divergence (the shrunk game is printed as a record and
written to ``--out``); 2: bad arguments (or a peer command that cannot start).  Never a traceback.

>>> from engine.cli import main
>>> main(["fuzz", "--peer", "python -m engine.conformance.peers.reference", "--examples", "0"])
Traceback (most recent call last):
...
SystemExit: 2
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.errors import InputError

if TYPE_CHECKING:
    from engine.conformance.fuzz import FuzzReport


def _positive(kind: type[int] | type[float], name: str) -> Any:
    def parse(text: str) -> int | float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name}: expected a number, got {text!r}") from None
        if value <= 0:
            raise argparse.ArgumentTypeError(f"{name}: must be > 0, got {text}")
        return value

    return parse


def format_report(report: FuzzReport, *, out: str | None) -> list[str]:
    """The readable summary of a run."""
    from engine.conformance.records import dumps_line

    lines = [
        f"peer: {report.peer or '(unnamed)'}",
        f"played {report.games} games, {report.steps} actions, {report.probes} illegal probes "
        f"in {report.seconds:.1f} s",
    ]
    for name in report.skipped:
        lines.append(f"skipped {name}: the peer does not offer it (or none of the requested variants)")
    div = report.divergence
    if div is None:
        lines.append("no divergence")
        return lines
    lines.append("")
    lines.extend(div.describe())
    if report.first is not None and report.shrunk:
        lines.append(f"  (first found after {report.first.steps} actions, in a {report.first.setup.players}-"
                     f"player game; shrunk to {div.steps} actions, {div.setup.players} players)")
    lines.append("")
    where = f"written to {out}" if out else "use --out FILE to save it"
    lines.append(f"record ({where}; 'arbiter check' replays it):")
    lines.extend(dumps_line(line.to_json()) for line in div.to_record().lines())
    return lines


def run(args: argparse.Namespace) -> int:
    """Entry point of ``arbiter fuzz`` (Hypothesis, the ``fuzz`` extra, is imported only here)."""
    try:
        from engine.conformance.fuzz import fuzz, subprocess_peer
    except ImportError as exc:
        raise InputError("fuzz", f"needs the Hypothesis package ({exc.name} is missing): "
                         "pip install 'arbiter-rules[fuzz]'") from None
    from engine.conformance.protocol import PeerFailure
    from engine.conformance.records import write_record

    factory = subprocess_peer(args.peer, timeout=args.timeout)

    def progress(text: str) -> None:
        if not args.quiet:
            print(text, file=sys.stderr, flush=True)

    try:
        report = fuzz(
            factory,
            games=args.game,
            variants=args.variant,
            players=args.players,
            examples=args.examples,
            max_steps=args.max_steps,
            seed=args.seed,
            shrink=not args.no_shrink,
            reuse=args.reuse,
            progress=progress,
        )
    except PeerFailure as exc:
        print(f"divergence ({exc.kind}) before any game: the peer fails 'hello': {exc}")
        return 1
    if report.divergence is not None and args.out:
        try:
            write_record(Path(args.out), report.divergence.to_record())
        except OSError as exc:
            raise InputError("--out", f"cannot write {args.out}: {exc.strerror or exc}") from None
    for line in format_report(report, out=args.out):
        print(line)
    return 0 if report.divergence is None else 1


def register(sub: Any) -> None:
    """Add ``fuzz`` to the command line."""
    p = sub.add_parser(
        "fuzz",
        help="differential fuzzing of another implementation (a peer process) against this engine",
        description="Play generated games on a peer speaking the line-oriented JSON protocol "
        "(docs/fuzzing.md) and on this engine, compare after every step, shrink the first divergence "
        "to a minimal game and print it as a record that 'arbiter check' replays.",
    )
    p.add_argument("--peer", required=True, metavar="COMMAND",
                   help="command starting the peer, split like a shell would (started anew for every game)")
    p.add_argument("--game", action="append", metavar="NAME", help="fuzz only this game (repeatable)")
    p.add_argument("--variant", action="append", metavar="NAME", help="only this variant (repeatable)")
    p.add_argument("--players", type=_positive(int, "--players"), action="append", metavar="N",
                   help="only this player count (repeatable)")
    p.add_argument("--examples", type=_positive(int, "--examples"), default=100,
                   help="games generated before shrinking (default 100)")
    p.add_argument("--max-steps", type=_positive(int, "--max-steps"), default=1000,
                   help="longest game in actions (default 1000)")
    p.add_argument("--seed", type=int, default=None, help="seed of the generator (default: random)")
    p.add_argument("--timeout", type=_positive(float, "--timeout"), default=5.0,
                   help="seconds the peer has to answer one message (default 5; the first reply of a new "
                   "process may take 10)")
    p.add_argument("--no-shrink", action="store_true", help="report the first divergence as found")
    p.add_argument("--reuse", action="store_true",
                   help="keep a peer that played a game properly for the next one (faster; default: a fresh "
                   "process per game)")
    p.add_argument("--out", metavar="FILE", help="write the divergence's record to FILE")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    p.set_defaults(run=run)
