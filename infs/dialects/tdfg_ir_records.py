"""``tdfg.graph`` IR to its record form (``infs.dialects.tdfg_records``).

Takes: a ``tdfg.graph`` op (verified).  Gives: its ``GraphRecord`` (``from_graph``),
read off the IR once: xDSL property reads and ``isinstance`` on op classes
dominated the lowering of small graphs, and the record is what the lowering
algorithms, the JIT and a bundle's ``regions`` section hold.  The one direction
that needs xDSL lives here, beside the op definitions it reads.
"""

from __future__ import annotations

from xdsl.dialects.builtin import DenseArrayBase, FileLineColLoc, FloatAttr, IndexType, IntegerAttr, MemRefType
from xdsl.ir import Attribute

from infs.dialects import tdfg
from infs.dialects.pimcmd_records import ArrayType
from infs.dialects.tdfg_records import KINDS, GraphRecord, Node

_KIND_OF = {op.name: KINDS[op.name] for op in tdfg.TDFG.operations if op.name in KINDS}


def type_name(t: Attribute) -> str:
    """A scalar or element type's name as the records spell it (``index``, ``f32``, ``i1``...)."""
    return "index" if isinstance(t, IndexType) else str(t)


def array_type(t: Attribute) -> ArrayType:
    """A memref type as a record's ``ArrayType`` (a dynamic dim is -1)."""
    assert isinstance(t, MemRefType)
    return ArrayType(str(t.element_type), tuple(int(s) if s >= 0 else -1 for s in t.get_shape()))


def _elem(t: Attribute) -> str:
    return str(t.element_type) if isinstance(t, tdfg.TensorType) else type_name(t)


def from_graph(graph: tdfg.GraphOp, label: str | None = None) -> GraphRecord:
    """The record of ``graph`` (``label``: what errors call it; default "the tdfg.graph")."""
    ops = list(graph.body.block.ops)
    args = graph.array_args
    scalars = graph.scalar_args
    vid = {r: k for k, r in enumerate(r for op in ops for r in op.results)}
    nodes = []
    for op in ops:
        kind = _KIND_OF[op.name]
        n = Node(kind, vid[op.results[0]] if op.results else -1)
        if op.results:
            n.elem = _elem(op.results[0].type)
        if kind is KINDS["tdfg.tensor"]:
            n.domain, n.arr = op.domain.data, args.index(op.array)
        elif kind is KINDS["tdfg.const"]:
            if op.scalar is not None:
                n.scalar = scalars.index(op.scalar)
            else:
                v = op.value
                n.num = float(v.value.data) if isinstance(v, FloatAttr) else int(v.value.data)
        elif kind is KINDS["tdfg.cmp"]:
            n.ins = tuple(vid[v] for v in op.inputs)
            n.name = op.op.data
            n.in_elems = tuple(_elem(v.type) for v in op.inputs)
            n.in_elem = n.in_elems[-1] if n.in_elems else ""
        elif kind is KINDS["tdfg.mv"]:
            n.ins, n.dim, n.dist = (vid[op.input],), op.dim.value.data, op.dist.data
        elif kind is KINDS["tdfg.bc"]:
            n.ins, n.dim, n.dist, n.count = (vid[op.input],), op.dim.value.data, op.dist.data, op.count.data
        elif kind is KINDS["tdfg.shrink"]:
            n.ins, n.dim, n.domain = (vid[op.input],), op.dim.value.data, op.range.data
        elif kind is KINDS["tdfg.reduce"]:
            n.ins, n.dim, n.name = (vid[op.input],), op.dim.value.data, op.kind.data
        elif kind is KINDS["tdfg.stream_load"]:
            n.ins, n.arr, n.domain = tuple(vid[v] for v in op.indices), args.index(op.array), op.domain.data
            n.map, n.indirect = op.map.data, tuple(int(p) for p in op.indirect_dims.get_values())
        elif kind is KINDS["tdfg.stream_reduce"]:
            n.ins, n.name, n.dims = (vid[op.input],), op.kind.data, op.dims_list()
            n.tensor_result = isinstance(op.result.type, tdfg.TensorType)
        elif kind is KINDS["tdfg.stream_store"]:
            n.ins, n.arr, n.name = (vid[op.value], *(vid[v] for v in op.indices)), args.index(op.array), op.kind.data
            n.map, n.indirect = op.map.data, tuple(int(p) for p in op.indirect_dims.get_values())
        elif kind is KINDS["tdfg.store"]:
            n.ins, n.arr = (vid[op.value],), args.index(op.array)
            n.near_value = isinstance(op.value.owner, (tdfg.StreamReduceOp, tdfg.StreamLoadOp))
        elif kind is KINDS["tdfg.yield"]:
            n.ins = tuple(vid[v] for v in op.values)
        nodes.append(n)
    return GraphRecord(
        rank=graph.lattice_rank,
        arrays=tuple(array_type(a.type) for a in args),
        scalar_names=graph.names,
        scalar_types=tuple(type_name(v.type) for v in scalars),
        nodes=tuple(nodes),
        result_types=tuple(type_name(r.type) for r in graph.res),
        array_names=tuple(a.name_hint for a in args),
        hints=_hints(graph),
        label=label or "the tdfg.graph",
        line=graph.location.line.data if isinstance(graph.location, FileLineColLoc) else None,
    )


def _hints(graph: tdfg.GraphOp) -> dict:
    out: dict = {}
    if graph.hints is None:
        return out
    for key, val in graph.hints.data.items():
        if isinstance(val, DenseArrayBase):
            out[key] = tuple(int(d) for d in val.get_values())
        elif isinstance(val, IntegerAttr):
            out[key] = val.value.data
    return out
