"""Loop indices as base addresses: a re-entered region lowers once (ASPLOS §3.3, §4.2).

A region re-entered by a host loop sees the loop index as a symbol (``k`` of
``C[i,j] += A[i,k] * B[k,j]``, or a peeled outer dim: ``dist[p,c] = sum_d
(F[p,d] - Cen[c,d])^2`` for each point ``p``).  When such a symbol only moves
where an array is read or written -- every access of that array adds the same
multiple of it to the same index, and it appears nowhere else (not in the
domain, not as a value) -- it is the stream's *base address*, which the
paper's ``inf_cfg`` passes at run time with the other stream parameters
(§3.3; NSC §II: a stream is configured with its start address).  The region is
then the same tDFG at every iteration, over *views* of the arrays starting at
that address, and the JIT's memoization (§4.2, "same tDFG with the same
parameters") lowers it once.  A symbol that changes the tensors' shapes (the
shrinking ``k`` of gauss_elim) is a real parameter and is lowered anew at every
iteration, as the paper reports (§8: 51% JIT time for gauss_elim).

``fold_base_offsets(region)`` returns the folded region -- the same ops, the
folded symbols' terms removed from the maps, each folded array's indices taken
relative to the start of its view (a new index symbol per folded array dim,
bound at run time to where the accessed range begins) -- or None when no
symbol folds.  ``BaseOffsets.bind`` gives, for one invocation, the views and
the folded graph's extra symbol values.  The views are numpy views: writes go
to the arrays themselves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, MemRefType
from xdsl.ir import Block, Region, SSAValue
from xdsl.utils.exceptions import VerifyException

from infs.dialects import stream
from infs.dialects.lattice import Affine, AccessMap, Domain, LatticeError, dim_index
from infs.dialects.stream import MapAttr

_ACCESS_OPS = (stream.LoadOp, stream.StoreOp, stream.AtomicOp)


@dataclass
class BaseOffsets:
    """How a folded region's arrays are found at each invocation."""

    region: stream.RegionOp  # the folded region (detached; operands are ``holder``'s arguments)
    holder: Block  # keeps the operands' block alive
    folded: frozenset[str]  # the symbols that became base addresses
    kept: list[int]  # the original scalars the folded region keeps (its scalars: these, then the offsets)
    # per array operand: None (passed whole) or, per dim, (the folded symbols'
    # part of the index, the offset symbol's name) -- None for a dim left whole
    views: list[list[tuple[Affine, str] | None] | None]
    # per array operand and dim: the accesses' indices without the folded part
    # (what the offset symbol's value and the view's extent are computed from)
    rests: list[list[list[tuple[Affine, frozenset[int]]]]]
    # (the original region, its index scalars as (position, name), its domain): ``bind``'s reads of it
    _signature: tuple | None = field(default=None, repr=False, compare=False)

    def bind(self, original: stream.RegionOp, arrays: Sequence[np.ndarray], scalars: Sequence[object]) -> tuple[list[np.ndarray], list[object]] | None:
        """The views of ``arrays`` for this invocation of ``original`` (with
        ``scalars``) and the folded region's scalars; None when the domain is
        empty (nothing is accessed, so there is no base address: the caller
        runs the region unfolded)."""
        sig = self._signature
        if sig is None or sig[0] is not original:  # what bind reads of the region, read once per region
            index = [(i, n) for i, (n, a) in enumerate(zip(original.names, original.scalar_args)) if isinstance(a.type, IndexType)]
            sig = self._signature = (original, index, original.iteration_domain)
        env = {n: int(np.asarray(scalars[i]).item()) for i, n in sig[1]}
        try:
            box = sig[2].evaluate(env)
        except LatticeError:
            return None
        if any(q <= p for p, q in box):
            return None
        views: list[np.ndarray] = []
        offsets: dict[str, int] = {}
        for a, dims, rests in zip(arrays, self.views, self.rests):
            if dims is None:
                views.append(a)
                continue
            index: list[slice] = []
            for d, (entry, accesses) in enumerate(zip(dims, rests)):
                if entry is None:
                    index.append(slice(None))
                    continue
                base, name = entry
                lo = min(_extreme(e, live, box, env, low=True) for e, live in accesses)
                hi = max(_extreme(e, live, box, env, low=False) for e, live in accesses)
                start = base.evaluate(env) + lo
                if start < 0 or start + (hi - lo) >= a.shape[d]:
                    return None  # out of the array: the unfolded region reports it
                index.append(slice(start, start + hi - lo + 1))
                offsets[name] = lo
            views.append(a[tuple(index)])
        names = self.region.names
        return views, [*(scalars[i] for i in self.kept), *(offsets[n] for n in names[len(self.kept) :])]


def _extreme(e: Affine, live: frozenset[int], box: tuple[tuple[int, int], ...], env: dict[str, int], low: bool) -> int:
    """The least (``low``) or greatest value of ``e`` over the box; a dim that is
    not live for the access (reduced before a store) takes its first value."""
    acc = e.const
    for n, c in e.terms:
        d = dim_index(n)
        if d is None:
            acc += c * int(env[n])
            continue
        p, q = box[d]
        if d not in live:
            acc += c * p
        else:
            acc += c * (p if (c > 0) == low else q - 1)
    return acc


def _foldable_symbols(region: stream.RegionOp) -> set[str]:
    """Index symbols used only in access maps (not in the domain, not as values)."""
    used_in_maps = set()
    for op in region.body.block.ops:
        if isinstance(op, _ACCESS_OPS):
            used_in_maps |= op.access_map().symbols_used()
    out = set()
    # (a chunk of a region keeps its region's domain symbols: dwt2d's H2 in O[d0 + XLO + H2, d1], chunking.chunk_region)
    domain = region.iteration_domain.names | getattr(region, "domain_symbols", frozenset())
    for name, arg in zip(region.names, region.scalar_args):
        if isinstance(arg.type, IndexType) and name in used_in_maps and not arg.uses and name not in domain:
            out.add(name)
    return out


