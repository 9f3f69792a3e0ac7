"""Every workload's stream program, run by the reference evaluator, equals its
independent plain-numpy reference (exact for ints, float32 tolerance for f32),
at its small size and at other small sizes and seeds."""

import numpy as np
import pytest

from infs import api
from infs.runtime.check import compare_values
from infs.runtime.host import run_function
from infs.workloads import WORKLOADS

# Other small sizes: every size key scaled (kept >= 3 so stencils/convs have an interior).
SCALES = (0.5, 1.5)


def _scaled(sizes: dict[str, int], factor: float) -> dict[str, int]:
    out = {}
    for k, v in sizes.items():
        if k == "t":  # iteration counts stay even (ping-pong buffers)
            out[k] = v
        else:
            out[k] = max(3, int(round(v * factor)))
    return out


def _run(name: str, sizes: dict[str, int], seed: int):
    w = WORKLOADS[name]
    module = api.parse_file(w.path)
    inputs = w.inputs(sizes, seed)
    expected = w.reference(inputs, sizes)
    arrays = {k: v.copy() for k, v in inputs.items()}
    results = run_function(module, w.call_args(arrays, sizes), w.entry)
    return compare_values({**arrays, **dict(zip(w.results, results))}, expected)


def test_registry_is_complete():
    expected = {
        "vec_add", "array_sum", "stencil1d", "stencil2d", "stencil3d", "dwt2d", "gauss_elim", "conv2d", "conv3d",
        "mm_inner", "mm_outer", "kmeans_inner", "kmeans_outer", "gather_mlp_inner", "gather_mlp_outer",
    }  # fmt: skip
    assert expected <= set(WORKLOADS)


@pytest.mark.parametrize("name", sorted(WORKLOADS))
def test_small_size_matches_numpy(name):
    check = _run(name, WORKLOADS[name].sizes("small"), seed=0)
    assert check.ok, check.note


@pytest.mark.parametrize("name", sorted(WORKLOADS))
@pytest.mark.parametrize("factor", SCALES)
def test_other_sizes_match_numpy(name, factor):
    sizes = _scaled(WORKLOADS[name].sizes("small"), factor)
    check = _run(name, sizes, seed=int(factor * 10))
    assert check.ok, f"sizes {sizes}: {check.note}"


def test_a_wrong_program_is_caught():
    """The comparison can fail: perturb one output element of vec_add."""
    w = WORKLOADS["vec_add"]
    sizes = w.sizes("small")
    inputs = w.inputs(sizes, 0)
    expected = w.reference(inputs, sizes)
    name = w.outputs[0]
    bad = dict(expected)
    bad[name] = expected[name].copy()
    bad[name].flat[3] += np.float32(1.0)
    assert not compare_values(bad, expected).ok
