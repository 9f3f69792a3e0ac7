"""Host code as data, compiled to nested Python closures (numpy only, no xDSL).

Takes the data form of a module's host functions (``host_form.host_data``:
plain lists, dicts, strings and numbers; docs/bundles.md, section "host") and
gives a ``HostProgram`` whose ``run`` executes a function with the same
results, array contents and one-line errors as ``infs.runtime.host`` runs the
module on xDSL's interpreter -- op for op the same representation too
(integers as Python ints wrapped to their width, f32 as ``numpy.float32``,
the numpy semantics of ``scalar_ops`` for the ops the host runs through
numpy).  ``test/test_host_program.py`` runs both on every workload and on
each op with edge values.

The data is untrusted (a bundle from someone else): ``compile_host`` checks
every field, every value's type, that each operand is defined before it is
used in an enclosing scope (SSA dominance) and the arity of every region and
terminator, and raises one ``BundleError`` line naming the function and op.
Nothing is ``eval``-ed: each op becomes a closure from a fixed table of the
ops below, so a bundle can run nothing but the program it describes.
Offloaded parts (``stream.region``, ``tdfg.graph``, ``pimcmd.program``) are
"offload" calls (kind, index); ``run`` calls the executor given for
their kind with (index, arrays, scalars).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from infs.arith_semantics import CMPF_PREDICATES
from infs.runtime.bundle.host_values import (
    CMPI_PREDICATES,
    DIVIDES,
    Executor,
    FLOATS,
    HOST_FORMAT,
    MAX_NESTING,
    MAX_SLOTS,
    NUMPY_KINDS,
    NUMPY_OPS,
    OFFLOAD_KINDS,
    OPS,
    PYTHON_INT_OPS,
    TERMINATORS,
    WRAPPING,
    check_type,
    dtype_of,
    int_width,
    is_float,
    is_memref,
    short_repr,
    site_label,
    to_signed,
    to_unsigned,
    type_text,
)
from infs.runtime.bundle.errors import BundleError, HostRunError
from infs.runtime import memory
from infs.runtime.call_depth import MAX_CALL_DEPTH, deep_calls
from infs.runtime.memory import phantom_array


# ---------------------------------------------------------------------------
# Allocation (host.checked_alloc / phantom_array)
# ---------------------------------------------------------------------------


def checked_alloc(shape: Sequence[int], dtype: np.dtype, what: str) -> np.ndarray:
    return memory.checked_alloc(shape, dtype, what, HostRunError)


# ---------------------------------------------------------------------------
# The run state and the compiled program
# ---------------------------------------------------------------------------


class _Run:
    """One run: the executors, the globals made so far, the call depth."""

    __slots__ = ("executors", "phantom", "globals", "depth")

    def __init__(self, executors: Mapping[str, Executor | None], phantom: bool):
        self.executors = executors
        self.phantom = phantom
        self.globals: dict[str, np.ndarray] = {}
        self.depth = 0


class _OffloadFailed(Exception):
    """Carries an executor's own exception through the run's safety net unchanged."""


class HostFunction:
    __slots__ = ("name", "public", "arg_names", "arg_types", "result_types", "n_slots", "body", "has_body")

    def __init__(self, name, public, arg_names, arg_types, result_types):
        self.name, self.public, self.arg_names, self.arg_types, self.result_types = name, public, arg_names, arg_types, result_types
        self.n_slots = 0
        self.body: Callable[[_Run, tuple], tuple] | None = None
        self.has_body = False


class HostProgram:
    """A module's host functions compiled to closures (``compile_host``)."""

    def __init__(self, functions: dict[str, HostFunction], globals_: dict[str, tuple[tuple[int, ...], np.dtype, bytes | None]], n_offloads: dict[str, int]):
        self.functions = functions
        self.globals = globals_
        self.n_offloads = n_offloads  # offload calls of each kind (indices 0..n-1)
        # (kind, index) -> (its array operands' value numbers, its operand types, its result types)
        self.offload_calls: dict[tuple[str, int], tuple[tuple[int, ...], tuple, tuple]] = {}

    def find(self, name: str | None = None) -> HostFunction:
        funcs = [f for f in self.functions.values() if f.has_body]
        if name is None:
            public = [f for f in funcs if f.public]
            if len(public) != 1:
                raise HostRunError(f"the module has {len(public)} public functions; name the one to run")
            return public[0]
        for f in funcs:
            if f.name == name:
                return f
        raise HostRunError(f"no function named '{name}' (have: {', '.join(f.name for f in funcs)})")

    def run(
        self,
        args: Mapping[str, Any] | Sequence[Any],
        name: str | None = None,
        region: Executor | None = None,
        graph: Executor | None = None,
        program: Executor | None = None,
        phantom_alloc: bool = False,
    ) -> tuple[Any, ...]:
        """Run a function as ``infs.runtime.host.run_function`` does: arrays updated
        in place, its results as numpy scalars of their types.  Each offload
        offload call of kind k calls the k executor with (index, arrays, scalars)."""
        fn = self.find(name)
        values = _bind_arguments(fn, args)
        st = _Run({"region": region, "graph": graph, "program": program}, phantom_alloc)
        st.globals = {}
        try:
            with deep_calls():
                results = fn.body(st, tuple(values))
        except _OffloadFailed as e:
            raise e.args[0] from None
        except HostRunError:
            raise
        except RecursionError:
            raise HostRunError(f"@{fn.name}: the host's calls and scf regions nest too deep for Python's stack") from None
        except (TypeError, ValueError, IndexError, KeyError, AttributeError, OverflowError, ZeroDivisionError, MemoryError) as e:
            # the checks of compile_host leave nothing to reach this: a line, never a traceback, all the same
            raise HostRunError(f"@{fn.name}: the host program stopped ({type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''})") from None
        return tuple(_typed_result(r, t) for r, t in zip(results, fn.result_types))

    def make_global(self, st: _Run, name: str, label: str) -> np.ndarray:
        if name not in st.globals:
            shape, dt, raw = self.globals[name]
            if raw is None:
                st.globals[name] = checked_alloc(shape, dt, f"{label} of @{name}")
            else:
                vals = np.frombuffer(raw, dtype=dt.newbyteorder("<")).astype(dt)
                st.globals[name] = (np.full(shape, vals.item(), dt) if vals.size == 1 else vals.reshape(shape)).copy()
        return st.globals[name]


