"""The two errors of bundles, in a module that imports nothing (no xDSL)."""

from __future__ import annotations


class BundleError(ValueError):
    """A bundle that cannot be loaded (truncated, tampered, foreign version,
    malformed section), or a host function that has no data form (an op the
    host cannot run): one line saying what and where."""


class HostRunError(ValueError):
    """A host program that stops at run time (division by zero, an index out of
    bounds, a bad argument): the same one line as ``infs.runtime.host`` gives."""
