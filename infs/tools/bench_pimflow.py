"""``infs-bench --suite pimflow``: PIMFlow's evaluation (CGO'23 §5-§6) on its five
CNNs and BERT's FC layers, with the runtime of ``infs.runtime.pimflow``.

Takes the models of ``infs.frontend.onnx_models`` (their layers read back by
``infs.runtime.pimflow_models.from_onnx_layers``) and the configurations of
``pimflow.CONFIGS``; gives ``benchmarks/REPRODUCTION-PIMFLOW.md`` with its
plots (``benchmarks/figures/pimflow_*.png``) and ``bench-pimflow.csv``:

* Fig. 8 -- Newton's GEMV against the GPU model across batch sizes (the
  paper's validation: about 20x at batch 1 on a Titan V of 24 channels,
  Newton with HBM timing; ours also with PIMFlow's GDDR6 timing);
* Fig. 9 -- time of the PIM-candidate CONV layers and end to end, per model
  and configuration, over the Baseline (GPU only, 32 channels);
* Table 2 -- the search's choices in PIMFlow: layers split, fully on PIM,
  on the GPU, pipelined;
* Fig. 12 -- energy over the Baseline's;
* Fig. 13 -- end-to-end speedup as the 32 channels are divided differently
  between the GPU and PIM;
* Fig. 14 -- GWRITE latency hiding and multiple global buffers, alone and
  together, against Newton+ (the PIM-candidate layers under Newton's
  offloading);
* BERT (§6.3) -- Newton++ against PIMFlow at 1x3 and 1x64 tokens;
* the GPU model's own sensitivity to its channels (the Baseline on 16
  channels against 32; the paper's Fig. 3 found compute-bound models barely
  affected), which explains most of what differs.

Every number of ours comes from the GPU *model* (``sim/gpu``: a roofline plus
the kernel launch latency of the Accel-Sim configuration PIMFlow ran) and
the command-level DRAM-PIM machine; each headline is printed beside the
paper's with the reason they differ, generated from the runs.
"""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Any

from infs.tools.bench_csv import write_csv
from infs.tools.bench_pool import run_pool
from infs.tools.bench_report import geomean, repo_relative

PROG = "infs-bench --suite pimflow"
MODELS = ("ENetB0", "MnasNet", "MBNetV2", "ResNet50", "VGG16")
# the ONNX graphs of infs.frontend.onnx_models each name stands for (MnasNet: PIMFlow's artifact's mnasnet-1.0, the B1 form)
ONNX_NAMES = {"ENetB0": "efficientnet-b0", "MnasNet": "mnasnet-b1", "MBNetV2": "mobilenetv2", "ResNet50": "resnet50", "VGG16": "vgg16"}
CONFIGS = ("Baseline", "Newton+", "Newton++", "PIMFlow-md", "PIMFlow-pl", "PIMFlow")
CHANNEL_STUDY = (("ENetB0", "ResNet50"), (4, 8, 16, 24, 28))  # Fig. 13's models and PIM channel counts of 32
CHANNEL_CONFIGS = ("Newton+", "Newton++", "PIMFlow")
FIG14 = {  # Fig. 14: the PIM config's command optimizations (§4.1), Newton's offloading
    "Newton+": {"global_buffers": 1, "global_buffer_bytes": 1024, "gwrite_latency_hiding": False},
    "GWRITE latency hiding": {"global_buffers": 1, "global_buffer_bytes": 1024, "gwrite_latency_hiding": True},
    "multiple global buffers": {"global_buffers": 4, "global_buffer_bytes": 4096, "gwrite_latency_hiding": False},
    "both (Newton++)": {"global_buffers": 4, "global_buffer_bytes": 4096, "gwrite_latency_hiding": True},
}
GEMV_BATCHES = (1, 2, 4, 8, 16, 32, 64)
GEMV_SHAPES = ((1024, 1024), (2048, 2048), (4096, 4096))  # (K, N) of the matrix-vector benchmark (sizes of ours: Fig. 8 names none)
# Fig. 8's PIM memory (§5: 'we used the HBM timing parameters based on [26]'): the HBM speed entry of the authors'
# Ramulator extension, which carries Newton's commands (PIMFlow_ramulator src/HBM.h speed_table HBM_1Gbps and
# src/HBM.cpp init_timing), on Table 1's geometry (the artifact's command generator, pim/pim_trace.cc, cuts rows into
# 512-element chunks of 32 COMPs for either memory); the gaps GWRITE -> COMP nRC + 16, READRES -> GWRITE 6 and
# COMP -> READRES 1 are the same in HBM.cpp as in GDDR6.cpp
FIG8_HBM = {
    "freq_ghz": 0.85,  # HBM.h HBM_1Gbps: freq 850 MHz, tCK 1.176 ns (rate 1700)
    "tBL": 1,  # HBM.h nBL 1
    "tCL": 12,  # HBM.h nCL 12 (READRES latency nCL + nBL, HBM.cpp)
    "tRCD": 12,  # HBM.h nRCDR 12 (HBM.cpp: G_ACTn -> COMP nRCDR)
    "tRP": 12,  # HBM.h nRP 12 (HBM.cpp: PREA -> G_ACT0 nRP)
    "tCCD": 1,  # HBM.h nCCDS 1 (HBM.cpp: COMP -> COMP nCCDS; GWRITE without latency hiding 32 x nCCDS)
    "tRAS": 29,  # HBM.h nRAS 29
    "tRC": 40,  # HBM.h nRC 40
    "tFAW": 26,  # HBM.h nFAW 26 (HBM.cpp: G_ACTn -> G_ACTn+1 nFAW)
    "tRTP": 4,  # HBM.h nRTP 4
}

