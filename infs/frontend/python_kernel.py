"""Python kernels: ``@infs.kernel`` turns a Python loop function into affine MLIR.

    import numpy as np, infs

    @infs.kernel
    def saxpy(X, Y, a: float, n: int):
        for i in range(n):
            Y[i] = a * X[i] + Y[i]

    run = saxpy(X, Y, 2.0, len(X), config="small-16", mode="auto")   # Y updated in place
    print(run.cycles, run.modes)
    print(saxpy.mlir(X, Y, 2.0, len(X)))                              # the affine MLIR

The function body is read from its source (Python's ``ast``) and emitted with
xDSL's op builders as the plain-loop MLIR that ``extract-streams`` reads
(``affine.for`` / ``affine.load`` / ``affine.store`` / ``arith``, memrefs
typed from the arrays' dtypes), once per argument signature (dtype and rank
of each array, kind of each scalar); a call then runs that program on the
simulated machine through ``api.run``, exactly as ``infs-run`` runs a
plain-loop ``.mlir`` file.  (xDSL 0.74's own Python front end,
``xdsl.frontend.pyast``, maps typed scalar functions onto ops but has no
``for``, assignment or subscripts; this is a small visitor of its own.)

Semantics are Python's with numpy's scalar types, so the kernel computes what
the same function computes when called in plain Python on the same arrays:

* types follow numpy 2's promotion (NEP 50: a Python ``int``/``float`` --
  loop variables, literals, ``int``/``float`` arguments -- adapts to the array
  element it meets; ``np.int32 + np.float32`` is float64; ``/`` of integers
  is a float), decided by asking numpy itself on sample scalars;
* ``//`` and ``%`` on integers floor (Python's signs); a store converts to
  the array's dtype as numpy does (floats truncate into integer arrays);
* ``x if c else y``, ``and``/``or`` and ``if`` whose branches only assign
  local scalars without array accesses or integer division become
  ``arith.select`` (both sides are pure, so evaluating both is safe); any
  other ``if`` becomes ``scf.if``: extract-streams makes a select of one
  that yields values computed from loads when every load is proved in
  bounds at every point of the loops (``Z[i] = X[i] if c else Y[i]`` for
  ``i in range(len(Y))``, with ``X[i]`` read anyway), and otherwise keeps
  the nest on the host with a remark saying why;
* ``min``/``max`` of floats are ``arith.minimumf``/``maximumf`` (NaN
  propagates, as ``numpy.minimum``; Python's builtins would return the
  first argument); ``abs`` of a float is ``math.absf`` (the sign bit
  cleared: ``abs(-0.0)`` is ``+0.0``), of an integer ``x < 0 ? -x : x``
  (wrapping on the minimum, as numpy's and ``math.absi``).

What differs from Python is an error, never a different answer: an index
outside an array (also a negative one: Python's wrap-around is not modelled),
an integer division by zero, and a ``/`` by zero of two Python numbers (loop
variables, ``int``/``float`` arguments: Python raises ZeroDivisionError where
numpy, with an array element on a side, gives inf) stop the run with one line;
a Python int (a loop variable, ``len(A)``) meeting a narrower integer
(``B[i] = i`` into int8, ``A[i] + i`` on int8) whose bounds for the call's
arguments do not fit that type is refused at the call (numpy raises
OverflowError where ``index_cast`` would wrap).  Anything the
front end does not read -- ``while``, calls of other functions, slices,
tuples, Python objects, float ``//``, ``**`` but ``x ** 2`` (which is
``x * x``) -- raises ``KernelError``, one line:
``file.py:LINE:COL: error: unsupported ...``.
"""

from __future__ import annotations

import ast
import functools
import inspect
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects.builtin import FileLineColLoc, ModuleOp

from infs import api
from infs.api import InfsError, RunResult
from infs.frontend.kernel_codegen import KernelCodegen
from infs.frontend.kernel_expressions import MISSING
from infs.frontend.kernel_ranges import NarrowedInts, narrowed_int_arguments
from infs.frontend.kernel_types import ELEMENT_TYPES, SUPPORTED_DTYPES, Array, Kind, KernelError

