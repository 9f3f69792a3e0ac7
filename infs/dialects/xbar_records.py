"""STREAM programs as plain data: crossbar kernels of OR-plane layers and the
wiring between them (no xDSL), shared by the synthesis passes
(``passes/xbar``), the ``xbar`` dialect (which converts to and from these
records) and the crossbar simulator (``sim/xbar``).

Takes numpy arrays; gives frozen, checked records.  A malformed record is one
``XbarRecordError`` line naming the kernel, the layer and what is wrong.

The model (STREAM, §II-A, §IV-C, §V-C, Fig. 5 and Fig. 8):

* ``XbarLayer``: one crossbar of a staircase.  Row ``i`` is an input wordline,
  column ``j`` a bitline; ``plane[i, j]`` is a memristor in LRS (logic 1).  One
  READ gives on bitline ``j`` the OR of the inputs ``i`` with ``plane[i, j]``
  (OR-plane logic, §II-A, DeHon [28]); ``invert[j]`` puts the peripheral
  inverter on it (NOR).  A column with no LRS cell reads 0 (1 when inverted).
  A dummy node (a buffer carrying a signal over a layer, §IV-C) is an ordinary
  column with one input and no inversion.
* ``XbarKernel``: the staircase of one processing element: layer ``k + 1``'s
  inputs are layer ``k``'s outputs, in order (the hardwired connections of
  §II-C, Table II).  Layer 0's inputs are the kernel's input signals *and
  their complements*: rows ``0 .. n-1`` carry signals ``s_0 .. s_{n-1}``, rows
  ``n .. 2n-1`` carry ``not s_0 .. not s_{n-1}`` -- the literals of Fig. 8(a)
  (STREAM-M's Eq. (1) counts ``2 x`` fan-outs for the same reason).  The
  kernel's outputs are columns ``outputs`` of its last layer.
* ``XbarProgram``: kernels in topological order and where each kernel input
  and each primary output comes from: a ``(n, 2)`` integer array of
  ``(source, index)`` rows, ``source == PRIMARY`` (-1) for primary input
  ``index``, else kernel ``source``'s output ``index`` (an earlier kernel's:
  STREAM-M's two crossbars in series within one kernel, several kernels for a
  function a PE cannot hold, §III Problem II).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

PRIMARY = -1  # a source row naming a primary input
STYLES = ("stream-o", "stream-m")  # §IV (OIG, one crossbar per node) and §V (MLL, two in series)
CROSSBAR_SIZE = 128  # rows = columns of one crossbar, STREAM §VII / §VIII


class XbarRecordError(ValueError):
    """A malformed crossbar record (one line: where and what)."""


def _bool_array(value, ndim: int, what: str) -> np.ndarray:
    arr = np.asarray(value)
    if arr.dtype != np.bool_:
        if arr.size and not np.isin(arr, (0, 1)).all():
            raise XbarRecordError(f"{what}: entries must be booleans (0/1)")
        arr = arr.astype(np.bool_)
    if arr.ndim != ndim:
        raise XbarRecordError(f"{what}: expected {ndim} dimensions, got shape {arr.shape}")
    arr = np.ascontiguousarray(arr)
    arr.setflags(write=False)
    return arr


def _source_array(value, what: str) -> np.ndarray:
    arr = np.asarray(value, dtype=np.int64)
    if arr.size == 0:
        arr = np.zeros((0, 2), np.int64)
    elif arr.ndim != 2 or arr.shape[1] != 2:
        raise XbarRecordError(f"{what}: sources must be (source, index) pairs, got shape {arr.shape}")
    arr = np.ascontiguousarray(arr)
    arr.setflags(write=False)
    return arr


@dataclass(frozen=True, eq=False)
class XbarLayer:
    """One crossbar: ``out[j] = invert[j] XOR OR_i (in[i] AND plane[i, j])``."""

    plane: np.ndarray  # bool (n_in, n_out)
    invert: np.ndarray  # bool (n_out,)

    def __post_init__(self) -> None:
        plane = _bool_array(self.plane, 2, "layer plane")
        invert = _bool_array(self.invert, 1, "layer invert")
        if invert.shape[0] != plane.shape[1]:
            raise XbarRecordError(
                f"layer: invert has {invert.shape[0]} entries for {plane.shape[1]} columns"
            )
        object.__setattr__(self, "plane", plane)
        object.__setattr__(self, "invert", invert)

    @property
    def n_in(self) -> int:
        return int(self.plane.shape[0])

    @property
    def n_out(self) -> int:
        return int(self.plane.shape[1])

    @property
    def lrs_cells(self) -> int:
        """Memristors programmed to LRS (the one-time WRITEs of the initialization phase, Table I)."""
        return int(np.count_nonzero(self.plane))

    def crossbars(self, size: int = CROSSBAR_SIZE) -> int:
        """Physical ``size x size`` crossbars this layer takes (Eq. (4)'s ceil per dimension)."""
        return max(1, -(-self.n_in // size)) * max(1, -(-self.n_out // size))


@dataclass(frozen=True, eq=False)
class XbarKernel:
    """One PE's staircase: ``layers`` in series; ``outputs`` are last-layer columns."""

    layers: tuple[XbarLayer, ...]
    outputs: tuple[int, ...]

    def __post_init__(self) -> None:
        layers = tuple(self.layers)
        if not layers:
            raise XbarRecordError("kernel: no layers")
        if layers[0].n_in % 2:
            raise XbarRecordError(
                f"kernel layer 0: {layers[0].n_in} rows; layer 0 takes each input and its complement (an even count)"
            )
        for k in range(1, len(layers)):
            if layers[k].n_in != layers[k - 1].n_out:
                raise XbarRecordError(
                    f"kernel layer {k}: {layers[k].n_in} rows but layer {k - 1} has {layers[k - 1].n_out} columns"
                )
        outputs = tuple(int(o) for o in self.outputs)
        bad = [o for o in outputs if not 0 <= o < layers[-1].n_out]
        if bad:
            raise XbarRecordError(
                f"kernel outputs: column {bad[0]} not in the last layer's {layers[-1].n_out} columns"
            )
        object.__setattr__(self, "layers", layers)
        object.__setattr__(self, "outputs", outputs)

    @property
    def n_inputs(self) -> int:
        """Input signals (layer 0 has twice as many rows: the signals and their complements)."""
        return self.layers[0].n_in // 2

    @property
    def depth(self) -> int:
        return len(self.layers)

    @property
    def rows(self) -> int:
        """Wordlines of the largest layer (before splitting into fixed-size crossbars)."""
        return max(layer.n_in for layer in self.layers)

    @property
    def cols(self) -> int:
        """Bitlines of the largest layer."""
        return max(layer.n_out for layer in self.layers)

    def crossbars(self, size: int = CROSSBAR_SIZE) -> int:
        return sum(layer.crossbars(size) for layer in self.layers)


@dataclass(frozen=True, eq=False)
class XbarProgram:
    """Kernels in topological order, their input wiring and the primary outputs' sources."""

    kernels: tuple[XbarKernel, ...]
    kernel_inputs: tuple[np.ndarray, ...]  # per kernel: int (n_inputs, 2) of (source, index)
    output_sources: np.ndarray  # int (n_po, 2) of (source, index)
    primary_inputs: tuple[str, ...]
    primary_outputs: tuple[str, ...]
    style: str = "stream-o"
    crossbar_size: int = CROSSBAR_SIZE

    def __post_init__(self) -> None:
        if self.style not in STYLES:
            raise XbarRecordError(f"program style {self.style!r}: expected one of {', '.join(STYLES)}")
        if int(self.crossbar_size) < 1:
            raise XbarRecordError(f"program crossbar size {self.crossbar_size}: must be positive")
        kernels = tuple(self.kernels)
        pis = tuple(str(n) for n in self.primary_inputs)
        pos = tuple(str(n) for n in self.primary_outputs)
        if len(set(pis)) != len(pis):
            raise XbarRecordError("program: duplicate primary input name")
        if len(self.kernel_inputs) != len(kernels):
            raise XbarRecordError(
                f"program: {len(self.kernel_inputs)} input wirings for {len(kernels)} kernels"
            )
        wirings = []
        for k, (kernel, src) in enumerate(zip(kernels, self.kernel_inputs)):
            arr = _source_array(src, f"kernel {k} inputs")
            if arr.shape[0] != kernel.n_inputs:
                raise XbarRecordError(
                    f"kernel {k} inputs: {arr.shape[0]} sources for {kernel.n_inputs} input signals"
                )
            self._check_sources(arr, k, kernels, len(pis), f"kernel {k} inputs")
            wirings.append(arr)
        outs = _source_array(self.output_sources, "program outputs")
        if outs.shape[0] != len(pos):
            raise XbarRecordError(f"program outputs: {outs.shape[0]} sources for {len(pos)} names")
        self._check_sources(outs, len(kernels), kernels, len(pis), "program outputs")
        object.__setattr__(self, "kernels", kernels)
        object.__setattr__(self, "kernel_inputs", tuple(wirings))
        object.__setattr__(self, "output_sources", outs)
        object.__setattr__(self, "primary_inputs", pis)
        object.__setattr__(self, "primary_outputs", pos)
        object.__setattr__(self, "crossbar_size", int(self.crossbar_size))

    @staticmethod
    def _check_sources(arr: np.ndarray, before: int, kernels, n_pi: int, what: str) -> None:
        for row, (src, idx) in enumerate(arr.tolist()):
            if src == PRIMARY:
                if not 0 <= idx < n_pi:
                    raise XbarRecordError(f"{what} row {row}: primary input {idx} of {n_pi}")
            elif not 0 <= src < before:
                raise XbarRecordError(
                    f"{what} row {row}: source kernel {src} is not an earlier kernel (kernels are in topological order)"
                )
            elif not 0 <= idx < len(kernels[src].outputs):
                raise XbarRecordError(
                    f"{what} row {row}: kernel {src} has {len(kernels[src].outputs)} outputs, not {idx + 1}"
                )

    @property
    def n_inputs(self) -> int:
        return len(self.primary_inputs)

    @property
    def n_outputs(self) -> int:
        return len(self.primary_outputs)


def single_kernel_program(
    kernel: XbarKernel,
    primary_inputs: tuple[str, ...] | None = None,
    primary_outputs: tuple[str, ...] | None = None,
    style: str = "stream-o",
    crossbar_size: int = CROSSBAR_SIZE,
) -> XbarProgram:
    """A program of one kernel fed by the primary inputs in order, its outputs the primary outputs."""
    n_in, n_out = kernel.n_inputs, len(kernel.outputs)
    pis = primary_inputs if primary_inputs is not None else tuple(f"x{i}" for i in range(n_in))
    pos = primary_outputs if primary_outputs is not None else tuple(f"y{j}" for j in range(n_out))
    inputs = np.stack([np.full(n_in, PRIMARY), np.arange(n_in)], axis=1)
    outputs = np.stack([np.zeros(n_out, np.int64), np.arange(n_out)], axis=1)
    return XbarProgram((kernel,), (inputs,), outputs, tuple(pis), tuple(pos), style, crossbar_size)


# ---- the JSON form (``FILE.xbar.json``): what infs-run reads besides the dialect ----
#
# {"format": "infs-xbar", "version": 1, "style", "crossbar_size",
#  "primary_inputs": [names], "primary_outputs": [names],
#  "output_sources": [[source, index], ...],
#  "kernels": [{"inputs": [[source, index], ...], "outputs": [columns],
#               "layers": [{"rows", "cols", "lrs": [[row, col], ...], "invert": [cols]}]}]}
# LRS cells are listed sparsely (most cells of a mapped layer are HRS).

JSON_FORMAT = "infs-xbar"
JSON_VERSION = 1


def program_to_json(program: XbarProgram) -> dict:
    kernels = []
    for kernel, src in zip(program.kernels, program.kernel_inputs):
        layers = [
            {
                "rows": layer.n_in,
                "cols": layer.n_out,
                "lrs": np.argwhere(layer.plane).tolist(),
                "invert": np.flatnonzero(layer.invert).tolist(),
            }
            for layer in kernel.layers
        ]
        kernels.append({"inputs": src.tolist(), "outputs": list(kernel.outputs), "layers": layers})
    return {
        "format": JSON_FORMAT,
        "version": JSON_VERSION,
        "style": program.style,
        "crossbar_size": program.crossbar_size,
        "primary_inputs": list(program.primary_inputs),
        "primary_outputs": list(program.primary_outputs),
        "output_sources": program.output_sources.tolist(),
        "kernels": kernels,
    }


def _layer_from_json(d: dict, where: str) -> XbarLayer:
    try:
        rows, cols = int(d["rows"]), int(d["cols"])
        lrs = np.asarray(d["lrs"], dtype=np.int64).reshape(-1, 2)
        inv = np.asarray(d["invert"], dtype=np.int64).reshape(-1)
    except (KeyError, TypeError, ValueError) as e:
        raise XbarRecordError(f"{where}: expected rows, cols, lrs [[row, col], ...] and invert [cols] ({e})") from None
    if rows < 0 or cols < 0:
        raise XbarRecordError(f"{where}: negative dimensions {rows}x{cols}")
    if lrs.size and (lrs.min() < 0 or (lrs[:, 0] >= rows).any() or (lrs[:, 1] >= cols).any()):
        raise XbarRecordError(f"{where}: an LRS cell lies outside the {rows}x{cols} layer")
    if inv.size and (inv.min() < 0 or inv.max() >= cols):
        raise XbarRecordError(f"{where}: an inverted column lies outside the layer's {cols} columns")
    plane = np.zeros((rows, cols), dtype=np.bool_)
    plane[lrs[:, 0], lrs[:, 1]] = True
    invert = np.zeros(cols, dtype=np.bool_)
    invert[inv] = True
    return XbarLayer(plane, invert)


def program_from_json(d) -> XbarProgram:
    """The program a ``program_to_json`` dict describes; a malformed one is one ``XbarRecordError`` line."""
    if not isinstance(d, dict) or d.get("format") != JSON_FORMAT:
        raise XbarRecordError(f"not an {JSON_FORMAT} document (no \"format\": \"{JSON_FORMAT}\")")
    if d.get("version") != JSON_VERSION:
        raise XbarRecordError(f"version {d.get('version')!r}: this infs reads version {JSON_VERSION}")
    try:
        kernel_docs = list(d["kernels"])
        kernels, wiring = [], []
        for k, kd in enumerate(kernel_docs):
            layers = tuple(_layer_from_json(ld, f"kernel {k} layer {i}") for i, ld in enumerate(kd["layers"]))
            try:
                kernels.append(XbarKernel(layers, tuple(kd["outputs"])))
            except XbarRecordError as e:
                raise XbarRecordError(f"kernel {k}: {e}") from None
            wiring.append(kd["inputs"])
        return XbarProgram(
            tuple(kernels), tuple(wiring), d["output_sources"], tuple(d["primary_inputs"]),
            tuple(d["primary_outputs"]), d.get("style", "stream-o"), d.get("crossbar_size", CROSSBAR_SIZE),
        )
    except (KeyError, TypeError) as e:
        raise XbarRecordError(f"missing or malformed field {e}") from None
