"""What runs a program from the command line, with no compiler loaded: the run's arguments and its report.

Takes infs-run's flags (an ``argparse`` namespace): ``--sizes``/``--shape``/
``--input`` parsed (``_parse_sizes``, ``_parse_shape``, ``_parse_kv``, ``.npy``
headers read without loading them), a workload's array shapes found without
allocating them (``_workload_shapes``), the host's memory checked before any
array is allocated (``_check_capacity``), ``--tiles`` and ``--save-outputs``.
Gives the report as the tools print it (``summary``: cycles, traffic, energy,
regions, the check).  Shared by the ``.mlir`` path (``runner``) and the
bundle path (``bundle_run``); imports no xDSL.  Every mistake is a ``UsageError``.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Collection
from pathlib import Path
from typing import Any

import numpy as np

from infs.runtime.in_memory import RunReport
from infs.runtime.memory import available_memory, human_bytes, phantom_array
from infs.tools.cli import UsageError


def _parse_kv(items: list[str], what: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items:
        for part in item.replace(",", " ").split() if what != "input" else [item]:
            k, eq, v = part.partition("=")
            if not eq or not k or not v:
                raise UsageError(f"bad --{what} '{part}': expected NAME=VALUE")
            out[k] = v
    return out


def _workload_for(path: Path):
    from infs.workloads import WORKLOADS, nsc

    for w in [*WORKLOADS.values(), *nsc.WORKLOADS.values()]:
        try:
            if w.path.resolve() == path.resolve():
                return w
        except OSError:
            pass
    return None


def _parse_sizes(args: argparse.Namespace) -> dict[str, int]:
    sizes: dict[str, int] = {}
    for k, v in (_parse_kv(args.sizes, "sizes").items() if args.sizes else ()):
        try:
            n = int(v)
        except ValueError:
            raise UsageError(f"bad --sizes {k}={v}: sizes are integers (a non-index scalar argument takes --scalar {k}={v})") from None
        if n < 0:
            raise UsageError(f"bad --sizes {k}={v}: sizes are non-negative integers")
        sizes[k] = n
    return sizes


def _parse_shape(name: str, text: str) -> list[int]:
    try:
        shape = [int(x) for x in text.lower().split("x")]
    except ValueError:
        raise UsageError(f"bad --shape {name}={text}: expected e.g. 64x64") from None
    if any(s < 0 for s in shape):
        raise UsageError(f"bad --shape {name}={text}: dims are non-negative integers")
    return shape


def _npy_header(name: str, file: str) -> tuple[tuple[int, ...], np.dtype]:
    """The shape and dtype an ``.npy`` file declares, read without loading it."""
    try:
        with open(file, "rb") as f:
            magic = f.read(6)
            if magic[:2] == b"PK":
                raise UsageError(f"--input {name}: '{file}' is an .npz archive; --input takes one array per .npy file")
            if magic != b"\x93NUMPY":
                raise UsageError(f"--input {name}: '{file}' is not an .npy file")
            f.seek(0)
            version = np.lib.format.read_magic(f)
            read_header = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
            shape, _fortran, dtype = read_header(f)
    except UsageError:
        raise
    except OSError as e:
        raise UsageError(f"--input {name}: cannot read '{file}': {e.strerror}") from None
    except (ValueError, TypeError, SyntaxError) as e:
        raise UsageError(f"--input {name}: '{file}' has a bad .npy header: {str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__}") from None
    if dtype.kind == "c":
        raise UsageError(f"--input {name}: '{file}' holds complex numbers ({dtype}); infs arrays are real")
    if dtype.kind not in "biuf":
        raise UsageError(f"--input {name}: '{file}' holds {dtype} values; infs arrays hold integers or floats")
    return tuple(int(s) for s in shape), dtype


def _check_capacity(arrays: list[tuple[str, tuple[int, ...], np.dtype]], copied: Collection[str] = ()) -> None:
    """The host must hold every array, and a second one of those in ``copied`` (the
    --check reference's copies), checked before anything is allocated."""
    need = sum(math.prod(shape) * np.dtype(dt).itemsize * (2 if name in copied else 1) for name, shape, dt in arrays)
    avail = available_memory()
    if avail is not None and need > avail:
        big = max(arrays, key=lambda a: math.prod(a[1]) * np.dtype(a[2]).itemsize)
        raise UsageError(
            f"the arrays need {human_bytes(need)} of host memory (largest: {big[0]}, {'x'.join(map(str, big[1])) or 'scalar'} {np.dtype(big[2])}), "
            f"this host has {human_bytes(avail)} available: use smaller sizes, or --analysis (timing only, no data)"
        )


def _workload_shapes(w, sizes: dict[str, int]) -> dict[str, tuple[tuple[int, ...], np.dtype]]:
    """Every array's shape and dtype for ``sizes``, without allocating them: the
    registry's ``make_inputs`` runs on two sets of probe sizes (distinct even
    values, each size's own), and each dim of the probe arrays that equals a probe
    value is that size, one that is a size plus a constant in both probes (a CSR
    row-start array's ``n + 1``) that size plus the constant; the others are
    constants such as a 3x3 kernel."""
    primes = [11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71]
    keys = sorted(set(sizes) | set(w.small))
    probe = {k: 2 * primes[i] for i, k in enumerate(keys)}
    again = {k: 2 * v for k, v in probe.items()}  # (each size doubled: a dim is one size plus a constant in one way only)
    want = {k: sizes.get(k, w.small.get(k)) for k in keys}
    back = {probe[k]: want[k] for k in keys}
    second = w.make_inputs(again, np.random.default_rng(0))

    def dim(d: int, d2: int) -> int:
        if d in back:
            return int(back[d])
        shifted = [k for k in keys if d - probe[k] == d2 - again[k] and d != d2]
        return int(want[shifted[0]] + d - probe[shifted[0]]) if len(shifted) == 1 else int(d)

    out = {}
    for name, arr in w.make_inputs(probe, np.random.default_rng(0)).items():
        out[name] = (tuple(dim(d, d2) for d, d2 in zip(arr.shape, second[name].shape)), arr.dtype)
    return out


def fill_arrays(plan: list[tuple[str, tuple[int, ...], np.dtype]], values: dict[str, Any], outputs: list[str],
                inputs_given: dict[str, str], rng: np.random.Generator, phantom: bool) -> None:  # fmt: skip
    """Each planned array argument (name, shape, dtype) in ``values`` (and its name in
    ``outputs``): its ``--input`` file, else random data (floats in [-1, 1), integers in
    [0, 4)), or a phantom (analysis mode: shape and dtype, no data)."""
    for name, shape, dt in plan:
        if phantom:
            values[name] = phantom_array(shape, dt)
        elif name in inputs_given:
            try:
                arr = np.load(inputs_given[name], allow_pickle=False)
            except (OSError, ValueError) as e:
                raise UsageError(f"--input {name}: cannot load '{inputs_given[name]}': {str(e).strip().splitlines()[0]}") from None
            values[name] = np.ascontiguousarray(arr.astype(dt))
        else:
            values[name] = rng.uniform(-1, 1, shape).astype(dt) if dt.kind == "f" else rng.integers(0, 4, shape).astype(dt)
        outputs.append(name)


def prepare_save_dir(text: str) -> None:
    """``--save-outputs DIR``: DIR may exist; else only its last level is created (its parent must exist)."""
    d = Path(text)
    if d.is_dir():
        return
    if d.exists():
        raise UsageError(f"--save-outputs '{d}': not a directory")
    if not d.parent.is_dir():
        raise UsageError(f"--save-outputs '{d}': the parent directory '{d.parent}' does not exist (only the last level is created)")
    try:
        d.mkdir()
    except OSError as e:
        raise UsageError(f"--save-outputs '{d}': cannot create it: {e.strerror}") from None


def _tiles(text: str | None) -> tuple[int, ...] | None:
    if not text:
        return None
    try:
        tiles = tuple(int(x) for x in text.lower().split("x"))
    except ValueError:
        raise UsageError(f"bad --tiles '{text}': expected e.g. 16x16") from None
    if any(t <= 0 for t in tiles):
        raise UsageError(f"bad --tiles '{text}': tile sizes are positive integers")
    return tiles


def fallbacks(rep: RunReport) -> list[tuple[int, str, str]]:
    """(region, mode it ran in, reason) per region whose forced mode was not honoured, once each."""
    seen: dict[tuple[int, str], tuple[int, str, str]] = {}
    for r in rep.regions:
        if r.not_honoured:
            seen.setdefault((r.region, r.not_honoured), (r.region, r.mode, r.not_honoured))
    return list(seen.values())


def region_checks(rep: RunReport) -> list[dict[str, Any]]:
    """Per region (first invocation's verdict, first disagreement of any): how its values were checked."""
    out: dict[int, dict[str, Any]] = {}
    for r in rep.regions:
        d = out.setdefault(r.region, {"region": r.region, "ran": r.mode, "against": "simulator vs reference" if r.mode == "in" else r.check, "error": ""})
        if r.check_error and not d["error"]:
            d["error"] = r.check_error
    return [out[k] for k in sorted(out)]


def summary(out: dict[str, Any], freq_ghz: float) -> dict[str, Any]:
    rep: RunReport = out["report"]
    st = rep.stats
    offl = sum(r.elements for r in rep.regions if r.mode == "in")
    total_el = sum(r.elements for r in rep.regions) or 1
    d = {
        "mode": out["mode"],
        "total_cycles": st.total_cycles,
        "seconds_simulated": st.total_cycles / (freq_ghz * 1e9),
        "cycles": dict(st.cycles),
        "traffic": dict(st.traffic),
        "noc_byte_hops": st.noc_byte_hops,
        "energy_pj": dict(st.energy_pj),
        "total_energy_pj": st.total_energy_pj,
        "regions": [vars(r) for r in rep.regions],
        "region_modes": rep.mode_counts(),
        "elements_in_memory_fraction": offl / total_el,
        # who decided the auto regions (RunOptions.policy; forced modes decide nothing)
        "policy": out.get("policy", "eq2"),
        "jit": {"misses": sum(r.jit_misses for r in rep.regions), "seconds": sum(r.jit_seconds for r in rep.regions),
                "model": out.get("jit_model", "")},
        # optimize-tdfg before the JIT (host wall time, not simulated cycles: driver ``_optimize``)
        "optimize": {
            "seconds": sum(r.optimize_seconds for r in rep.regions),
            "tdfg_nodes_before": sum(r.tdfg_nodes_before for r in rep.regions),
            "tdfg_nodes_after": sum(r.tdfg_nodes_after for r in rep.regions),
        },
        "wall_seconds": rep.wall_seconds,
        "results": {k: np.asarray(v).item() for k, v in out["results"].items()},
    }
    # a forced mode that could not run: per region, where it ran instead and why
    d["not_honoured"] = [{"region": r, "ran": m, "reason": why} for r, m, why in fallbacks(rep)]
    counts = rep.mode_counts()
    d["ran_as"] = ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) if len(counts) > 1 else next(iter(counts), out["mode"])
    if "check" in out:
        c = out["check"]
        regions = region_checks(rep)
        bad = next((r for r in regions if r["error"]), None)
        ok = c.ok and bad is None
        note = c.note if not c.ok else (f"region {bad['region']} ({bad['ran']}): {bad['error']}" if bad else "")
        d["check"] = {"ok": ok, "max_error": c.max_error, "note": note, "regions": regions, "oracle": out["oracle"], "unchecked": out.get("unchecked", [])}
    return d


def program_path(text: str) -> Path:
    """The program FILE names: the file itself, or, when there is no such file, the
    program of a workload family's workload named as ``nsc/<name>``
    (``infs.workloads.nsc``), whose inputs then come from its registry."""
    path = Path(text)
    family, _, name = text.partition("/")
    if path.exists() or family != "nsc" or not name or "/" in name:
        return path
    from infs.workloads import nsc

    try:
        return nsc.get(name).path
    except KeyError as e:
        raise UsageError(f"'{text}': no such file, and {e.args[0]}") from None
