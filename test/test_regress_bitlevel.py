"""Red-team regressions of the simulator's bit-level mode (``infs/sim/sram/bitlevel.py``,
``infs/sim/sram/bit_kernels.py``, ``Machine._exec_compute``'s bit-level branch).

A test named after a bug failed before its fix (its docstring says what was wrong);
the differential tests below guard what the red-team generators checked."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from infs import api
from infs.element_types import COMPARE_OPS, ELEMENT_BITS, WORD_TYPES, is_float_element
from infs.dialects.lattice import Pattern
from infs.dialects.pimcmd_schema import COMPUTE_ARITY
from infs.hardware import ConfigError, load_config
from infs.runtime.driver import RunOptions, run_program
from infs.sim import Machine
from infs.sim.sram.bitlevel import BitSerial
from infs.workloads import WORKLOADS


def test_bit_serial_commands_on_several_threads_give_each_its_own_words():
    """The plane buffers kept between commands (``bitlevel.scratch``) were one set
    per process, and the kernels release the GIL: two threads running bit-level
    commands (two machines, e.g. ``api.run`` from a thread pool) wrote each
    other's operand planes, a silent wrong answer on every bitline.  Buffers
    are per thread now."""
    n = 1 << 16
    rng = np.random.default_rng(0)
    data = [(rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32), rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)) for _ in range(4)]
    want = [a * b for a, b in data]
    BitSerial(64).run("mul", "i32", [data[0][0][:64], data[0][1][:64]])  # compile the kernels first
    wrong: list[tuple[int, int]] = []
    start = threading.Barrier(len(data))

    def work(i: int) -> None:
        start.wait()
        for _ in range(6):
            got = BitSerial(n).run("mul", "i32", list(data[i]))
            if not np.array_equal(got, want[i]):
                wrong.append((i, int(np.count_nonzero(got != want[i]))))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(data))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not wrong, f"(thread, wrong words): {wrong}"


_NO_WRITABLE_CACHE = """
import numba.core.caching as caching
# neither the package's __pycache__ nor the user's cache directory is writable
caching.InTreeCacheLocator.from_function = classmethod(lambda cls, f, p: None)
caching.UserWideCacheLocator.from_function = classmethod(lambda cls, f, p: None)
import numpy as np
from infs.sim.sram.bitlevel import BitSerial
a = np.arange(64, dtype=np.uint32)
print(BitSerial(64).run("mul", "i32", [a, a + 1]).tolist() == (a * (a + 1)).tolist())
"""


def test_bit_level_mode_runs_where_numba_can_cache_nowhere():
    """The kernels are compiled with numba's ``cache=True``, which refuses to
    compile at all (``RuntimeError: cannot cache function '_swap': no locator
    available``, a traceback on the first bit-level command) when neither the
    installed package's directory nor the user's cache directory is writable (a
    read-only install and HOME).  The kernels are compiled into a private
    directory then."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    proc = subprocess.run([sys.executable, "-c", _NO_WRITABLE_CACHE], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0 and proc.stdout.strip() == "True", proc.stderr[-2000:]


# ---------------------------------------------------------------------------
# Differential: bit-level == word-level (functional) on what the other tests
# do not draw: every element type (f64/i64 too), NaN/inf/-0.0 and integer
# edge values, random small machines (bitlines 1, 3, 5, 24 ... -- no multiple
# of 8 or 64 -- one bank), programs of several commands whose registers
# overlap (a source is the destination, or shares some of its wordlines).
# ---------------------------------------------------------------------------


_SPECIAL = {
    "f32": np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1.0, -1.0, 1e-45, 3.4e38], np.float32).view(np.uint32),
    "f64": np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1.0, -1.0, 5e-324, 1.7e308], np.float64).view(np.uint64),
}


def _words(rng: np.random.Generator, ty: str, n: int) -> np.ndarray:
    """Raw register words of ``ty``: random bits, 40% of them edge values."""
    bits = ELEMENT_BITS[ty]
    if bits == 1:
        return rng.integers(0, 2, n).astype(np.uint8)
    w = WORD_TYPES[bits]
    raw = rng.integers(0, 2**64, n, dtype=np.uint64).astype(w)
    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    edge = _SPECIAL[ty] if is_float_element(ty) else np.array([0, 1, -1, 2, -2, lo, hi], np.int64).astype(f"int{bits}").view(w)
    pick = rng.random(n) < 0.4
    raw[pick] = edge[rng.integers(0, len(edge), int(pick.sum()))]
    return raw


