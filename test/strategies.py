"""Shared hypothesis strategies: random machines and random stream regions.

Used by test_tensorize (tensorize + lattice evaluation), test_full_pipeline
(tensorize + JIT + simulator, ``infs-run --mode in``), test_lower_pim_e2e
(random graphs on random machines) and the fuzzers (``make fuzz``).

These are the classes simpler generators never draw; each is drawn
here on purpose, never steered around (a generator that avoids a bug class
cannot find it again):

* reductions over every non-empty subset of the iteration dims, all dims and
  non-adjacent ones included, with an optional init;
* transposed and permuted access maps (``A[d1, d0]``, ``B[d2, d0]``),
  reversed (``N + c - d0``), fixed (``k``, constants) and strided dims;
* arrays of different ranks in one region, arrays tight around what the
  region touches (the runtime's real shapes: a domain larger than one array's
  bounding box) next to arrays with slack (smaller than another);
* sizes that are odd, prime and no multiple of any tile size;
* element types i8/i16/i32/i64/f32/f64 (all held in memory: a 64-bit register
  takes 64 wordlines); static and dynamic memref shapes;
* in-place updates (a store into an array the region also loads): either a
  legal region (the reference runs it) or a loop-carried dependence (the
  reference rejects it, and so must every other path);
* machine configurations drawn at random (banks, mesh, ways, arrays per way,
  bitlines 16..512, wordlines 64..512, H-tree, profile) and loaded from a
  TOML file the way ``infs-run --config FILE`` loads them.
"""

from __future__ import annotations

import hashlib
import math
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import strategies as st

from infs.hardware import HardwareConfig, load_config

def examples(default: int, env: str | None = None) -> int:
    """Example count of a random-input test: ``env`` if set, many under ``make fuzz``
    (``INFS_FUZZ``, the hypothesis ``fuzz`` profile), else ``default`` (fast ``make test``)."""
    if env and os.environ.get(env):
        return int(os.environ[env])
    if os.environ.get("INFS_FUZZ"):
        return 2000
    return default


# ---------------------------------------------------------------------------
# Machines
# ---------------------------------------------------------------------------

_CONFIG_DIR: Path | None = None


def config_dir() -> Path:
    """Where generated TOML configs live (one directory per process)."""
    global _CONFIG_DIR
    if _CONFIG_DIR is None:
        _CONFIG_DIR = Path(tempfile.mkdtemp(prefix="infs-cfg-"))
    return _CONFIG_DIR


def toml_text(fields: dict[str, Any]) -> str:
    lines = []
    for k, v in fields.items():
        if isinstance(v, bool):
            lines.append(f"{k} = {'true' if v else 'false'}")
        elif isinstance(v, str):
            lines.append(f'{k} = "{v}"')
        else:
            lines.append(f"{k} = {v}")
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Machine:
    """A generated machine: its TOML fields, the file, and the loaded config."""

    fields: dict[str, Any]
    path: Path
    cfg: HardwareConfig

    def describe(self) -> str:
        return f"config file {self.path}:\n{toml_text(self.fields)}"


def write_config(fields: dict[str, Any], directory: Path | None = None) -> Machine:
    """Write ``fields`` as TOML (named after their hash) and load it as ``infs-run --config`` does."""
    text = toml_text({k: v for k, v in fields.items() if k != "name"})
    digest = hashlib.sha1(text.encode()).hexdigest()[:10]
    fields = {"name": f"rand-{digest}", **{k: v for k, v in fields.items() if k != "name"}}
    d = directory or config_dir()
    path = d / f"rand-{digest}.toml"
    if not path.exists():
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(toml_text(fields))
        tmp.replace(path)
    return Machine(fields, path, load_config(str(path)))


