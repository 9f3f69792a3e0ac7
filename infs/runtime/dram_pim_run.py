"""One network on a GPU + DRAM-PIM machine, end to end: PIMFlow's per-layer placement
(CGO'23 §4.2) executed, every layer's values checked.

Takes a module of ``linalg`` on memrefs (``infs-import-onnx``'s, or written by
hand), its arguments and a machine of ``runtime/dram_pim_machines`` (one of
PIMFlow's §5 configurations); gives a ``DramPimRun``: the outputs, one
``LayerRun`` per multiply-accumulate layer (where it ran, why, its modelled
time and energy), the host's element-wise work and, when asked, the check.

How it runs:

1. ``lower-dram-pim`` (fp16: the type PIMFlow's Ramulator extension
   multiplies in) replaces each FC and convolution by its ``dram_pim.layer``;
   the rest of the function goes through extract-streams to ``stream.region``s.
2. The layers become ``NetLayer``s and ``pimflow`` plans them: each layer's
   GPU time (the ``sim/gpu`` model) against its DRAM-PIM time (the command-level machine),
   and, where the configuration allows MD-DP, the best split at 10% steps
   (§4.2.2), then the search over the chain (Algorithm 1).  Depthwise layers
   are no PIM candidates (§4.2.1) and stay on the GPU.
3. The host function is interpreted.  A layer on DRAM-PIM runs on the
   simulator functionally (its lowered commands, fp16 operands, float32
   adder tree and latches); a split runs its first ``r`` tenths of output
   rows (an FC layer: of outputs) as a sub-layer on the simulator, lowered
   for those rows, and the rest on the GPU.  The GPU is a timing model: its
   share is computed here in numpy with FP16 operands and float32
   accumulation, as cuDNN's FP16 tensor-core kernels do (``sim/gpu/model``
   ``ELEMENT_BYTES``).  The other regions (bias, activations, pads, pooling,
   adds) run on the host by the stream reference semantics and are priced
   as GPU element-wise kernels: one FP16 op per element of the largest
   array, every array read or written once (the compulsory traffic of
   ``pimflow.gpu_work``'s element-wise nodes).

The check (``check=True``): every layer's output, with the inputs it was
given, against the float64 product of its fp16-rounded operands, within the
rounding bound of the MACs (``rounding_bound``: each READRES rounds a partial
sum to fp16, half an ulp of the magnitude sum or half the subnormal spacing;
float32 adds: K * 2^-23 of it); and the
network's outputs against the same module run on the host in float32
(the ONNX graph's semantics), reported as the largest error relative to the
output's largest magnitude.  That comparison fails beyond ``L * 2^-11 * 8``
for ``L`` layers in a chain: fp16 rounding of every layer's operands, grown
by a factor that follows no published figure -- it is a guard against wrong
values, and the per-layer bound is the proof of the arithmetic.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls

from infs.dialects import dram_pim
from infs.dialects.dram_pim_records import ConvLayer, FcLayer
from infs.passes.dram_pim.lower import lower_layer
from infs.passes.dram_pim.lower_dram_pim import LowerDramPimPass
from infs.passes.extract_streams import extract_streams
from infs.passes.lowering_errors import LoweringError, location_text
from infs.runtime import pimflow
from infs.runtime.call_depth import deep_calls
from infs.runtime.dram_pim_machines import MACHINES
from infs.runtime.host import bind_arguments, find_function, make_interpreter
from infs.runtime.pimflow_models import NetLayer
from infs.runtime.reference import evaluate_region
from infs.sim.dram_pim.machine import run as run_pim
from infs.sim.dram_pim.numerics import ROUND, UNIT_ROUNDOFF
from infs.sim.gpu.model import ELEMENT_BYTES, energy_j, kernel_s

DTYPE = "fp16"  # PIMFlow_ramulator's multipliers are fp16 (sim/dram_pim/numerics)
F32_EPS = 2.0**-23  # one float32 add's relative error bound, doubled for the tree and the host's adds
# half the spacing of fp16's subnormals (2^-24): a READRES of a partial sum below fp16's
# smallest normal (2^-14) rounds it by up to this much, whatever its magnitude
FP16_SUBNORMAL_HALF_SPACING = 2.0**-25
CHAIN_GROWTH = 8  # the end-to-end guard's factor per layer (module docstring: no published figure)


class DramPimRunError(ValueError):
    """A module or machine this runtime cannot run (one line)."""


@dataclass
class LayerRun:
    name: str
    where: str  # file:line:col of the layer's op
    op: str  # conv KxK/s, dw KxK/s, fc
    shape: str
    mode: str  # gpu, pim, split
    ratio: int  # PIM's tenths
    why: str
    seconds: float
    gpu_s: float
    pim_s: float
    energy_j: float
    max_error_ratio: float = 0.0  # |got - oracle| / bound, largest over the outputs (check)


@dataclass
class DramPimRun:
    machine: str
    config: str
    outputs: dict[str, np.ndarray]
    layers: list[LayerRun]
    host_regions: int
    host_seconds: float
    host_energy_j: float
    check: dict[str, Any] | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def seconds(self) -> float:
        return sum(x.seconds for x in self.layers) + self.host_seconds

    @property
    def energy_j(self) -> float:
        return sum(x.energy_j for x in self.layers) + self.host_energy_j


def _net_layer(op: dram_pim.LayerOp, name: str) -> NetLayer:
    """The layer as PIMFlow's models price it; grouped and non-square layers they do not."""
    layer, form = op.layer(), op.weight_form.data
    if isinstance(layer, FcLayer):
        return NetLayer(name, "fc", layer.batch, 1, layer.k, layer.n)
    if form == "ghwcf" or layer.kh != layer.kw or layer.sh != layer.sw or layer.ph != layer.pw:
        raise DramPimRunError(f"{_where(op)}: layer '{name}' (conv {layer.kh}x{layer.kw}, stride {layer.sh}x{layer.sw}, weights {form}): "
                              "PIMFlow's GPU and PIM models place square, evenly padded dense or depthwise convolutions and FC layers only")  # fmt: skip
    # the importer's input is pre-padded (§4.3.2): the GPU reads the padded rows, as the model's h + 2p
    return NetLayer(name, "dw" if form == "hwc" else "conv", layer.h, layer.w, layer.c, layer.f, layer.kh, layer.sh, layer.ph)


