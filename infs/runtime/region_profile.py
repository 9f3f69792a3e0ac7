"""Profile a ``stream.region`` at concrete sizes for the near-memory and core cost models.

``profile_region(region, arrays, scalars)`` returns an ``infs.sim.workload_profile.RegionProfile``:
iteration count, one ``StreamProfile`` per memory stream, compute ops by
class and the reductions.  Everything is closed-form on the access maps and
the arrays' shapes -- no loop and no array over the iteration domain, and no
look at the arrays' contents (costs are data-independent, like the in-memory
simulator's): a 4M-element region profiles in well under a millisecond.

Counting rules:

* a value *varies* along a dim when an access map of a load it derives from
  uses that dim (or its index stream varies along it); reductions remove
  their dims.  A compute body runs once per point of the dims its stream
  inputs vary along (once in all when it has none: it is hoisted);
* ``ops`` counts each compute-body op and each reduction once per iteration
  (the static mix); ``op_totals`` counts the element ops actually executed:
  each op times the points it runs at, each reduction once per folded
  element;
* a load's ``accesses`` is the iteration count; a store's is its write
  points (a reduced value is written once per result, as the reference
  evaluator does); ``elements`` is the number of distinct cells: the product
  of the extents of the dims the map moves along when the map is injective on
  them (every workload's maps are), else the tighter of that product and the
  product of each index's distinct values;
* ``lines`` (affine): the dims the access moves along, sorted by address
  step, are merged while each step equals the span below it (a full row
  continues the previous one); the other dims repeat that run.  Up to 65,536
  runs the lines are counted exactly (the union of the runs' line ranges,
  ``workload_profile.affine_line_ranges``); beyond, each run covers the lines
  of its byte span with the first run's alignment (or ``count`` lines when its
  elements are a line or more apart);
* indirect streams: ``elements`` is at most the cells reachable (the array's
  cells over the indirect dims times the affine part's); ``run`` elements
  share one line request when the innermost dim walks the array contiguously
  and the index stream does not vary along it; ``lines`` counts requests;
* a pointer chase (``stream.chase``): its length is data, the one thing the
  profile reads of the contents -- it runs the region's reference on copies of
  the arrays and counts the steps of every chain (``chase_stats``).  Each
  field is an indirect load stream of one request per step (``accesses`` =
  ``lines`` = all chains' steps) with ``chase_depth``, the longest chain's
  steps; the body's ops run once per step.  Where the walk fails (a cycle,
  a pointer outside the fields: the run reports it when it evaluates the
  region; timing-only runs have no such values) each chain counts one step;
* a claim (``stream.claim``) is an atomic stream (kind ``claim``) of a
  request per point its filter holds at; it, and an atomic min/max returning
  ``changed``, count the requests that changed their cell (``changes``, off
  the same reference run as a filter's points); ``stream.count`` is an add
  per point;
* a filtered store or atomic (``if %m``): which points write is data too, read
  off the same reference run; its ``accesses`` are the points that wrote,
  ``filtered`` the points asked, ``elements`` and ``lines`` at most the
  writes (an indirect stream's requests scaled by the share that wrote).
  Where the reference cannot run, every point counts as a write.
"""

from __future__ import annotations

import dataclasses
import math
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import IndexType, MemRefType
from xdsl.ir import SSAValue

from infs.dialects import stream
from infs.dialects.lattice import LatticeError, dim_index
from infs.runtime.reference import evaluate_region
from infs.runtime.scalar_ops import EvaluationError, numpy_dtype
from infs.sim.workload_profile import OP_CLASSES, ReductionProfile, RegionProfile, StreamProfile, affine_line_count, zero_ops

LINE_BYTES = 64  # default cache line (HardwareConfig.line_bytes)

