"""Combinational netlists as plain data: the ISCAS85 ``.bench`` and BLIF
readers, a BLIF writer (what ABC reads, STREAM §IV-A / §V-A) and a vectorized
evaluator, the oracle every STREAM synthesis step is checked against.

Takes netlist text (with the file name, for messages); gives a ``Netlist``:
primary inputs, primary outputs and gates in topological order, each gate an
operator over named fan-ins.  No xDSL: the ``xbar`` dialect converts CIRCT
``comb``/``hw`` IR to and from it, the synthesis passes hand it to ABC.

Gate operators: ``and or nand nor xor xnor not buf`` (the ISCAS85 gate set,
any fan-in for the first six) and ``sop`` (a BLIF ``.names`` cover: cubes over
the fan-ins, ``1``/``0``/``-`` per fan-in; the gate is the OR of its cubes, or
its complement when the cover lists the off-set).  A malformed file is one
``NetlistError`` line: ``file:line: what is wrong``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

OPERATORS = ("and", "or", "nand", "nor", "xor", "xnor", "not", "buf", "sop")
_ARITY_ONE = ("not", "buf")


class NetlistError(ValueError):
    """A malformed netlist (one line: file:line: what)."""


@dataclass(frozen=True)
class Gate:
    """``name = op(fanins)``; for ``sop``: the OR of ``cubes`` (complemented when ``offset``)."""

    name: str
    op: str
    fanins: tuple[str, ...]
    cubes: tuple[str, ...] = ()
    offset: bool = False  # a BLIF cover whose output column is 0 lists where the gate is 0


@dataclass(frozen=True)
class Netlist:
    """Primary inputs and outputs by name, gates in topological order."""

    name: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    gates: tuple[Gate, ...]

    def counts(self) -> dict[str, int]:
        """Gates per operator (Table IV's and the synthesis steps' gate counts)."""
        out: dict[str, int] = {}
        for g in self.gates:
            out[g.op] = out.get(g.op, 0) + 1
        return out


def _fail(where: str, line: int, what: str) -> NetlistError:
    return NetlistError(f"{where}:{line}: {what}")


def _order(name: str, inputs, outputs, gates: list[Gate], lines: dict[str, int], where: str) -> Netlist:
    """Check names and put the gates in topological order (a cycle or an undefined signal is an error)."""
    defined: dict[str, int] = {}
    for n in inputs:
        if n in defined:
            raise _fail(where, lines.get(n, 0), f"input '{n}' declared twice")
        defined[n] = -1
    for k, g in enumerate(gates):
        if g.name in defined:
            raise _fail(where, lines[g.name], f"signal '{g.name}' defined twice")
        defined[g.name] = k
    for g in gates:
        for f in g.fanins:
            if f not in defined:
                raise _fail(where, lines[g.name], f"gate '{g.name}' reads undefined signal '{f}'")
    for o in outputs:
        if o not in defined:
            raise _fail(where, lines.get("output " + o, 0), f"output '{o}' is never defined")
    # Kahn's algorithm, keeping file order among ready gates
    by_name = {g.name: g for g in gates}
    pending = {g.name: sum(1 for f in g.fanins if defined[f] >= 0) for g in gates}
    users: dict[str, list[str]] = {}
    for g in gates:
        for f in g.fanins:
            if defined[f] >= 0:
                users.setdefault(f, []).append(g.name)
    ready = [g.name for g in gates if pending[g.name] == 0]
    ordered: list[Gate] = []
    while ready:
        n = ready.pop()
        ordered.append(by_name[n])
        for u in users.get(n, ()):
            pending[u] -= 1
            if pending[u] == 0:
                ready.append(u)
    if len(ordered) != len(gates):
        stuck = min((g for g in gates if pending[g.name] > 0), key=lambda g: lines[g.name])
        raise _fail(where, lines[stuck.name], f"combinational cycle through gate '{stuck.name}'")
    return Netlist(name, tuple(inputs), tuple(outputs), tuple(ordered))


_BENCH_IO = re.compile(r"^(INPUT|OUTPUT)\s*\(\s*([^()\s]+)\s*\)$", re.IGNORECASE)
_BENCH_GATE = re.compile(r"^([^=\s]+)\s*=\s*([A-Za-z]+)\s*\(([^()]*)\)$")
_BENCH_OPS = {"AND": "and", "OR": "or", "NAND": "nand", "NOR": "nor", "XOR": "xor", "XNOR": "xnor", "NOT": "not", "BUF": "buf", "BUFF": "buf"}


def parse_bench(text: str, where: str = "<bench>", name: str | None = None) -> Netlist:
    """An ISCAS85 ``.bench`` netlist: ``INPUT(x)``, ``OUTPUT(y)``, ``g = OP(a, b, ...)``, ``#`` comments."""
    inputs: list[str] = []
    outputs: list[str] = []
    gates: list[Gate] = []
    lines: dict[str, int] = {}
    defined_here: set[str] = set()
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        m = _BENCH_IO.match(line)
        if m:
            kind, sig = m.group(1).upper(), m.group(2)
            if kind == "INPUT":
                if sig in defined_here:
                    raise _fail(where, lineno, f"signal '{sig}' defined twice")
                defined_here.add(sig)
                lines[sig] = lineno
                inputs.append(sig)
            else:
                if sig in outputs:
                    raise _fail(where, lineno, f"output '{sig}' declared twice")
                lines["output " + sig] = lineno
                outputs.append(sig)
            continue
        m = _BENCH_GATE.match(line)
        if not m:
            raise _fail(where, lineno, f"expected INPUT(x), OUTPUT(x) or 'x = GATE(a, ...)', got '{line}'")
        sig, opname, args = m.group(1), m.group(2).upper(), m.group(3)
        if opname not in _BENCH_OPS:
            raise _fail(where, lineno, f"unknown gate '{m.group(2)}' (expected one of {', '.join(sorted(_BENCH_OPS))})")
        fanins = tuple(a.strip() for a in args.split(",")) if args.strip() else ()
        if any(not a for a in fanins):
            raise _fail(where, lineno, f"gate '{sig}' has an empty fan-in")
        op = _BENCH_OPS[opname]
        if op in _ARITY_ONE and len(fanins) != 1:
            raise _fail(where, lineno, f"{opname} gate '{sig}' takes one input, got {len(fanins)}")
        if not fanins:
            raise _fail(where, lineno, f"{opname} gate '{sig}' has no inputs")
        if sig in defined_here:
            raise _fail(where, lineno, f"signal '{sig}' defined twice")
        defined_here.add(sig)
        lines[sig] = lineno
        gates.append(Gate(sig, op, fanins))
    if not inputs and not gates:
        raise _fail(where, 1, "no INPUT, OUTPUT or gate line: not a .bench netlist")
    return _order(name or _stem(where), inputs, outputs, gates, lines, where)


