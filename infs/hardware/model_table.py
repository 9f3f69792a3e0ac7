"""benchmarks/MODEL.md's generated block: every timing and energy constant, its value, its source.

Takes the parts' fields (``infs.hardware.CONFIG_FIELDS``), the JIT models'
table, the cost profiles and the energy constants; gives ``model_markdown``,
the tables of the default machine (paper-64) and the ``infs`` profile, each
constant with its value, its source and the figure it moves most, and the
markers of the block it fills (``python -m infs.hardware`` refreshes it;
test_sim_config checks it is current).
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from infs.hardware import CONFIG_FIELDS, HardwareConfig
from infs.hardware.cost_profiles import CONST_OPERAND, INFS_LATENCY, PIMEVAL_EXTRAPOLATED_SOURCE, PIMEVAL_STEPS, pimeval_extrapolated
from infs.hardware.energy import DEFAULT_ENERGY_PJ, ENERGY_FIGURES, ENERGY_SOURCES
from infs.jit_models import JIT_COMMAND_CYCLES, JIT_MODEL_SOURCES

# field -> (source, the figure it moves most): every field with a cited default
FIELD_SOURCES: dict[str, tuple[str, str]] = {n: (f.source, f.moves) for n, f in CONFIG_FIELDS.items() if f.source}


def _show_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


def model_markdown() -> str:
    """The body of benchmarks/MODEL.md: every timing and energy constant of the
    default machine (paper-64) and the ``infs`` profile, its value, its source
    and the figure it moves most."""
    cfg = HardwareConfig(name="paper-64")
    out = ["## Machine (paper-64 defaults, `infs/hardware/` `HardwareConfig`)", "",
           "| constant | value | source | moves most |", "|---|---|---|---|"]
    for f in fields(HardwareConfig):
        if f.name in ("name", "profile", "energy_pj"):
            continue
        src, fig = FIELD_SOURCES[f.name]
        out.append(f"| `{f.name}` | {_show_value(getattr(cfg, f.name))} | {src} | {fig} |")
    out += ["", "## JIT models (`jit_model`, `HardwareConfig.jit_lowering_cycles`; `infs-run --jit-model NAME`)", "",
            "| model | charge per lowering not memoized | source |", "|---|---|---|",
            f"| `per-command` (default) | `jit_cycles_per_command` ({cfg.jit_cycles_per_command}) x commands | the configurable rate; its default is `hardware`'s |"]
    for name, cycles in JIT_COMMAND_CYCLES.items():
        out.append(f"| `{name}` | {cycles} x commands | {JIT_MODEL_SOURCES[name]} |")
    out += [f"| `per-lowering` | `jit_us_per_lowering` ({cfg.jit_us_per_lowering:g} us) at `freq_ghz` | {FIELD_SOURCES['jit_us_per_lowering'][0]} |",
            "| `measured` | infs's own JIT wall time at `freq_ghz` | not deterministic; for exploration only |",
            "", "gem5 charges its rate once per PUM context, on every command but syncs (MLCPUMManager::configurePUMEngine, "
            "MLCPUMManager.cc:3662-3682, branch gem-forge); infs charges every command of a lowering not memoized.", "",
            "## Bit-serial compute (`infs` profile, `INFS_LATENCY`; n = element bits)", "",
            "| op | int | fp | int source | fp source |", "|---|---|---|---|---|"]
    for op in INFS_LATENCY["int"]:
        i, f_ = INFS_LATENCY["int"][op], INFS_LATENCY["fp"][op]
        out.append(f"| `{op}` | {i.formula()} | {f_.formula()} | {i.source} | {f_.source} |")
    out.append(f"| constant operand | +{CONST_OPERAND.formula()} | +{CONST_OPERAND.formula()} | {CONST_OPERAND.source} | same |")
    out += ["", "64-bit elements (f64, i64) take n = 64 in every formula (gem5 prices an op by the element's bits). "
            "PIMeval rows it does not publish, which int div (both profiles) and the `pimeval-bitsimd-v` profile need "
            "for 64 bits (`pimeval_extrapolated`):", "",
            "| dtype | rows (reads, writes, logic) | derivation |", "|---|---|---|"]
    for dt, src in PIMEVAL_EXTRAPOLATED_SOURCE.items():
        ops = sorted(op for (d, op) in PIMEVAL_STEPS if d == ("int32" if dt == "int64" else "fp32") and (dt, op) not in PIMEVAL_STEPS and pimeval_extrapolated(dt, op))
        out.append(f"| {dt} | {', '.join(f'{op} {pimeval_extrapolated(dt, op)}' for op in ops)} | {src} |")
    out += ["", "All compute latencies move Fig. 11 (In-L3/Inf-S) and the compute share of Fig. 14.", "",
            "## Data movement (`infs/sim/sram/timing.py`)", "",
            "| cost | formula | source | moves most |", "|---|---|---|---|",
            "| in-array shift | bits x max(1, \\|d\\| x bstride(dim)), or bits with `parallel_intra_shift` | gem5 DataMoveCompiler.cc:400-404 (flattened distance), PUMEngine.cc:269-295 | Fig. 11 (In-L3 on stencils) |",
            "| in-array broadcast | bits x max(1, \\|lo\\| x bstride(dim)), fan-out free | ASPLOS §4.1/§5.2; gem5 DataMoveCompiler.cc:221-255, 958-1039; PUMEngine.cc:269-295 | Fig. 15 (outer products) |",
            "| inter-tile move | H-tree: ceil(bitlines / (8 x `htree_leaf_bytes_per_cycle`)) x bits per array, times the arrays moved one after the other summed over the levels (at each in-way level its busiest sub-tree's sources whose transfer's common ancestor is there, at the way level the ways with such sources, at the bank level the sources leaving the bank, at most `compute_ways`; each source once, a multicast's fan-out free); at least the bytes a bank receives / `htree_bytes_per_cycle` and the mesh injection / `link_bytes`; + 2 x `htree_levels`; drain = busiest link + hops x (router + link) | gem5 PUMEngine::estimateCommandLatency (inter-array), DataMoveCompiler::compileInterArrayShift, CacheMemory.cc; run.py defaults parallel inter-array shift and way read on; ASPLOS §5.2, Table 2 | Fig. 14 (move) |",
            "| sync | drain + 2 x farthest hops x hop cycles | ASPLOS §4.2, §5.2 | Fig. 14 (move) |",
            "| DRAM transpose | bytes / (`dram_gbps` / `freq_ghz`) + `l3_latency` | Table 2 | Fig. 14 (DRAM) |",
            "", "## Energy (`DEFAULT_ENERGY_PJ`, `ENERGY_SOURCES`)", "",
            "| constant | value (pJ; `static_fraction` a fraction of the peak dynamic power) | source | moves most |", "|---|---|---|---|"]
    for k, v in DEFAULT_ENERGY_PJ.items():
        out.append(f"| `{k}` | {_show_value(v)} | {ENERGY_SOURCES[k]} | {ENERGY_FIGURES[k]} |")
    return "\n".join(out) + "\n"


MODEL_MD_BEGIN = "<!-- model:begin (generated by infs.hardware.model_table.model_markdown; refresh: python -m infs.hardware) -->"
MODEL_MD_END = "<!-- model:end -->"
