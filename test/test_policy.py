"""``RunOptions.policy``: Eq. 2 (Inf-S, the default) or ``lowerable``, the gem5
artifact's rule (MLCPUMManager::canApplyPUMToGroup has no cost test): a region
runs in memory whenever it lowers, else near memory, else on the cores."""

from __future__ import annotations

import json

import numpy as np
import pytest

from infs import api
from infs.api import InfsError
from infs.tools import infs_run
from infs.workloads import WORKLOADS


def _run(name: str, policy: str, config: str = "small-16", seed: int = 0):
    w = WORKLOADS[name]
    inputs = w.inputs("small", seed)
    args = dict(inputs, **w.sizes("small"))
    r = api.run(str(w.path), args, config=config, policy=policy)
    want = w.reference(inputs, w.sizes("small"))
    return r, want


@pytest.mark.parametrize("name", ["vec_add", "stencil1d"])
@pytest.mark.parametrize("config", ["tiny", "small-16"])
def test_lowerable_runs_in_memory_where_eq2_refuses_and_values_stay_right(name, config):
    eq2, want = _run(name, "eq2", config)
    low, _ = _run(name, "lowerable", config)
    n_in = lambda r: sum(1 for x in r.regions if x.mode == "in")  # noqa: E731
    # at small sizes Eq. 2's cores at peak beat the commands + JIT: it sends the regions near memory
    assert any(x.reason.startswith("Eq. 2") and x.mode != "in" for x in eq2.regions)
    assert n_in(low) > n_in(eq2) and n_in(low) == len(low.regions)
    assert all(x.reason.startswith("policy lowerable") for x in low.regions)
    for k, v in want.items():
        np.testing.assert_allclose(low.outputs[k], v, rtol=1e-5, atol=1e-6, err_msg=k)
        np.testing.assert_allclose(eq2.outputs[k], v, rtol=1e-5, atol=1e-6, err_msg=k)


def test_lowerable_falls_back_near_memory_when_the_region_does_not_lower():
    """kmeans_outer's argmin has no in-memory counterpart: near memory (or the cores) under either policy."""
    low, want = _run("kmeans_outer", "lowerable")
    outside = [x for x in low.regions if x.mode != "in"]
    assert outside and all(x.reason.startswith("policy lowerable: not in memory") for x in outside)
    for k, v in want.items():
        np.testing.assert_allclose(low.outputs[k], v, rtol=1e-4, atol=1e-5, err_msg=k)


def test_an_unknown_policy_is_one_clear_error():
    w = WORKLOADS["vec_add"]
    with pytest.raises(InfsError, match="unknown policy 'gem5' \\(choose from eq2, lowerable\\)"):
        api.run(str(w.path), dict(w.inputs(), **w.sizes()), config="small-16", policy="gem5")


def test_infs_run_policy_flag_reports_who_decided(capsys):
    path = str(WORKLOADS["vec_add"].path)
    got = {}
    for policy in ("eq2", "lowerable"):
        assert infs_run.main([path, "--config", "small-16", "--policy", policy, "--check", "--json"]) == 0
        got[policy] = json.loads(capsys.readouterr().out)
        assert got[policy]["policy"] == policy and got[policy]["check"]["ok"]
    assert got["eq2"]["region_modes"] == {"near": 1} and got["lowerable"]["region_modes"] == {"in": 1}
    assert infs_run.main([path, "--config", "small-16", "--policy", "lowerable"]) == 0
    assert "policy lowerable" in capsys.readouterr().out
    # a forced mode decides nothing: --policy with it is a usage error, one line
    assert infs_run.main([path, "--mode", "in", "--policy", "lowerable"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--policy decides auto regions" in err
