"""``lower-pim``: the JIT lowering of tDFGs to in-memory commands (ASPLOS §4.1-§4.2).

Takes: ``tdfg.graph`` ops (symbolic) and options ``sizes="N=64,..."``,
``config=NAME`` (a built-in hardware config or a TOML/JSON file) and
optionally ``tiles=4x4``.  Gives: one allocated ``pimcmd.program`` per graph.
The layout and the program record the machine as ``hardware.config_spec`` (a
built-in's name, else its parameters inline): a config given as a file is
reloaded from that text by the later steps and readers of the printed
program, without the file, and always as the same machine.
It is the pipeline

    specialize -> canonicalize-tdfg -> choose-layout -> tdfg-to-pimcmd ->
    expand-mv-bc -> decompose -> lower-shift -> lower-reduce -> lower-compute ->
    map-banks -> insert-sync -> allocate-wordlines

each of which is also a pass of its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from infs.passes.allocate_wordlines import allocate_wordlines
from infs.passes.canonicalize_tdfg import CanonicalizeTdfgPass
from infs.passes.choose_layout import ChooseLayoutPass
from infs.passes.decompose import decompose
from infs.passes.expand_mv_bc import expand_mv_bc
from infs.passes.insert_sync import insert_sync
from infs.passes.lower_compute import lower_compute
from infs.passes.lower_reduce import lower_reduce
from infs.passes.lower_shift import lower_shift
from infs.passes.map_banks import map_banks
from infs.dialects.pimcmd_records import PimProgram
from infs.passes.specialize import SpecializePass
from infs.passes.tdfg_to_pimcmd import TdfgToPimcmdPass

RECORD_STEPS = (expand_mv_bc, decompose, lower_shift, lower_reduce, lower_compute, map_banks, insert_sync, allocate_wordlines)


def lower_program(prog: PimProgram) -> PimProgram:
    """Every record-level step after ``tdfg-to-pimcmd``."""
    for step in RECORD_STEPS:
        prog = step(prog)
    return prog


@dataclass(frozen=True)
class LowerPimPass(ModulePass):
    name = "lower-pim"
    sizes: str = ""
    config: str = "paper-64"
    tiles: str = ""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from infs.passes.pim_program import rewrite_programs

        SpecializePass(self.sizes).apply(ctx, op)
        CanonicalizeTdfgPass().apply(ctx, op)
        ChooseLayoutPass(self.config, self.tiles).apply(ctx, op)
        TdfgToPimcmdPass().apply(ctx, op)
        rewrite_programs(op, lower_program)
