"""``tdfg-to-pimcmd``: a laid-out tDFG becomes a domain-form ``pimcmd.program``.

Takes: ``tdfg.graph`` ops after ``specialize`` and ``choose-layout``.  Gives:
one ``pimcmd.program`` (flag ``virtual``) per graph, in its place: one virtual
register per tensor value, commands still on lattice boxes (``domain``), to
be decomposed and lowered by the next passes of ``lower-pim``.

* arrays read as tensors, or stored to from in-memory tensors, get a layout
  entry and a ``transpose_in``; the written ones a ``release`` at the end.  An
  array the graph only writes, and writes whole (its stores cover every cell),
  is allocated, not fetched: no ``transpose_in`` (its old values are never
  read, and the release writes back every cell; a partial write keeps the
  fetch, for the cells it does not write).  When its one store is of a
  ``compute``'s result over a box decompose need not split, the compute
  writes straight into the array's wordlines (no spare register, no copy);
* ``tensor`` is the array's register restricted to a box (no command);
  ``shrink`` narrows the box; ``const`` becomes a compute's constant operand
  (or a register filled with it where the op needs it elsewhere);
* ``cmp`` -> ``compute`` on the intersection box; ``mv`` -> ``mv`` of the
  source cells whose destination stays inside the global bounding box (the
  rest is discarded, §3.2); ``bc`` -> ``bc`` of the copies that land inside;
  ``reduce`` -> ``reduce`` (partial results at each tile's first cell);
* the embedded streams run near memory on buffers (§3.3, §5.3): a tensor is
  read out (``readout``) where a stream consumes it, ``stream_reduce`` is a
  ``near_reduce`` over the read-out partials, ``stream_load`` a ``near_load``
  written into a register (``writein``) where tensors consume it,
  ``stream_store`` a ``near_store``;
* ``store`` copies into the array's register after every read (tensors read
  the array as it was on entry), or near memory for an array not laid out.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from infs.dialects import pimcmd_schema as K
from infs.dialects.lattice_values import AccessMap, Affine, Domain, dim_name
from infs.hardware import HardwareConfig, load_config
from infs.passes.lower_pim.layout import Layout, LayoutError
from infs.passes.lower_pim.decompose import decompose_box
from infs.dialects.pimcmd_records import Box, Cmd, PimProgram, box_empty, element_name, ScalarType
from infs.passes.lower_pim.pim_program import lazy_pass
from infs.passes.lowering_errors import LoweringError
from infs.dialects.pimcmd_records import box_intersect, box_shift, box_with
from infs.dialects.tdfg_records import BC, CMP, CONST, MV, REDUCE, SHRINK, STORE, STREAM_LOAD, STREAM_REDUCE, STREAM_STORE, TENSOR, YIELD, GraphRecord, Node
from infs.passes.tdfg_domains import CONCRETE, Bindings, GraphFacts, box_of_shape, checked_element, collapse, infer_boxes, is_infinite
from infs.element_types import COMMUTATIVE, ELEMENT_DTYPES
from infs.passes.tdfg_semantics import apply_cmp


@dataclass
class _Reg:
    reg: int
    box: Box
    type: str
    # the dims a chain of reduces folded into each tile's first cell (partial
    # results): only those cells are meaningful, the others hold the rounds'
    # leftovers, so a stream_reduce reads every tile-size-th cell along each
    partial_dims: tuple[int, ...] = ()


@dataclass
class _Const:
    value: float | int | None  # None: the program's scalar argument ``arg``
    type: str
    arg: int | None = None

    def fields(self) -> dict:
        return {"const": self.value} if self.arg is None else {"const_arg": self.arg}


def _canonical_empty(box: Box) -> Box:
    """An empty box as a valid domain: its empty dims become [0:0] (a box moved
    out of the lattice may have crossed bounds, e.g. [2:1])."""
    return tuple((0, 0) if q <= p else (p, q) for p, q in box)


@dataclass
class _Buf:
    id: int
    box: Box
    type: str


class _Converter:
    def __init__(self, graph: GraphRecord, cfg: HardwareConfig, layout: Layout, at: Bindings = CONCRETE, facts: GraphFacts | None = None):
        self.graph = graph
        self.facts = facts = facts or GraphFacts.of(graph)
        self.cfg = cfg
        self.layout = layout
        self.at = at
        self.rank = facts.rank
        self.bbox: Box = tuple([(0, s) for s in layout.lattice])
        self.boxes = infer_boxes(graph, clip=self.bbox, at=at, facts=facts)  # by value number
        self.cmds: list[Cmd] = []
        self.deferred: list[tuple[_Reg | _Buf, int]] = []
        self.near_after: list[dict] = []  # the stream_stores' near_stores, after the stores
        self.reg = itertools.count().__next__  # a fresh virtual register
        self.buf = itertools.count().__next__  # a fresh near-memory buffer id
        self.values: list[_Reg | _Const | _Buf | int | None] = [None] * facts.values  # by value number
        self.array_reg: dict[int, int] = {}
        self.written: set[int] = set()
        self.computed: set[int] = set()  # registers a tdfg.cmp's compute wrote (whole box, fresh)
        self.unfetched: set[int] = set()  # write-only arrays stored whole: no transpose_in (``write_only``)
        self.scalars: list[int] = []  # graph scalars used as runtime constants (their indices), in program order

    def scalar_index(self, arg: int) -> int:
        if arg not in self.scalars:
            self.scalars.append(arg)
        return self.scalars.index(arg)

    # -- helpers ---------------------------------------------------------------
    def emit(self, cmd_kind: K.CommandKind, /, **f) -> None:
        self.cmds.append(Cmd(cmd_kind, f))

    def array_box(self, i: int) -> Box:
        return box_of_shape(self.layout.shapes[i], self.rank)

    def empty_fold_box(self, box: Box, dims) -> Box:
        """The (empty) box to read out for a stream_reduce of an empty tensor.

        Where every kept dim is non-empty the fold is a row of identities at
        the reduced dims' first coordinates (tdfg semantics, as the stream
        reference), so the buffer keeps those coordinates; they must be a
        valid (empty) domain of the lattice."""
        if len(set(dims)) == self.rank or any(q <= p for d, (p, q) in enumerate(box) if d not in dims):
            return _canonical_empty(box)  # a scalar (the identity) or an empty result: no coordinate matters
        out = box
        for d in dims:
            p = box[d][0]
            if not 0 <= p < self.layout.lattice[d]:
                # the identities lie outside the lattice: no cell of the result
                # is needed (lattice_extent covers every needed one)
                return _canonical_empty(box)
            out = box_with(out, d, p, p)
        return out

    def valid_empty(self, box: Box) -> Box:
        """``box``, its empty dims as valid domains of the lattice (a box moved or
        clipped out of the lattice may have crossed bounds, e.g. [2:1]) at
        their first coordinate where the lattice holds it."""
        return tuple((c, c) if q <= p else (p, q) for (p, q), s in zip(box, self.layout.lattice) for c in [min(max(p, 0), s)])

    def tile_aligned(self, box: Box, dims, upper: bool = False) -> Box:
        """``box`` grown along ``dims`` to the first cell of its first tile
        (where a reduce leaves a tile's partial result), and with ``upper`` to
        the end of its last tile (within the lattice)."""
        for d in dims:
            T = self.layout.tiles[d]
            p, q = box[d]
            box = box_with(box, d, (p // T) * T, min(-(-q // T) * T, self.layout.lattice[d]) if upper else q)
        return box

    def as_reg(self, v, box: Box | None = None) -> _Reg:
        """A register holding the value (filling constants, writing buffers in)."""
        if isinstance(v, _Reg):
            return v
        if isinstance(v, _Buf):
            if not box_empty(v.box) and box_intersect(v.box, self.bbox) != v.box:
                raise LoweringError(f"near-memory values on the cells {Domain.of(v.box)} do not fit the lattice {list(self.layout.lattice)}")
            return self.write_in(v, v.box)
        if isinstance(v, _Const):
            if box is None or is_infinite(box):
                raise LoweringError("a constant tensor is used where its extent is unknown")
            r = _Reg(self.reg(), box, v.type)
            if not box_empty(box):
                self.emit(K.COMPUTE, op="copy", type=v.type, dst=r.reg, srcs=(), domain=box, **v.fields())
            return r
        raise LoweringError(f"value {v!r} cannot live in a register")

    def write_in(self, b: _Buf, box: Box) -> _Reg:
        """A new register holding buffer ``b``'s values on the cells ``box``."""
        r = _Reg(self.reg(), box, b.type)
        if not box_empty(box):
            self.emit(K.WRITEIN, type=b.type, dst=r.reg, domain=box, id=b.id)
        return r

    def as_buf(self, v, box: Box | None = None) -> _Buf:
        """A near-memory buffer holding the value (reading registers out)."""
        if isinstance(v, _Buf):
            return v
        r = self.as_reg(v, box)
        if r.partial_dims:
            raise LoweringError("the partial results of 'tdfg.reduce' can only feed 'tdfg.stream_reduce'")
        b = _Buf(self.buf(), _canonical_empty(r.box), r.type)
        self.emit(K.READOUT, type=r.type, src=r.reg, domain=b.box, id=b.id)
        return b

    def identity_map(self, i: int) -> AccessMap:
        r = self.facts.arg_ranks[i]
        return AccessMap(tuple(Affine.of(dim_name(self.rank - r + j)) for j in range(r)))

    # -- conversion ------------------------------------------------------------------
    def run(self) -> PimProgram:
        # An array without elements (a size of 0) has no cell to lay out: no
        # LOT entry; its register is only ever seen through empty boxes.
        in_lot = [i for i in sorted(self.layout.shapes) if all(s > 0 for s in self.layout.shapes[i])]
        for i in sorted(self.layout.shapes):
            r = self.reg()
            self.array_reg[i] = r
            if i in in_lot:
                self.emit(K.ARRAY, arr=i, shape=self.layout.shapes[i], wordline=r, transposed=True)
        for i in in_lot:
            self.emit(K.TRANSPOSE_IN, arr=i)
        results: list[tuple[int, int]] = []
        for n in self.facts.sched:
            if n.kind is YIELD:
                for idx, v in enumerate(n.ins):
                    val = self.values[v] if v >= 0 else None
                    if not isinstance(val, int):
                        raise LoweringError("a tdfg.graph result must be a scalar stream_reduce")
                    results.append((idx, val))
                continue
            self.convert(n)
        self.flush_stores()
        if self.unfetched:
            self.cmds = [c for c in self.cmds if not (c.kind is K.TRANSPOSE_IN and c["arr"] in self.unfetched)]
        for f in self.near_after:
            self.emit(K.NEAR_STORE, **f)
        for i in sorted(self.written):
            self.emit(K.RELEASE, arr=i)
        for idx, bid in results:
            self.emit(K.RESULT, index=idx, id=bid)
        return PimProgram(
            arg_types=list(self.facts.arg_types),
            config=self.cfg.spec,  # reloads the same machine (hardware.config_spec)
            lattice=self.layout.lattice,
            tiles=self.layout.tiles,
            banks=self.cfg.banks,
            per_bank=self.cfg.arrays_per_bank,
            wordlines=self.cfg.wordlines,
            virtual=True,
            result_types=[ScalarType(t) for t in self.facts.result_types],
            cmds=self.cmds,
            scalar_types=[ScalarType(self.facts.scalar_types[j]) for j in self.scalars],
        )

    def convert(self, n: Node) -> None:
        boxes, k, values = self.boxes, n.kind, self.values
        if (k is MV or k is BC or k is SHRINK) and isinstance(values[n.ins[0]], _Const):
            values[n.res] = values[n.ins[0]]  # the same constant: its (moved, spanned, restricted) box is in self.boxes
        elif k is TENSOR:
            values[n.res] = _Reg(self.array_reg[n.arr], boxes[n.res], checked_element(n.elem))  # type: ignore[arg-type]
        elif k is CONST:
            if n.scalar is not None:
                values[n.res] = _Const(None, checked_element(n.elem), self.scalar_index(n.scalar))
                return
            assert n.num is not None  # a FloatAttr or IntegerAttr value (the op's verifier)
            values[n.res] = _Const(n.num, checked_element(n.elem))
        elif k is CMP:
            self.convert_cmp(n)
        elif k is MV:
            src = values[n.ins[0]]
            dst_box = boxes[n.res]
            d, dist = n.dim, self.at.value(n.dist)
            if isinstance(src, _Buf) and box_shift(src.box, d, dist) == dst_box and not box_empty(dst_box):
                # near-memory data moved whole into the lattice: written in where
                # it lands (its own cells may lie outside, e.g. the identity row
                # of an empty reduction at a domain's lower bound)
                values[n.res] = self.write_in(src, dst_box)  # type: ignore[arg-type]
                return
            src = self.as_reg(src)
            r = _Reg(self.reg(), dst_box, src.type)  # type: ignore[arg-type]
            if not box_empty(dst_box):  # type: ignore[arg-type]
                self.emit(K.MV, type=src.type, dst=r.reg, src=src.reg, dim=d, dist=dist, domain=box_shift(dst_box, d, -dist))  # type: ignore[arg-type]
            values[n.res] = r
        elif k is BC:
            self.convert_bc(n)
        elif k is SHRINK:
            src = self.as_reg(values[n.ins[0]], boxes[n.res])
            d = n.dim
            if d in src.partial_dims and boxes[n.res][d] != src.box[d]:
                # the tiles' partial results need not lie in the narrower range
                raise LoweringError(f"'tdfg.shrink' along dim {d} of the partial results of a 'tdfg.reduce' over that dim")
            values[n.res] = _Reg(src.reg, boxes[n.res], src.type, src.partial_dims)  # type: ignore[arg-type]
        elif k is REDUCE:
            src = self.as_reg(values[n.ins[0]], boxes[n.ins[0]])
            d = n.dim
            if d in src.partial_dims:
                # already folded along d with the same tiles: the tile's first
                # cell holds the fold, the rest is identity in tdfg semantics
                values[n.res] = src
                return
            # a reduce of partials folds the meaningful cells only: the other
            # cells' leftovers stay out of the tile starts along the earlier dims
            r = _Reg(self.reg(), src.box, src.type, partial_dims=(*src.partial_dims, d))
            if not box_empty(src.box):
                # a head piece's partials went to the first cell of its tile,
                # which may lie before the box: fold over the tile-aligned box
                dom = self.tile_aligned(src.box, src.partial_dims)
                self.emit(K.REDUCE, op=n.name, type=src.type, dst=r.reg, src=src.reg, dim=d, domain=dom)
            values[n.res] = r
        elif k is STREAM_REDUCE:
            self.convert_stream_reduce(n)
        elif k is STREAM_LOAD:
            box = self.valid_empty(boxes[n.res])
            reused = self.reused_dims(n, box)
            if reused:
                values[n.res] = self.fill_and_broadcast(n, box, reused)
                return
            idx = [self.as_buf(values[v], boxes[v]) for v in n.ins]
            b = _Buf(self.buf(), box, checked_element(n.elem))  # type: ignore[arg-type]
            self.emit(K.NEAR_LOAD, type=b.type, arr=n.arr, map=self.at.access_map(n.map), indirect=n.indirect,
                      indices=tuple(x.id for x in idx), domain=box, out=b.id)  # fmt: skip
            values[n.res] = b
        elif k is STREAM_STORE:
            val = self.as_buf(values[n.ins[0]], boxes[n.ins[0]])
            idx = [self.as_buf(values[v], boxes[v]) for v in n.ins[1:]]
            # the values are read out now; the stream engines write them after
            # every store (run): a graph applies its stores before its stream
            # stores, and tensors read the arrays' registers as they were on entry
            self.near_after.append(dict(kind=n.name, type=val.type, input=val.id, arr=n.arr, map=self.at.access_map(n.map),
                                        indirect=n.indirect, indices=tuple(x.id for x in idx)))  # fmt: skip
        elif k is STORE:
            v = values[n.ins[0]]
            if isinstance(v, _Const):
                v = self.as_reg(v, box_intersect(boxes[n.ins[0]], self.array_box(n.arr)))
            self.deferred.append((v, n.arr))  # type: ignore[arg-type]
        else:
            raise LoweringError(f"cannot lower '{n.kind.name}' to in-memory commands")

    def reused_dims(self, n: Node, box: Box) -> list[int]:
        """The lattice dims along which a ``stream_load`` reads the same element for every
        cell of its box (its map ignores them: ``m[d0]`` over a 2-D box, a 1-D array
        reused along d1), when the load is lowered as a fill and a broadcast
        (``fill_and_broadcast``); empty when it is a gather of every cell.

        Only an affine load (no index tensors, whose cells differ along every dim)
        inside the lattice whose every user is an in-memory op (``cmp``, ``bc``,
        ``shrink``: they read it from a register anyway); a load a near-memory
        stream or a ``store`` consumes stays a buffer, read where it is used."""
        if n.ins or n.indirect or box_empty(box) or box_intersect(box, self.bbox) != box:
            return []
        used = self.at.access_map(n.map).dims_used()
        dims = [d for d, (p, q) in enumerate(box) if d not in used and q - p > 1]
        if not dims:
            return []
        users = self._users().get(n.res, ())
        if not users or any(u not in _IN_MEMORY_USERS for u in users):
            return []
        return dims

    def _users(self) -> dict[int, list[type]]:
        """The kinds of the nodes that read each tensor value (by value number)."""
        users = getattr(self, "_users_of", None)
        if users is None:
            users = self._users_of = {}
            for m in self.facts.body:
                for v in m.ins:
                    users.setdefault(v, []).append(m.kind)
        return users

    def fill_and_broadcast(self, n: Node, box: Box, dims: list[int]) -> _Reg:
        """A ``stream_load`` whose element is reused along ``dims``: the stream engines
        load the distinct elements once, into one slice of the box (the slice at the
        first coordinate of every reused dim: a 1-D fill for ``m[d0]``), which is
        written into a register and broadcast in memory along each reused dim.

        This is the paper's and its artifact's lowering of reuse: "a load stream may
        broadcast the CNN weights to all bitlines (stream to tensor)" (ASPLOS §1),
        the reused value of Fig. 4(c) "reused (N-1) times" (§3.1) broadcast
        through "a buffered H tree to enable efficient broadcast" (§5.2); gem5's
        ``MLCPUMManager`` keeps a reused stream's value node at its pattern without
        the reuse (stride-0) dims and adds a move node "to do the reuse expansion"
        (``MLCPUMManager.cc``, ``expandReusePat`` and its caller), lowered by
        ``DataMoveCompiler`` as a broadcast.  A gather of every cell would read
        each element once per reusing cell through the stream engines."""
        fill = box
        for d in dims:
            fill = box_with(fill, d, box[d][0], box[d][0] + 1)
        b = _Buf(self.buf(), fill, checked_element(n.elem))  # type: ignore[arg-type]
        self.emit(K.NEAR_LOAD, type=b.type, arr=n.arr, map=self.at.access_map(n.map), indirect=n.indirect,
                  indices=(), domain=fill, out=b.id)  # fmt: skip
        r = self.write_in(b, fill)
        # the longest reused dim last: the earlier broadcasts move the smaller slices
        for d in sorted(dims, key=lambda d: box[d][1] - box[d][0]):
            p, q = box[d]
            wide = _Reg(self.reg(), box_with(r.box, d, p, q), r.type)
            self.emit(K.BC, type=r.type, dst=wide.reg, src=r.reg, dim=d, dist=0, count=q - p, domain=r.box)
            r = wide
        return r

    def convert_cmp(self, n: Node) -> None:
        name = n.name
        box = self.boxes[n.res]
        ins = [self.values[v] for v in n.ins]
        if all(isinstance(v, _Const) for v in ins):
            if any(v.arg is not None for v in ins):
                raise LoweringError(f"'tdfg.cmp' {name} of runtime constants only has no extent to compute on")
            out_dt = ELEMENT_DTYPES[n.elem]
            vals = [np.asarray(v.value, dtype=ELEMENT_DTYPES[t]) for v, t in zip(ins, n.in_elems)]
            folded = apply_cmp(name, vals, out_dt).item()
            if isinstance(folded, bool):  # i1: 0/1 (True is a record's unit flag)
                folded = int(folded)
            self.values[n.res] = _Const(folded, checked_element(n.elem))
            return
        if is_infinite(box):
            raise LoweringError(f"'tdfg.cmp' {name} has an unbounded domain")
        if any(isinstance(v, _Reg) and v.partial_dims for v in ins):
            raise LoweringError("the partial results of 'tdfg.reduce' can only feed 'tdfg.stream_reduce'")
        out_t = checked_element(n.elem)
        data_t = checked_element(n.in_elem)
        if name in COMMUTATIVE and len(ins) == 2 and isinstance(ins[0], _Const) and not isinstance(ins[1], _Const):
            ins = [ins[1], ins[0]]
        const = None
        if isinstance(ins[-1], _Const) and name != "select":
            const = ins[-1]
            ins = ins[:-1]
        regs = [self.as_reg(v, box) for v in ins]
        r = _Reg(self.reg(), box, out_t)
        if not box_empty(box):
            f = dict(op=name, type=data_t, dst=r.reg, srcs=tuple(x.reg for x in regs), domain=box)
            if const is not None:
                f.update(const.fields())
            self.emit(K.COMPUTE, **f)
            self.computed.add(r.reg)
        self.values[n.res] = r

    def convert_bc(self, n: Node) -> None:
        src = self.as_reg(self.values[n.ins[0]])
        d = n.dim
        dist, count = self.at.value(n.dist), self.at.value(n.count)
        p, q = src.box[d]
        w = q - p
        r = _Reg(self.reg(), self.boxes[n.res], src.type)  # type: ignore[arg-type]
        self.values[n.res] = r
        if box_empty(src.box) or count <= 0 or box_empty(r.box):
            return
        lo_l, hi_l = self.bbox[d]
        if w == 1:
            j0 = max(0, lo_l - (p + dist))
            j1 = min(count, hi_l - (p + dist))
            if j1 > j0:
                self.emit(K.BC, type=src.type, dst=r.reg, src=src.reg, dim=d, dist=dist + j0, count=j1 - j0, domain=src.box)
            return
        # copies j whose cells all land inside the bounding box stay one 'bc';
        # a copy cut by the box's edge becomes a 'mv' of its inside part
        full = [j for j in range(count) if p + dist + j * w >= lo_l and q + dist + j * w <= hi_l]
        if full:
            j0, j1 = full[0], full[-1] + 1
            self.emit(K.BC, type=src.type, dst=r.reg, src=src.reg, dim=d, dist=dist + j0 * w, count=j1 - j0, domain=src.box)
        else:
            j0 = j1 = 0
        for j in range(count):
            if j0 <= j < j1:
                continue
            k = dist + j * w
            part = box_intersect(box_shift(src.box, d, k), self.bbox)
            if not box_empty(part):
                self.emit(K.MV, type=src.type, dst=r.reg, src=src.reg, dim=d, dist=k, domain=box_shift(part, d, -k))

    def convert_stream_reduce(self, n: Node) -> None:
        v = self.values[n.ins[0]]
        dims = n.dims
        step = [1] * self.rank
        partial = v.partial_dims if isinstance(v, _Reg) else ()
        missing = [d for d in partial if d not in dims]
        if missing:
            raise LoweringError(f"'tdfg.stream_reduce' over {list(dims)} does not complete the in-memory reduce over dim {missing[0]}")
        if isinstance(v, _Buf):
            b = v  # (an empty one whose identities would sit outside the lattice: see below)
        else:
            src = self.as_reg(v, self.boxes[n.ins[0]])
            if box_empty(src.box):
                box = self.empty_fold_box(src.box, dims)
            elif partial:
                # the partials sit at the tile starts along every reduced dim (Fig. 4b):
                # read out the tile-aligned box and keep every T-th cell along each
                box = self.tile_aligned(src.box, partial, upper=True)
                for d in partial:
                    step[d] = self.layout.tiles[d]
            else:
                box = src.box
            b = _Buf(self.buf(), box, src.type)
            self.emit(K.READOUT, type=src.type, src=src.reg, domain=box, id=b.id)
        out = _Buf(self.buf(), collapse(b.box, dims), b.type)
        self.emit(K.NEAR_REDUCE, op=n.name, type=b.type, input=b.id, dims=tuple(dims), step=tuple(step), out=out.id)
        if not n.tensor_result:
            self.values[n.res] = out.id
            return
        self.values[n.res] = out
        if box_empty(self.boxes[n.res]):
            # no cell of the result lies in the lattice (e.g. an empty fold's
            # identities beyond it): none is needed, nothing reads them
            self.values[n.res] = _Buf(out.id, _canonical_empty(self.boxes[n.res]), out.type)
            return
        if partial and not box_empty(v.box):
            # The partials sat at tile starts, so the result is at the aligned
            # coordinates; the tensor's is at its first ones (tdfg semantics):
            # one intra-tile move per dim puts it there.
            r = None
            for d in partial:
                first, aligned = v.box[d][0], out.box[d][0]
                if first == aligned:
                    continue
                if r is None:
                    r = self.as_reg(out)
                moved = _Reg(self.reg(), box_with(r.box, d, first, first + 1), r.type)
                self.emit(K.MV, type=r.type, dst=moved.reg, src=r.reg, dim=d, dist=first - aligned, domain=r.box)
                r = moved
            if r is not None:
                self.values[n.res] = r

    def store_near(self, v, i: int) -> None:
        """A store into an array that is not laid out: the stream engines write
        the value's cells that lie inside the array (when its shape is known)."""
        shape = self.layout.other_shapes.get(i)
        box = None if shape is None else box_intersect(v.box, box_of_shape(shape, self.rank))
        if box is not None and box_empty(box):
            return
        if isinstance(v, _Reg) and box is not None:
            v = _Reg(v.reg, box, v.type, v.partial_dims)  # read out only those cells
        b = self.as_buf(v, box)
        f = dict(kind="store", type=b.type, input=b.id, arr=i, map=self.identity_map(i), indirect=(), indices=())
        if box is not None and box != b.box:
            f["domain"] = box
        self.emit(K.NEAR_STORE, **f)

    def write_only(self) -> set[int]:
        """Arrays in the layout whose every use in the graph is a ``tdfg.store`` and
        whose stores together cover every cell of the array: their old values are
        never read, and the release writes back only values the graph wrote."""
        users: dict[int, set[type]] = {}
        for n in self.facts.sched:
            if n.arr >= 0:
                users.setdefault(n.arr, set()).add(n.kind)
        boxes: dict[int, list[Box]] = {}
        for v, i in self.deferred:
            if i in self.array_reg:
                boxes.setdefault(i, []).append(box_intersect(v.box, self.array_box(i)))
        return {i for i, bs in boxes.items() if users.get(i) == {STORE} and _covers(bs, self.array_box(i))}

    def flush_stores(self) -> None:
        """Stores land after every read of the arrays (tensors read the entry state)."""
        self.unfetched = self.write_only()
        counts: dict[int, int] = {}
        for _, i in self.deferred:
            counts[i] = counts.get(i, 0) + 1
        array_regs = set(self.array_reg.values())
        for n, (v, i) in enumerate(self.deferred):
            # The one store into a write-only array of a compute's result: the compute
            # writes the array's register itself (the value's register becomes the
            # array's), so the array needs no spare register and no copy.  Safe: no
            # command reads the array's old value, nothing else writes it, and the
            # value's register is written once, by that compute, over its whole box.
            # Only where decompose keeps the compute one command (a box it need not
            # split at tile boundaries, Alg. 1): into an array's register it splits
            # an unaligned box, and k pieces of the op cost more than one op and k copies.
            if (i in self.unfetched and counts[i] == 1 and isinstance(v, _Reg) and v.reg in self.computed and not v.partial_dims
                    and v.reg not in array_regs and v.type == element_name(self.facts.arg_types[i])
                    and len(decompose_box(v.box, self.layout.tiles)) == 1):  # fmt: skip
                old = self.array_reg[i]
                for c in self.cmds:
                    if c.kind is K.ARRAY and c["arr"] == i and c["wordline"] == old:
                        c.wordline = v.reg
                self.array_reg[i] = v.reg
                array_regs = set(self.array_reg.values())
        targets = {self.array_reg[i] for _, i in self.deferred if i in self.array_reg}
        stored: set[int] = set()
        for n, (v, i) in enumerate(self.deferred):
            earlier = i in stored  # an earlier store already changed this array's register
            stored.add(i)
            if isinstance(v, _Reg) and v.reg in targets and (v.reg != self.array_reg.get(i) or earlier) and not box_empty(v.box):
                tmp = _Reg(self.reg(), v.box, v.type)  # the source array is itself overwritten: snapshot it
                self.emit(K.COMPUTE, op="copy", type=v.type, dst=tmp.reg, srcs=(v.reg,), domain=v.box)
                self.deferred[n] = (tmp, i)
        for v, i in self.deferred:
            if i not in self.array_reg:
                self.store_near(v, i)
                continue
            box = box_intersect(v.box, self.array_box(i))
            if box_empty(box):
                continue
            self.written.add(i)
            if isinstance(v, _Buf):
                self.emit(K.WRITEIN, type=v.type, dst=self.array_reg[i], domain=box, id=v.id)
            elif v.reg != self.array_reg[i]:
                self.emit(K.COMPUTE, op="copy", type=v.type, dst=self.array_reg[i], srcs=(v.reg,), domain=box)


# the tDFG nodes that read a tensor from a register (a reused stream_load feeding only
# these is lowered as a fill and a broadcast: ``_Converter.fill_and_broadcast``)
_IN_MEMORY_USERS = (CMP, BC, SHRINK)


def _covers(boxes: list[Box], whole: Box) -> bool:
    """Whether the union of ``boxes`` contains every cell of ``whole`` (exactly:
    the boxes' bounds cut ``whole`` into blocks, each inside a box or outside all)."""
    boxes = [b for b in boxes if not box_empty(b)]
    if box_empty(whole):
        return True
    if not boxes:
        return False
    if any(all(p <= lo and hi <= q for (p, q), (lo, hi) in zip(b, whole)) for b in boxes):
        return True  # (the common case: one store of the whole array)
    cuts = [np.unique(np.clip([x for b in boxes for x in b[d]] + list(whole[d]), *whole[d])) for d in range(len(whole))]
    starts = np.meshgrid(*[c[:-1] for c in cuts], indexing="ij")  # each block's first cell
    covered = np.zeros(starts[0].shape, dtype=bool)
    for b in boxes:
        inside = np.ones_like(covered)
        for d, (p, q) in enumerate(b):
            inside &= (starts[d] >= p) & (starts[d] < q)
        covered |= inside
    return bool(covered.all())


def convert_graph(graph: GraphRecord, at: Bindings, laid_out: tuple[HardwareConfig, Layout],
                  facts: GraphFacts | None = None) -> tuple[PimProgram, list[int]]:  # fmt: skip
    """The domain-form program of a graph's record under the bindings ``at`` (``CONCRETE``:
    the graph is specialized) and the machine and layout ``laid_out``, and, per program
    scalar, the graph scalar (its index) it comes from."""
    cfg, layout = laid_out
    conv = _Converter(graph, cfg, layout, at, facts)
    prog = conv.run()
    return prog, list(conv.scalars)


def _tdfg_to_pimcmd_pass() -> type:
    """``TdfgToPimcmdPass`` (xDSL's side, built on first use: ``pim_program.lazy_pass``)."""
    from xdsl.context import Context
    from xdsl.dialects.builtin import ModuleOp
    from xdsl.passes import ModulePass
    from xdsl.rewriter import Rewriter

    from infs.dialects import tdfg
    from infs.dialects.pimcmd_records_ir import to_op
    from infs.dialects.tdfg_ir_records import from_graph
    from infs.passes.lower_pim.layout import read_layout

    def replace_graph(graph: tdfg.GraphOp, prog: PimProgram, scalar_map: list[int]) -> None:
        new = to_op(prog, list(graph.arrays), [graph.scalars[i] for i in scalar_map])
        new.location = graph.location  # errors of later passes point at the graph
        Rewriter.replace_op(graph, new, new_results=list(new.res))

    @dataclass(frozen=True)
    class TdfgToPimcmdPass(ModulePass):
        """Replace every laid-out ``tdfg.graph`` by a domain-form ``pimcmd.program``."""

        name = "tdfg-to-pimcmd"

        def apply(self, ctx: Context, op: ModuleOp) -> None:
            for g in [g for g in op.walk() if isinstance(g, tdfg.GraphOp)]:
                try:
                    config, layout = read_layout(g)
                    converted = convert_graph(from_graph(g), CONCRETE, (load_config(config), layout))
                except (LoweringError, LayoutError) as e:  # read_layout's LayoutError too: both are about g
                    raise LoweringError.about(g, e) from None
                replace_graph(g, *converted)

    return TdfgToPimcmdPass


__getattr__ = lazy_pass(__name__, "TdfgToPimcmdPass", _tdfg_to_pimcmd_pass)
