"""Hypothesis profiles of the fuzz tests of every parser of outside input (issue 20, "Hardened parsing").

Two profiles, chosen by the environment variable `DISTRL_FUZZ_PROFILE`:

* ``ci`` (the default): 100 cases per test, so that the whole of `tests/fuzz` takes well under a minute on a 2-core
  machine;
* ``fuzz``: 10,000 cases per test, for the benchmark figure. Run it one module at a time, with pytest's own per-test
  timeout off (``DISTRL_FUZZ_PROFILE=fuzz pytest tests/fuzz/test_fuzz_ui_xml.py -p no:timeout
  --hypothesis-show-statistics``).

Both bound each case by a 2 s `deadline`, so a parser that hangs fails its test instead of stalling the suite. The
example database is Hypothesis's default, `.hypothesis/` in the working directory (git-ignored): a failing case is
saved there and replayed first on the next run.

Loading a profile sets Hypothesis's defaults for the whole session; no other tests of this repository use Hypothesis.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

PROFILE_VARIABLE = "DISTRL_FUZZ_PROFILE"
DEADLINE_MS = 2_000

# Generated documents of up to a megabyte are slow to build and large on purpose; those health checks would only
# complain about what the tests set out to do.
_SUPPRESSED = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example]

settings.register_profile("ci", max_examples=100, deadline=DEADLINE_MS, suppress_health_check=_SUPPRESSED)
settings.register_profile("fuzz", max_examples=10_000, deadline=DEADLINE_MS, suppress_health_check=_SUPPRESSED)
settings.load_profile(os.environ.get(PROFILE_VARIABLE, "ci"))
