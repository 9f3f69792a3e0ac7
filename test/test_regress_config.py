"""Regressions of hardware configs, memref sizes and literals: hardware
configs given as files work everywhere a built-in name does; every config
field has a type and a range checked at load time; literals out of range are
located one-line errors; pattern bounds are checked without expanding.

Each test failed before its fix (noted per test)."""

from __future__ import annotations

import json
import math
import os
import re
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from infs import api
from infs.dialects import pimcmd as pc
from infs.dialects import tdfg
from infs.dialects.lattice import LatticeError, Pattern
from infs.hardware import BUILTIN, FIELD_RANGES, PART_OF, PARTS, HardwareConfig, config_spec, load_config
from infs.hardware.part_fields import ConfigError
from infs.hardware.sram import MAX_TOTAL_BITLINES
from infs.passes.lower_pim.choose_layout import ChooseLayoutPass, _factorizations
from infs.passes.lower_pim.lower_pim import LowerPimPass
from infs.passes.specialize import SpecializePass
from infs.passes.lower_pim.tdfg_to_pimcmd import TdfgToPimcmdPass
from infs.passes.tensorize import TensorizePass
from infs.runtime import jit

ROOT = Path(__file__).resolve().parents[1]
WORKLOADS = ROOT / "infs" / "workloads"
BIN = Path(sys.executable).parent
VEC_ADD = (WORKLOADS / "vec_add.mlir").read_text()


@contextmanager
def time_limit(seconds: int):
    """Fail (instead of hanging the suite) if the block takes longer."""

    def boom(*_):
        raise TimeoutError(f"took more than {seconds} s")

    old = signal.signal(signal.SIGALRM, boom)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _write(path: Path, fields: dict, fmt: str) -> Path:
    if fmt == "json":
        path.write_text(json.dumps(fields))
    else:
        lines = []
        for k, v in fields.items():
            if isinstance(v, dict):
                continue
            lines.append(f"{k} = {json.dumps(v)}")
        for k, v in fields.items():
            if isinstance(v, dict):
                lines.append(f"[{k}]")
                lines.extend(f"{kk} = {json.dumps(vv)}" for kk, vv in v.items())
        path.write_text("\n".join(lines) + "\n")
    return path


def _programs(module) -> list[pc.ProgramOp]:
    return [op for op in module.walk() if isinstance(op, pc.ProgramOp)]


MINE = {"name": "mine", "base": "small-16", "bitlines": 48, "profile": "pimeval-bitsimd-v", "energy": {"dram_byte": 99.5}}


# ---------------------------------------------------------------------------
# Config files everywhere a built-in name works
# (before: "ConfigError: unknown hardware config 'mine'" -- reloaded by name)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["toml", "json"])
def test_api_run_pipeline_with_a_config_file(tmp_path, fmt):
    path = _write(tmp_path / f"mine.{fmt}", MINE, fmt)
    cfg = load_config(path)
    module = api.parse_text(VEC_ADD)
    api.run_pipeline(module, f'tensorize,lower-pim{{sizes="N=100" config="{path}"}}')
    (prog,) = _programs(module)
    assert prog.config.data == cfg.spec and load_config(prog.config.data) == cfg
    assert prog.bitlines == 48 and prog.num_banks == 16
    # the pass objects too
    module = api.parse_text(VEC_ADD)
    api.run_pipeline(module, [TensorizePass(), LowerPimPass(sizes="N=100", config=str(path))])
    assert load_config(_programs(module)[0].config.data) == cfg


def test_each_lower_pim_step_with_a_config_file(tmp_path):
    path = _write(tmp_path / "mine.toml", MINE, "toml")
    module = api.parse_text(VEC_ADD)
    api.run_pipeline(module, [TensorizePass(), SpecializePass("N=100"), ChooseLayoutPass(str(path))])
    # the laid-out graph goes through text (another infs-opt run) before the next step
    module = api.parse_text(api.to_text(module))
    api.run_pipeline(module, [TdfgToPimcmdPass()])
    (prog,) = _programs(module)
    assert load_config(prog.config.data) == load_config(path) and prog.tile_shape == (48,)


