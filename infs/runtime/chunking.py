"""Arrays larger than the compute ways: a region run in memory in chunks (ASPLOS §7, limitation 2).

The paper disables in-memory computing when a region's data does not fit the
SRAM arrays.  infs runs such a region as a sequence of *chunks*, boxes of its
iteration space small enough for the machine, one after the other:
``chunk_region(region, dims)`` is the region with each chunked dim's range
replaced by ``[0:CH)`` and its ``d`` in every access map by ``d + XLO`` (two new
index symbols per dim).  ``XLO`` then only moves where the streams start, so
``infs.runtime.base_offsets`` folds it into array views cut to what the chunk
touches (the halo of a stencil's neighbour loads along every split dim
included): every chunk of one shape is the same tDFG over views of the same
shape, lowered once by the memoized JIT, plus one lowering per shorter
boundary chunk.  Each chunk is transposed in, computed and its results
released back, and the model charges all of it (the machine runs every
chunk's program).  The runtime (``RegionRuntime.plan_chunked``) splits the
first chunkable dim, then, when its single rows still do not fit, the next
one too; a region whose outer dims run as host loops is chunked inside each
host loop point (its inner region).

Chunks run one after the other, in the region's order, so the result equals
the region's only when no chunk reads what another one wrote and every write
lands where the region's would.  ``dim_unsafe`` decides it per dim,
conservatively:

* a region result must be an add/mul/min/max fold over the chunked dims (the
  chunks' results are folded again, in order, on the host: they are the final
  near-memory reduction's partials);
* a reduction dim whose values are stored is chunked only as a last resort,
  its chunks' partials folded into the stored cells (``stored_folds``; the
  runtime charges the fold near memory);
* every written array must be written and read at one access map that moves
  with the dim (one that tells the dim apart, ``_separates``, when the chunks
  do not keep the region's order: else a cell written from two chunks keeps
  the later chunk's write, not the region's last), or have one index position
  that is the same function of the dim alone in all its accesses (or such
  functions far enough apart for the run's symbols), or be updated by atomics
  only (chunks in the region's order); a read no write can touch (over the
  region's box) does not count;
* partials are folded across chunks with the region's own semantics
  (``fold_partials``: an i1 is signed, a float min/max orders -0.0 < +0.0).

The chunked region is checked again, for symbolic chunks, by the region
verifier and tensorize, under its ``assumptions`` (``chunk_assumptions``: the
chunk's rows ``[XLO, XLO + CH)`` lie inside the region's ``[lo, hi)``), which
the runtime checks on every chunk's values (``assumptions_unmet``): they prove
gauss_elim's pivot row ``k`` (``lo = k + 1``) outside a chunk, and dwt2d's
stores ``O[d0 + XLO, d1]``, ``O[d0 + XLO + H2, d1]`` apart (``XLO + CH <= H2``).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping

from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, MemRefType
from xdsl.ir import Block, Region
from xdsl.utils.exceptions import VerifyException

from infs.dialects import stream
from infs.dialects.lattice import AccessMap, Affine, Domain, LatticeError, MapAttr, dim_index, dim_name

_ACCESS_OPS = (stream.LoadOp, stream.StoreOp, stream.AtomicOp)

# Chunks of one region invocation the runtime plans and simulates one by one
# (a 64M-element vec_add on paper-64 takes 16; 4,096 is 2^34 f32 elements there):
# beyond it the region is not run in memory.
MAX_CHUNKS = 4096


COMBINABLE = ("add", "mul", "min", "max")


def dim_label(d: int) -> str:
    return "the outer dim" if d == 0 else f"dim d{d}"


def chunk_combine(region: stream.RegionOp, dims: tuple[int, ...] = (0,)) -> tuple[str, ...] | str:
    """Per region result, the reduction kind that folds the chunks' results into
    it (each chunk's result is its cells' fold: the folds of consecutive chunks
    fold again, in order); or why the results cannot be combined so."""
    (yield_op,) = [op for op in region.body.block.ops if isinstance(op, stream.YieldOp)]
    kinds = []
    over = "the outer dim" if dims == (0,) else "every chunked dim (" + ", ".join(dim_name(d) for d in dims) + ")"
    for v in yield_op.values:
        op = v.owner
        if not isinstance(op, stream.ReduceOp) or op.kind.data not in COMBINABLE or op.init is not None or not set(dims) <= set(op.dims_list()):
            return f"a result is not an add/mul/min/max reduction over {over} without an init value"
        kinds.append(op.kind.data)
    return tuple(kinds)


def fold_partials(kind: str, a, b):
    """``a`` (what the earlier chunks folded) and ``b`` (this chunk's partials)
    folded as the region's own reduction folds its values: an i1 is signed (true
    is -1: add is xor, min or, max and -- ``np.add``/``np.minimum`` on bools are
    or/and), and a float min/max is ``arith.minimumf``/``maximumf``, where -0.0 <
    +0.0 (``np.minimum`` keeps whichever zero comes first)."""
    import numpy as np

    from infs.element_types import REDUCE_UFUNCS, signed_atomic_ufunc, zero_of_kind

    a, b = np.asarray(a), np.asarray(b)
    if a.dtype == np.bool_:
        return signed_atomic_ufunc(kind, a.dtype)(a, b)
    r = REDUCE_UFUNCS[kind](a, b)
    if kind in ("min", "max") and a.dtype.kind == "f":
        hit = zero_of_kind(kind, a) | zero_of_kind(kind, b)
        r = np.where((r == 0) & hit, a.dtype.type(-0.0 if kind == "min" else 0.0), r)
    return r


def fold_identity(kind: str, dtype):
    """What ``fold_partials``' fold of nothing is: the reduction's identity,
    for an i1 min/max the signed one (min false, max true:
    ``element_types.signed_i1_identity``)."""
    import numpy as np

    from infs.element_types import reduce_identity, signed_i1_identity

    if np.dtype(dtype) == np.bool_ and kind in ("min", "max"):
        return np.asarray(signed_i1_identity(kind) & 1, np.bool_)
    return reduce_identity(kind, np.dtype(dtype))


def region_unsafe(region: stream.RegionOp) -> str | None:
    """Why no dim of ``region`` can be chunked, whichever (None when some might)."""
    ranks = [len(a.type.get_shape()) for a in region.arrays]  # type: ignore[attr-defined]
    if ranks and region.iteration_domain.rank > max(ranks):
        return "its outer dim(s) already run as host loops"
    return None


def _accesses(region: stream.RegionOp) -> tuple[dict[int, list], dict[int, list], dict[int, list]]:
    """Per array (by its first operand index): its loads, stores and atomics as (map, indirect positions)."""
    args = list(region.array_args)
    reads: dict[int, list] = {}
    stores: dict[int, list] = {}
    atomics: dict[int, list] = {}
    for op in region.body.block.ops:
        if not isinstance(op, _ACCESS_OPS) or op.array not in args:
            continue
        out = reads if isinstance(op, stream.LoadOp) else stores if isinstance(op, stream.StoreOp) else atomics
        out.setdefault(_array_of(region, op, args), []).append((op.access_map(), op.indirect_positions()))
    return reads, stores, atomics


def _array_of(region: stream.RegionOp, op, args: list | None = None) -> int:
    """The array an access op reaches, by its first operand index (one array passed twice is one array)."""
    args = list(region.array_args) if args is None else args
    return next(i for i, a in enumerate(region.arrays) if a is region.arrays[args.index(op.array)])


def _interval(e: Affine, box: dict[str, tuple[int, int]], env: Mapping[str, int]) -> tuple[int, int] | None:
    """The values of ``e`` over the iteration box (per dim ``[lo, hi)``) for the
    symbols' values ``env``; None when a symbol is unknown."""
    lo = hi = e.const
    for n, c in e.terms:
        if n in box:
            a, b = box[n]
            lo, hi = lo + min(c * a, c * (b - 1)), hi + max(c * a, c * (b - 1))
        elif n in env:
            lo, hi = lo + c * env[n], hi + c * env[n]
        else:
            return None
    return lo, hi