def _where(op) -> str:
    return location_text(op) or f"'{op.name}'"


def _describe(layer: NetLayer) -> tuple[str, str]:
    if layer.op == "fc":
        return "fc", f"{layer.h}x{layer.c} -> {layer.h}x{layer.f}"
    oh, ow = layer.out_hw
    return f"{layer.op} {layer.k}x{layer.k}/{layer.s}", f"{layer.h}x{layer.w}x{layer.c} -> {oh}x{ow}x{layer.f}"


def _im2col(x_flat: np.ndarray, layer: ConvLayer | FcLayer) -> np.ndarray:
    """(V, K) vectors of the layer: an FC layer's rows, a conv's windows in (kh, kw, c) order."""
    if isinstance(layer, FcLayer):
        return x_flat.reshape(layer.batch, layer.k)
    x = x_flat.reshape(layer.h, layer.w, layer.c)
    if layer.ph or layer.pw:
        x = np.pad(x, ((layer.ph, layer.ph), (layer.pw, layer.pw), (0, 0)))
    win = np.lib.stride_tricks.sliding_window_view(x, (layer.kh, layer.kw), axis=(0, 1))[:: layer.sh, :: layer.sw]
    oh, ow = layer.out_hw
    return win[:oh, :ow].transpose(0, 1, 3, 4, 2).reshape(oh * ow, layer.reduction)


def _gpu_mac(cols: np.ndarray, wm: np.ndarray) -> np.ndarray:
    """The GPU's FP16 tensor-core product: fp16 operands, float32 accumulation."""
    r = ROUND[DTYPE]
    return np.matmul(r(cols), r(wm), dtype=np.float32)