def _typed_result(value: Any, t: Any) -> Any:
    if isinstance(value, (int, float, np.number)) and not isinstance(value, bool) and t != "index":
        dt = dtype_of(t) if not is_memref(t) else None
        if dt is None:
            return value
        return np.asarray(value).astype(dt)[()]
    return value


def _bind_arguments(fn: HostFunction, args: Mapping[str, Any] | Sequence[Any]) -> list[Any]:
    if isinstance(args, Mapping):
        i = next((i for i, n in enumerate(fn.arg_names) if n is None), None)
        if i is not None:
            raise HostRunError(f"argument #{i} of @{fn.name} has no name (%{i}): name the arguments (%A, %n, ...) to bind them by name")
        extra = [k for k in args if k not in fn.arg_names]
        if extra:
            takes = ", ".join(f"%{n}" for n in fn.arg_names)
            raise HostRunError(f"@{fn.name} has no argument {', '.join(map(repr, extra))} (it takes {takes})")
        out = []
        for n in fn.arg_names:
            if n not in args:
                raise HostRunError(f"no value bound for argument %{n} of @{fn.name}")
            out.append(args[n])
        args = out
    if len(args) != len(fn.arg_types):
        raise HostRunError(f"@{fn.name} takes {len(fn.arg_types)} arguments, got {len(args)}")
    vals = []
    for n, t, v in zip(fn.arg_names, fn.arg_types, args):
        if is_memref(t):
            want = dtype_of(t[2])
            if not isinstance(v, np.ndarray) or v.dtype != want or v.ndim != len(t[1]):
                raise HostRunError(f"argument %{n} of @{fn.name} must be a rank-{len(t[1])} numpy array of {want}")
            for s, k in zip(t[1], v.shape):
                if s >= 0 and s != k:
                    raise HostRunError(f"argument %{n} has shape {list(v.shape)}, expected {type_text(t)}")
            vals.append(v)
        else:
            vals.append(_scalar_argument(fn, n, t, v))
    return vals


def _scalar_argument(fn: HostFunction, name: str | None, t: Any, v: Any) -> Any:
    what = f"argument %{name} of @{fn.name} is {t}"
    if isinstance(v, np.ndarray) and v.ndim == 0:
        v = v[()]
    w = int_width(t)
    if w is not None:
        if not isinstance(v, (int, np.integer, np.bool_)):
            raise HostRunError(f"{what}: got {type(v).__name__} {v!r}, expected an integer")
        if w == 1:
            if int(v) not in (0, 1):
                raise HostRunError(f"{what}: got {int(v)}, expected a bool (0 or 1)")
            return bool(v)
        lo, hi = -(2 ** (w - 1)), 2 ** (w - 1) - 1
        if not lo <= int(v) <= hi:
            raise HostRunError(f"{what}: {int(v)} is out of its range [{lo}, {hi}]")
        return int(v)
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.integer, np.floating)):
        raise HostRunError(f"{what}: got {type(v).__name__} {v!r}, expected a number")
    return FLOATS[t].type(v)


# ---------------------------------------------------------------------------
# The checker + compiler: data -> closures
# ---------------------------------------------------------------------------

Block = Callable[[_Run, list, tuple], tuple]


def _field(d: Mapping, key: str, kind: type | tuple, where: str, default: Any = ...) -> Any:
    if key not in d:
        if default is not ...:
            return default
        raise BundleError(f"{where}: no field '{key}'")
    v = d[key]
    if kind is int:
        ok = type(v) is int
    else:
        ok = isinstance(v, kind) and not (isinstance(v, bool) and kind is not bool)
    if not ok:
        raise BundleError(f"{where}: field '{key}' is {short_repr(v)}, not {getattr(kind, '__name__', 'of the right type')}")
    return v