def _apart(m1, m2, box, env) -> bool:
    """The two maps touch no common cell over the box (an index position whose values do not meet)."""
    for e1, e2 in zip(m1.results, m2.results):
        i1, i2 = _interval(e1, box, env), _interval(e2, box, env)
        if i1 is not None and i2 is not None and (i1[1] < i2[0] or i2[1] < i1[0]):
            return True
    return False


def _own_position(entries: list, d: int, box, env) -> bool:
    """Every access of an array has, at one index position, the expression
    ``c * d + r_i`` (one ``c``, no other dim): chunks of ``d`` touch disjoint cells
    of it when the ``r_i`` are one expression or, for the symbols' values ``env``,
    differ by at least the extent of ``d`` (dwt2d's stores ``O[d0, d1]`` and
    ``O[d0 + H2, d1]``, d0 in ``[0, H2)``)."""
    if any(ind for _, ind in entries):
        return False
    dn = dim_name(d)
    first = entries[0][0]
    for p, e in enumerate(first.results):
        c = e.coeff(dn)
        if c == 0 or any(dim_index(n) is not None and n != dn for n in e.names):
            continue
        exprs = [m.results[p] for m, _ in entries]
        if any(x.coeff(dn) != c or any(dim_index(n) is not None and n != dn for n in x.names) for x in exprs):
            continue
        rests = {x - Affine.of(dn) * c for x in exprs}
        if len(rests) == 1:
            return True
        if env is None or dn not in box:
            continue
        vals = [r.evaluate(env) if r.names <= set(env) else None for r in rests]
        if None in vals:
            continue
        lo, hi = box[dn]
        span = abs(c) * (hi - lo)
        if all(abs(u - v) >= span for i, u in enumerate(vals) for v in vals[i + 1 :]):
            return True
    return False