class _Executor:
    """Runs each ``dram_pim.layer`` as the plan says and each region on the host, pricing the regions."""

    def __init__(self, plan_of: dict[int, LayerRun], pf: pimflow.Platform, check: bool):
        self.plan_of, self.pf, self.check = plan_of, pf, check
        self.host_regions, self.host_seconds = 0, 0.0

    def region(self, op, arrays, scalars):
        sizes = [int(np.asarray(a).size) for a in arrays]
        flops = max(sizes, default=0)
        byts = ELEMENT_BYTES * sum(sizes)
        self.host_seconds += float(kernel_s(self.pf.gpu, flops, byts, False, self.pf.gpu_channels, self.pf.gpu.gbps_per_channel))
        self.host_regions += 1
        return evaluate_region(op, arrays, scalars)

    def layer(self, op: dram_pim.LayerOp, x: np.ndarray, w: np.ndarray, y: np.ndarray) -> None:
        rec = self.plan_of[id(op)]
        layer = op.layer()
        flat, wm = dram_pim.bind(op, x, w)
        y0 = np.asarray(y, np.float32).reshape(layer.vectors, layer.outputs)
        out = y0.copy()
        if rec.mode == "pim":
            out = run_pim(dram_pim.program_of(op), flat, wm, y0).out
        else:
            cols = _im2col(flat, layer)
            pim_units = 0 if rec.mode == "gpu" else _pim_units(layer, rec.ratio)
            if pim_units:
                sub, sub_flat, sub_wm, rows = _part(layer, flat, wm, pim_units)
                prog = lower_layer(sub, op.machine(), DTYPE, f"{rec.name}.pim")
                if isinstance(layer, FcLayer):
                    out[:, :pim_units] = run_pim(prog, sub_flat, sub_wm, y0[:, :pim_units]).out
                    out[:, pim_units:] += _gpu_mac(cols, wm[:, pim_units:])
                else:
                    out[:rows] = run_pim(prog, sub_flat, sub_wm, y0[:rows]).out
                    out[rows:] += _gpu_mac(cols[rows:], wm)
            else:
                out += _gpu_mac(cols, wm)
        if not np.all(np.isfinite(out)) and all(np.all(np.isfinite(a)) for a in (flat, wm, y0)):
            # fp16 MACs (DTYPE): a product or partial sum beyond 65504 is inf, never a value
            raise DramPimRunError(f"{rec.where}: layer '{rec.name}' ({rec.mode}): a product or partial sum overflows {DTYPE} "
                                  f"(beyond {float(np.finfo(np.float16).max):g}), the MACs' precision; scale the layer's inputs")
        if self.check:
            rec.max_error_ratio = _error_ratio(out, y0, _im2col(flat, layer), wm, op.machine().elements_per_row)
        y[...] = out.reshape(y.shape)


def _pim_units(layer, ratio: int) -> int:
    """PIM's share of the layer's units at ``ratio`` tenths (``pimflow.md_dp``'s rounding)."""
    units = layer.n if isinstance(layer, FcLayer) else layer.out_hw[0]
    return int(np.rint(units * ratio / 10))


def _part(layer, flat: np.ndarray, wm: np.ndarray, units: int):
    """The sub-layer of the first ``units`` outputs (FC) or output rows (conv): (layer, input, Wm, vectors)."""
    if isinstance(layer, FcLayer):
        return FcLayer(layer.batch, layer.k, units), flat, np.ascontiguousarray(wm[:, :units]), layer.batch
    x = flat.reshape(layer.h, layer.w, layer.c)
    if layer.ph or layer.pw:  # the part reads pre-padded rows (§4.3.2)
        x = np.pad(x, ((layer.ph, layer.ph), (layer.pw, layer.pw), (0, 0)))
    rin = min(x.shape[0], (units - 1) * layer.sh + layer.kh)
    sub = ConvLayer(rin, x.shape[1], layer.c, layer.f, layer.kh, layer.kw, layer.sh, layer.sw, 0, 0)
    return sub, np.ascontiguousarray(x[:rin]).ravel(), wm, units * layer.out_hw[1]