class _Compiler:
    def __init__(self, program: HostProgram, data_functions: Mapping[str, Any]):
        self.program = program
        self.data = data_functions

    # -- one function ------------------------------------------------------
    def function(self, fn: HostFunction, d: Mapping) -> None:
        where = f"host function @{fn.name}"
        types = _field(d, "values", list, where)
        if len(types) > MAX_SLOTS:
            raise BundleError(f"{where}: {len(types)} values, more than {MAX_SLOTS}")
        self.types = [check_type(t, f"{where}, value #{i}") for i, t in enumerate(types)]
        self.fn = fn
        self.where = where
        self.defined: set[int] = set()
        self.scope: set[int] = set()
        fn.n_slots = len(self.types)
        body = d.get("body")
        if body is None:
            return
        args = self.slots(_field(body, "args", list, where) if isinstance(body, dict) else None, where + ", entry block", define=True)
        if [self.types[a] for a in args] != fn.arg_types:
            raise BundleError(f"{where}: the entry block's arguments do not have the function's types")
        block = self.block(body, args, "func.return", len(fn.result_types), 0, where)
        n_slots = fn.n_slots

        def call(st: _Run, values: tuple) -> tuple:
            return block(st, [None] * n_slots, values)

        fn.body = call
        fn.has_body = True

    def slots(self, v: Any, where: str, define: bool = False) -> list[int]:
        if not isinstance(v, list) or not all(type(i) is int for i in v):
            raise BundleError(f"{where}: {short_repr(v)} is not a list of value numbers")
        for i in v:
            if not 0 <= i < len(self.types):
                raise BundleError(f"{where}: value #{i} does not exist (the function has {len(self.types)})")
            if define:
                if i in self.defined:
                    raise BundleError(f"{where}: value #{i} is defined twice")
                self.defined.add(i)
            elif i not in self.scope:
                raise BundleError(f"{where}: value #{i} is used where it is not defined")
        return v

    # -- a block: its args bound, its ops run, its terminator's values returned
    def block(self, d: Any, args: list[int], terminator: str, n_yield: int | None, depth: int, where: str,
              yield_types: list | None = None) -> Block:  # fmt: skip
        if depth > MAX_NESTING:
            raise BundleError(f"{where}: regions nest more than {MAX_NESTING} deep")
        if not isinstance(d, dict):
            raise BundleError(f"{where}: a block is {short_repr(d)}, not an object")
        ops = _field(d, "ops", list, where)
        outer = self.scope
        self.scope = set(outer) | set(args)
        try:
            if not ops or not isinstance(ops[-1], dict) or ops[-1].get("op") != terminator:
                raise BundleError(f"{where}: the block does not end with '{terminator}'")
            compiled = []
            for k, op in enumerate(ops[:-1]):
                compiled.append(self.op(op, depth, f"{where}, op #{k}"))
            term = ops[-1]
            tw = f"{where}, op #{len(ops) - 1} ('{terminator}')"
            self.fields(term, {"op", "in", "line"}, tw)
            ret = self.slots(_field(term, "in", list, tw), tw)
            want_types = yield_types
            if terminator == "func.return":
                want_types = self.fn.result_types
            if n_yield is not None and len(ret) != n_yield:
                raise BundleError(f"{tw}: {len(ret)} values where {n_yield} are expected")
            if want_types is not None and [self.types[r] for r in ret] != list(want_types):
                raise BundleError(f"{tw}: its values' types are not the ones expected")
        finally:
            self.scope = outer
        arg_slots = tuple(args)
        ops_t = tuple(compiled)
        ret_t = tuple(ret)

        if len(arg_slots) == 0:
            def run(st: _Run, env: list, values: tuple) -> tuple:
                for f in ops_t:
                    f(st, env)
                return tuple([env[r] for r in ret_t])
        else:
            def run(st: _Run, env: list, values: tuple) -> tuple:
                for a, v in zip(arg_slots, values):
                    env[a] = v
                for f in ops_t:
                    f(st, env)
                return tuple([env[r] for r in ret_t])
        return run

    @staticmethod
    def fields(d: Mapping, allowed: set[str], where: str) -> None:
        extra = [k for k in d if k not in allowed]
        if extra:
            raise BundleError(f"{where}: unknown field {short_repr(extra[0])}")

    # -- one op ------------------------------------------------------------
    def op(self, d: Any, depth: int, where: str) -> Callable[[_Run, list], None]:
        if not isinstance(d, dict):
            raise BundleError(f"{where}: an op is {short_repr(d)}, not an object")
        name = _field(d, "op", str, where)
        if name not in OPS or name in TERMINATORS:
            raise BundleError(f"{where}: {short_repr(name)} is not an op of the host's data form" if name not in OPS else f"{where}: '{name}' inside a block")
        where = f"{where} ('{name}')"
        line = _field(d, "line", int, where, None)
        label = site_label(name, line) if name not in ("offload", "cast") else site_label(_field(d, "name", str, where, name), line)
        ins = self.slots(_field(d, "in", list, where, []), where)
        outs = _field(d, "out", list, where, [])
        regions = _field(d, "regions", list, where, [])
        tin = [self.types[i] for i in ins]
        # results are defined after the op's regions (they are not visible inside them)
        out_types = None
        if isinstance(outs, list) and all(type(i) is int and 0 <= i < len(self.types) for i in outs):
            out_types = [self.types[i] for i in outs]
        else:
            self.slots(outs, where)  # the error
        build = getattr(self, "op_" + name.replace(".", "_"), None) or self.op_generic
        f = build(d, name, label, ins, outs, tin, out_types, regions, depth, where)
        self.slots(outs, where, define=True)
        self.scope |= set(outs)
        return f

    def expect(self, cond: bool, where: str, what: str) -> None:
        if not cond:
            raise BundleError(f"{where}: {what}")

    def op_generic(self, d, name, label, ins, outs, tin, tout, regions, depth, where):
        self.expect(not regions, where, "this op has no regions")
        if name in NUMPY_OPS:
            return self.numpy_op(d, name, label, ins, outs, tin, tout, where)
        if name in PYTHON_INT_OPS:
            return self.int_op(d, name, label, ins, outs, tin, tout, where)
        return getattr(self, "leaf_" + name.replace(".", "_"))(d, name, label, ins, outs, tin, tout, where)

    # scalar arith ------------------------------------------------------
    def numpy_op(self, d, name, label, ins, outs, tin, tout, where):
        arity, f, is_cast = NUMPY_OPS[name]
        self.expect(len(ins) == arity and len(outs) == 1, where, f"takes {arity} operands and gives 1 result")
        self.expect(not any(is_memref(t) for t in (*tin, *tout)), where, "a scalar op on a memref")
        (o,) = outs
        rt = tout[0]
        if any(int_width(t) and dtype_of(t) is None for t in (*tin, rt)):
            return self.odd_width_op(name, label, ins, o, tin, rt, where)
        self.expect(is_cast or all(t == rt for t in tin) or name == "math.fpowi", where, "operand and result types differ")
        kinds = NUMPY_KINDS.get(name, "ff")
        self.expect(all((int_width(t) is not None) == (k == "i") for t, k in zip((*tin, rt), kinds[:-1] * len(tin) + kinds[-1:]))
                    if name != "math.fpowi" else (is_float(tin[0]) and int_width(tin[1]) and rt == tin[0]), where, "operand or result of the wrong kind")  # fmt: skip
        dts = tuple(dtype_of(t) for t in tin)
        rdt = dtype_of(rt)
        checks_zero = name in DIVIDES

        def conv(a, dt):
            with np.errstate(over="ignore"):
                x = np.asarray(a)
                return x.astype(dt) if x.dtype != dt else x

        if is_cast:
            (i0,) = ins
            (d0,) = dts

            def run(st, env):
                a = conv(env[i0], d0)
                with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
                    v = np.asarray(f(a, rdt)).astype(rdt, copy=False)[()]
                env[o] = int(v) if isinstance(v, np.integer) else v
        else:
            pairs = tuple(zip(ins, dts))

            def run(st, env):
                args = [conv(env[i], dt) for i, dt in pairs]
                with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
                    if checks_zero and np.any(np.asarray(args[1]) == 0):
                        raise HostRunError(f"division by zero in {label}")
                    v = np.asarray(f(*args)).astype(rdt, copy=False)[()]
                env[o] = int(v) if isinstance(v, np.integer) else v
        return run

    def odd_width_op(self, name, label, ins, o, tin, rt, where):
        """host._odd_width_op: an integer width numpy has no type for, on Python ints."""
        win = [int_width(t) for t in tin]
        wout = int_width(rt)
        rdt = dtype_of(rt)
        supported = {"arith.extsi", "arith.extui", "arith.trunci", "arith.divui", "arith.remui", "arith.shrui", "arith.maxsi", "arith.minsi",
                     "arith.maxui", "arith.minui", "arith.floordivsi", "arith.ceildivsi", "arith.sitofp", "arith.uitofp", "arith.fptosi", "math.absi"}  # fmt: skip
        types = ", ".join(type_text(t) for t in tin)
        if name not in supported:
            raise BundleError(f"{label} on {types} is not supported on the host")
        self.expect(wout is not None or name in ("arith.sitofp", "arith.uitofp"), where, "an integer op with a non-integer result")
        self.expect(all(w is not None for w in win) or name == "arith.fptosi", where, "an integer op on a non-integer operand")
        ins_t = tuple(ins)

        def run(st, env):
            args = [env[i] for i in ins_t]
            sv = [to_signed(int(a), w) if w else a for a, w in zip(args, win)]
            uv = [to_unsigned(int(a), w) if w else a for a, w in zip(args, win)]
            if name in ("arith.divui", "arith.remui", "arith.floordivsi", "arith.ceildivsi") and sv[1] == 0:
                raise HostRunError(f"division by zero in {label}")
            if name == "arith.extsi" or name == "arith.trunci":
                r = sv[0]
            elif name == "arith.extui":
                r = uv[0]
            elif name == "arith.divui":
                r = uv[0] // uv[1]
            elif name == "arith.remui":
                r = uv[0] % uv[1]
            elif name == "arith.shrui":
                r = uv[0] >> uv[1] if uv[1] < wout else 0
            elif name in ("arith.maxsi", "arith.minsi"):
                r = (max if name == "arith.maxsi" else min)(sv)
            elif name in ("arith.maxui", "arith.minui"):
                r = (max if name == "arith.maxui" else min)(uv)
            elif name == "arith.floordivsi":
                r = sv[0] // sv[1]
            elif name == "arith.ceildivsi":
                r = -(-sv[0] // sv[1])
            elif name in ("arith.sitofp", "arith.uitofp"):
                x = (sv if name == "arith.sitofp" else uv)[0]
                with np.errstate(over="ignore"):
                    env[o] = np.asarray(float(x) if abs(x) < 2**1000 else math.copysign(math.inf, x)).astype(rdt)[()]
                return
            elif name == "arith.fptosi":
                x = float(args[0])
                r = int(x) if math.isfinite(x) else 0
            else:  # math.absi
                r = abs(sv[0])
            env[o] = to_signed(r, wout)

        return run

    def int_op(self, d, name, label, ins, outs, tin, tout, where):
        self.expect(len(ins) == 2 and len(outs) == 1, where, "takes 2 operands and gives 1 result")
        self.expect(all(int_width(t) for t in (*tin, *tout)) and tin[0] == tin[1] == tout[0], where, "an integer op on other types")
        a, b = ins
        (o,) = outs
        w = int_width(tout[0])
        if name in WRAPPING:
            fn = WRAPPING[name]

            def run(st, env):
                env[o] = to_signed(fn(to_signed(env[a], w), to_signed(env[b], w)), w)
        elif name == "arith.shli":
            def run(st, env):
                amount = to_unsigned(env[b], w)
                env[o] = to_signed(to_signed(env[a], w) << amount, w) if amount < w else 0
        elif name == "arith.shrsi":
            def run(st, env):
                env[o] = to_signed(env[a], w) >> min(to_unsigned(env[b], w), w)
        elif name in ("arith.divsi", "arith.remsi"):
            rem = name == "arith.remsi"

            def run(st, env):
                lhs, rhs = to_signed(env[a], w), to_signed(env[b], w)
                if rhs == 0:
                    raise HostRunError(f"division by zero in {label}")
                q = abs(lhs) // abs(rhs)
                q = -q if (lhs > 0) != (rhs > 0) else q
                env[o] = lhs - q * rhs if rem else to_signed(q, w)
        else:  # arith.ceildivui
            def run(st, env):
                x, y = to_unsigned(int(env[a]), w), to_unsigned(int(env[b]), w)
                if y == 0:
                    raise HostRunError(f"division by zero in {label}")
                env[o] = to_signed(-(-x // y), w)
        return run

    def leaf_arith_cmpi(self, d, name, label, ins, outs, tin, tout, where):
        self.expect(len(ins) == 2 and len(outs) == 1 and tout[0] == "i1", where, "takes 2 operands and gives an i1")
        self.expect(int_width(tin[0]) is not None and tin[0] == tin[1], where, "compares two integers of one type")
        p = _field(d, "predicate", int, where)
        a, b = ins
        (o,) = outs
        w = int_width(tin[0])
        if not 0 <= p < len(CMPI_PREDICATES):
            def run(st, env):
                raise HostRunError(f"{label}: predicate {p} is not one of cmpi's ten")
            return run
        cmp = CMPI_PREDICATES[p]
        conv = to_unsigned if p >= 6 else to_signed

        def run(st, env):
            env[o] = cmp(conv(env[a], w), conv(env[b], w))
        return run

    def leaf_arith_cmpf(self, d, name, label, ins, outs, tin, tout, where):
        self.expect(len(ins) == 2 and len(outs) == 1 and tout[0] == "i1", where, "takes 2 operands and gives an i1")
        self.expect(is_float(tin[0]) and tin[0] == tin[1], where, "compares two floats of one type")
        p = _field(d, "predicate", str, where)
        self.expect(p in CMPF_PREDICATES, where, f"{short_repr(p)} is not a cmpf predicate")
        f = CMPF_PREDICATES[p]
        a, b = ins
        (o,) = outs
        dt = dtype_of(tin[0])

        def run(st, env):
            x, y = np.asarray(env[a]), np.asarray(env[b])
            x = x.astype(dt) if x.dtype != dt else x
            y = y.astype(dt) if y.dtype != dt else y
            with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
                env[o] = np.asarray(f(x, y)).astype(np.bool_, copy=False)[()]
        return run

    def leaf_arith_select(self, d, name, label, ins, outs, tin, tout, where):
        self.expect(len(ins) == 3 and len(outs) == 1 and tin[0] == "i1" and tin[1] == tin[2] == tout[0], where, "takes an i1 and two values of its result's type")
        c, a, b = ins
        (o,) = outs

        def run(st, env):
            env[o] = env[a] if env[c] else env[b]
        return run

    def leaf_arith_index_cast(self, d, name, label, ins, outs, tin, tout, where):
        self.expect(len(ins) == 1 and len(outs) == 1 and int_width(tin[0]) and int_width(tout[0]) and "index" in (tin[0], tout[0]), where, "casts between index and an integer")
        (a,), (o,) = ins, outs
        w = min(int_width(tin[0]), int_width(tout[0]))

        def run(st, env):
            env[o] = to_signed(env[a], w)
        return run

    def leaf_arith_constant(self, d, name, label, ins, outs, tin, tout, where):
        self.expect(not ins and len(outs) == 1 and not is_memref(tout[0]), where, "gives one scalar")
        (o,) = outs
        t = tout[0]
        if is_float(t):
            bits = _field(d, "bits", str, where)
            dt = dtype_of(t)
            try:
                raw = int(bits, 16)
            except ValueError:
                raise BundleError(f"{where}: bits {short_repr(bits)} are not hexadecimal") from None
            self.expect(0 <= raw < 2 ** (dt.itemsize * 8) and len(bits) <= 2 + dt.itemsize * 2, where, f"bits {short_repr(bits)} do not fit a {t}")
            value = np.asarray(raw, dtype=f"u{dt.itemsize}").view(dt)[()]
        else:
            value = _field(d, "value", int, where)
            w = int_width(t)
            self.expect(-(2**w) < value < 2**w, where, f"{value} does not fit a {t}")

        def run(st, env):
            env[o] = value
        return run

    def leaf_arith_fptoui(self, d, name, label, ins, outs, tin, tout, where):
        self.expect(len(ins) == 1 and len(outs) == 1 and is_float(tin[0]) and int_width(tout[0]), where, "casts a float to an integer")
        (a,), (o,) = ins, outs
        w = int_width(tout[0])

        def run(st, env):
            x = float(env[a])
            env[o] = to_signed(int(x) if math.isfinite(x) else 0, w)
        return run

    def _extended(self, name, ins, outs, tin, tout, where):
        self.expect(len(ins) == 2 and len(outs) == 2 and int_width(tin[0]) and tin[0] == tin[1], where, "takes two integers of one type and gives 2 results")
        return int_width(tin[0])

    def leaf_arith_addui_extended(self, d, name, label, ins, outs, tin, tout, where):
        w = self._extended(name, ins, outs, tin, tout, where)
        (a, b), (o, c) = ins, outs

        def run(st, env):
            total = to_unsigned(int(env[a]), w) + to_unsigned(int(env[b]), w)
            env[o], env[c] = to_signed(total, w), total >= 2**w
        return run

    def leaf_arith_mulsi_extended(self, d, name, label, ins, outs, tin, tout, where):
        return self._mul_extended(to_signed, ins, outs, tin, tout, where)

    def leaf_arith_mului_extended(self, d, name, label, ins, outs, tin, tout, where):
        return self._mul_extended(to_unsigned, ins, outs, tin, tout, where)

    def _mul_extended(self, conv, ins, outs, tin, tout, where):
        w = self._extended("", ins, outs, tin, tout, where)
        (a, b), (lo, hi) = ins, outs

        def run(st, env):
            p = conv(int(env[a]), w) * conv(int(env[b]), w)
            env[lo], env[hi] = to_signed(p, w), to_signed(p >> w, w)
        return run

    def leaf_arith_bitcast(self, d, name, label, ins, outs, tin, tout, where):
        self.expect(len(ins) == 1 and len(outs) == 1 and not is_memref(tin[0]) and not is_memref(tout[0]), where, "casts one scalar")
        (a,), (o,) = ins, outs
        src, dst = tin[0], tout[0]
        ws = int_width(src) or dtype_of(src).itemsize * 8
        w = int_width(dst) or dtype_of(dst).itemsize * 8
        self.expect(ws == w and w in (8, 16, 32, 64) or (int_width(src) and int_width(dst)), where, "a bitcast between types of different widths")
        if int_width(src) and int_width(dst):
            def run(st, env):
                env[o] = env[a]
        elif int_width(src):
            ddt = dtype_of(dst)

            def run(st, env):
                env[o] = np.asarray(to_signed(int(env[a]), w), dtype=f"int{w}").view(ddt)[()]
        else:
            sdt = dtype_of(src)
            ddt = None if int_width(dst) else dtype_of(dst)

            def run(st, env):
                bits = np.asarray(env[a], dtype=sdt).view(f"int{w}")[()]
                env[o] = int(bits) if ddt is None else bits.view(ddt)[()]
        return run

    def leaf_cast(self, d, name, label, ins, outs, tin, tout, where):
        # builtin.unrealized_conversion_cast between equal types: the same values
        self.expect(len(ins) == len(outs) and tin == tout, where, "a cast between different types")
        pairs = tuple(zip(ins, outs))

        def run(st, env):
            for i, o in pairs:
                env[o] = env[i]
        return run

    # memref ------------------------------------------------------------
    def leaf_memref_alloc(self, d, name, label, ins, outs, tin, tout, where):
        self.expect(len(outs) == 1 and is_memref(tout[0]), where, "gives one memref")
        t = tout[0]
        dims = t[1]
        self.expect(len(ins) == sum(1 for s in dims if s < 0) and all(x == "index" for x in tin), where, "takes an index per dynamic dim")
        (o,) = outs
        dt = dtype_of(t[2])
        ins_t = tuple(ins)
        what = f"'{name}'"

        def run(st, env):
            dyn = iter([env[i] for i in ins_t])
            shape = [int(next(dyn)) if s < 0 else s for s in dims]
            if any(s < 0 for s in shape):
                raise HostRunError(f"{label} of negative size {shape}")
            env[o] = phantom_array(shape, dt) if st.phantom else checked_alloc(shape, dt, what)
        return run

    leaf_memref_alloca = leaf_memref_alloc

    def leaf_memref_dealloc(self, d, name, label, ins, outs, tin, tout, where):
        self.expect(len(ins) == 1 and not outs and is_memref(tin[0]), where, "takes one memref")
        return lambda st, env: None

    def _indices(self, tin, k, where):
        self.expect(len(tin) > k and is_memref(tin[k]) and len(tin) == k + 1 + len(tin[k][1]) and all(x == "index" for x in tin[k + 1 :]), where, "needs a memref and an index per dim")

    def leaf_memref_load(self, d, name, label, ins, outs, tin, tout, where):
        self._indices(tin, 0, where)
        self.expect(len(outs) == 1 and tout[0] == tin[0][2], where, "gives one element")
        m, *idx = ins
        (o,) = outs
        idx_t = tuple(idx)
        as_int = dtype_of(tin[0][2]).kind in "iu"

        def run(st, env):
            arr = env[m]
            ix = tuple([int(env[i]) for i in idx_t])
            _check_index(arr, ix, label)
            v = arr[ix]
            env[o] = int(v) if as_int else v
        return run

    def leaf_memref_store(self, d, name, label, ins, outs, tin, tout, where):
        self.expect(len(ins) >= 2 and not outs, where, "takes a value, a memref and indices")
        self._indices(tin, 1, where)
        self.expect(tin[0] == tin[1][2], where, "stores a value of another type")
        v, m, *idx = ins
        idx_t = tuple(idx)

        def run(st, env):
            arr = env[m]
            ix = tuple([int(env[i]) for i in idx_t])
            _check_index(arr, ix, label)
            try:
                arr[ix] = env[v]
            except OverflowError:
                arr[ix] = to_signed(int(env[v]), arr.dtype.itemsize * 8)
        return run

    def leaf_memref_dim(self, d, name, label, ins, outs, tin, tout, where):
        self.expect(len(ins) == 2 and is_memref(tin[0]) and tin[1] == "index" and len(outs) == 1 and tout[0] == "index", where, "takes a memref and an index, gives an index")
        (m, k), (o,) = ins, outs

        def run(st, env):
            arr, dim = env[m], int(env[k])
            if not 0 <= dim < arr.ndim:
                raise HostRunError(f"{label}: dimension {dim} of a rank-{arr.ndim} memref")
            env[o] = int(arr.shape[dim])
        return run

    def leaf_memref_copy(self, d, name, label, ins, outs, tin, tout, where):
        self.expect(len(ins) == 2 and not outs and all(is_memref(t) for t in tin) and tin[0][2] == tin[1][2], where, "copies between two memrefs of one element type")
        s, t = ins

        def run(st, env):
            src, dst = env[s], env[t]
            if src.shape != dst.shape:
                raise HostRunError(f"{label} between shapes {list(src.shape)} and {list(dst.shape)}")
            dst[...] = src
        return run

    def leaf_memref_cast(self, d, name, label, ins, outs, tin, tout, where):
        self.expect(len(ins) == 1 and len(outs) == 1 and is_memref(tin[0]) and is_memref(tout[0]) and tin[0][2] == tout[0][2]
                    and len(tin[0][1]) == len(tout[0][1]), where, "casts a memref to one of the same rank and element type")  # fmt: skip
        (a,), (o,) = ins, outs

        def run(st, env):
            env[o] = env[a]
        return run

    def leaf_memref_get_global(self, d, name, label, ins, outs, tin, tout, where):
        gname = _field(d, "name", str, where)
        self.expect(not ins and len(outs) == 1 and is_memref(tout[0]), where, "gives one memref")
        (o,) = outs
        program = self.program
        if gname not in program.globals:
            def run(st, env):
                raise HostRunError(f"'{name}' of @{gname}: the module has no memref.global @{gname}")
            return run
        shape, dt, _ = program.globals[gname]
        self.expect(dtype_of(tout[0][2]) == dt and len(tout[0][1]) == len(shape), where, f"@{gname} is not of its result's type")
        what = f"'{name}'"

        def run(st, env):
            env[o] = program.make_global(st, gname, what)
        return run

    # offloaded parts ---------------------------------------------------
    def leaf_offload(self, d, name, label, ins, outs, tin, tout, where):
        kind = _field(d, "kind", str, where)
        self.expect(kind in OFFLOAD_KINDS, where, f"kind {short_repr(kind)} is not one of {', '.join(OFFLOAD_KINDS)}")
        index = _field(d, "index", int, where)
        n = _field(d, "arrays", int, where)
        self.expect(0 <= n <= len(ins) and all(is_memref(t) for t in tin[:n]) and not any(is_memref(t) for t in tin[n:]), where, "takes its arrays, then its scalars")
        self.expect(0 <= index < 1 << 31 and not any(is_memref(t) for t in tout), where, "a bad index or a memref result")
        self.program.n_offloads[kind] = max(self.program.n_offloads.get(kind, 0), index + 1)
        arrays, scalars, outs_t = tuple(ins[:n]), tuple(ins[n:]), tuple(outs)
        self.expect((kind, index) not in self.program.offload_calls, where, f"a second offload of {kind} {index}")
        self.program.offload_calls[(kind, index)] = (arrays, tuple(tin), tuple(tout))
        n_out = len(outs)
        graph_msg = "a 'tdfg.graph' in the host code runs only in memory or on the lattice (infs.runtime.driver / lattice_eval)"

        def run(st, env):
            ex = st.executors[kind]
            if ex is None:
                raise HostRunError(graph_msg if kind == "graph" else f"{label}: no executor for a {kind} was given")
            try:
                results = ex(index, [env[i] for i in arrays], [env[i] for i in scalars])
                results = [np.asarray(r)[()] for r in results]
            except Exception as e:  # the executor's own error, as it raised it
                raise _OffloadFailed(e) from None
            if len(results) != n_out:
                raise HostRunError(f"{label}: its executor gave {len(results)} results, not {n_out}")
            for o, r in zip(outs_t, results):
                env[o] = int(r) if isinstance(r, np.integer) else r
        return run

    # func ----------------------------------------------------------------
    def leaf_func_call(self, d, name, label, ins, outs, tin, tout, where):
        callee = _field(d, "callee", str, where)
        self.expect(callee in self.data, where, f"@{short_repr(callee)} is not a function of the program")
        target = self.program.functions[callee]
        self.expect(target.arg_types == tin and target.result_types == tout, where, f"the call's types are not @{callee}'s")
        ins_t, outs_t = tuple(ins), tuple(outs)

        def run(st, env):
            if st.depth >= MAX_CALL_DEPTH:
                raise HostRunError(f"{label}: calls nest more than {MAX_CALL_DEPTH:,} deep (a recursion that does not end?)")
            body = target.body
            if body is None:
                raise HostRunError(f"@{callee} is a declaration (no body): the host cannot run a call to it")
            st.depth += 1
            try:
                results = body(st, tuple([env[i] for i in ins_t]))
            finally:
                st.depth -= 1
            for o, r in zip(outs_t, results):
                env[o] = r
        return run

    # scf -----------------------------------------------------------------
    def regions_of(self, regions, n, where):
        self.expect(len(regions) == n, where, f"has {n} regions, not {len(regions)}")
        return regions

    def region_args(self, r, where) -> list[int]:
        self.expect(isinstance(r, dict), where, "a block is not an object")
        return self.slots(_field(r, "args", list, where), where, define=True)

    def op_scf_for(self, d, name, label, ins, outs, tin, tout, regions, depth, where):
        (body,) = self.regions_of(regions, 1, where)
        self.expect(len(ins) >= 3 and all(t == tin[0] for t in tin[:3]) and int_width(tin[0]), where, "takes lower bound, upper bound and step of one integer type")
        self.expect(tin[3:] == tout, where, "its iter_args and results differ")
        args = self.region_args(body, where + ", body")
        self.expect([self.types[a] for a in args] == [tin[0], *tout], where, "its body's arguments are not the induction variable and the iter_args")
        run_body = self.block(body, args, "scf.yield", len(outs), depth + 1, where + ", body", tout)
        lb_s, ub_s, step_s = ins[:3]
        init_t, outs_t = tuple(ins[3:]), tuple(outs)

        def run(st, env):
            lb, ub, step = env[lb_s], env[ub_s], env[step_s]
            if step <= 0:
                raise HostRunError(f"{label} has step {step}: a loop's step must be positive")
            values = tuple([env[i] for i in init_t])
            for i in range(lb, ub, step):
                values = run_body(st, env, (i, *values))
            for o, v in zip(outs_t, values):
                env[o] = v
        return run

    def op_scf_if(self, d, name, label, ins, outs, tin, tout, regions, depth, where):
        then_r, else_r = self.regions_of(regions, 2, where)
        self.expect(len(ins) == 1 and tin[0] == "i1", where, "takes one i1")
        self.expect(not self.region_args(then_r, where + ", then"), where, "its then block has arguments")
        run_then = self.block(then_r, [], "scf.yield", len(outs), depth + 1, where + ", then", tout)
        if else_r is None:
            self.expect(not outs, where, "an if with results has an else region")

            def run_else(st, env, values):
                return ()
        else:
            self.expect(not self.region_args(else_r, where + ", else"), where, "its else block has arguments")
            run_else = self.block(else_r, [], "scf.yield", len(outs), depth + 1, where + ", else", tout)
        (c,) = ins
        outs_t = tuple(outs)

        def run(st, env):
            values = run_then(st, env, ()) if env[c] else run_else(st, env, ())
            for o, v in zip(outs_t, values):
                env[o] = v
        return run

    def op_scf_while(self, d, name, label, ins, outs, tin, tout, regions, depth, where):
        before, after = self.regions_of(regions, 2, where)
        bargs = self.region_args(before, where + ", before")
        self.expect([self.types[a] for a in bargs] == tin, where, "its before block's arguments are not its operands' types")
        run_before = self.block(before, bargs, "scf.condition", 1 + len(outs), depth + 1, where + ", before", ["i1", *tout])
        aargs = self.region_args(after, where + ", after")
        self.expect([self.types[a] for a in aargs] == tout, where, "its after block's arguments are not its results' types")
        run_after = self.block(after, aargs, "scf.yield", len(ins), depth + 1, where + ", after", tin)
        ins_t, outs_t = tuple(ins), tuple(outs)

        def run(st, env):
            values = tuple([env[i] for i in ins_t])
            while True:
                cond, *forwarded = run_before(st, env, values)
                if not cond:
                    break
                values = run_after(st, env, tuple(forwarded))
            for o, v in zip(outs_t, forwarded):
                env[o] = v
        return run

    def op_scf_index_switch(self, d, name, label, ins, outs, tin, tout, regions, depth, where):
        cases = _field(d, "cases", list, where)
        self.expect(all(type(c) is int for c in cases), where, "its cases are not integers")
        self.regions_of(regions, len(cases) + 1, where)
        self.expect(len(ins) == 1 and tin[0] == "index", where, "switches on one index")
        runs = []
        for k, r in enumerate(regions):
            w = f"{where}, case {'default' if k == len(cases) else k}"
            self.expect(not self.region_args(r, w), w, "a case block has arguments")
            runs.append(self.block(r, [], "scf.yield", len(outs), depth + 1, w, tout))
        *case_runs, default = runs
        table = {}
        for c, f in zip(cases, case_runs):
            table.setdefault(c, f)  # the first case of a value, as cases.index()
        (x,) = ins
        outs_t = tuple(outs)

        def run(st, env):
            values = table.get(env[x], default)(st, env, ())
            for o, v in zip(outs_t, values):
                env[o] = v
        return run


def _check_index(arr: np.ndarray, idx: Sequence[int], label: str) -> None:
    for d, i in enumerate(idx):
        if not 0 <= i < arr.shape[d]:
            raise HostRunError(f"{label} index {i} out of bounds for dim {d} of shape {list(arr.shape)}")


def compile_host(data: Any) -> HostProgram:
    """The host section (``host_form.host_data``'s value) checked and compiled;
    a ``BundleError`` line for anything malformed."""
    where = "host section"
    if not isinstance(data, dict):
        raise BundleError(f"{where}: is {short_repr(data)}, not an object")
    version = _field(data, "format", int, where)
    if version != HOST_FORMAT:
        raise BundleError(f"{where}: format {version}, this infs reads {HOST_FORMAT}")
    funcs = _field(data, "functions", list, where)
    gdata = _field(data, "globals", dict, where, {})
    globals_: dict[str, tuple[tuple[int, ...], np.dtype, bytes | None]] = {}
    for gname, g in gdata.items():
        w = f"{where}, global @{gname}"
        t = check_type(_field(g, "type", list, w) if isinstance(g, dict) else None, w)
        self_dt = dtype_of(t[2])
        self_shape = tuple(t[1])
        if any(s < 0 for s in self_shape):
            raise BundleError(f"{w}: a global of dynamic shape")
        init = g.get("init")
        raw = None
        if init is not None:
            if not isinstance(init, str) or len(init) % 2:
                raise BundleError(f"{w}: its init is not hexadecimal bytes")
            try:
                raw = bytes.fromhex(init)
            except ValueError:
                raise BundleError(f"{w}: its init is not hexadecimal bytes") from None
            n = len(raw) // self_dt.itemsize
            if len(raw) % self_dt.itemsize or n not in (1, math.prod(self_shape)):
                raise BundleError(f"{w}: its init holds {len(raw)} bytes, not one element or {math.prod(self_shape)}")
        globals_[gname] = (self_shape, self_dt, raw)
    functions: dict[str, HostFunction] = {}
    for k, f in enumerate(funcs):
        w = f"{where}, function #{k}"
        if not isinstance(f, dict):
            raise BundleError(f"{w}: is {short_repr(f)}, not an object")
        name = _field(f, "name", str, w)
        if name in functions:
            raise BundleError(f"{w}: @{name} is defined twice")
        w = f"host function @{name}"
        arg_types = [check_type(t, w) for t in _field(f, "args", list, w)]
        names = _field(f, "arg_names", list, w)
        if len(names) != len(arg_types) or not all(n is None or isinstance(n, str) for n in names):
            raise BundleError(f"{w}: its arg_names are not a name (or null) per argument")
        results = [check_type(t, w) for t in _field(f, "results", list, w)]
        functions[name] = HostFunction(name, _field(f, "public", bool, w), names, arg_types, results)
    program = HostProgram(functions, globals_, {})
    comp = _Compiler(program, {f["name"]: f for f in funcs})
    for f in funcs:
        comp.function(functions[f["name"]], f)
    return program
