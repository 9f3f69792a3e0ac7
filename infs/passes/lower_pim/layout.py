"""The data layout of a tDFG: what ``choose-layout`` attaches and the lowering reads (ASPLOS §4.1).

``Layout`` is the lattice's bounding box, the tile shape shared by all arrays
of the graph and the shape of every array laid out in memory (the paper's
LOT, Table 1, before wordlines are allocated); ``layout_attr`` writes it as
the graph's ``infs.layout`` attribute and ``read_layout`` reads it back (a
malformed one is a ``LayoutError``: the attribute can come from a file).
Both ``choose-layout`` (which converts a graph to rank its tilings) and
``tdfg-to-pimcmd`` (which lowers it) use these, so they live below both.
No pass here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from typing import TYPE_CHECKING

from infs.dialects.pimcmd_schema import TiledLattice
from infs.hardware import HardwareConfig

if TYPE_CHECKING:
    from xdsl.dialects.builtin import DictionaryAttr

    from infs.dialects import tdfg


class LayoutError(ValueError):
    """No valid layout: the graph does not fit, or the tiling constraints cannot be met."""


@dataclass(frozen=True)
class Layout(TiledLattice):
    lattice: tuple[int, ...]
    tiles: tuple[int, ...]
    shapes: dict[int, tuple[int, ...]]  # graph array index -> shape
    # the arrays accessed only near memory, where their shape is known (given or static)
    other_shapes: dict[int, tuple[int, ...]] = field(default_factory=dict)


def other_shapes(static, laid_out: dict[int, tuple[int, ...]], given: dict[int, tuple[int, ...]] | None) -> dict[int, tuple[int, ...]]:
    """Shapes of the arrays not laid out, given or static (``static``: each
    array's memref shape, -1 for a dynamic dim, ``None`` for a non-memref)."""
    out = {}
    for i, shape in enumerate(static):
        if i in laid_out:
            continue
        if given and i in given:
            out[i] = tuple(given[i])
        elif shape is not None and all(s >= 0 for s in shape):
            out[i] = tuple(shape)
    return out


def layout_attr(layout: Layout, cfg: HardwareConfig, num_arrays: int) -> "DictionaryAttr":
    """The ``infs.layout`` attribute of ``layout`` (the IR side: imports xDSL when called)."""
    from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, DictionaryAttr, StringAttr, i64

    shapes = [DenseArrayBase.from_list(i64, list(layout.shapes.get(i, ()))) for i in range(num_arrays)]
    return DictionaryAttr({
        # the machine's full description unless a built-in (config_spec): the
        # next pass reloads it from here, so a file's config needs no file
        "config": StringAttr(cfg.spec),
        "lattice": DenseArrayBase.from_list(i64, list(layout.lattice)),
        "tiles": DenseArrayBase.from_list(i64, list(layout.tiles)),
        "laid_out": DenseArrayBase.from_list(i64, sorted(layout.shapes)),
        "shapes": ArrayAttr(shapes),
    })  # fmt: skip


def read_layout(graph: "tdfg.GraphOp") -> tuple[str, Layout]:
    """The ``infs.layout`` choose-layout attached (a malformed one is a ``LayoutError``:
    the attribute can come from a file)."""
    from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, DictionaryAttr, IntegerType, MemRefType, StringAttr
    from xdsl.ir import Attribute

    attr = graph.attributes.get("infs.layout")
    if not isinstance(attr, DictionaryAttr):
        raise LayoutError("it has no layout (infs.layout): run choose-layout first")
    d = attr.data

    def bad(what: str) -> LayoutError:
        return LayoutError(f"malformed infs.layout: {what}")

    def ints(v: Attribute | None, key: str) -> tuple[int, ...]:
        if not isinstance(v, DenseArrayBase) or not isinstance(v.elt_type, IntegerType):
            raise bad(f"'{key}' must be an array<i64: ...>")
        return tuple(int(x) for x in v.get_values())

    shapes_attr, cfg = d.get("shapes"), d.get("config")
    if not isinstance(shapes_attr, ArrayAttr):
        raise bad("'shapes' must be a list of array<i64: ...>")
    if not isinstance(cfg, StringAttr):
        raise bad("'config' must be a string")
    laid = ints(d.get("laid_out"), "laid_out")
    if any(not 0 <= i < len(shapes_attr.data) for i in laid):
        raise bad(f"'laid_out' {list(laid)} names arrays beyond the {len(shapes_attr.data)} of 'shapes'")
    shapes = {i: ints(shapes_attr.data[i], f"shapes[{i}]") for i in laid}
    lattice, tiles = ints(d.get("lattice"), "lattice"), ints(d.get("tiles"), "tiles")
    if len(tiles) != len(lattice) or any(t <= 0 for t in tiles):
        raise bad(f"'tiles' {list(tiles)} does not fit the lattice {list(lattice)}")
    static = [tuple(a.type.get_shape()) if isinstance(a.type, MemRefType) else None for a in graph.array_args]
    return cfg.data, Layout(lattice, tiles, shapes, other_shapes(static, shapes, None))
