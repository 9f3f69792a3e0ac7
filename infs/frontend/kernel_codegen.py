"""The code generator of Python kernels: one specialization -> a ``func.func`` of affine loops.

Takes a kernel's function definition (its ``ast``, source file and offsets),
the kinds of its arguments (``Array`` specs, ``"int"``/``"float"``, numpy
scalar dtypes) and the values its free names have; gives the plain-loop MLIR
module ``extract-streams`` reads (``affine.for``/``load``/``store``,
``arith``, ``math``, ``scf.if``), emitted with xDSL's builders, each op
located at its Python source, and what the per-call checks need: the Python
ints it converts to narrower integers and the bounds of its loop variables.
The semantics are those ``infs.frontend.python_kernel`` describes; anything
else raises ``KernelError`` at its line and column.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from xdsl.dialects import affine, arith, func, memref, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    FileLineColLoc,
    FloatAttr,
    FunctionType,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    StringAttr,
    i1,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap

from infs.frontend.kernel_syntax import STATEMENT_WORDS, assigned_names, call_name, expr_word, pure_stmts
from infs.frontend.kernel_types import (
    BOOL,
    ELEMENT_TYPES,
    WEAK_KINDS,
    Array,
    Kind,
    KernelError,
    is_float,
    is_int,
    join_kind,
    kind_text,
    mlir_type,
)
from infs.frontend.kernel_expressions import ArrayArg, KernelExpressions, Undefined, Val


class KernelCodegen(KernelExpressions):
    """One specialization of one kernel: its AST and its argument kinds -> a ``func.func``."""

    def __init__(self, fdef: ast.FunctionDef, filename: str, line_offset: int, col_offset: int, params: list[tuple[str, Any]], scope: Callable[[str], Any]):
        self.fdef = fdef
        self.filename = filename
        self.line_offset = line_offset
        self.col_offset = col_offset
        self.params = params
        self.scope = scope  # name -> the value a free name has in the function's globals/closure
        self.env: dict[str, Val | Undefined] = {}
        self.arrays: dict[str, ArrayArg] = {}
        self.leaves: list[SSAValue] = []
        self.leaf_ids: dict[SSAValue, int] = {}
        self.ivs: set[int] = set()  # leaf ids that are affine.for induction variables
        self.hoisted: dict[tuple, SSAValue] = {}
        self.last_hoisted: Operation | None = None
        self.hoisted_values: set[SSAValue] = set()
        self.entry = Block()
        self.block = self.entry
        self.result: Val | None = None
        self.node: ast.AST = fdef
        # Python ints (index values) the program converts to a narrower integer (A[i] + i
        # on an int8 A, B[i] = i into an int16 B): numpy raises OverflowError for a value
        # that does not fit, index_cast wraps it; checked at each call (kernel_ranges)
        self.narrowing: list[tuple[AffineExpr | None, SSAValue, int, tuple[int, int]]] = []
        self.iv_bounds: dict[int, tuple[list[AffineExpr], list[AffineExpr]]] = {}  # leaf -> its loop's start / stop expressions
        self._bound_exprs: list[AffineExpr] = []  # (bound's last expressions)
        self._range_exprs: tuple[list[AffineExpr], list[AffineExpr]] = ([], [])  # (range_of's start and stop)
        self.traps = 0  # zero_divisor_traps emitted (see speculate)

    # -- errors and locations -------------------------------------------------
    def loc(self, node: ast.AST | None) -> tuple[int, int]:
        node = node or self.node
        line = getattr(node, "lineno", self.fdef.lineno) + self.line_offset
        col = getattr(node, "col_offset", 0) + 1 + self.col_offset
        return line, col

    def error(self, node: ast.AST | None, message: str) -> KernelError:
        line, col = self.loc(node)
        return KernelError(message, f"{self.filename}:{line}:{col}")

    def unsupported(self, node: ast.AST, what: str) -> KernelError:
        return self.error(node, f"unsupported {what}")

    def emit(self, op: Operation, node: ast.AST | None = None) -> Operation:
        line, col = self.loc(node)
        op.location = FileLineColLoc(StringAttr(self.filename), IntAttr(line), IntAttr(col))
        self.block.add_op(op)
        return op

    def hoist(self, key: tuple, make: Callable[[], Operation]) -> SSAValue:
        """A value every part of the kernel may use (constants, sizes, casts of
        arguments), emitted once at the top of the function."""
        hit = self.hoisted.get(key)
        if hit is not None:
            return hit
        op = make()
        line, col = self.loc(self.fdef)
        op.location = FileLineColLoc(StringAttr(self.filename), IntAttr(line), IntAttr(col))
        if self.last_hoisted is not None:
            self.entry.insert_op_after(op, self.last_hoisted)
        elif self.entry.first_op is not None:
            self.entry.insert_op_before(op, self.entry.first_op)
        else:
            self.entry.add_op(op)
        self.last_hoisted = op
        self.hoisted[key] = op.results[0]
        self.hoisted_values.add(op.results[0])
        return op.results[0]

    def hoistable(self, v: SSAValue) -> bool:
        """An argument or a value emitted at the top: what may be used from the prologue."""
        return (isinstance(v, BlockArgument) and v.block is self.entry) or v in self.hoisted_values

    def top_level(self, v: SSAValue) -> bool:
        """Defined in the function's entry block: a valid affine symbol."""
        if isinstance(v, BlockArgument):
            return v.block is self.entry
        return v.owner.parent_block() is self.entry  # type: ignore[union-attr]

    # -- leaves of affine expressions ---------------------------------------------
    def leaf(self, v: SSAValue, iv: bool = False) -> AffineExpr:
        k = self.leaf_ids.get(v)
        if k is None:
            k = self.leaf_ids[v] = len(self.leaves)
            self.leaves.append(v)
            if iv:
                self.ivs.add(k)
        return AffineExpr.dimension(k)

    def affine_map(self, exprs: Sequence[AffineExpr]) -> tuple[AffineMapAttr, list[SSAValue]]:
        """A map over the leaves the expressions use: loop variables as dims, the rest as symbols."""
        used = sorted({e.position for x in exprs for e in x.dfs() if isinstance(e, AffineDimExpr)})
        dims = [k for k in used if k in self.ivs]
        syms = [k for k in used if k not in self.ivs]
        repl_d: list[AffineExpr] = [AffineExpr.constant(0)] * len(self.leaves)
        for i, k in enumerate(dims):
            repl_d[k] = AffineExpr.dimension(i)
        for i, k in enumerate(syms):
            repl_d[k] = AffineExpr.symbol(i)
        results = tuple(x.replace_dims_and_symbols(repl_d, []) for x in exprs)
        return AffineMapAttr(AffineMap(len(dims), len(syms), results)), [self.leaves[k] for k in dims + syms]

    # -- constants and conversions ----------------------------------------------
    def constant(self, value: Any, kind: Kind, node: ast.AST | None) -> SSAValue:
        t = mlir_type(kind)
        if kind == BOOL:
            v = int(bool(value))
            return self.hoist(("const", "i1", v), lambda: arith.ConstantOp(IntegerAttr(v, i1)))
        if is_float(kind):
            x = float(value) if kind == "float" else float(np.dtype(kind).type(value))
            return self.hoist(("const", str(t), repr(x)), lambda: arith.ConstantOp(FloatAttr(x, t)))  # type: ignore[arg-type]
        x = int(value)
        if kind not in WEAK_KINDS:
            info = np.iinfo(kind)
            if not info.min <= x <= info.max:
                raise self.error(node, f"the literal {x} does not fit {kind} (numpy raises OverflowError)")
        elif not -(2**63) <= x < 2**63:
            raise self.error(node, f"the integer {x} does not fit a 64-bit index")
        return self.hoist(("const", str(t), x), lambda: arith.ConstantOp(IntegerAttr(x, t)))

    def ssa(self, v: Val, node: ast.AST | None) -> SSAValue:
        if v.ssa is not None:
            return v.ssa
        if v.const is not None:
            v.ssa = self.constant(v.const, v.kind, node)  # hoisted: usable everywhere
            return v.ssa
        assert v.aff is not None
        if isinstance(v.aff, AffineDimExpr):
            return self.leaves[v.aff.position]
        # (not kept on the value: emitted here, it may sit in a block the value outlives)
        amap, operands = self.affine_map([v.aff])
        return self.emit(affine.ApplyOp(operands, amap), node).results[0]

    def int_val(self, ssa: SSAValue) -> Val:
        """A Python int computed as an index value; a symbol when defined at the top."""
        return Val("int", ssa, self.leaf(ssa) if self.top_level(ssa) else None)

    def convert(self, v: Val, kind: Kind, node: ast.AST | None, store: bool = False) -> Val:
        """``v`` as ``kind`` (numpy's conversion; float -> int truncates, only when storing)."""
        if v.kind == kind:
            return v
        if v.kind == BOOL or kind == BOOL:
            raise self.unsupported(node, f"use of a comparison result as a number ({kind_text(v.kind)} to {kind_text(kind)})")
        if v.const is not None and v.ssa is None:
            c = v.const
            if is_float(v.kind) and is_int(kind):
                if not np.isfinite(c):
                    raise self.error(node, f"{c} cannot be stored as an integer")
                c = int(c)
            elif kind == "float":
                c = float(c)
            return Val(kind, None, AffineExpr.constant(c) if kind == "int" else None, c)
        if is_float(v.kind) and is_int(kind) and not store:
            raise self.unsupported(node, f"implicit conversion of {kind_text(v.kind)} to {kind_text(kind)}")
        src = self.ssa(v, node)
        st, tt = src.type, mlir_type(kind)
        if st == tt:  # f64 <-> Python float
            return Val(kind, src)
        ops: list[Operation] = []
        x = src
        if isinstance(x.type, IndexType):
            ops.append(arith.IndexCastOp(x, tt if isinstance(tt, IntegerType) else IntegerType(64)))
            x = ops[-1].results[0]
            if isinstance(tt, IntegerType) and tt.width.data < 64 and not (isinstance(src, BlockArgument) and src.block is self.entry):
                # (an int argument itself: Kernel._check_narrowed)
                self.narrowing.append((v.aff, src, tt.width.data, self.loc(node)))
        if isinstance(tt, IndexType):
            if not isinstance(x.type, IntegerType):
                ops.append(arith.FPToSIOp(x, IntegerType(64)))
                x = ops[-1].results[0]
            ops.append(arith.IndexCastOp(x, tt))
        elif x.type == tt:
            pass
        elif isinstance(x.type, IntegerType) and isinstance(tt, IntegerType):
            ops.append((arith.ExtSIOp if tt.width.data > x.type.width.data else arith.TruncIOp)(x, tt))
        elif isinstance(x.type, IntegerType):
            ops.append(arith.SIToFPOp(x, tt))  # type: ignore[arg-type]
        elif isinstance(tt, IntegerType):
            ops.append(arith.FPToSIOp(x, tt))
        else:
            ops.append((arith.ExtFOp if tt.bitwidth > x.type.bitwidth else arith.TruncFOp)(x, tt))  # type: ignore[attr-defined]
        if self.hoistable(src):
            # a cast of an argument (or of a constant): once, at the top
            out = src
            for i, op in enumerate(ops):
                out = self.hoist(("cast", src, str(tt), i), lambda op=op: op)
        else:
            for op in ops:
                out = self.emit(op, node).results[0]
        return self.int_val(out) if kind == "int" else Val(kind, out)

    # -- the function -------------------------------------------------------------
    def build(self) -> ModuleOp:
        arg_types: list[Attribute] = []
        for name, spec in self.params:
            if isinstance(spec, Array):
                t: Attribute = MemRefType(ELEMENT_TYPES[spec.dtype], [DYNAMIC_INDEX] * spec.rank)
            else:
                t = mlir_type(spec)
            arg_types.append(t)
        self.entry = Block(arg_types=arg_types)
        self.block = self.entry
        for (name, spec), arg in zip(self.params, self.entry.args):
            arg.name_hint = name
            if isinstance(spec, Array):
                self.arrays[name] = ArrayArg(arg, spec.dtype.name, spec.rank)
            elif spec == "int":
                self.env[name] = Val("int", arg, self.leaf(arg))
            else:
                self.env[name] = Val(spec, arg)  # "float", or a numpy scalar's dtype name
        body = list(self.fdef.body)
        if body and isinstance(body[-1], ast.Return):
            ret = body.pop()
        else:
            ret = None
        self.stmts(body)
        results: list[SSAValue] = []
        if ret is not None and ret.value is not None:
            self.node = ret
            v = self.expr(ret.value)
            if v.kind == BOOL:
                raise self.unsupported(ret, "return of a comparison result")
            self.result = v
            results = [self.ssa(v, ret)]
        self.emit(func.ReturnOp(*results), ret or self.fdef)
        fn = func.FuncOp(self.fdef.name, FunctionType.from_lists(arg_types, [r.type for r in results]), Region(self.entry))
        line, col = self.loc(self.fdef)
        fn.location = FileLineColLoc(StringAttr(self.filename), IntAttr(line), IntAttr(col))
        module = ModuleOp([fn])
        _drop_unused_hoisted(self.entry)
        return module

    # -- statements -------------------------------------------------------------
    def stmts(self, body: Sequence[ast.stmt]) -> None:
        for s in body:
            self.node = s
            m = getattr(self, f"st_{type(s).__name__}", None)
            if m is None:
                what = STATEMENT_WORDS.get(type(s).__name__, f"statement '{type(s).__name__}'")
                raise self.unsupported(s, what)
            m(s)

    def st_Pass(self, s: ast.Pass) -> None:
        pass

    def st_Return(self, s: ast.Return) -> None:
        raise self.unsupported(s, "'return' before the end of the kernel (only a last 'return value' at its top level)")

    def st_Expr(self, s: ast.Expr) -> None:
        if isinstance(s.value, ast.Constant) and isinstance(s.value.value, str):
            return  # a docstring
        if isinstance(s.value, ast.Call):
            raise self.unsupported(s, f"call of {call_name(s.value)} as a statement (a kernel's only effects are array stores)")
        raise self.unsupported(s, "expression statement (its value is unused)")

    def st_Assign(self, s: ast.Assign) -> None:
        if len(s.targets) != 1:
            raise self.unsupported(s, "chained assignment (a = b = ...)")
        self.assign(s.targets[0], s.value, s)

    def st_AnnAssign(self, s: ast.AnnAssign) -> None:
        if s.value is None:
            raise self.unsupported(s, "declaration without a value")
        self.assign(s.target, s.value, s)

    def st_AugAssign(self, s: ast.AugAssign) -> None:
        t = s.target
        if isinstance(t, ast.Name):
            old = self.read(t.id, t)
            self.bind(t.id, self.binop(s.op, old, self.expr(s.value), s), s)
        elif isinstance(t, ast.Subscript):
            arr, idx = self.access(t)
            old = self.load(arr, idx, t)
            self.store(arr, idx, self.binop(s.op, old, self.expr(s.value), s), s)
        else:
            raise self.unsupported(s, f"augmented assignment to {expr_word(t)}")

    def assign(self, target: ast.expr, value: ast.expr, s: ast.stmt) -> None:
        if isinstance(target, ast.Name):
            self.bind(target.id, self.expr(value), s)
        elif isinstance(target, ast.Subscript):
            v = self.expr(value)
            arr, idx = self.access(target)
            self.store(arr, idx, v, s)
        elif isinstance(target, (ast.Tuple, ast.List)):
            raise self.unsupported(target, "tuple assignment")
        else:
            raise self.unsupported(target, f"assignment to {expr_word(target)}")

    def bind(self, name: str, v: Val, node: ast.AST) -> None:
        if name in self.arrays:
            raise self.unsupported(node, f"assignment to the array argument '{name}' (store into it: {name}[...] = ...)")
        self.env[name] = v

    def st_For(self, s: ast.For) -> None:
        if s.orelse:
            raise self.unsupported(s, "'for ... else'")
        if not isinstance(s.target, ast.Name):
            raise self.unsupported(s.target, "loop target (one name: for i in range(...))")
        name = s.target.id
        if name in self.arrays:
            raise self.unsupported(s.target, f"loop variable '{name}' shadowing an array argument")
        lo, hi, step = self.range_of(s.iter)
        lo_exprs, hi_exprs = self._range_exprs
        narrowing_before = len(self.narrowing)
        assigned, inner_targets = assigned_names(s.body)
        carried = [n for n in sorted(assigned) if n != name and isinstance(self.env.get(n), Val)]
        kinds = [self.env[n].kind for n in carried]  # type: ignore[union-attr]
        outer_block, saved = self.block, dict(self.env)
        for _attempt in range(4):
            block = Block(arg_types=[IndexType(), *[mlir_type(k) for k in kinds]])
            block.args[0].name_hint = name
            self.block = block
            self.env[name] = Val("int", block.args[0], self.leaf(block.args[0], iv=True))
            self.iv_bounds[self.leaf_ids[block.args[0]]] = (lo_exprs, hi_exprs)
            del self.narrowing[narrowing_before:]  # (a body read again: its casts once)
            for n, k, a in zip(carried, kinds, block.args[1:]):
                a.name_hint = n
                self.env[n] = Val(k, a)
            self.stmts(s.body)
            outs = []
            for n in carried:
                v = self.env[n]
                if isinstance(v, Undefined):
                    raise self.error(s, f"'{n}' is defined before the loop but not at the end of its body (line {v.line})")
                outs.append(v)
            joined = [join_kind(k, v.kind) for k, v in zip(kinds, outs)]
            for n, j, v in zip(carried, joined, outs):
                if j is None:
                    raise self.unsupported(s, f"loop-carried variable '{n}' changing between a comparison result and a number")
            if joined == kinds:
                yields = [self.ssa(self.convert(v, k, s), s) for v, k in zip(outs, kinds)]
                self.emit(affine.YieldOp.get(*yields), s)
                break
            # a Python int/float meeting an array element becomes that element's type
            # (numpy's promotion): carry the joined type from the start, and read the body again
            kinds = joined
            self.block, self.env = outer_block, dict(saved)
            block.erase(safe_erase=False)
        else:
            raise self.unsupported(s, f"loop-carried variables whose types keep changing ({', '.join(carried)})")
        self.block = outer_block
        self.env = dict(saved)
        inits = [self.ssa(self.convert(self.env[n], k, s), s) for n, k in zip(carried, kinds)]  # type: ignore[arg-type]
        (lmap, lops), (umap, uops) = lo, hi
        op = affine.ForOp.from_region(lops, uops, inits, [mlir_type(k) for k in kinds], lmap, umap, Region(block), step)
        self.emit(op, s)
        for n, k, r in zip(carried, kinds, op.results):
            r.name_hint = n
            self.env[n] = Val(k, r) if k != "int" else self.int_val(r)
        line = self.loc(s)[0]
        # (an inner loop's variable too: Python would leave it at its last value)
        for n in assigned | inner_targets | {name}:
            if n not in carried:
                self.env[n] = Undefined(line, "loop")

    def range_of(self, it: ast.expr):
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range" and "range" not in self.env and self.scope("range") is range and not it.keywords):
            raise self.unsupported(it, "loop (only 'for i in range(...)')")
        args = it.args
        if not 1 <= len(args) <= 3 or any(isinstance(a, ast.Starred) for a in args):
            raise self.unsupported(it, "range() call (range(stop), range(start, stop) or range(start, stop, step))")
        lo_node = args[0] if len(args) >= 2 else None
        hi_node = args[1] if len(args) >= 2 else args[0]
        step = 1
        if len(args) == 3:
            sv = self.expr(args[2])
            if not (sv.kind == "int" and sv.const is not None and sv.const > 0):
                raise self.unsupported(args[2], "range step (a positive integer literal)")
            step = sv.const
        lo = self.bound(lo_node, "max") if lo_node is not None else (AffineMapAttr(AffineMap(0, 0, (AffineExpr.constant(0),))), [])
        lo_exprs = self._bound_exprs if lo_node is not None else [AffineExpr.constant(0)]
        hi = self.bound(hi_node, "min")
        self._range_exprs = (lo_exprs, self._bound_exprs)
        return lo, hi, step

    def bound(self, node: ast.expr, combine: str):
        """A loop bound as an affine map; ``max(...)`` in a start and ``min(...)`` in a stop are the map's several results."""
        parts = [node]
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == combine and combine not in self.env and len(node.args) >= 2 and not node.keywords:
            parts = list(node.args)
        exprs = []
        for p in parts:
            v = self.expr(p)
            if is_int(v.kind) and v.kind != "int":
                v = self.convert(v, "int", p)
            if v.kind != "int":
                raise self.unsupported(p, f"loop bound of type {kind_text(v.kind)} (an int)")
            if v.aff is None:
                raise self.unsupported(p, "loop bound: not affine in the arguments and the enclosing loop variables")
            exprs.append(v.aff)
        self._bound_exprs = exprs
        return self.affine_map(exprs)

    def st_If(self, s: ast.If) -> None:
        cond = self.condition(s.test)
        if cond.const is not None:  # a literal condition: only its branch exists
            self.stmts(s.body if cond.const else s.orelse)
            return
        assigned, inner_targets = assigned_names(s.body + s.orelse)
        assigned |= inner_targets  # (bound as Undefined in the branch that loops)
        before = dict(self.env)
        def both() -> tuple[dict, dict]:
            self.stmts(s.body)
            then_env = self.env
            self.env = dict(before)
            self.stmts(s.orelse)
            else_env = self.env
            self.env = dict(before)
            return then_env, else_env

        # if-conversion: both branches are pure scalar code, so both run and select
        ok, envs = self.speculate(both) if pure_stmts(s.body) and pure_stmts(s.orelse) else (False, None)
        self.env = dict(before)
        if ok:
            then_env, else_env = envs
            for n in sorted(assigned):
                a, b = then_env.get(n), else_env.get(n)
                if not (isinstance(a, Val) and isinstance(b, Val)):
                    self.env[n] = Undefined(self.loc(s)[0], "branch")
                    continue
                if a is b:
                    continue
                k = join_kind(a.kind, b.kind)
                if k is None:
                    raise self.unsupported(s, f"'{n}' being a comparison result in one branch and a number in the other")
                x, y = self.ssa(self.convert(a, k, s), s), self.ssa(self.convert(b, k, s), s)
                r = self.emit(arith.SelectOp(self.ssa(cond, s), x, y), s).results[0]
                self.env[n] = self.int_val(r) if k == "int" else Val(k, r)
            return
        outer = self.block
        branches = []
        for body in (s.body, s.orelse):
            blk = Block()
            self.block, self.env = blk, dict(before)
            self.stmts(body)
            branches.append((blk, self.env))
        self.block, self.env = outer, dict(before)
        outs, kinds = [], []
        for n in sorted(assigned):
            a, b = branches[0][1].get(n), branches[1][1].get(n)
            if isinstance(a, Val) and isinstance(b, Val):
                k = join_kind(a.kind, b.kind)
                if k is None:
                    raise self.unsupported(s, f"'{n}' being a comparison result in one branch and a number in the other")
                outs.append(n)
                kinds.append(k)
            else:
                self.env[n] = Undefined(self.loc(s)[0], "branch")
        for blk, env in branches:
            self.block = blk
            self.emit(scf.YieldOp(*[self.ssa(self.convert(env[n], k, s), s) for n, k in zip(outs, kinds)]), s)  # type: ignore[arg-type]
        self.block = outer
        op = scf.IfOp(self.ssa(cond, s), [mlir_type(k) for k in kinds], Region(branches[0][0]), Region(branches[1][0]))
        self.emit(op, s)
        for n, k, r in zip(outs, kinds, op.results):
            r.name_hint = n
            self.env[n] = self.int_val(r) if k == "int" else Val(k, r)

    # -- arrays --------------------------------------------------------------------
    def access(self, node: ast.Subscript) -> tuple[ArrayArg, list[Val]]:
        chain: list[ast.expr] = []
        base: ast.expr = node
        while isinstance(base, ast.Subscript):
            sl = base.slice
            chain[:0] = list(sl.elts) if isinstance(sl, ast.Tuple) else [sl]
            base = base.value
        if not isinstance(base, ast.Name) or base.id not in self.arrays:
            raise self.unsupported(node, f"subscript of {expr_word(base)} (only array arguments are indexed)")
        arr = self.arrays[base.id]
        if any(isinstance(e, (ast.Slice, ast.Starred)) or (isinstance(e, ast.Constant) and e.value is Ellipsis) for e in chain):
            raise self.unsupported(node, f"slice of '{base.id}' (kernels index one element: {base.id}[i, j])")
        if len(chain) != arr.rank:
            raise self.unsupported(node, f"access {base.id} with {len(chain)} index(es): it has {arr.rank} dims (whole rows are not values)")
        idx = []
        for e in chain:
            v = self.expr(e)
            if is_int(v.kind) and v.kind != "int":
                v = self.convert(v, "int", e)
            if v.kind != "int":
                raise self.unsupported(e, f"index of type {kind_text(v.kind)} into '{base.id}' (an int)")
            if v.const is not None and v.const < 0:
                raise self.unsupported(e, f"negative index {v.const} into '{base.id}' (Python's wrap-around from the end is not modelled: write {base.id}.shape[d] - {-v.const})")
            idx.append(v)
        return arr, idx

    def load(self, arr: ArrayArg, idx: list[Val], node: ast.AST) -> Val:
        et = mlir_type(arr.dtype)
        if all(v.aff is not None for v in idx):
            amap, operands = self.affine_map([v.aff for v in idx])  # type: ignore[misc]
            op: Operation = affine.LoadOp(arr.ssa, operands, amap, et)
        else:
            op = memref.LoadOp.get(arr.ssa, [self.ssa(v, node) for v in idx])
        return Val(arr.dtype, self.emit(op, node).results[0])

    def store(self, arr: ArrayArg, idx: list[Val], v: Val, node: ast.AST) -> None:
        value = self.ssa(self.convert(v, arr.dtype, node, store=True), node)
        if all(x.aff is not None for x in idx):
            amap, operands = self.affine_map([x.aff for x in idx])  # type: ignore[misc]
            self.emit(affine.StoreOp(value, arr.ssa, operands, amap), node)
        else:
            self.emit(memref.StoreOp.get(value, arr.ssa, [self.ssa(x, node) for x in idx]), node)

    def dim(self, arr: ArrayArg, d: int, node: ast.AST) -> Val:
        if not -arr.rank <= d < arr.rank:
            raise self.error(node, f"dimension {d} of a {arr.rank}-d array")
        d %= arr.rank
        c = self.constant(d, "int", node)
        v = self.hoist(("dim", arr.ssa, d), lambda: memref.DimOp(arr.ssa, c))
        v.name_hint = f"{arr.ssa.name_hint}_dim{d}"  # (extract-streams names its symbols after it)
        return self.int_val(v)


def _drop_unused_hoisted(entry: Block) -> None:
    """Constants and casts a discarded reading of a loop body left behind."""
    changed = True
    while changed:
        changed = False
        for op in list(entry.ops):
            if isinstance(op, (arith.ConstantOp, arith.IndexCastOp, arith.SIToFPOp, arith.ExtFOp, arith.TruncFOp, arith.ExtSIOp, arith.TruncIOp, arith.FPToSIOp, memref.DimOp)) and not any(r.uses for r in op.results):
                entry.erase_op(op)
                changed = True
