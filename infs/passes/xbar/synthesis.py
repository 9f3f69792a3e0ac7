"""STREAM's synthesis and mapping algorithms on plain netlists (the passes of
``passes/xbar`` wrap them; the bench reads their gate counts).

Takes a ``Netlist`` (``netlist_records``); gives OR-Inverter graphs
(STREAM-O, §IV), multi-level-logic netlists (STREAM-M, §V) and their
staircase mapping as ``XbarKernel`` records (§IV-C, §V-C), with the gate
counts after each step (Fig. 13 and 15) and the node counts per ``eliminate
i`` (Fig. 14).

* STREAM-O: ABC optimizes the AIG (``strash; resyn2``) and maps it on a
  library of INV and OR2..OR5, every cell of cost 1 (§IV-A); the
  technology-dependent step then covers that netlist with OR/NOR gates of any
  fan-in (§IV-B): an OR read only by another OR or NOR is merged into it, an
  inverter after a single-use OR (NOR) makes it a NOR (OR), a buffer or a
  double inversion disappears, and an inverter of a primary input becomes the
  complement row of the first crossbar (the literals of Fig. 8(a)).  On this
  library greedy merging in topological order is the tree cover DAGON's
  dynamic programme finds: merging never costs a gate.
* STREAM-M: ABC's ``strash; resyn2; logic; sweep`` gives the initial
  multi-level netlist, ``eliminate -V i`` (SIS's ``eliminate i``, the node
  value threshold) collapses nodes, ``sweep; sop`` cleans up (ABC has no
  ``simplify``; its covers are kept as ABC writes them); Algorithm 1 raises
  ``i`` while HardwareCost (Eq. 1-4) does not grow.
* Staircase mapping: longest-path levels, dummy buffers for edges that skip a
  level (every primary output carried to the last layer), one crossbar per
  level (STREAM-O) or two, products then sums (STREAM-M); a layer's rows are
  the previous layer's columns.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from infs.dialects import xbar_records as xr
from infs.dialects.netlist_records import Gate, Netlist
from infs.passes.xbar.abc import RESYN2, run_abc


@dataclass(frozen=True)
class OigNode:
    """``name = OR(operands)`` (NOR when ``inverted``); an operand is (signal, complemented)."""

    name: str
    operands: tuple[tuple[str, bool], ...]
    inverted: bool


@dataclass(frozen=True)
class Oig:
    name: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]  # signals (node names or primary inputs), one per primary output
    output_names: tuple[str, ...]
    nodes: tuple[OigNode, ...]  # topological order


class SynthesisError(ValueError):
    """A netlist the STREAM flow cannot take (one line)."""


# ---------------------------------------------------------------- STREAM-O


def abc_or_inv(netlist: Netlist) -> Netlist:
    """Technology-independent optimization (§IV-A): AIG, resyn2, mapped on INV / OR2..OR5."""
    (mapped,) = run_abc(netlist, "read_library {lib}; read_blif {in}; strash; " + RESYN2 + "; map; write_blif {out0}")
    return mapped


def netlist_to_oig(netlist: Netlist, output_names: tuple[str, ...] | None = None) -> Oig:
    """A netlist of ``or``/``nor``/``not``/``buf`` gates and constants as an OIG, one node per gate
    (``netlist.outputs`` are signals; ``output_names`` the primary outputs' names, by default the same)."""
    nodes = []
    for g in netlist.gates:
        if g.op in ("or", "nor", "not", "buf"):
            nodes.append(OigNode(g.name, tuple((f, False) for f in g.fanins), g.op in ("nor", "not")))
        elif g.op == "sop" and not g.fanins:
            # a constant: an empty column reads 0, inverted 1 (xbar_records)
            nodes.append(OigNode(g.name, (), bool(g.cubes) != g.offset))
        elif g.op == "sop" and len(g.fanins) == 1 and len(g.cubes) == 1 and g.cubes[0] in ("0", "1"):
            nodes.append(OigNode(g.name, ((g.fanins[0], False),), (g.cubes[0] == "0") != g.offset))
        else:
            raise SynthesisError(f"{netlist.name}: gate '{g.name}' ({g.op}) is not an OR/INV cell")
    return Oig(netlist.name, netlist.inputs, netlist.outputs, output_names or netlist.outputs, tuple(nodes))


def _fanouts(nodes, outputs) -> dict[str, int]:
    count: dict[str, int] = {}
    for n in nodes:
        for s, _ in n.operands:
            count[s] = count.get(s, 0) + 1
    for o in outputs:
        count[o] = count.get(o, 0) + 1
    return count


def cover_or_nor(oig: Oig) -> Oig:
    """Technology-dependent optimization (§IV-B): cover with OR/NOR gates of any fan-in."""
    pis = set(oig.inputs)
    fanout = _fanouts(oig.nodes, oig.outputs)
    po = set(oig.outputs)
    alias: dict[str, tuple[str, bool]] = {}  # a removed node -> the literal it equals
    kept: dict[str, OigNode] = {}

    def resolve(lit: tuple[str, bool]) -> tuple[str, bool]:
        s, neg = lit
        while s in alias:
            t, n2 = alias[s]
            s, neg = t, neg != n2
        return s, neg

    for node in oig.nodes:
        ops: list[tuple[str, bool]] = []
        for lit in node.operands:
            s, neg = resolve(lit)
            if neg and s not in pis:
                # a complemented non-input: only an inverter node; keep it as one
                inv = f"{s}__not"
                if inv not in kept:
                    kept[inv] = OigNode(inv, ((s, False),), True)
                s, neg = inv, False
            child = kept.get(s)
            if (
                not neg
                and child is not None
                and not child.inverted
                and fanout.get(s, 0) == 1
                and s not in po
            ):
                ops.extend(child.operands)  # OR into OR/NOR: one wider gate
                del kept[s]
            else:
                ops.append((s, neg))
        ops = list(dict.fromkeys(ops))  # OR is idempotent
        inverted = node.inverted
        if len(ops) == 1 and node.name not in po:
            s, neg = ops[0]
            if not inverted:  # a buffer: its readers read s
                alias[node.name] = (s, neg)
                fanout[s] = fanout.get(s, 0) + fanout.get(node.name, 0) - 1
                continue
            if s in pis:  # an inverter of a primary input: the complement row
                alias[node.name] = (s, not neg)
                continue
            child = kept.get(s)
            if child is not None and fanout.get(s, 0) == 1 and s not in po and not neg:
                del kept[s]  # INV after a single-use OR/NOR: the other polarity of that column
                kept[node.name] = OigNode(node.name, child.operands, not child.inverted)
                continue
        kept[node.name] = OigNode(node.name, tuple(ops), inverted)
    outputs = []
    for o in oig.outputs:
        s, neg = resolve((o, False))
        if neg:  # an output that is a complemented primary input: a NOR column of it
            name = f"{s}__not_out"
            if name not in kept:
                kept[name] = OigNode(name, ((s, False),), True)
            s = name
        outputs.append(s)
    # the nodes the outputs reach, in topological order
    live: set[str] = set()
    stack = [s for s in outputs if s in kept]
    while stack:
        s = stack.pop()
        if s in live:
            continue
        live.add(s)
        stack.extend(t for t, _ in kept[s].operands if t in kept)
    ordered = _topological([n for n in kept.values() if n.name in live])
    return Oig(oig.name, oig.inputs, tuple(outputs), oig.output_names, tuple(ordered))


def _topological(nodes: list[OigNode]) -> list[OigNode]:
    by = {n.name: n for n in nodes}
    out: list[OigNode] = []
    state: dict[str, int] = {}
    for root in by:
        stack = [(root, False)]
        while stack:
            s, done = stack.pop()
            if done:
                state[s] = 2
                out.append(by[s])
                continue
            if state.get(s):
                continue
            state[s] = 1
            stack.append((s, True))
            stack.extend((t, False) for t, _ in by[s].operands if t in by and not state.get(t))
    return out


def stream_o(netlist: Netlist) -> tuple[Oig, dict[str, int]]:
    """STREAM-O's synthesis: the OR/NOR netlist and the gate counts before and after technology-dependent optimization."""
    mapped = abc_or_inv(netlist)
    initial = netlist_to_oig(mapped, netlist.outputs)
    covered = cover_or_nor(initial)
    return covered, {"technology_independent": len(initial.nodes), "technology_dependent": len(covered.nodes)}


def _plane(rows: int, reads: list[list[int]]) -> np.ndarray:
    """The LRS plane whose column j holds the rows ``reads[j]`` (one scatter, no loop over columns)."""
    lengths = np.fromiter((len(r) for r in reads), np.int64, len(reads))
    flat = np.fromiter((i for r in reads for i in r), np.int64, int(lengths.sum()))
    plane = np.zeros((rows, len(reads)), np.bool_)
    plane[flat, np.repeat(np.arange(len(reads)), lengths)] = True
    return plane


def map_oig(oig: Oig) -> xr.XbarKernel:
    """STREAM-O's staircase (§IV-C, Fig. 5): one crossbar per level, dummy buffers for skipping edges."""
    pis = {n: i for i, n in enumerate(oig.inputs)}
    n_pi = len(oig.inputs)
    level: dict[str, int] = {p: 0 for p in oig.inputs}
    for node in oig.nodes:
        level[node.name] = 1 + max((level[s] for s, _ in node.operands), default=0)
    depth = max([1] + [level[s] for s in oig.outputs])
    # columns[k]: the signals of layer k (k >= 1); a signal is a node name or a carried literal
    columns: list[list[tuple[str, bool]]] = [[] for _ in range(depth + 1)]
    index: list[dict[tuple[str, bool], int]] = [dict() for _ in range(depth + 1)]
    reads: list[list[list[int]]] = [[] for _ in range(depth + 1)]
    inverts: list[list[bool]] = [[] for _ in range(depth + 1)]
    for node in oig.nodes:
        k = level[node.name]
        index[k][(node.name, False)] = len(columns[k])
        columns[k].append((node.name, False))
        reads[k].append([])
        inverts[k].append(node.inverted)

    def carrier(lit: tuple[str, bool], k: int) -> int:
        """The row of layer k's crossbar (a column of layer k - 1) carrying ``lit``."""
        s, neg = lit
        if k == 1:
            if s in pis:
                return pis[s] + (n_pi if neg else 0)
            raise SynthesisError(f"{oig.name}: signal '{s}' of level > 0 read by the first crossbar")
        if lit in index[k - 1]:
            return index[k - 1][lit]
        # a dummy buffer in layer k - 1 carrying lit from layer k - 2
        col = len(columns[k - 1])
        index[k - 1][lit] = col
        columns[k - 1].append(lit)
        inverts[k - 1].append(False)
        reads[k - 1].append([carrier(lit, k - 1)])
        return col

    for node in oig.nodes:
        k = level[node.name]
        col = index[k][(node.name, False)]
        reads[k][col] = sorted({carrier(lit, k) for lit in node.operands})
    outputs = []
    for s in oig.outputs:
        lit = (s, False)
        if lit not in index[depth]:
            col = len(columns[depth])
            index[depth][lit] = col
            columns[depth].append(lit)
            inverts[depth].append(False)
            reads[depth].append([carrier(lit, depth)])
        outputs.append(index[depth][lit])
    layers = []
    rows = 2 * n_pi
    for k in range(1, depth + 1):
        layers.append(xr.XbarLayer(_plane(rows, reads[k]), np.asarray(inverts[k], np.bool_)))
        rows = len(columns[k])
    return xr.XbarKernel(tuple(layers), tuple(outputs))


# ---------------------------------------------------------------- STREAM-M

ELIMINATE_MAX = 30  # the largest i of Fig. 14


def mll_initial(netlist: Netlist) -> Netlist:
    """The initial multi-level netlist (§V-A): ABC's AIG after resyn2 as a logic network, swept."""
    (out,) = run_abc(netlist, "read_blif {in}; strash; " + RESYN2 + "; logic; sweep; sop; write_blif {out0}")
    return out


def mll_eliminated(initial: Netlist, values: list[int]) -> list[Netlist]:
    """``eliminate i`` for each i of ``values`` on ``initial`` (one ABC run for all of them)."""
    steps = " ".join(f"read_blif {{in}}; eliminate -V {i}; sweep; sop; write_blif {{out{k}}};" for k, i in enumerate(values))
    return run_abc(initial, steps, outputs=len(values))


def _sop_levels(net: Netlist) -> dict[str, int]:
    level = {p: 0 for p in net.inputs}
    for g in net.gates:
        level[g.name] = 1 + max((level[f] for f in g.fanins), default=0)
    return level


def hardware_cost(net: Netlist, size: int = xr.CROSSBAR_SIZE) -> int:
    """HardwareCost (§V-B, Eq. 1-4): crossbars of the two per level, X_l = 2 x fan-outs of level l - 1,
    Y_l = product terms of level l, Z_l = its nodes (one sum each)."""
    level = _sop_levels(net)
    depth = max([0] + [level[g.name] for g in net.gates])
    fan = np.zeros(depth + 1, np.int64)
    prods = np.zeros(depth + 1, np.int64)
    nodes = np.zeros(depth + 1, np.int64)
    for g in net.gates:
        for f in g.fanins:
            fan[level[f]] += 1
        prods[level[g.name]] += max(1, len(g.cubes))
        nodes[level[g.name]] += 1
    x, y, z = 2 * fan[:-1], prods[1:], nodes[1:]
    area = size * size
    return int((-(-(x * y) // area)).sum() + (-(-(y * z) // area)).sum())


def stream_m(netlist: Netlist, eliminate: int | None = None, size: int = xr.CROSSBAR_SIZE) -> tuple[Netlist, dict[str, int]]:
    """STREAM-M's synthesis: Algorithm 1 over ``eliminate i`` (or the given ``i``); the netlist and its counts.
    The netlist's outputs are signals (``netlist.outputs`` name them)."""
    initial = mll_initial(netlist)
    values = [eliminate] if eliminate is not None else list(range(ELIMINATE_MAX + 1))
    candidates = mll_eliminated(initial, values)
    best, best_i = candidates[0], values[0]
    cost = hardware_cost(best, size)
    for i, net in zip(values[1:], candidates[1:]):
        c = hardware_cost(net, size)
        if c > cost:  # Algorithm 1: stop when the cost grows
            break
        best, best_i, cost = net, i, c
    return best, {"technology_independent": len(initial.gates), "technology_dependent": len(best.gates), "eliminate": best_i, "hardware_cost": cost}


def eliminate_sweep(netlist: Netlist, values: list[int]) -> dict[int, int]:
    """Nodes of the multi-level netlist after ``eliminate i`` for each i (Fig. 14(a))."""
    initial = mll_initial(netlist)
    return {i: len(n.gates) for i, n in zip(values, mll_eliminated(initial, values))}


def map_mll(net: Netlist) -> xr.XbarKernel:
    """STREAM-M's staircase (§V-C, Fig. 8): per level a product crossbar and a sum crossbar.

    Every signal travels as a pair of columns, itself and its complement (the
    rows of the next product crossbar, Eq. (1)'s factor 2); a product is the
    NOR of the complemented literals, a node's pair the OR and the NOR of its
    products (swapped for an off-set cover); a dummy is two buffers in series
    per polarity."""
    pis = {n: i for i, n in enumerate(net.inputs)}
    n_pi = len(net.inputs)
    level = _sop_levels(net)
    outs = list(net.outputs)
    depth = max([1] + [level[o] for o in outs])
    # pair[k][signal] = (column of the signal, column of its complement) in level k's sum crossbar
    pair: list[dict[str, tuple[int, int]]] = [dict() for _ in range(depth + 1)]
    prod_cols: list[list[tuple[list[int], bool]]] = [[] for _ in range(depth + 1)]  # (rows, inverted)
    sum_cols: list[list[tuple[list[int], bool]]] = [[] for _ in range(depth + 1)]

    def rows_of(s: str, k: int) -> tuple[int, int]:
        """Rows of level k's product crossbar carrying (s, not s)."""
        if k == 1:
            if s in pis:
                return pis[s], pis[s] + n_pi
            raise SynthesisError(f"{net.name}: signal '{s}' of level > 0 read at level 1")
        return place(s, k - 1)

    def place(s: str, k: int) -> tuple[int, int]:
        """The pair of columns of level k's sum crossbar carrying s (a dummy when s lives lower)."""
        if s in pair[k]:
            return pair[k][s]
        pos, neg = rows_of(s, k)
        # two buffers in series per polarity: a product column (NOR of the complement) then a sum column (OR)
        p0 = len(prod_cols[k])
        prod_cols[k].append(([neg], True))  # NOT(not s) = s
        prod_cols[k].append(([pos], True))  # NOT(s) = not s
        c = len(sum_cols[k])
        sum_cols[k].append(([p0], False))
        sum_cols[k].append(([p0 + 1], False))
        pair[k][s] = (c, c + 1)
        return pair[k][s]

    for g in net.gates:
        k = level[g.name]
        lits = [rows_of(f, k) for f in g.fanins]
        first = len(prod_cols[k])
        for cube in g.cubes:
            # AND of literals = NOR of their complements
            rows = [lits[i][1] if c == "1" else lits[i][0] for i, c in enumerate(cube) if c != "-"]
            prod_cols[k].append((sorted(set(rows)), True))
        products = list(range(first, len(prod_cols[k])))
        c = len(sum_cols[k])
        sum_cols[k].append((products, g.offset))  # f
        sum_cols[k].append((products, not g.offset))  # not f
        pair[k][g.name] = (c, c + 1)
    outputs = [place(o, depth)[0] for o in outs]
    layers = []
    rows = 2 * n_pi
    for k in range(1, depth + 1):
        for cols in (prod_cols[k], sum_cols[k]):
            plane = _plane(rows, [rs for rs, _ in cols])
            layers.append(xr.XbarLayer(plane, np.asarray([inv for _, inv in cols], np.bool_)))
            rows = len(cols)
    return xr.XbarKernel(tuple(layers), tuple(outputs))


def mapped_columns(kernel: xr.XbarKernel) -> int:
    """Every column of every layer (nodes, products, complements and dummies)."""
    return sum(layer.n_out for layer in kernel.layers)


def mapped_nodes(kernel: xr.XbarKernel, style: str) -> int:
    """Gates after crossbar mapping as Fig. 13 / 15 count them: the nodes and the dummy nodes.
    STREAM-O: one column each; STREAM-M: a pair of columns (the signal and its complement) in
    each level's sum crossbar (the odd layers)."""
    if style == "stream-o":
        return mapped_columns(kernel)
    return sum(layer.n_out for layer in kernel.layers[1::2]) // 2


def synthesize(netlist: Netlist, style: str, eliminate: int | None = None, size: int = xr.CROSSBAR_SIZE) -> tuple[xr.XbarProgram, dict[str, int]]:
    """The whole flow of ``style`` ('stream-o' or 'stream-m') on ``netlist``: the one-kernel program and the
    gate counts after each step (Fig. 13 / 15): ``technology_independent``, ``technology_dependent``,
    ``mapped`` (nodes and dummy nodes, ``mapped_nodes``), ``columns`` (every crossbar column),
    ``layers``, and for STREAM-M the ``eliminate`` i chosen and its ``hardware_cost``."""
    if style == "stream-o":
        oig, counts = stream_o(netlist)
        kernel = map_oig(oig)
        outputs = oig.output_names
    elif style == "stream-m":
        net, counts = stream_m(netlist, eliminate, size)
        kernel = map_mll(net)
        outputs = netlist.outputs  # (net.outputs are the signals, renamed where ABC needed it)
    else:
        raise SynthesisError(f"style '{style}': expected stream-o or stream-m")
    program = xr.single_kernel_program(kernel, netlist.inputs, outputs, style, size)
    return program, {**counts, "mapped": mapped_nodes(kernel, style), "columns": mapped_columns(kernel), "layers": kernel.depth}


def gate_counts(netlist: Netlist, style: str, eliminate: int | None = None) -> dict[str, int]:
    """Gate counts after each step of ``style`` (``synthesize``'s second half), for the bench's Fig. 13 / 15."""
    return synthesize(netlist, style, eliminate)[1]
