"""``extract-streams``: plain loop nests become ``stream.region``s, the compiler's first step.

Takes ``func.func`` bodies written as ordinary loops: ``affine.for`` /
``affine.parallel`` / ``scf.for`` / ``scf.parallel`` nests over
``affine.load``/``affine.store``/``memref.load``/``memref.store`` with affine
indices (also through ``affine.apply``, ``arith.index_cast`` and integer
``addi``/``subi``/``muli`` by a constant) or loaded in the body
(``memref.load %X[%idx_i]``: an indirect stream; an add/min/max update of
such a cell is an indirect ``stream.atomic``), and ``arith``/``math`` bodies.

Gives the same functions with each loop nest that is a stream region (ASPLOS'23
§3.1: the paper's compiler finds the regions in plain C loops) replaced by one
(or two) ``stream.region`` ops -- domain, ``parallel``/``reduction``
iterators, ``stream.load``/``compute``/``reduce``/``store`` -- and everything
else left as host code around them, lowered to ``scf``/``arith``/``memref``
(the host interpreter and every later pass know these).  Loops that carry a
dependence stay host ``scf.for`` loops around the region, as the stencil time
step of ``infs/workloads/stencil1d.mlir`` does by hand.

How a nest is decided.  The nest's perfectly nested loops ``L1..Ln`` (a band)
and its innermost body are read into loads, stores and expression trees.  Then,
for ``p = 0, 1, ..., n-1``, the inner band ``L(p+1)..Ln`` is tried as a region
with ``L1..Lp`` on the host: its statements are classified (plain stores;
reductions: an ``iter_args`` accumulation or argmin/argmax loop -- also nested
``iter_args`` loops handing their accumulator down, one fold over all their
dims -- or ``X[m] = X[m] op f`` with ``m`` invariant in some loops, op in
add/mul/min/max; an ``scf.if`` yielding loaded values is a select when both
sides are safe at every point, ``Analysis.if_select``), the region is built, and the
stream dialect's own exact dependence test (``stream.loop_carried_dependence``,
which the region verifier runs: distance/direction vectors over the access maps
with a GCD test, conservative beyond them) decides whether it equals the
sequential nest.  The first region that passes is kept; the peeled loops are
the ones that carry a dependence.  An accumulation into an array the region
also reads at the same cell (``C[i,j] += A[i,k]*B[k,j]``) becomes two regions:
the reduction into a host-allocated temporary, then the element-wise update.
Nothing is guessed: a construct the analysis does not read (non-affine
indices, ``affine.if``, ``floordiv``/``mod`` bounds, non-unit steps, calls,
bounds depending on an inner loop, ...) keeps the loop on the host.

Distribution.  A nest whose body is not one statement -- an imperfect nest
(C's ``C[i][j] = 0; for (k ...) C[i][j] += ...`` as cgeist prints it, or
``for (j) C[i][j] *= beta; for (k) for (j) ...``), or a perfect one whose
body is not one region (two folds over different loops, as in bicg) -- is
split into one nest per statement when ``distribution_refused`` finds no array
that one statement writes and another touches at a different iteration of the
band (each such access must index the array with every band loop's index,
identically in every access); each copy is then tried as above.  Otherwise
the inner nests are tried on their own and the remark says why the band was
not distributed.

linalg.  ``linalg`` structured ops on memrefs (``generic``, ``matmul``,
``fill``, ``add``, ...) are first lowered by xDSL's own
``convert-linalg-to-loops`` pattern (``lower_linalg``), keeping each op's
location for the remarks; linalg on tensors is an error (bufferize first).
A ``linalg.fill`` of a reduction's output with the reduction's identity right
before it is the reduction's initial value (``fill_before``): the region
stores the fold, and the fill is dropped (mm_inner's one region, not three).

``remarks=true`` prints one line per loop nest on stderr, as MLIR's
optimization remarks: ``file:line:col: remark: extract-streams: ...`` saying
what was extracted, and for every nest (or loop) kept on the host, why.

The pass is this module (``Extractor``: each loop nest, from the whole band
down to its innermost loop, distributed when it must be) and its parts:
``extract_remarks`` (remarks, refusals, errors), ``extract_loops`` (loop ops,
bands), ``extract_trees`` (expression trees, reduction kinds),
``extract_analysis`` (one candidate region's analysis), ``extract_regions``
(building the regions), ``extract_distribution`` (fission), ``extract_peel``
(loops split at a border their body tests the index against),
``extract_host`` (host code as scf/arith/memref), ``extract_linalg`` (linalg
as loops).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import affine, func, scf
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.ops import BroadcastOp, ReduceOp
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import VerifyException

from infs.dialects import stream
from infs.dialects.lattice import LatticeError
from infs.passes.extract_analysis import Analysis
from infs.passes.extract_distribution import distribute, distribution_refused, statements_of
from infs.passes.extract_host import affine_parallel_as_fors, lower_host_affine, parallel_as_loops
from infs.passes.extract_linalg import FillFold, lower_linalg
from infs.passes.extract_loops import erase_ops, is_loop, loop_band, loop_body, ops_of
from infs.passes.extract_peel import peel_borders
from infs.passes.extract_regions import Plan, plan_region
from infs.passes.extract_remarks import Refuse, Remark, source_line


class Extractor:
    def __init__(self) -> None:
        self.remarks: list[Remark] = []
        self.parts: dict[Operation, str] = {}
        self.fills: dict[Operation, FillFold] = {}

    def remark(self, op: Operation, text: str, extracted: bool = False) -> None:
        # a distributed statement's nest has the location of the nest it came from: the remark says which statement
        self.remarks.append(Remark(op, self.parts.get(op, "") + text, extracted))

    def loop(self, op: Operation) -> None:
        """``nest(op)``; a fill (``fill_before``) is decided after the reduction it precedes."""
        if any(fd.fill_root is op for fd in self.fills.values()):
            return
        n = len(self.remarks)
        self.nest(op)
        for fd in [fd for fd in self.fills.values() if fd.acc_root is op]:
            later, self.remarks[n:] = self.remarks[n:], []
            if fd.folded:  # every cell it sets, the reduction sets, from the same value
                self.remark(fd.fill_root, f"'linalg.fill' folded into the reduction at line {source_line(op)}: it sets its output to the reduction's identity, and linalg's reduction writes every cell of it", True)
                erase_ops(fd.fill)
            else:
                self.nest(fd.fill_root)
            self.remarks += later

    def block(self, ops: Sequence[Operation], any_region: bool = False) -> None:
        """Each loop of ``ops`` as a nest; the blocks of host control flow
        (``scf.if``, ``affine.if``, ``scf.while``; with ``any_region``, of any
        op) likewise: loops inside it are nests of their own."""
        for op in list(ops):
            if is_loop(op):
                self.loop(op)
            elif op.regions and (any_region or op.dialect_name() in ("scf", "affine")):
                for r in op.regions:
                    for b in r.blocks:
                        self.block(b.ops)

    def analyse(self, root: Operation, band: Sequence[Operation], leaf: Sequence[Operation]) -> Analysis:
        a = Analysis(root)
        a.fills = self.fills
        for loop in band:
            a.band_dims += a.add_loop(loop)
        if not band:
            (loop,) = leaf
            a.reduction_loop(loop)
            # (an argmin loop's best value has no node: arg_reduction checks nothing uses it)
            missing = [r for r in loop.results if r not in a.nodes and r.uses]
            if missing:  # e.g. an iter_args loop whose body lost its yield (found by make fuzz)
                raise Refuse(f"{len(missing)} result(s) of the loop are not yielded by its body")
            a.escaping = {r: a.nodes[r] for r in loop.results if r in a.nodes}
        else:
            a.body(leaf)
        return a

    def distribute(self, loop: Operation, band: Sequence[Operation], leaf: Sequence[Operation], why: str) -> str | None:
        """Distribute the band over its body's statements when that is legal
        (``distribution_refused``) and each part becomes a nest of its own
        (tried at every depth again); else why not."""
        parts = statements_of(leaf)
        if len(parts) < 2:
            return "its body is one statement"
        refused = distribution_refused(band, leaf, parts)
        if refused is not None:
            return refused
        copies = distribute(loop, leaf, parts)
        self.remark(loop, f"loop nest distributed into {len(copies)} nests, one per statement ({why}; no array one statement writes is shared with another between iterations)")
        for n, c in enumerate(copies):
            self.parts[c] = f"statement {n + 1} of {len(copies)}: "
            self.nest(c)
        return None

    def nest(self, loop: Operation) -> None:
        band, leaf = loop_band(loop)
        plain_inner = [o for o in leaf if is_loop(o) and not (o.results and band)]
        if band and plain_inner:
            where = f"the body of the loop at line {source_line(band[-1])}" if band[-1] is not loop else "its body"
            k = sum(1 for o in leaf if is_loop(o))
            shape = f"{where} holds {k} loop{'s' if k > 1 else ''} and {len(leaf) - k} other op{'s' if len(leaf) - k != 1 else ''} (not perfectly nested)"
            not_distributed = self.distribute(loop, band, leaf, shape)
            if not_distributed is None:
                return
            self.remark(loop, f"loop nest not extracted as a whole: {shape}; its inner loop nests are tried on their own (not distributed: {not_distributed})")
            self.block(leaf, any_region=True)
            return
        reasons: list[str] = []
        for p in range(max(len(band), 1)):  # (no band: the one accumulation loop)
            root = band[p] if band else leaf[0]
            try:
                a = self.analyse(root, band[p:], leaf)
                plan = plan_region(a)
            except Refuse as e:
                reasons.append(str(e))
            except (VerifyException, LatticeError) as e:
                # an op of the nest the analysis read wrongly: keep it on the host (a wrong region is worse than none)
                reasons.append(f"the region would not verify: {str(e).splitlines()[0]}")
            else:
                break
            if p == 0 and band and len(statements_of(leaf)) > 1:
                # the whole band is not one region: its statements may be, apart
                if self.distribute(loop, band, leaf, f"the whole nest is not one region: {reasons[-1]}") is None:
                    return
        else:
            self.remark(loop, f"loop nest not extracted: {reasons[-1]}")
            if band:
                # an accumulation loop in the body is a nest of its own (a fold per
                # host iteration, e.g. a triangular sum over k < i); so are the loops in
                # host control flow there (a loop split at its borders: extract_peel)
                for o in leaf:
                    if is_loop(o) and o.results:
                        self.nest(o)
                    elif not is_loop(o) and isinstance(o, scf.IfOp):
                        self.block([o])
            else:
                # an accumulation loop holding one that folds its accumulator further
                # (a triangle: for i iter_args { for j < i iter_args(%b = %a) }): the
                # inner one is a fold per host iteration, as in a band
                self.block(ops_of(loop_body(leaf[0])))
            return
        self.apply(root, plan)
        for fd in a.folded:
            fd.folded = True
        desc = "; ".join(f"domain {r.iteration_domain} iterators [{', '.join(r.iterator_kinds)}]" for r in plan.regions)
        n = len(plan.regions)
        self.remark(root, f"loop nest extracted into {n} stream.region{'s' if n > 1 else ''}: {desc}{plan.note}", True)
        if p:
            lines = ", ".join(source_line(x) for x in band[:p])
            many = "s" if p > 1 else ""
            self.remark(loop, f"loop{many} at line{many} {lines} stay{'' if many else 's'} on the host around the region: {reasons[-1]}")

    def apply(self, root: Operation, plan: Plan) -> None:
        ip = InsertPoint.before(root)
        for r in plan.regions:
            r.location = root.location  # (errors and reports about the region point at its loop nest)
        Rewriter.insert_op([*plan.host.before, *plan.regions, *plan.host.after], ip)
        for old, new in plan.replace.items():
            old.replace_all_uses_with(new)
        Rewriter.erase_op(root, safe_erase=False)


def extract_streams(module: ModuleOp) -> list[Remark]:
    """Run the pass on ``module`` (in place); its remarks, in program order.
    ``linalg`` ops on memrefs become loops first (``lower_linalg``)."""
    ex = Extractor()
    remarks, ex.fills = lower_linalg(module)
    ex.remarks += remarks
    for f in [op for op in module.walk() if isinstance(op, func.FuncOp)]:
        # an scf.parallel reduction is read as the loops with iter_args it lowers to
        for p in reversed([o for o in f.walk() if isinstance(o, scf.ParallelOp) and o.initVals]):
            parallel_as_loops(p, p.lowerBound, p.upperBound, p.step)
        # and an affine.parallel reduction as the affine.for nest with iter_args
        for p in reversed([o for o in f.walk() if isinstance(o, affine.ParallelOp) and o.res]):
            affine_parallel_as_fors(p)
        # a border clamp (`r == 0 ? r : r - 1`) split off: each piece's indices affine
        ex.remarks += [Remark(op, text, True) for op, text in peel_borders(f)]
        for b in f.body.blocks:
            ex.block(b.ops)
        lower_host_affine(f)
    return ex.remarks


def has_plain_loops(module: ModuleOp) -> bool:
    """Loops (or linalg ops, which become loops) for the pass to read."""
    return any(is_loop(op) or isinstance(op, (LinalgStructuredOperation, BroadcastOp, ReduceOp)) for op in module.walk())


@dataclass(frozen=True)
class ExtractStreamsPass(ModulePass):
    """Turn plain loop nests into ``stream.region``s (see the module docstring)."""

    name = "extract-streams"

    remarks: bool = False
    """Print one remark per loop nest on stderr: what was extracted, and why the rest stays on the host."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for r in extract_streams(op):
            if self.remarks:
                print(r, file=sys.stderr)
