"""Registry of infs passes: name -> factory returning the pass class.

``infs-opt`` and ``infs.api`` register exactly these (plus xDSL's own passes).
Each pass lives in its own module under ``infs.passes``; a pass appears here
only once it works.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.passes import ModulePass

INFS_PASSES: dict[str, Callable[[], type[ModulePass]]] = {}
