"""Hypothesis settings profiles for the whole suite.

* ``ci`` (the default, in a user's shell as in ``.ci/run``): few examples, drawn the same way every time
  (``derandomize``) and never replayed from a ``.hypothesis/`` folder left over (no database), so the
  README's test command gives the same verdict on every fresh clone and every machine.
* ``dev``: the random search, on purpose: new examples on every run, failures kept in ``.hypothesis/`` and
  replayed first next time.  A quick hunt (a few minutes of the whole suite)::

      HYPOTHESIS_PROFILE=dev .venv/bin/python -m pytest

* ``deep``: the same search with many more examples and longer games (the long hunt)::

      HYPOTHESIS_PROFILE=deep .venv/bin/python -m pytest properties

Hypothesis derandomizes by itself when a ``CI`` variable is set; the profiles here say it explicitly either
way, so ``dev`` and ``deep`` search at random even there.  The input fuzz harness
(``properties/test_input_fuzz.py``) scales its own budget with the profile: 15 examples per target in
``ci``, 100 in ``dev``, 13,000 in ``deep``.
"""

import os

from hypothesis import HealthCheck, settings

_COMMON = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
_HUNT_DATABASE = settings.get_profile("default").database  # .hypothesis/examples: failures replayed first

settings.register_profile(
    "ci", _COMMON, max_examples=40, stateful_step_count=100, derandomize=True, database=None
)
settings.register_profile(
    "dev", _COMMON, max_examples=100, stateful_step_count=100, derandomize=False, database=_HUNT_DATABASE
)
settings.register_profile(
    "deep", _COMMON, max_examples=1000, stateful_step_count=400, derandomize=False, database=_HUNT_DATABASE
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