# The paper's figures, with the text that gives each.
PAPER: dict[str, tuple[float, str]] = {
    "gemv b1": (20.4, "§5: 'our simulator performs 20.4x better than GPU (batch size = 1)'"),
    "conv PIMFlow": (1.30, "§6.1: 'a 30% speedup on average for CONV layers against the GPU baseline'"),
    "e2e PIMFlow max": (1.82, "abstract: 'up to 82% ... speedup ... against the GPU'"),
    "e2e PIMFlow": (1.34, "abstract: '34% ... on average' against the GPU baseline"),
    "conv Newton++/Newton+": (1.20, "§6.1: 'Newton++ outperforms Newton+ by 20% on average for all CONV layers'"),
    "split share": (0.58, "§6.1, Table 2: '58% of the PIM-candidate layers are split'"),
    "pim share": (0.41, "§6.1, Table 2: '41% fully offload to DRAM-PIM'"),
    "energy Newton++": (0.82, "§6.1, Fig. 12: Newton++ 'less energy than the GPU baseline by 18%'"),
    "energy PIMFlow": (0.74, "§6.1, Fig. 12: PIMFlow by 26%"),
    "fig14 hiding": (1.09, "§6.2, Fig. 14: 'GWRITE latency hiding provides a 9% speedup on its own'"),
    "fig14 buffers": (1.14, "§6.2: 'multiple global buffers provide a 14% speedup against Newton+'"),
    "fig14 both": (1.22, "§6.2: 'PIMFlow achieves a 22% speedup on average by combining them'"),
    "bert64": (1.32, "§6.3: 'PIMFlow provides a 32% extra speedup over Newton++ for 1x64 input'"),
    "bert3": (1.00, "§6.3: 'PIMFlow performs the same as Newton++ for small input (1x3)'"),
}


def net_layers(model: str):
    """The model's layers for the runtime: its ONNX graph (``onnx_models``) read back as
    ``NetLayer``s; ``BERT<tokens>`` the BERT-base FC graph at that sequence length; ``tiny`` the test network."""
    from infs.runtime.pimflow_models import from_onnx_layers, model_layers

    if model == "tiny":
        return model_layers("tiny")
    from infs.frontend import onnx_models

    if model.startswith("BERT"):
        graph = onnx_models.build("bert-base-fc", input_size=int(model[4:]), weights=False)
        return from_onnx_layers(onnx_models.layers(graph), model)
    return from_onnx_layers(onnx_models.layers(ONNX_NAMES[model]), model)


def _conv_set(layers) -> set[str]:
    """The PIM-candidate CONV layers and the DW layers of the pipelining patterns (Fig. 9's CONV bars)."""
    from infs.runtime import pimflow

    names = {x.name for x in layers if x.op == "conv"}
    for i, n in pimflow.pattern_starts(layers):
        names |= {x.name for x in layers[i : i + n]}
    return names


