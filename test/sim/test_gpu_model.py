"""The GPU roofline model: its peaks pinned to the cited datasheet figures, the memory
channel's bandwidth to PIMFlow Table 1 and the Ramulator clock, the roofline's max."""

from __future__ import annotations

import numpy as np
import pytest

from infs.hardware.dram_pim import load_dram_pim
from infs.sim.gpu.model import RTX2060, TITAN_V, channel_gbps, energy_j, roofline_s


def test_peaks_are_the_datasheet_figures():
    # 240 tensor cores x 64 FMA x 2 x 1.68 GHz; 1920 cores x 2 x 2 (FP16 double rate) x 1.68 GHz
    assert RTX2060.tensor_flops == pytest.approx(240 * 64 * 2 * 1.68e9)
    assert RTX2060.cuda_fp16_flops == pytest.approx(1920 * 2 * 2 * 1.68e9)
    assert TITAN_V.tensor_flops == pytest.approx(640 * 64 * 2 * 1.455e9)
    assert RTX2060.datasheet_gbps / RTX2060.datasheet_channels == pytest.approx(28.0)  # 16 bits x 14 Gbps


def test_channel_bandwidth_of_the_pim_memory():
    # a 256-bit column per tBL = 2 clocks at 0.875 GHz: 14 GB/s; 32 channels 448 GB/s
    assert channel_gbps(load_dram_pim("pimflow")) == pytest.approx(14.0)


def test_roofline_is_the_slower_bound():
    bw = 16 * 14.0e9
    t = roofline_s(RTX2060, [1e9, 1e6, 1e9], [1e3, 1e8, 1e3], [True, True, False], 16, 14.0)
    np.testing.assert_allclose(t, [1e9 / RTX2060.tensor_flops, 1e8 / bw, 1e9 / RTX2060.cuda_fp16_flops])
    assert roofline_s(RTX2060, 0, 1e6, True, 32, 14.0) == pytest.approx(roofline_s(RTX2060, 0, 1e6, True, 16, 14.0) / 2)
    assert energy_j(RTX2060, 1e-3) == pytest.approx(0.16)


def test_no_channels_is_one_line():
    with pytest.raises(ValueError, match="at least one"):
        roofline_s(RTX2060, 1, 1, True, 0, 14.0)
