"""PIMFlow's runtime (CGO'23 §4.2): per layer of a network, the GPU's time (the
model of ``sim/gpu``: roofline plus kernel launch latency) and DRAM-PIM's (``lower_layer`` and the
command-level machine of ``sim/dram_pim``), the multi-device data-parallel
(MD-DP) split at 0/10/.../100% with its Slice/Pad/Concat costs, pipelining of
the 1x1-DW, DW-1x1 and 1x1-DW-1x1 patterns, and the search (Algorithm 1)
picking each layer's execution mode and ratio; the offloading configurations
of §5 (Baseline, Newton+, Newton++, PIMFlow-md, PIMFlow-pl, PIMFlow).

Takes a layer sequence (``runtime/pimflow_models``), a ``Platform`` (the GPU
spec, the memory's DRAM-PIM config, how many of its channels are the GPU's)
and a configuration name; gives a ``Plan``: the segments chosen (a layer on
the GPU, on PIM, split at a ratio, or a pipelined pattern at a stage split),
each with its time, the GPU's and PIM's busy time and energy, and the totals.

How the parts are priced:

* GPU: ``kernel_s`` over the layer's FLOPs and compulsory DRAM bytes (FP16)
  on the GPU's channels (``gpu_channels`` of the memory's, each at the GPU
  spec's channel rate as Accel-Sim prices it; §4.1: the other channels are
  PIM's), each node one kernel paying the launch latency.  Convolutions and
  FC layers on tensor cores, depthwise and element-wise nodes on the CUDA
  cores.  A layer wholly on PIM launches no GPU kernel (PIMFlow times a PIM
  kernel by its command trace alone).
* PIM: the layer (or its part) lowered by ``lower_layer`` (im2col on NHWC,
  §2.2) and run for timing on the machine; a layer whose weights do not fit
  the PIM channels cannot go there (infinite time).  Parts are memoized by
  shape, so a ratio or a stage reuses what another layer priced.
* MD-DP (§4.2.1): a convolution is split along its output rows H (PIM takes
  the first ``r`` of 10 parts, the GPU the rest, each reading the input rows
  its windows need), an FC layer along its outputs.  Both devices run at
  once: ``max(gpu, pim)``.  Slice, Pad and Concat (§4.3.2) are copies on the
  GPU (read and write of the input, the padded input and the output, three
  kernels) unless
  the memory optimizer lays the halves out contiguously with the padding
  pre-allocated (``layout_opt``, PIMFlow's default, §4.3.2, Fig. 7), which
  makes them no-ops.
* Pipelining (§4.2.1, §5): two stages along H; 1x1 layers on PIM, DW on the
  GPU; a consumer's first stage needs the producer rows its windows reach
  (the halo the inserted Concat supplies).  Stage tasks are list-scheduled
  on the two devices; the stage split is searched at 10% steps.
* Search (Algorithm 1): each layer's best MD-DP ratio, each pattern's best
  pipeline, then dynamic programming over the chain for the fastest cover.

Vectorized over ratios and stage splits (numpy over the 11 ratios and 9
splits); the PIM machine is run once per distinct part.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from functools import lru_cache

import numpy as np

from infs.dialects.dram_pim_records import ConvLayer, FcLayer
from infs.hardware.dram_pim import DramPimConfig, load_dram_pim
from infs.passes.dram_pim.lower import lower_layer
from infs.passes.lowering_errors import LoweringError
from infs.runtime.pimflow_models import NetLayer
from infs.sim.dram_pim.machine import run as run_pim
from infs.sim.gpu.model import ELEMENT_BYTES, RTX2060, GpuSpec, energy_j, kernel_s

RATIOS = np.arange(11)  # PIM's share in tenths (§4.2.2: 'at an interval of 10%', 11 samples)
STAGE_SPLITS = np.arange(1, 10)  # the first pipeline stage's share of rows, tenths

# §5's offloading mechanisms: (PIM config, MD-DP ratios allowed, pipelining)
CONFIGS: dict[str, tuple[str | None, bool, bool]] = {
    "Baseline": (None, False, False),  # §5: GPU-only execution with a 32-channel memory
    "Newton+": ("newton-plus", False, False),  # §5: Newton with CONV/FC offloading and multi-channel scheduling
    "Newton++": ("pimflow", False, False),  # §5: Newton+ with the PIM command optimizations (§4.1)
    "PIMFlow-md": ("pimflow", True, False),  # §5: Newton++ with MD-DP
    "PIMFlow-pl": ("pimflow", False, True),  # §5: Newton++ with pipelining only
    "PIMFlow": ("pimflow", True, True),  # §5: MD-DP and pipelining
}
PATTERNS = (("conv1", "dw"), ("dw", "conv1"), ("conv1", "dw", "conv1"))  # §5: 1x1-DW, DW-1x1, 1x1-DW-1x1


class PimFlowError(ValueError):
    """A configuration or network the runtime cannot plan (one line)."""


@dataclass(frozen=True)
class Platform:
    gpu: GpuSpec = RTX2060
    mem: DramPimConfig = field(default_factory=lambda: load_dram_pim("pimflow"))
    gpu_channels: int = 16  # §6.2: the 16-16 division of the 32-channel memory
    layout_opt: bool = True  # §4.3.2: the memory optimizer (Slice/Pad/Concat as no-ops)


def platform(config: str, pim_channels: int = 16, channels: int = 32, pim_overrides: dict | None = None,
             layout_opt: bool = True, gpu: GpuSpec = RTX2060) -> Platform:  # fmt: skip
    """The platform of one of §5's configurations: Baseline's GPU owns all channels."""
    if config not in CONFIGS:
        raise PimFlowError(f"pimflow: no configuration '{config}' (known: {', '.join(CONFIGS)})")
    pim_name = CONFIGS[config][0] or "pimflow"
    if not 0 < pim_channels < channels:
        raise PimFlowError(f"pimflow: {pim_channels} PIM channels of {channels}: both the GPU and PIM need at least one")
    mem = load_dram_pim(pim_name, channels=channels, pim_channels=pim_channels, **(pim_overrides or {}))
    return Platform(gpu, mem, channels if CONFIGS[config][0] is None else channels - pim_channels, layout_opt)


# -- the parts of a layer ------------------------------------------------------
def units(layer: NetLayer) -> int:
    """What a split cuts: a convolution's output rows, an FC layer's outputs."""
    return layer.f if layer.op == "fc" else layer.out_hw[0]


def in_rows(layer: NetLayer, rows):
    """Padded input rows a convolution's first ``rows`` output rows read."""
    rows = np.asarray(rows, np.int64)
    return np.where(rows > 0, np.minimum(layer.h + 2 * layer.p, (rows - 1) * layer.s + layer.k), 0)