# arith/math op name -> class.  Constants are free; unknown ops are "other".
OP_CLASS: dict[str, str] = {
    **dict.fromkeys(
        ("arith.addi", "arith.subi", "arith.andi", "arith.ori", "arith.xori", "arith.shli", "arith.shrsi", "arith.shrui"),
        "int_add",
    ),
    "arith.muli": "int_mul",
    **dict.fromkeys(("arith.addf", "arith.subf", "arith.negf"), "fp_add"),
    "arith.mulf": "fp_mul",
    **dict.fromkeys(
        ("arith.divf", "arith.remf", "arith.divsi", "arith.divui", "arith.remsi", "arith.remui", "arith.ceildivsi", "arith.floordivsi"),
        "fp_div",
    ),
    **dict.fromkeys(
        (
            "arith.cmpi", "arith.cmpf", "arith.select", "arith.maxsi", "arith.minsi", "arith.maxui", "arith.minui",
            "arith.maximumf", "arith.minimumf", "arith.maxnumf", "arith.minnumf",
        ),
        "cmp_select",
    ),  # fmt: skip
}
FREE_OPS = ("arith.constant", "stream.yield")
# math.fma is one multiply and one add.
MULTI_CLASS = {"math.fma": ("fp_mul", "fp_add")}


def _classes(opname: str) -> tuple[str, ...]:
    if opname in FREE_OPS:
        return ()
    if opname in MULTI_CLASS:
        return MULTI_CLASS[opname]
    return (OP_CLASS.get(opname, "other"),)


def _reduce_class(kind: str, is_float: bool) -> str:
    if kind == "add":
        return "fp_add" if is_float else "int_add"
    if kind == "mul":
        return "fp_mul" if is_float else "int_mul"
    return "cmp_select"  # min, max, argmin, argmax


def _prod(xs) -> int:
    return int(math.prod(int(x) for x in xs))


class _Static:
    """What the profile reads of a region that no argument changes -- its ops,
    access maps, classes and live dims -- read once per region (``_static``): a
    host loop profiles the same region at every iteration."""

    def __init__(self, region: stream.RegionOp):
        self.region = region
        self.domain = region.iteration_domain
        self.n_arrays, self.n_scalars = len(region.arrays), len(region.scalars)
        self.index_scalars = [(i, n) for i, (n, s) in enumerate(zip(region.names, region.scalars)) if isinstance(s.type, IndexType)]
        self.arg_index = {a: i for i, a in enumerate(region.array_args)}
        self.elem_bytes = []
        for operand in region.arrays:
            assert isinstance(operand.type, MemRefType)
            self.elem_bytes.append(int(numpy_dtype(operand.type.element_type).itemsize))
        self.names = []
        for i, (operand, arg) in enumerate(zip(region.arrays, region.array_args)):
            self.names.append(operand.name_hint or arg.name_hint or f"arg{i}")
        self.iterators = region.iterator_kinds
        all_dims = frozenset(range(self.domain.rank))
        self.steps: list[tuple] = []
        for op in region.body.block.ops:
            if isinstance(op, stream.LoadOp):
                self.steps.append(("load", op.result, op.access_map().dims_used(), tuple(op.indices), self.access(op)))
            elif isinstance(op, (stream.StoreOp, stream.AtomicOp, stream.ClaimOp)):
                live = stream.live_dims(op.value, region)
                kind = "store" if isinstance(op, stream.StoreOp) else "atomic"
                reduced = isinstance(op.value.owner, stream.ReduceOp) or live != all_dims
                atomic = "claim" if isinstance(op, stream.ClaimOp) else op.kind.data if kind == "atomic" else None
                result = op.won if isinstance(op, stream.ClaimOp) else op.changed if isinstance(op, stream.AtomicOp) else None
                # (a claim's requests are the points its filter holds at; a claim, or an atomic returning
                # whether it changed its cell, counts the requests that changed it: the reference's)
                filtered = op if op.mask is not None or result is not None else None
                self.steps.append((kind, live, reduced, tuple(op.indices), self.access(op), atomic, filtered, result))
            elif isinstance(op, stream.CountOp):
                self.steps.append(("compute", op.result, (op.mask,), ["int_add"]))  # a running count: one add per point
            elif isinstance(op, stream.ComputeOp):
                ins = tuple(v for v in op.inputs if isinstance(v.type, stream.StreamType))
                classes = [cls for inner in op.body.block.ops for cls in _classes(inner.name)]
                self.steps.append(("compute", op.result, ins, classes))
            elif isinstance(op, stream.ChaseOp):
                ins = tuple(v for v in (op.start, *op.inputs) if isinstance(v.type, stream.StreamType))
                classes = [cls for inner in op.body.block.ops for cls in _classes(inner.name)]
                fields = tuple((self.arg_index[f], (0,), [(0, {}, [])]) for f in op.fields)
                self.steps.append(("chase", op.result, ins, classes, fields, op))
            elif isinstance(op, stream.ReduceOp):
                ety = stream.elem_type(op.input.type)
                rty = stream.elem_type(op.result.type)
                cls = _reduce_class(op.kind.data, numpy_dtype(ety).kind == "f")
                scalar = not isinstance(op.result.type, stream.StreamType)
                self.steps.append(("reduce", op.result, op.input, tuple(op.dims_list()), op.kind.data, cls, int(numpy_dtype(rty).itemsize), scalar))
            else:  # region-level scalar arith (constants, symbol arithmetic) and the yield
                self.steps.append(("other", tuple(op.results)))

    def access(self, op) -> tuple:
        """(array, indirect array dims, per array dim: (constant, {iteration dim:
        coefficient}, [(symbol, coefficient)]) -- indirect dims give (0, {}, []))."""
        ind = tuple(op.indirect_positions())
        parts = []
        for j, e in enumerate(op.access_map().results):
            if j in ind:
                parts.append((0, {}, []))
                continue
            coeffs: dict[int, int] = {}
            syms = []
            for n, c in e.terms:
                d = dim_index(n)
                if d is None:
                    syms.append((n, c))
                else:
                    coeffs[d] = coeffs.get(d, 0) + c
            parts.append((e.const, {d: c for d, c in coeffs.items() if c}, syms))
        return self.arg_index[op.array], ind, parts


