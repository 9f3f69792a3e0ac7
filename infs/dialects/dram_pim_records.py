"""DRAM-PIM programs as plain data: the layer a kernel computes and its Newton
commands as columns of integers (no xDSL), shared by the lowering
(``passes/dram_pim``), the simulator (``sim/dram_pim``) and the dialect
(``dialects/dram_pim``, which converts to and from these records).

A *layer* is a matrix-vector product ``out[v, n] += sum_k vec_v[k] * Wm[k, n]``
over ``V`` vectors (PIMFlow §2.2, Fig. 2): an FC layer's batch rows, or a
convolution's output pixels after im2col lowering on NHWC data (the vector of
pixel ``(oh, ow)`` is the ``KH x KW x C`` window, in (kh, kw, c) order; ``Wm``
is the HWCF filter reshaped to ``(KH*KW*C, F)``).  The input is read from one
flat array (the padded NHWC image, PIMFlow §4.3.2's pre-padded allocation, or
the ``B x K`` FC input); the output is ``(V, N)`` (NHWC for a convolution).

Commands (``Commands``, one row per op; a COMP row is ``count`` COMP commands,
one per column I/O):

====== ==================== =========================== ===================
kind   a                    b                           c
====== ==================== =========================== ===================
GWRITE first global buffer  buffers written (1, 2, 4)   gather index
G_ACT  bank group           row                         --
COMP   global buffer        first column I/O            columns
READRES vector ``v``        first output ``n`` (bank 0) banks holding outputs
====== ==================== =========================== ===================

A gather (``Gathers``) is PIMFlow's strided GWRITE: for each buffer written,
``runs`` runs of ``length`` elements ``stride`` apart from its source offset,
packed into the buffer from slot 0.  A placement (``Placements``) is one weight
row placed in advance: row ``row`` of bank ``j < banks`` of channel ``ch``
holds ``Wm[k0 : k0 + used, n0 + j]`` in slots ``0 .. used``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

GWRITE, G_ACT, COMP, READRES = 0, 1, 2, 3
KIND_NAMES = ("gwrite", "g_act", "comp", "readres")
DTYPES = ("bf16", "fp16")  # Newton's 16-bit operands (sim/dram_pim/numerics.py)


@dataclass(frozen=True)
class FcLayer:
    """``y[b, n] += sum_k x[b, k] W[k, n]`` (``W`` given as ``(N, K)`` when ``weights_nk``: linalg.matvec's A)."""

    batch: int
    k: int
    n: int
    weights_nk: bool = False

    kind = "fc"

    @property
    def dims(self) -> tuple[int, ...]:
        return (self.batch, self.k, self.n, int(self.weights_nk))

    @property
    def vectors(self) -> int:
        return self.batch

    @property
    def reduction(self) -> int:
        return self.k

    @property
    def outputs(self) -> int:
        return self.n

    @property
    def input_elements(self) -> int:
        return self.batch * self.k

    def runs(self) -> tuple[int, int, int]:
        """(runs per vector, run length, stride between runs) of one vector in the flat input."""
        return 1, self.k, self.k

    def vector_bases(self) -> np.ndarray:
        return np.arange(self.batch, dtype=np.int64) * self.k


@dataclass(frozen=True)
class ConvLayer:
    """NHWC convolution of one image ``(H, W, C)`` with an HWCF filter ``(KH, KW, C, F)``;
    ``ph``/``pw`` zero padding on each side (the input array is the padded one)."""

    h: int
    w: int
    c: int
    f: int
    kh: int
    kw: int
    sh: int = 1
    sw: int = 1
    ph: int = 0
    pw: int = 0

    kind = "conv"

    @property
    def dims(self) -> tuple[int, ...]:
        return (self.h, self.w, self.c, self.f, self.kh, self.kw, self.sh, self.sw, self.ph, self.pw)

    @property
    def padded(self) -> tuple[int, int, int]:
        return self.h + 2 * self.ph, self.w + 2 * self.pw, self.c

    @property
    def out_hw(self) -> tuple[int, int]:
        hp, wp, _ = self.padded
        return (hp - self.kh) // self.sh + 1, (wp - self.kw) // self.sw + 1

    @property
    def vectors(self) -> int:
        oh, ow = self.out_hw
        return oh * ow

    @property
    def reduction(self) -> int:
        return self.kh * self.kw * self.c

    @property
    def outputs(self) -> int:
        return self.f

    @property
    def input_elements(self) -> int:
        hp, wp, c = self.padded
        return hp * wp * c

    def runs(self) -> tuple[int, int, int]:
        # the (kh) rows of a window: KW*C contiguous elements each, a padded image row apart
        _, wp, c = self.padded
        return self.kh, self.kw * c, wp * c

    def vector_bases(self) -> np.ndarray:
        oh, ow = self.out_hw
        _, wp, c = self.padded
        r, q = np.divmod(np.arange(oh * ow, dtype=np.int64), ow)
        return r * self.sh * wp * c + q * self.sw * c


Layer = FcLayer | ConvLayer


def layer_from_dims(kind: str, dims: tuple[int, ...]) -> Layer:
    """The layer of a kernel's ``layer KIND shape [..]``; ValueError with what is wrong."""
    want = {"fc": 4, "conv": 10}
    if kind not in want:
        raise ValueError(f"unknown layer kind '{kind}' (expected fc or conv)")
    if len(dims) != want[kind]:
        raise ValueError(f"a {kind} layer has {want[kind]} dims, got {len(dims)}")
    if kind == "fc":
        if min(dims[:3]) < 1 or dims[3] not in (0, 1):
            raise ValueError(f"fc dims [batch, k, n, weights_nk] must be positive and weights_nk 0 or 1, got {list(dims)}")
        return FcLayer(dims[0], dims[1], dims[2], bool(dims[3]))
    layer = ConvLayer(*dims)
    if min(dims[:8]) < 1 or min(dims[8:]) < 0:
        raise ValueError(f"conv dims [h, w, c, f, kh, kw, sh, sw, ph, pw] must be positive (padding >= 0), got {list(dims)}")
    hp, wp, _ = layer.padded
    if layer.kh > hp or layer.kw > wp:
        raise ValueError(f"conv filter {layer.kh}x{layer.kw} is larger than the padded image {hp}x{wp}")
    return layer


@dataclass
class Commands:
    """Columns of one command per row, in program order (each channel's commands in its order)."""

    kind: np.ndarray  # int8
    ch: np.ndarray  # int32
    a: np.ndarray  # int64
    b: np.ndarray
    c: np.ndarray

    def __len__(self) -> int:
        return int(self.kind.size)

    @staticmethod
    def from_rows(rows: "list[tuple[int, int, int, int, int]] | np.ndarray") -> "Commands":
        arr = np.asarray(rows, dtype=np.int64).reshape(-1, 5)
        return Commands(arr[:, 0].astype(np.int8), arr[:, 1].astype(np.int32), arr[:, 2].copy(), arr[:, 3].copy(), arr[:, 4].copy())

    def issued(self) -> np.ndarray:
        """DRAM commands each row stands for (a COMP row: its column count)."""
        return np.where(self.kind == COMP, self.c, 1)


@dataclass
class Gathers:
    """One strided gather per GWRITE: source offsets (``-1`` past the buffers written), runs, length, stride."""

    offsets: np.ndarray  # int64 [g, 4]
    runs: np.ndarray  # int64 [g]
    length: np.ndarray
    stride: np.ndarray

    def __len__(self) -> int:
        return int(self.runs.size)


@dataclass
class Placements:
    """Weight rows placed in the banks before the kernel runs."""

    ch: np.ndarray
    row: np.ndarray
    n0: np.ndarray
    banks: np.ndarray
    k0: np.ndarray
    used: np.ndarray

    def __len__(self) -> int:
        return int(self.ch.size)


@dataclass
class Program:
    """One layer's DRAM-PIM kernel: its layer, element type, machine and commands."""

    name: str
    layer: Layer
    dtype: str
    config: object  # infs.hardware.dram_pim.DramPimConfig
    commands: Commands
    gathers: Gathers
    placements: Placements
    granularity: str = "g_act"  # PIMFlow §4.3 channel scheduling: g_act, readres or comp
