"""optimize-tdfg benchmark: per workload, tDFG nodes before/after and the optimizer's wall
time per graph (median and max).  Run: ``.venv/bin/python benchmarks/bench_optimize.py``.

(Simulated cycles before/after are not measured here yet.)
"""

from __future__ import annotations

import statistics
import time

from xdsl.context import Context

from infs import api
from infs.dialects import tdfg
from infs.passes.optimize_tdfg import CostModel, optimize_graph
from infs.passes.tensorize import TensorizePass
from infs.workloads import WORKLOADS


def main() -> None:
    model = CostModel.of("paper-64")
    times: list[float] = []
    print(f"{'workload':18s} {'graphs':>6s} {'nodes before':>12s} {'nodes after':>11s} {'mv+cmp before':>13s} {'mv+cmp after':>12s}")
    for name in sorted(WORKLOADS):
        m = api.parse_file(WORKLOADS[name].path)
        TensorizePass().apply(Context(), m)
        graphs = [g for g in m.walk() if isinstance(g, tdfg.GraphOp)]
        count = lambda kinds: sum(1 for g in graphs for op in g.body.block.ops if isinstance(op, kinds))  # noqa: E731
        n0, a0 = count((tdfg.TensorOp, tdfg.CmpOp, tdfg.MvOp, tdfg.BcOp, tdfg.ShrinkOp, tdfg.ConstOp)), count((tdfg.MvOp, tdfg.CmpOp))
        for g in graphs:
            t = time.perf_counter()
            optimize_graph(g, model)
            times.append(time.perf_counter() - t)
        n1, a1 = count((tdfg.TensorOp, tdfg.CmpOp, tdfg.MvOp, tdfg.BcOp, tdfg.ShrinkOp, tdfg.ConstOp)), count((tdfg.MvOp, tdfg.CmpOp))
        print(f"{name:18s} {len(graphs):6d} {n0:12d} {n1:11d} {a0:13d} {a1:12d}")
    print(f"optimizer wall time per graph: median {statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms ({len(times)} graphs; the first also compiles the rules)")


if __name__ == "__main__":
    main()
