"""The record form of ``tdfg.graph``: plain Python values, no IR (ASPLOS §3.4, §4.2).

Takes: nothing but plain values (``infs.dialects.tdfg_ir_records.from_graph``
builds a record from the IR, once per graph).  Gives: ``GraphRecord``, a graph
as the JIT reads it -- its arrays (``pimcmd_records.ArrayType``: element name and
shape, -1 for a dynamic dim), its named scalars and their types, its lattice rank, its
layout hints and its body as ``Node`` records, each naming its ``kind`` (one
``Kind`` object per ``tdfg`` op: ``n.kind is TENSOR``), its tensor operands and
result by value number and its properties as lattice values
(``infs.dialects.lattice_values``); and the graph as JSON-able data
(``to_data``) and back, every field checked (``from_data``: a bundle's
``regions`` section is data someone else wrote).

The paper's fat binary carries the tDFG of each region for the JIT to lower at
run time (§4.2): a record is that tDFG.  The lowering algorithms (domain
inference, ``choose-layout``, ``tdfg-to-pimcmd``) read records only, so a
program run from a bundle lowers without xDSL; the passes convert their IR to
a record and call the same algorithms.

This module imports no xDSL, and numpy not at all.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from infs.dialects.pimcmd_records import ArrayType
from infs.element_types import BITWISE_OPS, COMPARE_OPS, ELEMENT_BITS, ELEMENTWISE_ARITY, REDUCE_KINDS, STORE_KINDS
from infs.dialects.lattice_values import I64_MAX, I64_MIN, AccessMap, Affine, Domain, dim_index

# ---------------------------------------------------------------------------
# Kinds
# ---------------------------------------------------------------------------


class Kind:
    """A ``tdfg`` op kind (compared by identity: ``n.kind is CMP``)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name

    def __reduce__(self) -> tuple:
        return (_kind, (self.name,))


TENSOR = Kind("tdfg.tensor")
CONST = Kind("tdfg.const")
CMP = Kind("tdfg.cmp")
MV = Kind("tdfg.mv")
BC = Kind("tdfg.bc")
SHRINK = Kind("tdfg.shrink")
REDUCE = Kind("tdfg.reduce")
STREAM_LOAD = Kind("tdfg.stream_load")
STREAM_REDUCE = Kind("tdfg.stream_reduce")
STREAM_STORE = Kind("tdfg.stream_store")
STORE = Kind("tdfg.store")
YIELD = Kind("tdfg.yield")

KINDS: dict[str, Kind] = {k.name: k for k in (TENSOR, CONST, CMP, MV, BC, SHRINK, REDUCE, STREAM_LOAD, STREAM_REDUCE, STREAM_STORE, STORE, YIELD)}
SINKS = (STORE, STREAM_STORE, YIELD)  # the side effects (``schedule`` keeps what they need)
NEAR_KINDS = (STREAM_REDUCE, STREAM_LOAD)  # results computed near memory (a store of one is a store near memory)
TENSOR_NODES = (TENSOR, CONST, CMP, MV, BC, SHRINK)  # what optimize-tdfg rewrites and the benchmark counts


def _kind(name: str) -> Kind:
    return KINDS[name]


# ---------------------------------------------------------------------------
# Types and nodes
# ---------------------------------------------------------------------------

# One lattice dim per loop of the region's nest (§4.1).  No loop nest is this deep,
# and the JIT keeps per-dim tuples of a graph's rank: a rank of 2^63 - 1 (found by
# the CLI fuzzer) ran out of memory instead of failing to verify.
MAX_LATTICE_RANK = 32

# Element types a graph's tensors, arrays and scalars have (``tdfg`` verifies the
# machine's; a scalar may be an ``index``).
SCALAR_TYPES = ("index", "f16", "f32", "f64", "i1", "i8", "i16", "i32", "i64")