def model_task(model: str) -> list[dict]:
    """One model: every configuration's plan (Fig. 9, 12, Table 2), the 16-channel Baseline,
    Fig. 14's variants under Newton's offloading."""
    from infs.runtime import pimflow

    layers = net_layers(model)
    conv = _conv_set(layers)
    rows = []

    def row(study, config, p, **extra):
        segs = [s for s in p.segments if s.mode != "pipeline"]
        cand = [s for s in segs if layers[s.first].candidate]
        rows.append({"study": study, "model": model, "config": config, "seconds": p.seconds, "conv_seconds": p.seconds_of(conv),
                     "energy_j": p.energy_j, "gpu_channels": p.platform.gpu_channels, "pim_channels": p.platform.mem.pim_channels,
                     "candidates": sum(x.candidate for x in layers), "split": sum(s.mode == "split" for s in cand),
                     "pim": sum(s.mode == "pim" for s in cand), "gpu": sum(s.mode == "gpu" for s in cand),
                     "pipelined": sum(len(s.layers) for s in p.segments if s.mode == "pipeline"),
                     "choices": ";".join(f"{s.layers[0]}:{s.mode}:{s.ratio}" for s in p.segments if s.mode != "gpu"), **extra})  # fmt: skip

    for c in CONFIGS:
        row("fig9", c, pimflow.plan(layers, c), kernels=len(layers))  # the Baseline launches one GPU kernel per node
    base16 = pimflow.Platform(gpu_channels=16)
    row("gpu16", "Baseline", pimflow.plan(layers, "Baseline", base16))
    for name, fields in FIG14.items():
        pf = pimflow.platform("Newton++", pim_overrides=fields)
        # the PIM kernels alone: every candidate CONV layer wholly on PIM under the variant
        on_pim = sum(float(pimflow.pim_cost(pf, x, [pimflow.units(x)])[0][0]) for x in layers if x.op == "conv")
        row("fig14", name, pimflow.plan(layers, "Newton++", pf), pim_conv_seconds=on_pim)
    return rows


def channel_task(model: str, pim_channels: int) -> list[dict]:
    """Fig. 13: the configurations at one division of the 32 channels."""
    from infs.runtime import pimflow

    layers = net_layers(model)
    base = pimflow.plan(layers, "Baseline").seconds
    return [{"study": "fig13", "model": model, "config": c, "pim_channels": pim_channels, "gpu_channels": 32 - pim_channels,
             "seconds": (p := pimflow.plan(layers, c, pimflow.platform(c, pim_channels))).seconds, "speedup": base / p.seconds}
            for c in CHANNEL_CONFIGS]  # fmt: skip


def gemv_task(k: int, n: int) -> list[dict]:
    """Fig. 8: a K x N matrix times ``batch`` vectors on Newton (24 PIM channels of HBM timing, as §5;
    and of PIMFlow's GDDR6 timing, Table 1) and on the Titan V model (24 HBM2 channels at Accel-Sim's
    SM7_TITANV rate, the datasheet's)."""
    from infs.dialects.dram_pim_records import FcLayer
    from infs.hardware.dram_pim import load_dram_pim
    from infs.passes.dram_pim.lower import lower_layer
    from infs.sim.dram_pim.machine import run
    from infs.sim.gpu.model import ELEMENT_BYTES, TITAN_V, kernel_s

    mem = load_dram_pim("pimflow", channels=24, pim_channels=24, **FIG8_HBM)
    gddr6 = load_dram_pim("pimflow", channels=24, pim_channels=24)
    out = []
    for b in GEMV_BATCHES:
        pim_s = run(lower_layer(FcLayer(b, k, n), mem, "fp16"), functional=False).ns * 1e-9
        pim_gddr6_s = run(lower_layer(FcLayer(b, k, n), gddr6, "fp16"), functional=False).ns * 1e-9
        gpu_s = float(kernel_s(TITAN_V, 2.0 * b * k * n, ELEMENT_BYTES * (b * k + k * n + b * n), True, TITAN_V.datasheet_channels,
                               TITAN_V.gbps_per_channel))  # fmt: skip
        out.append({"study": "fig8", "model": f"gemv {k}x{n}", "config": f"batch {b}", "batch": b, "pim_s": pim_s, "gpu_s": gpu_s,
                    "speedup": gpu_s / pim_s, "pim_gddr6_s": pim_gddr6_s, "speedup_gddr6": gpu_s / pim_gddr6_s})  # fmt: skip
    return out


def bert_task(tokens: int) -> list[dict]:
    from infs.runtime import pimflow

    layers = net_layers(f"BERT{tokens}")
    return [{"study": "bert", "model": f"BERT 1x{tokens}", "config": c, "seconds": pimflow.plan(layers, c).seconds}
            for c in ("Baseline", "Newton++", "PIMFlow")]  # fmt: skip


