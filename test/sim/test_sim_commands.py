"""One definition per command: the passes, the simulator and the timing model
ask the command's kind (``pimcmd_schema.CommandKind``) for its facts, and a command
without simulator semantics or a cost is reported by name
(``check_command_coverage``, run at import)."""

import numpy as np
import pytest
from xdsl.dialects.builtin import MemRefType, i32

from infs import api
from infs.dialects import pimcmd as pc
from infs.dialects import pimcmd_schema as K
from infs.dialects import tdfg
from infs.dialects.lattice import Pattern
from infs.dialects.pimcmd_records import Cmd, PimProgram
from infs.passes.lower_pim.allocate_wordlines import allocate_wordlines
from infs.passes.lower_pim.map_banks import map_banks
from infs.runtime import jit
from infs.sim import Machine, SimError
from infs.sim.sram import machine as sim_machine
from infs.sim.sram import timing
from infs.sim.stats import Cost

T = "!tdfg.tensor<i32, 2>"
GRAPH = f"""func.func @g(%A: memref<8x8xi32>, %B: memref<8x8xi32>) {{
  tdfg.graph ins(%A, %B : memref<8x8xi32>, memref<8x8xi32>) syms() rank 2 {{
  ^bb0(%a: memref<8x8xi32>, %b: memref<8x8xi32>):
    %t = tdfg.tensor %a [0:8, 0:8] : memref<8x8xi32> -> {T}
    %s = tdfg.cmp add(%t, %t) : {T}, {T} -> {T}
    tdfg.store %s -> %b : {T} -> memref<8x8xi32>
    tdfg.yield
  }}
  func.return
}}"""


# ``toy.triple i32 dst R src S bitlines .. tiles ..`` -- a command defined only
# here: its kind (what the passes and the machine ask) and its op (the syntax)
TOY = K.CommandKind("toy.triple", (K.Prop("type", "str"), K.Prop("dst", "int"), K.Prop("src", "int"),
                                   K.Prop("bitlines", "pattern"), K.Prop("tiles", "pattern"), K.Prop("banks", "pattern", optional=True)))  # fmt: skip


@pc.command(TOY)
class ToyTripleOp(pc._TypedCommandOp):
    """``toy.triple i32 dst R src S bitlines .. tiles ..``."""


def _toy_cost(cm: timing.CostModel, bits: int, cells: int) -> Cost:
    return Cost("compute", cycles=2 * bits, element_ops=cells)


def test_every_dialect_command_has_semantics_and_a_cost():
    sim_machine.check_command_coverage()
    for kind in K.COMMANDS:
        assert (kind in sim_machine.SEMANTICS and kind in timing.COSTS) != kind.TENSOR_LEVEL, kind.name


def test_command_facts_are_its_definition():
    assert K.SHIFT.inter_tile({"inter": 1}) and not K.SHIFT.inter_tile({"inter": 0})
    assert K.BCAST.inter_tile({"inter": (0, 2)}) and not K.BCAST.inter_tile({"inter": (0, 1)})
    assert K.COMPUTE.reads({"srcs": (3, 4)}) == (3, 4) and K.COMPUTE.writes({"dst": 5}) == (5,)
    assert K.COMPUTE.dst_bits({"op": "cmp_lt", "type": "f32"}) == 1 and K.COMPUTE.dst_bits({"op": "add", "type": "i16"}) == 16
    assert K.COMPUTE.src_bits({"op": "select", "type": "f32", "srcs": (1, 2, 3)}) == (1, 32, 32)
    assert K.ARRAY.registers({"wordline": 7, "arr": 0}) == (7,) and K.ARRAY.ARRAY_OPERAND
    # the syntax is derived from the properties: keyword, value syntax, optional
    assert [(f.keyword, f.kind, f.optional) for f in pc.NearReduceOp.FIELDS] == [("in", "int", False), ("dims", "ints", False), ("step", "ints", False), ("out", "int", False)]
    assert [(f.keyword, f.kind, f.optional) for f in ToyTripleOp.FIELDS][-3:] == [("bitlines", "pattern", False), ("tiles", "pattern", False), ("banks", "pattern", True)]


