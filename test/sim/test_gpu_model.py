"""The GPU model: its peaks pinned to the cited datasheet figures at the Accel-Sim SM clock,
the channels' bandwidths (the GPU's: Accel-Sim's; the PIM memory's: PIMFlow Table 1 and
the Ramulator clock), the roofline's max, the launch latency per kernel that does work."""

from __future__ import annotations

import numpy as np
import pytest

from infs.hardware.dram_pim import load_dram_pim
from infs.sim.gpu.model import RTX2060, TITAN_V, channel_gbps, energy_j, kernel_s, roofline_s


def test_peaks_are_the_datasheet_figures():
    # 240 tensor cores x 64 FMA x 2 x 1.365 GHz; 1920 cores x 2 x 2 (FP16 double rate) x 1.365 GHz
    assert RTX2060.tensor_flops == pytest.approx(240 * 64 * 2 * 1.365e9)
    assert RTX2060.cuda_fp16_flops == pytest.approx(1920 * 2 * 2 * 1.365e9)
    assert TITAN_V.tensor_flops == pytest.approx(640 * 64 * 2 * 1.2e9)
    assert RTX2060.gbps_per_channel == pytest.approx(28.0)  # 16 bits x 14 Gbps
    assert TITAN_V.gbps_per_channel == pytest.approx(27.2)  # 128 bits x 1.7 Gbps
    # 5000 SM cycles at 1365 MHz
    assert RTX2060.launch_s == pytest.approx(5000 / 1.365e9)
    assert TITAN_V.launch_s == 0.0


def test_channel_bandwidth_of_the_pim_memory():
    # a 256-bit column per tBL = 2 clocks at 0.875 GHz: 14 GB/s; 32 channels 448 GB/s
    assert channel_gbps(load_dram_pim("pimflow")) == pytest.approx(14.0)


def test_roofline_is_the_slower_bound():
    bw = 16 * 14.0e9
    t = roofline_s(RTX2060, [1e9, 1e6, 1e9], [1e3, 1e8, 1e3], [True, True, False], 16, 14.0)
    np.testing.assert_allclose(t, [1e9 / RTX2060.tensor_flops, 1e8 / bw, 1e9 / RTX2060.cuda_fp16_flops])
    assert roofline_s(RTX2060, 0, 1e6, True, 32, 14.0) == pytest.approx(roofline_s(RTX2060, 0, 1e6, True, 16, 14.0) / 2)
    assert energy_j(RTX2060, 1e-3) == pytest.approx(0.16)


def test_a_kernel_is_its_roofline_plus_the_launch():
    flops, byts = np.array([1e9, 0.0, 0.0]), np.array([1e3, 1e6, 0.0])
    roof = roofline_s(RTX2060, flops, byts, True, 16, 28.0)
    t = kernel_s(RTX2060, flops, byts, True, 16, 28.0)
    # a layer with work pays the launch once; no work (a split leaving the GPU nothing) launches nothing
    np.testing.assert_allclose(t, roof + np.array([1, 1, 0]) * RTX2060.launch_s)
    assert t[2] == 0.0
    assert kernel_s(TITAN_V, 1e9, 1e3, True, 24, 27.2) == pytest.approx(roofline_s(TITAN_V, 1e9, 1e3, True, 24, 27.2))


def test_no_channels_is_one_line():
    with pytest.raises(ValueError, match="at least one"):
        roofline_s(RTX2060, 1, 1, True, 0, 14.0)