def gpu_work(layer: NetLayer, part=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(FLOPs, DRAM bytes, on tensor cores) of ``part`` units of the layer (all when None)."""
    u = np.asarray(units(layer) if part is None else part, np.int64)
    e = ELEMENT_BYTES
    if layer.op == "fc":
        flops = 2.0 * layer.h * layer.c * u
        byts = e * (layer.h * layer.c + layer.c * u + layer.h * u)
        return flops, np.where(u > 0, byts, 0), np.ones_like(u, bool)
    oh, ow = layer.out_hw
    wp = layer.w + 2 * layer.p
    if layer.op == "eltwise":  # pooling windows k x k of stride s, or an element-wise op over `reads` inputs
        flops = 1.0 * u * ow * layer.f * max(layer.reads, layer.k * layer.k)
        byts = e * (layer.reads * np.minimum(layer.h, u * layer.s) * layer.w * layer.c + u * ow * layer.f)
        return flops, byts, np.zeros_like(u, bool)
    rin = in_rows(layer, u)
    if layer.op == "dw":
        flops = 2.0 * u * ow * layer.c * layer.k * layer.k
        byts = e * (rin * wp * layer.c + layer.k * layer.k * layer.c + u * ow * layer.c)
        return flops, np.where(u > 0, byts, 0), np.zeros_like(u, bool)
    flops = 2.0 * u * ow * layer.f * layer.k * layer.k * layer.c
    byts = e * (rin * wp * layer.c + layer.k * layer.k * layer.c * layer.f + u * ow * layer.f)
    return flops, np.where(u > 0, byts, 0), np.ones_like(u, bool)


def gpu_seconds(pf: Platform, layer: NetLayer, part=None) -> np.ndarray:
    flops, byts, tensor = gpu_work(layer, part)
    return kernel_s(pf.gpu, flops, byts, tensor, pf.gpu_channels, pf.gpu.gbps_per_channel)


def pim_layer(layer: NetLayer, rows: int) -> "ConvLayer | FcLayer":
    """The record form of the first ``rows`` units of a candidate layer (the PIM part)."""
    if layer.op == "fc":
        return FcLayer(layer.h, layer.c, rows)
    # the pre-padded input rows the part reads (§4.3.2): H padding inside the rows, W padding kept
    return ConvLayer(int(in_rows(layer, rows)), layer.w, layer.c, layer.f, layer.k, layer.k, layer.s, layer.s, 0, layer.p)


@lru_cache(maxsize=None)
def _pim_cost(rec: "ConvLayer | FcLayer", mem: DramPimConfig) -> tuple[float, float]:
    try:
        prog = lower_layer(rec, mem, "fp16")
    except LoweringError:
        return math.inf, math.inf
    res = run_pim(prog, functional=False)
    return res.ns * 1e-9, res.energy_uj * 1e-6


def pim_cost(pf: Platform, layer: NetLayer, parts) -> tuple[np.ndarray, np.ndarray]:
    """(seconds, joules) of the PIM machine running the first ``parts[i]`` units of the layer."""
    parts = np.asarray(parts, np.int64)
    out = [(0.0, 0.0) if r == 0 else _pim_cost(pim_layer(layer, int(r)), pf.mem) for r in parts.ravel()]
    a = np.array(out, np.float64).reshape(*parts.shape, 2)
    return a[..., 0], a[..., 1]


def split_copy_seconds(pf: Platform, layer: NetLayer) -> float:
    """Slice + Pad + Concat of an MD-DP split as three GPU copy kernels (each tensor read and written);
    zero with the memory optimizer (§4.3.2: contiguous halves along H, padding pre-allocated)."""
    if pf.layout_opt:
        return 0.0
    e = ELEMENT_BYTES
    oh, ow = layer.out_hw
    if layer.op == "fc":
        byts = 2 * e * (layer.h * layer.c + layer.h * layer.f)  # slice the input rows' view, concat the outputs
    else:
        inp, padded = layer.h * layer.w * layer.c, (layer.h + 2 * layer.p) * (layer.w + 2 * layer.p) * layer.c
        byts = 2 * e * (inp + padded + oh * ow * layer.f)
    return byts / (pf.gpu_channels * pf.gpu.gbps_per_channel * 1e9) + 3 * pf.gpu.launch_s


# -- the choices -------------------------------------------------------------
@dataclass
class Segment:
    """Layers ``first .. first + len(layers) - 1`` run one way."""

    first: int
    layers: tuple[str, ...]
    mode: str  # gpu, pim, split, pipeline
    ratio: int  # PIM's tenths (split) or the first stage's (pipeline)
    seconds: float
    gpu_s: float
    pim_s: float
    energy_j: float


def md_dp(pf: Platform, layer: NetLayer, ratios=RATIOS) -> dict[str, np.ndarray]:
    """Time, busy times and energy of the layer at each PIM ratio (tenths)."""
    u = units(layer)
    pim_units = np.rint(u * np.asarray(ratios) / 10).astype(np.int64)
    g = gpu_seconds(pf, layer, u - pim_units)
    p, pe = pim_cost(pf, layer, pim_units)
    copies = np.where((pim_units > 0) & (pim_units < u), split_copy_seconds(pf, layer), 0.0)
    return {"seconds": np.maximum(g, p) + copies, "gpu_s": g + copies, "pim_s": p, "energy_j": energy_j(pf.gpu, g + copies) + pe}


def _role(layer: NetLayer) -> str:
    if layer.op == "dw":
        return "dw"
    return "conv1" if layer.op == "conv" and layer.k == 1 else "other"


def pipeline(pf: Platform, layers: tuple[NetLayer, ...], splits=STAGE_SPLITS) -> dict[str, np.ndarray]:
    """Two-stage pipelines of a pattern at each split of the last layer's rows (tenths): each
    layer's stage 1 makes the rows the next layer's stage 1 reads; 1x1 on PIM, DW on the GPU;
    tasks list-scheduled layer by layer, stage 1 before stage 2, each device one task at a time."""
    splits = np.asarray(splits)
    n = len(layers)
    first = [None] * n
    first[-1] = np.clip(np.rint(units(layers[-1]) * splits / 10).astype(np.int64), 1, units(layers[-1]) - 1)
    for j in range(n - 2, -1, -1):  # rows of layer j that layer j+1's first stage reads (unpadded)
        nxt = layers[j + 1]
        first[j] = np.minimum(units(layers[j]), np.maximum(1, in_rows(nxt, first[j + 1]) - nxt.p))
    free = {"gpu": np.zeros(splits.shape), "pim": np.zeros(splits.shape)}
    busy = {"gpu": np.zeros(splits.shape), "pim": np.zeros(splits.shape)}
    energy = np.zeros(splits.shape)
    done_prev = [np.zeros(splits.shape), np.zeros(splits.shape)]
    for j, layer in enumerate(layers):
        dev = "gpu" if layer.op == "dw" else "pim"
        done = []
        for st, rows in enumerate((first[j], units(layer) - first[j])):
            if dev == "gpu":
                t = gpu_seconds(pf, layer, rows)
                e = energy_j(pf.gpu, t)
            else:
                # the second stage is the rows after the first: priced as the part of that many rows
                t, e = pim_cost(pf, layer, rows)
            # stage 2 of a consumer reads rows of the producer's stage 1 and 2: it waits for both
            ready = done_prev[0] if st == 0 else np.maximum(done_prev[0], done_prev[1])
            start = np.maximum(free[dev], ready)
            free[dev] = start + t
            busy[dev] = busy[dev] + t
            energy = energy + e
            done.append(free[dev])
        done_prev = done
    return {"seconds": np.maximum(free["gpu"], free["pim"]), "gpu_s": busy["gpu"], "pim_s": busy["pim"], "energy_j": energy}


def pattern_starts(layers: tuple[NetLayer, ...]) -> list[tuple[int, int]]:
    """(first index, length) of every 1x1-DW, DW-1x1 and 1x1-DW-1x1 run in the chain."""
    roles = [_role(x) for x in layers]
    found = []
    for i in range(len(layers)):
        for pat in PATTERNS:
            if tuple(roles[i : i + len(pat)]) == pat and all(x.feeds_next for x in layers[i : i + len(pat) - 1]):
                found.append((i, len(pat)))
    return found


@dataclass
class Plan:
    config: str
    platform: Platform
    segments: list[Segment]

    @property
    def seconds(self) -> float:
        return sum(s.seconds for s in self.segments)

    @property
    def energy_j(self) -> float:
        return sum(s.energy_j for s in self.segments)

    def seconds_of(self, names: set[str]) -> float:
        """Time of the segments made of the named layers only (every segment is in or out whole)."""
        return sum(s.seconds for s in self.segments if set(s.layers) <= names)


def _pick(opts: dict[str, np.ndarray], allowed: np.ndarray) -> tuple[int, dict[str, float]]:
    t = np.where(allowed, opts["seconds"], np.inf)
    i = int(np.argmin(t))
    return i, {k: float(v[i]) for k, v in opts.items()}


def layer_options(pf: Platform, layers: tuple[NetLayer, ...], config: str) -> tuple[list[Segment], dict[tuple[int, int], Segment]]:
    """Each layer's best single-layer segment and each pattern's best pipeline under ``config``."""
    if config not in CONFIGS:
        raise PimFlowError(f"pimflow: no configuration '{config}' (known: {', '.join(CONFIGS)})")
    pim_name, mddp, pipe = CONFIGS[config]
    singles = []
    for i, layer in enumerate(layers):
        if pim_name is None or not layer.candidate:
            t = float(gpu_seconds(pf, layer))
            singles.append(Segment(i, (layer.name,), "gpu", 0, t, t, 0.0, float(energy_j(pf.gpu, t))))
            continue
        allowed = np.ones(RATIOS.size, bool) if mddp else np.isin(RATIOS, (0, 10))
        opts = md_dp(pf, layer, np.where(allowed, RATIOS, 0))
        r, v = _pick(opts, allowed)
        mode = "gpu" if RATIOS[r] == 0 else "pim" if RATIOS[r] == 10 else "split"
        singles.append(Segment(i, (layer.name,), mode, int(RATIOS[r]), v["seconds"], v["gpu_s"], v["pim_s"], v["energy_j"]))
    pipes = {}
    if pim_name is not None and pipe:
        for i, n in pattern_starts(layers):
            group = layers[i : i + n]
            if any(units(x) < 2 for x in group):
                continue
            q, v = _pick(pipeline(pf, group), np.ones(STAGE_SPLITS.size, bool))
            pipes[(i, n)] = Segment(i, tuple(x.name for x in group), "pipeline", int(STAGE_SPLITS[q]), v["seconds"], v["gpu_s"], v["pim_s"], v["energy_j"])
    return singles, pipes


def search(singles: list[Segment], pipes: dict[tuple[int, int], Segment]) -> list[Segment]:
    """The fastest cover of the chain by single layers and pipelines (Algorithm 1's dynamic program
    on a chain: best[i] = min(best[i-1] + single, best[i-n] + pipeline of n ending at i))."""
    n = len(singles)
    best = np.full(n + 1, np.inf)
    best[0] = 0.0
    back: list[Segment | None] = [None] * (n + 1)
    ending: dict[int, list[Segment]] = {}
    for (i, k), seg in pipes.items():
        ending.setdefault(i + k, []).append(seg)
    for j in range(1, n + 1):
        best[j], back[j] = best[j - 1] + singles[j - 1].seconds, singles[j - 1]
        for seg in ending.get(j, ()):
            t = best[j - len(seg.layers)] + seg.seconds
            if t < best[j]:
                best[j], back[j] = t, seg
    out, j = [], n
    while j > 0:
        out.append(back[j])
        j -= len(back[j].layers)
    return out[::-1]


def plan(layers: tuple[NetLayer, ...], config: str, pf: Platform | None = None) -> Plan:
    """The search's plan of the network under one of §5's configurations."""
    if not layers:
        raise PimFlowError("pimflow: the network has no layers")
    pf = pf or platform(config)
    singles, pipes = layer_options(pf, layers, config)
    return Plan(config, pf, search(singles, pipes))


def with_pim(pf: Platform, **overrides) -> Platform:
    """The platform with the DRAM-PIM config's fields replaced (Fig. 14's command optimizations)."""
    return replace(pf, mem=load_dram_pim(pf.mem, **overrides))
