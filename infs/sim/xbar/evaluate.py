"""Bit-exact evaluation of a mapped STREAM program (``XbarProgram``).

Takes a program and boolean input vectors ``(n_vectors, n_primary_inputs)``;
gives the primary outputs ``(n_vectors, n_primary_outputs)``.  A layer is one
boolean matrix product over all vectors and columns at once: a bitline reads
1 when any wordline driven by a 1 meets an LRS cell (OR-plane logic, STREAM
§II-A), the peripheral inverter complements it.  The product runs in float32
through BLAS; counts stay exact below 2**24 wordlines.
"""

from __future__ import annotations

import numpy as np

from ...dialects.xbar_records import PRIMARY, XbarKernel, XbarProgram


class XbarEvalError(ValueError):
    """Inputs that do not fit the program (one line)."""


def or_plane(x: np.ndarray, plane: np.ndarray, invert: np.ndarray) -> np.ndarray:
    """One READ of a layer: ``x`` bool ``(..., n_in)`` -> bool ``(..., n_out)``.

    ``plane`` may carry leading batch dimensions matching ``x``'s (one crossbar
    per batch entry: ``x (E, V, n_in)`` with ``plane (E, n_in, n_out)``)."""
    hits = np.matmul(x.astype(np.float32), plane.astype(np.float32))
    return (hits > 0.5) ^ invert[..., None, :] if plane.ndim == 3 else (hits > 0.5) ^ invert


def evaluate_kernel(kernel: XbarKernel, signals: np.ndarray) -> np.ndarray:
    """The kernel's outputs for input signals ``(n_vectors, n_inputs)``."""
    x = np.concatenate([signals, ~signals], axis=-1)  # layer 0: the signals, then their complements
    for layer in kernel.layers:
        x = or_plane(x, layer.plane, layer.invert)
    return x[..., list(kernel.outputs)]


def _gather(sources: np.ndarray, primary: np.ndarray, produced: list[np.ndarray]) -> np.ndarray:
    cols = []
    for src, idx in sources.tolist():
        cols.append(primary[:, idx] if src == PRIMARY else produced[src][:, idx])
    if not cols:
        return np.zeros((primary.shape[0], 0), dtype=np.bool_)
    return np.stack(cols, axis=1)


def evaluate(program: XbarProgram, inputs) -> np.ndarray:
    """Every primary output of ``program`` for each input vector (a row of ``inputs``)."""
    x = np.asarray(inputs)
    if x.ndim == 1:
        x = x[None, :]
    if x.ndim != 2 or x.shape[1] != program.n_inputs:
        raise XbarEvalError(
            f"inputs: expected (vectors, {program.n_inputs}) booleans for inputs "
            f"{', '.join(program.primary_inputs[:4])}{'...' if program.n_inputs > 4 else ''}; got shape {x.shape}"
        )
    if x.dtype != np.bool_:
        if x.size and not np.isin(x, (0, 1)).all():
            raise XbarEvalError("inputs: entries must be 0 or 1")
        x = x.astype(np.bool_)
    produced: list[np.ndarray] = []
    for kernel, sources in zip(program.kernels, program.kernel_inputs):
        produced.append(evaluate_kernel(kernel, _gather(sources, x, produced)))
    return _gather(program.output_sources, x, produced)