class Node:
    """One graph op as plain values.  Tensor values are numbered in op order
    (results of every op, scalar results included): ``res`` is the result's
    number (-1: none), ``ins`` the tensor operands' (cmp's inputs;
    mv/bc/shrink/reduce/stream_reduce's input; stream_load's indices;
    stream_store's value then indices; store's value; yield's values).
    ``arr`` is an array operand's index, ``scalar`` a const's graph scalar
    index (None: a literal ``num``); ``elem`` the result's element name,
    ``in_elems`` the inputs' (cmp)."""

    __slots__ = ("kind", "res", "ins", "dim", "dist", "count", "domain", "arr", "name", "elem", "dims", "tensor_result",
                 "map", "indirect", "scalar", "num", "near_value", "in_elem", "in_elems")  # fmt: skip

    def __init__(self, kind: Kind, res: int = -1, ins: tuple[int, ...] = (), **f: Any) -> None:
        self.kind, self.res, self.ins = kind, res, ins
        self.dim = self.arr = -1
        self.dist = self.count = self.domain = self.map = self.num = self.scalar = None
        self.name = self.elem = self.in_elem = ""
        self.dims = self.indirect = self.in_elems = ()
        self.tensor_result = self.near_value = False
        for k, v in f.items():
            setattr(self, k, v)

    def fields(self) -> dict[str, Any]:
        """The slots that differ from a fresh node's (``to_data`` writes these)."""
        fresh = Node(self.kind)
        return {k: getattr(self, k) for k in self.__slots__ if k != "kind" and getattr(self, k) != getattr(fresh, k)}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Node) and self.kind is other.kind and self.fields() == other.fields()

    __hash__ = object.__hash__  # (nodes are dict keys by identity in the schedule)

    def __repr__(self) -> str:
        return f"Node({self.kind}, {self.fields()})"


@dataclass(eq=False)
class GraphRecord:
    """A ``tdfg.graph`` as records (module docstring).  Treated as frozen once
    built: the JIT memoizes on its identity, as on the graph op's."""

    rank: int
    arrays: tuple[ArrayType, ...]
    scalar_names: tuple[str, ...]
    scalar_types: tuple[str, ...]
    nodes: tuple[Node, ...]  # body ops, the terminator (a ``yield``) last
    result_types: tuple[str, ...] = ()  # the graph's (scalar) results' element names
    array_names: tuple[str | None, ...] = ()  # the host values' names, for messages and ``shapes=``
    hints: Mapping[str, Any] = field(default_factory=dict)  # "shift"/"broadcast"/"reduce": dims, "primary": an array index, "align": indices
    label: str = "the tdfg.graph"  # what errors call it ("the tdfg.graph at f.mlir:3:5 in @fn")
    line: int | None = None  # the graph's source line (run-time messages name it), if known

    @property
    def values(self) -> int:
        return sum(1 for n in self.nodes if n.res >= 0)

    def symbol_names(self) -> frozenset[str]:
        """The index-typed scalars' names (the symbols affine expressions use)."""
        return frozenset(n for n, t in zip(self.scalar_names, self.scalar_types) if t == "index")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GraphRecord) and self.to_data() == other.to_data()

    __hash__ = object.__hash__

    def to_data(self) -> dict[str, Any]:
        """The record as JSON-able data (``from_data`` reads it back)."""
        return {
            "rank": self.rank,
            "label": self.label,
            "line": self.line,
            "arrays": [[list(a.shape), a.element_type, name] for a, name in zip(self.arrays, self.array_names or [None] * len(self.arrays))],
            "scalars": [[n, t] for n, t in zip(self.scalar_names, self.scalar_types)],
            "results": list(self.result_types),
            "hints": {k: (list(v) if isinstance(v, tuple) else v) for k, v in sorted(self.hints.items())},
            "nodes": [_node_data(n) for n in self.nodes],
        }


# ---------------------------------------------------------------------------
# Data form: writing
# ---------------------------------------------------------------------------


def _affine_data(e: Affine) -> list:
    return [e.const, [[n, c] for n, c in e.terms]]


def _domain_data(d: Domain) -> list:
    return [[_affine_data(p), _affine_data(q)] for p, q in d.bounds]


_NODE_FIELDS = ("res", "ins", "dim", "dist", "count", "domain", "arr", "name", "elem", "dims", "tensor_result", "map", "indirect",
                "scalar", "num", "near_value", "in_elem", "in_elems")  # fmt: skip


def _node_data(n: Node) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": n.kind.name}
    for k, v in n.fields().items():
        if isinstance(v, Affine):
            v = _affine_data(v)
        elif isinstance(v, Domain):
            v = _domain_data(v)
        elif isinstance(v, AccessMap):
            v = [_affine_data(e) for e in v.results]
        elif isinstance(v, tuple):
            v = list(v)
        elif isinstance(v, float):
            # exact and JSON-safe (no NaN/Infinity literals): the float's hex form
            v = {"float": v.hex()}
        out[k] = v
    return out


