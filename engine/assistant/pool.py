"""The worker processes that run ``arbiter mcp``'s tool calls: off the event loop, each call within a time
limit and a memory cap, a cancelled call's worker stopped, a slow call never in a lookup's way.

Python threads cannot be stopped and share one interpreter lock, so the calls run in worker processes
(:mod:`engine.assistant.worker`), in two lanes:

* **lookups** — every tool but the heavy ones: :data:`LOOKUP_WORKERS` workers, started with the server;
* **heavy** — the tools whose work grows with their input (:attr:`Tool.heavy <engine.assistant.tools.Tool>`:
  drawing a position, replaying a record): one worker per core by default, started when needed.

A lookup never waits for a heavy call: it has workers of its own, and the system's scheduler gives a
process that wakes for a few milliseconds of work the processor at once, however busy the heavy workers
are.

A call waits for a free worker of its lane (at most :data:`MAX_WAITING` calls wait in a lane; one more is
refused as busy), then runs under the time limit.  When the time passes, or the client cancels the call,
the worker is killed (``SIGKILL``) and the next call starts a new one.  Every worker's address space is
capped (:data:`~engine.assistant.limits.MEMORY_LIMIT`), so the server holds at most its own memory plus
the workers' caps.

>>> import anyio
>>> async def one() -> int:
...     async with Pool() as pool:
...         reply = await pool.call("ask_bullheads", {"cards": [55]})
...     return reply["result"]["data"]["value"]
>>> anyio.run(one)
7
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import TracebackType
from typing import Any

import anyio
import anyio.abc
from anyio.streams.buffered import BufferedByteReceiveStream

from engine.assistant.limits import MEMORY_LIMIT, TIME_LIMIT, LimitReached
from engine.assistant.tools import tools
from engine.cliargs import available_cores

__all__ = ["LOOKUP_WORKERS", "MAX_REPLY_BYTES", "MAX_WAITING", "Lane", "Pool"]

LOOKUP_WORKERS = 2
"""Workers for the lookups: one slow lookup leaves the other free."""

MAX_WAITING = 64
"""The most calls that wait for a worker in one lane; another one is refused as busy."""

MAX_REPLY_BYTES = 64 * 1024 * 1024
"""The longest reply a worker may write (a picture at scale 8 is under 1 MB)."""


def worker_command(root: Path | None, memory: int) -> list[str]:
    """The command line of one worker process (the engine imported from where this one was)."""
    command = [sys.executable, "-P", "-m", "engine.assistant.worker", "--memory", str(memory)]
    if root is not None:
        command += ["--root", str(root)]
    return command


def _environment() -> dict[str, str]:
    """The server's environment, with the folder this engine was imported from first on the module path."""
    home = str(Path(__file__).resolve().parent.parent.parent)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (home, env.get("PYTHONPATH", "")) if p)
    return env


class _Worker:
    """One worker process and the reading end of its replies."""

    def __init__(self, process: anyio.abc.Process) -> None:
        self.process = process
        assert process.stdout is not None
        self.replies = BufferedByteReceiveStream(process.stdout)

    @property
    def pid(self) -> int:
        pid: int = self.process.pid
        return pid

    async def ask(self, request: Mapping[str, Any]) -> dict[str, Any]:
        assert self.process.stdin is not None
        await self.process.stdin.send((json.dumps(request) + "\n").encode("ascii"))
        line = await self.replies.receive_until(b"\n", MAX_REPLY_BYTES)
        reply: dict[str, Any] = json.loads(line)
        return reply

    async def stop(self) -> None:
        """Kill the process and wait for it (shielded: it runs while a cancelled call unwinds)."""
        with contextlib.suppress(ProcessLookupError):  # already gone
            self.process.kill()
        with anyio.CancelScope(shield=True), anyio.move_on_after(5):
            await self.process.aclose()


