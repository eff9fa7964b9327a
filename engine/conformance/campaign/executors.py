"""Where a campaign's work runs: at once in this process (``jobs == 1``), in worker processes, or as Ray
tasks, behind one small interface (submit, wait, result, stop, shutdown).

>>> Inline().result(Inline().submit(sum, [1, 2]))
3
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from types import FrameType
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

    def stop(self) -> None:
        """Stop at once after Ctrl-C: drop the work not started and end the work running."""

    def shutdown(self) -> None:
        """Release the workers once every piece of work submitted has been collected."""


class Pool(Inline):
    """Worker processes (``jobs > 1``).  Ctrl-C reaches only the parent.

    While the pool lives, Ctrl-C is noted, not raised where it lands, and :meth:`wait` raises it as
    KeyboardInterrupt: a KeyboardInterrupt inside the pool's own bookkeeping (while it holds a future's lock)
    could leave that lock held, and the pool's exit would then wait for ever.  A process that ignores Ctrl-C
    (started in the background), or a pool started outside the main thread, keeps its own handling.
    :meth:`stop` ends the workers in the middle of their batches; their peers see their input close.
    """

    POLL = 0.2
    """Seconds between two looks at a noted Ctrl-C while no batch finishes."""

    def __init__(self, jobs: int) -> None:
        self._pool = ProcessPoolExecutor(max_workers=jobs, initializer=worker_init)
        self._interrupted = threading.Event()
        self._previous: Any = None
        if (threading.current_thread() is threading.main_thread()
                and signal.getsignal(signal.SIGINT) is signal.default_int_handler):
            self._previous = signal.signal(signal.SIGINT, self._note)

    def _note(self, signum: int, frame: FrameType | None) -> None:
        self._interrupted.set()

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        return self._pool.submit(fn, *args)

    def wait(self, pending: set[Any]) -> tuple[set[Any], set[Any]]:
        """The finished work among ``pending`` (at least one), or KeyboardInterrupt after Ctrl-C."""
        while True:
            done, rest = wait(pending, timeout=self.POLL, return_when=FIRST_COMPLETED)
            if self._interrupted.is_set():
                self._interrupted.clear()
                raise KeyboardInterrupt
            if done:
                return set(done), set(rest)

    def stop(self) -> None:
        """End every worker now, in the middle of its batch, and drop the work not started: the pool sees
        its workers gone, fails what they ran, reaps them and stops (it alone waits for them: a second
        waiter could reap a worker the pool then never sees end)."""
        for worker in list((self._pool._processes or {}).values()):
            worker.terminate()
        self._pool.shutdown(wait=True, cancel_futures=True)
        self._restore()

    def shutdown(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
        self._restore()

    def _restore(self) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)
            self._previous = None


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


Executor = Inline
"""The interface every executor has (:class:`Inline`'s)."""
