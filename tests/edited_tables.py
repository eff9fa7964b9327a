"""Run a test's scenario under edited rule tables, in a fresh interpreter.

The rules are built from the tables in ``spec/`` once, when they load.  What a rule does for table values
other than the shipped ones (a cost, a discount, an effect's parameter, a set-up row, a pairing: what a
diagnosis edits) is tested by running a scenario in a fresh interpreter whose table reader returns the
edited documents (the files are untouched).  The test also runs the same scenario in its own process on
the shipped tables, so coverage, and with it the mutation driver's choice of tests, sees the lines it runs.

A scenario is a module-level function of the test module taking and returning JSON values::

    def cost_of(card: str) -> int: ...
    assert under_edited(__file__, cost_of, "Market", game="petersburg",
                        edits={"setup.toml": "doc['setup'][0]['money'] = 30"}) == 4
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

_RUN = """
import copy, importlib.util, json, sys
import engine.spec as spec
game, edits, path, name, args = json.loads(sys.argv[1])
real = spec.read_toml
def edited(p):
    doc = real(p)
    if p.parent.name == game and p.name in edits:
        doc = copy.deepcopy(doc)
        exec(edits[p.name], {"doc": doc})
    return doc
spec.read_toml = edited
sys.path.insert(0, str(__import__("pathlib").Path(path).parent))
found = importlib.util.spec_from_file_location("_scenario", path)
module = importlib.util.module_from_spec(found)
found.loader.exec_module(module)
print(json.dumps(getattr(module, name)(*args)))
"""


def under_edited(
    test_file: str, scenario: Callable[..., Any], *args: Any, game: str, edits: Mapping[str, str]
) -> Any:
    """``scenario(*args)`` (a function of the module ``test_file``) run in a fresh interpreter whose tables
    of ``game`` are edited: ``edits`` maps a file name of ``spec/<game>/`` to Python run on its parsed
    document ``doc``.  Returns the scenario's result (JSON); a failure in the interpreter fails the test
    with its error output."""
    payload = json.dumps([game, dict(edits), str(Path(test_file).resolve()), scenario.__name__, list(args)])
    out = subprocess.run([sys.executable, "-c", _RUN, payload], capture_output=True, text=True, cwd=ROOT,
                         timeout=300, check=False)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])
