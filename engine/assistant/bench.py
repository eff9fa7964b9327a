"""``arbiter bench mcp`` (or ``python -m engine.assistant.bench``): ``arbiter mcp`` under load, in figures.

One real server over stdio, driven by the MCP SDK's client: ``--renders`` drawings of a 4-player Saint
Petersburg position at ``--scale`` (8, the largest, by default) sent at once, and, while they run,
``--lookups`` rule lookups (``get_rule``), one every ``--every`` seconds.  Printed: each kind's answer
times (median, 90th percentile, max; wall-clock, which is what a waiting client sees), how many calls were
refused or stopped, the memory the server and its workers held together at their peak (their resident
sizes summed, sampled every 0.1 s), the CPU time they used, and the machine's load average (other work on
the machine stretches every figure).

``--inline`` runs the same load against a server whose calls run in its own process, one at a time, as
before the worker pool (:class:`engine.assistant.server.InlineCalls`): the figures before and after, on
the same machine.  Figures are printed, never asserted.

    python -m engine.assistant.bench                       # 40 drawings at scale 8, 40 lookups
    python -m engine.assistant.bench --inline --renders 10 # the server before the pool
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from attrs import define, field

from engine import cliargs, digits

__all__ = ["Load", "main", "run_load"]


@define
class Load:
    """What one run measured: answer times per tool (seconds), failures, memory and CPU."""

    times: dict[str, list[float]] = field(factory=dict)
    failures: dict[str, list[str]] = field(factory=dict)
    peak_rss: int = 0
    peak_processes: int = 0
    largest_process: int = 0
    cpu_seconds: float = 0.0
    wall_seconds: float = 0.0


def _children() -> dict[int, list[int]]:
    """Each process's children (from /proc)."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if digits.number(entry) is not None:
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as fh:
                    ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            parents.setdefault(ppid, []).append(int(entry))
    return parents


def _descendants(pid: int) -> list[int]:
    """``pid`` and every process below it."""
    parents = _children()
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(parents.get(p, ()))
    return out


def _rss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


async def _sample(server: int, load: Load, stop: asyncio.Event) -> None:
    while not stop.is_set():
        sizes = [_rss(p) for p in _descendants(server)]
        load.peak_rss = max(load.peak_rss, sum(sizes))
        load.peak_processes = max(load.peak_processes, len(sizes))
        load.largest_process = max(load.largest_process, *sizes, 0)
        await asyncio.sleep(0.1)


def _position() -> dict[str, Any]:
    from engine.game import get_game

    game = get_game("petersburg")
    state: dict[str, Any] = game.state_to_json(game.new_game(4, seed=5))
    return state


async def run_load(renders: int, lookups: int, every: float, scale: float, inline: bool) -> Load:
    """One server, the load described by the module, its figures."""
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    args = ["-m", "engine.assistant.bench", "--serve-inline"] if inline else ["-m", "engine", "mcp"]
    params = StdioServerParameters(command=sys.executable, args=args)
    load = Load()
    drawing = {"game": "petersburg", "position": _position(), "scale": scale}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        await session.call_tool("get_rule", {"clause_id": "T6-PLACE-1"})  # the server is up
        server = _children()[os.getpid()][0]
        stop = asyncio.Event()
        sampler = asyncio.create_task(_sample(server, load, stop))

        async def one(name: str, arguments: dict[str, Any], delay: float) -> None:
            await asyncio.sleep(delay)
            start = time.perf_counter()
            result = await session.call_tool(name, arguments)
            load.times.setdefault(name, []).append(time.perf_counter() - start)
            if result.is_error:
                load.failures.setdefault(name, []).append(result.content[0].text)

        start = time.perf_counter()
        calls = [one("render_position", drawing, 0.0) for _ in range(renders)]
        calls += [one("get_rule", {"clause_id": "SP-COST-4"}, 0.05 + i * every) for i in range(lookups)]
        await asyncio.gather(*calls)
        load.wall_seconds = time.perf_counter() - start
        stop.set()
        await sampler
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    load.cpu_seconds = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return load


def _row(name: str, times: list[float], failures: list[str]) -> str:
    if not times:
        return f"  {name:<16} none"
    ordered = sorted(times)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return (f"  {name:<16} {len(times):>5}  {statistics.median(times):>8.3f}  {p90:>8.3f}  {max(times):>8.3f}"
            f"  {len(failures):>7}")


def report(load: Load, title: str) -> list[str]:
    """The printed figures of one run."""
    mib = 1024 * 1024
    head = f"  {'call':<16} {'calls':>5}  {'median s':>8}  {'p90 s':>8}  {'max s':>8}  {'refused':>7}"
    lines = [title, head]
    for name in ("get_rule", "render_position"):
        lines.append(_row(name, load.times.get(name, []), load.failures.get(name, [])))
    for name, failures in load.failures.items():
        for text in sorted(set(failures))[:3]:
            lines.append(f"    {name} refused: {text[:100]}")
    lines.append(
        f"  memory at the peak: {load.peak_rss / mib:.0f} MiB in {load.peak_processes} processes (the "
        f"largest {load.largest_process / mib:.0f} MiB); CPU {load.cpu_seconds:.1f} s; wall "
        f"{load.wall_seconds:.1f} s"
    )
    return lines


def _serve_inline() -> int:
    """Serve over stdio with the calls run in the server's own process (the ``--inline`` baseline)."""
    from mcp.server.stdio import stdio_server

    from engine.assistant.server import build_server

    server = build_server(inline=True)

    async def serve() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    asyncio.run(serve())
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the load and print its figures."""
    summary = (__doc__ or "").split("\n")[0]
    parser = argparse.ArgumentParser(prog="python -m engine.assistant.bench", description=summary)
    parser.add_argument("--renders", type=cliargs.count("--renders", lo=0, hi=1000), default=40,
                        help="drawings sent at once (default 40)")
    parser.add_argument("--lookups", type=cliargs.count("--lookups", lo=0, hi=1000), default=40,
                        help="get_rule calls sent while they run (default 40)")
    parser.add_argument("--every", type=cliargs.seconds("--every", hi=60), default=1.0,
                        help="seconds between two lookups (default 1)")
    parser.add_argument("--scale", type=cliargs.seconds("--scale", hi=8), default=8.0,
                        help="the drawings' scale, up to 8 (default 8)")
    parser.add_argument("--inline", action="store_true", help="also run the load against the server as it "
                        "was before the worker pool, the calls in its own process one at a time")
    parser.add_argument("--serve-inline", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve_inline:
        return _serve_inline()
    try:
        import mcp  # noqa: F401
    except ImportError:
        print("bench mcp: needs the mcp extra: pip install 'arbiter-rules[mcp]'", file=sys.stderr)
        return 2
    load1, load5, _ = os.getloadavg()
    print(f"arbiter mcp under load: {args.renders} render_position calls at scale {args.scale:g} sent at "
          f"once, {args.lookups} get_rule calls one every {args.every:g} s while they run; answer times in "
          f"wall seconds; {cliargs.available_cores()} cores, load average {load1:.1f} (1 min) {load5:.1f} "
          "(5 min)")
    runs = [(False, "worker pool (arbiter mcp)")]
    if args.inline:
        runs.insert(0, (True, "before: calls in the server's own process, one at a time"))
    for inline, title in runs:
        load = asyncio.run(run_load(args.renders, args.lookups, args.every, args.scale, inline))
        print("\n".join(report(load, title)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