# ---------------------------------------------------------------------------
# Data form: reading, every field checked
# ---------------------------------------------------------------------------


class RecordDataError(ValueError):
    """Record data that is no graph (one line: where, and what is wrong)."""


_MAX_TERMS = 64  # terms of one affine expression (a graph's symbols; no tDFG has more)


def _fail(where: str, what: str) -> RecordDataError:
    return RecordDataError(f"{where}: {what}")


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _int64(v: object, where: str, what: str, lo: int = I64_MIN, hi: int = I64_MAX) -> int:
    if not _is_int(v) or not lo <= v <= hi:  # type: ignore[operator]
        raise _fail(where, f"{what} must be an integer in [{lo}, {hi}], got {_short(v)}")
    return v  # type: ignore[return-value]


def _short(v: object) -> str:
    text = repr(v)
    return text if len(text) <= 60 else text[:57] + "..."


def _list(v: object, where: str, what: str, n: int | None = None) -> list:
    if not isinstance(v, list) or (n is not None and len(v) != n):
        raise _fail(where, f"{what} must be a list" + (f" of {n}" if n is not None else "") + f", got {_short(v)}")
    return v


def _str(v: object, where: str, what: str, choices: Sequence[str] | None = None) -> str:
    if not isinstance(v, str) or (choices is not None and v not in choices):
        extra = f" (one of {', '.join(choices)})" if choices is not None else ""
        raise _fail(where, f"{what} must be a string{extra}, got {_short(v)}")
    return v


def _affine(v: object, where: str, what: str, symbols: frozenset[str], dims: int = 0) -> Affine:
    const, terms = _list(v, where, what, 2)
    _int64(const, where, f"{what}'s constant")
    terms = _list(terms, where, f"{what}'s terms")
    if len(terms) > _MAX_TERMS:
        raise _fail(where, f"{what} has {len(terms)} terms, more than {_MAX_TERMS}")
    coeffs: dict[str, int] = {}
    for t in terms:
        name, c = _list(t, where, f"a term of {what}", 2)
        _str(name, where, f"a symbol of {what}")
        if c == 0 or name in coeffs:
            raise _fail(where, f"{what} is not canonical (a zero or repeated term '{name}')")
        coeffs[name] = _int64(c, where, f"the coefficient of '{name}' in {what}")
        i = dim_index(name)
        if i is None and name not in symbols:
            raise _fail(where, f"{what} uses '{name}', which is no index scalar of the graph")
        if i is not None and i >= dims:
            raise _fail(where, f"{what} uses '{name}', which is no lattice dim here")
    e = Affine._make(const, coeffs)
    if list(e.terms) != [tuple(t) for t in terms]:
        raise _fail(where, f"{what}'s terms are not in canonical (sorted) order")
    return e


def _domain(v: object, where: str, what: str, symbols: frozenset[str], rank: int | None) -> Domain:
    bounds = _list(v, where, what)
    if rank is not None and len(bounds) != rank:
        raise _fail(where, f"{what} has rank {len(bounds)}, expected {rank}")
    out = []
    for d, b in enumerate(bounds):
        p, q = _list(b, where, f"{what}'s dim {d}", 2)
        out.append((_affine(p, where, f"{what}'s lower bound in dim {d}", symbols), _affine(q, where, f"{what}'s upper bound in dim {d}", symbols)))
    for d, (p, q) in enumerate(out):
        if p.is_constant and q.is_constant and p.const > q.const:
            raise _fail(where, f"{what} has lower bound > upper bound in dim {d}")
    return Domain(tuple(out))


def _dim(v: object, rank: int, where: str, what: str = "dim") -> int:
    return _int64(v, where, what, 0, rank - 1)


