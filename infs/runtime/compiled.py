"""Programs compiled ahead of time: ``pimcmd.program`` ops in the host code.

``infs-opt --tensorize --lower-pim='sizes=... config=...'`` gives host code whose
offloaded regions are ``pimcmd.program`` ops: the paper's "Inf-S no JIT"
configuration (§8, Fig. 11), every lowering done before the run.  Such a
program was lowered for one machine and one set of sizes, so before it runs
(``bind``) the call must be the one it was made for:

* the run's machine is the program's config (its ``config`` names a built-in
  or carries the machine inline; a hand-written program's label is checked by
  its geometry: banks, arrays per bank, wordlines, bitlines);
* each symbol lower-pim bound (``infs.sizes``, with ``infs.symbols`` naming
  which scalar operand carries each symbol: lower_pim.py) has that value at this
  call -- a stencil lowered for M = 64 and called with M = 32 would compute the
  64 x 64 box, silently;
* each array is at least the shape of its layout entry (``pimcmd.array``).  A
  dynamic memref's entry covers what the graph touches (lower-pim knows sizes,
  not the arrays' shapes): a larger array runs on its view cut to that shape,
  which is exact when the sizes are those it was specialized for (checked
  above; the cells outside the entry are never touched).  Without a
  specialization record (a hand-written program) the shape must be the entry's.

Each mismatch is one line naming the op, its line and the mismatch
(``AotError``).  The oracle of ``infs-run --check`` is the graph the program
was lowered from (``infs.source``), evaluated on the lattice
(``infs.runtime.lattice_eval``): ``source_graph`` parses it once per op.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import AnyFloat, ArrayAttr, DictionaryAttr, FloatAttr, IntegerAttr, StringAttr

from infs.dialects import pimcmd as pc
from infs.dialects import pimcmd_schema as K
from infs.dialects import tdfg
from infs.dialects.pimcmd_records import PimProgram, RecordError
from infs.dialects.pimcmd_records_ir import from_op
from infs.hardware import HardwareConfig, config_spec, is_inline_spec, load_config
from infs.runtime.scalar_ops import EvaluationError, op_label


class AotError(EvaluationError):
    """A compiled program called on another machine, sizes or shapes than it was made for (one line)."""


_WRITES = (K.RELEASE, K.NEAR_STORE)


def record_of(op: pc.ProgramOp) -> PimProgram:
    """The program's records, read once per op (kept on the op)."""
    hit = getattr(op, "_infs_record", None)
    if hit is None:
        try:
            hit = from_op(op)
        except RecordError as e:
            raise AotError(f"{op_label(op)}: {str(e).strip().splitlines()[0]}") from None
        op._infs_record = hit  # type: ignore[attr-defined]
    return hit


def _geometry(cfg: HardwareConfig) -> dict[str, int]:
    return {"banks": cfg.banks, "arrays_per_bank": cfg.arrays_per_bank, "wordlines": cfg.wordlines, "bitlines": cfg.bitlines}


def config_mismatch(op: pc.ProgramOp, cfg: HardwareConfig) -> str | None:
    """Why ``op`` cannot run on ``cfg`` (None when it can): see the module docstring."""
    text = op.config.data
    if text == config_spec(cfg):
        return None
    own: HardwareConfig | None = None
    try:
        own = load_config(text)
    except (OSError, ValueError, KeyError):
        own = None  # a label, not a machine (hand-written programs)
    if own is not None:
        mine, theirs = own.to_dict(), cfg.to_dict()
        mine.pop("name", None)
        theirs.pop("name", None)
        if mine == theirs:
            return None
        diff = sorted(k for k in mine if mine[k] != theirs.get(k))
        shown = ", ".join(f"{k} {mine[k]} vs {theirs.get(k)}" for k in diff[:3]) + (", ..." if len(diff) > 3 else "")
        name = own.name if is_inline_spec(text) else text
        run = f"run it with --config {name}" if not is_inline_spec(text) else "run it without --config (its own machine is the default)"
        return f"was lowered for config '{name}', this run's machine is '{cfg.name}' ({shown}): {run}, or lower the source again for '{cfg.name}'"
    prog = record_of(op)
    got = {"banks": prog.banks, "arrays_per_bank": prog.per_bank, "wordlines": prog.wordlines, "bitlines": prog.bitlines}
    want = _geometry(cfg)
    bad = [k for k in got if (got[k] > want[k] if k == "wordlines" else got[k] != want[k])]
    if not bad:
        return None
    shown = ", ".join(f"{k} {got[k]} vs {want[k]}" for k in bad)
    return f"was lowered for a machine '{text}' that is not this run's '{cfg.name}' ({shown})"


