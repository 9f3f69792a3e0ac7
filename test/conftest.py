"""Test-wide settings.

Under CI (``CI`` set) hypothesis is derandomized: every property test runs a
fixed set of examples, so a submission's result does not depend on luck.
Local runs keep exploring new examples (that is how bugs get found).

The ``fuzz`` profile (``make fuzz``, or ``INFS_FUZZ=1``) is for bug hunts:
many examples, fresh random seeds, no example database; the random-input
tests read their example counts through ``strategies.examples``.

Every program the JIT produces is verified in the tests (``INFS_VERIFY=1``,
the printed-IR verifiers, once per lowering; the CLI tests' child
processes inherit it).  ``INFS_VERIFY=0`` turns it off for a timing run.
"""

import os

from hypothesis import settings

os.environ.setdefault("INFS_VERIFY", "1")

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("fuzz", max_examples=5000, derandomize=False, database=None, deadline=None, print_blob=True)
if os.environ.get("INFS_FUZZ"):
    settings.load_profile("fuzz")
elif os.environ.get("CI"):
    settings.load_profile("ci")
