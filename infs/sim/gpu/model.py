"""An analytic model of the GPU beside PIMFlow's PIM-enabled memory: the RTX 2060
PIMFlow simulates with Accel-Sim (PIMFlow §5), and the Titan V of its Fig. 8
validation.  A *model*, not a simulator: every figure it gives is named a model
where it is reported.

Takes a ``GpuSpec`` (SMs, tensor cores, board power: datasheet figures; the SM
clock, the memory channel's bandwidth and the kernel launch latency of the
Accel-Sim configuration PIMFlow ran, each cited beside its constant), the
number of memory channels the GPU owns and per-layer FLOPs, DRAM bytes and
whether the layer runs on tensor cores; gives per kernel the roofline time
``max(flops / peak, bytes / bandwidth)`` (``roofline_s``) and that plus the
launch latency (``kernel_s``: Accel-Sim holds a kernel's thread blocks for
the configured latency and counts it in the kernel's cycles, which PIMFlow's
per-layer GPU times sum), vectorized over arrays of layers, and the energy at
board power (``energy_j``).

What is left out, on purpose: no efficiency factor on the roofline (no
published cuDNN figure for these layers at these shapes, nor Accel-Sim's
achieved DRAM bandwidth on them, is at hand, so none is applied: apart from
the launch latency the model is an upper bound on the GPU's speed), no cache
model (each tensor crosses DRAM once: the roofline's compulsory traffic).
Energy is board power times busy time, the launch latency included (the
datasheet's graphics card power; the AccelWattch figures PIMFlow uses are not
published per layer), and an idle GPU is charged nothing (no cited idle
figure).
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
    sm_ghz: float  # the SM clock the model runs at
    tensor_cores_per_sm: int
    tensor_fp16_fma_per_clock: int  # per tensor core
    fp32_cores_per_sm: int
    fp16_rate_vs_fp32: int  # CUDA-core FP16 throughput over FP32
    datasheet_gbps: float  # the card's own memory bandwidth (reported beside the model's)
    datasheet_channels: int  # memory channels of that bandwidth
    board_watts: float
    launch_cycles: int = 0  # SM clocks from a kernel's launch to its first thread block

    @property
    def gbps_per_channel(self) -> float:
        """Bandwidth of one of the GPU's memory channels, GB/s."""
        return self.datasheet_gbps / self.datasheet_channels

    @property
    def launch_s(self) -> float:
        """Seconds a kernel waits before its first thread block runs."""
        return self.launch_cycles / (self.sm_ghz * 1e9)

    @property
    def tensor_flops(self) -> float:
        """Tensor-core FP16 peak, FLOP/s (an FMA is 2 FLOPs)."""
        return self.sms * self.tensor_cores_per_sm * self.tensor_fp16_fma_per_clock * 2 * self.sm_ghz * 1e9

    @property
    def cuda_fp16_flops(self) -> float:
        """CUDA-core FP16 peak, FLOP/s (depthwise convolutions, element-wise ops)."""
        return self.sms * self.fp32_cores_per_sm * 2 * self.fp16_rate_vs_fp32 * self.sm_ghz * 1e9