def _symbols(op: pc.ProgramOp) -> list[str] | None:
    attr = op.attributes.get("infs.symbols")
    if not isinstance(attr, ArrayAttr) or not all(isinstance(a, StringAttr) for a in attr.data):
        return None
    names = [a.data for a in attr.data]  # type: ignore[union-attr]
    return names if len(names) == len(op.scalars) else None


def specialized(op: pc.ProgramOp) -> dict[str, Any] | None:
    """The bindings the program was specialized for (``infs.sizes``), or None when it records none."""
    attr = op.attributes.get("infs.sizes")
    if not isinstance(attr, DictionaryAttr) or _symbols(op) is None:
        return None
    out: dict[str, Any] = {}
    for k, v in attr.data.items():
        if isinstance(v, IntegerAttr):
            out[k] = v.value.data
        elif isinstance(v, FloatAttr):
            out[k] = float(v.value.data)
    return out


def _same(value: Any, bound: Any, ty) -> bool:
    if isinstance(ty, AnyFloat):
        dt = np.float32 if ty.bitwidth == 32 else np.float64
        return bool(dt(value) == dt(bound))
    try:
        return int(value) == int(bound)
    except (TypeError, ValueError):
        return False


def _shown(value: Any, ty) -> str:
    """A scalar as its type holds it (an f32 0.3 as 0.3, not 0.30000001192092896)."""
    if isinstance(ty, AnyFloat):
        return str((np.float32 if ty.bitwidth == 32 else np.float64)(value))
    return str(value)


def bind(op: pc.ProgramOp, cfg: HardwareConfig, arrays: Sequence[np.ndarray], scalars: Sequence[Any],
         views: dict | None = None, tiles: Sequence[int] | None = None) -> tuple[PimProgram, dict[int, np.ndarray], list[Any]]:  # fmt: skip
    """(records, the arrays the machine runs on by argument index, scalar values)
    for one call of ``op``; an ``AotError`` when the call is not one the program
    was made for (module docstring).  ``views`` keeps the view cut from an array
    for the next call with the same array: the machine knows an array it left
    transposed by the array object (§5.2, delayed release), so a time-step loop
    calling the program again finds it there, as the JIT's run does.  ``tiles``:
    the tile shape the run asks for (``--tiles``), which must be the program's."""
    where = op_label(op)
    why = config_mismatch(op, cfg)
    if why is not None:
        raise AotError(f"{where} {why}")
    prog = record_of(op)
    if tiles is not None and tuple(tiles) != tuple(prog.tiles):
        raise AotError(f"{where} was lowered with tiles {'x'.join(map(str, prog.tiles))}: a compiled program's layout is fixed "
                       f"(tiles {'x'.join(map(str, tiles))} asked; lower the source again with lower-pim tiles=...)")  # fmt: skip
    bound = specialized(op)
    names = _symbols(op)
    if bound is None and ("infs.sizes" in op.attributes or "infs.symbols" in op.attributes):
        # a record that cannot be read would leave the sizes unchecked: the program's error
        raise AotError(f"{where}: its infs.symbols must name each of its {len(op.scalars)} scalar operands and its infs.sizes be a dictionary of bindings")
    if bound is not None and names is not None:
        for name, value in bound.items():
            if name not in names:
                raise AotError(f"{where}: its infs.sizes binds '{name}', which is none of its infs.symbols ({', '.join(names) or 'none'})")
            k = names.index(name)
            got = scalars[k]
            if not _same(got, value, op.scalars[k].type):
                host = op.scalars[k].name_hint
                got = _shown(got, op.scalars[k].type)
                shown = f"%{host} = {got}" if host and host != name else f"{name} = {got}"
                raise AotError(f"{where} was specialized for {name} = {value} (lower-pim sizes), this call has {shown}: "
                               "lower the source again for these sizes, or run it before lower-pim (the JIT specializes at run time)")  # fmt: skip
    host: dict[int, np.ndarray] = {}
    entries = {c["arr"]: tuple(c["shape"]) for c in prog.arrays()}
    for i, a in enumerate(arrays):
        name = f"%{op.arrays[i].name_hint or prog.arg_name(i)}"
        want = entries.get(i)
        shape = tuple(np.shape(a))
        if want is None or shape == want:
            host[i] = a
            continue
        if len(shape) != len(want) or any(s < w for s, w in zip(shape, want)) or bound is None:
            what = "the shape of its layout entry" if bound is None else "at least the shape of its layout entry"
            raise AotError(f"{where}: array {name} has shape {list(shape)}, the program was lowered for {list(want)} ({what}): "
                           "lower the source again for this array, or run it before lower-pim")  # fmt: skip
        kept = views.get((id(op), i)) if views is not None else None
        if kept is not None and kept[0] is a:
            host[i] = kept[1]
            continue
        host[i] = a[tuple(slice(0, w) for w in want)]  # exact under the checked sizes (module docstring)
        if views is not None:
            views[(id(op), i)] = (a, host[i])
    written = {c["arr"] for c in prog.cmds if c.kind in _WRITES}
    for i in range(len(arrays)):
        for j in range(i + 1, len(arrays)):
            if op.arrays[i] is op.arrays[j] or not (i in written or j in written):
                continue
            a, b = arrays[i], arrays[j]
            if isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.size and b.size and np.shares_memory(a, b):
                raise AotError(f"{where}: its array operands %{op.arrays[i].name_hint or i} and %{op.arrays[j].name_hint or j} share memory at run time "
                               "(aliased host arguments) and it writes one of them: pass distinct arrays")  # fmt: skip
    params = [np.asarray(s).item() for s in scalars]
    return prog, host, params


