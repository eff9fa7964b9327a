"""Import an optional extra for a test: skip without it, except in CI, where a missing extra fails.

``.ci/run`` installs every extra and sets ``ARBITER_REQUIRE_EXTRAS=1``, so a test that needs Ray, PettingZoo,
OpenSpiel, the MCP SDK or Selenium can never pass there by being skipped.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest


def need(module: str) -> ModuleType:
    """The module, or a skip (a failure when ``ARBITER_REQUIRE_EXTRAS`` is set)."""
    if os.environ.get("ARBITER_REQUIRE_EXTRAS"):
        return importlib.import_module(module)
    found: ModuleType = pytest.importorskip(module)
    return found