def _call(kind: str, *args) -> list[dict]:
    fn = {"model": model_task, "channels": channel_task, "gemv": gemv_task, "bert": bert_task}[kind]
    try:
        return fn(*args)
    except Exception as e:  # a failed run is a report line, not a traceback in the pool
        return [{"study": kind, "model": str(args), "config": "", "error": repo_relative(f"{type(e).__name__}: {e}")}]


def tasks_for(models, channel_study, gemv_shapes, bert_tokens) -> list[tuple]:
    t = [("model", m) for m in models]
    t += [("channels", m, c) for m in channel_study[0] for c in channel_study[1]]
    t += [("gemv", k, n) for k, n in gemv_shapes] + [("bert", b) for b in bert_tokens]
    return t


# -- figures -----------------------------------------------------------------
def figures(rows: list[dict]) -> dict[str, Any]:
    """The headline numbers of each figure from the rows."""
    by = {(r["study"], r["model"], r["config"]): r for r in rows if "error" not in r}
    models = list(dict.fromkeys(r["model"] for r in rows if r.get("study") == "fig9" and r["config"] == "Baseline" and "error" not in r))
    fig9: dict[str, dict[str, dict[str, float]]] = {}
    for m in models:
        b = by[("fig9", m, "Baseline")]
        fig9[m] = {c: {"conv": b["conv_seconds"] / by[("fig9", m, c)]["conv_seconds"], "e2e": b["seconds"] / by[("fig9", m, c)]["seconds"],
                       "energy": by[("fig9", m, c)]["energy_j"] / b["energy_j"]} for c in CONFIGS}  # fmt: skip
    geo = {c: {k: geomean(fig9[m][c][k] for m in models) for k in ("conv", "e2e", "energy")} for c in CONFIGS}
    t2 = {m: by[("fig9", m, "PIMFlow")] for m in models}
    cand = sum(r["candidates"] for r in t2.values())
    table2 = {"split": sum(r["split"] for r in t2.values()) / cand if cand else float("nan"),
              "pim": sum(r["pim"] for r in t2.values()) / cand if cand else float("nan"),
              "gpu": sum(r["gpu"] for r in t2.values()) / cand if cand else float("nan"), "per": t2}  # fmt: skip
    f14 = {m: {n: by[("fig14", m, "Newton+")]["conv_seconds"] / by[("fig14", m, n)]["conv_seconds"] for n in FIG14} for m in models if ("fig14", m, "Newton+") in by}
    f14geo = {n: geomean(f14[m][n] for m in f14) for n in FIG14}
    f14pim = {m: {n: by[("fig14", m, "Newton+")]["pim_conv_seconds"] / by[("fig14", m, n)]["pim_conv_seconds"] for n in FIG14} for m in f14}
    f14pimgeo = {n: geomean(f14pim[m][n] for m in f14pim) for n in FIG14}
    gpu16 = {m: by[("fig9", m, "Baseline")]["seconds"] / by[("gpu16", m, "Baseline")]["seconds"] for m in models if ("gpu16", m, "Baseline") in by}
    f13: dict[str, dict[str, list[tuple[int, float]]]] = {}
    for r in rows:
        if r.get("study") == "fig13" and "error" not in r:
            f13.setdefault(r["model"], {}).setdefault(r["config"], []).append((r["pim_channels"], r["speedup"]))
    for m in f13.values():
        for c in m:
            m[c].sort()
    gemv: dict[str, list[tuple[int, float]]] = {}
    gemv_gddr6: dict[str, list[tuple[int, float]]] = {}
    for r in rows:
        if r.get("study") == "fig8" and "error" not in r:
            gemv.setdefault(r["model"], []).append((r["batch"], r["speedup"]))
            gemv_gddr6.setdefault(r["model"], []).append((r["batch"], r["speedup_gddr6"]))
    bert = {}
    for r in rows:
        if r.get("study") == "bert" and "error" not in r:
            bert.setdefault(r["model"], {})[r["config"]] = r["seconds"]
    return {"models": models, "fig9": fig9, "geo": geo, "table2": table2, "fig14": f14, "fig14geo": f14geo, "fig14pim": f14pim, "fig14pimgeo": f14pimgeo, "gpu16": gpu16,
            "fig13": f13, "gemv": gemv, "gemv_gddr6": gemv_gddr6, "bert": bert}  # fmt: skip


