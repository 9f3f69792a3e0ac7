"""Scripting API: parse, verify, transform and print infs programs.

    from infs import api
    module = api.parse_file("infs/workloads/stencil1d.mlir")
    api.run_pipeline(module, "canonicalize")            # textual pipeline
    print(api.to_text(module))                          # custom form
    print(api.to_text(module, generic=True))            # generic form

Every failure is an ``InfsError`` whose ``str`` is one line naming the
file:line:column (when known), the op, and what is wrong.
"""

from __future__ import annotations

import dataclasses
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from io import StringIO
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass, PassPipeline
from xdsl.universe import Universe
from xdsl.utils.exceptions import DiagnosticException

from infs.dialects.lattice import LatticeError

# Context and parsing: defined below the runtime, which parses too (infs.dialects.parse)
from infs.dialects.parse import (
    InfsError,
    LocatingParser,
    _one_line,
    make_context,
    parse_file,
    parse_text,
    register_dialects,
    register_infs_dialects,
    source_file,
    verify_module,
    with_upstream_syntax,
)


def _config_error() -> tuple[type, ...]:
    """``infs.hardware.ConfigError`` if that module is loaded: a pass given a bad
    config reports it as its error; a module never imported raised nothing
    (``import infs.api`` loads no hardware tables, no numpy)."""
    hw = sys.modules.get("infs.hardware")
    return (hw.ConfigError,) if hw is not None else ()


def _lowering_errors() -> tuple[type, ...]:
    """The lowering's errors (``LoweringError``, ``LayoutError``, ``SpecializeError``) of the
    modules loaded: plain ``ValueError`` classes, not xDSL diagnostics (the JIT raises them
    lowering a bundle's records without xDSL); a pass reports them as its error."""
    found = ((sys.modules.get(m), n) for m, n in (("infs.passes.lowering_errors", "LoweringError"), ("infs.passes.lower_pim.layout", "LayoutError"),
                                                     ("infs.passes.tdfg_domains", "SpecializeError")))  # fmt: skip
    return tuple(getattr(mod, n) for mod, n in found if mod is not None)


__all__ = [
    "InfsError",
    "LocatingParser",
    "OnFunctions",
    "PassManager",
    "RunResult",
    "apply_to_function",
    "available_passes",
    "functions_of",
    "lower",
    "make_context",
    "parse_file",
    "parse_pass_pipeline",
    "parse_pipeline",
    "parse_text",
    "pass_class",
    "pass_title",
    "quote_option_values",
    "register_dialects",
    "register_infs_dialects",
    "run",
    "run_pipeline",
    "source_file",
    "to_text",
    "verify_module",
    "with_upstream_syntax",
]


# ---------------------------------------------------------------------------
# Passes and pipelines
# ---------------------------------------------------------------------------


def available_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """xDSL's passes plus infs's own (``infs.passes.pipelines``)."""
    from infs.passes.pipelines import INFS_PASSES

    passes = dict(Universe.get_multiverse().all_passes)
    passes.update(INFS_PASSES)
    return passes


def parse_pipeline(spec: str, passes: dict[str, Callable[[], type[ModulePass]]] | None = None) -> tuple[ModulePass, ...]:
    """``'a{x=1 y=2},b'`` -> pass instances; unknown names/options are ``InfsError``."""
    passes = passes if passes is not None else available_passes()
    spec = spec.strip()
    if not spec:
        return ()
    try:
        return PassPipeline.parse_spec(passes, spec).passes
    except ValueError as e:
        msg = str(e)
        m = re.match(r"Unrecognized passes: \[(.*)\]", msg)
        if m:
            names = [n.strip(" '\"") for n in m.group(1).split(",")]
            raise InfsError(f"unknown pass {', '.join(repr(n) for n in names)} (see --help for the list)") from None
        raise InfsError(f"bad pipeline '{spec}': {msg}") from None
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as e:  # noqa: BLE001 - xDSL's ArgSpecParseError derives from BaseException
        raise InfsError(f"bad pipeline '{spec}': {_one_line(str(e))}") from None


