"""Unit and property tests of the lattice algebra (infs.dialects.lattice):
affine expressions, domains, access maps and patterns, and their attributes.

Every property is checked against an explicit, slow model: affine expressions
against evaluation at random (non-negative) symbol values, domains against the
sets of integer cells they contain, patterns against the closed formula
(element i = start + sum_k stride_k * ((i // prod_{j<k} count_j) % count_k)).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from infs import api
from infs.dialects.lattice import (
    AccessMap,
    Affine,
    AffineAttr,
    Domain,
    DomainAttr,
    LatticeError,
    MapAttr,
    Pattern,
    PatternAttr,
    affine_from_text,
    affine_max,
    affine_min,
    verify_domain,
    verify_pattern,
)

CTX = api.make_context()
FAST = settings(max_examples=100, deadline=None)
MEDIUM = settings(max_examples=60, deadline=None)

NAMES = ["N", "M", "k", "n_1", "d0", "d1", "x.y"]


def parse_attr(text: str):
    return Parser(CTX, text).parse_attribute()


# ---------------------------------------------------------------------------
# strategies
# ---------------------------------------------------------------------------

small_int = st.integers(-20, 20)


@st.composite
def affines(draw, names=NAMES, max_terms=3):
    const = draw(small_int)
    chosen = draw(st.lists(st.sampled_from(names), max_size=max_terms, unique=True))
    coeffs = {n: draw(st.integers(-5, 5).filter(bool)) for n in chosen}
    return Affine._make(const, coeffs)


def envs(names=NAMES, lo=0, hi=30):
    return st.fixed_dictionaries({n: st.integers(lo, hi) for n in names})


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


# ---------------------------------------------------------------------------
# Affine expressions
# ---------------------------------------------------------------------------


def test_affine_canonical_form_and_printing():
    N, k = Affine.of("N"), Affine.of("k")
    e = 2 * N - k + 3 - N
    assert e == Affine(3, (("N", 1), ("k", -1)))
    assert str(e) == "N - k + 3"
    assert str(N - N) == "0" and (N - N).is_constant
    assert str(-N) == "-N"
    assert str(Affine(-4)) == "-4"
    assert str(3 * k - 2) == "3*k - 2"
    assert str(-2 * N + k) == "-2*N + k"
    assert (N + 0).terms == (("N", 1),)
    assert (N - 1).coeff("N") == 1 and (N - 1).coeff("k") == 0
    assert (N + 2 * k).names == frozenset({"N", "k"})
    assert Affine.of(5) == Affine(5) and Affine.of(np.int64(5)) == Affine(5)


def test_affine_errors():
    with pytest.raises(LatticeError):
        Affine.of("N") * Affine.of("N")  # type: ignore[operator]
    with pytest.raises(LatticeError, match="'k'"):
        (Affine.of("N") + "k").evaluate({"N": 1})
    with pytest.raises(LatticeError):
        Affine.of("N").constant_value()
    with pytest.raises(TypeError):
        Affine.of(1.5)  # type: ignore[arg-type]
    assert Affine(7).constant_value() == 7


@FAST
@given(affines(), affines(), affines(), st.integers(-6, 6))
def test_affine_ring_laws(a, b, c, k):
    zero = Affine(0)
    assert a + b == b + a
    assert (a + b) + c == a + (b + c)
    assert a + zero == a
    assert a - a == zero
    assert -(-a) == a
    assert a - b == a + (-b)
    assert k * (a + b) == k * a + k * b
    assert (a * k) == (k * a)
    assert 0 * a == zero
    assert 1 * a == a
    assert (k * a) * 2 == a * (2 * k)
    # canonical: sorted names, no zero coefficient
    for e in (a + b, a - b, k * a, a + c - b):
        assert [n for n, _ in e.terms] == sorted(n for n, _ in e.terms)
        assert all(cf != 0 for _, cf in e.terms)


@FAST
@given(affines(), affines(), st.integers(-6, 6), envs(lo=-30))
def test_affine_evaluate_is_a_homomorphism(a, b, k, env):
    assert (a + b).evaluate(env) == a.evaluate(env) + b.evaluate(env)
    assert (a - b).evaluate(env) == a.evaluate(env) - b.evaluate(env)
    assert (k * a).evaluate(env) == k * a.evaluate(env)
    assert (-a).evaluate(env) == -a.evaluate(env)
    assert (a + 5).evaluate(env) == a.evaluate(env) + 5
    assert (a - "N").evaluate(env) == a.evaluate(env) - env["N"]
    # explicit formula
    assert a.evaluate(env) == a.const + sum(c * env[n] for n, c in a.terms)


@FAST
@given(affines(), st.data())
def test_substitute_then_evaluate(a, data):
    """Binding some names with constants or other affine expressions, then
    evaluating the rest, is evaluating with the composed environment."""
    bound = data.draw(st.lists(st.sampled_from(NAMES), unique=True, max_size=4))
    images = {n: data.draw(affines(names=["N", "M", "k"], max_terms=2)) for n in bound}
    env = data.draw(envs(lo=-10, hi=10))
    composed = dict(env)
    for n, img in images.items():
        composed[n] = img.evaluate(env)
    assert a.substitute(images).evaluate(env) == a.evaluate(composed)
    # integer substitution makes every bound name disappear
    ints = {n: env[n] for n in bound}
    sub = a.substitute(ints)
    assert not (sub.names & set(bound))
    assert sub.evaluate(env) == a.evaluate(env)
    # substituting everything gives a constant equal to evaluate
    assert a.substitute(env).constant_value() == a.evaluate(env)


@FAST
@given(affines(), affines(), st.lists(envs(), min_size=5, max_size=5))
def test_compare_is_sound(a, b, samples):
    """Whenever compare returns a sign, it holds for every non-negative binding."""
    c = a.compare(b)
    extremes = [{n: 0 for n in NAMES}, {n: 1000 for n in NAMES}]
    for env in samples + extremes:
        if c is not None:
            assert sign(a.evaluate(env) - b.evaluate(env)) == c, (a, b, env)
    if a == b:
        assert c == 0
    if (a - b).is_constant:
        assert c == sign((a - b).const)


def test_compare_examples():
    N, k = Affine.of("N"), Affine.of("k")
    assert (k + 1).compare(0) == 1
    assert (N - 1).compare(N) == -1
    assert N.compare(N) == 0
    assert N.compare(0) is None  # N may be 0
    assert N.compare(k) is None
    assert (N + k + 1).compare(k) == 1
    assert Affine(0).compare(k + 2) == -1


@FAST
@given(affines(), affines(), st.lists(envs(), min_size=4, max_size=4))
def test_affine_max_min_are_sound(a, b, samples):
    for f, pick in ((affine_max, max), (affine_min, min)):
        try:
            r = f(a, b)
        except LatticeError:
            continue
        assert r in (a, b)
        for env in samples:
            assert r.evaluate(env) == pick(a.evaluate(env), b.evaluate(env))


def test_affine_max_of_zero_and_a_symbol():
    k = Affine.of("k")
    assert affine_max(Affine(0), k) == k
    assert affine_min(Affine(0), k) == Affine(0)


@FAST
@given(affines())
def test_affine_print_parse_round_trip(a):
    assert affine_from_text(str(a)) == a
    attr = parse_attr(f"#lattice.expr<{a}>")
    assert isinstance(attr, AffineAttr) and attr.data == a
    assert str(attr) == f"#lattice.expr<{a}>"
    assert parse_attr(str(attr)) == attr


@pytest.mark.parametrize(
    "text, value",
    [
        ("N - 1", Affine(-1, (("N", 1),))),
        ("2*k + 1", Affine(1, (("k", 2),))),
        ("k*2 + 1", Affine(1, (("k", 2),))),
        ("-N + 3 - 2*M", Affine(3, (("M", -2), ("N", -1)))),
        ("N - N", Affine(0)),
        ("-4", Affine(-4)),
    ],
)
def test_affine_from_text(text, value):
    assert affine_from_text(text) == value


@pytest.mark.parametrize("text", ["N +", "N N", "* 2", "N - - ", ""])
def test_affine_from_text_rejects_garbage(text):
    with pytest.raises(LatticeError):
        affine_from_text(text)


# ---------------------------------------------------------------------------
# Domains: concrete boxes against explicit cell sets
# ---------------------------------------------------------------------------


@st.composite
def boxes(draw, rank: int, allow_empty=True):
    out = []
    for _ in range(rank):
        p = draw(st.integers(-3, 5))
        n = draw(st.integers(0 if allow_empty else 1, 5))
        out.append((p, p + n))
    return Domain.of(out)


def cells(d: Domain) -> set[tuple[int, ...]]:
    return set(itertools.product(*(range(p, q) for p, q in d.concrete())))


rank_and_two_boxes = st.integers(1, 3).flatmap(lambda r: st.tuples(boxes(r), boxes(r)))


@FAST
@given(rank_and_two_boxes)
def test_intersect_is_set_intersection(pair):
    a, b = pair
    i = a.intersect(b)
    assert i.is_concrete
    assert cells(i) == cells(a) & cells(b)
    assert i.volume() == len(cells(a) & cells(b))
    assert i == b.intersect(a)
    assert a.intersect(a) == a


@FAST
@given(rank_and_two_boxes)
def test_hull_contains_both(pair):
    a, b = pair
    h = a.hull(b)
    assert cells(a) | cells(b) <= cells(h)
    assert h == b.hull(a)
    assert h.contains(a) is True and h.contains(b) is True
    if a.volume() and b.volume():
        # the smallest box: every face is touched by a or b
        pts = cells(a) | cells(b)
        for d in range(a.rank):
            assert h.concrete()[d] == (min(p[d] for p in pts), max(p[d] for p in pts) + 1)


@FAST
@given(st.integers(1, 3).flatmap(lambda r: st.tuples(boxes(r), boxes(r, allow_empty=False))))
def test_contains_is_set_inclusion(pair):
    a, b = pair  # b non-empty
    assert a.contains(b) is (cells(b) <= cells(a))


def test_empty_domain_is_contained_everywhere():
    assert Domain.of([(0, 4)]).contains(Domain.of([(5, 5)])) is True


@FAST
@given(st.integers(0, 3).flatmap(boxes))
def test_volume_is_number_of_cells(d):
    assert d.volume() == len(cells(d))
    assert d.is_empty() is (len(cells(d)) == 0)
    assert d.slices() == tuple(slice(p, q) for p, q in d.concrete())


@FAST
@given(st.integers(1, 3).flatmap(boxes), st.data())
def test_shift_and_back(d, data):
    dim = data.draw(st.integers(0, d.rank - 1))
    dist = data.draw(st.integers(-5, 5))
    s = d.shift(dim, dist)
    assert s.shift(dim, -dist) == d
    assert cells(s) == {c[:dim] + (c[dim] + dist,) + c[dim + 1 :] for c in cells(d)}
    assert s.volume() == d.volume()
    # symbolic shift then back
    sym = d.shift(dim, Affine.of("k"))
    assert sym.names == {"k"}
    assert sym.evaluate({"k": 3}) == d.shift(dim, 3).concrete()
    assert sym.shift(dim, -Affine.of("k")) == d


def test_extend_rank_pads_leading_dims():
    d = Domain.of([(1, "N")])
    e = d.extend_rank(3)
    assert e == Domain.of([(0, 1), (0, 1), (1, "N")])
    assert e.volume({"N": 5}) == 4
    assert d.extend_rank(1) == d
    with pytest.raises(LatticeError):
        e.extend_rank(2)


def test_domain_basic_queries():
    d = Domain(((Affine(0), affine_from_text("N - 1")), (affine_from_text("k + 1"), Affine.of("N"))))
    assert d.rank == 2 and d.names == {"N", "k"} and not d.is_concrete
    assert d.extent(1) == affine_from_text("N - k - 1")
    assert d.evaluate({"N": 5, "k": 1}) == ((0, 4), (2, 5))
    assert d.volume({"N": 5, "k": 1}) == 12
    assert d.volume({"N": 2, "k": 3}) == 0  # empty in dim 1
    assert d.is_empty() is None
    assert Domain.of([(0, "N"), (3, 3)]).is_empty() is True
    assert Domain.of([("N", affine_from_text("N + 2"))]).is_empty() is False
    assert Domain.from_shape([4, "N"]) == Domain.of([(0, 4), (0, "N")])
    with pytest.raises(LatticeError):
        d.evaluate({"N": 3})
    with pytest.raises(LatticeError):
        Domain.of([(0, 1)]).intersect(Domain.of([(0, 1), (0, 1)]))
    with pytest.raises(LatticeError):
        Domain.of([(0, 1)]).hull(Domain.of([(0, 1), (0, 1)]))
    assert d.with_dim(0, 2, "M") == Domain.of([(2, "M"), (affine_from_text("k + 1"), "N")])


@st.composite
def symbolic_boxes(draw, rank: int):
    """Bounds of the form `c`, `N + c`, `k + c` (a few shapes that occur in programs)."""
    out = []
    for _ in range(rank):
        p = draw(st.sampled_from([Affine(0), Affine(1), Affine.of("k"), Affine.of("k") + 1, Affine(2)]))
        q = draw(st.sampled_from([Affine.of("N"), Affine.of("N") - 1, Affine.of("N") + 1, Affine(3), Affine.of("N") - 2]))
        out.append((p, q))
    return Domain(tuple(out))


@FAST
@given(st.integers(1, 3).flatmap(lambda r: st.tuples(symbolic_boxes(r), symbolic_boxes(r))), envs(["N", "k"], 0, 12))
def test_symbolic_intersect_and_hull_commute_with_evaluate(pair, env):
    a, b = pair
    ca, cb = Domain.of(a.evaluate(env)), Domain.of(b.evaluate(env))
    try:
        i = a.intersect(b)
    except LatticeError:
        pass
    else:
        assert i.evaluate(env) == ca.intersect(cb).concrete()
    try:
        h = a.hull(b)
    except LatticeError:
        pass
    else:
        assert h.evaluate(env) == ca.hull(cb).concrete()
    # substitute then evaluate == evaluate
    assert a.substitute({"N": env["N"]}).evaluate({"k": env["k"]}) == a.evaluate(env)
    assert a.substitute(env).concrete() == a.evaluate(env)
    assert a.volume(env) == len(cells(ca))
    e = a.is_empty()
    if e is not None:
        assert e is (a.volume(env) == 0)


def test_symbolic_intersect_examples():
    N = Affine.of("N")
    stencil = Domain(((Affine(1), N - 1),))
    array = Domain.from_shape(["N"])
    assert stencil.intersect(array) == stencil
    assert stencil.hull(array) == array
    assert array.contains(stencil) is True
    assert stencil.contains(array) is False
    k = Affine.of("k")
    assert Domain(((k + 1, N),)).intersect(array) == Domain(((k + 1, N),))


def test_symbolic_intersect_with_symbol_lower_bound():
    array = Domain.from_shape(["N"])
    rows = Domain.of([("k", "N")])
    assert array.intersect(rows) == rows
    assert array.hull(rows) == array


# -- attributes --------------------------------------------------------------


@FAST
@given(st.lists(st.tuples(affines(max_terms=2), affines(max_terms=2)), max_size=3))
def test_domain_attr_round_trip(bounds):
    d = Domain(tuple(bounds))
    text = f"#lattice.domain<{d}>"
    try:
        verify_domain(d)
    except VerifyException:
        with pytest.raises(VerifyException):
            parse_attr(text)
        return
    attr = parse_attr(text)
    assert isinstance(attr, DomainAttr) and attr.data == d
    assert str(attr) == text
    assert parse_attr(str(attr)) == attr


@FAST
@given(st.lists(affines(names=["d0", "d1", "d2", "k", "N"], max_terms=3), max_size=3))
def test_map_attr_round_trip(results):
    m = AccessMap(tuple(results))
    text = f"#lattice.map<{m}>"
    attr = parse_attr(text)
    assert isinstance(attr, MapAttr) and attr.data == m
    assert str(attr) == text


@st.composite
def patterns(draw, max_levels=3, allow_negative=True):
    start = draw(st.integers(0, 20))
    stride = st.integers(-4 if allow_negative else 0, 8)
    levels = draw(st.lists(st.tuples(stride, st.integers(1, 4)), min_size=1, max_size=max_levels))
    return Pattern(start, tuple(levels))


@FAST
@given(patterns())
def test_pattern_attr_round_trip(p):
    text = f"#lattice.pattern<{p}>"
    low = p.start + sum(min(0, s * (c - 1)) for s, c in p.levels)
    if low < 0:
        with pytest.raises(VerifyException, match="negative"):
            parse_attr(text)
        return
    attr = parse_attr(text)
    assert isinstance(attr, PatternAttr) and attr.data == p
    assert str(attr) == text


def test_domain_and_map_attr_examples():
    d = parse_attr("#lattice.domain<[0:N - 1, k + 1:N]>").data
    assert d == Domain(((Affine(0), Affine.of("N") - 1), (Affine.of("k") + 1, Affine.of("N"))))
    assert parse_attr("#lattice.domain<[]>").data == Domain(())
    m = parse_attr("#lattice.map<[d0 - 1, k]>").data
    assert m.results == (Affine.of("d0") - 1, Affine.of("k"))
    assert m.dims_used() == {0} and m.symbols_used() == {"k"}
    assert m.rank == 2
    assert str(parse_attr("#lattice.expr<N*2 - 0>")) == "#lattice.expr<2*N>"


@pytest.mark.parametrize(
    "text, match",
    [
        ("#lattice.pattern<1:2:0>", "count <= 0"),
        ("#lattice.pattern<1:2:-3>", "count <= 0"),
        ("#lattice.pattern<-1:1:2>", "below 0"),
        ("#lattice.pattern<2:-1:4>", "negative"),
        ("#lattice.domain<[3:1]>", "lower bound > upper bound"),
        ("#lattice.domain<[0:2, 5:4]>", "dim 1"),
    ],
)
def test_attribute_verifiers(text, match):
    with pytest.raises(VerifyException, match=match):
        parse_attr(text)


def test_verify_rules_direct():
    verify_pattern(Pattern(0, ((1, 1),)))
    verify_pattern(Pattern(3, ((-1, 4),)))  # reaches exactly 0
    with pytest.raises(VerifyException):
        verify_pattern(Pattern(3, ((-1, 5),)))
    with pytest.raises(VerifyException):
        verify_pattern(Pattern(0, ()))
    with pytest.raises(VerifyException):
        verify_pattern(Pattern(0, ((1, 2), (4, 0))))
    verify_domain(Domain.of([(2, 2)]))  # empty is legal
    verify_domain(Domain.of([("N", 0)]))  # symbolic: cannot be judged
    with pytest.raises(VerifyException):
        verify_domain(Domain.of([(0, 1), (2, 1)]))


def test_pattern_parse_errors():
    from xdsl.utils.exceptions import ParseError

    for text in ("#lattice.pattern<1>", "#lattice.pattern<1:2>", "#lattice.pattern<a:1:2>"):
        with pytest.raises(ParseError):
            parse_attr(text)


# ---------------------------------------------------------------------------
# Patterns
# ---------------------------------------------------------------------------


def slow_expand(p: Pattern) -> list[int]:
    counts = [c for _, c in p.levels]
    out = []
    for i in range(math.prod(counts)):
        v = p.start
        for k, (stride, count) in enumerate(p.levels):
            v += stride * ((i // math.prod(counts[:k])) % count)
        out.append(v)
    return out


@FAST
@given(patterns(max_levels=4))
def test_expand_matches_formula(p):
    e = p.expand()
    assert e.dtype == np.int64
    assert e.tolist() == slow_expand(p)
    assert len(e) == p.size


def test_expand_examples():
    assert Pattern(1, ((2, 2),)).expand().tolist() == [1, 3]
    assert Pattern(0, ((1, 2), (10, 3))).expand().tolist() == [0, 1, 10, 11, 20, 21]
    assert Pattern(5, ((-2, 3),)).expand().tolist() == [5, 3, 1]
    assert Pattern.range(3, 7).expand().tolist() == [3, 4, 5, 6]
    assert Pattern(4, ((0, 3),)).expand().tolist() == [4, 4, 4]


@FAST
@given(patterns(max_levels=4))
def test_normalized_preserves_sequence(p):
    n = p.normalized()
    assert n.expand().tolist() == p.expand().tolist()
    assert n.start == p.start
    assert all(c != 1 for _, c in n.levels) or n.levels == ((1, 1),)
    # no two neighbouring levels continue each other any more
    for (s0, c0), (s1, _) in zip(n.levels, n.levels[1:]):
        assert s0 * c0 != s1
    assert n.normalized() == n


def test_normalized_examples():
    assert Pattern(0, ((1, 4), (4, 3))).normalized() == Pattern(0, ((1, 12),))
    assert Pattern(2, ((5, 1), (1, 1))).normalized() == Pattern(2, ((1, 1),))
    assert Pattern(0, ((1, 2), (8, 2))).normalized() == Pattern(0, ((1, 2), (8, 2)))


@st.composite
def boxes_in_shape(draw):
    rank = draw(st.integers(1, 3))
    shape = draw(st.lists(st.integers(1, 6), min_size=rank, max_size=rank))
    start, stop = [], []
    for n in shape:
        a = draw(st.integers(0, n))
        b = draw(st.integers(a, n))
        start.append(a)
        stop.append(b)
    return start, stop, shape


@FAST
@given(boxes_in_shape())
def test_box_is_row_major_linear_indices(args):
    start, stop, shape = args
    p = Pattern.box(start, stop, shape)
    grid = np.indices([b - a for a, b in zip(start, stop)]).reshape(len(shape), -1)
    coords = tuple(g + a for g, a in zip(grid, start))
    expected = np.ravel_multi_index(coords, shape) if grid.shape[1] else np.zeros(0, np.int64)
    assert p.expand().tolist() == expected.tolist()
    assert p.size == math.prod(b - a for a, b in zip(start, stop))
    assert p == p.normalized()


def test_box_examples():
    assert str(Pattern.box([0, 0], [4, 4], [4, 4])) == "0:1:16"
    assert str(Pattern.box([1, 0], [3, 4], [4, 4])) == "4:1:8"
    assert str(Pattern.box([0, 1], [4, 2], [4, 4])) == "1:4:4"
    assert str(Pattern.box([1, 1], [3, 3], [4, 4])) == "5:1:2:4:2"


def test_fig9_patterns():
    """ASPLOS'23 Fig. 9: a 4x4 array in 2x2 tiles (tiles and bitlines row-major)."""
    i, j = np.indices((4, 4))
    tile = (i // 2) * 2 + (j // 2)
    bitline = (i % 2) * 2 + (j % 2)
    # column 1 of each tile
    col1 = np.unique(bitline[j % 2 == 1])
    assert col1.tolist() == [1, 3]
    p = parse_attr("#lattice.pattern<1:2:2>").data
    assert p.expand().tolist() == col1.tolist()
    assert Pattern.from_indices(col1) == p
    assert Pattern.box([0, 1], [2, 2], [2, 2]) == p
    # tiles holding array columns 0..1 (the first tile column)
    tiles = np.unique(tile[:, :2])
    assert tiles.tolist() == [0, 2]
    q = parse_attr("#lattice.pattern<0:2:2>").data
    assert q.expand().tolist() == tiles.tolist()
    assert Pattern.from_indices(tiles) == q
    assert Pattern.box([0, 0], [2, 1], [2, 2]) == q
    assert q.mask(4).tolist() == [True, False, True, False]


@FAST
@given(st.integers(0, 30), st.integers(1, 7), st.integers(1, 10))
def test_from_indices_round_trip(start, stride, count):
    p = Pattern(start, ((stride, count),))
    rng = np.random.default_rng(start * 100 + count)
    shuffled = rng.permutation(p.expand())
    q = Pattern.from_indices(shuffled)
    assert q is not None
    assert q.expand().tolist() == p.expand().tolist()
    if count > 1:
        assert q == p
    # duplicates do not matter
    assert Pattern.from_indices(np.concatenate([shuffled, shuffled])) == q


def test_from_indices_rejects_non_progressions():
    assert Pattern.from_indices(np.array([], dtype=np.int64)) is None
    assert Pattern.from_indices([0, 1, 3]) is None
    assert Pattern.from_indices([7]) == Pattern(7, ((1, 1),))
    assert Pattern.from_indices([9, 3, 6]) == Pattern(3, ((3, 3),))


@FAST
@given(patterns(max_levels=3), st.integers(-10, 40), st.integers(-10, 40))
def test_intersect_range_is_set_intersection(p, lo, hi):
    got = p.intersect_range(lo, hi)
    expected = sorted({int(v) for v in slow_expand(p) if lo <= v < hi})
    assert got.tolist() == expected


@FAST
@given(patterns(max_levels=3, allow_negative=False), st.integers(0, 10))
def test_mask(p, extra):
    idx = slow_expand(p)
    n = max(idx) + 1 + extra
    m = p.mask(n)
    assert m.dtype == np.bool_ and m.shape == (n,)
    assert np.flatnonzero(m).tolist() == sorted(set(idx))
    if max(idx) > 0:
        with pytest.raises(LatticeError):
            p.mask(max(idx))


def test_mask_rejects_negative_indices():
    with pytest.raises(LatticeError):
        Pattern(1, ((-1, 3),)).mask(10)