def test_jit_with_a_config_file_and_its_printed_program(tmp_path):
    path = _write(tmp_path / "mine.json", MINE, "json")
    module = api.parse_text(VEC_ADD)
    api.run_pipeline(module, "tensorize")
    (g,) = [op for op in module.walk() if isinstance(op, tdfg.GraphOp)]
    lowered = jit.lower(g, {"N": 100}, str(path))
    assert lowered.record.config == load_config(path).spec
    text = api.to_text(lowered.program)
    holder = _wrap_program(text, lowered.record)
    (prog,) = _programs(api.parse_text(holder))
    assert load_config(prog.config.data) == load_config(path)


def _wrap_program(text: str, rec) -> str:
    """A detached program op printed with its own operand names, inside a function that defines them."""
    names = re.match(r"\s*pimcmd\.program ins\(([^:]*):", text)
    assert names
    operands = [n.strip() for n in names.group(1).split(",")]
    args = ", ".join(f"{n}: {t}" for n, t in zip(operands, rec.arg_types))
    return f"func.func @f({args}) {{\n{text}\n  func.return\n}}\n"


def test_printed_program_keeps_its_machine_when_the_file_changes(tmp_path):
    """The program records the machine, not the file: editing the file after
    printing cannot silently make it another machine."""
    path = _write(tmp_path / "mine.toml", MINE, "toml")
    before = load_config(path)
    module = api.parse_text(VEC_ADD)
    api.run_pipeline(module, f'tensorize,lower-pim{{sizes="N=100" config="{path}"}}')
    text = api.to_text(module)
    _write(path, {**MINE, "bitlines": 64}, "toml")
    (prog,) = _programs(api.parse_text(text))
    assert load_config(prog.config.data) == before != load_config(path)
    path.unlink()
    (prog,) = _programs(api.parse_text(text))
    assert load_config(prog.config.data) == before


def test_a_builtin_with_overrides_is_recorded_inline():
    cfg = load_config("small-16", bitlines=16)
    assert cfg.name == "small-16" and cfg.spec != "small-16"
    assert load_config(cfg.spec) == cfg and load_config(cfg.spec) != load_config("small-16")
    for name in BUILTIN:
        assert load_config(name).spec == name


def test_an_inline_config_named_after_a_builtin_is_that_builtin_changed():
    # NAME{...} lists what differs from the built-in NAME (not from paper-64):
    # a hand-written 'small-16{wordlines=512}' is small-16 with 512 wordlines
    assert load_config("small-16{wordlines=512}") == load_config("small-16", wordlines=512)
    assert load_config("tiny{energy.dram_byte=1.0}").energy_pj["dram_byte"] == 1.0
    assert load_config("tiny{energy.dram_byte=1.0}").bitlines == load_config("tiny").bitlines
    for name in BUILTIN:
        changed = load_config(name, wordlines=128 if load_config(name).wordlines != 128 else 64)
        assert changed.spec == f"{name}{{wordlines={changed.wordlines}}}"
        assert load_config(changed.spec) == changed


def test_program_with_a_mismatched_inline_config_fails_verification(tmp_path):
    path = _write(tmp_path / "mine.toml", MINE, "toml")
    module = api.parse_text(VEC_ADD)
    api.run_pipeline(module, f'tensorize,lower-pim{{sizes="N=100" config="{path}"}}')
    text = api.to_text(module).replace("bitlines=48", "bitlines=96")
    with pytest.raises(api.InfsError, match=r"<input>:\d+:\d+: error: 'pimcmd.program' op tiles \[48\] cover 48 bitlines but its config 'mine' has 96 bitlines"):
        api.parse_text(text)