def run_pipeline(module: ModuleOp, pipeline: str | Sequence[ModulePass] | ModulePass, ctx: Context | None = None, verify_each: bool = True) -> ModuleOp:
    """Apply passes in order (in place); verifies after each pass."""
    ctx = ctx or make_context()
    if isinstance(pipeline, str):
        passes: Iterable[ModulePass] = parse_pipeline(pipeline)
    elif isinstance(pipeline, ModulePass):
        passes = (pipeline,)
    else:
        passes = pipeline
    for p in passes:
        try:
            p.apply(ctx, module)
        except InfsError:
            raise
        except (DiagnosticException, LatticeError, *_config_error(), *_lowering_errors()) as e:
            raise InfsError(f"pass '{p.name}' failed: {str(e).strip().splitlines()[0]}") from None
        if verify_each:
            verify_module(module)
    return module


def to_text(op: Operation, generic: bool = False, debuginfo: bool = False) -> str:
    from infs.dialects.affine_ssa_ids import Printer as UpstreamPrinter  # affine accesses as upstream prints them

    out = StringIO()
    UpstreamPrinter(stream=out, print_generic_format=generic, print_debuginfo=debuginfo).print_op(op)
    return out.getvalue() + "\n"


# ---------------------------------------------------------------------------
# Pipelines in the command line's syntax (MLIR's and xDSL's)
# ---------------------------------------------------------------------------
#
# One parser for `infs-opt -p`, `infs-opt --pass-pipeline=` and
# `PassManager.parse`: a comma-separated list of `name`, `name{opts}`,
# `builtin.module(...)` and `func.func(...)`.  Options are MLIR's
# space-separated `key=value` (a value may hold `=` and `,`:
# `lower-pim{sizes=N=64,M=32 config=small-16}`) or xDSL's quoted form
# (`sizes="N=64,M=32"`); both reach xDSL's option parser in its own form.


_ANCHORS = ("builtin.module", "func.func")


@dataclasses.dataclass(frozen=True)
class OnFunctions(ModulePass):
    """MLIR's nested ``func.func(p1,p2)``: each pass runs on every
    ``func.func`` of the module in turn, scoped to that function (the function
    sits alone in a temporary module while the pass runs: another function's
    symbols are out of its sight, as in MLIR's function pass managers).
    Only xDSL's function-local passes may nest; infs's passes transform
    whole modules (``tensorize``, ``lower-pim``, ...)."""

    name = "func.func"
    passes: tuple[ModulePass, ...] = ()

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for p in self.passes:
            for f in functions_of(op):
                apply_to_function(p, ctx, f)


def functions_of(module: ModuleOp) -> list[Operation]:
    """The ``func.func`` ops directly in ``module`` (MLIR's nesting: one level)."""
    return [o for o in module.body.block.ops if o.name == "func.func"]


def apply_to_function(p: ModulePass, ctx: Context, f: Operation) -> None:
    """Run ``p`` on ``f`` alone (see ``OnFunctions``); ``f`` keeps its place."""
    block, anchor = f.parent_block(), f.next_op
    assert block is not None
    f.detach()
    scope = ModuleOp([f])
    try:
        p.apply(ctx, scope)
    finally:
        for o in list(scope.body.block.ops):
            o.detach()
            if anchor is not None:
                block.insert_op_before(o, anchor)
            else:
                block.add_op(o)


def _split_top(text: str, spec: str) -> list[str]:
    """Split on commas outside ``{}``, ``()`` and quotes."""
    out, depth, quote, start = [], [], None, 0
    closing = {"(": ")", "{": "}"}
    i = 0
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch in closing:
            depth.append(closing[ch])
        elif ch in ")}":
            if not depth or depth.pop() != ch:
                raise InfsError(f"bad pipeline '{spec}': unbalanced '{ch}'")
        elif ch == "," and not depth:
            out.append(text[start:i])
            start = i + 1
        i += 1
    if quote:
        raise InfsError(f"bad pipeline '{spec}': no closing quotation")
    if depth:
        raise InfsError(f"bad pipeline '{spec}': missing '{depth[-1]}'")
    out.append(text[start:])
    return [s.strip() for s in out]


def _str_options(factory: Callable[[], type[ModulePass]] | None) -> set[str]:
    """Names (``-`` and ``_`` spellings) of a pass's string-typed options."""
    if factory is None:
        return set()
    try:
        cls = factory()
        names = {f.name for f in dataclasses.fields(cls) if f.type in (str, "str")}
    except Exception:  # noqa: BLE001 - a pass we cannot introspect keeps xDSL's own typing
        return set()
    return names | {n.replace("_", "-") for n in names}


