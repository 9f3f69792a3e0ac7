"""Registry of infs passes: name -> factory returning the pass class.

``infs-opt`` and ``infs.api`` register exactly these (plus xDSL's own passes).
Each pass lives in its own module under ``infs.passes``; a pass appears here
only once it works.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.passes import ModulePass


def _tensorize() -> type[ModulePass]:
    from infs.passes.tensorize import TensorizePass

    return TensorizePass


def _canonicalize_tdfg() -> type[ModulePass]:
    from infs.passes.canonicalize_tdfg import CanonicalizeTdfgPass

    return CanonicalizeTdfgPass


INFS_PASSES: dict[str, Callable[[], type[ModulePass]]] = {
    "tensorize": _tensorize,
    "canonicalize-tdfg": _canonicalize_tdfg,
}