RTX2060 = GpuSpec(
    name="RTX 2060",
    sms=30,  # NVIDIA GeForce RTX 2060 specifications: 1920 CUDA cores = 30 SMs x 64 (Turing whitepaper: 64 FP32 cores per SM)
    # Accel-Sim SM75_RTX2060 gpgpusim.config, -gpgpu_clock_domains 1365:1365:1365:3500.5 (the RTX 2060's base clock);
    # PIMFlow's artifact (layerwise/run) converts Ramulator's 875 MHz cycles to these by its factor 1.56 = 1365 / 875
    sm_ghz=1.365,
    tensor_cores_per_sm=8,  # Turing whitepaper: 8 tensor cores per SM (240 on the RTX 2060)
    tensor_fp16_fma_per_clock=64,  # Turing whitepaper: 64 FP16 FMA per tensor core per clock
    fp32_cores_per_sm=64,  # Turing whitepaper: 64 FP32 cores per SM
    fp16_rate_vs_fp32=2,  # Turing whitepaper: FP16 on the CUDA cores at twice the FP32 rate
    # RTX 2060 specifications: 192-bit GDDR6 at 14 Gbps = 336 GB/s over 12 channels = 28 GB/s a channel; the same in
    # Accel-Sim's SM75_RTX2060 config (-gpgpu_dram_buswidth 2 bytes x 3500.5 MHz x -dram_data_command_freq_ratio 4),
    # whose channel count PIMFlow's artifact overrides (layerwise/sim.sh: -gpgpu_n_mem 32, or 32 less the PIM channels)
    datasheet_gbps=336.0,
    datasheet_channels=12,  # 192 bits of 16-bit GDDR6 channels (GDDR6 JESD250: two x16 channels per device; Accel-Sim -gpgpu_n_mem 12)
    board_watts=160.0,  # RTX 2060 specifications: 160 W graphics card power
    # Accel-Sim SM75_RTX2060 gpgpusim.config: -gpgpu_kernel_launch_latency 5000 (GPGPU-Sim kernel_info_t: a kernel's
    # blocks wait that many SM cycles, counted in gpu_sim_cycle) -- 3.66 us at 1365 MHz
    launch_cycles=5000,
)

TITAN_V = GpuSpec(
    name="Titan V",
    sms=80,  # NVIDIA Titan V specifications: 5120 CUDA cores = 80 SMs x 64 (Volta whitepaper: 64 FP32 cores per SM)
    # Accel-Sim SM7_TITANV gpgpusim.config, -gpgpu_clock_domains 1200:1200:1200:850 (base clock; boost is commented out);
    # PIMFlow's artifact (layerwise/run) scales PIM cycles for this GPU by 1.4118 = 1200 / 850
    sm_ghz=1.2,
    tensor_cores_per_sm=8,  # Volta whitepaper: 8 tensor cores per SM (640 on the Titan V)
    tensor_fp16_fma_per_clock=64,  # Volta whitepaper: 64 FP16 FMA per tensor core per clock
    fp32_cores_per_sm=64,  # Volta whitepaper: 64 FP32 cores per SM
    fp16_rate_vs_fp32=2,  # Volta whitepaper: FP16 at twice the FP32 rate
    datasheet_gbps=652.8,  # Titan V specifications: 3072-bit HBM2 at 1.7 Gbps = 652.8 GB/s
    datasheet_channels=24,  # PIMFlow §5 (Fig. 8): 'Titan V GPU with 24 memory channels'
    board_watts=250.0,  # Titan V specifications: 250 W graphics card power
    launch_cycles=0,  # Accel-Sim SM7_TITANV gpgpusim.config sets no -gpgpu_kernel_launch_latency: GPGPU-Sim's default, 0
)


def channel_gbps(mem: DramPimConfig) -> float:
    """Peak bandwidth of one channel of the PIM-enabled memory's bus, GB/s: one column I/O
    (Table 1: 256 bits = a x16 burst of 16) per tBL clocks (Table 1: 2) at the Ramulator
    GDDR6_3500 clock (0.875 GHz) -- 14 GB/s.  Not the GPU's channel rate: PIMFlow prices the
    GPU's channels in Accel-Sim (``GpuSpec.gbps_per_channel``, 28 GB/s on the RTX 2060) and
    the PIM channels in Ramulator, two models of one GDDR6 memory (§4.1, §5)."""
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


def kernel_s(spec: GpuSpec, flops, dram_bytes, tensor, channels: int, gbps_per_channel: float) -> np.ndarray:
    """Time in seconds of each layer as one kernel: its roofline time plus the launch latency
    (none for a layer with no work: a split that leaves the GPU nothing launches nothing)."""
    t = roofline_s(spec, flops, dram_bytes, tensor, channels, gbps_per_channel)
    work = (np.asarray(flops, np.float64) > 0) | (np.asarray(dram_bytes, np.float64) > 0)
    return t + np.where(work, spec.launch_s, 0.0)


def energy_j(spec: GpuSpec, busy_s) -> np.ndarray:
    """Energy of ``busy_s`` seconds of GPU work at board power (idle time is not charged)."""
    return np.asarray(busy_s, np.float64) * spec.board_watts
