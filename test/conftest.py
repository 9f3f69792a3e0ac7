"""Test-wide settings.

Under CI (``CI`` set) hypothesis is derandomized: every property test runs a
fixed set of examples, so a submission's result does not depend on luck.
Local runs keep exploring new examples (that is how bugs get found).

The ``fuzz`` profile (``make fuzz``, or ``INFS_FUZZ=1``) is for bug hunts:
many examples, fresh random seeds, no example database; the random-input
tests read their example counts through ``strategies.examples``.
"""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("fuzz", max_examples=5000, derandomize=False, database=None, deadline=None, print_blob=True)
if os.environ.get("INFS_FUZZ"):
    settings.load_profile("fuzz")
elif os.environ.get("CI"):
    settings.load_profile("ci")
