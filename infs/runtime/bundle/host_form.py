"""A module's host functions as data (the host section of a bundle).

Takes an xDSL module whose functions run on the host (func/scf/arith/math/
memref around ``stream.region``, ``tdfg.graph`` or ``pimcmd.program`` ops) and
gives plain JSON-able values (docs/bundles.md, section "host"): per function
its signature, the type of each SSA value (numbered from 0) and its ops as
``{"op": name, "in": [values], "out": [values], "line": n, ...}`` with their
regions' blocks nested; f32/f64 constants as the hex bits of their value in
the type, so they are exact; each offloaded op an ``offload`` call
(kind, its index among the ops of that kind, how many of its operands are
arrays).  ``host_program.compile_host`` turns the data back into a program.

This is the only module of ``infs.runtime.bundle`` that imports xDSL.  An op
the host cannot run (``infs.runtime.host`` would stop on it) is refused here,
in one ``BundleError`` line naming the op and its line -- never at run time.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    Signedness,
    UnrealizedConversionCastOp,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from infs.runtime.bundle.errors import BundleError
from infs.runtime.bundle.host_values import HOST_FORMAT, OPS, dtype_of
from infs.runtime.scalar_ops import op_label

_OFFLOADS = {"stream.region": "region", "tdfg.graph": "graph", "pimcmd.program": "program"}
_STRUCTURED = {"scf.for", "scf.if", "scf.while", "scf.index_switch"}


def type_data(t: Attribute, what: str) -> Any:
    """A type as the data form spells it (host_values' ``check_type``)."""
    if isinstance(t, IndexType):
        return "index"
    if isinstance(t, IntegerType) and t.signedness.data == Signedness.SIGNLESS:
        return f"i{t.width.data}"
    if isinstance(t, (Float16Type, Float32Type, Float64Type)):
        return f"f{t.bitwidth}"
    if isinstance(t, MemRefType):
        elem = type_data(t.element_type, what)
        if not isinstance(elem, str) or dtype_of(elem) is None:
            raise BundleError(f"{what}: a memref of {t.element_type} (no numpy type) is not supported on the host")
        if t.layout is not None and not _identity_layout(t):
            raise BundleError(f"{what}: a memref with layout {t.layout} is not supported on the host")
        return ["memref", [int(s) if s >= 0 else -1 for s in t.get_shape()], elem]
    raise BundleError(f"{what}: type {t} is not supported on the host")


def _identity_layout(t: MemRefType) -> bool:
    from xdsl.dialects.builtin import NoneAttr

    return isinstance(t.layout, NoneAttr)


class _Function:
    def __init__(self, fn: func.FuncOp, offloads: dict[str, list[Operation]]):
        self.fn = fn
        self.offloads = offloads
        self.slots: dict[SSAValue, int] = {}
        self.types: list[Any] = []

    def slot(self, v: SSAValue, what: str) -> int:
        if v not in self.slots:
            self.slots[v] = len(self.types)
            self.types.append(type_data(v.type, what))
        return self.slots[v]

    def uses(self, vs, what: str) -> list[int]:
        out = []
        for v in vs:
            if v not in self.slots:  # a value from outside the function (cannot be in valid IR)
                raise BundleError(f"{what}: uses a value not defined in @{self.fn.sym_name.data}")
            out.append(self.slots[v])
        return out

    def region(self, r: Region, what: str) -> dict | None:
        blocks = list(r.blocks)
        if not blocks:
            return None
        if len(blocks) > 1:
            first = blocks[0].last_op
            raise BundleError(f"{op_label(first) if first else what}: a region of {len(blocks)} blocks (branches) is not supported on the host")
        return self.block(blocks[0], what)

    def block(self, b: Block, what: str) -> dict:
        args = [self.slot(a, what) for a in b.args]
        return {"args": args, "ops": [self.op(op) for op in b.ops]}

    def op(self, op: Operation) -> dict:
        label = op_label(op)
        name = op.name
        d: dict[str, Any] = {"op": name}
        if name in _OFFLOADS:
            kind = _OFFLOADS[name]
            d = {"op": "offload", "name": name, "kind": kind, "index": len(self.offloads[kind]), "arrays": len(op.arrays)}
            self.offloads[kind].append(op)
            if any(isinstance(x.type, MemRefType) for x in op.operands[len(op.arrays) :]):
                raise BundleError(f"{label}: a memref among its scalars is not supported on the host")
        elif isinstance(op, UnrealizedConversionCastOp):
            if [o.type for o in op.operands] != [r.type for r in op.results]:
                raise BundleError(f"{label} between different types is not supported on the host")
            d = {"op": "cast", "name": name}
        elif name not in OPS:
            raise BundleError(f"{label} is not supported on the host")
        d["in"] = self.uses(op.operands, label)
        loc = op.location
        line = getattr(getattr(loc, "line", None), "data", None)
        if isinstance(line, int):
            d["line"] = line
        self.attributes(op, d, label)
        if name in _STRUCTURED:
            regions = []
            for k, r in enumerate(op.regions):
                regions.append(self.region(r, label))
            if name == "scf.index_switch":
                regions = regions[1:] + regions[:1]  # the cases, then the default
            d["regions"] = regions
        elif op.regions and name not in _OFFLOADS:
            raise BundleError(f"{label} with regions is not supported on the host")
        if op.results:
            d["out"] = [self.slot(r, label) for r in op.results]
        return d

    def attributes(self, op: Operation, d: dict, label: str) -> None:
        if isinstance(op, arith.ConstantOp):
            v = op.value
            if isinstance(v, FloatAttr):
                dt = dtype_of(type_data(v.type, label))
                value = dt.type(v.value.data)
                d["bits"] = hex(int(np.asarray(value).view(f"u{dt.itemsize}")))
            elif isinstance(v, IntegerAttr):
                w = 64 if isinstance(v.type, IndexType) else v.type.width.data
                raw = int(v.value.data)
                # wrapped to its width, as host.HostFloatArith.run_constant
                d["value"] = (raw + (1 << (w - 1))) % (1 << w) - (1 << (w - 1)) if w > 1 else raw
            else:
                raise BundleError(f"{label} of type {op.result.type} is not supported on the host (it runs scalar arith)")
        elif isinstance(op, arith.CmpiOp):
            d["predicate"] = op.predicate.value.data
        elif isinstance(op, arith.CmpfOp):
            d["predicate"] = arith.CMPF_COMPARISON_OPERATIONS[op.predicate.value.data]
        elif isinstance(op, func.CallOp):
            d["callee"] = op.callee.root_reference.data
            if op.callee.nested_references.data:
                raise BundleError(f"{label} of a nested symbol is not supported on the host")
        elif isinstance(op, scf.IndexSwitchOp):
            d["cases"] = [int(c) for c in op.cases.get_values()]
        elif name_is(op, "memref.get_global"):
            d["name"] = op.name_.root_reference.data


def name_is(op: Operation, name: str) -> bool:
    return op.name == name


def _globals(module: ModuleOp) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for g in module.walk():
        if g.name != "memref.global":
            continue
        name = g.sym_name.data
        t = type_data(g.type, f"'memref.global' @{name}")
        if any(s < 0 for s in t[1]):
            raise BundleError(f"'memref.global' @{name} of dynamic shape is not supported on the host")
        init = g.initial_value
        entry: dict[str, Any] = {"type": t}
        if isinstance(init, DenseIntOrFPElementsAttr):
            vals = np.asarray(init.get_values(), dtype=dtype_of(t[2]))
            entry["init"] = vals.astype(vals.dtype.newbyteorder("<")).tobytes().hex()
        out[name] = entry
    return out


def host_data(module: ModuleOp) -> tuple[dict[str, Any], dict[str, list[Operation]]]:
    """The host section of ``module`` and, per offload kind, its ops in index
    order (what the executors of ``HostProgram.run`` receive the index of)."""
    offloads: dict[str, list[Operation]] = {k: [] for k in _OFFLOADS.values()}
    functions = []
    for fn in module.walk():
        if not isinstance(fn, func.FuncOp):
            continue
        f = _Function(fn, offloads)
        where = f"@{fn.sym_name.data}"
        ins = [type_data(t, where) for t in fn.function_type.inputs.data]
        outs = [type_data(t, where) for t in fn.function_type.outputs.data]
        entry: dict[str, Any] = {
            "name": fn.sym_name.data,
            "public": fn.sym_visibility is None or fn.sym_visibility.data == "public",
            "args": ins,
            "results": outs,
        }
        if fn.body.blocks:
            entry["body"] = f.region(fn.body, where)
            entry["arg_names"] = [a.name_hint for a in fn.body.blocks.first.args]
        else:
            entry["body"] = None
            entry["arg_names"] = [None] * len(ins)
        entry["values"] = f.types
        functions.append(entry)
    return {"format": HOST_FORMAT, "functions": functions, "globals": _globals(module)}, offloads


def bundle_sections(module: ModuleOp, name: str | None = None, entry: str | None = None) -> tuple[dict[str, Any], dict[str, list[Operation]]]:
    """The sections of a bundle of ``module`` ("program", "host" and, when the host code
    calls graphs, "regions": each graph's record; docs/bundles.md) and the offloaded ops
    by kind, in index order."""
    from infs.dialects.tdfg_ir_records import from_graph
    from infs.passes.lowering_errors import where
    from infs.runtime.bundle.executor import regions_data

    host, offloads = host_data(module)
    sections: dict[str, Any] = {"program": {"name": name, "entry": entry}, "host": host}
    if offloads["graph"]:
        sections["regions"] = regions_data([from_graph(g, where(g)) for g in offloads["graph"]])
    return sections, offloads


def runnable_sections(module: ModuleOp, name: str | None = None, entry: str | None = None) -> dict[str, Any]:
    """``bundle_sections`` of a module whose every offload ``infs-run`` can run from the
    bundle (graphs: a program tensorized ahead of time); a ``stream.region`` or
    ``pimcmd.program`` left in the host code is refused in one line naming it."""
    sections, offloads = bundle_sections(module, name, entry)
    for kind, what, how in (("region", "stream.region", "tensorize it first (--tensorize)"), ("program", "pimcmd.program", "emit the bundle before --lower-pim")):
        if offloads[kind]:
            op = offloads[kind][0]
            raise BundleError(f"{op_label(op)}: a {what} in the host code: a bundle holds tDFG graphs: {how}")
    return sections
