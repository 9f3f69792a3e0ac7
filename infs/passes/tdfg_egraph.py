"""The egglog encoding of the tDFG and the rewrite rules of ASPLOS'23's Appendix (Eq. 3-9).

``optimize-tdfg`` (``infs.passes.optimize_tdfg``) adds one ``tdfg.graph`` at a time to
an egglog e-graph that holds ``PRELUDE`` (sorts, gates, rules), saturates, extracts.
The program is egglog source text run through ``egglog.bindings`` (the Rust engine):
the rules are compiled once per process, and a graph costs one parse and one run.

Terms (sort ``Tn``, one per tensor value):

* ``(Read id)`` -- a ``tdfg.tensor`` read (id into the pass's table of (array,
  domain)); ``(Const id)`` -- a ``tdfg.const``; ``(Leaf id)`` -- a value the e-graph
  does not look into (``reduce``, ``stream_load``, ...); ``(Root k)`` names the
  e-class of the k-th value the pass extracts (no rule matches it);
* ``(Cmp1 op ty a)``, ``(Cmp2 op ty a b)``, ``(Cmp3 op ty a b c)`` -- ``tdfg.cmp``
  (``ty``: element type of the data inputs, what the cost profile prices);
* ``(Mv a dim dist)``, ``(Bc a dim dist count)``, ``(Shrink a dim lo hi)``.

Affine bounds are ``(A c s0 .. s5)`` = ``c + sum s_k * sym_k`` over the graph's index
symbols (at most ``SLOTS``; slot k is the k-th symbol in sorted order).  Rules compute
with the i64 fields and prove order facts field by field: ``a >= b`` for every value of
the non-negative symbols iff every field of ``a - b`` is >= 0 -- exactly
``lattice.provably_ge``.  A rule whose fact cannot be proved that way does not fire.

Which (op, type) a rule may touch is asserted per process by the pass through the
relations ``comm_ok``, ``assoc_ok``, ``distrib_ok`` and ``spread_ok`` (an op that may be
computed on more cells than before: not integer ``div``, whose zero divisors there would
be an error), so options and traps are decided in Python, once.  ``(bounded x i)`` says ``x``'s domain
is bounded along dim i (a constant is not, nor a move of one): Eq. 7a/7b/8a need it, since
a move drops cells below 0 and a shrink of a constant does not (ruleset ``bounds``, run to
saturation before Eq. 7 and 8; the pass asserts it for reads and leaves).

Directions.  Every rule adds an equality, so both sides end up in one e-class whichever
way it is written; a rule is written in the direction that creates the terms extraction
needs -- moves and shrinks float towards the graph's outputs (4a, 4b, 7, 8a, 9: the paper's
"exchange the shift nodes to the final output"), factors are pulled out (3c), shrinks of
different dims are put in one order (6a) -- so that saturation does not also grow the
mirror images, which nothing cheaper is built from.
"""

from __future__ import annotations

SLOTS = 6
RULE_FAMILIES = ("eq3", "eq4", "eq6", "eq7", "eq8", "eq9")  # Eq. 5 is applied when a graph is added
BOUNDED = "bounds"  # the ruleset deriving ``(bounded x i)`` (Eq. 7 and 8 need it)

_counter = [0]


def _aff() -> tuple[str, list[str]]:
    """A pattern ``(A c s0 ..)`` with fresh field variables, and the variables."""
    _counter[0] += 1
    vs = [f"a{_counter[0]}_{k}" for k in range(SLOTS + 1)]
    return "(A " + " ".join(vs) + ")", vs


def _fields(expr_of_field) -> str:
    return "(A " + " ".join(expr_of_field(k) for k in range(SLOTS + 1)) + ")"


def _ge(x: list[str], y: list[str]) -> str:
    return " ".join(f"(>= {a} {b})" for a, b in zip(x, y))


_names: set[str] = set()


def _rule(family: str, name: str, facts: str, actions: str) -> str:
    """One named rule (names are unique: ``Eq. 6b/2`` is the second rule of Eq. 6b)."""
    base, k = f"Eq. {name}", 1
    while f"{base}/{k}" in _names:
        k += 1
    _names.add(f"{base}/{k}")
    return f'(rule ({facts}) ({actions}) :ruleset {family} :name "{base}/{k}")'