def _stem(where: str) -> str:
    base = where.rsplit("/", 1)[-1]
    return base.rsplit(".", 1)[0] if "." in base else base


def _blif_lines(text: str):
    """Logical BLIF lines (comments dropped, ``\\`` continuations joined) with their first line number."""
    buf, start = "", 0
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].rstrip()
        if not buf:
            start = lineno
        if line.endswith("\\"):
            buf += line[:-1] + " "
            continue
        buf += line
        if buf.strip():
            yield start, buf.strip()
        buf = ""
    if buf.strip():
        yield start, buf.strip()


# Gates of a mapped BLIF (``.gate``) that infs's own cell library defines
# (passes/xbar/abc.py writes it): name -> operator
LIBRARY_GATES = {"ZERO": "const0", "ONE": "const1", "BUF": "buf", "INV": "not", **{f"OR{k}": "or" for k in range(2, 9)}}


def parse_blif(text: str, where: str = "<blif>", name: str | None = None) -> Netlist:
    """A combinational BLIF model: ``.model .inputs .outputs .names .gate .end`` (latches and subcircuits refused)."""
    model = None
    inputs: list[str] = []
    outputs: list[str] = []
    gates: list[Gate] = []
    lines: dict[str, int] = {}
    current: tuple[str, tuple[str, ...], int] | None = None  # an open .names
    rows: list[tuple[str, str]] = []

    def close() -> None:
        nonlocal current, rows
        if current is None:
            return
        sig, fanins, at = current
        polarity = {o for _, o in rows}
        if len(polarity) > 1:
            raise _fail(where, at, f".names '{sig}': a cover mixes on-set (1) and off-set (0) rows")
        offset = polarity == {"0"}
        gates.append(Gate(sig, "sop", fanins, tuple(c for c, _ in rows), offset))
        current, rows = None, []

    for lineno, line in _blif_lines(text):
        words = line.split()
        if words[0].startswith("."):
            close()
            key = words[0]
            if key == ".model":
                model = words[1] if len(words) > 1 else model
            elif key == ".inputs":
                for w in words[1:]:
                    lines.setdefault(w, lineno)
                inputs.extend(words[1:])
            elif key == ".outputs":
                for w in words[1:]:
                    lines["output " + w] = lineno
                outputs.extend(words[1:])
            elif key == ".names":
                if len(words) < 2:
                    raise _fail(where, lineno, ".names needs an output signal")
                sig = words[-1]
                lines[sig] = lineno
                current = (sig, tuple(words[1:-1]), lineno)
            elif key == ".gate":
                if len(words) < 3:
                    raise _fail(where, lineno, ".gate needs a cell and its pins")
                cell = words[1]
                if cell not in LIBRARY_GATES:
                    raise _fail(where, lineno, f".gate '{cell}': not a cell of infs's OR/INV library ({', '.join(LIBRARY_GATES)})")
                pins = []
                for w in words[2:]:
                    if "=" not in w:
                        raise _fail(where, lineno, f".gate {cell}: pin '{w}' is not pin=signal")
                    pins.append(w.split("=", 1))
                sig = pins[-1][1]
                lines[sig] = lineno
                op = LIBRARY_GATES[cell]
                if op == "const0":
                    gates.append(Gate(sig, "sop", (), ()))
                elif op == "const1":
                    gates.append(Gate(sig, "sop", (), ("",)))
                else:
                    gates.append(Gate(sig, op, tuple(s for _, s in pins[:-1])))
            elif key == ".end":
                break
            elif key in (".latch", ".subckt", ".mlatch"):
                raise _fail(where, lineno, f"{key}: only combinational single-model BLIF is read")
            else:
                raise _fail(where, lineno, f"unknown BLIF directive '{key}'")
            continue
        if current is None:
            raise _fail(where, lineno, f"cover row '{line}' outside a .names")
        sig, fanins, _ = current
        if fanins:
            if len(words) != 2:
                raise _fail(where, lineno, f".names '{sig}': row '{line}' is not 'cube output'")
            cube, out = words
        else:
            if len(words) != 1:
                raise _fail(where, lineno, f".names '{sig}': a constant's row is one 0 or 1, got '{line}'")
            cube, out = "", words[0]
        if len(cube) != len(fanins) or set(cube) - set("01-"):
            raise _fail(where, lineno, f".names '{sig}': cube '{cube}' must be {len(fanins)} of 0, 1, -")
        if out not in ("0", "1"):
            raise _fail(where, lineno, f".names '{sig}': output column '{out}' must be 0 or 1")
        rows.append((cube, out))
    close()
    if not inputs and not gates and not outputs:
        raise _fail(where, 1, "no .inputs, .outputs or .names: not a BLIF netlist")
    # a primary output may be a primary input directly (ABC writes a buffer then)
    return _order(name or model or _stem(where), inputs, outputs, gates, lines, where)