@st.composite
def config_fields(draw) -> dict:
    """Fields of a valid machine: the issue's ranges (banks, mesh, ways, arrays
    per way, bitlines 16..512 -- any width --, wordlines 64..512) and more."""
    rows, cols = draw(st.integers(1, 8)), draw(st.integers(1, 8))
    ways = draw(st.integers(1, 4))
    compute = draw(st.integers(1, ways))
    per_way = draw(st.integers(1, 16))
    degree = draw(st.sampled_from([2, 4]))
    need = max(1, math.ceil(math.log(compute * per_way, degree) - 1e-9))
    f = {
        "mesh_rows": rows, "mesh_cols": cols, "banks": rows * cols, "ways": ways, "compute_ways": compute,
        "arrays_per_way": per_way, "bitlines": draw(st.one_of(st.sampled_from([16, 32, 64, 128, 256, 512]), st.integers(16, 512))),
        "wordlines": draw(st.integers(64, 512)), "htree_degree": degree, "htree_levels": need + draw(st.integers(0, 2)),
        "mem_ctrls": draw(st.integers(1, 2 * rows)), "host_tile": draw(st.integers(0, rows * cols - 1)),
    }  # fmt: skip
    if draw(st.booleans()):
        f["profile"] = draw(st.sampled_from(["infs", "pimeval-bitsimd-v"]))
    if draw(st.booleans()):
        f["freq_ghz"] = draw(st.floats(0.5, 4.0))
    if draw(st.booleans()):
        f["multicast"] = draw(st.booleans())
    if draw(st.booleans()):
        f["energy"] = {"dram_byte": draw(st.floats(0, 500)), "noc_byte_hop": draw(st.integers(0, 5))}
    return f


@settings(max_examples=60, deadline=None)
@given(config_fields(), st.sampled_from(["toml", "json"]), st.sampled_from(["", "x", "my config", "a{b}", "tiny"]))
def test_config_spec_reloads_the_same_machine(tmp_path_factory, fields, fmt, name):
    d = tmp_path_factory.mktemp("spec")
    path = _write(d / f"c.{fmt}", {**({"name": name} if name else {}), **fields}, fmt)
    cfg = load_config(path)
    assert load_config(cfg.spec) == cfg
    assert config_spec(load_config(cfg.spec)) == cfg.spec


# ---------------------------------------------------------------------------
# A config file has one section per part of the machine
# ---------------------------------------------------------------------------


def _in_sections(fields: dict) -> dict:
    """The same fields, each in its part's section ([sram], [noc], ...)."""
    out: dict = {}
    for k, v in fields.items():
        if k in ("name", "base", "energy"):
            out[k] = v
        else:
            out.setdefault(PART_OF[k].section, {})[k] = v
    return out


@settings(max_examples=40, deadline=None)
@given(config_fields(), st.sampled_from(["toml", "json"]))
def test_a_file_in_sections_is_the_machine_of_the_same_fields_at_the_top(tmp_path_factory, fields, fmt):
    d = tmp_path_factory.mktemp("sections")
    flat = load_config(_write(d / f"flat.{fmt}", {"name": "m", **fields}, fmt))
    sectioned = _in_sections(fields)
    assert len(sectioned) > 2  # the fields drawn span several parts
    assert load_config(_write(d / f"parts.{fmt}", {"name": "m", **sectioned}, fmt)) == flat
    assert load_config({"name": "m", **sectioned}) == flat  # a dict takes the sections too


def test_every_field_belongs_to_one_part_and_each_part_is_a_section():
    from dataclasses import fields

    owners = [f.name for part in PARTS for f in part.fields]
    assert sorted(owners) == sorted(f.name for f in fields(HardwareConfig) if f.name != "name")  # each once
    assert [p.section for p in PARTS] == ["sram", "near", "core", "noc", "dram", "energy"]
    for part in PARTS:  # every part's defaults are paper-64's
        for f in part.fields:
            default = f.default() if callable(f.default) else f.default
            assert getattr(load_config("paper-64"), f.name) == default, f.name


