"""The example hardware config (examples/hardware/my-machine.toml) loads, runs
workloads in memory with the right answers, and docs/hardware.md describes
every field and built-in config there is."""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import numpy as np
import pytest

from infs import api
from infs.hardware import BUILTIN, PART_OF, HardwareConfig, load_config
from infs.hardware.cost_profiles import PROFILES
from infs.hardware.energy import DEFAULT_ENERGY_PJ
from infs.workloads import WORKLOADS

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "hardware" / "my-machine.toml"
DOC = ROOT / "docs" / "hardware.md"


def test_the_example_config_loads_as_written():
    cfg = load_config(str(EXAMPLE))
    small = load_config("small-16")
    assert cfg.name == "my-machine"
    assert (cfg.mesh_rows, cfg.mesh_cols, cfg.banks, cfg.mem_ctrls) == (2, 4, 8, 4)
    assert (cfg.ways, cfg.compute_ways, cfg.arrays_per_way, cfg.wordlines, cfg.bitlines) == (4, 2, 4, 256, 128)
    assert cfg.total_bitlines == 8 * 2 * 4 * 128
    assert cfg.energy("dram_byte") == 120.0
    # the fields the file does not set come from its base, small-16
    assert cfg.htree_bytes_per_cycle == small.htree_bytes_per_cycle
    assert cfg.energy("noc_byte_hop") == small.energy("noc_byte_hop")
    # a lowered program records the machine inline; that text is the same machine
    assert load_config(cfg.spec) == cfg


@pytest.mark.parametrize("name", ["vec_add", "stencil2d", "array_sum"])
def test_workloads_run_in_memory_on_the_example_config_with_numpy_s_answers(name):
    w = WORKLOADS[name]
    sizes = w.sizes("small")
    inputs = w.inputs(sizes, seed=3)
    expected = w.reference(inputs, sizes)
    args = {a: inputs[a] if a in inputs else int(sizes[a]) for a in w.args}
    run = api.run(w.path, args, config=str(EXAMPLE), mode="in", strict=True)
    assert [r.mode for r in run.regions] and all(r.mode == "in" for r in run.regions)
    for out in w.outputs:
        np.testing.assert_allclose(run.outputs[out], expected[out], rtol=2e-4, atol=1e-5)
    for i, res in enumerate(w.results):
        np.testing.assert_allclose(run.results[i], expected[res], rtol=2e-4, atol=1e-4)


def test_the_machine_changes_what_a_run_costs():
    w = WORKLOADS["vec_add"]
    sizes = w.sizes("small")
    args = {a: w.inputs(sizes)[a] if a in w.inputs(sizes) else int(sizes[a]) for a in w.args}
    mine = api.run(w.path, args, config=str(EXAMPLE), mode="in")
    base = api.run(w.path, args, config="small-16", mode="in")
    assert mine.report.stats.total_energy_pj != base.report.stats.total_energy_pj


def test_a_bad_field_in_a_copy_of_the_example_is_one_line(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(EXAMPLE.read_text().replace("banks = 8", "banks = 9"))
    proc = subprocess.run(
        [str(Path(sys.executable).parent / "infs-run"), str(WORKLOADS["vec_add"].path), "--config", str(bad)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode != 0
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert "bad.toml" in lines[0] and "banks (9) must equal mesh_rows x mesh_cols (2x4)" in lines[0]


def _doc_names() -> set[str]:
    return set(re.findall(r"^\| `([a-z_0-9.\-]+)`", DOC.read_text(), re.M))


def test_the_doc_lists_every_field_energy_constant_built_in_and_profile():
    names = _doc_names()
    assert {f.name for f in fields(HardwareConfig)} - {"energy_pj"} <= names, "fields missing from docs/hardware.md"
    assert {f"energy.{k}" for k in DEFAULT_ENERGY_PJ} <= names, "energy constants missing from docs/hardware.md"
    assert set(BUILTIN) <= names, "built-in configs missing from docs/hardware.md"
    text = DOC.read_text()
    for p in PROFILES:
        assert f"`{p}`" in text


def test_the_doc_lists_each_field_under_its_part_s_section():
    """docs/hardware.md's field tables are the config file's sections: `### `[sram]`: ...`."""
    section = None
    seen = set()
    for line in DOC.read_text().splitlines():
        heading = re.match(r"^### `\[([a-z]+)\]`", line)
        if line.startswith("#"):
            section = heading.group(1) if heading else None
        row = re.match(r"^\| `([a-z_0-9]+)(?:\.[a-z_0-9]+)?` \|", line)
        if row and row.group(1) in PART_OF:
            part = PART_OF[row.group(1)]
            assert section == part.section, f"docs/hardware.md: {row.group(1)} is listed under [{section}], it is a field of [{part.section}]"
            seen.add(row.group(1))
        elif line.startswith("| `energy."):
            assert section == "energy", f"docs/hardware.md: {line.split('|')[1].strip()} is listed under [{section}]"
    assert seen == set(PART_OF) - {"energy_pj"}


def test_the_doc_s_defaults_are_the_code_s():
    """Each field row reads `| `field` | unit | range | paper-64 default | ...`."""
    default = HardwareConfig(name="paper-64")
    rows = re.findall(r"^\| `([a-z_0-9]+)` \|[^|]*\|[^|]*\| `([^`]*)` \|", DOC.read_text(), re.M)
    seen = 0
    for name, shown in rows:
        if name in {f.name for f in fields(HardwareConfig)}:
            value = getattr(default, name)
            want = str(value).lower() if isinstance(value, bool) else (repr(value) if isinstance(value, float) else str(value))
            assert shown == want, f"docs/hardware.md: {name} default {shown}, the code's is {want}"
            seen += 1
    assert seen >= len(fields(HardwareConfig)) - 2  # name and energy_pj have no default row


def test_the_doc_shows_the_example_file_as_it_is():
    blocks = re.findall(r"```toml\n(.*?)```", DOC.read_text(), re.S)
    assert EXAMPLE.read_text() in blocks, "docs/hardware.md's toml block differs from examples/hardware/my-machine.toml"
