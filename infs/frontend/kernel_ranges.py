"""Per-call checks of a Python kernel's Python ints converted to narrower integers.

numpy 2 raises OverflowError for a Python int (a loop variable, ``len(A)``,
an ``int`` argument) that does not fit the array element it meets; the
program, made once per signature, converts it with ``index_cast``, which
wraps.  Takes the code generator's record of those conversions (affine
expressions over its leaves, the leaves' origins: arguments, array sizes,
constants, loop bounds) or the affine program itself; gives, for a call's
argument values, the interval each conversion's value may take, and raises
``KernelError`` at a conversion whose interval does not fit its type.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from xdsl.dialects import affine, arith, func, memref
from xdsl.dialects.builtin import IntegerAttr, IntegerType, ModuleOp
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineDimExpr, AffineExpr

from infs.frontend.kernel_types import KernelError

if TYPE_CHECKING:
    from infs.frontend.kernel_codegen import KernelCodegen

@dataclass
class NarrowedInts:
    """What a call checks (``check``): per leaf of the affine expressions, how
    to bound it from the call's arguments (``("arg", position)``, ``("dim",
    position, d)``, ``("const", value)``, ``("iv", starts, stops)`` or None: not
    known), and each narrowing conversion (its expression, width, source place)."""

    leaves: list[tuple | None]
    casts: list[tuple[AffineExpr | SSAValue, int, tuple[int, int]]]  # (an affine expression of the leaves, or the index value itself)
    filename: str
    leaf_of: dict[SSAValue, int]

    @staticmethod
    def of(gen: "KernelCodegen") -> "NarrowedInts | None":
        # (a value not affine in the leaves, i * j: bounded through the index ops that make it)
        casts = [(e if e is not None else v, w, at) for e, v, w, at in gen.narrowing]
        if not casts:
            return None
        leaves: list[tuple | None] = []
        for k, v in enumerate(gen.leaves):
            owner = v.owner
            if k in gen.iv_bounds:
                leaves.append(("iv", *gen.iv_bounds[k]))
            elif isinstance(v, BlockArgument) and v.block is gen.entry:
                leaves.append(("arg", v.index))
            elif isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
                leaves.append(("const", owner.value.value.data))
            elif (isinstance(owner, memref.DimOp) and isinstance(owner.source, BlockArgument) and owner.source.block is gen.entry
                  and isinstance(owner.index.owner, arith.ConstantOp)):  # fmt: skip
                leaves.append(("dim", owner.source.index, owner.index.owner.value.value.data))
            else:
                leaves.append(None)
        return NarrowedInts(leaves, casts, gen.filename, dict(gen.leaf_ids))

    def check(self, values: list[Any]) -> None:
        """Raise ``KernelError`` at a conversion whose Python int may not fit its type for these arguments."""
        box: list[tuple[int, int] | None | str] = []
        for d in self.leaves:
            if d is None:
                box.append(None)
            elif d[0] == "arg":
                x = int(values[d[1]])
                box.append((x, x))
            elif d[0] == "dim":
                x = int(np.shape(values[d[1]])[d[2]])
                box.append((x, x))
            elif d[0] == "const":
                box.append((int(d[1]), int(d[1])))
            else:  # a loop variable: from the start's largest lower end to the stop's smallest upper end
                starts = [interval(e, box) for e in d[1]]
                stops = [interval(e, box) for e in d[2]]
                if "empty" in starts + stops:
                    box.append("empty")
                elif None in starts or None in stops:
                    box.append(None)
                else:
                    lo, hi = max(a for a, _ in starts), min(b for _, b in stops) - 1  # type: ignore[misc]
                    box.append((lo, hi) if lo <= hi else "empty")
        memo: dict[SSAValue, Any] = {}
        for e, width, (line, col) in self.casts:
            r = interval(e, box) if isinstance(e, AffineExpr) else self._ssa_interval(e, box, memo)
            if r is None or r == "empty":
                continue
            info = np.iinfo(f"int{width}")
            if r[0] < info.min or r[1] > info.max:
                raise KernelError(f"the Python int here may take values in [{r[0]}, {r[1]}] with these arguments; int{width}, the array element "
                                  f"type it meets, holds [{info.min}, {info.max}] (numpy raises OverflowError where the kernel would wrap)",
                                  f"{self.filename}:{line}:{col}")  # fmt: skip


    def _ssa_interval(self, v: SSAValue, box: list, memo: dict) -> tuple[int, int] | None | str:
        """Bounds of an index value from the ops that compute it (None: unknown)."""
        if v in memo:
            return memo[v]
        memo[v] = None  # (a cycle through a loop's carried value: unknown)
        k = self.leaf_of.get(v)
        if k is not None:
            memo[v] = box[k]
            return memo[v]
        op = v.owner
        if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
            r: Any = (op.value.value.data, op.value.value.data)
        elif isinstance(op, affine.ApplyOp):
            m = op.map.data
            sub = [self._ssa_interval(x, box, memo) for x in op.mapOperands]
            e = m.results[0].replace_dims_and_symbols([AffineExpr.dimension(i) for i in range(m.num_dims)],
                                                      [AffineExpr.dimension(m.num_dims + i) for i in range(m.num_symbols)])  # fmt: skip
            r = interval(e, sub)
        elif isinstance(op, (arith.AddiOp, arith.SubiOp, arith.MuliOp, arith.DivSIOp, arith.RemSIOp, arith.SelectOp)):
            a, b = (self._ssa_interval(x, box, memo) for x in op.operands[-2:])
            if "empty" in (a, b):
                r = "empty"
            elif a is None or b is None:
                r = None
            elif isinstance(op, arith.SelectOp):
                r = (min(a[0], b[0]), max(a[1], b[1]))
            elif isinstance(op, arith.AddiOp):
                r = (a[0] + b[0], a[1] + b[1])
            elif isinstance(op, arith.SubiOp):
                r = (a[0] - b[1], a[1] - b[0])
            elif isinstance(op, arith.MuliOp):
                ps = [x * y for x in a for y in b]
                r = (min(ps), max(ps))
            elif b[0] != b[1] or b[0] == 0:
                r = None
            elif isinstance(op, arith.DivSIOp):  # truncating: monotonic in a for a fixed divisor
                q = [int(x / b[0]) if abs(x) < 2**52 else None for x in a]
                r = None if None in q else (min(q), max(q))
            else:  # remsi: the dividend's sign, less than the divisor in size
                c = abs(b[0]) - 1
                r = (0 if a[0] >= 0 else -c, 0 if a[1] <= 0 else c)
        else:
            r = None
        memo[v] = r
        return r


def interval(e: AffineExpr, box: list) -> tuple[int, int] | None | str:
    """Bounds of an affine expression over the leaves' bounds (None: unknown; "empty": no value)."""
    if isinstance(e, AffineConstantExpr):
        return (e.value, e.value)
    if isinstance(e, AffineDimExpr):
        return box[e.position]
    if not isinstance(e, AffineBinaryOpExpr):
        return None
    a, b = interval(e.lhs, box), interval(e.rhs, box)
    if "empty" in (a, b):
        return "empty"
    if a is None or b is None:
        return None
    if e.kind is AffineBinaryOpKind.Add:
        return (a[0] + b[0], a[1] + b[1])
    if e.kind is AffineBinaryOpKind.Mul:
        ps = [x * y for x in a for y in b]
        return (min(ps), max(ps))
    if b[0] != b[1] or b[0] <= 0:
        return None
    c = b[0]
    if e.kind is AffineBinaryOpKind.FloorDiv:
        return (a[0] // c, a[1] // c)
    if e.kind is AffineBinaryOpKind.CeilDiv:
        return (-(-a[0] // c), -(-a[1] // c))
    if e.kind is AffineBinaryOpKind.Mod:
        return (a[0] % c, a[1] % c) if a[1] - a[0] < c and a[0] % c <= a[1] % c else (0, c - 1)
    return None



def narrowed_int_arguments(loops: ModuleOp) -> list[tuple[int, IntegerType, Operation]]:
    """(argument position, type, cast) of each ``int`` argument the program
    casts to a narrower integer (``A[i] + k`` on an int8 ``A``)."""
    out = []
    for op in loops.walk():
        if isinstance(op, arith.IndexCastOp) and isinstance(op.input, BlockArgument) and isinstance(op.input.owner.parent_op(), func.FuncOp):
            t = op.result.type
            if isinstance(t, IntegerType) and t.width.data < 64:
                out.append((op.input.index, t, op))
    return out