SECTION_ERRORS = [
    # (content, what the one line says)
    ("[sram]\nmesh_rows = 2\n", "[sram] has no field \"mesh_rows\" (it is a field of [noc])"),
    ("[noc]\nbogus = 2\n", "[noc] has no field \"bogus\""),
    ("[sarm]\nbitlines = 32\n", "[sarm] is not a section (the parts: [sram], [near], [core], [noc], [dram], [energy])"),
    ("[sram]\nbitlnes = 32\n", "[sram] has no field \"bitlnes\""),
    ("bitlnes = 32\n", "unknown fields ['bitlnes']"),
    ("bitlines = 64\n[sram]\nbitlines = 32\n", "bitlines is given twice (at the top level and in [sram])"),
    ("sram = 3\n", "sram must be a table (the [sram] section: the L3's SRAM arrays"),
    ("energy_pj = {dram_byte = 1.0}\n[energy]\ndram_byte = 2.0\n", "give the energy constants once, as [energy] or energy_pj"),
    ("[sram]\nbitlines = 0\n", "bitlines must be a positive integer at most 4096, got 0"),
    ("[dram]\nmem_ctrls = 99\n", "mem_ctrls: 99 memory controllers do not fit on the mesh's two edge columns (16 places)"),
    ("[noc]\nmesh_rows = 3\n", "banks (64) must equal mesh_rows x mesh_cols (3x8)"),
]


@pytest.mark.parametrize("content, says", SECTION_ERRORS, ids=[s[1][:30] for s in SECTION_ERRORS])
def test_a_field_in_the_wrong_section_or_twice_is_one_line_naming_it(tmp_path, content, says):
    path = tmp_path / "m.toml"
    path.write_text(content)
    with pytest.raises(ConfigError) as e:
        load_config(path)
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith(f"invalid hardware config file '{path}': "), msg
    assert says in msg, msg


def test_a_dict_in_sections_names_the_config_in_its_error():
    with pytest.raises(ConfigError, match=r"^invalid hardware config 'd': \[core\] has no field \"bitlines\" \(it is a field of \[sram\]\)$"):
        load_config({"name": "d", "core": {"bitlines": 8}})


# ---------------------------------------------------------------------------
# Every field has a type and a range, checked at load time
# ---------------------------------------------------------------------------

BAD_FILES = [
    # (file name, content, field named in the message); before: accepted, or a TypeError/ValueError without the file
    ("huge-bitlines.toml", "bitlines = 99999999999999999999\n", "bitlines"),
    ("big-bitlines.toml", "bitlines = 1099511627776\n", "bitlines"),  # used to hang choose-layout
    ("huge-banks.toml", "mesh_rows = 100000\nmesh_cols = 100000\nbanks = 10000000000\n", "mesh_rows"),  # MemoryError
    ("total.toml", "arrays_per_way = 1024\nbitlines = 4096\nhtree_levels = 8\n", "bitlines"),
    ("energy-int.toml", "energy_pj = 5\n", "energy"),  # TypeError
    ("energy-str.toml", '[energy]\ndram_byte = "x"\n', "energy.dram_byte"),
    ("energy-inf.toml", "[energy]\ndram_byte = inf\n", "energy.dram_byte"),
    ("energy-unknown.toml", "[energy]\nbogus = 1.0\n", "energy"),
    ("freq-inf.toml", "freq_ghz = inf\n", "freq_ghz"),  # accepted, then ZeroDivisionError
    ("freq-nan.toml", "freq_ghz = nan\n", "freq_ghz"),
    ("freq-zero.toml", "freq_ghz = 0.0\n", "freq_ghz"),
    ("dram-inf.toml", "dram_gbps = inf\n", "dram_gbps"),
    ("multicast.toml", "multicast = 1\n", "multicast"),  # any value was accepted
    ("banks-float.toml", "mesh_rows = 2\nmesh_cols = 2\nbanks = 4.0\n", "banks"),
    ("bool-int.toml", "bitlines = true\n", "bitlines"),
    ("profile.toml", "profile = 3\n", "profile"),
    ("name.toml", "name = 7\n", "name"),
    ("base.toml", "base = 5\n", "base"),
    ("latency.toml", "l3_latency = 99999999999\n", "l3_latency"),
    ("cores.json", '{"cores": 1e400}', "cores"),
    ("bitlines.json", '{"bitlines": 1e400}', "bitlines"),
    ("degree.json", '{"htree_degree": 1}', "htree_degree"),
]