def _pattern(rng: np.random.Generator, n: int) -> Pattern:
    start, levels = int(rng.integers(0, n)), []
    hi = start
    for _ in range(int(rng.integers(1, 3))):
        room = n - 1 - hi
        if room == 0:
            levels.append((1, 1))
            continue
        stride = int(rng.integers(1, room + 1))
        count = int(rng.integers(1, room // stride + 2))
        levels.append((stride, count))
        hi += stride * (count - 1)
    return Pattern(start, tuple(levels))


def _const_text(rng: np.random.Generator, ty: str) -> str:
    bits = ELEMENT_BITS[ty]
    v = _words(rng, ty, 1)[0]
    if is_float_element(ty):
        x = float(v.view(np.float32 if bits == 32 else np.float64))
        return "1.5" if not np.isfinite(x) else f"{x:.17e}"  # MLIR float literals need a '.'
    x = int(v)
    return str(x - (1 << bits) if bits > 1 and x >= 1 << (bits - 1) else x)


def _random_program(rng: np.random.Generator):
    """(config, program text, [(wordline, bits, raw words)]) or None when the draw is no machine."""
    kw: dict = {"bitlines": int(rng.choice([1, 2, 3, 5, 8, 12, 24, 64, 100])), "arrays_per_way": int(rng.choice([1, 2]))}
    if rng.random() < 0.3:
        kw.update(banks=1, mesh_rows=1, mesh_cols=1, mem_ctrls=1)
    try:
        cfg = load_config("tiny", **kw)
    except ConfigError:
        return None
    bl = cfg.bitlines
    tiles, rest = [], bl
    for _ in range(int(rng.integers(0, 2))):
        d = int(rng.choice([d for d in range(1, rest + 1) if rest % d == 0]))
        tiles.append(d)
        rest //= d
    tiles.append(rest)
    lattice = [t * int(rng.integers(1, 3)) - int(rng.integers(0, t)) for t in tiles]
    grid = [-(-s // t) for s, t in zip(lattice, tiles)]
    ntiles = int(np.prod(grid))
    if ntiles > cfg.banks * cfg.arrays_per_bank:
        return None
    body, init = [], []
    for _ in range(int(rng.integers(1, 5))):
        op = str(rng.choice(list(COMPUTE_ARITY)))
        ty = str(rng.choice(list(ELEMENT_BITS)))
        bits = ELEMENT_BITS[ty]
        arity = COMPUTE_ARITY[op]
        const = ""
        if arity >= 2 and op != "select" and rng.random() < 0.3:
            const = f" const {_const_text(rng, ty)}"
            arity -= 1
        sbits = [1 if op == "select" and i == 0 else bits for i in range(arity)]
        dbits = 1 if op in COMPARE_OPS else bits
        srcs = [int(rng.integers(0, cfg.wordlines - b + 1)) for b in sbits]
        dst = srcs[-1] if sbits[-1] == dbits and rng.random() < 0.3 else int(rng.integers(0, cfg.wordlines - dbits + 1))
        body.append(f"  pimcmd.compute {op} {ty} dst {dst} srcs {srcs}{const} bitlines {_pattern(rng, bl)} tiles {_pattern(rng, ntiles)}")
        init += [(s, b, _words(rng, "i1" if b == 1 else ty, cfg.total_bitlines)) for s, b in zip(srcs, sbits)]
    text = (f"pimcmd.program config tiny lattice {lattice} tiles {tiles} banks {cfg.banks} "
            f"arrays_per_bank {cfg.arrays_per_bank} wordlines {cfg.wordlines} {{\n" + "\n".join(body) + "\n}")  # fmt: skip
    return cfg, text, init


def _wordlines(m: Machine) -> np.ndarray:
    """Every wordline's bit on every bitline (the whole register file)."""
    r = m.regs
    zero = np.zeros(r.cells, np.uint8)
    return np.stack([b if (b := r._bit(w)) is not None else zero for w in range(r.wordlines)])


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1))
def test_bitlevel_equals_word_level_on_random_programs_and_machines(seed):
    drawn = _random_program(np.random.default_rng(seed))
    if drawn is None:
        return
    cfg, text, init = drawn
    (prog,) = api.parse_text(text).body.block.ops
    got = {}
    for mode in ("functional", "bitlevel"):
        m = Machine(cfg, mode=mode)
        for start, bits, raw in init:
            m.regs.write_view(start, bits)[:] = raw
        m.run(prog)
        got[mode] = (_wordlines(m), m.stats)
    assert np.array_equal(got["bitlevel"][0], got["functional"][0]), text
    assert got["bitlevel"][1].same_costs(got["functional"][1]) and got["bitlevel"][1].cycles == got["functional"][1].cycles, text


# ---------------------------------------------------------------------------
# Whole programs: the paper's workloads rewritten over integers run the
# bit-serial algorithms (f32 arithmetic would fall back to word level), with
# full-range values that wrap; bit-level == functional in outputs and in every
# statistic.
# ---------------------------------------------------------------------------


_INT = {"i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64}


def _as_integers(text: str, ty: str) -> str:
    text = text.replace(" fastmath<reassoc,contract>", "")
    for f, i in (("addf", "addi"), ("mulf", "muli"), ("subf", "subi"), ("divf", "divsi"), ("maximumf", "maxsi")):
        text = text.replace(f"arith.{f}", f"arith.{i}")
    return text.replace("0.0 : f32", "0 : f32").replace("0.5 : f32", "3 : f32").replace("f32", ty)


@pytest.mark.parametrize(("name", "ty"), [("stencil2d", "i16"), ("mm_inner", "i64"), ("gauss_elim", "i8"), ("gather_mlp_inner", "i32")])
def test_integer_workloads_bit_level_equals_functional(name, ty):
    w = WORKLOADS[name]
    sizes = w.sizes("small")
    text = _as_integers(w.text(), ty)
    info = np.iinfo(_INT[ty])
    got = {}
    for mode in ("functional", "bitlevel"):
        inputs = w.inputs(sizes, seed=3)
        rng = np.random.default_rng(5)
        for k, v in inputs.items():
            if v.dtype == np.float32:
                inputs[k] = rng.integers(info.min, info.max, v.shape, dtype=_INT[ty], endpoint=True)
        args = {**inputs, **{k: v for k, v in sizes.items() if k in w.args}}
        rep = run_program(api.parse_text(text), args, w.entry, RunOptions(config="small-16", mode="in", machine_mode=mode))
        assert all(r.mode == "in" for r in rep.regions)
        got[mode] = ({k: inputs[k].tobytes() for k in w.outputs}, rep.machine.stats)
    (fo, fs), (bo, bs) = got["functional"], got["bitlevel"]
    assert fo == bo
    assert bs.same_costs(fs) and bs.cycles == fs.cycles
    assert bs.bitlevel_fallbacks == 0 and bs.bit_steps["writes"] > 0