def _separates(amap: AccessMap, d: int, rank: int, box: Mapping[str, tuple[int, int]]) -> bool:
    """Iterations that ``amap`` sends to one cell have the same value of dim ``d``:
    the column of ``d`` in the map's linear part is not in the span of the other
    dims' columns (a kernel vector, two iterations writing one cell, then moves
    no ``d``), whatever the bounds; or, over the iteration ``box`` (when known),
    one index position tells every dim in it apart as the digits of a mixed-radix
    number (``A[d1 + 40*d0]``, d1 in [0, 40): each coefficient exceeds the reach
    of the smaller ones)."""
    import numpy as np

    m = np.array([[e.coeff(dim_name(j)) for j in range(rank)] for e in amap.results], dtype=float).reshape(len(amap.results), rank)
    others = np.delete(m, d, axis=1)
    if np.linalg.matrix_rank(m) > (np.linalg.matrix_rank(others) if others.size else 0):
        return True
    dn = dim_name(d)
    for e in amap.results:
        dims = [n for n in e.names if dim_index(n) is not None]
        if e.coeff(dn) == 0 or any(n not in box for n in dims):
            continue
        reach = 0  # the most the smaller-coefficient dims move the index
        for c, n in sorted((abs(e.coeff(n)), n) for n in dims):
            if c <= reach:
                break
            reach += c * (box[n][1] - box[n][0] - 1)
        else:
            return True
    return False


