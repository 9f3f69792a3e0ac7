"""Arrays larger than the compute ways: a region run in memory in chunks (issue 16; ASPLOS §7, limitation 2).

The paper disables in-memory computing when a region's data does not fit the
SRAM arrays.  A region whose outermost dim is parallel can instead run as a
sequence of *chunks* of that dim, each small enough for the machine, in
increasing order: ``chunk_region(region)`` is the region with its outer range
``[lo0:hi0)`` replaced by ``[0:CH)`` and every access map's ``d0`` by
``d0 + XLO`` (two new index symbols).  ``XLO`` then only moves where the
streams start, so ``infs.runtime.base_offsets`` folds it into array views cut
to what the chunk touches (the halo of a stencil's neighbour loads included):
every full chunk is the same tDFG over views of the same shape, lowered once by
the memoized JIT, plus one lowering for a shorter last chunk.  Each chunk is
transposed in, computed and its results released back, and the model charges
all of it (the machine runs every chunk's program).

Chunks run one after the other, so the result equals the region's only when
no chunk reads what an earlier one wrote and every write lands where the
region's would.  ``chunk_unsafe`` refuses (conservatively):

* a region result that is not an add/mul/min/max fold over the outer dim
  (those are folded again across the chunks, in order, on the host: the
  chunks' results are the final near-memory reduction's partials);
* an outer reduction dim whose values are stored rather than returned, or a
  region whose iteration space is wider than its arrays (its outer dims
  already run as host loops);
* a written array (store or atomic) that is also read, or written again, at
  any other access map, or through an index stream; a write whose map does not
  move with ``d0`` (the chunks would overwrite each other's cells).
"""

from __future__ import annotations

from xdsl.dialects.builtin import IndexType
from xdsl.ir import Block, Region
from xdsl.utils.exceptions import VerifyException

from infs.dialects import stream
from infs.dialects.lattice import Affine, Domain, MapAttr, dim_name

_ACCESS_OPS = (stream.LoadOp, stream.StoreOp, stream.AtomicOp)

# Chunks of one region invocation the runtime plans and simulates one by one
# (a 64M-element vec_add on paper-64 takes 16; 4,096 is 2^34 f32 elements there):
# beyond it the region is not run in memory.
MAX_CHUNKS = 4096


COMBINABLE = ("add", "mul", "min", "max")


def chunk_combine(region: stream.RegionOp) -> tuple[str, ...] | str:
    """Per region result, the reduction kind that folds the chunks' results into
    it (each chunk's result is its rows' fold: the folds of consecutive chunks
    fold again, in order); or why the results cannot be combined so."""
    (yield_op,) = [op for op in region.body.block.ops if isinstance(op, stream.YieldOp)]
    kinds = []
    for v in yield_op.values:
        op = v.owner
        if not isinstance(op, stream.ReduceOp) or op.kind.data not in COMBINABLE or op.init is not None or 0 not in op.dims_list():
            return "a result is not an add/mul/min/max reduction over the outer dim without an init value"
        kinds.append(op.kind.data)
    return tuple(kinds)


def chunk_unsafe(region: stream.RegionOp) -> str | None:
    """Why ``region`` cannot run in chunks of its outer dim (None when it can)."""
    if region.res:
        why = chunk_combine(region)
        if isinstance(why, str):
            return why
    kinds = region.iterator_kinds
    if not kinds or kinds[0] not in ("parallel", "reduction"):
        return "its outer dim is neither parallel nor a reduction"
    if kinds[0] == "reduction" and (not region.res or any(isinstance(op, (stream.StoreOp, stream.AtomicOp)) for op in region.body.block.ops)):
        return "its outer dim is a reduction whose values are stored, not returned"
    ranks = [len(a.type.get_shape()) for a in region.arrays]  # type: ignore[attr-defined]
    if ranks and region.iteration_domain.rank > max(ranks):
        return "its outer dim(s) already run as host loops"
    args = list(region.array_args)

    def array_of(op) -> int:
        # one array passed twice is one array: compare the operands
        return next(i for i, a in enumerate(region.arrays) if a is region.arrays[args.index(op.array)])

    reads: dict[int, list] = {}
    writes: dict[int, list] = {}
    for op in region.body.block.ops:
        if not isinstance(op, _ACCESS_OPS) or op.array not in args:
            continue
        key = array_of(op)
        entry = (op.access_map(), op.indirect_positions())
        (reads if isinstance(op, stream.LoadOp) else writes).setdefault(key, []).append(entry)
    for key, ws in writes.items():
        name = f"%{region.arrays[key].name_hint or args[key].name_hint or f'array #{key}'}"
        amap, indirect = ws[0]
        if indirect or any(e != ws[0] for e in ws[1:]):
            return f"{name} is written through an index stream or at two access maps"
        if 0 not in amap.dims_used():
            return f"{name} is written at cells that do not move with the outer dim"
        if any(e != ws[0] for e in reads.get(key, [])):
            return f"{name} is written and read at another access map (a chunk would read an earlier chunk's writes)"
    return None


def chunk_region(region: stream.RegionOp) -> tuple[stream.RegionOp, Block]:
    """The region over one chunk of its outer dim (module docstring): scalars
    ``[*region's, CH, XLO]``.  Returns it (detached) and the block holding its
    two new operands (keep it alive with the region)."""
    taken = set(region.names)
    names = []
    for base in ("CH", "XLO"):
        name = base
        while name in taken:
            name += "_"
        taken.add(name)
        names.append(name)
    holder = Block(arg_types=[IndexType(), IndexType()])
    for v, n in zip(holder.args, names):
        v.name_hint = n.lower()
    ch, xlo = names
    shift = {dim_name(0): Affine.of(dim_name(0)) + Affine.of(xlo)}
    old = region.body.block
    block = Block(arg_types=[a.type for a in old.args] + [IndexType(), IndexType()])
    for new, a in zip(block.args, old.args):
        new.name_hint = a.name_hint
    for new, n in zip(block.args[len(old.args) :], names):
        new.name_hint = n
    vmap = dict(zip(old.args, block.args))
    for op in old.ops:
        new_op = op.clone(value_mapper=vmap)
        if isinstance(new_op, _ACCESS_OPS):
            new_op.properties["map"] = MapAttr(new_op.access_map().substitute(shift))
        block.add_op(new_op)
    dom = region.iteration_domain
    chunked = stream.RegionOp(
        region.arrays, [*region.scalars, *holder.args], [*region.names, *names],
        Domain(((Affine(0), Affine.of(ch)), *dom.bounds[1:])), region.iterator_kinds, Region(block), [r.type for r in region.res],
    )  # fmt: skip
    chunked.location = region.location
    try:
        chunked.verify()
    except VerifyException as e:  # (a region it cannot be: chunk_unsafe is checked first)
        chunked.drop_all_references()
        raise ValueError(f"the chunked region is not valid: {str(e).splitlines()[0]}") from None
    return chunked, holder


def chunk_starts(lo: int, hi: int, count: int) -> list[tuple[int, int]]:
    """``count`` chunks of ``[lo, hi)`` as (size, start): equal sizes, the last one shorter."""
    size = -(-(hi - lo) // count)
    return [(min(size, hi - s), s) for s in range(lo, hi, size)]
