"""Validated numeric flags and the cap on worker processes, shared by every command.

Every numeric flag of the command line is read by one of the argparse types made here, so ``nan``,
``inf``, ``1e308`` or a count beyond any real use is refused the same way everywhere: one line naming the
flag and the range, exit code 2 (``arbiter: error: argument --time: ...``).

* :func:`count` — a whole number in a range (games, steps, repeats, jobs, players), read by
  :func:`engine.digits.read_int` like every number written in text (ASCII digits only);
* :func:`integer` — a whole number, negative or not (an ``ask`` parameter);
* :func:`seat` — a seat number, from 0;
* :func:`seed` — a seed, from 0 to 2**63 - 1;
* :func:`seconds` — a finite duration > 0, at most :data:`MAX_SECONDS`;
* :func:`cap_jobs` — the number of worker processes to start: no more than the work to share out and the
  cores this process may use, said on one line of standard error when it is fewer than asked.

>>> seconds("--time")("nan")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: expected a number of seconds > 0 and at most 1000000, got 'nan'
>>> count("--jobs", hi=MAX_JOBS)("3")
3
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable
from typing import TextIO

from engine.digits import read_int
from engine.errors import InputError

__all__ = ["MAX_COUNT", "MAX_JOBS", "MAX_SECONDS", "available_cores", "cap_jobs", "count", "integer", "seat",
           "seconds", "seed"]

MAX_COUNT = 10**9
"""The largest count a flag accepts (games, examples, steps, repeats): far beyond any run that ends."""
MAX_JOBS = 256
"""The most worker processes a flag asks for (then capped by the work and the cores, :func:`cap_jobs`)."""
MAX_SECONDS = 10**6
"""The longest duration a flag accepts (11.6 days)."""
MAX_SEED = 2**63 - 1
"""The largest seed: what a game's notation line and its JSON state both hold."""
MAX_SEAT = 99
"""The largest seat number a flag accepts (the games check their own player counts)."""


def count(
    name: str, *, lo: int = 1, hi: int = MAX_COUNT, what: str = "a whole number"
) -> Callable[[str], int]:
    """An argparse type: a whole number from ``lo`` to ``hi`` (``name`` is the flag, for the reader)."""

    def parse(text: str) -> int:
        try:
            return read_int(text.strip(), name, lo=lo, hi=hi, signed=lo < 0, what=what)
        except InputError as exc:
            raise argparse.ArgumentTypeError(exc.message) from None

    parse.__name__ = name  # argparse names the type in some messages
    return parse


def integer(name: str) -> Callable[[str], int]:
    """An argparse type: a whole number, negative or not, of at most 19 digits (an ``ask`` parameter)."""

    def parse(text: str) -> int:
        try:
            return read_int(text.strip(), name, signed=True, what="an integer")
        except InputError as exc:
            raise argparse.ArgumentTypeError(exc.message) from None

    parse.__name__ = name
    return parse


def seat(name: str) -> Callable[[str], int]:
    """An argparse type: a seat, 0 to :data:`MAX_SEAT`."""
    return count(name, lo=0, hi=MAX_SEAT, what="a seat")


def seed(name: str) -> Callable[[str], int]:
    """An argparse type: a seed, 0 to :data:`MAX_SEED`."""
    return count(name, lo=0, hi=MAX_SEED, what="a seed")


def seconds(name: str, *, hi: float = MAX_SECONDS) -> Callable[[str], float]:
    """An argparse type: a finite number of seconds > 0 and at most ``hi`` (``nan`` and ``inf`` refused)."""

    def parse(text: str) -> float:
        try:  # a plain decimal number in ASCII: no 1_0, no other script's digits
            value = float(text) if "_" not in text and text.isascii() else math.nan
        except ValueError:
            value = math.nan
        if not math.isfinite(value) or not 0 < value <= hi:
            top = int(hi) if float(hi).is_integer() else hi
            raise argparse.ArgumentTypeError(
                f"expected a number of seconds > 0 and at most {top}, got {_shown(text)}"
            )
        return value

    parse.__name__ = name
    return parse


def _shown(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:40] + "…")


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def cap_jobs(requested: int | None, work: int, *, flag: str = "--jobs", stream: TextIO | None = None) -> int:
    """How many worker processes to start for ``work`` units (files, batches) when ``requested`` were asked
    for (``None``: one per core): at most the work and the cores, at least 1.  When that is fewer than
    asked, says so in one line on ``stream`` (standard error).

    >>> import io
    >>> err = io.StringIO()
    >>> cap_jobs(1000, 3, stream=err) <= 3
    True
    >>> err.getvalue().startswith("arbiter: --jobs 1000 capped to ")
    True
    """
    cores = available_cores()
    want = cores if requested is None else requested
    jobs = max(1, min(want, max(work, 1), cores))
    if requested is not None and jobs < requested:
        reason = "the work to share out" if jobs == max(work, 1) and work < cores else "the cores available"
        print(f"arbiter: {flag} {requested} capped to {jobs} ({reason}: {work} to do, {cores} cores)",
              file=stream or sys.stderr)
    return jobs