def _program_with_toy():
    """The graph's program with a ``toy.triple`` of B's register into itself, before B is released."""
    (g,) = [op for op in api.parse_text(GRAPH).walk() if isinstance(op, tdfg.GraphOp)]
    rec = jit.lower(g, {}, "small-16", (4, 16)).record
    b_reg = next(c["wordline"] for c in rec.arrays() if c["arr"] == 1)
    last = max(i for i, c in enumerate(rec.cmds) if c.kind is K.COMPUTE and c["dst"] == b_reg)
    pats = {k: rec.cmds[last][k] for k in ("bitlines", "tiles")}
    toy = Cmd(TOY, dict(type="i32", dst=b_reg, src=b_reg, **pats))
    return rec.with_cmds([*rec.cmds[: last + 1], toy, *rec.cmds[last + 1 :]]), toy


def _triple_step(m: Machine, op: Cmd, plan, geo, host) -> None:
    m._charge(m.costs.of(op.kind)(32, 64), op.kind.MNEMONIC)
    if m.mode != "analysis":
        view = m._view(op["dst"], 32, geo, write=True).view(np.int32)
        src = m._view(op["src"], 32, geo, write=False).view(np.int32)
        cells = (op["tiles"].expand()[:, None] * geo.B + op["bitlines"].expand()[None, :]).ravel()
        view[cells] = src[cells] * 3


def test_a_toy_command_fails_until_it_has_semantics_and_a_cost(monkeypatch):
    commands = (*K.COMMANDS, TOY)
    with pytest.raises(sim_machine.CommandCoverageError) as e:
        sim_machine.check_command_coverage(commands)
    assert str(e.value) == "'toy.triple' has no simulator semantics (infs.sim.sram.machine.SEMANTICS) and no cost (infs.sim.sram.timing.COSTS)"
    prog, toy = _program_with_toy()
    A = np.arange(64, dtype=np.int32).reshape(8, 8)
    with pytest.raises(SimError, match=r"^'toy.triple' has no simulator semantics \(infs.sim.sram.machine.SEMANTICS\)$"):
        Machine("small-16").run(prog, {0: A.copy(), 1: np.zeros((8, 8), np.int32)})

    # semantics alone: the cost is still missing, by name
    monkeypatch.setitem(sim_machine.SEMANTICS, TOY, sim_machine.Semantics(_triple_step))
    with pytest.raises(sim_machine.CommandCoverageError, match=r"^'toy.triple' has no cost \(infs.sim.sram.timing.COSTS\)$"):
        sim_machine.check_command_coverage(commands)
    with pytest.raises(ValueError, match=r"^'toy.triple' has no cost \(infs.sim.sram.timing.COSTS\)$"):
        Machine("small-16").run(prog, {0: A.copy(), 1: np.zeros((8, 8), np.int32)})

    # and its cost: covered, and it runs
    monkeypatch.setitem(timing.COSTS, TOY, _toy_cost)
    sim_machine.check_command_coverage(commands)
    B = np.zeros((8, 8), np.int32)
    st = Machine("small-16").run(prog, {0: A.copy(), 1: B})
    np.testing.assert_array_equal(B, 3 * (A + A))
    assert st.commands["triple"] == 1 and st.element_ops >= 64
    base = Machine("small-16").run(prog.with_cmds([c for c in prog.cmds if c is not toy]), {0: A.copy(), 1: np.zeros((8, 8), np.int32)})
    assert st.cycles["compute"] == base.cycles["compute"] + 64

    # the passes need nothing new: its facts give it banks and wordlines
    assert map_banks(prog).cmds[prog.cmds.index(toy)].get("banks") is not None
    virt = PimProgram(
        arg_types=[MemRefType(i32, [8])], config="unit", lattice=(8,), tiles=(4,), banks=1, per_bank=2, wordlines=256, virtual=True,
        cmds=[Cmd(K.ARRAY, dict(arr=0, shape=(8,), wordline=0, transposed=True)),
              Cmd(TOY, dict(type="i32", dst=1, src=0, bitlines=Pattern.range(0, 4), tiles=Pattern.range(0, 2)))],
    )  # fmt: skip
    arr, got = allocate_wordlines(virt).cmds
    assert got["src"] == arr["wordline"] == 0 and got["dst"] == 32
