"""The expressions of Python kernels: a kernel's values and how each Python
expression becomes arith/math/affine IR.

Takes what ``KernelCodegen`` (``infs.frontend.kernel_codegen``) has built so
far -- the insertion point, the names in scope, the hoisting of loop-invariant
values -- through the methods a ``KernelExpressions`` subclass provides
(``emit``, ``ssa``, ``convert``, ``constant``, ``leaf``, ``error`` ...); gives
a ``Val`` per expression: an SSA value, an affine expression over the loop
variables (ints) or a folded Python literal. The semantics are those
``infs.frontend.python_kernel`` describes.
"""

from __future__ import annotations


import ast
import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects import arith, math, scf
from xdsl.dialects.builtin import (
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    f64,
    i1,
)
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineExpr

from infs.frontend.kernel_syntax import call_name, expr_word, pure_expr
from infs.frontend.kernel_types import (
    BOOL,
    ELEMENT_TYPES,
    SUPPORTED_DTYPES,
    WEAK_KINDS,
    Kind,
    is_float,
    join_kind,
    kind_text,
    mlir_type,
    result_kind,
)
# A free name the function's globals, closure and builtins do not have
MISSING = object()

# ---------------------------------------------------------------------------
# Values of the kernel
# ---------------------------------------------------------------------------


@dataclass
class Val:
    kind: Kind
    ssa: SSAValue | None = None
    aff: AffineExpr | None = None  # "int" values: affine over the leaves (dimension k = leaf k)
    const: Any = None  # a Python literal (folded while both sides are literals)


@dataclass
class Undefined:
    """A name bound only inside a loop or one branch: Python would still see
    it afterwards, the kernel does not."""

    line: int
    where: str


@dataclass
class ArrayArg:
    ssa: SSAValue
    dtype: Kind
    rank: int


_BINOPS: dict[type, tuple[str, Callable]] = {
    ast.Add: ("+", operator.add),
    ast.Sub: ("-", operator.sub),
    ast.Mult: ("*", operator.mul),
    ast.Div: ("/", operator.truediv),
    ast.FloorDiv: ("//", operator.floordiv),
    ast.Mod: ("%", operator.mod),
    ast.BitAnd: ("&", operator.and_),
    ast.BitOr: ("|", operator.or_),
    ast.BitXor: ("^", operator.xor),
}
_FLOAT_OPS = {ast.Add: arith.AddfOp, ast.Sub: arith.SubfOp, ast.Mult: arith.MulfOp, ast.Div: arith.DivfOp}
_INT_OPS = {ast.Add: arith.AddiOp, ast.Sub: arith.SubiOp, ast.Mult: arith.MuliOp, ast.BitAnd: arith.AndIOp, ast.BitOr: arith.OrIOp, ast.BitXor: arith.XOrIOp}
_CMPF = {ast.Lt: "olt", ast.LtE: "ole", ast.Gt: "ogt", ast.GtE: "oge", ast.Eq: "oeq", ast.NotEq: "une"}
_CMPI = {ast.Lt: "slt", ast.LtE: "sle", ast.Gt: "sgt", ast.GtE: "sge", ast.Eq: "eq", ast.NotEq: "ne"}
_PYCMP = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Eq: operator.eq, ast.NotEq: operator.ne}


