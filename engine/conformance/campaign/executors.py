"""Where a campaign's work runs: at once in this process (``jobs == 1``), in worker processes, or as Ray
tasks, behind one small interface (submit, wait, result, shutdown).

>>> Inline().result(Inline().submit(sum, [1, 2]))
3
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from engine.conformance.campaign.batches import worker_init
from engine.errors import InputError

__all__ = ["Executor", "Inline", "Pool", "Ray"]


class Inline:
    """Runs work in this process, at once (``jobs == 1``): the same functions as the pools."""

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args))
        except BaseException as exc:
            if isinstance(exc, KeyboardInterrupt):
                raise
            future.set_exception(exc)
        return future

    def wait(self, pending: set[Any]) -> tuple[set[Any], set[Any]]:
        return set(pending), set()

    def result(self, future: Any) -> Any:
        return future.result()

    def shutdown(self, wait: bool = True) -> None:
        """Stop the workers (``wait``: after they finish what they run)."""


class Pool(Inline):
    """Worker processes (``jobs > 1``); Ctrl-C reaches only the parent, which stops them."""

    def __init__(self, jobs: int) -> None:
        self._pool = ProcessPoolExecutor(max_workers=jobs, initializer=worker_init)

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        return self._pool.submit(fn, *args)

    def wait(self, pending: set[Any]) -> tuple[set[Any], set[Any]]:
        done, rest = wait(pending, return_when=FIRST_COMPLETED)
        return set(done), set(rest)

    def shutdown(self, wait: bool = True) -> None:
        self._pool.shutdown(wait=wait, cancel_futures=True)


class Ray(Inline):
    """Ray tasks on an existing cluster (``--ray ADDRESS``) or a local Ray; Ray schedules them."""

    def __init__(self, address: str | None) -> None:
        try:
            import ray
        except ImportError:
            raise InputError("--ray", "needs Ray: pip install 'arbiter-rules[ray]'") from None
        self._ray = ray
        if not ray.is_initialized():
            try:
                ray.init(address=address or None, ignore_reinit_error=True, log_to_driver=False)
            except Exception as exc:  # connection refused, bad address ...: one line, exit 2
                raise InputError("--ray", f"cannot connect to Ray at {address or '(local)'}: {exc}") from None
        self._tasks: dict[Callable[..., Any], Any] = {}

    def submit(self, fn: Callable[..., Any], *args: Any) -> Any:
        if fn not in self._tasks:
            self._tasks[fn] = self._ray.remote(fn)
        return self._tasks[fn].remote(*args)

    def wait(self, pending: set[Any]) -> tuple[set[Any], set[Any]]:
        done, rest = self._ray.wait(list(pending), num_returns=1)
        return set(done), set(rest)

    def cpus(self) -> int:
        """The CPUs of the Ray cluster."""
        return int(self._ray.cluster_resources().get("CPU", 1))

    def result(self, future: Any) -> Any:
        return self._ray.get(future)

    def shutdown(self, wait: bool = True) -> None:
        """Stop the workers (``wait``: after they finish what they run)."""


Executor = Inline
"""The interface every executor has (:class:`Inline`'s)."""