def _prelude() -> str:
    out = [
        "(datatype Aff (A " + " ".join(["i64"] * (SLOTS + 1)) + "))",
        """(datatype Tn
  (Read i64) (Const i64) (Leaf i64) (Root i64)
  (Cmp1 String String Tn) (Cmp2 String String Tn Tn) (Cmp3 String String Tn Tn Tn)
  (Mv Tn i64 Aff) (Bc Tn i64 Aff Aff) (Shrink Tn i64 Aff Aff))""",
        "(relation comm_ok (String String))",
        "(relation assoc_ok (String String))",
        "(relation distrib_ok (String String String))",
        "(relation spread_ok (String String))",
        "(relation unit_at (Tn i64 Aff))",
        "(relation bounded (Tn i64))",
    ]
    out += [f"(ruleset {f})" for f in (*RULE_FAMILIES, BOUNDED)]

    # ``(bounded x i)``: x's domain is bounded along dim i (tdfg semantics: a constant is
    # unbounded; a read, a leaf and a shrink along i are bounded; a move or broadcast keeps
    # its input's; a compute is bounded where one input is).  The pass asserts it for reads
    # and leaves; these rules derive the rest, exactly (every e-node of a class has the
    # class's domain), and run to saturation before Eq. 7 and 8, which need it.
    out += [
        "(rule ((= x (Mv a i d)) (bounded a j)) ((bounded x j)) :ruleset bounds)",
        "(rule ((= x (Bc a i d n)) (bounded a j)) ((bounded x j)) :ruleset bounds)",
        "(rule ((= x (Shrink a i p q))) ((bounded x i)) :ruleset bounds)",
        "(rule ((= x (Shrink a i p q)) (bounded a j)) ((bounded x j)) :ruleset bounds)",
        "(rule ((= x (Cmp1 f ty a)) (bounded a j)) ((bounded x j)) :ruleset bounds)",
    ]
    out += [f"(rule ((= x (Cmp2 f ty a b)) (bounded {v} j)) ((bounded x j)) :ruleset bounds)" for v in "ab"]
    out += [f"(rule ((= x (Cmp3 f ty a b c)) (bounded {v} j)) ((bounded x j)) :ruleset bounds)" for v in "abc"]

    # Eq. 3a/3b/3c (3a one way: with 3b it still reaches every bracketing)
    out += [
        _rule("eq3", "3b", "(= x (Cmp2 f ty a b)) (comm_ok f ty)", "(union x (Cmp2 f ty b a))"),
        _rule("eq3", "3a", "(= x (Cmp2 f ty (Cmp2 f ty a b) c)) (assoc_ok f ty)", "(union x (Cmp2 f ty a (Cmp2 f ty b c)))"),
        # g(f(A, B), f(A, C)) => f(A, g(B, C)), e.g. a*x + a*y => a*(x + y)
        _rule("eq3", "3c", "(= x (Cmp2 g ty (Cmp2 f ty a b) (Cmp2 f ty a c))) (distrib_ok f g ty)", "(union x (Cmp2 f ty a (Cmp2 g ty b c)))"),
    ]

    # Eq. 4a/4b
    d, dv = _aff()
    n, _nv = _aff()
    out += [
        # a move / broadcast of an infinite constant is the same constant (tdfg semantics)
        _rule("eq4", "4a-const", f"(= x (Mv (Const k0) i {d}))", "(union x (Const k0))"),
        _rule("eq4", "4b-const", f"(= x (Bc (Const k0) i {d} {n}))", "(union x (Const k0))"),
    ]
    ins = ("a", "b", "c")
    for arity in (1, 2, 3):
        ctor = f"Cmp{arity}"
        # every input moved by the same (dim, dist), or an unmoved constant; at least one moved
        for mask in range(1, 1 << arity):
            lhs = " ".join(f"(Mv {ins[p]} i {d})" if mask >> p & 1 else f"(Const k{p})" for p in range(arity))
            inner = " ".join(ins[p] if mask >> p & 1 else f"(Const k{p})" for p in range(arity))
            out.append(_rule("eq4", "4a", f"(= x ({ctor} f ty {lhs})) (spread_ok f ty)", f"(union x (Mv ({ctor} f ty {inner}) i {d}))"))
        # 4b: one broadcast input, the others constants
        for p in range(arity):
            lhs = " ".join(f"(Bc a i {d} {n})" if q == p else f"(Const k{q})" for q in range(arity))
            inner = " ".join("a" if q == p else f"(Const k{q})" for q in range(arity))
            out.append(_rule("eq4", "4b", f"(= x ({ctor} f ty {lhs})) (spread_ok f ty)", f"(union x (Bc ({ctor} f ty {inner}) i {d} {n}))"))

    # Eq. 6a/6b
    p, pv = _aff()
    q, qv = _aff()
    p2, p2v = _aff()
    q2, q2v = _aff()
    out.append(_rule("eq6", "6a", f"(= x (Shrink (Shrink a j {p2} {q2}) i {p} {q})) (< i j)", f"(union x (Shrink (Shrink a i {p} {q}) j {p2} {q2}))"))
    for lo, lo_cond in ((p, _ge(pv, p2v)), (p2, _ge(p2v, pv))):
        for hi, hi_cond in ((q, _ge(q2v, qv)), (q2, _ge(qv, q2v))):
            out.append(
                _rule("eq6", "6b", f"(= x (Shrink (Shrink a i {p2} {q2}) i {p} {q})) {lo_cond} {hi_cond}", f"(union x (Shrink a i {lo} {hi}))")
            )

    # Eq. 7a/7b: M(S(A)) => S(M(A)); along the move's dim the range moves with the data.
    # A move drops cells below 0 (tdfg semantics) and a shrink of a tensor unbounded along
    # its dim (a constant) does not: S(c, i, [-1, 2)) has a cell at -1 that M(.., +1) brings
    # to 0.  So where A may be unbounded along i, the shrink's range (moved, for 7b) must
    # start at >= 0, or the exchange would keep cells the move dropped (found by fuzzing:
    # M(M(S(c, [0, 3)), -1), +1) became S(c, [0, 3)), a cell more).
    plus = lambda xv, yv: _fields(lambda k: f"(+ {xv[k]} {yv[k]})")  # noqa: E731
    minus = lambda xv, yv: _fields(lambda k: f"(- {xv[k]} {yv[k]})")  # noqa: E731
    nonneg = lambda e: " ".join(f"(>= {e(k)} 0)" for k in range(SLOTS + 1))  # noqa: E731
    for guard in ("(bounded a i)", nonneg(lambda k: pv[k])):
        out.append(_rule("eq7", "7a", f"(= x (Mv (Shrink a i {p} {q}) j {d})) (!= i j) {guard}", f"(union x (Shrink (Mv a j {d}) i {p} {q}))"))
    for guard in ("(bounded a i)", nonneg(lambda k: f"(+ {pv[k]} {dv[k]})")):
        out.append(_rule("eq7", "7b", f"(= x (Mv (Shrink a i {p} {q}) i {d})) {guard}", f"(union x (Shrink (Mv a i {d}) i {plus(pv, dv)} {plus(qv, dv)}))"))

    # Eq. 8a/8b
    lo, lov = _aff()
    cnt, nv = _aff()
    out += [
        # a broadcast's copy width is the extent along its own dim: other dims commute
        # (where the shrink's cells along i stay >= 0 or A is bounded along i, as 7a)
        *(
            _rule("eq8", "8a", f"(= x (Bc (Shrink a i {p} {q}) j {d} {cnt})) (!= i j) {guard}", f"(union x (Shrink (Bc a j {d} {cnt}) i {p} {q}))")
            for guard in ("(bounded a i)", nonneg(lambda k: pv[k]))
        ),
        # a shrunk broadcast of a one-cell-wide tensor at [lo, lo + 1) is a broadcast straight
        # onto [p, q): dist' = p - lo, count' = q - p, when lo + dist <= p <= q <= lo + dist + count
        _rule(
            "eq8",
            "8b",
            f"(= x (Shrink (Bc a i {d} {cnt}) i {p} {q})) (unit_at a i {lo}) "
            + " ".join(f"(>= {pv[k]} (+ {lov[k]} {dv[k]}))" for k in range(SLOTS + 1))
            + " "
            + _ge(qv, pv)
            + " "
            + " ".join(f"(>= (+ {lov[k]} (+ {dv[k]} {nv[k]})) {qv[k]})" for k in range(SLOTS + 1)),
            f"(union x (Bc a i {minus(pv, lov)} {minus(qv, pv)}))",
        ),
    ]

    # Eq. 9: C(f, .., S(A), ..) => S(C(f, .., A, ..)) (the compute spreads to A's domain)
    for arity in (1, 2, 3):
        ctor = f"Cmp{arity}"
        for pos in range(arity):
            lhs = " ".join(f"(Shrink {ins[r]} i {p} {q})" if r == pos else ins[r] for r in range(arity))
            plain = " ".join(ins[:arity])
            out.append(_rule("eq9", "9", f"(= x ({ctor} f ty {lhs})) (spread_ok f ty)", f"(union x (Shrink ({ctor} f ty {plain}) i {p} {q}))"))
    return "\n".join(out)


PRELUDE = _prelude()


def aff_text(fields: tuple[int, ...]) -> str:
    return "(A " + " ".join(str(v) for v in fields) + ")"
