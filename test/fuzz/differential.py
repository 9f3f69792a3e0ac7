"""The differential properties, run as a fuzzer: fresh random examples until a deadline.

Round robin over the random-input properties of the test suite (each check is
the test's own function):

* ``full-pipeline``: random regions through ``--mode in`` (tensorize, JIT,
  simulator) on random TOML machines == the stream reference
  (``test_full_pipeline.check_full_pipeline``);
* ``tensorize``: random regions, tensorize + lattice evaluation == the stream
  reference (``test_tensorize.check_tensorized_region``);
* ``random-graphs``: random tDFG graphs on random machines, JIT + simulator ==
  the lattice semantics (``test_lower_pim_e2e.check_random_graph``).

Hypothesis runs with the ``fuzz`` profile (conftest: derandomize off, no
database, no shrinking), and a failing example does not stop the run: it is
counted (an ``AssertionError`` is a mismatch, any other exception an internal
error) and written to the output directory with everything needed to replay
it.

    python test/fuzz/differential.py --minutes 10 --out fuzz-out --stats s.json
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "test"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("INFS_FUZZ", "1")

import conftest  # noqa: E402,F401 - registers the hypothesis profiles
from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from record import Recorder  # noqa: E402

ROUND = 40  # examples per property per round


def _properties():
    import test_full_pipeline as fp
    import test_lower_pim_e2e as e2e
    import test_tensorize as tz
    from strategies import random_region, toml_text

    def full(args, stats):
        case, machine, cli, seed = args
        what = f"{case.describe()}\n{machine.describe()}\nvia {'infs-run main' if cli else 'driver.run_program'} (seed {seed})"
        return what, lambda: fp.check_full_pipeline(case, machine, cli, seed, stats), {**case.files(), "machine.toml": toml_text(machine.fields)}

    def tens(args, stats):
        case, group = args
        return f"{case.describe()}\ngroup_size={group}", lambda: stats.update([tz.check_tensorized_region(case, group).split(" (")[0]]), case.files()

    def graphs(case, stats):
        what = f"{case['text']}\n" + "\n".join(f"{k}={v}" for k, v in case.items() if k != "text")
        files = {"graph.mlir": case["text"]}
        if case["config"].endswith(".toml"):
            files["machine.toml"] = Path(case["config"]).read_text()
        return what, lambda: e2e.check_random_graph(case, stats), files

    return [
        ("full-pipeline", fp.pipeline_cases(), full),
        ("tensorize", st.tuples(random_region(), st.sampled_from([None, 1, 2, 3])), tens),
        ("random-graphs", e2e.random_graphs(), graphs),
    ]


def _property(name, strategy, make, fuzz_settings, deadline: float, rec: Recorder, stats: Counter):
    """A hypothesis test of one check that records failures instead of raising them."""

    @fuzz_settings
    @given(strategy)
    def prop(args):
        if time.time() >= deadline:
            return
        what, check, files = make(args, stats)
        try:
            check()
        except AssertionError as e:
            rec.case(name, "mismatch")
            rec.failure("mismatch", name, f"{what}\n--- failure ---\n{''.join(traceback.format_exception(e))[-6000:]}", files, key=f"{name}{what}")
            return
        except Exception as e:  # noqa: BLE001 - counted and written, never stops the run
            rec.case(name, "internal")
            rec.failure("internal", name, f"{what}\n--- failure ---\n{''.join(traceback.format_exception(e))[-6000:]}", files, key=f"{name}{what}")
            return
        rec.case(name)

    return prop


def run(deadline: float, out: Path | None, label: str) -> Recorder:
    rec = Recorder(out, label)
    props = _properties()
    stats: Counter = Counter()
    fuzz_settings = settings(settings.get_profile("fuzz"), max_examples=ROUND, phases=[Phase.generate], database=None,
                             deadline=None, suppress_health_check=list(HealthCheck))  # fmt: skip
    while time.time() < deadline:
        for name, strategy, make in props:
            if time.time() >= deadline:
                break

            _property(name, strategy, make, fuzz_settings, deadline, rec, stats)()
    for k, v in stats.items():
        rec.outcomes[f"detail: {k}"] += v
    return rec


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--minutes", type=float, default=1.0)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--stats", type=Path, default=None)
    a = ap.parse_args(argv)
    rec = run(time.time() + 60 * a.minutes, a.out, f"diff{os.getpid()}")
    return rec.finish("differential", a.stats)


if __name__ == "__main__":
    raise SystemExit(main())