def quote_option_values(opts: str, str_options: set[str] | frozenset[str] = frozenset()) -> str:
    """MLIR-style ``sizes=N=64,M=32 config=tiny`` -> xDSL's ``sizes="N=64,M=32" config=tiny``.

    xDSL's pipeline syntax does not allow ``=`` inside an option value, and it
    types bare values itself (``tiles=16`` would be an int): values of
    string-typed options, and any value holding ``=``, are passed quoted.
    """
    import shlex

    out = []
    try:
        items = shlex.split(opts)
    except ValueError as e:  # shlex: "No closing quotation"
        raise InfsError(f"bad pass options '{opts}': {str(e).lower()}") from None
    for item in items:
        key, eq, value = item.partition("=")
        if eq and ("=" in value or key in str_options) and not value.startswith('"'):
            value = '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
        out.append(f"{key}{eq}{value}")
    return " ".join(out)


_ELEMENT = re.compile(r"([A-Za-z_][\w.$-]*)\s*(?:\{(.*)\})?", re.S)
_ANCHORED = re.compile(r"([A-Za-z_][\w.$-]*)\s*\((.*)\)", re.S)


def parse_pass_pipeline(spec: str, passes: dict[str, Callable[[], type[ModulePass]]] | None = None) -> tuple[ModulePass, ...]:
    """A pipeline in the command line's syntax -> pass instances (``OnFunctions``
    for a nested ``func.func(...)``); a bad one is an ``InfsError``."""
    passes = passes if passes is not None else available_passes()
    return _parse_elements(spec.strip(), spec, passes, scope="top")


def _parse_elements(text: str, spec: str, passes: dict, scope: str) -> tuple[ModulePass, ...]:
    from infs.passes.pipelines import INFS_PASSES

    out: list[ModulePass] = []
    if not text:
        return ()
    for element in _split_top(text, spec):
        if not element:
            raise InfsError(f"bad pipeline '{spec}': empty pass name")
        m = _ANCHORED.fullmatch(element)
        if m:
            anchor, inner = m.group(1), m.group(2).strip()
            if anchor not in _ANCHORS:
                raise InfsError(f"bad pipeline '{spec}': cannot nest passes under '{anchor}' (builtin.module and func.func can be anchors)")
            if anchor == "builtin.module":
                if scope != "top":
                    raise InfsError(f"bad pipeline '{spec}': builtin.module(...) is the outermost anchor only (the module infs-opt reads; nested modules are not supported)")
                out.extend(_parse_elements(inner, spec, passes, "builtin.module"))
            else:
                if scope == "func.func":
                    raise InfsError(f"bad pipeline '{spec}': func.func(...) inside func.func(...) (functions do not nest)")
                out.append(OnFunctions(_parse_elements(inner, spec, passes, "func.func")))
            continue
        m = _ELEMENT.fullmatch(element)
        if not m:
            raise InfsError(f"bad pipeline '{spec}': cannot read '{element}' (expected name, name{{options}} or anchor(...))")
        name, opts = m.group(1), (m.group(2) or "").strip()
        if name not in passes:
            raise InfsError(f"unknown pass '{name}' (see --help for the list)")
        if scope == "func.func" and name in INFS_PASSES:
            raise InfsError(
                f"bad pipeline '{spec}': '{name}' is a module pass (infs's passes transform a whole builtin.module): "
                f"run it outside func.func(...), e.g. builtin.module({name})"
            )
        opts = quote_option_values(opts, _str_options(passes.get(name)))
        out.extend(parse_pipeline(f"{name}{{{opts}}}" if opts else name, passes))
    return tuple(out)


def pass_title(p: ModulePass) -> str:
    """mlir-opt's name of a pass in dumps and timings: its class name without ``Pass``."""
    return type(p).__name__.removesuffix("Pass") or p.name


