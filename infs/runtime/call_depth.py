"""How deep host calls may nest, and Python's recursion limit raised to match.

Both host executors recurse in Python for every call and scf region: the
xDSL interpreter (``infs.runtime.host``) and the bundle's closures
(``infs.runtime.bundle.host_program``).  They share this module, so that one
lock and one count decide when the limit is raised and restored, whichever
of them runs.  Standard library only.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Iterator

MAX_CALL_DEPTH = 10_000  # host calls nested deeper are an error (a recursion that does not end?)
# Python frames for one nested host call (~15 each, more with scf regions inside)
FRAMES_PER_CALL = 40

_lock = threading.Lock()
_runs = [0, 0]  # runs under way, the limit before the first


@contextlib.contextmanager
def deep_calls() -> Iterator[None]:
    """Python's recursion limit raised while host code runs, so that calls nest as
    deep as ``MAX_CALL_DEPTH`` (3.11's frames live on the heap, not the C stack)."""
    with _lock:
        if _runs[0] == 0:
            _runs[1] = sys.getrecursionlimit()
            sys.setrecursionlimit(max(_runs[1], MAX_CALL_DEPTH * FRAMES_PER_CALL))
        _runs[0] += 1
    try:
        yield
    finally:
        with _lock:
            _runs[0] -= 1
            if _runs[0] == 0:
                sys.setrecursionlimit(_runs[1])
