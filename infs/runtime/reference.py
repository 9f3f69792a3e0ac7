"""Reference semantics of ``stream.region``: the oracle for every lowering.

``evaluate_region(region, arrays, scalars)`` runs one region on numpy arrays,
vectorized over the whole iteration domain, with exactly the result of the
sequential loop nest (``infs.dialects.stream`` docstring):

* every stream value is a numpy array broadcastable to the domain's shape
  (dims a load's map drops stay size-1: broadcast, never materialized);
  affine loads, stores and atomics go through strided views of the arrays,
  indirect ones (and writes a view cannot order) through index grids -- the
  two give the same bits (``reference_views``);
* stores from all store ops of an array are merged and the last writer in
  (iteration order, program order) wins per cell;
* atomics apply op by op in program order, each op's points in iteration
  order (``ufunc.at``'s order on the general path; the kinds are commutative,
  and float rounding then follows that order);
* reductions fold with ``keepdims`` so results keep broadcasting; f32 sums
  use numpy's pairwise order (tests compare f32 with a tolerance);
* a filtered store or atomic (``if %m``) writes only where its filter
  holds, merged with the others as above (the general path);
* a claim (``stream.claim``) finds its claimers per cell in iteration order
  by one stable sort of its cells (a scan per cell); so does an atomic
  min/max's ``changed`` result; ``stream.count`` is a prefix sum.  These,
  like filtered writes, take the general path;
* a pointer chase (``stream.chase``) advances all its chains one node per
  numpy step (``reference_grids.eval_chase``); a chain past its fields' end or
  longer than they have slots (a cycle) is an error naming the op;
* a domain of more than ``ROW_POINTS`` points runs in rows of its outermost
  dim where that order is the loop nest's for every effect (``row_parts``),
  with the same bits as the whole domain at once;
* a region in which an iteration may read a cell written by an earlier
  iteration (a loop-carried dependence) is not a stream region: the verifier
  rejects it (``stream.loop_carried_dependence``, the one check every path
  shares), and so does ``evaluate_region`` for IR that was never verified,
  with the same message.  The evaluator also checks the dependence on the
  actual cells (unless the maps prove each read precedes every write of its
  cells): it can only find one the static check missed when two of the
  region's arrays are one array at run time, and anything else is a bug of
  the static check (an internal error, never a silent result).

Host functions around regions run through ``infs.runtime.host``.

``evaluate_region`` is this module; its parts: ``reference_checks`` (what is
checked of a region before it runs: memory, rows, aliasing, bounds, the static
dependence check, memoized per region op), ``reference_grids`` (a region's
state and the general path: index grids, the writes merged by last writer,
the dependence check on actual cells), ``reference_views`` (the view path:
affine accesses as strided views, computes in chunks).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from infs.dialects import stream
from infs.runtime.reference_checks import (
    aliased_operands,
    check_domain_memory,
    out_of_bounds_access,
    reads_what_it_writes,
    region_label,
    row_parts,
    static_dependence,
)
from infs.runtime.reference_grids import RegionState, evaluate_grids
from infs.runtime.reference_views import evaluate_views
from infs.runtime.scalar_ops import EvaluationError


def evaluate_region(
    region: stream.RegionOp, arrays: Sequence[np.ndarray], scalars: Sequence[object], label: str | None = None, *, views: bool = True,
    chase_stats: dict | None = None, filter_stats: dict | None = None,
) -> list[np.ndarray]:
    """Run ``region`` in place on ``arrays``; return its scalar results.
    ``label`` names the region in errors (default: its line).  ``views=False``
    evaluates every access through index grids (the general path the view
    path falls back to; the tests compare the two).  ``chase_stats``, a dict,
    receives per ``stream.chase`` [steps of all its chains, steps of the
    longest] (what the near-memory and core models price); ``filter_stats``
    per filtered ``stream.store``/``stream.atomic`` [points it wrote at,
    points it was asked at].  A region with a filtered write takes the
    general path (a view writes every point of its box)."""
    carried = static_dependence(region)
    if carried is not None:
        raise EvaluationError(f"'{region.name}' {carried}")
    alias = aliased_operands(region, arrays, same_object=False)
    if alias is not None:
        raise EvaluationError(f"{label or region_label(region)}: {alias}")
    st = RegionState(region, arrays, scalars, label)
    if chase_stats is not None:
        st.chase_stats = chase_stats
    if filter_stats is not None:
        st.filter_stats = filter_stats
    bad = out_of_bounds_access(region, [a.shape for a in arrays], scalars)
    if bad is not None:
        raise EvaluationError(bad)
    filtered = any((isinstance(op, (stream.StoreOp, stream.AtomicOp)) and op.mask is not None) or isinstance(op, (stream.ClaimOp, stream.CountOp))
                   or (isinstance(op, stream.AtomicOp) and op.changed is not None) for op in region.body.block.ops)  # fmt: skip
    evaluate = evaluate_views if views and not filtered else evaluate_grids
    try:
        rows = row_parts(region, st.shape)
        if rows is not None and reads_what_it_writes(region, arrays):
            check_domain_memory(region, st.box, label, whole=True)
            rows = None
        if rows is None:
            return evaluate(region, st)
        p0, q0 = st.box[0]
        for r0 in range(p0, q0, rows):  # in order: the outermost loop's
            evaluate(region, st.restricted([(r0, min(r0 + rows, q0)), *st.box[1:]]))
        return []
    except MemoryError:  # past the lower bound of check_domain_memory
        dom = ", ".join(f"{p}:{q}" for p, q in st.box)
        raise EvaluationError(f"{label or region_label(region)}: the host ran out of memory evaluating its iteration domain [{dom}] ({st.size:,} points): use smaller sizes") from None