def write_blif(netlist: Netlist) -> str:
    """BLIF text of ``netlist`` (every gate as a ``.names`` cover), for ABC."""
    out = [f".model {netlist.name}", ".inputs " + " ".join(netlist.inputs), ".outputs " + " ".join(netlist.outputs)]
    for g in netlist.gates:
        out.append(".names " + " ".join((*g.fanins, g.name)))
        n = len(g.fanins)
        if g.op == "sop":
            out.extend(f"{c} {0 if g.offset else 1}" if n else ("0" if g.offset else "1") for c in g.cubes)
        elif g.op in ("and", "nand"):
            out.append("1" * n + (" 1" if g.op == "and" else " 0"))
        elif g.op in ("or", "nor"):
            out.append("0" * n + (" 0" if g.op == "or" else " 1"))
        elif g.op in ("not", "buf"):
            out.append("0 1" if g.op == "not" else "1 1")
        else:  # xor / xnor: the odd (even) minterms
            want = 1 if g.op == "xor" else 0
            for m in range(1 << n):
                bits = format(m, f"0{n}b")
                if bits.count("1") % 2 == want:
                    out.append(f"{bits} 1")
    out.append(".end")
    return "\n".join(out) + "\n"


def _cube_value(cube: str, cols: list[np.ndarray], n_vectors: int) -> np.ndarray:
    v = np.ones(n_vectors, np.bool_)
    for c, x in zip(cube, cols):
        if c == "1":
            v &= x
        elif c == "0":
            v &= ~x
    return v


def evaluate(netlist: Netlist, inputs: np.ndarray) -> np.ndarray:
    """Outputs (n_vectors, n_po) for boolean ``inputs`` (n_vectors, n_pi): one numpy op per gate over all vectors."""
    inputs = np.asarray(inputs, np.bool_)
    if inputs.ndim != 2 or inputs.shape[1] != len(netlist.inputs):
        raise NetlistError(f"{netlist.name}: inputs must be (vectors, {len(netlist.inputs)}), got {inputs.shape}")
    n = inputs.shape[0]
    values: dict[str, np.ndarray] = {name: inputs[:, i] for i, name in enumerate(netlist.inputs)}
    for g in netlist.gates:
        cols = [values[f] for f in g.fanins]
        if g.op == "sop":
            v = np.zeros(n, np.bool_)
            for cube in g.cubes:
                v |= _cube_value(cube, cols, n)
            if g.offset:
                v = ~v
        elif g.op in ("and", "nand"):
            v = np.logical_and.reduce(cols) if len(cols) > 1 else cols[0].copy()
            v = ~v if g.op == "nand" else v
        elif g.op in ("or", "nor"):
            v = np.logical_or.reduce(cols) if len(cols) > 1 else cols[0].copy()
            v = ~v if g.op == "nor" else v
        elif g.op in ("xor", "xnor"):
            v = np.logical_xor.reduce(cols) if len(cols) > 1 else cols[0].copy()
            v = ~v if g.op == "xnor" else v
        elif g.op == "not":
            v = ~cols[0]
        else:
            v = cols[0].copy()
        values[g.name] = v
    if not netlist.outputs:
        return np.zeros((n, 0), np.bool_)
    return np.stack([values[o] for o in netlist.outputs], axis=1)
