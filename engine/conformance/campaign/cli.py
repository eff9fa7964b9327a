"""``arbiter fuzz --peer 'COMMAND'``: differential fuzzing of another implementation against this engine.

Two modes: without ``--games``/``--time`` the first divergence stops the run, is shrunk and printed (and
written to ``--out FILE``); with ``--games N`` or ``--time SECONDS`` a **campaign** plays on after every
divergence, groups them into classes, shrinks each class and reports them all
(:mod:`engine.conformance.campaign.runner`; records in ``--out DIR``, ``--report FILE.json`` / ``FILE.md``).

Exit code 0: no divergence (a campaign: none that is not waived); 1: a divergence; 2: bad arguments (or a
peer command that cannot start).  Never a traceback.  Arguments and output paths are checked before any
game is played.

>>> from engine.cli import main
>>> main(["fuzz", "--peer", "python -m engine.conformance.peers.reference", "--examples", "0"])
Traceback (most recent call last):
...
SystemExit: 2
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine import cliargs, outputs
from engine.errors import InputError

if TYPE_CHECKING:
    from engine.conformance.campaign.fuzz import FuzzReport


def format_report(report: FuzzReport, *, out: str | None) -> list[str]:
    """The readable summary of a run."""
    from engine.conformance.records.format import dumps_line

    lines = [
        f"peer: {report.peer or '(unnamed)'}",
        f"played {report.games} games"
        + (f" ({report.aborted} more stopped half-way by the generator)" if report.aborted else "")
        + f", {report.steps} actions, {report.probes} illegal probes in {report.seconds:.1f} s",
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
    where = f"written to {outputs.shown(out)}" if out else "use --out FILE to save it"
    lines.append(f"record ({where}; 'arbiter check' replays it):")
    lines.extend(dumps_line(line.to_json()) for line in div.to_record().lines())
    return lines


def _writable_file(path: str, option: str) -> None:
    """Refuse an output file that cannot be written, before any game is played."""
    target = Path(path)
    parent = target.parent if str(target.parent) else Path()
    if target.is_dir():
        raise InputError(option, f"{path} is a directory")
    if not parent.is_dir():
        raise InputError(option, f"cannot write {path}: no directory {parent}")
    if not os.access(parent, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise InputError(option, f"cannot write {path}: permission denied")
    outputs.guard(path, source=option, kind=_kind(path, option))


def _kind(path: str, option: str) -> outputs.Kind:
    if option != "--report":
        return outputs.RECORD
    return outputs.CAMPAIGN_JSON if path.endswith(".json") else outputs.CAMPAIGN_MD


def _campaign_mode(args: argparse.Namespace) -> bool:
    return args.games is not None or args.time is not None


def run(args: argparse.Namespace) -> int:
    """Entry point of ``arbiter fuzz`` (Hypothesis, the ``fuzz`` extra, is imported only here)."""
    try:
        from engine.conformance.campaign.fuzz import fuzz, subprocess_peer
    except ImportError as exc:
        raise InputError("fuzz", f"needs the Hypothesis package ({exc.name} is missing): "
                         "pip install 'arbiter-rules[fuzz]'") from None
    from engine.conformance.peers.protocol import PeerFailure
    from engine.conformance.records.format import write_record

    factory = subprocess_peer(args.peer, timeout=args.timeout)
    if _campaign_mode(args):
        return run_campaign_cli(args, factory)
    for option in ("jobs", "waive", "report", "ray"):
        if getattr(args, option) is not None:
            raise InputError(f"--{option}", "only with a campaign (--games N or --time SECONDS)")
    if args.no_positions:
        raise InputError("--no-positions", "only with a campaign (--games N or --time SECONDS)")
    if args.no_diagnosis:
        raise InputError("--no-diagnosis", "only with a campaign (--games N or --time SECONDS)")
    if args.out:
        _writable_file(args.out, "--out")

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


def run_campaign_cli(args: argparse.Namespace, factory: Any) -> int:
    """``arbiter fuzz --games N | --time SECONDS``: a campaign (see
    :mod:`engine.conformance.campaign.runner`)."""
    import json

    from engine.conformance.campaign.report import check_out_dir, summary_lines, to_markdown, write_records
    from engine.conformance.campaign.runner import load_waivers, run_campaign
    from engine.conformance.peers.protocol import PeerFailure

    if args.examples_given:
        raise InputError("--examples", "not with a campaign: --games N or --time SECONDS sets its size")
    waivers = load_waivers(args.waive) if args.waive else ()
    if args.out:
        check_out_dir(args.out)  # first: a report may go into the same directory
    for path in args.report or ():
        if Path(path).suffix not in (".json", ".md"):
            raise InputError("--report", f"{path}: the name must end in .json or .md")
        _writable_file(path, "--report")
    show = _progress(args.quiet)
    try:
        report = run_campaign(
            factory, games=args.games, seconds=args.time, jobs=args.jobs, ray=args.ray, seed=args.seed,
            waivers=waivers, game_names=args.game, variants=args.variant, players=args.players,
            max_steps=args.max_steps, reuse=not args.fresh, shrink=not args.no_shrink,
            shrink_seconds=args.shrink_time, progress=show, positions=not args.no_positions,
            diagnose=not args.no_diagnosis,
        )
    except PeerFailure as exc:
        print(f"divergence ({exc.kind}) before any game: the peer fails 'hello': {exc}")
        return 1
    finally:
        show.close()
    if args.out:
        report = write_records(report, args.out)
    for path in args.report or ():
        text = (json.dumps(report.to_json(), indent=1, ensure_ascii=False) + "\n"
                if path.endswith(".json") else to_markdown(report))
        outputs.write(path, text, source="--report", kind=_kind(path, "--report"))
    for line in summary_lines(report):
        print(line)
    if report.classes and not args.out:
        print("\n(use --out DIR to save every class's records)")
    return report.exit_code


class _progress:
    """Progress on stderr: a tqdm bar on a terminal, a plain line every 10 s otherwise, nothing if quiet."""

    EVERY = 10.0

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet
        self.bar: Any = None
        self.last = 0.0
        self.tty = sys.stderr.isatty()

    def __call__(self, tracker: Any) -> None:
        if self.quiet:
            return
        if self.tty:
            if self.bar is None:
                from tqdm import tqdm

                self.bar = tqdm(total=tracker.target_games, unit="game", file=sys.stderr, dynamic_ncols=True)
            self.bar.n = tracker.games
            self.bar.set_postfix_str(f"{tracker.steps} actions, {tracker.open_classes} classes, "
                                     f"{tracker.waived} waived" + (
                                         f", shrunk {tracker.shrunk}/{tracker.shrinking}"
                                         if tracker.shrinking else ""))
            return
        import time

        now = time.monotonic()
        if now - self.last >= self.EVERY or (tracker.shrinking and tracker.shrunk == tracker.shrinking):
            self.last = now
            print(tracker.line(), file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


class _Examples(argparse.Action):
    """``--examples N``, remembering that it was given (a campaign refuses it)."""

    def __call__(self, parser: Any, namespace: argparse.Namespace, values: Any, option: Any = None) -> None:
        setattr(namespace, self.dest, values)
        namespace.examples_given = True


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
    p.add_argument("--players", type=cliargs.count("--players", hi=cliargs.MAX_SEAT + 1), action="append",
                   metavar="N",
                   help="only this player count (repeatable)")
    p.add_argument("--examples", type=cliargs.count("--examples"), default=100, action=_Examples,
                   help="games generated before shrinking (default 100; not with a campaign)")
    size = p.add_mutually_exclusive_group()
    size.add_argument("--games", type=cliargs.count("--games"), metavar="N",
                      help="campaign: play N games, going on after every divergence")
    size.add_argument("--time", type=cliargs.seconds("--time"), metavar="SECONDS",
                      help="campaign: play for SECONDS (then shrink and report)")
    p.add_argument("--jobs", type=cliargs.count("--jobs", hi=cliargs.MAX_JOBS), metavar="N",
                   help="campaign: peer processes in parallel (default: the machine's cores)")
    p.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                   help="campaign: run on a Ray cluster (ADDRESS, e.g. ray://head:10001; none: RAY_ADDRESS "
                   "or a local Ray); needs arbiter-rules[ray]")
    p.add_argument("--waive", metavar="FILE", help="campaign: TOML file of waived signatures with reasons")
    p.add_argument("--report", action="append", metavar="FILE",
                   help="campaign: write the report to FILE.json (schema campaign-report.schema.json) or "
                   "FILE.md (repeatable)")
    p.add_argument("--shrink-time", type=cliargs.seconds("--shrink-time"), default=60.0, metavar="SECONDS",
                   help="campaign: time box for shrinking each class (default 60)")
    p.add_argument("--fresh", action="store_true",
                   help="campaign: a fresh peer process for every game (default: reuse a peer that played "
                   "a game properly)")
    p.add_argument("--max-steps", type=cliargs.count("--max-steps"), default=1000,
                   help="longest game in actions (default 1000)")
    p.add_argument("--seed", type=cliargs.seed("--seed"), default=None,
                   help="seed of the generator (default: random)")
    p.add_argument("--timeout", type=cliargs.seconds("--timeout"), default=5.0,
                   help="seconds the peer has to answer one message (default 5; the first reply of a new "
                   "process may take 10)")
    p.add_argument("--no-shrink", action="store_true", help="report the first divergence as found")
    p.add_argument("--no-positions", action="store_true",
                   help="campaign: do not use the peer's 'position' capability (every divergence then ends "
                   "its game, as with a peer without it)")
    p.add_argument("--no-diagnosis", action="store_true",
                   help="campaign: do not diagnose the divergences (classes by deciding clause, as for "
                   "unexplained ones: faster on a peer with many defects no fault of the rule tables "
                   "explains)")
    p.add_argument("--reuse", action="store_true",
                   help="keep a peer that played a game properly for the next one (faster; default: a fresh "
                   "process per game)")
    p.add_argument("--out", metavar="FILE|DIR",
                   help="write the divergence's record to FILE (a campaign: every class's records to DIR)")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    p.set_defaults(run=run, examples_given=False)
