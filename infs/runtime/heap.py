"""The garbage collector during a run: the program's objects are frozen, not walked again.

A run keeps the parsed and compiled program (xDSL's IR: parent pointers, uses,
attributes, all in reference cycles) alive from start to end, while the host
loop allocates and drops the JIT's and the simulator's objects by the
thousand.  CPython's cyclic collector would walk the whole program on every
full collection, which costs the collection's time and leaves the CPU caches
cold for the code that runs next: benchmarks/README.md ("JIT lowering"
measured a lowering right after a full collection of an unfrozen heap at
about twice its cost with warm caches, 393 vs 208 µs median per graph, nearly
all of it the walk).
``gc.freeze()`` moves every object tracked so far to the permanent generation,
which collections skip (the ``gc`` module's documentation); ``gc.unfreeze()``
at the end hands them back, so nothing frozen is kept alive past the run and
nothing it frees is missed: garbage from before the run is collected by the
first full collection after it.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def frozen_heap() -> Iterator[None]:
    """Freeze the objects alive on entry for the duration of the block; unfreeze them after.

    A caller that has frozen objects itself (``gc.get_freeze_count() > 0``)
    keeps its own policy: the block then changes nothing, since unfreezing at
    its end would also hand back what the caller froze.
    """
    if gc.get_freeze_count():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