def dim_unsafe(region: stream.RegionOp, d: int, in_order: bool = True, env: Mapping[str, int] | None = None, fold: bool = False) -> str | None:
    """Why ``region`` cannot run in chunks of its dim ``d`` (None when it can).
    ``in_order``: the chunks keep the region's iteration order (the chunked dims
    are its outermost ones, every one but the innermost chunked one split into
    single rows), which atomic updates of one cell from several chunks need.
    ``env``: the values of the region's index symbols, when known (they prove
    more accesses apart).  ``fold``: a reduction dim whose values are stored may
    be chunked too, its chunks' partials folded into the stored cells
    (``stored_folds``)."""
    kinds = region.iterator_kinds
    dn = dim_label(d)
    if region.res:
        why = chunk_combine(region, (d,))
        if isinstance(why, str):
            return why
    if kinds[d] not in ("parallel", "reduction"):
        return f"{dn} is neither parallel nor a reduction"
    if kinds[d] == "reduction" and (not region.res or any(isinstance(op, (stream.StoreOp, stream.AtomicOp)) for op in region.body.block.ops)):
        if not fold:
            return f"{dn} is a reduction whose values are stored, not returned"
        folds = stored_folds(region, d)
        return folds if isinstance(folds, str) else None
    box: dict[str, tuple[int, int]] = {}
    if env is not None:
        try:
            box = {dim_name(i): b for i, b in enumerate(region.iteration_domain.evaluate(env))}
        except LatticeError:
            box = {}
    reads, stores, atomics = _accesses(region)
    for key in sorted({*stores, *atomics}):
        name = f"%{region.arrays[key].name_hint or region.array_args[key].name_hint or f'array #{key}'}"
        ws = stores.get(key, []) + atomics.get(key, [])
        # a read no write of the region can touch (gauss_elim's pivot row A[k, d1], rows k + 1.. written)
        rs = [r for r in reads.get(key, []) if not (box and not r[1] and all(not w[1] and _apart(r[0], w[0], box, env) for w in ws))]
        if _own_position(ws + rs, d, box, env):
            continue  # every chunk has cells of its own
        if key in atomics and key not in stores and not rs:
            # updates that commute, applied in the region's order when the chunks keep it
            if in_order:
                continue
            return f"{name} is updated by atomics, whose order only chunks of the outer dims (in order) keep"
        amap, indirect = ws[0]
        if indirect or any(e != ws[0] for e in ws[1:]):
            return f"{name} is written through an index stream or at two access maps that do not both move with {dn}"
        if d not in amap.dims_used():
            return f"{name} is written at cells that do not move with {dn}"
        if not in_order and not _separates(amap, d, region.iteration_domain.rank, box):
            # a cell written by iterations in two chunks of d (A[d0 + d1] in chunks of
            # d1): the later chunk's write would win, not the region's last one
            return f"{name} is written at {amap}, where iterations in different rows of {dn} write one cell; only chunks of the outer dims (in order) keep which write is last"
        if any(e != ws[0] for e in rs):
            return f"{name} is written and read at another access map (a chunk would read an earlier chunk's writes)"
    return None


def stored_folds(region: stream.RegionOp, d: int) -> list[tuple[int, str, AccessMap]] | str:
    """A reduction dim ``d`` whose values are stored (mm_inner's ``C[i, j] = sum_k``,
    ``d`` = k): per store, (array, fold kind, map) when the partials that chunks
    of ``d`` store can be folded into the stored cells, in chunk order (every store
    is an add/mul/min/max reduction over ``d`` without an init value, to an array
    the region stores nothing else to and does not read); or why they cannot."""
    dn = dim_label(d)
    if region.res:
        return f"{dn} is a reduction whose values are stored, in a region with results"
    reads, stores, atomics = _accesses(region)
    if atomics:
        return f"{dn} is a reduction whose values are stored, in a region with atomic updates"
    out = []
    keys = []
    for op in region.body.block.ops:
        if not isinstance(op, stream.StoreOp):
            continue
        red = op.value.owner
        if not isinstance(red, stream.ReduceOp) or red.kind.data not in COMBINABLE or red.init is not None or d not in red.dims_list():
            return f"{dn} is a reduction whose values are stored, and a store is not of an add/mul/min/max reduction over it"
        if op.indirect_positions():
            return f"{dn} is a reduction whose values are stored through an index stream"
        keys.append(_array_of(region, op))  # (not the first array stored at the same map: C[d1] and E[d1] are two)
        out.append((keys[-1], red.kind.data, op.access_map()))
    for k in keys:
        if k in reads or len(stores[k]) > 1:
            name = f"%{region.arrays[k].name_hint or region.array_args[k].name_hint or f'array #{k}'}"
            return f"{dn} is a reduction whose values are stored to {name}, which the region also reads or stores elsewhere"
    return out


def fold_cells(folds: list, env: Mapping[str, int], box: list[tuple[int, int]], data: bool = True) -> list[tuple[int, str, tuple | None, int]]:
    """The cells each store of ``stored_folds`` writes over ``box`` (per dim of the
    region, ``[lo, hi)``): (array, kind, index arrays -- None without ``data`` --,
    how many).  A dim the store's map does not use (a folded one) takes one value."""
    import numpy as np

    out = []
    for key, kind, amap in folds:
        used = amap.dims_used()
        extents = [(hi - lo if d in used else 1) for d, (lo, hi) in enumerate(box)]
        idx = None
        if data:
            grids = np.meshgrid(*[np.arange(lo, lo + n) for (lo, _), n in zip(box, extents)], indexing="ij", sparse=True)
            idx = amap.apply(grids, env)
        out.append((key, kind, idx, math.prod(extents)))
    return out