class KernelExpressions:
    """The expression half of ``KernelCodegen`` (a mixin: the statement half
    supplies ``emit``, ``ssa``, ``convert``, ``constant``, ``leaf``, ``hoist``,
    ``error``, ``unsupported`` and the scope)."""

    def read(self, name: str, node: ast.AST) -> Val:
        v = self.env.get(name)
        if isinstance(v, Val):
            return v
        if isinstance(v, Undefined):
            where = "inside the loop" if v.where == "loop" else "in only one branch of the 'if'"
            raise self.unsupported(node, f"use of '{name}', which is bound {where} at line {v.line} (not after it)")
        if name in self.arrays:
            raise self.unsupported(node, f"use of the array '{name}' as a value (index it: {name}[...])")
        g = self.scope(name)
        if isinstance(g, (bool, np.bool_)) or not isinstance(g, (int, float, np.integer, np.floating)):
            what = "is not defined" if g is MISSING else f"is a {type(g).__name__} (kernels read numbers, arrays and the names they bind)"
            raise self.unsupported(node, f"name '{name}': it {what}")
        return self.literal(g, node)

    def literal(self, x: Any, node: ast.AST) -> Val:
        if isinstance(x, (bool, np.bool_)):
            return Val(BOOL, None, None, bool(x))
        if isinstance(x, (np.integer, np.floating)):  # (first: np.float64 is a Python float too)
            k = np.dtype(type(x))
            if k not in ELEMENT_TYPES:
                raise self.unsupported(node, f"constant of type {k} ({SUPPORTED_DTYPES})")
            return Val(k.name, self.constant(x.item(), k.name, node))
        if isinstance(x, int):
            return Val("int", None, AffineExpr.constant(x), x)
        if isinstance(x, float):
            return Val("float", None, None, x)
        raise self.unsupported(node, f"constant {x!r} of type {type(x).__name__}")

    def expr(self, node: ast.expr) -> Val:
        m = getattr(self, f"ex_{type(node).__name__}", None)
        if m is None:
            raise self.unsupported(node, f"expression: {expr_word(node)}")
        return m(node)

    def ex_Constant(self, node: ast.Constant) -> Val:
        x = node.value
        if isinstance(x, (bool, int, float)):
            return self.literal(x, node)
        raise self.unsupported(node, f"constant {x!r} (numbers only)")

    def ex_Name(self, node: ast.Name) -> Val:
        return self.read(node.id, node)

    def ex_Subscript(self, node: ast.Subscript) -> Val:
        # A.shape[d]
        if isinstance(node.value, ast.Attribute) and node.value.attr == "shape" and isinstance(node.value.value, ast.Name) and node.value.value.id in self.arrays:
            d = self.expr(node.slice)
            if d.kind != "int" or d.const is None:
                raise self.unsupported(node.slice, "shape index (an integer literal)")
            return self.dim(self.arrays[node.value.value.id], d.const, node)
        arr, idx = self.access(node)
        return self.load(arr, idx, node)

    def ex_Attribute(self, node: ast.Attribute) -> Val:
        g = self.resolve(node)
        if g is MISSING:
            raise self.unsupported(node, f"attribute {ast.unparse(node)}")
        if isinstance(g, (int, float, np.integer, np.floating)) and not isinstance(g, (bool, np.bool_)):
            return self.literal(g, node)
        raise self.unsupported(node, f"use of {ast.unparse(node)} ({type(g).__name__}) as a value")

    def resolve(self, node: ast.expr) -> Any:
        """A dotted name (``np.float32``, ``math.pi``) from the function's globals, or MISSING."""
        if isinstance(node, ast.Name):
            if node.id in self.env or node.id in self.arrays:
                return MISSING
            return self.scope(node.id)
        if isinstance(node, ast.Attribute):
            base = self.resolve(node.value)
            if base is MISSING:
                return MISSING
            return getattr(base, node.attr, MISSING)
        return MISSING

    def ex_UnaryOp(self, node: ast.UnaryOp) -> Val:
        if isinstance(node.op, ast.Not):
            v = self.condition(node.operand)
            if v.const is not None:
                return Val(BOOL, None, None, not v.const)
            return Val(BOOL, self.emit(arith.XOrIOp(self.ssa(v, node), self.constant(True, BOOL, node)), node).results[0])
        v = self.expr(node.operand)
        if v.kind == BOOL:
            raise self.unsupported(node, "arithmetic on a comparison result")
        if isinstance(node.op, ast.UAdd):
            return v
        if isinstance(node.op, ast.USub):
            return self.negate(v, node)
        raise self.unsupported(node, "operator '~'")

    def negate(self, v: Val, node: ast.AST) -> Val:
        if v.const is not None:
            return self.literal(-v.const, node) if v.kind in WEAK_KINDS else Val(v.kind, None, None, -v.const)
        if v.kind == "int" and v.aff is not None:
            return Val("int", None, v.aff * -1)
        if is_float(v.kind):
            return Val(v.kind, self.emit(arith.NegfOp(self.ssa(v, node)), node).results[0])
        zero = Val(v.kind, self.constant(0, v.kind, node))
        return self.binop(ast.Sub(), zero, v, node)

    def binop(self, op: ast.operator, a: Val, b: Val, node: ast.AST) -> Val:
        if type(op) is ast.Pow and b.kind == "int" and b.const == 2 and a.kind != BOOL:
            # x ** 2 is x * x: the square rounded once, as numpy's power gives it, in x's type
            return self.binop(ast.Mult(), a, a, node)
        if type(op) not in _BINOPS:
            sym = {ast.Pow: "**", ast.MatMult: "@", ast.LShift: "<<", ast.RShift: ">>"}.get(type(op), type(op).__name__)
            raise self.unsupported(node, f"operator '{sym}'")
        sym, pyop = _BINOPS[type(op)]
        if BOOL in (a.kind, b.kind):
            raise self.unsupported(node, f"'{sym}' on a comparison result")
        if a.kind in WEAK_KINDS and b.kind in WEAK_KINDS and a.const is not None and b.const is not None:
            try:
                return self.literal(pyop(a.const, b.const), node)
            except ZeroDivisionError:
                raise self.error(node, f"division by zero ({a.const} {sym} {b.const})") from None
            except TypeError:
                raise self.unsupported(node, f"'{sym}' on {kind_text(a.kind)} and {kind_text(b.kind)}") from None
        try:
            rk = result_kind(pyop, a.kind, b.kind)
        except TypeError:
            raise self.unsupported(node, f"'{sym}' on {kind_text(a.kind)} and {kind_text(b.kind)}") from None
        if rk == "int":
            aff = _affine_binop(type(op), a.aff, b.aff)
            if aff is not None:
                return Val("int", None, aff)
        if type(op) is ast.Div:
            x, y = self.convert(a, rk, node), self.convert(b, rk, node)
            ys = self.ssa(y, node)
            if a.kind in WEAK_KINDS and b.kind in WEAK_KINDS:
                # Python's '/' of two Python numbers raises ZeroDivisionError where numpy's
                # (an array element on either side) gives inf: a zero divisor must stop the run
                if b.const is not None:
                    if b.const == 0:
                        raise self.error(node, f"division by zero ({kind_text(a.kind)} {sym} {b.const!r}: Python raises ZeroDivisionError)")
                else:
                    ys = self.zero_divisor_trap(ys, node)
            return Val(rk, self.emit(arith.DivfOp(self.ssa(x, node), ys), node).results[0])
        x, y = self.convert(a, rk, node), self.convert(b, rk, node)
        xs, ys = self.ssa(x, node), self.ssa(y, node)
        if is_float(rk):
            cls = _FLOAT_OPS.get(type(op))
            if cls is None:
                raise self.unsupported(node, f"'{sym}' on floats")
            r = self.emit(cls(xs, ys), node).results[0]
        elif type(op) in _INT_OPS:
            r = self.emit(_INT_OPS[type(op)](xs, ys), node).results[0]
        else:
            r = self.floor_divmod(type(op) is ast.FloorDiv, xs, ys, node)
        return self.int_val(r) if rk == "int" else Val(rk, r)

    def speculate(self, read: Callable[[], Any]) -> tuple[bool, Any]:
        """``read()`` for code that runs whether Python would run it or not (if-conversion,
        both sides of a select): (True, its value), or (False, None) with what it emitted
        undone when it holds a zero-divisor trap, which must not stop a run on a side
        Python does not take (``1.0 / (i - 2) if i != 2 else 0.0``)."""
        block, mark = self.block, self.block.last_op
        traps, narrowing = self.traps, len(self.narrowing)
        out = read()
        if self.traps == traps:
            return True, out
        ops, op = [], (mark.next_op if mark is not None else block.first_op)
        while op is not None:
            if not any(r in self.hoisted_values for r in op.results):  # (hoisted: shared, kept)
                ops.append(op)
            op = op.next_op
        for op in reversed(ops):
            op.detach()
            op.erase()
        self.traps = traps
        del self.narrowing[narrowing:]
        return False, None

    def zero_divisor_trap(self, y: SSAValue, node: ast.AST) -> SSAValue:
        """``y`` (an f64 divisor), through an integer division by zero when it is 0.0:
        the runtime stops every such division with one line at the op's line, in
        every mode.  The quotient (1 whenever there is one) selects ``y`` itself, so
        the check stays a part of the divisor's value and no pass drops it."""
        self.traps += 1
        i64 = IntegerType(64)
        zero_f = self.constant(0.0, "float", node)
        zero_i, one_i = (self.hoist(("const", "i64", v), lambda v=v: arith.ConstantOp(IntegerAttr(v, i64))) for v in (0, 1))
        nan = self.hoist(("const", "f64", "nan"), lambda: arith.ConstantOp(FloatAttr(float("nan"), f64)))
        is_zero = self.emit(arith.CmpfOp(y, zero_f, "oeq"), node).results[0]
        flag = self.emit(arith.SelectOp(is_zero, zero_i, one_i), node).results[0]
        q = self.emit(arith.DivSIOp(one_i, flag), node).results[0]
        bad = self.emit(arith.CmpiOp(q, one_i, "ne"), node).results[0]
        return self.emit(arith.SelectOp(bad, nan, y), node).results[0]

    def floor_divmod(self, div: bool, a: SSAValue, b: SSAValue, node: ast.AST) -> SSAValue:
        """Python's ``//``/``%`` on integers (floor; the remainder has the divisor's
        sign) from arith's truncating ``divsi``/``remsi`` (which the runtime
        evaluates everywhere; ``floordivsi`` it does not)."""
        t = a.type
        zero = self.constant(0, "int" if isinstance(t, IndexType) else _kind_from_type(t), node)
        rem = self.emit(arith.RemSIOp(a, b), node).results[0]
        nz = self.emit(arith.CmpiOp(rem, zero, "ne"), node).results[0]
        rneg = self.emit(arith.CmpiOp(rem, zero, "slt"), node).results[0]
        bneg = self.emit(arith.CmpiOp(b, zero, "slt"), node).results[0]
        signs = self.emit(arith.XOrIOp(rneg, bneg), node).results[0]
        fix = self.emit(arith.AndIOp(nz, signs), node).results[0]
        if div:
            q = self.emit(arith.DivSIOp(a, b), node).results[0]
            one = self.constant(1, "int" if isinstance(t, IndexType) else _kind_from_type(t), node)
            q1 = self.emit(arith.SubiOp(q, one), node).results[0]
            return self.emit(arith.SelectOp(fix, q1, q), node).results[0]
        r1 = self.emit(arith.AddiOp(rem, b), node).results[0]
        return self.emit(arith.SelectOp(fix, r1, rem), node).results[0]

    def ex_BinOp(self, node: ast.BinOp) -> Val:
        return self.binop(node.op, self.expr(node.left), self.expr(node.right), node)

    def compare(self, op: ast.cmpop, a: Val, b: Val, node: ast.AST) -> Val:
        if type(op) not in _CMPI:
            word = {ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in"}.get(type(op), type(op).__name__)
            raise self.unsupported(node, f"comparison '{word}'")
        if BOOL in (a.kind, b.kind):
            raise self.unsupported(node, "comparison of comparison results")
        if a.kind in WEAK_KINDS and b.kind in WEAK_KINDS and a.const is not None and b.const is not None:
            return Val(BOOL, None, None, bool(_PYCMP[type(op)](a.const, b.const)))
        k = result_kind(operator.add, a.kind, b.kind)
        x, y = self.ssa(self.convert(a, k, node), node), self.ssa(self.convert(b, k, node), node)
        cmp = arith.CmpfOp(x, y, _CMPF[type(op)]) if is_float(k) else arith.CmpiOp(x, y, _CMPI[type(op)])
        return Val(BOOL, self.emit(cmp, node).results[0])

    def ex_Compare(self, node: ast.Compare) -> Val:
        if len(node.ops) > 1 and not all(pure_expr(c) for c in node.comparators[1:]):
            raise self.unsupported(node, "chained comparison with an array access or integer division after its first comparison")
        left = self.expr(node.left)
        first = self.expr(node.comparators[0])

        def chain() -> Val:
            l, r, out = left, first, None
            for k, op in enumerate(node.ops):
                r = first if k == 0 else self.expr(node.comparators[k])
                c = self.compare(op, l, r, node)
                out = c if out is None else self.logic(ast.And(), out, c, node)
                l = r
            assert out is not None
            return out

        ok, out = self.speculate(chain)
        if not ok:
            raise self.unsupported(node, "chained comparison with a division of Python numbers after its first comparison (Python may not evaluate it)")
        return out

    def logic(self, op: ast.boolop, a: Val, b: Val, node: ast.AST) -> Val:
        if a.const is not None:
            return b if (a.const if isinstance(op, ast.And) else not a.const) else a
        if b.const is not None:
            return a if (b.const if isinstance(op, ast.And) else not b.const) else b
        cls = arith.AndIOp if isinstance(op, ast.And) else arith.OrIOp
        return Val(BOOL, self.emit(cls(self.ssa(a, node), self.ssa(b, node)), node).results[0])

    def ex_BoolOp(self, node: ast.BoolOp) -> Val:
        if not all(pure_expr(v) for v in node.values[1:]):
            # Python would not evaluate the right side when the left decides: keep that
            return self.branchy(node)
        out = self.condition(node.values[0])
        ok, rest = self.speculate(lambda: [self.condition(v) for v in node.values[1:]])
        if not ok:  # (a side that may trap: run it only when Python does)
            return self.branchy(node)
        for v in rest:
            out = self.logic(node.op, out, v, node)
        return out

    def branchy(self, node: ast.BoolOp) -> Val:
        """``a and b`` / ``a or b`` whose right side may not run: an ``scf.if``."""
        first = self.condition(node.values[0])
        if len(node.values) == 1:
            return first
        rest = ast.BoolOp(op=node.op, values=node.values[1:])
        ast.copy_location(rest, node.values[1])
        if first.const is not None:
            return self.branchy(rest) if bool(first.const) == isinstance(node.op, ast.And) else first
        outer = self.block
        run, skip = Block(), Block()
        self.block = run
        r = self.branchy(rest)
        self.emit(scf.YieldOp(self.ssa(r, node)), node)
        self.block = skip
        self.emit(scf.YieldOp(self.constant(not isinstance(node.op, ast.And), BOOL, node)), node)
        self.block = outer
        regions = (Region(run), Region(skip)) if isinstance(node.op, ast.And) else (Region(skip), Region(run))
        op = self.emit(scf.IfOp(self.ssa(first, node), [i1], *regions), node)
        return Val(BOOL, op.results[0])

    def condition(self, node: ast.expr) -> Val:
        v = self.expr(node)
        if v.kind != BOOL:
            raise self.unsupported(node, f"condition of type {kind_text(v.kind)} (a comparison: x != 0, not x)")
        return v

    def ex_IfExp(self, node: ast.IfExp) -> Val:
        c = self.condition(node.test)
        if c.const is not None:
            return self.expr(node.body if c.const else node.orelse)
        ok, sides = self.speculate(lambda: (self.expr(node.body), self.expr(node.orelse))) if pure_expr(node.body) and pure_expr(node.orelse) else (False, None)
        if ok:
            a, b = sides
            k = join_kind(a.kind, b.kind)
            if k is None:
                raise self.unsupported(node, "conditional expression mixing a comparison result and a number")
            x, y = self.ssa(self.convert(a, k, node), node), self.ssa(self.convert(b, k, node), node)
            r = self.emit(arith.SelectOp(self.ssa(c, node), x, y), node).results[0]
            return self.int_val(r) if k == "int" else Val(k, r)
        # a side that reads an array (or divides) runs only when chosen, as in Python
        outer = self.block
        vals, blocks = [], []
        for side in (node.body, node.orelse):
            blk = Block()
            self.block = blk
            vals.append(self.expr(side))
            blocks.append(blk)
        k = join_kind(vals[0].kind, vals[1].kind)
        if k is None:
            raise self.unsupported(node, "conditional expression mixing a comparison result and a number")
        for blk, v in zip(blocks, vals):
            self.block = blk
            self.emit(scf.YieldOp(self.ssa(self.convert(v, k, node), node)), node)
        self.block = outer
        op = self.emit(scf.IfOp(self.ssa(c, node), [mlir_type(k)], Region(blocks[0]), Region(blocks[1])), node)
        return self.int_val(op.results[0]) if k == "int" else Val(k, op.results[0])

    def ex_Call(self, node: ast.Call) -> Val:
        if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
            raise self.unsupported(node, f"call of {call_name(node)} with keyword or starred arguments")
        fn = node.func
        name = fn.id if isinstance(fn, ast.Name) and fn.id not in self.env and fn.id not in self.arrays else None
        if name in ("min", "max") and self.scope(name) in (min, max):
            if len(node.args) < 2:
                raise self.unsupported(node, f"{name}() of fewer than 2 numbers")
            out = self.expr(node.args[0])
            for a in node.args[1:]:
                out = self.minmax(name, out, self.expr(a), node)
            return out
        if name == "abs" and self.scope(name) is abs and len(node.args) == 1:
            return self.absolute(self.expr(node.args[0]), node)
        if name == "len" and self.scope(name) is len and len(node.args) == 1:
            a = node.args[0]
            if isinstance(a, ast.Name) and a.id in self.arrays:
                return self.dim(self.arrays[a.id], 0, node)
            raise self.unsupported(node, "len() of something other than an array argument")
        if name in ("float", "int") and self.scope(name) in (float, int) and len(node.args) == 1:
            v = self.expr(node.args[0])
            target = "float" if name == "float" else "int"
            if v.kind == BOOL:
                raise self.unsupported(node, f"{name}() of a comparison result")
            return self.convert(v, target, node, store=True)
        target = self.resolve(fn)
        if isinstance(target, type) and issubclass(target, np.generic) and np.dtype(target) in ELEMENT_TYPES and len(node.args) == 1:
            v = self.expr(node.args[0])
            if v.kind == BOOL:
                raise self.unsupported(node, f"{ast.unparse(fn)}() of a comparison result")
            return self.convert(v, np.dtype(target).name, node, store=True)
        raise self.unsupported(node, f"call of {call_name(node)} (kernels call min, max, abs, len, int, float and numpy scalar types)")

    def minmax(self, name: str, a: Val, b: Val, node: ast.AST) -> Val:
        if BOOL in (a.kind, b.kind):
            raise self.unsupported(node, f"{name}() of a comparison result")
        if a.kind in WEAK_KINDS and b.kind in WEAK_KINDS and a.const is not None and b.const is not None:
            return self.literal((min if name == "min" else max)(a.const, b.const), node)
        k = result_kind(operator.add, a.kind, b.kind)
        x, y = self.ssa(self.convert(a, k, node), node), self.ssa(self.convert(b, k, node), node)
        if is_float(k):
            r = self.emit((arith.MinimumfOp if name == "min" else arith.MaximumfOp)(x, y), node).results[0]
        elif k == "int":
            # (on index values: a compare and a select, which the host runs)
            c = self.emit(arith.CmpiOp(x, y, "slt" if name == "min" else "sgt"), node).results[0]
            r = self.emit(arith.SelectOp(c, x, y), node).results[0]
        else:
            r = self.emit((arith.MinSIOp if name == "min" else arith.MaxSIOp)(x, y), node).results[0]
        return self.int_val(r) if k == "int" else Val(k, r)

    def absolute(self, v: Val, node: ast.AST) -> Val:
        if v.kind == BOOL:
            raise self.unsupported(node, "abs() of a comparison result")
        if v.const is not None and v.kind in WEAK_KINDS:
            return self.literal(abs(v.const), node)
        if is_float(v.kind):
            # math.absf clears the sign bit: abs(-0.0) is +0.0 (and 1.0 / abs(-0.0) is +inf), as
            # Python's and numpy's abs; a select of x < 0 would keep -0.0
            return Val(v.kind, self.emit(math.AbsFOp(self.ssa(v, node)), node).results[0])
        # integers: x < 0 ? -x : x wraps on INT_MIN as math.absi (and numpy's abs) do
        zero = Val(v.kind, None, AffineExpr.constant(0) if v.kind == "int" else None, 0)
        neg = self.compare(ast.Lt(), v, zero, node)
        minus = self.negate(v, node)
        x = self.ssa(v, node)
        r = self.emit(arith.SelectOp(self.ssa(neg, node), self.ssa(minus, node), x), node).results[0]
        return self.int_val(r) if v.kind == "int" else Val(v.kind, r)


def _kind_from_type(t: Attribute) -> Kind:
    for k, v in ELEMENT_TYPES.items():
        if v == t:
            return k.name
    raise AssertionError(t)



def _affine_binop(op: type, a: AffineExpr | None, b: AffineExpr | None) -> AffineExpr | None:
    """``a op b`` as an affine expression, when it is one (Python's floor and
    mod agree with affine ``floordiv``/``mod`` for a positive divisor)."""
    if a is None or b is None:
        return None
    if op is ast.Add:
        return a + b
    if op is ast.Sub:
        return a - b
    if op is ast.Mult:
        if isinstance(a, AffineConstantExpr) or isinstance(b, AffineConstantExpr):
            return a * b
        return None
    if op in (ast.FloorDiv, ast.Mod) and isinstance(b, AffineConstantExpr) and b.value > 0:
        return a // b.value if op is ast.FloorDiv else a % b.value
    return None

