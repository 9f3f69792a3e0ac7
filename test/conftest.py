"""Test-wide settings.

Under CI (``CI`` set) hypothesis is derandomized: every property test runs a
fixed set of examples, so a submission's result does not depend on luck.
Local runs keep exploring new examples (that is how bugs get found)."""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