@st.composite
def machine_fields(draw, max_banks: int = 16) -> dict[str, Any]:
    """TOML fields of a valid random machine (``infs.hardware.validate``'s rules)."""
    rows = draw(st.integers(1, 4))
    cols = draw(st.integers(1, max(1, min(4, max_banks // rows))))
    banks = rows * cols
    ways = draw(st.integers(1, 4))
    compute_ways = draw(st.integers(1, ways))
    arrays_per_way = draw(st.sampled_from([1, 2, 3, 4, 5, 8, 16]))
    # bitlines 16..512: mostly powers of two, sometimes any width (a width no
    # tile shape fits, §4.1 constraint (2), must be a clean refusal)
    bitlines = draw(st.sampled_from([16, 32, 64, 128, 256, 512, 0]))
    if bitlines == 0:
        bitlines = draw(st.one_of(st.sampled_from([48, 80, 96, 192, 320, 384]), st.integers(16, 512)))
    wordlines = draw(st.one_of(st.sampled_from([64, 128, 256, 512]), st.integers(64, 512)))
    degree = draw(st.sampled_from([2, 4]))
    per_bank = compute_ways * arrays_per_way
    need = max(1, math.ceil(math.log(per_bank, degree) - 1e-9))
    f: dict[str, Any] = {
        "base": draw(st.sampled_from(["paper-64", "small-16", "tiny"])),
        "mesh_rows": rows,
        "mesh_cols": cols,
        "banks": banks,
        "ways": ways,
        "compute_ways": compute_ways,
        "arrays_per_way": arrays_per_way,
        "bitlines": bitlines,
        "wordlines": wordlines,
        "htree_degree": degree,
        "htree_levels": need + draw(st.integers(0, 1)),
        "mem_ctrls": draw(st.integers(1, 2 * rows)),
        "host_tile": draw(st.integers(0, banks - 1)),
        "profile": draw(st.sampled_from(["infs", "pimeval-bitsimd-v"])),
    }
    if draw(st.booleans()):
        f["multicast"] = draw(st.booleans())
    return f


@st.composite
def machines(draw, max_banks: int = 16) -> Machine:
    """A random machine, loaded from a TOML file."""
    return write_config(draw(machine_fields(max_banks)))


# ---------------------------------------------------------------------------
# Random stream regions
# ---------------------------------------------------------------------------

ELEM_TYPES = ("f32", "f32", "i32", "i16", "i8", "f64", "i64")
NP_TYPES = {"f32": np.float32, "i32": np.int32, "i16": np.int16, "i8": np.int8, "f64": np.float64, "i64": np.int64}
F_BIN = ["arith.addf", "arith.subf", "arith.mulf", "arith.maximumf", "arith.minimumf"]
I_BIN = ["arith.addi", "arith.subi", "arith.muli", "arith.maxsi", "arith.minsi", "arith.andi", "arith.ori", "arith.xori"]
F_PRED = ["olt", "ogt", "ole", "oge", "oeq", "une"]
I_PRED = ["slt", "sgt", "sle", "sge", "eq", "ne"]
# odd, prime and no multiple of any tile size, next to small ones
ODD_SIZES = (3, 5, 7, 9, 11, 13, 17, 19, 23, 29, 31, 37)
LONG_SIZES = (41, 53, 61, 67, 97, 100, 127, 131, 257)


def memref(shape: list[int | None], t: str) -> str:
    return "memref<" + "".join(f"{'?' if s is None else s}x" for s in shape) + f"{t}>"


@dataclass
class Array:
    name: str  # function argument %NAME; the region's block argument is %lower(name)
    elem: str
    rank: int
    static: bool = False
    index: bool = False  # an index array (values drawn inside another array's dim)
    index_target: tuple[str, int] | None = None  # (array, dim) an index array indexes
    reach: list[int] = field(default_factory=list)  # per dim: max index touched + 1
    slack: list[int] = field(default_factory=list)
    shape: list[int] = field(default_factory=list)

    @property
    def arg(self) -> str:
        return "%" + self.name.lower()


@dataclass
class RegionCase:
    """A function ``@f`` around one random stream region, and its arguments."""

    text: str
    arrays: dict[str, np.ndarray]  # by argument name
    scalars: dict[str, Any]  # index symbols and the scalar alpha, by argument name
    params: list[str]  # the function's arguments in order
    elem: str
    tags: set[str]  # what was drawn (for statistics and reports)
    results: int = 0

    def call_args(self) -> list[Any]:
        """Fresh copies of the arguments, in order."""
        out = []
        for p in self.params:
            v = self.arrays[p].copy() if p in self.arrays else self.scalars[p]
            out.append(v)
        return out

    def files(self) -> dict[str, bytes | str]:
        """The case as files: the program, and its arguments (``args.npz``, in order)."""
        import io

        buf = io.BytesIO()
        np.savez(buf, **{f"{i:02d}_{p}": np.asarray(v) for i, (p, v) in enumerate(zip(self.params, self.call_args()))})
        return {"region.mlir": self.text, "args.npz": buf.getvalue()}

    def describe(self) -> str:
        shapes = {k: f"{'x'.join(map(str, v.shape))}x{v.dtype}" for k, v in self.arrays.items()}
        return f"{self.text}\nshapes {shapes} scalars {self.scalars} tags {sorted(self.tags)}"


def _extents(draw, n: int) -> list[int]:
    cap = {1: 400, 2: 600, 3: 800}[n]
    out: list[int] = []
    for _ in range(n):
        room = max(1, cap // max(1, math.prod(out)) // 2 ** (n - 1 - len(out)))
        choices = [st.integers(1, 6), st.sampled_from(ODD_SIZES)]
        if n == 1:
            choices.append(st.sampled_from(LONG_SIZES))
        e = draw(st.one_of(*choices))
        out.append(max(1, min(e, room)))
    return out


@st.composite
def random_region(draw, max_rank: int = 3, elem_types: tuple[str, ...] = ELEM_TYPES) -> RegionCase:
    """A function around one random stream region plus its arguments (values included)."""
    n = draw(st.integers(1, max_rank))
    T = draw(st.sampled_from(elem_types))
    fp = T in ("f32", "f64")
    ext = _extents(draw, n)
    lo = [draw(st.sampled_from([0, 0, 1, 2])) for _ in range(n)]
    tags: set[str] = {f"rank{n}", T}
    if n > 1 and draw(st.integers(0, 11)) == 0:
        # an empty dim (a size of 0) with the others not: a fold over it still stores its
        # identities over the other dims (make fuzz found it: mm_inner with K = 0)
        ext[draw(st.integers(0, n - 1))] = 0
        tags.add("empty-dim")
    if any(e % 2 for e in ext):
        tags.add("odd-size")
    k_val = draw(st.integers(0, 3))
    dims = [f"d{j}" for j in range(n)]
    arrays: dict[str, Array] = {}
    body: list[str] = []

    def index_expr(arr: Array, pos: int, spec) -> str:
        """One result of an access map, recording how far into the array it reaches."""
        kind = spec[0]
        if kind == "iter":
            _, j, off = spec
            top = lo[j] + ext[j] - 1 + off
            e = dims[j] if off == 0 else (f"{dims[j]} + {off}" if off > 0 else f"{dims[j]} - {-off}")
        elif kind == "rev":
            _, j, c = spec  # N + c - d over [lo, lo + N): from c - lo + 1 up to N + c - lo
            top = ext[j] + c - lo[j]
            e = f"N{j} + {c} - {dims[j]}" if c else f"N{j} - {dims[j]}"
        elif kind == "stride":
            _, j, off = spec
            top = 2 * (lo[j] + ext[j] - 1) + off
            e = f"2*{dims[j]}" + (f" + {off}" if off else "")
        elif kind == "k":
            top, e = k_val, "k"
        else:
            _, c = spec
            top, e = c, str(c)
        arr.reach[pos] = max(arr.reach[pos], top + 1)
        return e

    def dim_spec(j: int):
        r = draw(st.integers(0, 19))
        if r < 13:
            return ("iter", j, draw(st.integers(-lo[j], 2)))
        if r < 15:
            return ("rev", j, draw(st.integers(max(0, lo[j] - 1), lo[j] + 1)))
        if r < 16:
            return ("stride", j, draw(st.integers(0, 1)))
        if r < 18:
            return ("k",)
        return ("const", draw(st.integers(0, 2)))

    def access(arr: Array, order: list[int] | None = None, free: int = 0) -> list[str]:
        """A map for ``arr``: one iteration dim per array dim, in a random order
        (transposed / permuted), some dims fixed; the first ``free`` positions
        are left to the caller (indirect)."""
        if order is None:
            order = list(draw(st.permutations(range(n))))[: arr.rank]
        if order != sorted(order):
            tags.add("permuted-map")
        specs = [dim_spec(j) for j in order]
        return [index_expr(arr, p, s) if p >= free else "" for p, s in enumerate(specs)]

    def new_array(prefix: str, rank: int, elem: str | None = None, index: bool = False) -> Array:
        name = f"{prefix}{sum(1 for a in arrays if a.startswith(prefix))}"
        a = Array(name, elem or T, rank, static=draw(st.integers(0, 3)) == 0, index=index, reach=[1] * rank)
        arrays[name] = a
        return a

    def load(a: Array, i: int) -> None:
        idx = access(a)
        body.append(f"%l{i} = stream.load {a.arg}[{', '.join(idx)}] : {{{a.name}}} -> !stream.stream<{a.elem}>")

    # -- loads: arrays of different ranks, maps permuted / fixed / reversed / indirect
    n_loads = draw(st.integers(1, 4))
    data: list[Array] = []
    for i in range(n_loads):
        kind = draw(st.sampled_from(["new", "new", "again", "indirect"]))
        if kind == "again" and data:
            load(draw(st.sampled_from(data)), i)
            tags.add("reused-array")
            continue
        rank = draw(st.integers(1, n)) if draw(st.booleans()) else n
        a = new_array("X", rank)
        data.append(a)
        if rank < n:
            tags.add("lower-rank")
        if kind == "indirect":
            tags.add("indirect")
            j = new_array("J", draw(st.integers(1, n)), "i32", index=True)
            j.index_target = (a.name, 0)
            body.append(f"%ix{i} = stream.load {j.arg}[{', '.join(access(j))}] : {{{j.name}}} -> !stream.stream<i32>")
            rest = access(a, free=1)[1:]
            a.reach[0] = max(a.reach[0], draw(st.integers(1, 9)))  # the rows an index may pick
            body.append(f"%l{i} = stream.load {a.arg}[%ix{i}{''.join(', ' + e for e in rest)}] : {{{a.name}}} -> !stream.stream<{T}>")
        else:
            load(a, i)

    # -- compute: a random op mix over the loads and the scalar alpha
    ins = [f"%l{i}" for i in range(n_loads)] + ["%alpha"]
    in_types = [f"!stream.stream<{T}>"] * n_loads + [T]
    args = [f"%a{i}" for i in range(len(ins))]
    vals = list(args)
    lines: list[str] = []
    for o in range(draw(st.integers(1, 5))):
        kind = draw(st.sampled_from(["bin", "bin", "bin", "select", "unary", "const", "fma"]))
        a, b, c = (draw(st.sampled_from(vals)) for _ in range(3))
        r = f"%v{o}"
        if kind == "bin":
            lines.append(f"{r} = {draw(st.sampled_from(F_BIN if fp else I_BIN))} {a}, {b} : {T}")
        elif kind == "select":
            pred = draw(st.sampled_from(F_PRED if fp else I_PRED))
            lines.append(f"%p{o} = arith.{'cmpf' if fp else 'cmpi'} {pred}, {a}, {b} : {T}")
            lines.append(f"{r} = arith.select %p{o}, {b}, {c} : {T}")
        elif kind == "unary":
            lines.append(f"{r} = {draw(st.sampled_from(['arith.negf', 'math.absf'] if fp else ['math.absi']))} {a} : {T}")
        elif kind == "const":
            v = draw(st.integers(-3, 3))
            lines.append(f"{r} = arith.constant {float(v) if fp else v} : {T}")
            lines.append(f"{r}b = {'arith.addf' if fp else 'arith.addi'} {a}, {r} : {T}")
            r = f"{r}b"
        else:
            lines.append(f"{r} = {'math.fma' if fp else 'arith.muli'} {a}, {b}{', ' + c if fp else ''} : {T}")
        vals.append(r)
    # the result depends on a stream (a compute of scalars only is a 0-d value)
    lines.append(f"%fin = {'arith.addf' if fp else 'arith.addi'} {vals[-1]}, %a0 : {T}")
    body.append(
        f"%s = stream.compute({', '.join(ins)} : {', '.join(in_types)}) -> !stream.stream<{T}> {{\n"
        f"    ^bb1({', '.join(f'{x}: {T}' for x in args)}):\n      "
        + "\n      ".join(lines)
        + f"\n      stream.yield %fin : {T}\n    }}"
    )

    def store_target(rank: int) -> Array:
        # sometimes in place: into an array the region loads (legal, or a
        # loop-carried dependence the reference rejects)
        same = [a for a in data if a.rank == rank]
        if same and draw(st.integers(0, 5)) == 0:
            tags.add("in-place")
            return draw(st.sampled_from(same))
        return new_array("Y", rank)

    # -- outputs
    iterators = ["parallel"] * n
    result_type = None
    out = draw(st.sampled_from(["store", "store", "reduce", "reduce", "reduce", "atomic", "drop"]))
    if out == "store" or (out == "drop" and n == 1):
        tags.add("store")
        y = store_target(n)
        body.append(f"stream.store %s -> {y.arg}[{', '.join(access(y))}] : !stream.stream<{T}> -> {{{y.name}}}")
    elif out == "drop":  # a store that drops a parallel dim: the last iteration wins
        tags.add("store-drops-dim")
        y = store_target(draw(st.integers(1, n - 1)))
        body.append(f"stream.store %s -> {y.arg}[{', '.join(access(y))}] : !stream.stream<{T}> -> {{{y.name}}}")
    elif out == "atomic":  # an indirect read-modify-write
        tags.add("atomic")
        y = new_array("Y", draw(st.integers(1, n)))
        j = new_array("J", draw(st.integers(1, n)), "i32", index=True)
        j.index_target = (y.name, 0)
        body.append(f"%iq = stream.load {j.arg}[{', '.join(access(j))}] : {{{j.name}}} -> !stream.stream<i32>")
        rest = access(y, free=1)[1:]
        y.reach[0] = max(y.reach[0], draw(st.integers(1, 9)))
        kind = draw(st.sampled_from(["add", "min", "max"]))
        body.append(f"stream.atomic {kind} %s -> {y.arg}[%iq{''.join(', ' + e for e in rest)}] : !stream.stream<{T}> -> {{{y.name}}}")
    else:
        # any non-empty subset of the dims: all of them, adjacent or not
        red = sorted(draw(st.sets(st.integers(0, n - 1), min_size=1, max_size=n)))
        tags.add(f"reduce-{len(red)}of{n}")
        if len(red) > 1 and red != list(range(red[0], red[-1] + 1)):
            tags.add("reduce-non-adjacent")
        kind = draw(st.sampled_from(["add", "add", "max", "min"] + (["mul"] if not fp else [])))
        for d in red:
            iterators[d] = "reduction"
        keep = [j for j in range(n) if j not in red]
        init = " init %alpha" if draw(st.booleans()) else ""
        if keep:
            z = new_array("Z", len(keep))
            order = list(draw(st.permutations(keep)))
            body.append(f"%r = stream.reduce {kind} %s over [{', '.join(map(str, red))}]{init} : !stream.stream<{T}> -> !stream.stream<{T}>")
            body.append(f"stream.store %r -> {z.arg}[{', '.join(access(z, order))}] : !stream.stream<{T}> -> {{{z.name}}}")
        else:
            result_type = T
            body.append(f"%r = stream.reduce {kind} %s over [{', '.join(map(str, red))}]{init} : !stream.stream<{T}> -> {T}")
    body.append(f"stream.yield %r : {T}" if result_type else "stream.yield")

    # -- shapes: tight (what the region touches: runtime shapes) or with slack
    for a in arrays.values():
        a.slack = [draw(st.sampled_from([0, 0, 0, 1, 2, 5])) for _ in range(a.rank)]
    for a in arrays.values():  # index arrays' targets are sized first
        a.shape = [r + s for r, s in zip(a.reach, a.slack)]
    if any(a.shape != a.reach for a in arrays.values()):
        tags.add("slack")
    if any(not a.index and a.shape == a.reach for a in arrays.values()):
        tags.add("tight")

    # -- text
    syms = [f"N{j}" for j in range(n)] + ["k"]
    order = list(arrays.values())
    mtypes = {a.name: memref([s if a.static else None for s in a.shape], a.elem) for a in order}
    for name, mt in mtypes.items():
        body = [b.replace("{" + name + "}", mt) for b in body]
    domain = ", ".join(f"{lo[j]}:N{j} + {lo[j]}" if lo[j] else f"0:N{j}" for j in range(n))
    fargs = ", ".join([f"%{a.name}: {mtypes[a.name]}" for a in order] + [f"%s{s}: index" for s in syms] + [f"%salpha: {T}"])
    res = f" -> {result_type}" if result_type else ""
    text = (
        f"func.func @f({fargs}){res} {{\n"
        + ("  %out = " if result_type else "  ")
        + f"stream.region ins({', '.join('%' + a.name for a in order)} : {', '.join(mtypes[a.name] for a in order)}) "
        f"syms({', '.join(f'{s} = %s{s} : index' for s in syms)}, alpha = %salpha : {T}) domain [{domain}] iterators [{', '.join(iterators)}]{res} {{\n"
        f"  ^bb0({', '.join(f'{a.arg}: {mtypes[a.name]}' for a in order)}, {', '.join(f'%{s}: index' for s in syms)}, %alpha: {T}):\n    "
        + "\n    ".join(body)
        + "\n  }\n"
        + ("  func.return %out : " + result_type + "\n" if result_type else "  func.return\n")
        + "}\n"
    )

    # -- values: small integers (exact in f32 whatever the summation order)
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    values: dict[str, np.ndarray] = {}
    for a in order:
        if a.index:
            tgt, d = a.index_target  # type: ignore[misc]
            hi = arrays[tgt].shape[d]
            values[a.name] = rng.integers(0, hi, a.shape).astype(np.int32)
        else:
            values[a.name] = rng.integers(-4, 5, a.shape).astype(NP_TYPES[a.elem])
    scalars: dict[str, Any] = {f"sN{j}": ext[j] for j in range(n)}
    scalars["sk"] = k_val
    scalars["salpha"] = NP_TYPES[T](draw(st.integers(-3, 3)))
    params = [a.name for a in order] + [f"s{s}" for s in syms] + ["salpha"]
    return RegionCase(text, values, scalars, params, T, tags, 1 if result_type else 0)
