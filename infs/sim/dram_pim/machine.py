"""The DRAM-PIM machine at command level: Newton's MAC units in the banks of
the PIM channels of a GDDR6 memory (PIMFlow §4.1, Table 1), executing a
``Program`` of GWRITE / G_ACT / COMP / READRES commands.

Takes a program, the flat input array, the ``(K, N)`` weight matrix and the
``(V, N)`` output to accumulate into (``run``); or the program alone
(``run(..., functional=False)``: timing and energy only).  Gives a
``PimResult``: the output, the cycles (the slowest channel), per-channel end
cycles, command counts and energy.

The channels run in lockstep over their command streams: step ``j`` executes
the ``j``-th command of every channel that has one, as numpy operations over
those channels and all their banks (no loop per bank or element).

Timing (issue cycle of each command; DRAM clocks; constants from
``infs.hardware.dram_pim``, where each is cited):

* one command per clock on a channel's command bus;
* GWRITE(_n) -> GWRITE or G_ACT: ``gwrite_gap(n)`` (1 with latency hiding);
  READRES -> GWRITE: 6; GWRITE -> COMP: tRC + 16 (PIMFlow_ramulator GDDR6.cpp);
* G_ACT -> G_ACT: tFAW; G_ACT -> COMP: tRCD; a G_ACT to a bank group with a
  row open is preceded by a precharge-all (PREA): >= tRAS after the last
  G_ACT and tRTP after the last COMP, then tRP before the G_ACT;
* COMP -> COMP: tCCD (a COMP row of ``c`` columns is ``c`` commands);
  COMP -> READRES: 1; READRES returns its data tCL + tBL later.

Refresh is not modelled (PIMFlow's traces are short against tREFI).

Energy (PIMFlow_ramulator ``Controller.h`` ``finish()``): per COMP
``(16 mul x 32 + sram read x 32 + DRAM read + 16 add x 32) x banks / 32``;
per PREA ``banks x`` precharge; per READRES an SRAM read; per global buffer
a GWRITE writes, an SRAM write.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from infs.dialects.dram_pim_records import COMP, G_ACT, GWRITE, KIND_NAMES, READRES, Program
from infs.sim.dram_pim.numerics import ROUND


class PimRunError(ValueError):
    """A program the machine cannot execute (one line)."""


@dataclass
class PimResult:
    out: np.ndarray | None
    cycles: int
    channel_cycles: np.ndarray
    counts: dict[str, int]
    energy_pj: dict[str, float] = field(default_factory=dict)
    ns: float = 0.0

    @property
    def energy_uj(self) -> float:
        return sum(self.energy_pj.values()) * 1e-6


def _weights_in_banks(prog: Program, wm: np.ndarray, rnd) -> np.ndarray:
    """mem[ch, bank, row, slot]: the placed weight rows, rounded to the element type."""
    cfg, pl = prog.config, prog.placements
    rows = int(pl.row.max()) + 1 if len(pl) else 1
    mem = np.zeros((cfg.pim_channels, cfg.banks, rows, cfg.elements_per_row), np.float32)
    E, B = cfg.elements_per_row, cfg.banks
    s = np.arange(E)
    k = pl.k0[:, None] + s[None, :]  # [p, E]
    ok_k = s[None, :] < pl.used[:, None]
    j = np.arange(B)
    n = pl.n0[:, None] + j[None, :]  # [p, B]
    ok_n = j[None, :] < pl.banks[:, None]
    vals = wm[np.where(ok_k, k, 0)[:, None, :], np.where(ok_n, n, 0)[:, :, None]]  # [p, B, E]
    vals = np.where(ok_k[:, None, :] & ok_n[:, :, None], rnd(vals), 0.0)
    mem[pl.ch[:, None], j[None, :], pl.row[:, None]] = vals
    return mem


def run(prog: Program, x_flat: np.ndarray | None = None, wm: np.ndarray | None = None,
        out: np.ndarray | None = None, functional: bool = True) -> PimResult:  # fmt: skip
    cfg, cmds, ga = prog.config, prog.commands, prog.gathers
    P, B, G, E = cfg.pim_channels, cfg.banks, cfg.bank_groups, cfg.elements_per_row
    col_e, gb = cfg.elements_per_column, cfg.global_buffers
    layer = prog.layer
    if len(cmds) and (cmds.ch.min() < 0 or cmds.ch.max() >= P):
        raise PimRunError(f"dram-pim: program '{prog.name}' names channel {int(cmds.ch.max())}, '{cfg.name}' has {P} PIM channels")
    rnd = ROUND[prog.dtype]
    if functional:
        if x_flat is None or wm is None:
            raise PimRunError(f"dram-pim: program '{prog.name}': a functional run needs the input and the weights")
        if x_flat.size != layer.input_elements or wm.shape != (layer.reduction, layer.outputs):
            raise PimRunError(f"dram-pim: program '{prog.name}': input of {x_flat.size} elements and weights {wm.shape}, "
                              f"the layer takes {layer.input_elements} and {(layer.reduction, layer.outputs)}")  # fmt: skip
        x = rnd(np.asarray(x_flat, np.float32).ravel())
        mem = _weights_in_banks(prog, np.asarray(wm, np.float32), rnd)
        out = np.zeros((layer.vectors, layer.outputs), np.float32) if out is None else np.asarray(out, np.float32).copy()
        buf = np.zeros((P, gb, E), np.float32)
        latch = np.zeros((P, B), np.float32)
    # each channel's commands, in order (stable sort keeps program order)
    order = np.argsort(cmds.ch, kind="stable")
    per_ch = np.bincount(cmds.ch, minlength=P)
    start = np.concatenate([[0], np.cumsum(per_ch)[:-1]])
    kind, ch_a, ch_b, ch_c = cmds.kind[order], cmds.a[order], cmds.b[order], cmds.c[order]
    chans = np.arange(P)
    last_any = np.full(P, -1, np.int64)
    last_gw = np.full(P, -(1 << 30), np.int64)
    gw_gap = np.zeros(P, np.int64)
    last_gact = np.full(P, -(1 << 30), np.int64)
    last_comp = np.full(P, -(1 << 30), np.int64)
    last_rr = np.full(P, -(1 << 30), np.int64)
    done = np.zeros(P, np.int64)
    open_row = np.full((P, G), -1, np.int64)
    n_prea = 0
    bank_group = np.arange(B) // (B // G)
    slot = np.arange(E)
    for j in range(int(per_ch.max()) if len(cmds) else 0):
        live = chans[per_ch > j]
        idx = start[live] + j
        k = kind[idx]
        for kd in (GWRITE, G_ACT, COMP, READRES):
            m = k == kd
            if not m.any():
                continue
            c, i = live[m], idx[m]
            a, b, cc = ch_a[i], ch_b[i], ch_c[i]
            if kd == GWRITE:
                t = np.maximum.reduce([last_any[c] + 1, last_gw[c] + gw_gap[c], last_rr[c] + cfg.readres_to_gwrite])
                gw_gap[c] = np.where(cfg.gwrite_latency_hiding, 1, b * cfg.column_ios_per_row * cfg.tCCD)
                last_gw[c] = last_any[c] = t
                if functional:
                    g = cc
                    L = ga.length[g][:, None]
                    src = ga.offsets[g][:, :, None] + (slot // L)[:, None, :] * ga.stride[g][:, None, None] + (slot % L)[:, None, :]
                    ok = (slot[None, :] < (ga.runs[g] * ga.length[g])[:, None])[:, None, :] & (ga.offsets[g] >= 0)[:, :, None]
                    vals = np.where(ok, x[np.where(ok, src, 0)], 0.0)  # [n, 4, E]
                    nb = np.arange(4)[None, :]
                    w = nb < b[:, None]
                    bi = np.minimum(a[:, None] + nb, gb - 1)
                    cw, bw = np.broadcast_to(c[:, None], bi.shape)[w], bi[w]
                    buf[cw, bw] = vals[w]
            elif kd == G_ACT:
                opened = open_row[c, a] >= 0
                p = np.maximum.reduce([last_any[c] + 1, last_gact[c] + cfg.tRAS, last_comp[c] + cfg.tRTP])
                t = np.maximum.reduce([last_any[c] + 1, last_gw[c] + gw_gap[c], last_gact[c] + cfg.tFAW])
                t = np.where(opened, np.maximum(t, p + cfg.tRP), t)
                n_prea += int(opened.sum())
                open_row[c[opened]] = -1
                open_row[c, a] = b
                last_gact[c] = last_any[c] = t
            elif kd == COMP:
                t = np.maximum.reduce([last_any[c] + 1, last_gact[c] + cfg.tRCD, last_comp[c] + cfg.tCCD, last_gw[c] + cfg.gwrite_to_comp])
                last_comp[c] = last_any[c] = t + (cc - 1) * cfg.tCCD
                if functional:
                    rows = open_row[c][:, bank_group]  # [n, B]
                    w = mem[c[:, None], np.arange(B)[None, :], np.maximum(rows, 0)]  # [n, B, E]
                    cm = (slot[None, :] >= (b * col_e)[:, None]) & (slot[None, :] < ((b + cc) * col_e)[:, None])
                    v = np.where(cm, buf[c, a], 0.0)  # [n, E]
                    part = np.einsum("nbe,ne->nb", w, v, dtype=np.float32)
                    latch[c] += np.where(rows >= 0, part, 0.0).astype(np.float32)
            else:
                t = np.maximum(last_any[c] + 1, last_comp[c] + cfg.comp_to_readres)
                last_rr[c] = last_any[c] = t
                done[c] = t + cfg.readres_latency
                if functional:
                    jb = np.arange(B)[None, :]
                    ok = jb < cc[:, None]
                    vv = np.broadcast_to(a[:, None], ok.shape)[ok]
                    nn = (b[:, None] + jb)[ok]
                    if vv.size and (vv.max() >= layer.vectors or nn.max() >= layer.outputs):
                        raise PimRunError(f"dram-pim: program '{prog.name}': READRES writes past the output {out.shape}")
                    np.add.at(out, (vv, nn), rnd(latch[c])[ok])
                    latch[c] = 0.0
    chan_cycles = np.maximum(done, last_any + 1)
    counts = {name: int(cmds.issued()[cmds.kind == kd].sum()) for kd, name in enumerate(KIND_NAMES)}
    counts["prea"] = n_prea
    counts["gwrite_buffers"] = int(cmds.b[cmds.kind == GWRITE].sum())
    en = cfg.energy
    per_comp = (col_e * en.mul_pj * 32 + en.sram_read_pj * 32 + en.dram_read_pj + col_e * en.add_pj * 32) * B / 32
    energy = {
        "comp": counts["comp"] * per_comp,
        "gwrite": counts["gwrite_buffers"] * en.sram_write_pj,
        "readres": counts["readres"] * en.sram_read_pj,
        "precharge": counts["prea"] * B * en.precharge_bank_pj,
    }
    cycles = int(chan_cycles.max()) if len(cmds) else 0
    return PimResult(out if functional else None, cycles, chan_cycles, counts, energy, cycles * cfg.ns_per_cycle)
