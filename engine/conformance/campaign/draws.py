"""Hypothesis draws that depend on the seed only: the same games whatever the process has imported.

Hypothesis (since 6.131) now and then draws a number from a pool of *local constants*: the literals of
every module of the running project loaded in ``sys.modules`` when the draw happens.  The pool therefore
changes with what was imported before (``import engine.cli`` adds its literals), and a Ray worker, a pool
worker and the API each load other modules: one seed gave 2,354 actions in one process and 2,339 on Ray.
:func:`seed_only_draws` pins the pool to empty (Hypothesis's own global constants stay) for the duration of
a run, so a seed plays the same games through ``--jobs``, ``--ray`` and the API; the pool is restored
afterwards (other Hypothesis tests in the same process are unaffected).

>>> from hypothesis.internal.conjecture import providers
>>> with seed_only_draws():
...     len(providers._get_local_constants())
0
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator

from hypothesis.internal.conjecture import providers
from hypothesis.internal.constants_ast import Constants

__all__ = ["seed_only_draws"]

_EMPTY = Constants()


class _Pin:
    """The pinned state: how many runs are inside the block, and Hypothesis's own pool function."""

    lock = threading.Lock()
    depth = 0
    saved: Callable[[], Constants] | None = None


def _no_local_constants() -> Constants:
    return _EMPTY


@contextlib.contextmanager
def seed_only_draws() -> Iterator[None]:
    """Within the block, Hypothesis draws no local constant (see the module docstring); re-entrant."""
    with _Pin.lock:
        _Pin.depth += 1
        if _Pin.depth == 1:
            _Pin.saved = providers._get_local_constants
            providers._get_local_constants = _no_local_constants
            providers.CONSTANTS_CACHE.cache.clear()
    try:
        yield
    finally:
        with _Pin.lock:
            _Pin.depth -= 1
            if _Pin.depth == 0 and _Pin.saved is not None:
                providers._get_local_constants = _Pin.saved
                _Pin.saved = None
                providers.CONSTANTS_CACHE.cache.clear()
