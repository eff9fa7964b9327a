"""The test runs of :mod:`engine.mutation`: a forked worker per scratch copy, or a process per run.

>>> PYTEST_FLAGS[0]
'-x'
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

__all__ = ["PYTEST_FLAGS", "Worker", "run_tests", "test_env"]

PYTEST_FLAGS = ("-x", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", "--hypothesis-seed=0")
"""How the tests run against a mutant: stop at the first failure, no cache, no random order, one seed."""

_WORKER = """
import json, os, signal, sys, time
import attrs, hypothesis, jsonschema, pytest  # imported once; the engine is imported fresh by each run
flags = json.loads(sys.argv[1])
driver = os.getppid()
for line in sys.stdin:
    ask = json.loads(line)
    pid = os.fork()
    if pid == 0:
        os.setpgrp()  # the run and whatever it starts: one group, killed whole on a timeout
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        sys.dont_write_bytecode = True
        os._exit(int(pytest.main([*flags, *ask["tests"]])))
    try:
        os.setpgid(pid, pid)  # as the child does: no window in which a kill would miss it
    except OSError:
        pass
    deadline = time.monotonic() + ask["timeout"]
    status = None
    while status is None:
        done, raw = os.waitpid(pid, os.WNOHANG)
        if done:
            status = os.waitstatus_to_exitcode(raw)
        elif time.monotonic() > deadline or os.getppid() != driver:  # over time, or the driver is gone
            os.killpg(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            status = "timeout"
        else:
            time.sleep(0.02)
    result = "timeout" if status == "timeout" else ("survived" if status == 0 else "killed")
    print(json.dumps({"result": result}), flush=True)
"""


class Worker:
    """A process that has imported pytest and Hypothesis once, and forks a fresh test run for each mutant of
    its scratch copy (the engine is imported anew in every run, so the mutant is what runs): a second and a
    half of start-up saved per mutant.  Where ``fork`` does not exist, each run is a process of its own."""

    def __init__(self, work: Path) -> None:
        self.work = work
        self.process: subprocess.Popen[str] | None = None
        if hasattr(os, "fork"):
            self.process = subprocess.Popen(
                [sys.executable, "-c", _WORKER, json.dumps(PYTEST_FLAGS)], cwd=work, env=test_env(work),
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            )

    def run(self, tests: Sequence[str], timeout: float) -> str:
        """``killed``, ``survived`` or ``timeout`` for the scratch copy as it stands."""
        if not tests:
            return "survived"
        process = self.process
        if process is None or process.stdin is None or process.stdout is None:
            return run_tests(self.work, timeout, tests)
        process.stdin.write(json.dumps({"tests": list(tests), "timeout": timeout}) + "\n")
        process.stdin.flush()
        answer = process.stdout.readline()
        if not answer:
            raise SystemExit(f"mutation: the test worker stopped (exit code {process.wait()})")
        return str(json.loads(answer)["result"])

    def close(self) -> None:
        """Stop the worker."""
        if self.process is not None:
            if self.process.stdin is not None:
                self.process.stdin.close()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()


def test_env(work: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(work), "HYPOTHESIS_PROFILE": "ci", "PYTHONDONTWRITEBYTECODE": "1"}


def run_tests(work: Path, timeout: float, tests: Sequence[str]) -> str:
    """``killed``, ``survived`` or ``timeout`` for the scratch copy as it stands (``tests``: these node ids or
    files instead of the games' test files)."""
    if not tests:
        return "survived"
    cmd = [sys.executable, "-m", "pytest", *PYTEST_FLAGS, *tests]
    try:
        done = subprocess.run(cmd, cwd=work, env=test_env(work), capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout"
    return "survived" if done.returncode == 0 else "killed"
