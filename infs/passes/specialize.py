"""``specialize``: bind a tDFG's symbols and scalars to concrete values.

Takes: ``tdfg.graph`` ops with symbolic domains (ASPLOS §4: the portable
form).  Gives: the same graphs with every domain, distance, count and access
map concrete (the JIT specializes on sizes and memoizes on them, §4.2).  A
non-index scalar (a stencil weight) stays a runtime parameter unless
``sizes`` binds it, in which case its ``tdfg.const`` becomes a literal.  The
bindings are recorded on the graph as ``infs.sizes``.

Values come from the ``sizes`` option (``N=2048,M=64,w0=0.25``) and, for a
symbol that is the full extent of a statically shaped array dim
(``tdfg.tensor %A [0:N]`` with ``%A : memref<64xf32>``), from the shape.
An unbound symbol is an error naming the symbol and the op using it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import DictionaryAttr, FloatAttr, IndexType, IntegerAttr, ModuleOp, f32, i64
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass

from infs.dialects import tdfg
from infs.dialects.lattice import I64_MAX, I64_MIN, Affine, AffineAttr, Domain, DomainAttr, LatticeError, MapAttr
from infs.passes.tdfg_domains import SpecializeError, full_extents, symbol_extents


def parse_bindings(text: str) -> dict[str, float | int]:
    """``"N=64,M=32 w=0.5"`` -> ``{"N": 64, "M": 32, "w": 0.5}``."""
    out: dict[str, float | int] = {}
    for item in text.replace(",", " ").split():
        name, eq, value = item.partition("=")
        if not eq or not name or not value:
            raise SpecializeError(f"bad binding '{item}': expected NAME=VALUE")
        try:
            number: float | int = int(value)
        except ValueError:
            try:
                number = float(value)
            except ValueError:
                raise SpecializeError(f"bad binding '{item}': '{value}' is not a number") from None
        # bindings are recorded (and lowered) as i64: a larger value was xDSL's
        # i64 range error (naming no option), and 2^63 was recorded as -2^63
        if isinstance(number, int) and not I64_MIN <= number <= I64_MAX:
            bound = "at most 2^63 - 1 = 9223372036854775807" if number > 0 else "at least -2^63 = -9223372036854775808"
            raise SpecializeError(f"sizes={item}: {value} does not fit in 64 bits ({bound})")
        out[name] = number
    return out


def infer_from_static_shapes(graph: tdfg.GraphOp, bound: frozenset[str] | set[str] = frozenset()) -> dict[str, int]:
    """Symbols that are the full extent ``[0:N]`` of a statically sized array dim
    (those not ``bound`` already: a binding wins over the shapes)."""
    tensors = [op for op in graph.body.block.ops if isinstance(op, tdfg.TensorOp)]
    return symbol_extents(full_extents((op.domain.data, op.array.type.get_shape()) for op in tensors), bound)  # type: ignore[attr-defined]


def specialize_graph(graph: tdfg.GraphOp, bindings: Mapping[str, float | int]) -> None:
    """Make ``graph`` concrete in place."""
    env: dict[str, int] = {}
    for name, v in zip(graph.names, graph.scalars):
        if name in bindings and isinstance(v.type, IndexType):
            val = bindings[name]
            if not isinstance(val, int):
                raise SpecializeError(f"symbol '{name}' is an index; got {val}")
            if val < 0:  # the lattice's symbols are non-negative: the tDFG rewrites are proved for those only
                raise SpecializeError(f"symbol '{name}' is a size (an index) and cannot be negative; got {val}")
            env[name] = val
    env |= infer_from_static_shapes(graph, set(env))  # (only symbols env does not bind)

    def concrete(e: Affine, op: Operation, what: str) -> Affine:
        try:
            return Affine(e.evaluate(env))
        except LatticeError:
            missing = sorted(e.names - set(env))
            raise SpecializeError(f"'{op.name}' {what} uses symbol '{missing[0]}' that was never bound (give it in sizes=...)") from None

    def concrete_domain(d: Domain, op: Operation, what: str) -> Domain:
        # A range whose upper bound falls below its lower one under these sizes
        # ([1:N - 1] with N = 0) is empty, as a numpy slice: [1:1], which a
        # concrete domain can state (its verifier rejects p > q).
        out = []
        for p, q in d.bounds:
            cp, cq = concrete(p, op, what), concrete(q, op, what)
            out.append((cp, cq if cq.const >= cp.const else cp))
        return Domain(tuple(out))

    for op in list(graph.body.block.ops):
        props = op.properties
        for key, attr in list(props.items()):
            if isinstance(attr, DomainAttr):
                props[key] = DomainAttr(concrete_domain(attr.data, op, key))
            elif isinstance(attr, AffineAttr):
                props[key] = AffineAttr(concrete(attr.data, op, key))
            elif isinstance(attr, MapAttr):
                syms = {n: env[n] for n in attr.data.symbols_used() if n in env}
                missing = attr.data.symbols_used() - set(env)
                if missing:
                    raise SpecializeError(f"'{op.name}' access map uses symbol '{sorted(missing)[0]}' that was never bound (give it in sizes=...)")
                props[key] = MapAttr(attr.data.substitute(syms))
        if isinstance(op, tdfg.ConstOp) and op.scalar is not None:
            name = graph.names[list(graph.scalar_args).index(op.scalar)]
            value = env.get(name, bindings.get(name))
            if value is None:
                continue  # a runtime parameter: it reaches the commands as a scalar operand
            assert isinstance(op.result.type, tdfg.TensorType)
            new = tdfg.ConstOp(op.result.type, value=value)
            op.result.replace_all_uses_with(new.result)
            graph.body.block.insert_op_before(new, op)
            graph.body.block.erase_op(op)
    recorded: dict[str, Attribute] = {n: IntegerAttr(v, i64) for n, v in sorted(env.items())}
    for n, v in bindings.items():
        if n in graph.names and n not in env:
            recorded[n] = FloatAttr(float(v), f32) if isinstance(v, float) else IntegerAttr(int(v), i64)
    graph.attributes["infs.sizes"] = DictionaryAttr(recorded)


@dataclass(frozen=True)
class SpecializePass(ModulePass):
    """Bind symbols/scalars of every ``tdfg.graph`` (option ``sizes="N=64,M=32"``)."""

    name = "specialize"
    sizes: str = ""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        bindings = parse_bindings(self.sizes)
        graphs = [g for g in op.walk() if isinstance(g, tdfg.GraphOp)]
        known = {n for g in graphs for n in g.names}
        unknown = sorted(set(bindings) - known)
        if unknown and graphs:
            raise SpecializeError(f"sizes binds '{unknown[0]}', which no tdfg.graph has as a symbol (have: {', '.join(sorted(known)) or 'none'})")
        for g in graphs:
            specialize_graph(g, bindings)