@pytest.mark.parametrize("fname, content, field", BAD_FILES, ids=[b[0] for b in BAD_FILES])
def test_bad_config_file_is_one_line_naming_file_and_field(tmp_path, fname, content, field):
    path = tmp_path / fname
    path.write_text(content)
    with time_limit(10), pytest.raises(ConfigError) as e:
        load_config(path)
    msg = str(e.value)
    # one line; the part after the file name stays short (an unknown energy key lists the known ones)
    assert "\n" not in msg and len(msg) - len(str(path)) < 300, msg
    assert msg.startswith(f"invalid hardware config file '{path}': "), msg
    assert re.search(rf"(^|[\s:]){re.escape(field)}\b", msg.split(": ", 1)[1]), msg


def test_unreadable_config_files_name_the_file(tmp_path):
    binary = tmp_path / "binary.toml"
    binary.write_bytes(bytes(range(256)) * 4)
    d = tmp_path / "dir.toml"
    d.mkdir()
    digits = tmp_path / "digits.json"
    digits.write_text('{"banks": ' + "9" * 5000 + "}")
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100000 + "]" * 100000)
    for path, words in ((binary, "not a UTF-8 text file"), (d, "is a directory"), (digits, "digits"), (deep, "")):
        with pytest.raises(ConfigError) as e:
            load_config(path)
        msg = str(e.value)
        assert msg.startswith(f"invalid hardware config file '{path}': ") and words in msg and "\n" not in msg


def test_every_field_has_a_range():
    from dataclasses import fields

    assert {f.name for f in fields(HardwareConfig)} == set(FIELD_RANGES)
    for name in BUILTIN:  # the built-ins are inside the ranges
        load_config(name)


def test_the_largest_valid_machine_loads_and_lays_out_quickly():
    """Total bitlines are bounded (the simulator's dense vectors); choose-layout's
    divisor enumeration is fast for every valid width."""
    cfg = load_config("paper-64", bitlines=4096, arrays_per_way=4, compute_ways=16)
    assert cfg.total_bitlines == MAX_TOTAL_BITLINES
    with pytest.raises(ConfigError, match="2\\^24"):
        load_config("paper-64", bitlines=4096, arrays_per_way=8)
    with time_limit(20):
        for width in (4096, 3840, 2520, 4093):
            for rank in (1, 2, 3, 4):
                assert all(math.prod(t) == width for t in _factorizations(width, rank))


def test_divisor_enumeration_is_not_linear_in_the_width():
    """Before: a scan of 1..n per level (2^31 - 1 bitlines: minutes)."""
    with time_limit(10):
        assert _factorizations(2**31 - 1, 2) == [(1, 2**31 - 1), (2**31 - 1, 1)]


def _cli(tool: str, *args: str, timeout: int = 120) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / tool), *args], capture_output=True, text=True, timeout=timeout, cwd=ROOT)


@pytest.mark.parametrize("content", ["energy_pj = 5\n", "freq_ghz = inf\n", "bitlines = 99999999999999999999\n", b"\x00\xff\xfe binary"])
def test_infs_run_bad_config_is_one_line(tmp_path, content):
    path = tmp_path / "bad.toml"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    r = _cli("infs-run", str(WORKLOADS / "vec_add.mlir"), "--config", str(path), "--mode", "in")
    assert r.returncode == 1, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and str(path) in lines[0] and "internal error" not in r.stderr and "Traceback" not in r.stderr


# ---------------------------------------------------------------------------
# Literals
# ---------------------------------------------------------------------------


def test_a_5000_digit_constant_is_a_located_error():
    text = "func.func @f() -> i32 {\n  %c = arith.constant " + "9" * 5000 + " : i32\n  func.return %c : i32\n}\n"
    with pytest.raises(api.InfsError, match=r"^<input>:2:23: error: integer literal of 5000 digits is too long"):
        api.parse_text(text)


@pytest.mark.parametrize(
    "literal",
    ["2.000000e+64 : f32", "0xFFF0000000000000 : f32", "0x1FFFF : f16", "1.0e400 : f64"],
)
def test_a_float_literal_out_of_range_of_its_type_is_a_located_error(literal):
    """Found by make fuzz: xDSL packs the literal into the type's width and an
    OverflowError escaped (an internal error of infs-opt and infs-run)."""
    text = "func.func @f() {\n  %c = arith.constant " + literal + "\n  func.return\n}\n"
    try:
        api.parse_text(text)
    except api.InfsError as e:
        assert re.match(r"^<input>:2:\d+: error: ", str(e)) and "\n" not in str(e).strip(), str(e)
    else:  # a literal that parses (1.0e400 is inf, as in Python) must keep its value's meaning
        assert literal.startswith("1.0e400")