def source_graph(op: pc.ProgramOp) -> tuple[tdfg.GraphOp, list[int]] | None:
    """The graph ``op`` was lowered from (``infs.source``) and, per graph scalar,
    the index of the program's scalar operand carrying it; None when the program
    carries no source.  Parsed once per op; a source that does not parse or does
    not match the program's operands is an ``AotError``."""
    hit = getattr(op, "_infs_source", False)
    if hit is not False:
        return hit
    text = op.attributes.get("infs.source")
    names = _symbols(op)
    if not isinstance(text, StringAttr) or names is None:
        op._infs_source = None  # type: ignore[attr-defined]
        return None
    from infs.dialects.parse import InfsError, parse_text  # (the parser: only a --check of a compiled program needs it)

    try:
        module = parse_text(text.data, f"<infs.source of {op_label(op)}>")
    except InfsError as e:
        raise AotError(f"{op_label(op)}: its infs.source does not parse: {e}") from None
    graphs = [g for g in module.walk() if isinstance(g, tdfg.GraphOp)]
    if len(graphs) != 1:
        raise AotError(f"{op_label(op)}: its infs.source holds {len(graphs)} tdfg.graph ops, not one")
    g = graphs[0]
    if [a.type for a in g.arrays] != [a.type for a in op.arrays] or any(n not in names for n in g.names):
        raise AotError(f"{op_label(op)}: its infs.source's operands are not the program's (arrays {[str(a.type) for a in g.arrays]}, symbols {list(g.names)})")
    hit = (g, [names.index(n) for n in g.names])
    g._infs_module = module  # type: ignore[attr-defined]  (keeps the parsed module alive with the graph)
    op._infs_source = hit  # type: ignore[attr-defined]
    return hit


def source_executor(cfg: HardwareConfig, unchecked: list[str]):
    """A ``program_executor`` for ``infs.runtime.host.run_function`` that is the
    oracle of a compiled program: its source graph (``infs.source``) evaluated
    on the lattice, with the call's arrays and the scalars the graph names.  A
    program that carries no source has no oracle: it runs its own commands on a
    machine of its own (so that the host code around it goes on), and its label
    goes in ``unchecked`` -- what the check says it did not check."""
    from infs.runtime.host import numpy_dtype
    from infs.runtime.lattice_eval import evaluate_graph
    from infs.sim import Machine

    machines: list = []

    def run(op: pc.ProgramOp, arrays: list[np.ndarray], scalars: list[Any]) -> list[Any]:
        src = source_graph(op)
        if src is not None:
            graph, index = src
            return evaluate_graph(graph, arrays, [scalars[k] for k in index])
        if op_label(op) not in unchecked:
            unchecked.append(op_label(op))
        if not machines:
            machines.append(Machine(cfg))
        prog, host, params = bind(op, cfg, arrays, scalars)
        machines[0].run(prog, host, scalars=params)
        return [np.asarray(machines[0].results[i], dtype=numpy_dtype(r.type))[()] for i, r in enumerate(op.res)]

    return run


def has_programs(module) -> bool:
    return any(isinstance(op, pc.ProgramOp) for op in module.walk())


def module_config(module) -> str | None:
    """The one config every program of ``module`` was lowered for, when they agree and it loads (None otherwise)."""
    texts = {op.config.data for op in module.walk() if isinstance(op, pc.ProgramOp)}
    if len(texts) != 1:
        return None
    (text,) = texts
    try:
        load_config(text)
    except (OSError, ValueError, KeyError):
        return None
    return text


__all__ = ["AotError", "bind", "config_mismatch", "has_programs", "module_config", "record_of", "source_executor", "source_graph", "specialized"]