def from_data(data: object, where: str = "graph") -> GraphRecord:
    """A ``GraphRecord`` from ``to_data``'s form, checked as the ``tdfg`` verifiers
    check a graph: known kinds, every value defined once before its use, dims inside
    the lattice, domains of its rank over its symbols, known element types and op
    names, array and scalar indices in range, a terminating ``yield`` whose values
    match the results.  Raises ``RecordDataError`` (one line)."""
    if not isinstance(data, dict):
        raise _fail(where, f"a graph must be an object, got {_short(data)}")
    known = {"rank", "label", "line", "arrays", "scalars", "results", "hints", "nodes"}
    extra = sorted(set(data) - known)
    missing = sorted(known - set(data))
    if extra or missing:
        raise _fail(where, f"unknown key '{extra[0]}'" if extra else f"missing key '{missing[0]}'")
    rank = _int64(data["rank"], where, "rank", 1, MAX_LATTICE_RANK)
    label = _str(data["label"], where, "label")
    line = None if data["line"] is None else _int64(data["line"], where, "line", 0)
    machine = tuple(ELEMENT_BITS)
    arrays, names = [], []
    for i, a in enumerate(_list(data["arrays"], where, "arrays")):
        shape, elem, name = _list(a, where, f"array {i}", 3)
        shape = tuple(_int64(s, where, f"array {i}'s dim", -1) for s in _list(shape, where, f"array {i}'s shape"))
        if len(shape) > rank:
            raise _fail(where, f"array {i} has more dims ({len(shape)}) than the rank-{rank} lattice")
        arrays.append(ArrayType(_str(elem, where, f"array {i}'s element type", machine), shape))
        names.append(None if name is None else _str(name, where, f"array {i}'s name"))
    snames, stypes = [], []
    for j, s in enumerate(_list(data["scalars"], where, "scalars")):
        n, t = _list(s, where, f"scalar {j}", 2)
        if _str(n, where, f"scalar {j}'s name") in snames or dim_index(n) is not None:
            raise _fail(where, f"scalar name '{n}' is repeated or names a lattice dim")
        snames.append(n)
        stypes.append(_str(t, where, f"scalar {j}'s type", SCALAR_TYPES))
    symbols = frozenset(n for n, t in zip(snames, stypes) if t == "index")
    results = tuple(_str(r, where, "a result type", machine) for r in _list(data["results"], where, "results"))
    hints = _hints(data["hints"], rank, len(arrays), where)
    nodes = _nodes(_list(data["nodes"], where, "nodes"), rank, arrays, stypes, symbols, results, where)
    return GraphRecord(rank, tuple(arrays), tuple(snames), tuple(stypes), nodes, results, tuple(names), hints, label, line)


def _hints(h: object, rank: int, n_arrays: int, where: str) -> dict[str, Any]:
    if not isinstance(h, dict):
        raise _fail(where, f"hints must be an object, got {_short(h)}")
    out: dict[str, Any] = {}
    for k, v in h.items():
        if k in ("shift", "broadcast", "reduce"):
            out[k] = tuple(_dim(d, rank, where, f"hint '{k}' dim") for d in _list(v, where, f"hint '{k}'"))
        elif k == "primary":
            out[k] = _int64(v, where, "hint 'primary'", 0, n_arrays - 1)
        elif k == "align":
            out[k] = tuple(_int64(i, where, "hint 'align' index", 0, n_arrays - 1) for i in _list(v, where, "hint 'align'"))
        else:
            raise _fail(where, f"unknown layout hint '{k}'")
    return out


def _nodes(items: list, rank: int, arrays, stypes, symbols, results, where: str) -> tuple[Node, ...]:
    machine = tuple(ELEMENT_BITS)
    elems: dict[int, tuple[str, bool]] = {}  # value -> (element, is a tensor)
    nodes: list[Node] = []
    allowed = {"kind", *_NODE_FIELDS}
    for k, item in enumerate(items):
        w = f"{where}: node {k}"
        if not isinstance(item, dict):
            raise _fail(w, f"a node must be an object, got {_short(item)}")
        extra = sorted(set(item) - allowed)
        if extra:
            raise _fail(w, f"unknown field '{extra[0]}'")
        name = item.get("kind")
        kind = KINDS.get(name) if isinstance(name, str) else None
        if kind is None:
            raise _fail(w, f"unknown kind {_short(item.get('kind'))}")
        if (kind is YIELD) != (k == len(items) - 1):
            raise _fail(w, "a graph's body ends with its one 'tdfg.yield'")
        n = _node(item, kind, rank, arrays, stypes, symbols, elems, machine, w, ELEMENTWISE_ARITY, REDUCE_KINDS, STORE_KINDS)
        if n.res >= 0:
            if n.res != len(elems):
                raise _fail(w, f"result value {n.res} is not the next value number ({len(elems)})")
            elems[n.res] = (n.elem, not (kind is STREAM_REDUCE and not n.tensor_result))
        nodes.append(n)
    if not nodes:
        raise _fail(where, "a graph's body ends with its one 'tdfg.yield'")
    ys = nodes[-1].ins
    if [elems[v][0] for v in ys] != list(results) or any(elems[v][1] for v in ys):
        raise _fail(where, f"the yield's values do not match the results {list(results)} (scalar stream_reduce results)")
    return tuple(nodes)