# ---------------------------------------------------------------------------
# The decorator
# ---------------------------------------------------------------------------

_RUN_KEYWORDS = ("config", "mode", "remarks")


@dataclass
class KernelResult(RunResult):
    """A kernel call's run: ``cycles``, ``regions``, ``stats``, ``report`` (as
    ``api.run`` gives them), ``modes`` (where each region ran), ``value`` (what
    the kernel returned, or None) and the extract-streams ``remarks``.
    ``outputs`` are the caller's own arrays, updated in place."""

    remarks: list[str] = field(default_factory=list)
    returns: Kind = None

    @property
    def modes(self) -> list[str]:
        return [r.mode for r in self.regions]

    @property
    def value(self) -> Any:
        if not self.results:
            return None
        v = self.results[0]
        if self.returns == "int":
            return int(v)
        if self.returns == "float":
            return float(v)
        return np.dtype(self.returns).type(v)


@dataclass
class _Compiled:
    loops: ModuleOp  # the affine program
    streams: ModuleOp  # after extract-streams
    remarks: list[str]
    returns: Kind
    ranges: "NarrowedInts | None" = None  # the Python ints converted to narrower integers, to check per call



class Kernel:
    """A Python function run on the simulated machine (see the module docstring)."""

    def __init__(self, fn: Callable):
        if not inspect.isfunction(fn):
            raise KernelError(f"@infs.kernel applies to a Python function, not a {type(fn).__name__}")
        if getattr(fn, "__wrapped__", None) is not None:
            # the source read would be the inner function's (inspect unwraps): what the
            # wrapper does around it would silently not happen
            inner = inspect.unwrap(fn).__code__
            raise KernelError(f"'{fn.__name__}' is wrapped by another decorator (functools.wraps): a kernel is read from its source, "
                              "so the wrapper would not run; put @infs.kernel on the def, under no other decorator",
                              f"{inner.co_filename}:{inner.co_firstlineno}")  # fmt: skip
        functools.update_wrapper(self, fn)
        self.fn = fn
        self.signature = inspect.signature(fn)
        for p in self.signature.parameters.values():
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                raise self._def_error(f"unsupported parameter '{p}' (*args/**kwargs)")
            if p.name in _RUN_KEYWORDS:
                raise self._def_error(f"parameter '{p.name}' collides with the run keyword of that name")
        self._source: tuple[ast.FunctionDef, str, int, int] | None = None
        self._cache: dict[tuple, _Compiled] = {}

    def _def_error(self, message: str) -> KernelError:
        code = self.fn.__code__
        return KernelError(message, f"{code.co_filename}:{code.co_firstlineno}:1")

    # -- source ------------------------------------------------------------------
    def _parse(self) -> tuple[ast.FunctionDef, str, int, int]:
        if self._source is None:
            code = self.fn.__code__
            try:
                lines, first = inspect.getsourcelines(self.fn)
            except (OSError, TypeError):
                raise KernelError(f"the source of '{self.fn.__name__}' is not available (a kernel is read from its source file)", f"{code.co_filename}:{code.co_firstlineno}") from None
            text = "".join(lines)
            dedented = textwrap.dedent(text)
            indent = len(lines[0]) - len(lines[0].lstrip()) if lines else 0
            tree = ast.parse(dedented)
            fdef = next((n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
            if not isinstance(fdef, ast.FunctionDef):
                raise KernelError(f"'{self.fn.__name__}' is not a plain function definition", f"{code.co_filename}:{first}")
            self._source = (fdef, code.co_filename, first - 1, indent)
        return self._source

    def _scope(self, name: str) -> Any:
        fn = self.fn
        if fn.__closure__:
            for n, cell in zip(fn.__code__.co_freevars, fn.__closure__):
                if n == name:
                    try:
                        return cell.cell_contents
                    except ValueError:
                        return MISSING
        if name in fn.__globals__:
            return fn.__globals__[name]
        b = fn.__globals__.get("__builtins__", __builtins__)
        b = b if isinstance(b, dict) else vars(b)
        return b.get(name, MISSING)

    def _free_numbers(self, fdef: ast.FunctionDef) -> tuple:
        """The numeric globals the body reads, by value: part of the specialization."""
        out = []
        for n in sorted({x.id for x in ast.walk(fdef) if isinstance(x, ast.Name) and isinstance(x.ctx, ast.Load)}):
            v = self._scope(n)
            if isinstance(v, (int, float, np.integer, np.floating)):
                out.append((n, type(v).__name__, repr(v)))
        return tuple(out)

    # -- specialization ------------------------------------------------------------
    def _bind(self, args: tuple, kwargs: dict) -> dict[str, Any]:
        try:
            bound = self.signature.bind(*args, **kwargs)
        except TypeError as e:
            raise self._def_error(f"{self.fn.__name__}(): {e}") from None
        bound.apply_defaults()
        return dict(bound.arguments)

    def _spec(self, name: str, x: Any) -> Any:
        if isinstance(x, Array):
            mlir_names = {str(t): k for k, t in ELEMENT_TYPES.items()}  # Array("f32", 1) too
            try:
                dt = mlir_names.get(x.dtype) or np.dtype(x.dtype)
            except TypeError:
                dt = None
            if dt not in ELEMENT_TYPES or not isinstance(x.rank, int) or x.rank < 1:
                raise self._def_error(f"argument '{name}': Array({x.dtype!r}, {x.rank}) (dtypes {SUPPORTED_DTYPES}, rank >= 1)")
            return Array(dt, x.rank)
        if isinstance(x, np.ndarray):
            if x.dtype not in ELEMENT_TYPES:
                raise self._def_error(f"argument '{name}': {x.dtype} arrays are not supported ({SUPPORTED_DTYPES})")
            if x.ndim < 1:
                raise self._def_error(f"argument '{name}': a 0-d array (pass a number, or a 1-element array)")
            return Array(x.dtype, x.ndim)
        if isinstance(x, (bool, np.bool_)) or x is bool:
            raise self._def_error(f"argument '{name}': bool arguments are not supported (pass 0 or 1)")
        if isinstance(x, (np.integer, np.floating)) or (isinstance(x, type) and issubclass(x, (np.integer, np.floating))):
            dt = np.dtype(x if isinstance(x, type) else type(x))
            if dt not in ELEMENT_TYPES:
                raise self._def_error(f"argument '{name}': {dt} scalars are not supported ({SUPPORTED_DTYPES})")
            return dt.name
        if isinstance(x, int) or x is int:
            return "int"
        if isinstance(x, float) or x is float:
            return "float"
        raise self._def_error(f"argument '{name}': a {type(x).__name__} is neither a numpy array nor a number")

    def _compile(self, bound: dict[str, Any]) -> _Compiled:
        fdef, filename, line_offset, col_offset = self._parse()
        params = [(n, self._spec(n, v)) for n, v in bound.items()]
        key = (tuple((n, s) for n, s in params), self._free_numbers(fdef))
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        gen = KernelCodegen(fdef, filename, line_offset, col_offset, params, self._scope)
        module = gen.build()
        api.verify_module(module)
        streams = module.clone()
        from xdsl.utils.exceptions import DiagnosticException

        from infs.passes.extract_streams import extract_streams

        try:
            remarks = [str(r) for r in extract_streams(streams)]
        except DiagnosticException as e:
            raise InfsError(api._one_line(str(e))) from None  # noqa: SLF001
        api.verify_module(streams)
        compiled = _Compiled(module, streams, remarks, gen.result.kind if gen.result is not None else None, NarrowedInts.of(gen))
        self._cache[key] = compiled
        return compiled

    # -- what it gives ---------------------------------------------------------------
    def module(self, *args, stage: str = "loops", **kwargs) -> ModuleOp:
        """The program for these arguments (arrays or ``Array`` specs, numbers or
        ``int``/``float``/numpy scalar types): ``stage="loops"`` the affine
        MLIR, ``"streams"`` after extract-streams (a copy, yours to change)."""
        if stage not in ("loops", "streams"):
            raise KernelError(f"unknown stage '{stage}' (loops, streams)")
        c = self._compile(self._bind(args, kwargs))
        return (c.loops if stage == "loops" else c.streams).clone()

    def mlir(self, *args, stage: str = "loops", **kwargs) -> str:
        """``module(...)`` as MLIR text."""
        return api.to_text(self.module(*args, stage=stage, **kwargs))

    def remarks(self, *args, **kwargs) -> list[str]:
        """extract-streams' remarks for these arguments: what became a region, and why the rest did not."""
        return list(self._compile(self._bind(args, kwargs)).remarks)

    def _check_narrowed(self, compiled: _Compiled, bound: dict[str, Any]) -> None:
        # numpy 2 raises OverflowError for a Python int that does not fit the
        # array element it meets, as the kernel does for such a literal; an
        # ``int`` argument's value is known at the call only (the program is
        # made per signature), so it is checked here, not wrapped by index_cast
        values = list(bound.items())
        for pos, t, cast in narrowed_int_arguments(compiled.loops):
            name, v = values[pos]
            info = np.iinfo(f"int{t.width.data}") if t.width.data > 1 else None
            if info is not None and not info.min <= int(v) <= info.max:
                loc = cast.location
                where = f"{loc.filename.data}:{loc.line.data}:{loc.column.data}" if isinstance(loc, FileLineColLoc) else None
                message = (f"argument '{name}' = {int(v)} does not fit int{t.width.data}, the array element type it meets "
                           "(numpy raises OverflowError in arithmetic and stores; the kernel converts it to that type)")
                raise KernelError(message, where) if where else self._def_error(message)

    def __call__(self, *args, config: Any = "paper-64", mode: str = "auto", remarks: bool = False, **kwargs) -> KernelResult:
        """Run on the simulated machine; arrays are updated in place.  Keywords
        beyond the kernel's own parameters are ``config``, ``mode``, ``remarks``
        (print extract-streams' remarks on stderr) and ``RunOptions`` fields
        (``tiles``, ``strict``, ``warm``, ``jit``, ``optimize``, ...)."""
        params = set(self.signature.parameters)
        options = {k: kwargs.pop(k) for k in list(kwargs) if k not in params}
        bound = self._bind(args, kwargs)
        compiled = self._compile(bound)
        arrays = {n: v for n, v in bound.items() if isinstance(v, np.ndarray)}
        names = list(arrays)
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                if np.may_share_memory(arrays[a], arrays[b]):
                    raise self._def_error(f"arguments '{a}' and '{b}' share memory (the kernel's arrays are distinct memrefs)")
        self._check_narrowed(compiled, bound)
        if compiled.ranges is not None:
            compiled.ranges.check(list(bound.values()))
        inputs = {n: (v if isinstance(v, (np.ndarray, np.generic)) else int(v) if isinstance(v, int) else float(v)) for n, v in bound.items()}
        if remarks:
            for r in compiled.remarks:
                print(r, file=sys.stderr)
        try:
            res = api.run(compiled.streams.clone(), inputs, config=config, mode=mode, function=self.fn.__name__, **options)
        except MemoryError:
            # the run works on copies of the arrays: a broadcast view (np.broadcast_to) of
            # a huge shape takes no memory as an argument, but its copy does
            total = sum(a.size * a.itemsize for a in arrays.values())
            raise self._def_error(f"the run's copies of the arrays ({total / 2**30:,.1f} GiB) do not fit in the host's memory") from None
        for n, a in arrays.items():
            out = res.outputs[n]
            if not np.array_equal(out, a, equal_nan=a.dtype.kind == "f"):
                if not a.flags.writeable:
                    raise self._def_error(f"argument '{n}' is read-only, and the kernel writes it")
                a[...] = out
        return KernelResult(dict(arrays), res.results, res.report, list(compiled.remarks), compiled.returns)



def kernel(fn: Callable) -> Kernel:
    """``@infs.kernel``: see ``infs.frontend.python_kernel``."""
    return Kernel(fn)
