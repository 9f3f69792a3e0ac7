"""Hardware configs as data, file loading, validation, cost profiles (ASPLOS §5, Table 2)."""

import csv
import json
from pathlib import Path

import numpy as np
import pytest

from infs.sim import ConfigError, load_config
from infs.sim.config import PIMEVAL_STEPS, PROFILES, BUILTIN


def test_paper_64_is_table_2():
    c = load_config("paper-64")
    assert (c.mesh_rows, c.mesh_cols, c.banks) == (8, 8, 64)
    assert (c.ways, c.compute_ways, c.arrays_per_way) == (18, 16, 16)
    assert (c.wordlines, c.bitlines) == (256, 256)
    assert c.total_bitlines == 64 * 16 * 16 * 256 == 4_194_304
    assert c.htree_levels == 5 and c.htree_bytes_per_cycle == 64
    assert c.link_bytes == 32 and c.router_stages == 5 and c.hop_cycles == 6
    assert c.dram_bytes_per_cycle == pytest.approx(12.8)


def test_cal_64_is_cal_table_2():
    c = load_config("cal-64")
    assert (c.wordlines, c.bitlines, c.arrays_per_way, c.compute_ways) == (512, 512, 8, 16)
    assert c.total_bitlines == 4_194_304
    assert c.link_bytes * 8 == 256


def test_tiny_geometry():
    c = load_config("tiny")
    assert (c.banks, c.compute_ways, c.arrays_per_way, c.bitlines) == (4, 1, 2, 16)
    assert c.total_arrays == 8


@pytest.mark.parametrize("name", list(BUILTIN))
def test_builtins_validate(name):
    assert load_config(name).name == name


def test_toml_and_json_files(tmp_path: Path):
    t = tmp_path / "mine.toml"
    t.write_text('base = "paper-64"\nbitlines = 128\nprofile = "pimeval-bitsimd-v"\n[energy]\ndram_byte = 99.0\n')
    c = load_config(t)
    assert c.name == "mine" and c.bitlines == 128 and c.wordlines == 256
    assert c.profile == "pimeval-bitsimd-v" and c.energy("dram_byte") == 99.0
    assert c.energy("noc_byte_hop") == load_config("paper-64").energy("noc_byte_hop")
    j = tmp_path / "other.json"
    j.write_text(json.dumps({"name": "j", "base": "tiny", "wordlines": 64}))
    assert load_config(j).wordlines == 64 and load_config(j).banks == 4
    assert load_config("tiny", wordlines=128).wordlines == 128


@pytest.mark.parametrize(
    "overrides, words",
    [
        ({"banks": 63}, "mesh_rows x mesh_cols"),
        ({"compute_ways": 19}, "exceeds"),
        ({"bitlines": 0}, "positive integer"),
        ({"wordlines": 2048}, "10-bit"),
        ({"wordlines": 16}, "32-bit register"),
        ({"host_tile": 64}, "host_tile"),
        ({"freq_ghz": -1.0}, "freq_ghz"),
        ({"profile": "nope"}, "cost profile"),
        ({"energy_pj": {"bogus": 1.0}}, "energy"),
    ],
)
def test_impossible_configs_fail_with_one_line(overrides, words):
    with pytest.raises(ConfigError) as e:
        load_config("paper-64", **overrides)
    msg = str(e.value)
    assert words in msg and "\n" not in msg and msg.startswith("invalid hardware config")


def test_bad_files(tmp_path: Path):
    with pytest.raises(ConfigError, match="unknown fields"):
        load_config({"base": "tiny", "bitliness": 3})
    with pytest.raises(ConfigError, match="not a built-in"):
        load_config(str(tmp_path / "missing.toml"))
    f = tmp_path / "broken.toml"
    f.write_text("bitlines = = 3")
    with pytest.raises(ConfigError):
        load_config(f)


def test_infs_profile_formulas():
    p = PROFILES["infs"]
    assert p.compute_cycles("add", "f32") == 1024  # fp add n^2
    assert p.compute_cycles("mul", "f32") == 1024
    assert p.compute_cycles("fma", "f32") == 2048  # 2 n^2
    for ty, n in (("i32", 32), ("i16", 16), ("i8", 8)):
        assert p.compute_cycles("add", ty) == n
        assert p.compute_cycles("sub", ty) == n
        assert p.compute_cycles("mul", ty) == n * n + 5 * n  # ASPLOS §5.2 (asplos:396)
    assert p.compute_cycles("add", "i32", has_const=True) == 64  # constant broadcast: n writes


def test_pimeval_profile_prices_published_steps():
    p = PROFILES["pimeval-bitsimd-v"]
    assert p.compute_cycles("add", "f32") == 1331 + 685 + 1687
    assert p.compute_cycles("add", "i32") == 64 + 32 + 97
    assert p.compute_cycles("mul", "i8", has_const=True) == 36 + 36 + 172
    assert p.compute_cycles("fma", "f32") == (1852 + 1000 + 3054) + (1331 + 685 + 1687)
    from infs.dialects.pimcmd_schema import COMPUTE_ARITY

    for op in COMPUTE_ARITY:  # every op of every type is priced
        for ty in ("f32", "i32", "i16", "i8", "i1"):
            assert p.compute_cycles(op, ty) > 0


def test_embedded_pimeval_rows_match_shared_table():
    path = Path(__file__).resolve().parents[3] / "shared" / "data" / "pimeval_bitsimd_v_steps.csv"
    if not path.exists():
        pytest.skip("shared/data not beside the repository")
    rows = {}
    with path.open() as f:
        for r in csv.DictReader(line for line in f if not line.startswith("#")):
            rows[(r["dtype"], r["op"])] = (int(r["reads"]), int(r["writes"]), int(r["logic"]))
    for k, v in PIMEVAL_STEPS.items():
        assert rows[k] == v, k