def _node(item: dict, kind: Kind, rank: int, arrays, stypes, symbols, elems, machine, w: str, arity, reduce_kinds, store_kinds) -> Node:
    g = item.get
    ins = tuple(_int64(v, w, "an operand", 0, I64_MAX) for v in _list(g("ins", []), w, "ins"))
    for v in ins:
        if v not in elems:
            raise _fail(w, f"operand value {v} is not defined before its use")
    tensors = [elems[v] for v in ins]
    if kind is not YIELD and any(not t for _, t in tensors):
        raise _fail(w, "a scalar stream_reduce result is only yielded")
    res = -1 if kind in (STORE, STREAM_STORE, YIELD) else _int64(g("res"), w, "res", 0, I64_MAX)
    n = Node(kind, res, ins)
    if res >= 0:
        n.elem = _str(g("elem"), w, "elem", machine)
    need = {TENSOR: 0, CONST: 0, CMP: None, MV: 1, BC: 1, SHRINK: 1, REDUCE: 1, STREAM_LOAD: None, STREAM_REDUCE: 1, STREAM_STORE: None, STORE: 1, YIELD: None}[kind]
    if need is not None and len(ins) != need:
        raise _fail(w, f"'{kind}' takes {need} tensor operand(s), got {len(ins)}")

    def arr() -> int:
        return _int64(g("arr"), w, "arr", 0, len(arrays) - 1)

    def same_elem() -> None:
        if tensors and tensors[0][0] != n.elem:
            raise _fail(w, f"'{kind}' result element {n.elem} differs from its input's {tensors[0][0]}")

    if kind in (MV, BC, SHRINK, REDUCE):
        n.dim = _dim(g("dim"), rank, w)
        same_elem()
    if kind is TENSOR:
        n.arr = arr()
        n.domain = _domain(g("domain"), w, "domain", symbols, rank)
        if arrays[n.arr].element_type != n.elem:
            raise _fail(w, "a tensor's element type is its array's")
        shape = arrays[n.arr].shape
        for d, (p, q) in enumerate(n.domain.bounds):
            size = 1 if d < rank - len(shape) else shape[d - (rank - len(shape))]
            if (p.is_constant and p.const < 0) or (q.is_constant and size >= 0 and q.const > size):
                raise _fail(w, f"domain {n.domain} leaves the array in dim {d}")
    elif kind is CONST:
        s, num = g("scalar"), g("num")
        if (s is None) == (num is None):
            raise _fail(w, "a const has exactly one of a scalar and a literal num")
        if s is not None:
            n.scalar = _int64(s, w, "scalar", 0, len(stypes) - 1)
            st = stypes[n.scalar]
            if st != n.elem and not (st == "index" and n.elem.startswith("i")):
                raise _fail(w, f"a scalar of type {st} cannot fill a tensor of {n.elem}")
        else:
            if isinstance(num, dict) and set(num) == {"float"} and isinstance(num["float"], str) and n.elem.startswith("f"):
                try:
                    n.num = float.fromhex(num["float"])
                except (ValueError, OverflowError):
                    raise _fail(w, f"num {_short(num)} is no float") from None
            elif _is_int(num) and n.elem.startswith("i"):
                n.num = num
            else:
                raise _fail(w, f"num {_short(num)} is no literal of {n.elem}")
    elif kind is CMP:
        n.name = _str(g("name"), w, "name", tuple(arity))
        if len(ins) != arity[n.name]:
            raise _fail(w, f"{n.name} takes {arity[n.name]} inputs, got {len(ins)}")
        n.in_elems = tuple(e for e, _ in tensors)
        n.in_elem = n.in_elems[-1] if n.in_elems else ""
        in_elems = g("in_elems", list(n.in_elems))
        if g("in_elem", n.in_elem) != n.in_elem or not isinstance(in_elems, list) or tuple(in_elems) != n.in_elems:
            raise _fail(w, "in_elem(s) must be the inputs' element types")
        data = n.in_elems[1:] if n.name == "select" else n.in_elems
        if n.name == "select" and n.in_elems[0] != "i1":
            raise _fail(w, "a select's condition is an i1 tensor")
        if len(set(data)) > 1:
            raise _fail(w, f"{n.name}'s inputs have different element types")
        want = "i1" if n.name in COMPARE_OPS else (data[0] if data else n.elem)
        if n.elem != want or (n.name in BITWISE_OPS and not n.elem.startswith("i")):
            raise _fail(w, f"{n.name}'s result element type {n.elem} is not {want}")
    elif kind is MV:
        n.dist = _affine(g("dist"), w, "dist", symbols)
    elif kind is BC:
        n.dist = _affine(g("dist"), w, "dist", symbols)
        n.count = _affine(g("count"), w, "count", symbols)
        if n.count.is_constant and n.count.const < 0:
            raise _fail(w, "a bc's count is >= 0")
    elif kind is SHRINK:
        n.domain = _domain(g("domain"), w, "range", symbols, 1)
    elif kind is REDUCE:
        n.name = _str(g("name"), w, "name", reduce_kinds)
    elif kind in (STREAM_LOAD, STREAM_STORE):
        n.arr = arr()
        shape = arrays[n.arr].shape
        n.map = AccessMap(tuple(_affine(e, w, "map", symbols, rank) for e in _list(g("map"), w, "map", len(shape))))
        n.indirect = tuple(_int64(p, w, "an indirect position", 0, len(shape) - 1) for p in _list(g("indirect", []), w, "indirect"))
        idx = ins if kind is STREAM_LOAD else ins[1:]
        if kind is STREAM_STORE and not ins:
            raise _fail(w, "a stream_store takes its value")
        if len(set(n.indirect)) != len(n.indirect) or len(n.indirect) != len(idx):
            raise _fail(w, "one distinct indirect position per index tensor")
        if any(not elems[v][0].startswith("i") or elems[v][0] == "i1" for v in idx):
            raise _fail(w, "index tensors hold integers")
        if kind is STREAM_LOAD:
            n.domain = _domain(g("domain"), w, "domain", symbols, rank)
            if arrays[n.arr].element_type != n.elem:
                raise _fail(w, "a stream_load's element type is its array's")
        else:
            n.name = _str(g("name"), w, "name", store_kinds)
            if arrays[n.arr].element_type != tensors[0][0]:
                raise _fail(w, "a stream_store stores its array's element type")
    elif kind is STREAM_REDUCE:
        n.name = _str(g("name"), w, "name", reduce_kinds)
        n.dims = tuple(_dim(d, rank, w, "a reduced dim") for d in _list(g("dims"), w, "dims"))
        if not n.dims or len(set(n.dims)) != len(n.dims):
            raise _fail(w, "a stream_reduce reduces distinct dims")
        n.tensor_result = len(n.dims) < rank
        if bool(g("tensor_result", False)) != n.tensor_result:
            raise _fail(w, "tensor_result must say whether some dim is kept")
        same_elem()
    elif kind is STORE:
        n.arr = arr()
        if arrays[n.arr].element_type != tensors[0][0]:
            raise _fail(w, "a store stores its array's element type")
        near = g("near_value", False)
        if not isinstance(near, bool):
            raise _fail(w, "near_value must be a boolean")
        n.near_value = near
    # a field the kind does not take is an error, not ignored
    taken = {k for k in n.fields()} | {"kind"}
    stray = sorted(k for k in item if k not in taken and item[k] not in (None, "", [], False, -1))
    if stray:
        raise _fail(w, f"'{kind}' has no field '{stray[0]}'")
    return n


def check_near_values(rec: GraphRecord, where: str = "graph") -> None:
    """Each store's ``near_value`` says whether its value is computed near memory
    (a stream_reduce's or stream_load's result): what ``laid_out`` reads."""
    producer = {n.res: n for n in rec.nodes if n.res >= 0}
    for k, n in enumerate(rec.nodes):
        if n.kind is STORE and n.near_value != (producer[n.ins[0]].kind in NEAR_KINDS):
            raise _fail(f"{where}: node {k}", "near_value must say whether the stored value is computed near memory")


def read_graph(data: object, where: str = "graph") -> GraphRecord:
    """``from_data`` and ``check_near_values``: a graph as a bundle holds it."""
    rec = from_data(data, where)
    check_near_values(rec, where)
    return rec
