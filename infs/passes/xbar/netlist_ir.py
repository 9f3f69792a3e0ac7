"""Synthesized netlists between IR and plain data, for the ``xbar`` passes.

Takes and gives ``hw.module`` ops holding ``xbar.or`` (an ``Oig``) or
``xbar.sop`` (a ``Netlist`` of ``sop`` gates) ops, and the errors of the
synthesis as ``LoweringError`` lines naming the module.
"""

from __future__ import annotations

from xdsl.dialects import hw
from xdsl.ir import SSAValue

from infs.dialects import xbar
from infs.dialects.netlist_records import Gate, Netlist
from infs.passes.lowering_errors import LoweringError
from infs.passes.xbar.synthesis import Oig, OigNode


def oig_to_hw(oig: Oig) -> hw.HWModuleOp:
    """``oig``'s nodes as ``xbar.or`` ops in an ``hw.module`` with its ports."""
    module, block = xbar._module_shell(oig.name, oig.inputs, oig.output_names)
    values: dict[str, SSAValue] = dict(zip(oig.inputs, block.args))
    for node in oig.nodes:
        op = xbar.OrOp([values[s] for s, _ in node.operands], [n for _, n in node.operands], node.inverted)
        op.result.name_hint = xbar._hint(node.name)
        block.add_op(op)
        values[node.name] = op.result
    block.add_op(hw.OutputOp([values[s] for s in oig.outputs]))
    return module


def mll_to_hw(net: Netlist, output_names: tuple[str, ...] | None = None) -> hw.HWModuleOp:
    """``net``'s ``sop`` gates as ``xbar.sop`` ops; its outputs are signals, ``output_names`` the ports' names."""
    module, block = xbar._module_shell(net.name, net.inputs, output_names or net.outputs)
    values: dict[str, SSAValue] = dict(zip(net.inputs, block.args))
    for g in net.gates:
        op = xbar.SopOp([values[f] for f in g.fanins], g.cubes, g.offset)
        op.result.name_hint = xbar._hint(g.name)
        block.add_op(op)
        values[g.name] = op.result
    block.add_op(hw.OutputOp([values[o] for o in net.outputs]))
    return module


def module_kind(module: hw.HWModuleOp) -> str:
    """'oig' (xbar.or ops), 'mll' (xbar.sop ops), 'comb' (anything else) or 'empty' (no node: the
    outputs are inputs, or there are none; it maps alike in both styles)."""
    kinds = {type(op) for op in module.body.block.ops} - {hw.OutputOp}
    if not kinds:
        return "empty"
    if kinds and kinds <= {xbar.OrOp}:
        return "oig"
    if kinds and kinds <= {xbar.SopOp}:
        return "mll"
    if kinds & {xbar.OrOp, xbar.SopOp}:
        raise LoweringError.about(module, "mixes xbar.or (STREAM-O) and xbar.sop (STREAM-M) nodes with other ops")
    return "comb"


def hw_to_oig(module: hw.HWModuleOp) -> Oig:
    ins, outs = xbar._port_names(module)
    block = module.body.block
    names: dict[SSAValue, str] = dict(zip(block.args, ins))
    nodes: list[OigNode] = []
    out_signals: list[str] = []
    for k, op in enumerate(block.ops):
        if isinstance(op, hw.OutputOp):
            out_signals = [names[v] for v in op.operands]
            continue
        assert isinstance(op, xbar.OrOp)
        name = f"#{k}"
        names[op.result] = name
        nodes.append(OigNode(name, tuple((names[v], n) for v, n in zip(op.ins, op.negations)), bool(op.inverted)))
    return Oig(module.sym_name.data, tuple(ins), tuple(out_signals), tuple(outs), tuple(nodes))


def hw_to_mll(module: hw.HWModuleOp) -> tuple[Netlist, tuple[str, ...]]:
    """The node netlist (its outputs are signal names) and the primary outputs' names."""
    ins, outs = xbar._port_names(module)
    block = module.body.block
    names: dict[SSAValue, str] = dict(zip(block.args, ins))
    gates: list[Gate] = []
    out_values: list[SSAValue] = []
    for k, op in enumerate(block.ops):
        if isinstance(op, hw.OutputOp):
            out_values = list(op.operands)
            continue
        assert isinstance(op, xbar.SopOp)
        names[op.result] = f"#{k}"
        gates.append(Gate(f"#{k}", "sop", tuple(names[v] for v in op.ins), op.cube_strings, bool(op.complemented)))
    # primary outputs as signals: map_mll reads net.outputs as signal names
    return Netlist(module.sym_name.data, tuple(ins), tuple(names[v] for v in out_values), tuple(gates)), tuple(outs)
