"""Registry of infs passes: name -> factory returning the pass class.

``infs-opt`` and ``infs.api`` register exactly these (plus xDSL's own passes).
Each pass lives in its own module under ``infs.passes``; a pass appears here
only once it works.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.passes import ModulePass


def _lazy(module: str, cls: str) -> Callable[[], type[ModulePass]]:
    def factory() -> type[ModulePass]:
        import importlib

        return getattr(importlib.import_module(f"infs.passes.{module}"), cls)

    return factory


INFS_PASSES: dict[str, Callable[[], type[ModulePass]]] = {
    "extract-streams": _lazy("extract_streams", "ExtractStreamsPass"),
    "tensorize": _lazy("tensorize", "TensorizePass"),
    "canonicalize-tdfg": _lazy("canonicalize_tdfg", "CanonicalizeTdfgPass"),
    "optimize-tdfg": _lazy("optimize_tdfg", "OptimizeTdfgPass"),
    # lower-pim and its steps, in pipeline order (infs/passes/lower_pim/lower_pim.py)
    "lower-pim": _lazy("lower_pim.lower_pim", "LowerPimPass"),
    "specialize": _lazy("specialize", "SpecializePass"),
    "choose-layout": _lazy("lower_pim.choose_layout", "ChooseLayoutPass"),
    "tdfg-to-pimcmd": _lazy("lower_pim.tdfg_to_pimcmd", "TdfgToPimcmdPass"),
    "expand-mv-bc": _lazy("lower_pim.expand_mv_bc", "ExpandMvBcPass"),
    "decompose": _lazy("lower_pim.decompose", "DecomposePass"),
    "lower-shift": _lazy("lower_pim.lower_shift", "LowerShiftPass"),
    "lower-reduce": _lazy("lower_pim.lower_reduce", "LowerReducePass"),
    "lower-compute": _lazy("lower_pim.lower_compute", "LowerComputePass"),
    "map-banks": _lazy("lower_pim.map_banks", "MapBanksPass"),
    "insert-sync": _lazy("lower_pim.insert_sync", "InsertSyncPass"),
    "allocate-wordlines": _lazy("lower_pim.allocate_wordlines", "AllocateWordlinesPass"),
    # the DRAM-PIM target: linalg layers -> Newton commands (infs/passes/dram_pim/lower_dram_pim.py)
    "lower-dram-pim": _lazy("dram_pim.lower_dram_pim", "LowerDramPimPass"),
    # the crossbar target (STREAM): comb netlists -> OR-plane kernels (infs/passes/xbar/)
    "optimize-aig": _lazy("xbar.optimize_aig", "OptimizeAigPass"),
    "synthesize-stream-o": _lazy("xbar.synthesize_stream_o", "SynthesizeStreamOPass"),
    "synthesize-stream-m": _lazy("xbar.synthesize_stream_m", "SynthesizeStreamMPass"),
    "map-staircase": _lazy("xbar.map_staircase", "MapStaircasePass"),
    "decompose-pe": _lazy("xbar.decompose_pe", "DecomposePePass"),
}