class PassManager:
    """Run a pipeline with MLIR's pass-manager conveniences::

        pm = api.PassManager.parse("builtin.module(tensorize,lower-pim{sizes=N=64 config=small-16})")
        pm.enable_ir_printing()          # the IR after every pass, on stderr
        pm.enable_timing()
        pm.run(module)
        print(pm.timing_report())

    ``parse`` takes exactly ``infs-opt``'s ``--pass-pipeline``/``-p`` syntax
    (``infs-opt`` itself runs its passes through this class).  The IR is
    verified after every pass unless ``enable_verifier(False)``.
    """

    def __init__(self, passes: Sequence[ModulePass] = (), ctx: Context | None = None):
        self.passes: list[ModulePass] = list(passes)
        self.ctx = ctx or make_context()
        self.verify_each = True
        self.timing = False
        self.timings: list[list] = []  # [name, seconds] in first-seen order (MLIR's list view)
        self._callbacks: list[Callable[[str, ModulePass, Operation], None]] = []

    @classmethod
    def parse(cls, pipeline: str, ctx: Context | None = None) -> PassManager:
        return cls(parse_pass_pipeline(pipeline), ctx)

    def add(self, pipeline: str | ModulePass) -> PassManager:
        """Append passes (a pipeline string or one pass instance)."""
        self.passes.extend(parse_pass_pipeline(pipeline) if isinstance(pipeline, str) else [pipeline])
        return self

    def enable_verifier(self, enabled: bool = True) -> None:
        self.verify_each = enabled

    def enable_timing(self) -> None:
        self.timing = True

    def add_instrumentation(self, callback: Callable[[str, ModulePass, Operation], None]) -> None:
        """``callback(when, pass, op)`` with ``when`` = ``"before"``/``"after"``;
        ``op`` is the module, or the function a ``func.func(...)`` pass ran on."""
        self._callbacks.append(callback)

    def enable_ir_printing(
        self,
        print_before_all: bool = False,
        print_after_all: bool = True,
        print_before: Iterable[str] = (),
        print_after: Iterable[str] = (),
        stream=None,
        generic: bool = False,
        debuginfo: bool = False,
    ) -> None:
        """Dump the IR under mlir-opt's header
        (``// -----// IR Dump After Tensorize (tensorize) //----- //``);
        ``print_before``/``print_after`` name passes (``--mlir-print-ir-after=PASS``)."""
        import sys

        before, after = set(print_before), set(print_after)

        def dump(when: str, p: ModulePass, op: Operation) -> None:
            wanted = (print_before_all or p.name in before) if when == "before" else (print_after_all or p.name in after)
            if not wanted:
                return
            scope = "" if isinstance(op, ModuleOp) else f" ('{op.name}' operation: @{op.sym_name.data})"  # type: ignore[attr-defined]
            text = to_text(op, generic=generic, debuginfo=debuginfo)
            print(f"// -----// IR Dump {when.title()} {pass_title(p)} ({p.name}){scope} //----- //\n{text}", file=stream or sys.stderr, flush=True)

        self._callbacks.append(dump)

    def record_time(self, name: str, seconds: float) -> None:
        for row in self.timings:
            if row[0] == name:
                row[1] += seconds
                return
        self.timings.append([name, seconds])

    def _notify(self, when: str, p: ModulePass, op: Operation) -> None:
        for cb in self._callbacks:
            cb(when, p, op)

    def run(self, module: ModuleOp) -> ModuleOp:
        """Apply the passes in order, in place; a failure is an ``InfsError``."""
        import time

        for index, p in enumerate(self.passes):
            if isinstance(p, OnFunctions):
                for inner in p.passes:
                    t0 = time.perf_counter()
                    for f in functions_of(module):
                        self._notify("before", inner, f)
                        self._apply(inner, module, f)
                        self._notify("after", inner, f)
                    self.record_time(f"'func.func' Pipeline: {pass_title(inner)} ({inner.name}) #{index}", time.perf_counter() - t0)
            else:
                self._notify("before", p, module)
                t0 = time.perf_counter()
                self._apply(p, module, None)
                # the pipeline's passes in order; a pass run twice has two rows, as in MLIR
                self.record_time(f"{pass_title(p)} ({p.name}) #{index}", time.perf_counter() - t0)
            if self.verify_each:
                t1 = time.perf_counter()
                verify_module(module)
                self.record_time("Verifier", time.perf_counter() - t1)
            if not isinstance(p, OnFunctions):
                self._notify("after", p, module)
        return module

    def _apply(self, p: ModulePass, module: ModuleOp, f: Operation | None) -> None:
        try:
            if f is None:
                p.apply(self.ctx, module)
            else:
                apply_to_function(p, self.ctx, f)
        except InfsError:
            raise
        except (DiagnosticException, LatticeError, *_config_error(), *_lowering_errors()) as e:
            raise InfsError(f"pass '{p.name}' failed: {str(e).strip().splitlines()[0]}") from None

    def timing_report(self) -> str:
        """MLIR's ``--mlir-timing`` list view: wall time per step, then the total."""
        total = sum(t for _, t in self.timings) or 1e-12
        rule = "===" + "-" * 73 + "==="
        lines = [rule, "... Execution time report ...".center(len(rule)).rstrip(), rule, f"  Total Execution Time: {total:.4f} seconds", "", "  ----Wall Time----  ----Name----"]
        for name, t in self.timings:
            lines.append(f"  {t:8.4f} ({100 * t / total:5.1f}%)  {name.rsplit(' #', 1)[0]}")
        lines.append(f"  {total:8.4f} (100.0%)  Total")
        return "\n".join(lines)