def chunk_unsafe(region: stream.RegionOp, dims: tuple[int, ...] = (0,), env: Mapping[str, int] | None = None, fold: bool = False) -> str | None:
    """Why ``region`` cannot run in chunks of ``dims`` (None when it can)."""
    why = region_unsafe(region)
    if why is not None:
        return why
    in_order = dims == tuple(range(len(dims)))
    for d in dims:
        why = dim_unsafe(region, d, in_order, env, fold)
        if why is not None:
            return why
    return None


def chunk_names(region: stream.RegionOp, dims: tuple[int, ...]) -> list[str]:
    """The new symbols of ``chunk_region(region, dims)``: per dim its chunk's size and start."""
    taken = set(region.names)
    names = []
    for d in dims:
        for base in ("CH", "XLO"):
            name = base if d == 0 else f"{base}{d}"
            while name in taken:
                name += "_"
            taken.add(name)
            names.append(name)
    return names


def chunk_region(region: stream.RegionOp, dims: tuple[int, ...] = (0,)) -> tuple[stream.RegionOp, Block]:
    """The region over one chunk of its ``dims`` (module docstring): scalars
    ``[*region's, CH, XLO]`` per chunked dim.  Returns it (detached) and the block
    holding its new operands (keep it alive with the region).

    A load of a written array at cells that move with no chunked dim, at an index
    that is no dim at all (gauss_elim's pivot row ``A[k, d1]``), reads a new
    operand instead, bound by the runtime to the view of those cells
    (``A[k:k+1, :]``, read at ``[0, d1]``; ``array_sources``): the chunk's start
    then folds into the view of the cells that move (``base_offsets``).  That it
    is sound to read the row apart from the chunk's writes is checked first, by
    the region verifier on the chunked region with the load on the array itself
    (the row ``k`` is outside ``[XLO, XLO + CH)`` by ``assumptions``)."""
    names = chunk_names(region, dims)
    old = region.body.block
    written = {op.array for op in old.ops if isinstance(op, (stream.StoreOp, stream.AtomicOp))}
    cuts: dict[stream.LoadOp, tuple[tuple[int, Affine], ...]] = {}
    for op in old.ops:
        if isinstance(op, stream.LoadOp) and op.array in written and not op.indirect_positions() and not set(dims) & op.access_map().dims_used():
            cut = tuple((p, e) for p, e in enumerate(op.access_map().results) if not any(dim_index(n) is not None for n in e.names))
            if cut:
                cuts[op] = cut
    # the proof: the chunk with every load on its own array
    proof, holder = _chunk_region(region, dims, names, {})
    if not cuts:
        return proof, holder
    proof.drop_all_references()
    return _chunk_region(region, dims, names, cuts)