def test_jit_models():
    """jit_model: per-lowering charges the paper's mean JIT time per lowering (ASPLOS §8:
    220 us) at the clock; per-command (the default until a re-entered region is lowered once)
    keeps gem5/CAL'22's 10 cycles/cmd; measured converts the JIT's own wall time."""
    c = load_config("paper-64")
    assert c.jit_model == "per-command" and c.jit_lowering_cycles(61, 0.5) == 610
    assert load_config("paper-64", jit_model="per-lowering").jit_lowering_cycles(61, 0.5) == 220 * 2000 == 440_000
    assert load_config("paper-64", jit_model="measured").jit_lowering_cycles(61, 1.5e-3) == 3_000_000
    assert load_config("paper-64", freq_ghz=1.0, jit_model="per-lowering").jit_lowering_cycles(1, 0.0) == 220_000
    with pytest.raises(ConfigError, match="jit_model: unknown JIT model 'hw'"):
        load_config("paper-64", jit_model="hw")


@pytest.mark.parametrize("model", ["per-lowering", "per-command"])
def test_jit_charge_follows_the_model_and_no_jit_charges_nothing(model):
    from infs import api

    vec_add = str(Path(__file__).resolve().parents[2] / "infs/workloads/vec_add.mlir")
    n = 256
    inputs = {"A": np.ones(n, np.float32), "B": np.ones(n, np.float32), "C": np.zeros(n, np.float32), "n": n}
    cfg = load_config("small-16", jit_model=model)
    r = api.run(vec_add, dict(inputs), config=cfg, mode="in", machine_mode="analysis")
    (rec,) = r.regions
    want = 440_000 if model == "per-lowering" else 10 * rec.commands
    assert rec.jit_misses == 1 and r.stats.cycles["jit"] == want
    r0 = api.run(vec_add, dict(inputs), config=cfg, mode="in", machine_mode="analysis", jit=False)
    assert r0.stats.cycles["jit"] == 0 and r.cycles - r0.cycles == want


def test_every_energy_constant_has_a_source_and_static_energy_follows_time():
    """Each energy constant names its source; leakage is charged per cycle in every mode."""
    from infs.hardware import DEFAULT_ENERGY_PJ, ENERGY_SOURCES
    from infs.sim import Machine

    assert set(ENERGY_SOURCES) == set(DEFAULT_ENERGY_PJ) and all(ENERGY_SOURCES.values())
    c = load_config("paper-64")
    # the authors' energy.py:33-37: 15% of the peak dynamic power; on paper-64 the peak is every one of
    # the 4M compute bitlines in a bit-serial cycle at CRAM's 0.0237 pJ scaled to CACTI 22 nm's 0.8 V
    assert c.energy("compute_bitline_cycle") == pytest.approx(1 / 5.27 / 8 * (0.8 / 0.6) ** 2, abs=5e-5) == 0.0422
    assert c.energy("static_fraction") == 0.15
    in_memory = 64 * 16 * 16 * 256 * 0.0422
    # the cores' side: 64 x (2 FP-SIMD + 4 int SIMD ops per cycle) x 150 pJ, 64 banks x 64 B x 1.25 pJ,
    # 224 directed mesh links x 32 B x 0.52 pJ
    base = 64 * 6 * 150 + 64 * 64 * 1.25 + 224 * 32 * 0.52
    assert c.peak_dynamic_pj_per_cycle == pytest.approx(max(in_memory, base)) == pytest.approx(in_memory)
    assert c.static_pj_per_cycle == pytest.approx(0.15 * in_memory)  # 26,550 pJ/cycle: 53 W at 2 GHz
    tiny = load_config("tiny")  # 128 bitlines: the cores' side is the peak
    assert tiny.peak_dynamic_pj_per_cycle == pytest.approx(
        tiny.cores * 6 * 150 + tiny.banks * tiny.l3_bank_bytes_per_cycle * 1.25 + 8 * tiny.link_bytes * 0.52)
    assert load_config("paper-64", energy_pj={"static_fraction": 0.0}).static_pj_per_cycle == 0
    m = Machine("paper-64", mode="analysis")
    m.charge("jit", 1000)
    assert m.stats.energy_pj["static"] == pytest.approx(1000 * c.static_pj_per_cycle)


def test_model_md_lists_every_constant_and_is_current():
    """benchmarks/MODEL.md's table is generated from the code's constants: every
    HardwareConfig field, every profile op and every energy constant has a source and a figure."""
    from dataclasses import fields as dc_fields

    from infs.hardware import DEFAULT_ENERGY_PJ, ENERGY_FIGURES, HardwareConfig
    from infs.hardware.model_table import FIELD_SOURCES, MODEL_MD_BEGIN, MODEL_MD_END, model_markdown

    assert set(FIELD_SOURCES) == {f.name for f in dc_fields(HardwareConfig)} - {"name", "profile", "energy_pj"}
    assert set(ENERGY_FIGURES) == set(DEFAULT_ENERGY_PJ)
    text = (Path(__file__).resolve().parents[2] / "benchmarks" / "MODEL.md").read_text()
    block = text[text.index(MODEL_MD_BEGIN) + len(MODEL_MD_BEGIN) : text.index(MODEL_MD_END)]
    assert block.strip() == model_markdown().strip(), "benchmarks/MODEL.md is stale: run `python -m infs.hardware`"
