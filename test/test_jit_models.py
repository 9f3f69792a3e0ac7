"""The named JIT models (``HardwareConfig.jit_model``): each charges its cited
cycles per lowered command, in the config and on infs-run's command line."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from infs import api
from infs.hardware import JIT_COMMAND_CYCLES, JIT_MODEL_SOURCES, JIT_MODELS, ConfigError, load_config
from infs.tools import infs_run

VEC_ADD = str(Path(__file__).resolve().parents[1] / "infs/workloads/vec_add.mlir")


def test_each_named_model_charges_its_cited_rate():
    """hardware: CAL'22 §2 / gem5 run.py:393 (10); gem5-controller: Controller.py:206-207 (100);
    software: CAL'22 §2, Inf-S_soft "about 1k cycles per command" (1000)."""
    assert JIT_COMMAND_CYCLES == {"hardware": 10, "gem5-controller": 100, "software": 1000}
    for name, rate in JIT_COMMAND_CYCLES.items():
        assert name in JIT_MODELS and JIT_MODEL_SOURCES[name]
        cfg = load_config("small-16", jit_model=name)
        assert cfg.jit_command_cycles == rate
        assert cfg.jit_lowering_cycles(61, 0.25) == rate * 61
        # a named model ignores the configurable rate
        assert load_config("small-16", jit_model=name, jit_cycles_per_command=7).jit_lowering_cycles(3, 0.0) == rate * 3
    # per-command keeps the configurable rate (its default is hardware's)
    assert load_config("small-16").jit_command_cycles == 10
    assert load_config("small-16", jit_cycles_per_command=7).jit_lowering_cycles(3, 0.0) == 21


def test_an_unknown_model_names_the_known_ones():
    with pytest.raises(ConfigError, match="unknown JIT model 'hw'.*gem5-controller"):
        load_config("small-16", jit_model="hw")


@pytest.mark.parametrize("model", ["hardware", "gem5-controller", "software"])
def test_a_run_is_charged_the_models_rate_and_values_stay_right(model):
    n = 256
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    inputs = {"A": a, "B": b, "C": np.zeros(n, np.float32), "n": n}
    r = api.run(VEC_ADD, inputs, config=load_config("small-16", jit_model=model), mode="in")
    (rec,) = r.regions
    assert rec.mode == "in" and rec.jit_misses == 1
    assert r.stats.cycles["jit"] == JIT_COMMAND_CYCLES[model] * rec.commands
    np.testing.assert_allclose(r.outputs["C"], a + b, rtol=1e-6)


def test_infs_run_jit_model_flag(capsys):
    runs = {}
    for model in ("hardware", "software"):
        code = infs_run.main([VEC_ADD, "--config", "small-16", "--mode", "in", "--analysis", "--json", "--jit-model", model])
        assert code == 0
        runs[model] = json.loads(capsys.readouterr().out)
        assert runs[model]["jit"]["model"] == model
    cmds = sum(r["commands"] for r in runs["hardware"]["regions"])
    assert runs["hardware"]["cycles"]["jit"] == 10 * cmds and runs["software"]["cycles"]["jit"] == 1000 * cmds


def test_infs_run_jit_model_errors_are_one_line(capsys):
    with pytest.raises(SystemExit) as e:
        infs_run.main([VEC_ADD, "--jit-model", "hw"])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--jit-model" in err and "gem5-controller" in err
    assert infs_run.main([VEC_ADD, "--mode", "near", "--jit-model", "software"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--jit-model applies to in-memory execution" in err


def test_bench_jit_table_recharges_the_hardware_runs_at_each_rate():
    """infs-bench's JIT-model section: the share under each model's own runs, and the
    hardware runs' lowerings recharged at each rate (the JIT is charged serially)."""
    from infs.tools.infs_bench import jit_study, jit_table

    def row(model, workload, total, jit, misses=1):
        return {"workload": workload, "config": "infs", "jit_model": model, "total_cycles": total, "cyc_jit": jit,
                "jit_misses": misses, "elements_in_memory_fraction": 1.0}

    rows = [row("hardware", "stencil1d", 10_000, 100), row("hardware", "dwt2d", 20_000, 0, 0),
            row("software", "stencil1d", 19_900, 10_000), row("software", "dwt2d", 20_000, 0, 0)]
    study = jit_study(rows)
    assert study["hardware"]["share"] == pytest.approx((100 / 10_000 + 0) / 2)
    assert study["hardware"]["held"] == pytest.approx(study["hardware"]["share"])
    # 100 cycles at 10/cmd are 10 commands: 10,000 cycles at 1000/cmd, on 9,900 others
    assert study["software"]["held"] == pytest.approx((10_000 / 19_900) / 2)
    text = "\n".join(jit_table(rows))
    assert "| `software` | 1,000 cycles/cmd |" in text and "11%" in text