def test_a_memref_size_beyond_int64_is_a_located_error():
    text = VEC_ADD.replace("memref<?xf32>", "memref<99999999999999999999xf32>")
    with pytest.raises(api.InfsError, match=r"^<input>:3:\d+: error: shape dimension 99999999999999999999 out of the signed 64-bit range"):
        api.parse_text(text)


def test_infs_run_memref_size_beyond_int64(tmp_path):
    f = tmp_path / "big.mlir"
    f.write_text(VEC_ADD.replace("memref<?xf32>", "memref<99999999999999999999xf32>"))
    r = _cli("infs-run", str(f), "--sizes", "n=100", "--mode", "in")
    assert r.returncode == 1 and re.fullmatch(rf"infs-run: {re.escape(str(f))}:3:\d+: error: shape dimension .*\n", r.stderr), r.stderr


PROGRAM = """func.func @f(%A: memref<4x4xf32>) {{
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {{
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.compute add f32 dst 64 srcs [0, 32] bitlines {bitlines} tiles {tiles}
  }}
  func.return
}}
"""


@pytest.mark.parametrize(
    "bitlines, tiles, words",
    [
        # (sizes that numpy refuses at once, so that a regression fails instead of filling the memory)
        ("0:1:4", "0:1:300000000000", "tile pattern 0:1:300000000000 reaches tile 299999999999 of 4"),
        ("0:1:4", "0:1:3000000000000000000", "reaches tile 2999999999999999999 of 4"),
        ("0:0:3000000000000000000", "0:1:4", "selects 3000000000000000000 bitlines x 4 tiles: more than any machine has cells"),
        ("0:1:4" + ":0:2" * 40, "0:1:1", "selects 4398046511104 bitlines x 1 tiles"),  # indices 0..3, 2^40 times over
        ("0:1:4:4:1000000000000", "0:1:4", "reaches bitline 3999999999999 of 4"),
    ],
)
def test_pattern_bounds_are_checked_without_expanding(bitlines, tiles, words):
    """Before: the verifier expanded the patterns (4.6 GB, 14 s for 0:1:300000000; here a MemoryError)."""
    t0 = time.perf_counter()
    with pytest.raises(api.InfsError) as e:
        api.parse_text(PROGRAM.format(bitlines=bitlines, tiles=tiles))
    assert time.perf_counter() - t0 < 2.0
    assert words in str(e.value) and "'pimcmd.compute' op" in str(e.value)


def test_pattern_mask_checks_bounds_first():
    with time_limit(5), pytest.raises(LatticeError, match="leaves"):
        Pattern(0, ((1, 10**12),)).mask(16)
    assert Pattern(1, ((2, 3),)).max_index == 5 and Pattern(5, ((-2, 3),)).min_index == 1


@pytest.mark.parametrize(
    "text",
    [
        "lattice [99999999999999999999, 4] tiles [2, 2]",
        "lattice [4, 4] tiles [2, 2] banks 99999999999999999999",
        "lattice [4, 4] tiles [2, 2] banks -9223372036854775809",
    ],
)
def test_program_literals_out_of_int64_are_located(text):
    """Before: ValueError/OverflowError (internal error)."""
    base = PROGRAM.format(bitlines="0:1:4", tiles="0:1:4")
    bad = base.replace("lattice [4, 4] tiles [2, 2] banks 2", text + (" banks 2" if "banks" not in text else ""))
    with pytest.raises(api.InfsError, match=r"^<input>:2:\d+: error: integer literal .* out of the signed 64-bit range"):
        api.parse_text(bad)


# ---------------------------------------------------------------------------
# Config files through the command line, on random machines from files
# ---------------------------------------------------------------------------

CLI_EXAMPLES = int(os.environ.get("INFS_CONFIG_CLI_EXAMPLES", "6"))