class Lane:
    """Workers of one kind: at most ``size`` calls run at once, each in its own worker process."""

    def __init__(self, name: str, size: int, command: list[str], time_limit: float, memory: int) -> None:
        self.name = name
        self.size = size
        self.command = command
        self.time_limit = time_limit
        self.memory = memory
        self.waiting = 0
        self.running: dict[int, _Worker] = {}
        self._idle: list[_Worker] = []
        self._slots = anyio.Semaphore(size)

    def pids(self) -> list[int]:
        """The process ids of the lane's workers, idle and running."""
        return [w.pid for w in (*self._idle, *self.running.values())]

    async def _start(self) -> _Worker:
        process = await anyio.open_process(
            self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=None, env=_environment()
        )
        return _Worker(process)

    async def warm(self) -> None:
        """Start the lane's workers ahead of the first call (a failure is left to the first call to say)."""
        try:
            while True:
                async with self._slots:  # every worker starts under a slot: never more than ``size``
                    if len(self._idle) + len(self.running) >= self.size:
                        return
                    self._idle.append(await self._start())
        except OSError as exc:
            print(f"arbiter mcp: cannot start a {self.name} worker: {exc}", file=sys.stderr)

    async def call(self, request: Mapping[str, Any]) -> dict[str, Any]:
        """The worker's reply to ``request``; LimitReached when the lane is full, the time passes or the
        worker dies; a cancelled call's worker is killed."""
        if self.waiting >= MAX_WAITING:
            raise LimitReached(
                f"the server is busy: {self.waiting} calls are waiting for a {self.name} worker; try again"
            )
        self.waiting += 1
        try:
            await self._slots.acquire()
        finally:
            self.waiting -= 1
        try:
            return await self._run(request)
        finally:
            self._slots.release()

    async def _run(self, request: Mapping[str, Any]) -> dict[str, Any]:
        worker = None
        while self._idle and worker is None:
            worker = self._idle.pop()
            if worker.process.returncode is not None:  # died idle: start another
                await worker.stop()
                worker = None
        if worker is None:
            try:
                worker = await self._start()
            except OSError as exc:
                raise LimitReached(f"{request['tool']}: cannot start a worker process ({exc})") from None
        self.running[worker.pid] = worker
        done = False
        try:
            with anyio.fail_after(self.time_limit):
                reply = await worker.ask(request)
            done = True
            return reply
        except TimeoutError:
            raise LimitReached(
                f"{request['tool']} stopped after {self.time_limit:g} s, the time limit of one call"
            ) from None
        except (anyio.EndOfStream, anyio.BrokenResourceError, anyio.IncompleteRead, anyio.DelimiterNotFound,
                ValueError):
            raise LimitReached(
                f"{request['tool']}: the worker running the call stopped (its memory is capped at "
                f"{_mib(self.memory)})"
            ) from None
        finally:
            del self.running[worker.pid]
            if done:
                self._idle.append(worker)
            else:  # timed out, cancelled or broken: never reused
                await worker.stop()

    async def close(self) -> None:
        """Stop every worker."""
        workers = [*self._idle, *self.running.values()]
        self._idle.clear()
        for worker in workers:
            await worker.stop()


def _mib(size: int) -> str:
    return f"{size // (1024 * 1024)} MiB"


class Pool:
    """The lanes of workers of one server (an async context: the workers stop when it closes).

    ``root``: the folder the tools may read (none by default); ``time_limit``: one call's run, in seconds;
    ``workers``: the heavy lane's size (default: the cores this process may use); ``memory``: each worker's
    address space, in bytes.  ``heavy`` names the tools of the heavy lane (default: the catalog's).
    """

    def __init__(
        self,
        root: Path | None = None,
        *,
        time_limit: float = TIME_LIMIT,
        workers: int | None = None,
        memory: int = MEMORY_LIMIT,
        heavy: Iterable[str] | None = None,
    ) -> None:
        if heavy is None:
            heavy = [t.name for t in tools() if t.heavy]
        self.heavy_tools = frozenset(heavy)
        self.time_limit = time_limit
        self.lookups = Lane("lookup", LOOKUP_WORKERS, worker_command(root, memory), time_limit, memory)
        size = workers or available_cores()
        self.heavy = Lane("heavy", size, worker_command(root, memory), time_limit, memory)
        self._group: anyio.abc.TaskGroup | None = None

    async def __aenter__(self) -> Pool:
        self._group = anyio.create_task_group()
        await self._group.__aenter__()
        self._group.start_soon(self.lookups.warm)
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> bool | None:
        assert self._group is not None
        self._group.cancel_scope.cancel()
        await self._group.__aexit__(kind, exc, tb)
        for lane in (self.lookups, self.heavy):
            await lane.close()
        return None

    def lane(self, tool: str) -> Lane:
        """The lane a tool's calls run in."""
        return self.heavy if tool in self.heavy_tools else self.lookups

    async def call(self, tool: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """The reply of a worker to one call of ``tool`` (``{"result": ...}`` or ``{"error": ...}``)."""
        return await self.lane(tool).call({"tool": tool, "arguments": dict(arguments)})

    def pids(self) -> list[int]:
        """Every worker's process id."""
        return [*self.lookups.pids(), *self.heavy.pids()]
