"""The DRAM-PIM target: random FC and convolution layers lowered to Newton
commands and run on the command-level machine, against numpy; the layer too
large for the PIM channels; each timing constant pinned to its cited value."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from infs.dialects.dram_pim_records import ConvLayer, FcLayer
from infs.hardware.dram_pim import ConfigError, load_dram_pim
from infs.passes.dram_pim.lower import lower_layer
from infs.passes.lowering_errors import LoweringError
from infs.sim.dram_pim.machine import run
from infs.sim.dram_pim.numerics import ROUND, UNIT_ROUNDOFF

TINY = load_dram_pim("tiny-pim")


def _check(layer, dtype, seed):
    rng = np.random.default_rng(seed)
    rnd = ROUND[dtype]
    if layer.kind == "fc":
        x = rng.standard_normal((layer.batch, layer.k)).astype(np.float32)
        w = rng.standard_normal((layer.k, layer.n)).astype(np.float32)
        flat, wm = x.ravel(), w
        cols = rnd(x).astype(np.float64)
    else:
        x = rng.standard_normal((layer.h, layer.w, layer.c)).astype(np.float32)
        w = rng.standard_normal((layer.kh, layer.kw, layer.c, layer.f)).astype(np.float32)
        xp = np.pad(x, ((layer.ph, layer.ph), (layer.pw, layer.pw), (0, 0)))
        flat, wm = xp.ravel(), w.reshape(-1, layer.f)
        win = np.lib.stride_tricks.sliding_window_view(rnd(xp), (layer.kh, layer.kw), axis=(0, 1))[:: layer.sh, :: layer.sw]
        cols = win.transpose(0, 1, 3, 4, 2).reshape(layer.vectors, -1).astype(np.float64)
    wr = rnd(wm).astype(np.float64)
    ref, mag = cols @ wr, np.abs(cols) @ np.abs(wr)
    prog = lower_layer(layer, TINY, dtype)
    got = run(prog, flat, wm).out
    # each READRES rounds a partial sum to the type; float32 adds in the tree and the host
    bound = (UNIT_ROUNDOFF[dtype] * 1.001 + layer.reduction * 1.2e-7) * mag
    assert np.all(np.abs(got - ref) <= bound), (layer, prog.granularity, np.abs(got - ref).max())
    return prog


@settings(max_examples=25, deadline=None)
@given(b=st.integers(1, 9), k=st.integers(1, 300), n=st.integers(1, 20), dtype=st.sampled_from(["bf16", "fp16"]), seed=st.integers(0, 99))
def test_fc_matches_numpy(b, k, n, dtype, seed):
    _check(FcLayer(b, k, n), dtype, seed)


@settings(max_examples=20, deadline=None)
@given(h=st.integers(1, 7), w=st.integers(1, 7), c=st.integers(1, 48), f=st.integers(1, 9), kh=st.integers(1, 3), kw=st.integers(1, 3),
       sh=st.integers(1, 2), sw=st.integers(1, 2), ph=st.integers(0, 1), pw=st.integers(0, 1), dtype=st.sampled_from(["bf16", "fp16"]))  # fmt: skip
def test_conv_matches_numpy(h, w, c, f, kh, kw, sh, sw, ph, pw, dtype):
    if kh > h + 2 * ph or kw > w + 2 * pw:
        return
    _check(ConvLayer(h, w, c, f, kh, kw, sh, sw, ph, pw), dtype, h * 31 + c)


def test_every_granularity_is_used():
    grans = {_check(layer, "bf16", 1).granularity for layer in (FcLayer(3, 300, 10), FcLayer(4, 100, 2), FcLayer(1, 20, 3), ConvLayer(5, 5, 8, 6, 3, 3, 1, 1, 1, 1))}
    assert grans == {"g_act", "readres", "comp"}


def test_layer_larger_than_the_pim_channels_is_one_line():
    with pytest.raises(LoweringError) as e:
        lower_layer(FcLayer(1, 4096, 64), TINY, name="big")
    msg = str(e.value)
    assert "\n" not in msg and "larger than the PIM channels" in msg and "'big'" in msg


def test_bad_config_and_dtype_are_one_line():
    with pytest.raises(ConfigError, match="pim_channels = 64 exceeds channels = 32"):
        load_dram_pim("pimflow", pim_channels=64)
    with pytest.raises(ConfigError, match="unknown field 'bogus'"):
        load_dram_pim("pimflow", bogus=1)
    with pytest.raises(LoweringError, match="element type 'f32'"):
        lower_layer(FcLayer(1, 4, 4), TINY, "f32")


def test_constants_are_pimflow_table1_and_ramulator():
    c = load_dram_pim()
    assert (c.banks, c.column_ios_per_row, c.column_io_bits, c.global_buffer_bytes, c.multipliers_per_bank) == (16, 32, 256, 4096, 16)
    assert (c.tBL, c.tCL, c.tRP, c.tRCD, c.tCCD, c.tRAS) == (2, 11, 11, 11, 2, 25)  # Table 1
    assert (c.channels, c.pim_channels, c.global_buffers) == (32, 16, 4)
    assert (c.tFAW, c.tRC, c.readres_latency, c.gwrite_to_comp) == (17, 35, 13, 51)  # GDDR6_3500, GDDR6.cpp
    assert c.gwrite_gap(4) == 1 and load_dram_pim("newton-plus").gwrite_gap(1) == 64


def test_one_row_timing_is_the_sum_of_its_constraints():
    # one channel, one row: GWRITE@0, G_ACT0..3 @1, 1+tFAW, ..; COMPs from G_ACT3 + tRCD, tCCD apart; READRES 1 later
    c = load_dram_pim("pimflow", pim_channels=1)
    prog = lower_layer(FcLayer(1, 512, 16), c)
    r = run(prog, functional=False)
    gact3 = 1 + 3 * c.tFAW
    first_comp = max(gact3 + c.tRCD, c.gwrite_to_comp)
    readres = first_comp + 31 * c.tCCD + c.comp_to_readres
    assert r.cycles == readres + c.readres_latency
    assert r.counts["comp"] == 32 and r.counts["g_act"] == 4 and r.counts["readres"] == 1


def test_latency_hiding_and_buffers_make_conv_faster():
    layer = ConvLayer(8, 8, 64, 32, 1, 1)
    fast = run(lower_layer(layer, load_dram_pim()), functional=False).cycles
    slow = run(lower_layer(layer, load_dram_pim("newton-plus")), functional=False).cycles
    assert fast < slow