def rounding_bound(mag: np.ndarray, y0: np.ndarray, k: int, row_elements: int) -> np.ndarray:
    """The bound on |got - oracle| of outputs whose |products| sum to ``mag`` over a reduction of ``k``:
    each of the ceil(k / row) READRES rounds its partial sum to fp16 (half an ulp, relative; an
    absolute half spacing where the sum is subnormal), float32 adds in the tree and the host."""
    reads = -(-k // row_elements)
    return (UNIT_ROUNDOFF[DTYPE] * 1.001 + k * F32_EPS) * mag + F32_EPS * (np.abs(y0) + mag) + reads * FP16_SUBNORMAL_HALF_SPACING


def _error_ratio(got: np.ndarray, y0: np.ndarray, cols: np.ndarray, wm: np.ndarray, row_elements: int) -> float:
    """Largest |got - oracle| / bound over the outputs (<= 1: within the MACs' rounding bound)."""
    r = ROUND[DTYPE]
    c, m = r(cols).astype(np.float64), r(wm).astype(np.float64)
    ref = y0.astype(np.float64) + c @ m
    mag = np.abs(c) @ np.abs(m)
    bound = rounding_bound(mag, y0, cols.shape[1], row_elements)
    err = np.abs(got.astype(np.float64) - ref)
    return float(np.max(np.where(bound > 0, err / np.where(bound > 0, bound, 1.0), np.where(err > 0, np.inf, 0.0)), initial=0.0))


def _functions(ex: _Executor) -> InterpreterFunctions:
    @register_impls
    class DramPimLayerFunctions(InterpreterFunctions):
        @impl(dram_pim.LayerOp)
        def run_layer(self, interpreter: Interpreter, op: dram_pim.LayerOp, args: tuple[Any, ...]):
            ex.layer(op, *args)
            return ()

    return DramPimLayerFunctions()


def _interpret(module: ModuleOp, fn: func.FuncOp, values: list[Any], ex: _Executor | None) -> None:
    interp = make_interpreter(module, ex.region if ex is not None else None)
    if ex is not None:
        interp.register_implementations(_functions(ex))
    with deep_calls():
        interp.call_op(fn, tuple(values))


def run(module: ModuleOp, args: dict[str, np.ndarray], machine: str = "gpu-dram-pim", entry: str | None = None,
        check: bool = False) -> DramPimRun:  # fmt: skip
    """Run ``entry`` of ``module`` (arrays in ``args``, updated in place) on ``machine``."""
    if machine not in MACHINES:
        raise DramPimRunError(f"no GPU + DRAM-PIM machine '{machine}' (known: {', '.join(MACHINES)})")
    config = MACHINES[machine][0]
    pf = pimflow.platform(config)
    reference = module.clone() if check else None
    ref_args = {k: v.copy() for k, v in args.items()} if check else None
    try:
        LowerDramPimPass(config=pf.mem.name, dtype=DTYPE).apply(None, module)  # type: ignore[arg-type]
    except LoweringError as e:
        raise DramPimRunError(str(e)) from None
    fn = find_function(module, entry)
    ops = [op for op in fn.walk() if isinstance(op, dram_pim.LayerOp)]  # (the entry's own: other functions are not run)
    if not ops:
        raise DramPimRunError("the module has no FC or convolution layer (linalg) to place on the GPU or DRAM-PIM")
    layers = tuple(_net_layer(op, f"{'fc' if op.kind.data == 'fc' else 'conv'}{i}") for i, op in enumerate(ops))
    # pipelines are not executed here (dram_pim_machines): the chain is covered by single layers
    layers = tuple(dataclasses.replace(x, feeds_next=False) for x in layers)
    plan = pimflow.plan(layers, config, pf)
    runs: dict[int, LayerRun] = {}
    for op, layer, seg in zip(ops, layers, plan.segments, strict=True):
        kind, shape = _describe(layer)
        why, mode = _why(pf, layer, config, seg), seg.mode
        if mode == "split":  # a ratio of few units may round to all or none of them (md_dp's rounding)
            pim_units = _pim_units(op.layer(), seg.ratio)
            if pim_units in (0, pimflow.units(layer)):
                mode = "pim" if pim_units else "gpu"
                why += f" ({pimflow.units(layer)} {'outputs' if layer.op == 'fc' else 'rows'}: all on {'PIM' if pim_units else 'the GPU'})"
        runs[id(op)] = LayerRun(layer.name, _where(op), kind, shape, mode, seg.ratio, why, seg.seconds, seg.gpu_s, seg.pim_s, seg.energy_j)
    extract_streams(module)
    ex = _Executor(runs, pf, check)
    _interpret(module, fn, bind_arguments(fn, args), ex)
    host_e = float(energy_j(pf.gpu, ex.host_seconds))
    out = DramPimRun(machine, config, dict(args), [runs[id(op)] for op in ops], ex.host_regions, ex.host_seconds, host_e)
    if reference is not None and ref_args is not None:
        out.check = _check(reference, ref_args, args, entry, out.layers)
    return out


def _why(pf: pimflow.Platform, layer: NetLayer, config: str, seg: pimflow.Segment) -> str:
    gpu = float(pimflow.gpu_seconds(pf, layer))
    if pimflow.CONFIGS[config][0] is None:
        return f"no PIM in {config}"
    if not layer.candidate:
        return "depthwise: no PIM candidate (§4.2.1)"
    pim = float(pimflow.pim_cost(pf, layer, [pimflow.units(layer)])[0][0])
    if not np.isfinite(pim):
        return "weights larger than the PIM channels"
    text = f"GPU {gpu * 1e6:.3f} / PIM {pim * 1e6:.3f}"
    if seg.mode == "split":
        text += f"; at {10 * seg.ratio}%: GPU {seg.gpu_s * 1e6:.3f} ‖ PIM {seg.pim_s * 1e6:.3f}"
    return text


def _check(reference: ModuleOp, ref_args: dict[str, np.ndarray], got: dict[str, np.ndarray], entry: str | None,
           layers: list[LayerRun]) -> dict[str, Any]:  # fmt: skip
    """Each layer within its MACs' bound, and the outputs against the module run in float32 on the host."""
    initial = {k: v.copy() for k, v in ref_args.items()}
    extract_streams(reference)
    fn = find_function(reference, entry)
    _interpret(reference, fn, bind_arguments(fn, ref_args), None)
    worst = max(layers, key=lambda x: x.max_error_ratio)
    tol = len(layers) * UNIT_ROUNDOFF[DTYPE] * CHAIN_GROWTH
    rel = {}
    for k, ref in ref_args.items():
        if not np.array_equal(ref, initial[k]):  # the outputs: what the function wrote
            scale = float(np.max(np.abs(ref), initial=0.0)) or 1.0
            rel[k] = float(np.max(np.abs(got[k].astype(np.float64) - ref), initial=0.0)) / scale
    layers_ok = worst.max_error_ratio <= 1.0
    outputs_ok = all(v <= tol for v in rel.values())
    note = []
    if not layers_ok:
        note.append(f"layer {worst.name} ({worst.where}) is {worst.max_error_ratio:.2f}x its rounding bound")
    for k, v in rel.items():
        if v > tol:
            note.append(f"output {k} differs from the float32 reference by {v:.2e} of its magnitude (guard {tol:.2e})")
    return {"ok": layers_ok and outputs_ok, "worst_layer": worst.name, "worst_ratio": worst.max_error_ratio,
            "relative_error": rel, "tolerance": tol, "note": "; ".join(note)}  # fmt: skip
