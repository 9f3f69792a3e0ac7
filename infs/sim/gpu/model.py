"""An analytic (roofline) model of the GPU beside PIMFlow's PIM-enabled memory:
the RTX 2060 PIMFlow simulates with Accel-Sim (PIMFlow §5), and the Titan V of
its Fig. 8 validation.  A *model*, not a simulator: every figure it gives is
named a model where it is reported.

Takes a ``GpuSpec`` (SMs, clocks, tensor cores, board power: datasheet figures,
each cited beside its constant), the number of memory channels the GPU owns
and the bandwidth of one channel, and per-layer FLOPs, DRAM bytes and whether
the layer runs on tensor cores; gives the roofline time
``max(flops / peak, bytes / bandwidth)`` per layer, vectorized over arrays of
layers (``roofline_s``), and the energy at board power (``energy_j``).

What is left out, on purpose: no efficiency factor (no published cuDNN figure
for these layers at these shapes is at hand, so none is applied: the model is
an upper bound on the GPU's speed), no kernel launch gap, no cache model (each
tensor crosses DRAM once: the roofline's compulsory traffic).  Energy is board
power times busy time (the datasheet's graphics card power; the AccelWattch
figures PIMFlow uses are not published per layer), and an idle GPU is charged
nothing (no cited idle figure).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from infs.hardware.dram_pim import DramPimConfig

ELEMENT_BYTES = 2  # FP16 activations and weights (PIMFlow §5: cuDNN FP16 kernels; Newton's 16-bit MACs)


@dataclass(frozen=True)
class GpuSpec:
    name: str
    sms: int
    boost_ghz: float
    tensor_cores_per_sm: int
    tensor_fp16_fma_per_clock: int  # per tensor core
    fp32_cores_per_sm: int
    fp16_rate_vs_fp32: int  # CUDA-core FP16 throughput over FP32
    datasheet_gbps: float  # the card's own memory bandwidth (reported beside the model's)
    datasheet_channels: int  # memory channels of that bandwidth
    board_watts: float

    @property
    def tensor_flops(self) -> float:
        """Tensor-core FP16 peak, FLOP/s (an FMA is 2 FLOPs)."""
        return self.sms * self.tensor_cores_per_sm * self.tensor_fp16_fma_per_clock * 2 * self.boost_ghz * 1e9

    @property
    def cuda_fp16_flops(self) -> float:
        """CUDA-core FP16 peak, FLOP/s (depthwise convolutions, element-wise ops)."""
        return self.sms * self.fp32_cores_per_sm * 2 * self.fp16_rate_vs_fp32 * self.boost_ghz * 1e9


RTX2060 = GpuSpec(
    name="RTX 2060",
    sms=30,  # NVIDIA GeForce RTX 2060 specifications: 1920 CUDA cores = 30 SMs x 64 (Turing whitepaper: 64 FP32 cores per SM)
    boost_ghz=1.68,  # RTX 2060 specifications: 1680 MHz boost clock
    tensor_cores_per_sm=8,  # Turing whitepaper: 8 tensor cores per SM (240 on the RTX 2060)
    tensor_fp16_fma_per_clock=64,  # Turing whitepaper: 64 FP16 FMA per tensor core per clock
    fp32_cores_per_sm=64,  # Turing whitepaper: 64 FP32 cores per SM
    fp16_rate_vs_fp32=2,  # Turing whitepaper: FP16 on the CUDA cores at twice the FP32 rate
    datasheet_gbps=336.0,  # RTX 2060 specifications: 192-bit GDDR6 at 14 Gbps = 336 GB/s
    datasheet_channels=12,  # 192 bits of 16-bit GDDR6 channels (GDDR6 JESD250: two x16 channels per device)
    board_watts=160.0,  # RTX 2060 specifications: 160 W graphics card power
)

TITAN_V = GpuSpec(
    name="Titan V",
    sms=80,  # NVIDIA Titan V specifications: 5120 CUDA cores = 80 SMs x 64 (Volta whitepaper: 64 FP32 cores per SM)
    boost_ghz=1.455,  # Titan V specifications: 1455 MHz boost clock
    tensor_cores_per_sm=8,  # Volta whitepaper: 8 tensor cores per SM (640 on the Titan V)
    tensor_fp16_fma_per_clock=64,  # Volta whitepaper: 64 FP16 FMA per tensor core per clock
    fp32_cores_per_sm=64,  # Volta whitepaper: 64 FP32 cores per SM
    fp16_rate_vs_fp32=2,  # Volta whitepaper: FP16 at twice the FP32 rate
    datasheet_gbps=652.8,  # Titan V specifications: 3072-bit HBM2 at 1.7 Gbps = 652.8 GB/s
    datasheet_channels=24,  # PIMFlow §5 (Fig. 8): 'Titan V GPU with 24 memory channels'
    board_watts=250.0,  # Titan V specifications: 250 W graphics card power
)


def channel_gbps(mem: DramPimConfig) -> float:
    """Peak bandwidth of one channel of the PIM-enabled memory, GB/s: one column I/O
    (Table 1: 256 bits = a x16 burst of 16) per tBL clocks (Table 1: 2) at the
    Ramulator GDDR6_3500 clock (0.875 GHz) -- 14 GB/s; the GPU's channels are of
    the same memory (PIMFlow §4.1: one DRAM serving as GPU memory and PIM device)."""
    return mem.column_io_bits / 8 / mem.tBL * mem.freq_ghz


def roofline_s(spec: GpuSpec, flops, dram_bytes, tensor, channels: int, gbps_per_channel: float) -> np.ndarray:
    """Roofline time in seconds of each layer: ``max(flops / peak, bytes / bandwidth)``,
    the peak the tensor cores' where ``tensor`` else the CUDA cores' FP16 rate."""
    if channels < 1:
        raise ValueError(f"gpu model: {channels} memory channels: the GPU needs at least one")
    flops = np.asarray(flops, np.float64)
    peak = np.where(np.asarray(tensor, bool), spec.tensor_flops, spec.cuda_fp16_flops)
    bw = channels * gbps_per_channel * 1e9
    return np.maximum(flops / peak, np.asarray(dram_bytes, np.float64) / bw)


def energy_j(spec: GpuSpec, busy_s) -> np.ndarray:
    """Energy of ``busy_s`` seconds of GPU work at board power (idle time is not charged)."""
    return np.asarray(busy_s, np.float64) * spec.board_watts
