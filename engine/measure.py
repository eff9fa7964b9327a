"""Speed figures as CPU time: repeated runs of the same work, their median and spread, and the rate per core.

Every benchmark of the project (``arbiter bench`` for games, ``check`` and ``fuzz``; the environments'
bench) measures through these, so all of them print the same kind of figure: the **median CPU time** of a
run over repeated runs, the spread (half the range relative to the median), and work per CPU second.  A
loaded machine stretches wall-clock time, not the CPU time a run consumes.

>>> runs = Runs((0.9, 1.0, 1.2), work=10, actions=100)
>>> runs.median, round(runs.spread, 2), runs.per_core, runs.actions_per_core
(1.0, 0.15, 10.0, 100.0)
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from attrs import frozen


@frozen
class Runs:
    """CPU seconds of repeated runs of the same work (``work`` units, ``actions`` actions per run)."""

    seconds: tuple[float, ...]
    work: int
    actions: int = 0

    @property
    def median(self) -> float:
        """The median CPU time of a run."""
        return statistics.median(self.seconds)

    @property
    def spread(self) -> float:
        """Half the range of the runs, relative to the median (0.05 = ±5%)."""
        return (max(self.seconds) - min(self.seconds)) / 2 / self.median if self.median > 0 else 0.0

    @property
    def per_core(self) -> float:
        """Work units per CPU second."""
        return self.work / self.median if self.median > 0 else 0.0

    @property
    def actions_per_core(self) -> float:
        """Actions per CPU second."""
        return self.actions / self.median if self.median > 0 else 0.0

    def text(self) -> str:
        """``median ms ±spread``."""
        return f"{self.median * 1000:>9.1f} ms ±{self.spread * 100:>4.1f}%"


def cpu_runs(run: Callable[[], int], repeats: int, clock: Callable[[], float] = time.process_time) -> Runs:
    """Call ``run`` (returning the actions it did) ``repeats`` times; the CPU time of each call."""
    out: list[float] = []
    actions = 0
    for _ in range(max(1, repeats)):
        start = clock()
        actions = run()
        out.append(clock() - start)
    return Runs(tuple(out), 0, actions)


def calibrate(one: Callable[[int], int], target: float) -> int:
    """How many calls of ``one(i)`` fill about ``target`` CPU seconds (at least 1)."""
    start = time.process_time()
    n = 0
    while time.process_time() - start < min(target, 0.3):
        one(n)
        n += 1
    spent = time.process_time() - start
    return max(1, round(n * target / spent)) if spent > 0 else max(1, n)


def header(unit: str) -> str:
    """The column titles of a figure table."""
    return f"{'median CPU/run':>17}  {unit + '/s per core':>16}  {'actions/s per core':>18}"


def line(runs: Runs) -> str:
    """One figure row."""
    return f"{runs.text()}  {runs.per_core:>16,.1f}  {runs.actions_per_core:>18,.0f}"