# regions read by ``_static``, by identity (LRU): a region op is read as it is when
# first profiled -- after editing one in place, ``forget_region`` it
_STATIC: OrderedDict[int, _Static] = OrderedDict()
STATIC_REGIONS = 256


def _static(region: stream.RegionOp) -> _Static:
    hit = _STATIC.get(id(region))
    if hit is not None and hit.region is region:
        _STATIC.move_to_end(id(region))
        return hit
    st = _STATIC[id(region)] = _Static(region)
    if len(_STATIC) > STATIC_REGIONS:
        _STATIC.popitem(last=False)
    return st


def forget_region(region: stream.RegionOp | None = None) -> None:
    """Drop what ``profile_region`` read of ``region`` (of every region by default)."""
    if region is None:
        _STATIC.clear()
    else:
        _STATIC.pop(id(region), None)


class _Profiler:
    def __init__(self, region: stream.RegionOp, arrays: Sequence[np.ndarray], scalars: Sequence[object], line_bytes: int = LINE_BYTES):
        self.line = int(line_bytes)
        st = self.static = _static(region)
        if len(arrays) != st.n_arrays or len(scalars) != st.n_scalars:
            raise EvaluationError(
                f"stream.region takes {st.n_arrays} arrays and {st.n_scalars} scalars, got {len(arrays)} and {len(scalars)}"
            )
        self.region = region
        self.env = {n: int(np.asarray(scalars[i]).item()) for i, n in st.index_scalars}
        try:
            box = st.domain.evaluate(self.env)
        except LatticeError as e:
            raise EvaluationError(str(e)) from None
        self.lows = tuple(p for p, _ in box)
        self.extents = tuple(max(0, q - p) for p, q in box)
        self.rank = len(self.extents)
        self.iterations = _prod(self.extents) if self.rank else 1
        self.shapes = [tuple(int(x) for x in np.shape(a)) for a in arrays]
        self.elem_bytes = st.elem_bytes
        self.names = st.names
        self.vary: dict[SSAValue, frozenset[int]] = {}
        self.arrays, self.scalars = arrays, scalars
        self._chases: dict | None = None
        self._filters: dict = {}

    def _run_reference(self) -> None:
        """The region's reference on copies of its arrays, once: what a chase's
        chains and a filter's points are with these arguments (module docstring)."""
        if self._chases is None:
            self._chases, self._filters = {}, {}
            try:
                evaluate_region(self.region, [np.array(a, copy=True) for a in self.arrays], self.scalars, chase_stats=self._chases, filter_stats=self._filters)
            except (EvaluationError, MemoryError):
                self._chases, self._filters = {}, {}

    def filter_stats(self, op) -> tuple[int, int] | None:
        """(points a filtered store/atomic wrote at, points it was asked at), or
        None where the reference could not run (then it counts every point)."""
        self._run_reference()
        got = self._filters.get(op)
        return None if got is None else (int(got[0]), int(got[1]))

    def chase_stats(self, op: stream.ChaseOp) -> tuple[int, int]:
        """(steps of all chains, steps of the longest) of ``op`` with these
        arguments: the region's reference on copies of its arrays (module docstring)."""
        self._run_reference()
        got = self._chases.get(op)
        if got is None:
            return self.iterations, 1 if self.iterations else 0
        return int(got[0]), int(got[1])

    # -- helpers ---------------------------------------------------------------
    def points(self, dims) -> int:
        return _prod(self.extents[d] for d in dims) if dims else 1

    def varying(self, v: SSAValue) -> frozenset[int]:
        return self.vary.get(v, frozenset())

    def affine_parts(self, parts) -> list[tuple[int, dict[int, int]]]:
        """Per array dim: (constant, {iteration dim: coefficient}) with symbols bound;
        indirect dims give (0, {})."""
        out = []
        for const, coeffs, syms in parts:
            for n, c in syms:
                if n not in self.env:
                    raise EvaluationError(f"symbol '{n}' is not bound")
                const += c * self.env[n]
            out.append((const, coeffs))
        return out

    # -- streams ---------------------------------------------------------------
    def memory_stream(self, kind: str, access: tuple, indices: tuple, live: frozenset[int] = frozenset(), reduced: bool = False,
                      atomic: str | None = None) -> StreamProfile:  # fmt: skip
        a, ind, static_parts = access
        shape, eb = self.shapes[a], self.elem_bytes[a]
        rank = len(shape)
        row = [_prod(shape[j + 1 :]) for j in range(rank)]
        parts = self.affine_parts(static_parts)
        strides = [0] * self.rank
        offset = 0
        for j, (const, coeffs) in enumerate(parts):
            first = const + sum(c * self.lows[d] for d, c in coeffs.items())
            offset += first * row[j]
            for d, c in coeffs.items():
                strides[d] += c * row[j]
        # dims of extent 1 do not move the access
        strides = [s if self.extents[d] > 1 else 0 for d, s in enumerate(strides)]
        moving = [d for d in range(self.rank) if strides[d] != 0]
        index_vary = frozenset().union(*(self.varying(v) for v in indices)) if indices else frozenset()
        accesses = self.iterations if kind == "load" else self.points(sorted(live))
        base = dict(kind=kind, array=a, name=self.names[a], elem_bytes=eb, array_shape=shape, accesses=accesses,
                    offset=int(offset), strides=tuple(int(s) for s in strides), atomic=atomic, reduced=reduced)  # fmt: skip
        if accesses == 0:
            return StreamProfile(elements=0, lines=0, indirect=bool(ind), indirect_dims=ind, **base)
        if not ind:
            elements = self.distinct_cells(parts, moving)
            lines = self.affine_lines(offset, strides, eb, elements)
            return StreamProfile(elements=elements, lines=lines, **base)
        # indirect: reachable cells bound the distinct ones
        affine_cells = self.distinct_cells(parts, moving)
        reach = _prod(shape[j] for j in ind) * affine_cells
        elements = min(accesses, reach, _prod(shape))
        run = 1
        if self.rank:
            k = self.rank - 1
            if abs(strides[k]) == 1 and k not in index_vary:
                run = max(1, min(self.extents[k], self.line // eb))
        per_outer = self.extents[-1] if self.rank else 1
        lines = (accesses // per_outer) * math.ceil(per_outer / run) if run > 1 else accesses
        return StreamProfile(elements=elements, lines=lines, indirect=True, indirect_dims=ind, run=run, **base)

    @staticmethod
    def filtered(sp: StreamProfile, wrote: int, asked: int) -> StreamProfile:
        """A filtered write stream that wrote at ``wrote`` of its ``asked``
        points: only those send a request (NSC §III-B's predication: the
        filter runs at the bank, a false element issues nothing).  Affine
        lines are at most the writes; an indirect stream's requests scale with
        them."""
        if not asked:
            return sp
        lines = min(sp.lines, wrote) if not sp.indirect else -(-sp.lines * wrote // asked)
        return dataclasses.replace(sp, accesses=wrote, elements=min(sp.elements, wrote), lines=lines, filtered=asked)

    def distinct_cells(self, parts, moving) -> int:
        box = self.points(moving)
        dims_seen: list[int] = []
        injective = True
        per_index = 1
        for _const, coeffs in parts:
            if len(coeffs) > 1:
                injective = False
            dims_seen.extend(coeffs)
            if not coeffs:
                continue
            if len(coeffs) == 1:
                (d,) = coeffs
                per_index *= self.extents[d]
            else:
                g = math.gcd(*coeffs.values())
                span = sum(abs(c) * (self.extents[d] - 1) for d, c in coeffs.items())
                per_index *= min(self.points(coeffs), span // g + 1)
        if len(set(dims_seen)) != len(dims_seen):
            injective = False
        return box if injective else min(box, per_index)

    def affine_lines(self, offset: int, strides: Sequence[int], eb: int, elements: int) -> int:
        return min(affine_line_count(offset, strides, self.extents, eb, self.line), elements)

    # -- the region -------------------------------------------------------------
    def run(self) -> RegionProfile:
        streams: list[StreamProfile] = []
        ops = zero_ops()
        totals = zero_ops()
        reductions: list[ReductionProfile] = []
        for step in self.static.steps:
            what = step[0]
            if what == "load":
                _, result, used, indices, access = step
                idx = frozenset().union(*(self.varying(v) for v in indices)) if indices else frozenset()
                self.vary[result] = frozenset(d for d in used | idx if self.extents[d] > 1) if self.rank else frozenset()
                streams.append(self.memory_stream("load", access, indices))
            elif what in ("store", "atomic"):
                _, live, reduced, indices, access, atomic, filtered, result = step
                sp = self.memory_stream(what, access, indices, live, reduced, atomic)
                got = self.filter_stats(filtered) if filtered is not None and sp.accesses else None
                if got is not None:
                    sp = self.filtered(sp, *got)
                if result is not None:
                    self.vary[result] = frozenset(d for d in range(self.rank) if self.extents[d] > 1)
                    changes = self._filters.get(("changes", filtered)) if sp.accesses else [0]
                    if changes is not None:
                        sp = dataclasses.replace(sp, changes=min(int(changes[0]), sp.accesses))
                streams.append(sp)
            elif what == "compute":
                _, result, ins, classes = step
                vary = frozenset().union(*(self.varying(v) for v in ins)) if ins else frozenset()
                self.vary[result] = vary
                pts = self.points(sorted(vary)) if self.iterations else 0
                for cls in classes:
                    ops[cls] += 1
                    totals[cls] += pts
            elif what == "chase":
                _, result, ins, classes, fields, op = step
                self.vary[result] = frozenset(d for d in range(self.rank) if self.extents[d] > 1)
                steps, depth = self.chase_stats(op) if self.iterations else (0, 0)
                for cls in classes:
                    ops[cls] += 1
                    totals[cls] += steps
                for a, ind, _parts in fields:
                    shape = self.shapes[a]
                    streams.append(StreamProfile(kind="load", array=a, name=self.names[a], elem_bytes=self.elem_bytes[a], array_shape=shape,
                                                 accesses=steps, elements=min(steps, _prod(shape)), lines=steps, offset=0,
                                                 strides=(0,) * self.rank, indirect=True, indirect_dims=ind, chase_depth=depth))  # fmt: skip
            elif what == "reduce":
                _, result, input_, dims, kind, cls, rbytes, scalar = step
                vin = self.varying(input_)
                folded = self.points(sorted(vin | frozenset(dims))) if self.iterations else 0
                remaining = vin - frozenset(dims)
                self.vary[result] = remaining
                ops[cls] += 1
                totals[cls] += folded
                reductions.append(ReductionProfile(kind, dims, folded, self.points(sorted(remaining)), rbytes, cls, scalar))
            else:
                for r in step[1]:
                    self.vary[r] = frozenset()
        return RegionProfile(
            extents=self.extents,
            iterators=self.static.iterators,
            streams=tuple(streams),
            ops=ops,
            op_totals=totals,
            reductions=tuple(reductions),
        )


def profile_region(region: stream.RegionOp, arrays: Sequence[np.ndarray], scalars: Sequence[object], line_bytes: int = LINE_BYTES) -> RegionProfile:
    """What ``region`` does with these arguments (shapes and index symbols only);
    ``line_bytes`` is the cache line ``lines`` counts in."""
    return _Profiler(region, arrays, scalars, line_bytes).run()


__all__ = ["OP_CLASSES", "profile_region"]