# ---------------------------------------------------------------------------
# Lower and run: the JIT and the runtime in one call each
# ---------------------------------------------------------------------------
#
# Thin fronts over infs.runtime.jit.lower and infs.runtime.driver.run_program
# (imported when called: infs-opt does not pay for the runtime).


def _module_of(program: ModuleOp | str | Path) -> ModuleOp:
    if isinstance(program, ModuleOp):
        return program
    if isinstance(program, Path) or (isinstance(program, str) and "\n" not in program and program.endswith(".mlir")):
        return parse_file(program)
    if isinstance(program, str):
        return parse_text(program)
    raise InfsError(f"expected a module, a .mlir path or MLIR text, got {type(program).__name__}")


def lower(program, sizes: dict[str, int], config="paper-64", tiles: tuple[int, ...] | None = None):
    """JIT-lower for ``sizes`` on ``config`` (a built-in name, a TOML/JSON path or a ``HardwareConfig``).

    ``program`` is a ``tdfg.graph`` (-> one ``Lowered``), or a module / ``.mlir``
    path / MLIR text (-> a list of ``Lowered``, one per graph in program
    order; a module still in stream form is tensorized first, on a copy).
    Regions that do not tensorize stay stream regions (they run near memory)
    and have no entry; a module with no graph at all is an ``InfsError``.
    Each ``Lowered`` has ``.record`` (what the simulator runs), ``.program``
    (the ``pimcmd.program`` op), ``.commands`` and ``.seconds``.
    """
    from infs.dialects import tdfg
    from infs.passes.lower_pim.choose_layout import LayoutError
    from infs.passes.lowering_errors import LoweringError
    from infs.passes.specialize import SpecializeError
    from infs.runtime import jit
    from infs.runtime.driver import tiles_error

    if tiles_error(tiles):
        raise InfsError(tiles_error(tiles))

    def one(graph):
        try:
            return jit.lower(graph, sizes, config, tiles)
        except (LoweringError, LayoutError, SpecializeError) as e:
            raise InfsError(_one_line(str(e))) from None
        except (OSError, ValueError, KeyError) as e:  # an unknown config name, an unreadable config file
            raise InfsError(f"config {config!r}: {_one_line(str(e))}") from None

    if isinstance(program, tdfg.GraphOp):
        return one(program)
    module = _module_of(program)
    graphs = [op for op in module.walk() if isinstance(op, tdfg.GraphOp)]
    if not graphs:
        module = module.clone()
        run_pipeline(module, "tensorize")
        graphs = [op for op in module.walk() if isinstance(op, tdfg.GraphOp)]
    if not graphs:
        raise InfsError("no stream region of the program tensorizes: nothing to lower (infs-opt --tensorize{verbose=true} says why)")
    return [one(g) for g in graphs]


@dataclasses.dataclass
class RunResult:
    """What ``api.run`` returns: the arrays after the run, the host function's
    results, and the runtime's report (cycles, traffic, energy per region)."""

    outputs: dict  # argument name -> array after the run (copies: the caller's inputs are untouched)
    results: tuple
    report: object  # infs.runtime.driver.RunReport
    # what the run says besides its results: "nothing to offload: ..." when the host ran all of the program
    remarks: tuple[str, ...] = ()

    @property
    def stats(self):
        """The simulated machine's statistics (``total_cycles``, ``cycles``, ``traffic``, ``total_energy_pj``, ...)."""
        return self.report.stats  # type: ignore[attr-defined]

    @property
    def cycles(self) -> int:
        return self.stats.total_cycles

    @property
    def regions(self) -> list:
        """Per ``stream.region`` run: where it ran (``mode``), why, cycles, JIT work."""
        return self.report.regions  # type: ignore[attr-defined]


def _shares_memory(a, b) -> bool:
    import numpy as np

    try:
        return bool(np.shares_memory(a, b, max_work=1 << 20))
    except np.exceptions.TooHardError:
        return True  # cannot tell: as if they did


