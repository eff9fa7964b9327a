"""The runnable examples in the public API's docstrings run, so the documentation cannot drift."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest
from extras import need

import engine

EXTRA_PACKAGES = frozenset({"anyio", "mcp", "ray", "pettingzoo", "gymnasium", "pyspiel", "open_spiel",
                            "selenium", "mutmut", "numpy", "resvg_py", "PIL"})
"""Top-level packages only the optional extras install (pyproject.toml)."""


def modules() -> list[str]:
    names = ["engine"]
    for info in pkgutil.walk_packages(engine.__path__, "engine."):
        if info.name.endswith("__main__"):
            continue
        names.append(info.name)
    return sorted(names)


@pytest.mark.parametrize("name", modules())
def test_docstring_examples_run(name: str) -> None:
    """Every ``>>>`` example in the module's docstrings produces the output it shows."""
    if name.startswith("engine.envs."):  # the environments need their optional extras
        need("pettingzoo")
        need("pyspiel")
    if name == "engine.raster":
        need("resvg_py")
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:  # a module that needs an optional extra's package (anyio: mcp)
        if (exc.name or "").split(".")[0] not in EXTRA_PACKAGES:
            raise
        need(exc.name or "")
        raise
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} docstring examples failed"
