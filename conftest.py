"""Hypothesis settings profiles for the whole suite.

* ``ci`` (the default): few examples, so ``.ci/run`` stays quick.
* ``deep``: many more examples and longer games, for local runs and nightly hunts for rare bugs::

      HYPOTHESIS_PROFILE=deep python -m pytest properties

The input fuzz harness (``properties/test_input_fuzz.py``) scales its own budget with the profile: 15
examples per target in ``ci``, 13,000 in ``deep``.
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=40,
    stateful_step_count=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
settings.register_profile(
    "deep",
    max_examples=1000,
    stateful_step_count=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
settings.register_profile("dev", parent=settings.get_profile("ci"), max_examples=100)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