def _one_line_error(r: subprocess.CompletedProcess, tool: str) -> bool:
    lines = [ln for ln in r.stderr.splitlines() if not ln.startswith(f"{tool}: warning:")]
    return r.returncode == 1 and len(lines) == 1 and lines[0].startswith(f"{tool}: ")


@settings(max_examples=CLI_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(config_fields(), st.sampled_from(["toml", "json"]))
def test_cli_on_random_config_files(tmp_path, fields, fmt):
    """Any config file ``infs-run --config`` accepts works in infs-opt and
    infs-run, or fails with one line (e.g. does not fit) -- never exit 70."""
    path = _write(tmp_path / f"rand.{fmt}", fields, fmt)
    cfg = load_config(path)  # valid by construction
    note = f"{fmt} config {fields}"
    r = _cli("infs-opt", "--tensorize", f"--lower-pim=sizes=M=13,N=17 config={path}", str(WORKLOADS / "stencil2d.mlir"))
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr and r.returncode != 70, note + r.stderr
    if r.returncode == 0:
        progs = _programs(api.parse_text(r.stdout))
        assert progs and all(load_config(p.config.data) == cfg for p in progs), note
    else:
        assert _one_line_error(r, "infs-opt"), note + r.stderr
    r = _cli("infs-run", str(WORKLOADS / "stencil2d.mlir"), "--config", str(path), "--mode", "in", "--check")
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr and r.returncode != 70, note + r.stderr
    if r.returncode == 0:
        assert "check: outputs match" in r.stdout, note + r.stdout[-2000:]
    else:
        assert _one_line_error(r, "infs-run"), note + r.stderr


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("over [0]", "over [99999999999999999999]"),  # tdfg.stream_reduce dims
        ("!tdfg.tensor<f32, 1> ->", "!tdfg.tensor<f32, 99999999999999999999> ->"),  # a tensor type's rank
        ("rank 1", "rank 99999999999999999999"),  # tdfg.graph rank
    ],
)
def test_tdfg_integer_lists_out_of_int64_are_located(old, new):
    """Found by make fuzz: `tdfg.stream_reduce add %t over [99999999999999999999]` was a ValueError from
    xDSL's DenseArrayBase (infs-opt exit 70); the tdfg parsers read int64 literals like the others."""
    text = (
        "func.func @f(%A: memref<4xf32>) -> f32 {\n"
        "  %r = tdfg.graph ins(%A : memref<4xf32>) rank 1 -> f32 {\n"
        "  ^bb0(%a: memref<4xf32>):\n"
        "    %t = tdfg.tensor %a [0:4] : memref<4xf32> -> !tdfg.tensor<f32, 1>\n"
        "    %s = tdfg.stream_reduce add %t over [0] : !tdfg.tensor<f32, 1> -> f32\n"
        "    tdfg.yield %s : f32\n  }\n  func.return %r : f32\n}\n"
    )
    api.parse_text(text)
    assert old in text
    with pytest.raises(api.InfsError, match=r"^<input>:\d+:\d+: error: integer literal 99999999999999999999 out of the signed 64-bit range"):
        api.parse_text(text.replace(old, new, 1))


def test_every_part_s_fields_cite_their_source():
    """Each part's module cites the source of every field's default (benchmarks/MODEL.md
    prints it); the two without one are a choice whose options cite their own
    numbers (the cost profile: each op's latency names its source) and the table
    whose entries do (the energy constants: ``ENERGY_SOURCES``)."""
    from infs.hardware.cost_profiles import INFS_LATENCY
    from infs.hardware.energy import DEFAULT_ENERGY_PJ, ENERGY_SOURCES

    uncited = [f"[{part.section}] {f.name}" for part in PARTS for f in part.fields if not f.source.strip()]
    assert uncited == ["[sram] profile", "[energy] energy_pj"]
    assert all(lat.source.strip() for ops in INFS_LATENCY.values() for lat in ops.values())
    assert set(ENERGY_SOURCES) == set(DEFAULT_ENERGY_PJ) and all(s.strip() for s in ENERGY_SOURCES.values())
    for part in PARTS:
        assert part.title and part.section.isidentifier(), part
        for f in part.fields:
            assert f.source.strip() or f.name in ("profile", "energy_pj"), f"[{part.section}] {f.name} cites no source"