def _chunk_region(region, dims, names, cuts) -> tuple[stream.RegionOp, Block]:
    rows = list(cuts)
    holder = Block(arg_types=[IndexType()] * len(names) + [MemRefType(op.array.type.element_type, [DYNAMIC_INDEX] * len(op.array.type.get_shape())) for op in rows])  # type: ignore[attr-defined]
    for v, n in zip(holder.args, names):
        v.name_hint = n.lower()
    row_vals = list(holder.args[len(names) :])
    shift = {dim_name(d): Affine.of(dim_name(d)) + Affine.of(names[2 * i + 1]) for i, d in enumerate(dims)}
    old = region.body.block
    na = len(region.arrays)
    block = Block(arg_types=[a.type for a in old.args[:na]] + [v.type for v in row_vals] + [a.type for a in old.args[na:]] + [IndexType()] * len(names))
    olds = [*old.args[:na], *(op.array for op in rows), *old.args[na:]]
    for new, a in zip(block.args, olds):
        new.name_hint = a.name_hint
    for new, n in zip(block.args[len(olds) :], names):
        new.name_hint = n
    vmap = dict(zip(old.args, block.args))
    for op in old.ops:
        new_op = op.clone(value_mapper=vmap)
        if isinstance(new_op, _ACCESS_OPS):
            amap = new_op.access_map().substitute(shift)
            if op in cuts:  # the row's own view, read at index 0 where it is cut
                new_op.operands = [block.args[na + rows.index(op)], *new_op.operands[1:]]
                at = dict(cuts[op])
                amap = AccessMap(tuple(Affine(0) if p in at else e for p, e in enumerate(amap.results)))
            new_op.properties["map"] = MapAttr(amap)
        block.add_op(new_op)
    dom = region.iteration_domain
    bounds = list(dom.bounds)
    for i, d in enumerate(dims):
        bounds[d] = (Affine(0), Affine.of(names[2 * i]))
    chunked = stream.RegionOp(
        [*region.arrays, *row_vals], [*region.scalars, *holder.args[: len(names)]], [*region.names, *names],
        Domain(tuple(bounds)), region.iterator_kinds, Region(block), [r.type for r in region.res],
    )  # fmt: skip
    chunked.location = region.location
    # per operand: the region's operand it is bound to, and the cut (index
    # position, expression of the symbols) of a row's view (``bind_rows``)
    args = list(region.array_args)
    chunked.array_sources = [*((i, ()) for i in range(na)), *((args.index(op.array), cuts[op]) for op in rows)]  # type: ignore[attr-defined]
    # What the checks may assume of every chunk the runtime runs (``chunk_grid``
    # cuts the region's box; ``assumptions_unmet`` checks the values bound): its
    # rows [XLO, XLO + CH) lie inside the region's [lo, hi).  This is what proves
    # gauss_elim's pivot row k (< lo = k + 1) outside a chunk's rows for the
    # verifier, and dwt2d's stores O[d0 + XLO, d1], O[d0 + XLO + H2, d1] apart for
    # tensorize (XLO + CH <= H2).
    chunked.assumptions = chunk_assumptions(region, dims)  # type: ignore[attr-defined]
    # the region's domain symbols stay bounds, not base addresses to fold (base_offsets)
    chunked.domain_symbols = frozenset(region.iteration_domain.names)  # type: ignore[attr-defined]
    try:
        chunked.verify()
    except VerifyException as e:  # (a region it cannot be: chunk_unsafe is checked first)
        chunked.drop_all_references()
        raise ValueError(f"the chunked region is not valid: {str(e).splitlines()[0]}") from None
    return chunked, holder


def bind_rows(chunked: stream.RegionOp, arrays: list, env: Mapping[str, int]) -> list | str:
    """The arrays of ``chunked`` (``chunk_region``) from its region's ``arrays`` for
    the symbols' values ``env``: a cut row's operand is the view of its row(s); or
    why not (a row outside its array)."""
    out = []
    for src, cut in chunked.array_sources:  # type: ignore[attr-defined]
        a = arrays[src]
        if cut:
            index = [slice(None)] * a.ndim
            for p, e in cut:
                v = e.evaluate(env)
                if not 0 <= v < a.shape[p]:
                    return f"a chunk reads index {v} of an array dim of {a.shape[p]}"
                index[p] = slice(v, v + 1)
            a = a[tuple(index)]
        out.append(a)
    return out


def chunk_assumptions(region: stream.RegionOp, dims: tuple[int, ...]) -> tuple[Affine, ...]:
    """Per chunked dim ``d`` over ``[lo, hi)``: ``XLO - lo >= 0`` and ``hi - XLO - CH >= 0``
    (as the expressions that are >= 0), in ``chunk_region``'s symbols."""
    names = chunk_names(region, dims)
    out = []
    for i, d in enumerate(dims):
        lo, hi = region.iteration_domain.bounds[d]
        size, start = Affine.of(names[2 * i]), Affine.of(names[2 * i + 1])
        out += [start - lo, hi - start - size]
    return tuple(out)


def assumptions_unmet(facts: tuple[Affine, ...], env: Mapping[str, int]) -> str | None:
    """Which of a chunked region's assumptions ``facts`` (``chunk_assumptions``)
    the symbol values ``env`` (the region's, and one chunk's CH, XLO, ...) break,
    or None: the runtime checks it for every chunk before running any (the checks
    that passed the chunked region relied on them)."""
    for e in facts:
        if e.evaluate(env) < 0:
            return f"a chunk breaks {e} >= 0 (its rows are not inside the region's)"
    return None


