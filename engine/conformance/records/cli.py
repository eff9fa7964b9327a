"""``arbiter check RECORD...``: replay game records on the reference engine
(:mod:`engine.conformance.records.check`).

Prints one report per record (``--json``: one JSON document) and exits with the worst outcome's code: 0 ok,
1 a divergence, 2 a malformed record.

>>> import argparse
>>> parser = argparse.ArgumentParser(prog="arbiter")
>>> register(parser.add_subparsers())
>>> parser.parse_args(["check", "game.jsonl", "--json"]).json
True
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from engine import cliargs
from engine.conformance.records.check import (
    EXIT_CODES,
    CheckReport,
    check_paths,
    exit_code,
    expand_paths,
    format_report,
    format_summary,
)


def run(args: argparse.Namespace) -> int:
    """Entry point of ``arbiter check``."""
    paths = list(expand_paths(args.records))
    width = max((len(p) for p in paths), default=0)
    reports: list[CheckReport] = []
    start = time.perf_counter()
    for report in check_paths(paths, jobs=args.jobs):
        reports.append(report)
        if not args.json:
            for text in format_report(report, width):
                print(text)
    seconds = time.perf_counter() - start
    actions = sum(r.actions for r in reports)
    if args.json:
        print(_json_text({
            "records": [r.to_json() for r in reports],
            "summary": {
                "records": len(reports),
                **{s: sum(1 for r in reports if r.status == s) for s in EXIT_CODES},
                "actions": actions, "seconds": round(seconds, 6),
                "actions_per_second": round(actions / seconds, 1) if seconds > 0 else 0.0,
                "exit_code": exit_code(reports),
            },
        }))
    else:
        print(format_summary(reports, seconds))
    return exit_code(reports)


def _json_text(value: Any) -> str:
    """``value`` as indented JSON text, non-ASCII as is but every character a terminal would act on (a line
    separator, a lone surrogate) written as its ``\\u`` escape."""
    text = json.dumps(value, ensure_ascii=False, indent=1)
    return "".join(c if c.isprintable() or c == "\n" else json.dumps(c)[1:-1] for c in text)


def register(sub: Any) -> None:
    """Add ``check`` to the command line."""
    p = sub.add_parser("check", help="replay game records on the reference engine; report divergences")
    p.add_argument("records", nargs="+", metavar="RECORD",
                   help="record files (JSON Lines), directories of *.jsonl, or - for standard input")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--jobs", type=cliargs.count("--jobs", hi=cliargs.MAX_JOBS), default=1, metavar="N",
                   help="check files in N worker processes (default 1; reports keep the order of the files)")
    p.set_defaults(run=run)