def run(program, inputs: dict, config=None, mode: str = "auto", function: str | None = None, **options) -> RunResult:
    """Run the host function of ``program`` (a module, ``.mlir`` path or MLIR
    text) on the simulated machine; ``inputs`` maps argument names to arrays
    and scalars.  ``config``: a built-in name, a TOML/JSON path or a
    ``HardwareConfig``; by default the one config the program's ``pimcmd.program``
    ops were lowered for (``infs-opt --lower-pim``), else ``paper-64``.
    ``mode`` is ``auto`` (the runtime decides, §4.3), or a forced
    ``in``/``near``/``core``; ``options`` are ``infs.runtime.driver.RunOptions``
    fields (``tiles``, ``jit``, ``warm``, ``strict``, ``cross_check``,
    ``strict_offload``, ...).  Plain loops go through extract-streams first; a
    program with nothing to offload runs on the host, with a remark in
    ``RunResult.remarks`` (``strict_offload=True``: an error).  Failures are
    ``InfsError``s."""
    import numpy as np
    from xdsl.utils.exceptions import DiagnosticException

    from infs.runtime.compiled import module_config
    from infs.runtime.driver import RunOptions, extract_regions, run_program
    from infs.runtime.scalar_ops import EvaluationError

    module = _module_of(program)
    fields = {f.name for f in dataclasses.fields(RunOptions)}
    unknown = sorted(set(options) - fields)
    if unknown:
        raise InfsError(f"unknown run option {', '.join(map(repr, unknown))} (options: {', '.join(sorted(fields - {'config', 'mode'}))})")
    plain = not any(op.name in ("stream.region", "tdfg.graph", "pimcmd.program") for op in module.walk())
    try:
        remark = extract_regions(module)  # plain loops (affine/scf) in: extract-streams first, as infs-run does
    except DiagnosticException as e:
        raise InfsError(_one_line(str(e))) from None
    if plain:
        verify_module(module)
    if remark is not None and options.get("strict_offload"):
        raise InfsError(f"{remark.removesuffix('; the host runs all of it')} (strict_offload)")
    if config is None:
        config = module_config(module) or "paper-64"
    # one copy per array object: an array passed for two arguments stays one array
    # (the runtime then runs or refuses the aliasing, "pass distinct arrays"); two
    # different views of the same memory cannot be copied as such: an error
    arrays = [(k, v) for k, v in inputs.items() if isinstance(v, np.ndarray)]
    for i, (k, v) in enumerate(arrays):
        for k2, v2 in arrays[:i]:
            if v is not v2 and np.may_share_memory(v, v2) and _shares_memory(v, v2):
                raise InfsError(f"arguments '{k2}' and '{k}' are different views of the same memory: pass distinct arrays (or the same array object)")
    copies: dict[int, np.ndarray] = {}
    values = {k: (copies.setdefault(id(v), v.copy()) if isinstance(v, np.ndarray) else v) for k, v in inputs.items()}
    try:
        report = run_program(module, values, function, RunOptions(config=config, mode=mode, **options))
    except EvaluationError as e:  # the program's values: its file, and its lines in the message
        raise InfsError(_one_line(str(e)), source_file(module)) from None
    except (OSError, ValueError, KeyError) as e:
        raise InfsError(_one_line(str(e)) or type(e).__name__) from None
    outputs = {k: v for k, v in values.items() if isinstance(v, np.ndarray)}
    return RunResult(outputs, report.results, report, (remark,) if remark else ())


def pass_class(name: str) -> type[ModulePass]:
    """The class of a registered pass (``pass_class("lower-pim")(sizes="N=64")``)."""
    passes = available_passes()
    if name not in passes:
        raise InfsError(f"unknown pass '{name}' (see infs-opt --help for the list)")
    return passes[name]()


def __getattr__(name: str):
    # the pass classes, importable as api.TensorizePass, api.LowerPimPass, ... (loaded on first use)
    from infs.passes.pipelines import INFS_PASSES

    for factory in INFS_PASSES.values():
        cls = factory()
        if cls.__name__ == name:
            return cls
    raise AttributeError(f"module 'infs.api' has no attribute '{name}'")


def import_onnx(model, weights: str = "globals", function: str | None = None):
    """An ONNX model (a path or a ``ModelProto``) as an ``OnnxProgram``
    (``infs/frontend/onnx_import.py``): ``.text`` is the MLIR ``run`` takes,
    ``.feed(onnx_inputs)`` its inputs, ``.results(result.outputs)`` ONNX's
    outputs.  Bad models raise ``OnnxImportError`` (a ``ValueError``), one line."""
    from infs.frontend.onnx_import import import_model

    return import_model(model, weights=weights, function=function)