def chunk_starts(lo: int, hi: int, count: int) -> list[tuple[int, int]]:
    """``count`` chunks of ``[lo, hi)`` as (size, start): equal sizes, the last one shorter."""
    size = -(-(hi - lo) // count)
    if size <= 0:
        return []
    return [(min(size, hi - s), s) for s in range(lo, hi, size)]


def chunk_grid(ranges: list[tuple[int, int]], counts: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The chunks of a box (one ``[lo, hi)`` per chunked dim, split in ``counts``
    chunks each), in the region's order (outer dim first): per chunk, its size and
    start along each dim, ``(CH, XLO, CH1, XLO1, ...)`` as ``chunk_region``'s scalars."""
    parts = [chunk_starts(lo, hi, c) for (lo, hi), c in zip(ranges, counts)]
    return [tuple(v for part in combo for v in part) for combo in itertools.product(*parts)]


# -- chunks double-buffered: the next chunk's DRAM fetch behind this one's compute --------
#
# Where the model allows, chunk i+1's inputs come from DRAM into the L3 while
# chunk i computes, so a step costs max(compute_i, dram_{i+1}) -- plus chunk
# i+1's transposition into the arrays, which stays serial (the arrays are
# computing) -- and the run costs the first fill, the steps and the last
# chunk's compute (its release is lazy, §5.2: nothing to drain).  The join is
# the Infinity Stream model's: in its gem5 implementation
# (PolyArch/gem-forge-gem5, branch gem-forge,
# src/cpu/gem_forge/accelerator/stream/cache/pum/MLCPUMManager.cc),
# ``kickPUMEngine`` starts the DRAM prefetch of the data a phase (the
# commands up to the next sync) needs (``fetchPUMDataBeforeSync``) together
# with the kick that starts the phase's commands, and ``tryKickPUMEngine``
# moves on only when both the engine's acks and the prefetch
# (``inFlightPUMPrefetch``) are done: a phase takes the longer of the two.
# Applying it across chunks is infs's own (the paper has no chunks, §7
# limitation 2): the machine hides a fetch behind a window the runtime opens
# (``Machine.overlap_next``), and the runtime opens it only when the fetched
# bytes, staged in the L3 in their normal layout, have room beside the chunk
# still computing.


def wordlines_used(prog) -> int:
    """The highest wordline (exclusive) a lowered program's registers occupy."""
    from infs.dialects import pimcmd_schema as K
    from infs.element_types import ELEMENT_BITS

    top = 0
    for c in prog.cmds:
        k, f = c.kind, c
        if k is K.ARRAY:
            top = max(top, f["wordline"] + ELEMENT_BITS[prog.element(f["arr"])])
            continue
        for key in k.REG_WRITES:
            v = f.get(key)
            for r in (v if isinstance(v, tuple) else (v,)) if v is not None else ():
                top = max(top, r + k.dst_bits(f))
    return top


def transposed_in(prog) -> list[int]:
    """The array arguments a lowered program transposes in (what a chunk fetches)."""
    from infs.dialects import pimcmd_schema as K

    return sorted({c["arr"] for c in prog.cmds if c.kind is K.TRANSPOSE_IN})


def overlap_window(prev_prog, prev_compute: int, fetched: int, cfg) -> tuple[int, str]:
    """The window (cycles) chunk i+1's DRAM fetches may hide behind: chunk i's
    in-memory time without its own DRAM transfers (``prev_compute``), when the L3
    has room for chunk i+1's ``fetched`` bytes beside chunk i's registers (the
    compute ways' wordlines above those chunk i uses, and the other ways); else
    (0, why)."""
    if not fetched:
        return 0, "nothing to fetch from DRAM"
    used = wordlines_used(prev_prog)
    room = cfg.l3_bytes - used * cfg.total_bitlines // 8
    if fetched > room:
        return 0, f"the next chunk's {fetched:,} bytes from DRAM do not fit the {room:,} bytes of the L3 beside a chunk's {used} wordlines"
    return prev_compute, ""