def plot(fig: dict[str, Any], figdir: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    figdir.mkdir(parents=True, exist_ok=True)
    made = []

    def save(f, name):
        f.tight_layout()
        f.savefig(figdir / name, dpi=110)
        plt.close(f)
        made.append(figdir / name)

    if fig["gemv"]:
        f, ax = plt.subplots(figsize=(5, 3.2))
        for (shape, pts), c in zip(fig["gemv"].items(), ("C0", "C1", "C2", "C3", "C4")):
            ax.plot([b for b, _ in pts], [s for _, s in pts], marker="o", color=c, label=f"{shape} (HBM)")
            g6 = fig["gemv_gddr6"].get(shape, [])
            ax.plot([b for b, _ in g6], [s for _, s in g6], marker="x", ls="--", color=c, label=f"{shape} (GDDR6)")
        ax.axhline(1.0, color="grey", lw=0.8)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("batch size")
        ax.set_ylabel("PIM speedup over GPU (model)")
        ax.set_title("Fig. 8: Newton GEMV vs the Titan V model")
        ax.legend(fontsize=7)
        save(f, "pimflow_fig8_gemv.png")
    models = fig["models"]
    if models:
        names = models + ["geomean"]
        for key, title, fname in (("conv", "Fig. 9a: CONV layers, speedup over Baseline", "pimflow_fig9_conv.png"),
                                  ("e2e", "Fig. 9b: end to end, speedup over Baseline", "pimflow_fig9_e2e.png"),
                                  ("energy", "Fig. 12: energy over Baseline's", "pimflow_fig12_energy.png")):  # fmt: skip
            f, ax = plt.subplots(figsize=(7, 3.4))
            wdt = 0.8 / len(CONFIGS)
            for j, c in enumerate(CONFIGS):
                vals = [fig["fig9"][m][c][key] for m in models] + [fig["geo"][c][key]]
                ax.bar(np.arange(len(names)) + j * wdt, vals, wdt, label=c)
            ax.axhline(1.0, color="grey", lw=0.8)
            ax.set_xticks(np.arange(len(names)) + 0.4 - wdt / 2, names, rotation=20)
            ax.set_title(title)
            ax.legend(fontsize=6, ncol=3)
            save(f, fname)
    if fig["fig13"]:
        f, axes = plt.subplots(1, len(fig["fig13"]), figsize=(4 * len(fig["fig13"]), 3), squeeze=False)
        for ax, (m, per) in zip(axes[0], fig["fig13"].items()):
            for c, pts in per.items():
                ax.plot([p for p, _ in pts], [s for _, s in pts], marker="o", label=c)
            ax.axhline(1.0, color="grey", lw=0.8)
            ax.set_xlabel("PIM channels of 32")
            ax.set_ylabel("speedup over Baseline")
            ax.set_title(f"Fig. 13: {m}")
            ax.legend(fontsize=7)
        save(f, "pimflow_fig13_channels.png")
    if fig["fig14"]:
        f, ax = plt.subplots(figsize=(6, 3))
        names = list(fig["fig14"]) + ["geomean"]
        wdt = 0.8 / len(FIG14)
        for j, n in enumerate(FIG14):
            vals = [fig["fig14pim"][m][n] for m in fig["fig14pim"]] + [fig["fig14pimgeo"][n]]
            ax.bar(np.arange(len(names)) + j * wdt, vals, wdt, label=n)
        ax.set_xticks(np.arange(len(names)) + 0.4 - wdt / 2, names, rotation=20)
        ax.set_ylim(0.9, None)
        ax.set_title("Fig. 14: PIM-command optimizations over Newton+ (CONV layers on PIM)")
        ax.legend(fontsize=6, ncol=2)
        save(f, "pimflow_fig14_commands.png")
    return made


def _x(v: float) -> str:
    return f"{v:.2f}x" if math.isfinite(v) else "n/a"


def _pct(v: float) -> str:
    return f"{100 * v:.0f}%" if math.isfinite(v) else "n/a"


def why(fig: dict[str, Any], rows: list[dict]) -> list[str]:
    """The reasons ours differ, read off the runs."""
    from infs.hardware.dram_pim import load_dram_pim
    from infs.sim.gpu.model import RTX2060, TITAN_V

    out = []
    g16 = fig["gpu16"]
    base = {r["model"]: r for r in rows if r.get("study") == "fig9" and r["config"] == "Baseline" and "error" not in r}
    if g16:
        worst = min(g16.values())
        out.append(f"* The GPU model is a roofline at Accel-Sim's SM clock and channel rate (RTX 2060: {RTX2060.sm_ghz * 1e3:.0f} MHz, "
                   f"{RTX2060.gbps_per_channel:.0f} GB/s a channel) plus its kernel launch latency ({RTX2060.launch_cycles} cycles, "
                   f"{RTX2060.launch_s * 1e6:.2f} us per kernel), with no efficiency factor on the roofline (none published for these "
                   f"layers). Taking 16 of its 32 channels for PIM makes the Baseline {_x(1 / geomean(g16.values()))} slower (geomean; "
                   f"up to {_x(1 / worst)}), where the paper's Fig. 3 found compute-intensive models barely affected by halving the "
                   "channels. Every PIM configuration starts from that loss.")  # fmt: skip
    if base:
        share = {m: r["kernels"] * RTX2060.launch_s / r["seconds"] for m, r in base.items() if "kernels" in r}
        out.append("* Baseline end-to-end times of the model (us): " + ", ".join(f"{m} {1e6 * r['seconds']:.0f}" for m, r in base.items()) +
                   "; the launch latency is " + ", ".join(f"{m} {_pct(v)}" for m, v in share.items()) + " of them. The rest is the "
                   "roofline at the peaks on every layer; Accel-Sim's cuDNN kernels run below it on these small batch-1 layers "
                   "(occupancy, DRAM efficiency), which is room PIM filled in the paper and that the model does not price.")  # fmt: skip
    t2 = fig["table2"]
    if math.isfinite(t2["split"]):
        shares = [int(c.split(":")[2]) for r in t2["per"].values() for c in r["choices"].split(";") if c.count(":") == 2 and c.split(":")[1] == "split"]
        spread = f"; the splits put {10 * min(shares)}-{10 * max(shares)}% of a layer on PIM" if shares else ""
        out.append(f"* The search splits {_pct(t2['split'])} of the candidate layers and sends {_pct(t2['pim'])} wholly to PIM{spread} "
                   "(the paper: 58% and 41%). A split's GPU part still pays a whole kernel launch; only a layer wholly on PIM saves it.")  # fmt: skip
    npp = {r["model"]: r for r in rows if r.get("study") == "fig9" and r["config"] == "Newton++" and "error" not in r}
    if npp:
        out.append("* Candidate layers faster wholly on PIM than on the 16-channel GPU model (Newton++'s choice): " +
                   ", ".join(f"{m} {r['pim']} of {r['candidates']}" for m, r in npp.items()) + ". Layers pipelined in PIMFlow: " +
                   ", ".join(f"{m} {r['pipelined']}" for m, r in t2["per"].items()) + " (a pipeline runs its 1x1 stages on PIM).")  # fmt: skip
    gm = fig["gemv"]
    if gm:
        b1 = [dict(p)[1] for p in gm.values() if 1 in dict(p)]
        g6 = [dict(p)[1] for p in fig["gemv_gddr6"].values() if 1 in dict(p)]

        def inner(mem):  # GB/s one PIM channel's banks read: a column I/O per bank per tCCD
            return mem.banks * mem.column_io_bits / 8 / mem.tCCD * mem.freq_ghz

        hbm, gddr6 = inner(load_dram_pim("pimflow", **FIG8_HBM)), inner(load_dram_pim("pimflow"))
        out.append(f"* Fig. 8: at batch 1 PIM is {', '.join(_x(v) for v in b1)} the Titan V model on the GEMV shapes with the HBM "
                   f"timing §5 used for this figure ({', '.join(_x(v) for v in g6)} with PIMFlow's GDDR6). The GPU side is the "
                   f"paper's (§5: a Titan V of 24 channels; Accel-Sim's SM7_TITANV rate, {TITAN_V.datasheet_gbps:.1f} GB/s, and no "
                   "launch latency in that config), but the model streams the matrix at that peak, where the paper ran CUTLASS "
                   f"1.3's GEMV in Accel-Sim, whose achieved bandwidth is not published. One PIM channel's 16 banks read {hbm:.0f} "
                   f"GB/s with HBM timing ({gddr6:.0f} with GDDR6), {_x(hbm / TITAN_V.gbps_per_channel)} a Titan V channel: the "
                   "ceiling of the speedup over a GPU at its peak, before GWRITE, G_ACT (tFAW apart, longer in HBM's clocks) and "
                   f"READRES overheads. The paper's 20.4x is {'above' if PAPER['gemv b1'][0] > max(hbm, gddr6) / TITAN_V.gbps_per_channel else 'within'} "
                   "these ceilings; over our PIM times it means a GPU streaming the "
                   f"matrix at {_pct(geomean(b1) / PAPER['gemv b1'][0])} of its peak bandwidth (geomean of the shapes).")  # fmt: skip
    out.append("* Energy: the GPU is charged its 160 W board power while busy (its launch latency included) and nothing while "
               "idle (no cited idle figure), PIM the Ramulator energy per command; the paper used AccelWattch, whose static power "
               "penalizes slow GPU phases.")
    return out


def reproduction_md(fig: dict[str, Any], rows: list[dict], wall: float, plots: list[str], head: str) -> str:
    geo = fig["geo"]
    out = ["# PIMFlow reproduction (CGO'23)", "",
           f"Generated by `{PROG}` at commit {head} in {wall / 60:.1f} min. The GPU is the *model* of `infs/sim/gpu` (RTX 2060 "
           "datasheet figures at the SM clock, channel rate and kernel launch latency of the Accel-Sim configuration PIMFlow ran; a "
           "roofline with no efficiency factor, plus the launch); DRAM-PIM is `lower_layer` and the command-level machine of `infs/sim/dram_pim` "
           "(PIMFlow Table 1, Ramulator GDDR6_3500; Fig. 8 also with the HBM timing of the same Ramulator extension, as §5 used); the runtime, search and configurations are `infs/runtime/pimflow.py`. "
           "Averages are geometric means over the five models.", "",
           "## Headlines", "", "| figure | what | paper | ours (model) |", "|---|---|---|---|"]  # fmt: skip

    def line(fig_name, what, key, ours, fmt=_x):
        p, src = PAPER[key]
        out.append(f"| {fig_name} | {what} ({src}) | {fmt(p)} | {fmt(ours)} |")

    if fig["gemv"]:
        b1 = [dict(p).get(1, float("nan")) for p in fig["gemv"].values()]
        line("Fig. 8", "GEMV, PIM (HBM timing, as the paper) over GPU at batch 1 (geomean of shapes)", "gemv b1", geomean(b1))
        g6 = [dict(p).get(1, float("nan")) for p in fig["gemv_gddr6"].values()]
        line("Fig. 8", "GEMV, PIM with PIMFlow's GDDR6 timing (Table 1) over GPU at batch 1", "gemv b1", geomean(g6))
    if fig["models"]:
        line("Fig. 9", "CONV layers, PIMFlow over Baseline", "conv PIMFlow", geo["PIMFlow"]["conv"])
        line("Fig. 9", "end to end, PIMFlow over Baseline (average)", "e2e PIMFlow", geo["PIMFlow"]["e2e"])
        line("Fig. 9", "end to end, PIMFlow over Baseline (best model)", "e2e PIMFlow max", max(fig["fig9"][m]["PIMFlow"]["e2e"] for m in fig["models"]))
        line("Fig. 9", "CONV layers, Newton++ over Newton+", "conv Newton++/Newton+", geomean(fig["fig9"][m]["Newton++"]["conv"] / fig["fig9"][m]["Newton+"]["conv"] for m in fig["models"]))
        line("Table 2", "candidate layers split", "split share", fig["table2"]["split"], _pct)
        line("Table 2", "candidate layers fully on PIM", "pim share", fig["table2"]["pim"], _pct)
        line("Fig. 12", "energy, Newton++ over Baseline", "energy Newton++", geo["Newton++"]["energy"])
        line("Fig. 12", "energy, PIMFlow over Baseline", "energy PIMFlow", geo["PIMFlow"]["energy"])
    if fig["fig14"]:
        line("Fig. 14", "GWRITE latency hiding over Newton+", "fig14 hiding", fig["fig14geo"]["GWRITE latency hiding"])
        line("Fig. 14", "multiple global buffers over Newton+", "fig14 buffers", fig["fig14geo"]["multiple global buffers"])
        line("Fig. 14", "both over Newton+", "fig14 both", fig["fig14geo"]["both (Newton++)"])
        line("Fig. 14", "GWRITE latency hiding, the PIM kernels alone (every CONV layer on PIM)", "fig14 hiding", fig["fig14pimgeo"]["GWRITE latency hiding"])
        line("Fig. 14", "multiple global buffers, the PIM kernels alone", "fig14 buffers", fig["fig14pimgeo"]["multiple global buffers"])
        line("Fig. 14", "both, the PIM kernels alone", "fig14 both", fig["fig14pimgeo"]["both (Newton++)"])
    for tokens, key in (("BERT 1x3", "bert3"), ("BERT 1x64", "bert64")):
        b = fig["bert"].get(tokens)
        if b:
            line("§6.3", f"{tokens}, PIMFlow over Newton++", key, b["Newton++"] / b["PIMFlow"])
    if fig["models"]:
        out += ["", "## Fig. 9 and Fig. 12 per model (speedup over Baseline; energy over Baseline's)", "",
                "| model | " + " | ".join(CONFIGS) + " |", "|---|" + "---|" * len(CONFIGS)]  # fmt: skip
        for m in fig["models"]:
            out.append(f"| {m} | " + " | ".join(f"{_x(fig['fig9'][m][c]['conv'])} / {_x(fig['fig9'][m][c]['e2e'])} / {fig['fig9'][m][c]['energy']:.2f}" for c in CONFIGS) + " |")
        out += ["", "Each cell: CONV layers / end to end / energy.", "", "## Table 2: the search's choices in PIMFlow", "",
                "| model | candidates | split | fully PIM | GPU | layers pipelined |", "|---|---|---|---|---|---|"]  # fmt: skip
        for m, r in fig["table2"]["per"].items():
            out.append(f"| {m} | {r['candidates']} | {r['split']} | {r['pim']} | {r['gpu']} | {r['pipelined']} |")
    if fig["fig13"]:
        out += ["", "## Fig. 13: PIM channels of 32 (end-to-end speedup over Baseline)", ""]
        for m, per in fig["fig13"].items():
            out.append(f"* {m}: " + "; ".join(f"{c} " + ", ".join(f"{p}: {_x(s)}" for p, s in pts) for c, pts in per.items()))
    if fig["gemv"]:
        out += ["", "## Fig. 8: GEMV, PIM over the GPU model by batch size", ""]
        for shape, pts in fig["gemv"].items():
            out.append(f"* {shape}, HBM: " + ", ".join(f"{b}: {_x(s)}" for b, s in pts))
            out.append(f"* {shape}, GDDR6: " + ", ".join(f"{b}: {_x(s)}" for b, s in fig["gemv_gddr6"].get(shape, [])))
    errors = [r for r in rows if "error" in r]
    if errors:
        out += ["", "## Runs that failed", ""] + [f"* {r['study']} {r['model']}: {r['error']}" for r in errors]
    out += ["", "## Why ours differ", ""] + why(fig, rows)
    out += ["", "## Plots", ""] + [f"![{p}]({p})" for p in plots] + [""]
    return "\n".join(out)


def run(models: list[str] | None, size_set: str, out: Path, repro: Path, jobs: int, quiet: bool, head: str = "HEAD") -> int:
    """The suite (module docstring); ``size_set`` small: one small model, one channel point, a small GEMV."""
    names = models or list(MODELS)
    unknown = [n for n in names if n not in MODELS and n != "tiny"]
    if unknown:
        print(f"{PROG}: error: unknown model '{unknown[0]}' (known: {', '.join(MODELS)})")
        return 2
    t0 = time.perf_counter()
    if size_set == "small":
        tasks = tasks_for(names, (names[:1], (8, 16)), ((256, 256),), (3,))
    else:
        tasks = tasks_for(names, CHANNEL_STUDY, GEMV_SHAPES, (3, 64))
    # the heaviest first, so that two processes finish together
    tasks.sort(key=lambda t: (t[0] != "model", t[1] != "VGG16"))
    results: list[list[dict]] = [[] for _ in tasks]

    def done(i, rs):
        results[i] = rs
        if not quiet:
            print(f"{PROG}: {tasks[i][0]} {' '.join(map(str, tasks[i][1:]))} ({time.perf_counter() - t0:.0f} s)", flush=True)

    run_pool(_call, tasks, jobs, done)
    rows = [r for rs in results for r in rs]
    fig = figures(rows)
    out.mkdir(parents=True, exist_ok=True)
    write_csv(out / "bench-pimflow.csv", rows)
    plots = plot(fig, repro.parent / "figures")
    wall = time.perf_counter() - t0
    repro.parent.mkdir(parents=True, exist_ok=True)
    repro.write_text(reproduction_md(fig, rows, wall, [str(p.relative_to(repro.parent)) for p in plots], head))
    if not quiet:
        print(f"{PROG}: wrote {repro} ({wall / 60:.1f} min)")
    failed = [r for r in rows if "error" in r]
    for r in failed:
        print(f"{PROG}: {r['study']} {r['model']}: {r['error']}")
    return 1 if failed else 0