def _split(e: Affine, names: frozenset[str]) -> tuple[Affine, Affine]:
    """(the part of ``e`` in ``names``, the rest)."""
    mine = Affine._make(0, {n: c for n, c in e.terms if n in names})
    return mine, e - mine


def fold_base_offsets(region: stream.RegionOp) -> BaseOffsets | None:
    """The region with its base-address symbols folded into array views (module
    docstring), or None when none folds."""
    candidates = _foldable_symbols(region)
    if not candidates:
        return None
    args = list(region.array_args)
    accesses: list[list[stream._MemoryStreamOp]] = [[] for _ in args]
    for op in region.body.block.ops:
        if isinstance(op, _ACCESS_OPS):
            accesses[args.index(op.array)].append(op)
    # A symbol folds when, for every array, every access adds the same multiple
    # of it to the same (affine, not indirect) index; otherwise it stays a
    # symbol (and the region is lowered per value, as before).
    changed = True
    while changed and candidates:  # dropping a symbol can split another's parts: to a fixed point
        before = set(candidates)
        for i, ops in enumerate(accesses):
            for op in ops:
                indirect = set(op.indirect_positions())
                for d, e in enumerate(op.access_map().results):
                    if d in indirect:
                        candidates -= e.names
            for d in range(len(args[i].type.get_shape())):  # type: ignore[attr-defined]
                parts = {_split(op.access_map().results[d], frozenset(candidates))[0] for op in ops}
                if len(parts) > 1:
                    for p in parts:
                        candidates -= p.names
        changed = candidates != before
    folded = frozenset(candidates)
    if not folded:
        return None

    taken = set(region.names)
    views: list[list[tuple[Affine, str] | None] | None] = []
    rests: list[list[list[tuple[Affine, frozenset[int]]]]] = []
    new_maps: dict[int, AccessMap] = {}
    extra: list[str] = []
    for i, ops in enumerate(accesses):
        rank = len(args[i].type.get_shape())  # type: ignore[attr-defined]
        dims: list[tuple[Affine, str] | None] = []
        per_dim: list[list[tuple[Affine, frozenset[int]]]] = []
        for d in range(rank):
            split = [_split(op.access_map().results[d], folded) for op in ops]
            base = split[0][0] if split else Affine()
            if not split or base.is_constant:
                dims.append(None)
                per_dim.append([])
                continue
            name = f"base{i}_{d}"
            while name in taken:
                name += "_"
            taken.add(name)
            extra.append(name)
            dims.append((base, name))
            per_dim.append([(rest, _live_dims(o, region)) for o, (_, rest) in zip(ops, split)])
        if all(x is None for x in dims):
            views.append(None)
            rests.append(per_dim)
            continue
        views.append(dims)
        rests.append(per_dim)
        for op in ops:
            m = op.access_map()
            new_maps[id(op)] = AccessMap(tuple(
                e if dims[d] is None else _split(e, folded)[1] - Affine.of(dims[d][1])  # type: ignore[index]
                for d, e in enumerate(m.results)
            ))  # fmt: skip

    # the folded region: views of dynamic shape; the folded symbols dropped
    # (so that nothing keys a lowering on them), the offset symbols appended
    array_types = []
    for a, v in zip(region.arrays, views):
        t = a.type
        if v is not None:
            t = MemRefType(t.element_type, [DYNAMIC_INDEX] * len(t.get_shape()))  # type: ignore[attr-defined]
        array_types.append(t)
    kept = [i for i, n in enumerate(region.names) if n not in folded]
    arg_types = [*array_types, *(region.scalars[i].type for i in kept), *([IndexType()] * len(extra))]
    holder = Block(arg_types=arg_types)
    old = region.body.block
    block = Block(arg_types=arg_types)
    n = len(region.arrays)
    old_args = [*old.args[:n], *(region.scalar_args[i] for i in kept)]
    for new, a in zip(block.args, old_args):
        new.name_hint = a.name_hint
    for new, name in zip(block.args[len(old_args) :], extra):
        new.name_hint = name
    vmap: dict[SSAValue, SSAValue] = dict(zip(old_args, block.args))
    for op in old.ops:
        new_op = op.clone(value_mapper=vmap)
        if id(op) in new_maps:
            new_op.properties["map"] = MapAttr(new_maps[id(op)])
        block.add_op(new_op)
    folded_region = stream.RegionOp(
        list(holder.args[:n]), list(holder.args[n:]), [*(region.names[i] for i in kept), *extra],
        Domain(region.iteration_domain.bounds), region.iterator_kinds, Region(block), [r.type for r in region.res],
    )  # fmt: skip
    folded_region.location = getattr(region, "location", None)
    try:
        folded_region.verify()
    except VerifyException:
        # e.g. the static loop-carried check cannot prove the folded accesses
        # independent: keep the region as it is (lowered per value, as before)
        folded_region.drop_all_references()
        return None
    return BaseOffsets(folded_region, holder, folded, kept, views, rests)


def _live_dims(op, region: stream.RegionOp) -> frozenset[int]:
    """The dims an access varies over: all for a load, the live dims of the
    stored value for a store (a reduced value is stored once)."""
    if isinstance(op, stream.LoadOp):
        return frozenset(range(region.iteration_domain.rank))
    return frozenset(stream.live_dims(op.value, region))
