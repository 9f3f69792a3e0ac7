"""A fuzzer of the command-line tools ``infs-opt`` and ``infs-run``.

Seeds are valid programs (every ``infs/workloads/*.mlir``, every lit input of
``test/lit``), so mutations reach tensorize, the JIT and the simulator, not
only the parser.  Each case mutates a seed (text edits: lines dropped,
duplicated or swapped, literals replaced by boundary values, types and op
names swapped, punctuation inserted or deleted, a chunk of another seed
spliced in), or keeps it intact, and runs one tool with random flags: passes
and their options (``sizes``, ``config``, ``tiles``), a built-in machine or a
random TOML file (valid or with a bad field), sizes and shapes drawn from
the program's own arguments (0, 1, primes, negative, huge), modes, checks.

The tools run in process (their ``main(argv)``); a case is

* an *internal error* when the exit is 70, the output holds "internal error"
  or "Traceback", an exception escapes ``main``, or the case runs longer than
  the per-case timeout (a hang; SIGALRM interrupts it);
* a *mismatch* when ``infs-run --check`` reports different values.

Every failing case is written to the output directory with its input file,
the command line that reproduces it, and what went wrong.

    python test/fuzz/cli_fuzz.py --seed 1 --cases 200 --out fuzz-out
    python test/fuzz/cli_fuzz.py --minutes 10 --out fuzz-out   (fresh seed)
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import re
import resource
import shlex
import signal
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "test"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from record import Recorder  # noqa: E402

TIMEOUT_S = 30.0  # a case longer than this is a hang (the slowest seeds take ~5 s)
BUILTIN_CONFIGS = ("paper-64", "small-16", "tiny", "fig9", "cal-64")
INTERESTING_INTS = ("0", "1", "-1", "2", "3", "7", "17", "64", "255", "256", "1023", "4097", "65536", "2147483647", "-2147483648",
                    "9223372036854775807", "99999999999999999999", "1000000")  # fmt: skip
TYPES = ("f32", "i32", "i16", "i8", "i64", "f16", "f64", "i1", "index")
OPS = ("arith.addf", "arith.mulf", "arith.subf", "arith.maximumf", "arith.divf", "arith.addi", "arith.muli", "arith.divsi",
       "arith.remsi", "arith.minsi", "math.absf", "arith.negf", "arith.select", "arith.cmpf", "arith.sitofp")  # fmt: skip
PUNCT = "[](){}<>:,=%^@\"'x-+*0"


class Hang(BaseException):
    """A case ran past the timeout (BaseException: the tools' handlers must not catch it)."""


def seeds() -> list[Path]:
    out = sorted((ROOT / "infs" / "workloads").glob("*.mlir"))
    out += sorted(p for p in (ROOT / "test" / "lit").rglob("*.mlir") if "Output" not in p.parts)
    return out


def seed_texts() -> dict[str, str]:
    """Seed programs by name: every workload, and every chunk (``// -----``) of every lit file."""
    out: dict[str, str] = {}
    for p in seeds():
        text = p.read_text(errors="replace")
        rel = str(p.relative_to(ROOT))
        if "// -----" not in text:
            out[rel] = text
            continue
        out[rel] = text  # whole (for --split-input-file)
        for i, chunk in enumerate(text.split("// -----")):
            if "func.func" in chunk or "builtin.module" in chunk or "pimcmd.program" in chunk:
                out[f"{rel}#{i}"] = chunk
    return out


# ---------------------------------------------------------------------------
# Mutations
# ---------------------------------------------------------------------------


def mutate(text: str, rng: random.Random, others: list[str]) -> tuple[str, list[str]]:
    """``text`` after 0-3 random edits, and their names."""
    done: list[str] = []
    for _ in range(rng.choice((0, 0, 1, 1, 1, 2, 3))):
        lines = text.split("\n")
        kind = rng.choice(("drop-line", "dup-line", "swap-lines", "int", "int", "int", "type", "op", "punct", "ssa", "splice", "truncate", "affine"))
        if kind == "drop-line" and len(lines) > 1:
            del lines[rng.randrange(len(lines))]
        elif kind == "dup-line" and lines:
            i = rng.randrange(len(lines))
            lines.insert(rng.randrange(len(lines) + 1), lines[i])
        elif kind == "swap-lines" and len(lines) > 1:
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind in ("int", "type", "op", "ssa", "affine"):
            pattern = {
                "int": r"(?<![\w%#.])-?\d+(?![\w.])",
                "type": r"\b(?:f32|i32|i16|i8|i64|f16|f64|i1|index)\b",
                "op": r"\b(?:arith|math)\.\w+",
                "ssa": r"%[\w.]+",
                "affine": r"\bd\d\b|\bN\b|\bk\b",
            }[kind]
            ms = list(re.finditer(pattern, text))
            if ms:
                m = rng.choice(ms)
                if kind == "int":
                    new = rng.choice(INTERESTING_INTS + (str(int(m.group()) + rng.choice((-1, 1, 2))),))
                elif kind == "type":
                    new = rng.choice(TYPES)
                elif kind == "op":
                    new = rng.choice(OPS)
                elif kind == "ssa":
                    new = rng.choice(ms).group()
                else:
                    new = rng.choice(("d0", "d1", "d2", "N", "k", "N - d0", "2*d0", "d1 + 1", "0"))
                text = text[: m.start()] + new + text[m.end() :]
                done.append(kind)
            continue
        elif kind == "punct" and text:
            i = rng.randrange(len(text))
            text = text[:i] + (rng.choice(PUNCT) if rng.random() < 0.6 else "") + text[i + 1 :]
            done.append(kind)
            continue
        elif kind == "splice" and others:
            o = rng.choice(others).split("\n")
            a = rng.randrange(len(o))
            chunk = o[a : a + rng.randint(1, 6)]
            at = rng.randrange(len(lines) + 1)
            lines[at:at] = chunk
        elif kind == "truncate" and text:
            text = text[: rng.randrange(len(text))]
            done.append(kind)
            continue
        text = "\n".join(lines)
        done.append(kind)
    return text, done


# ---------------------------------------------------------------------------
# Flags
# ---------------------------------------------------------------------------


def _size_value(rng: random.Random) -> str:
    return rng.choice(("1", "2", "3", "4", "5", "7", "8", "13", "16", "17", "31", "37", "64", "0", "-4", "100", "1000", "99999999999", "2.5", "x"))


def symbols(text: str) -> list[str]:
    """Index symbol names of the program (syms(N = ...), function index args)."""
    names = set(re.findall(r"(?:syms\(|, )\s*([A-Za-z_]\w*)\s*=\s*%[\w.]+\s*:\s*index", text))
    return sorted(names) or ["N"]


def func_args(text: str) -> list[tuple[str, str]]:
    """(name, type) of every function's arguments."""
    out = []
    for m in re.finditer(r"func\.func\s+@\w+\(([^)]*)\)", text):
        out += re.findall(r"%([\w.]+)\s*:\s*((?:memref<[^>]*>)|[\w]+)", m.group(1))
    return list(dict.fromkeys(out))


def config_arg(rng: random.Random, workdir: Path) -> str:
    r = rng.random()
    if r < 0.55:
        return rng.choice(BUILTIN_CONFIGS)
    # a random TOML machine (strategies' rules), sometimes with one field broken
    fields = random_machine_fields(rng)
    if r > 0.85:
        key = rng.choice(list(fields) + ["bitlines", "wordlines", "banks", "freq_ghz", "energy_pj", "nosuchfield"])
        fields[key] = rng.choice((0, -1, 10**12, 2**40, 1.5, "x", True, "inf", 3))
    from strategies import toml_text

    name = f"m{rng.randrange(10**9)}.{'json' if r > 0.95 else 'toml'}"
    p = workdir / name
    if name.endswith(".json"):
        p.write_text(json.dumps(fields))
    else:
        p.write_text(toml_text(fields))
    return str(p)


def random_machine_fields(rng: random.Random) -> dict:
    rows, cols = rng.randint(1, 4), rng.randint(1, 4)
    ways = rng.randint(1, 4)
    cw = rng.randint(1, ways)
    apw = rng.choice((1, 2, 3, 4, 8, 16))
    deg = rng.choice((2, 4))
    import math

    need = max(1, math.ceil(math.log(cw * apw, deg) - 1e-9))
    return {
        "base": rng.choice(("paper-64", "small-16", "tiny")), "mesh_rows": rows, "mesh_cols": cols, "banks": rows * cols,
        "ways": ways, "compute_ways": cw, "arrays_per_way": apw, "bitlines": rng.choice((16, 32, 64, 128, 256, 512, rng.randint(16, 512))),
        "wordlines": rng.choice((64, 128, 256, 512, rng.randint(64, 512))), "htree_degree": deg, "htree_levels": need,
        "mem_ctrls": rng.randint(1, 2 * rows),
    }  # fmt: skip


def opt_argv(path: Path, text: str, rng: random.Random, workdir: Path) -> list[str]:
    argv = [str(path)]
    syms = symbols(text)
    sizes = ",".join(f"{s}={_size_value(rng)}" for s in syms if rng.random() < 0.95)
    lp_opts = f"sizes={sizes} config={config_arg(rng, workdir)}" + (f" tiles={rng.choice(('2x2', '4', '16x4', '1x1x64', '0', '8x8', 'x'))}" if rng.random() < 0.2 else "")
    choice = rng.random()
    if choice < 0.15:
        pass
    elif choice < 0.35:
        argv.append("--tensorize")
    elif choice < 0.7:
        argv += ["--tensorize", f"--lower-pim={lp_opts}"]
    elif choice < 0.8:
        argv += ["-p", f'tensorize,lower-pim{{sizes="{sizes}" config="{config_arg(rng, workdir)}"}}']
    else:
        steps = ["canonicalize-tdfg", "specialize", "choose-layout", "tdfg-to-pimcmd", "expand-mv-bc", "decompose", "lower-shift",
                 "lower-reduce", "lower-compute", "map-banks", "insert-sync", "allocate-wordlines", "canonicalize", "cse", "nosuchpass"]  # fmt: skip
        picked = rng.sample(steps, rng.randint(1, 3))
        argv += ["--tensorize"] + [f"--{p}" + (f"={lp_opts}" if p in ("specialize", "choose-layout") and rng.random() < 0.7 else "") for p in picked]
    for flag in ("--print-op-generic", "--split-input-file", "--verify-diagnostics", "--mlir-print-ir-after-all", "--time-passes",
                 "--print-between-passes", "--disable-verify", "--allow-unregistered-dialect"):  # fmt: skip
        if rng.random() < 0.07:
            argv.append(flag)
    if rng.random() < 0.05:
        argv += ["-o", str(workdir / "out.mlir")]
    return argv


def run_argv(path: Path, text: str, rng: random.Random, workdir: Path) -> list[str]:
    argv = [str(path), "--mode", rng.choice(("in", "in", "auto", "near", "core", "all")), "--config", config_arg(rng, workdir)]
    sizes, shapes, scalars = [], [], []
    for name, ty in func_args(text):
        if ty in ("f32", "f16", "f64", "i8", "i16", "i32", "i64", "i1") and rng.random() < 0.9:
            scalars.append(f"{name}={rng.choice(('0', '1', '-2', '0.5', '2.5', '3', '1e30', 'nan', 'inf', 'x', '-129', '300'))}")
        elif ty.startswith("memref"):
            dims = ty[len("memref<") :].split("x")[:-1]
            if any(d == "?" for d in dims) and rng.random() < 0.97:
                shape = "x".join(str(rng.choice((1, 2, 3, 5, 8, 13, 16, 17, 33, 64))) if d == "?" else d for d in dims)
                shapes.append(f"{name}={shape if rng.random() < 0.95 else _size_value(rng)}")
        elif rng.random() < 0.97:
            sizes.append(f"{name}={rng.choice(('1', '2', '3', '4', '5', '8', '13', '16')) if rng.random() < 0.8 else _size_value(rng)}")
    if sizes:
        argv += ["--sizes", ",".join(sizes)]
    for s in shapes:
        argv += ["--shape", s]
    if scalars:
        argv += ["--scalar", ",".join(scalars)]
    if rng.random() < 0.15:
        argv.append("--strict")
    if rng.random() < 0.05:
        argv += ["--entry", rng.choice(re.findall(r"func\.func\s+@(\w+)", text) or ["f"])]
    if rng.random() < 0.6:
        argv.append("--check")
    if rng.random() < 0.5:
        argv.append("--json")
    for flag, p in (("--analysis", 0.05), ("--cold", 0.1), ("--no-jit-charge", 0.1)):
        if rng.random() < p:
            argv.append(flag)
    if rng.random() < 0.1:
        argv += ["--tiles", rng.choice(("2x2", "4", "16x4", "0", "x", "64"))]
    if rng.random() < 0.05:
        argv += ["--seed", str(rng.randint(-5, 10**6))]
    return argv


# ---------------------------------------------------------------------------
# Running one case
# ---------------------------------------------------------------------------


def _alarm(signum, frame):
    raise Hang()


def run_tool(tool: str, argv: list[str], timeout: float) -> tuple[str, int | None, str, str]:
    """(status, exit code, stdout, stderr); status: ok | hang | escaped."""
    from infs.tools import infs_opt, infs_run

    main = infs_opt.main if tool == "infs-opt" else infs_run.main
    out, err = io.StringIO(), io.StringIO()
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    status, code = "ok", None
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as e:  # argparse paths that exit directly
                code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except Hang:
        status = "hang"
    except Exception as e:  # noqa: BLE001 - an exception escaping main is a failure
        import traceback

        status = "escaped"
        err.write("Traceback (escaped main):\n" + "".join(traceback.format_exception(e)))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    return status, code, out.getvalue(), err.getvalue()


# a loop bounded directly by an SSA value: scf.for / affine.for ... to %n (a loop whose bound is an
# affine map of a size, as the sweeps of a plain-loop stencil, is not matched: a huge size is a huge array)
HOST_LOOP = re.compile(r"(?:scf|affine)\.for\s+%[\w.$-]+\s*=\s*[^\n]*?\bto\s+%([\w.$-]+)")
FUNC_ARG = re.compile(r"%([\w.$-]+)\s*:\s*index")


# a loop bound written as a literal (affine.for %i = -2147483648 to %n) or an index constant
LITERAL_BOUND = re.compile(r"(?:affine\.for\s+%[\w.$-]+\s*=\s*(-?\d+)\s+to)|(?:affine\.for\s+%[\w.$-]+\s*=\s*[^\n]*?\bto\s+(-?\d+))")
INDEX_CONST = re.compile(r"%([\w.$-]+)\s*=\s*arith\.constant\s+(-?\d+)\s*:\s*index")
SCF_BOUNDS = re.compile(r"scf\.for\s+%[\w.$-]+\s*=\s*%([\w.$-]+)\s+to\s+%([\w.$-]+)")


def huge_host_loop(text: str, argv: list[str]) -> bool:
    """Whether the program asks for a host loop of 1e6 or more iterations (the
    run is long by request, not hung): ``--sizes`` gives a function argument
    that bounds an ``scf.for`` a value of 1e6 or more, or a loop bound written as a literal or an index
    constant bounding an ``scf.for`` is that large (found by the fuzzer: a
    mutated ``affine.for %i = -2147483648 to %n``)."""
    if any(abs(int(v)) >= 10**6 for m in LITERAL_BOUND.findall(text) for v in m if v):
        return True
    consts = {name: int(v) for name, v in INDEX_CONST.findall(text)}
    if any(abs(consts.get(b, 0)) >= 10**6 for bounds in SCF_BOUNDS.findall(text) for b in bounds):
        return True
    bounds = set(HOST_LOOP.findall(text)) & set(FUNC_ARG.findall(text))
    for flag, value in zip(argv, argv[1:]):
        if flag != "--sizes":
            continue
        for item in value.split(","):
            name, _, v = item.partition("=")
            if name in bounds and v.lstrip("-").isdigit() and int(v) >= 10**6:
                return True
    return False


def classify(tool: str, argv: list[str], status: str, code, out: str, err: str) -> str | None:
    """None (fine), 'internal' or 'mismatch'."""
    if status != "ok" or code == 70 or "internal error" in err or "internal error" in out or "Traceback" in err or "Traceback" in out:
        return "internal"
    if tool == "infs-run" and "--check" in argv and code == 1:
        if "check FAILED" in out:
            return "mismatch"
        if out.lstrip().startswith(("{", "[")):
            try:
                data = json.loads(out)
            except ValueError:
                return None
            runs = data if isinstance(data, list) else [data]
            if any(not r.get("check", {}).get("ok", True) for r in runs):
                return "mismatch"
    return None


def one_case(rng: random.Random, names: list[str], texts: dict[str, str], workdir: Path, rec: Recorder, timeout: float) -> None:
    tool = "infs-run" if rng.random() < 0.45 else "infs-opt"
    # infs-run mostly on programs with a region to run
    pool = [n for n in names if "stream.region" in texts[n]] if tool == "infs-run" and rng.random() < 0.9 else names
    seed = rng.choice(pool)
    text = texts[seed]
    if "#" not in seed and rng.random() < 0.2:
        path, mutations = ROOT / seed, []  # the seed file itself (a workload runs with the registry's inputs)
        new = text
    else:
        new, mutations = mutate(text, rng, [texts[s] for s in rng.sample(names, 2)])
        path = workdir / "case.mlir"
        path.write_text(new)
    argv = opt_argv(path, new, rng, workdir) if tool == "infs-opt" else run_argv(path, new, rng, workdir)
    t0 = time.perf_counter()
    status, code, out, err = run_tool(tool, argv, timeout)
    dt = time.perf_counter() - t0
    if status == "hang" and tool == "infs-run" and huge_host_loop(new, argv):
        # a valid program asked to loop ~1e6+ times on the host runs that long: not a hang of infs
        rec.case(tool, "slow: a host loop bound of 1e6 or more")
        return
    kind = classify(tool, argv, status, code, out, err)
    rec.case(tool, "ok" if kind is None else kind)
    if kind is None:
        return
    # the reproducer: input, the configs it names, the command
    files: dict[str, bytes | str] = {"input.mlir": new}
    repro_argv = []
    for a in argv:
        p = Path(a.split("=", 1)[-1]) if a.startswith("--lower-pim=") is False else None
        if a.startswith(str(workdir)):
            name = Path(a).name
            if Path(a).exists():
                files[name] = Path(a).read_bytes()
            repro_argv.append(name if Path(a) != path else "input.mlir")
        elif str(workdir) in a:
            for m in re.findall(re.escape(str(workdir)) + r"/[\w.]+", a):
                if Path(m).exists():
                    files[Path(m).name] = Path(m).read_bytes()
            repro_argv.append(a.replace(str(workdir) + "/", ""))
        else:
            repro_argv.append(a)
        del p
    cmd = f"{tool} {shlex.join(repro_argv)}"
    files["command.sh"] = f"#!/bin/sh\n# run from this directory; {tool} from the checkout's .venv/bin\n{cmd}\n"
    summary = (f"tool: {tool}\nseed file: {seed}\nmutations: {mutations}\nstatus: {status} exit: {code} time: {dt:.1f}s\n"
               f"command: {cmd}\n--- stderr ---\n{err[-4000:]}\n--- stdout (tail) ---\n{out[-2000:]}\n")  # fmt: skip
    # one directory per distinct symptom (first stderr line, numbers blurred)
    first = next((ln for ln in err.splitlines() if "error" in ln.lower() or "Error" in ln), err[:200])
    key = tool + re.sub(r"\d+", "#", re.sub(r"(/[\w.+-]+)+", "PATH", first))[:200] + status
    rec.failure(kind, tool, summary, files, key=key)


def fuzz(seed: int, cases: int | None, deadline: float | None, out: Path | None, timeout: float = TIMEOUT_S, label: str = "cli") -> Recorder:
    rng = random.Random(seed)
    texts = seed_texts()
    names = sorted(texts)
    rec = Recorder(out, f"{label}{seed}")
    with tempfile.TemporaryDirectory(prefix="infs-fuzz-") as d:
        workdir = Path(d)
        i = 0
        while (cases is None or i < cases) and (deadline is None or time.time() < deadline):
            one_case(rng, names, texts, workdir, rec, timeout)
            for p in workdir.iterdir():  # each case starts clean
                if p.is_file():
                    p.unlink()
            i += 1
    return rec


def limit_memory(gb: float = 3.0) -> None:
    """Cap the address space so a huge allocation is a MemoryError (an internal error), not the OOM killer."""
    lim = int(gb * 2**30)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (lim, lim))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=None, help="default: fresh")
    ap.add_argument("--cases", type=int, default=None)
    ap.add_argument("--minutes", type=float, default=None)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--stats", type=Path, default=None, help="write counts as JSON here")
    ap.add_argument("--timeout", type=float, default=TIMEOUT_S)
    a = ap.parse_args(argv)
    seed = a.seed if a.seed is not None else int.from_bytes(os.urandom(4), "little")
    deadline = time.time() + 60 * a.minutes if a.minutes else None
    if a.cases is None and deadline is None:
        a.cases = 100
    limit_memory()
    os.environ.pop("INFS_DEBUG", None)
    rec = fuzz(seed, a.cases, deadline, a.out, a.timeout)
    return rec.finish(f"cli fuzz (seed {seed})", a.stats)


if __name__ == "__main__":
    raise SystemExit(main())
