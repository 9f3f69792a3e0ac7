"""The import graph of ``infs/``: no circle, and every import goes down a floor.

Every module's imports are read with ``ast`` -- at module level and inside
functions, methods and ``if TYPE_CHECKING:`` blocks alike (a function-level
import is a dependency too, only a later one), absolute and relative
(``from . import x``, ``from ..runtime import host``) -- and two things are
checked:

* no circle between modules (module A imports B, ..., which imports A);
* the floors (docs/architecture.md, "Layering"): each module belongs to one
  part, each part to one floor, and an import from one part to another goes
  to a lower floor -- never up, never sideways to a sibling part on the
  same floor (``passes`` and ``sim`` know nothing of each other).  A circle
  between floors is then impossible; it is checked on its own all the same.

What is not seen: ``importlib.import_module`` with a computed name (the lazy
``infs.dialects`` package face), and the package ``__init__`` that Python runs
on the way to a submodule (only an import that names the package counts).
"""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pytest

INFS = Path(__file__).resolve().parents[1] / "infs"

# The floors of infs, top first (docs/architecture.md).  A floor is a tuple of
# parts; a part is a module or a package (every module under it).
FLOORS: tuple[tuple[str, ...], ...] = (
    ("infs.tools",),  # the console scripts; nothing imports them
    ("infs",),  # the package face: version_text, infs.kernel (loaded lazily)
    ("infs.frontend",),  # @infs.kernel: Python loops -> plain-loop MLIR, run through the API
    ("infs.api", "infs.universe"),  # the scripting API; infs as an xDSL plugin
    ("infs.frontend.onnx_import",),  # ONNX in: a model -> linalg MLIR text (api.import_onnx); imports nothing of infs
    ("infs.runtime",),  # the JIT, the driver, the oracles, the host interpreter
    ("infs.passes", "infs.sim"),  # the compiler; the simulated machine (siblings)
    ("infs.dialects",),  # stream, tdfg, pimcmd, lattice; parsing and verifying programs
    ("infs.hardware",),  # configurations, cost profiles, energy constants (data), the DRAM-PIM part, the crossbar part (STREAM)
    ("infs.element_types", "infs.jit_models", "infs.cost_formulas", "infs.noc", "infs.workloads"),  # the ground: tables, formulas, the mesh
    ("infs.arith_semantics", "infs.unique_ints"),  # numpy helpers: arith ops' semantics (the bundle host's too), integer sets
)


@dataclass(frozen=True)
class Edge:
    src: str  # importing module
    dst: str  # imported module
    line: int

    def __str__(self) -> str:
        return f"{self.src}:{self.line} imports {self.dst}"


def modules_of(root: Path, package: str) -> dict[str, tuple[Path, bool]]:
    """Every module under ``root`` (the directory of ``package``): dotted name -> (file, is a package face)."""
    mods: dict[str, tuple[Path, bool]] = {}
    for p in sorted(root.rglob("*.py")):
        parts = [package, *p.relative_to(root).with_suffix("").parts]
        face = parts[-1] == "__init__"
        mods[".".join(parts[:-1] if face else parts)] = (p, face)
    return mods


def _target(name: str, mods: dict) -> str | None:
    """The module ``name`` loads: itself, or the nearest enclosing module of ours."""
    while name not in mods and "." in name:
        name = name.rsplit(".", 1)[0]
    return name if name in mods else None


def imports_of(root: Path, package: str) -> tuple[dict[str, tuple[Path, bool]], list[Edge]]:
    """The modules of ``package`` and every import between two of them."""
    mods = modules_of(root, package)
    edges: list[Edge] = []
    for mod, (path, face) in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        here = mod.split(".") if face else mod.split(".")[:-1]  # the package relative imports start from
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here[: len(here) - (node.level - 1)] if node.level - 1 <= len(here) else []
                    prefix = ".".join(base + ([node.module] if node.module else []))
                else:
                    prefix = node.module or ""
                # `from pkg import sub` loads the submodule pkg.sub; `from mod import name`, mod
                names = [f"{prefix}.{a.name}" if f"{prefix}.{a.name}" in mods else prefix for a in node.names]
            for n in names:
                t = _target(n, mods) if n == package or n.startswith(package + ".") else None
                if t is not None and t != mod:
                    edges.append(Edge(mod, t, node.lineno))
    return mods, list(dict.fromkeys(edges))  # one edge per statement and module


def circles(nodes: Iterable[str], edges: Iterable[tuple[str, str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan, iterative)."""
    succ: dict[str, list[str]] = {n: [] for n in nodes}
    for a, b in edges:
        succ.setdefault(a, []).append(b)
        succ.setdefault(b, [])
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    for start in sorted(succ):
        if start in index:
            continue
        work = [(start, iter(succ[start]))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        x = stack.pop()
                        on.discard(x)
                        comp.append(x)
                        if x == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
            elif w not in index:
                index[w] = low[w] = counter
                counter += 1
                stack.append(w)
                on.add(w)
                work.append((w, iter(succ[w])))
            elif w in on:
                low[v] = min(low[v], index[w])
    return out


def part_of(module: str, floors: tuple[tuple[str, ...], ...]) -> tuple[str, int] | None:
    """(part, floor number, 0 = top) of ``module``: the longest part that holds it.
    The top package's part (``infs``) is its ``__init__`` alone: a new module of its
    own must be placed."""
    best = None
    for level, parts in enumerate(floors):
        for part in parts:
            holds = module == part or ("." in part and module.startswith(part + "."))
            if holds and (best is None or len(part) > len(best[0])):
                best = (part, level)
    return best


def layering_faults(root: Path, package: str, floors: tuple[tuple[str, ...], ...]) -> list[str]:
    """Every fault of ``package``'s import graph against ``floors``, one line each."""
    mods, edges = imports_of(root, package)
    faults: list[str] = []
    for comp in circles(mods, ((e.src, e.dst) for e in edges)):
        ties = "; ".join(str(e) for e in edges if e.src in comp and e.dst in comp)
        faults.append(f"circle between modules {', '.join(comp)}: {ties}")
    placed = {}
    for m in mods:
        p = part_of(m, floors)
        if p is None:
            faults.append(f"{m} is on no floor: place it in FLOORS (and docs/architecture.md)")
        else:
            placed[m] = p
    part_edges = set()
    for e in edges:
        if e.src not in placed or e.dst not in placed:
            continue
        (sp, sf), (dp, df) = placed[e.src], placed[e.dst]
        if sp == dp:
            continue
        part_edges.add((sp, dp))
        if df < sf:
            faults.append(f"upward import: {e} ({sp}, floor {len(floors) - sf}, imports {dp}, floor {len(floors) - df})")
        elif df == sf:
            faults.append(f"sideways import between sibling parts: {e} ({sp} and {dp} share floor {len(floors) - sf})")
    for comp in circles({p for p, _ in placed.values()}, part_edges):
        faults.append(f"circle between parts {', '.join(comp)}")
    return faults


def test_infs_has_no_circle_and_no_upward_import():
    faults = layering_faults(INFS, "infs", FLOORS)
    assert faults == [], "\n".join(faults)


def test_every_floor_part_exists():
    mods = modules_of(INFS, "infs")
    for parts in FLOORS:
        for part in parts:
            assert part in mods, f"{part} is in FLOORS but is no module of infs"


# ---------------------------------------------------------------------------
# The checker itself, on a synthetic package with planted bad imports
# ---------------------------------------------------------------------------

_TOY_FLOORS = (("toy.tools",), ("toy",), ("toy.runtime",), ("toy.passes", "toy.sim"), ("toy.dialects",))


def _toy(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "toy"
    base = {
        "__init__.py": "",
        "tools/__init__.py": "",
        "tools/run.py": "from toy.runtime import driver\n",
        "runtime/__init__.py": "",
        "runtime/driver.py": "from ..passes import lower\nfrom toy.sim import machine\n",
        "passes/__init__.py": "",
        "passes/lower.py": "from toy.dialects.ir import Op\n",
        "sim/__init__.py": "",
        "sim/machine.py": "from toy.dialects import ir\n",
        "dialects/__init__.py": "",
        "dialects/ir.py": "class Op:\n    pass\n",
    }
    for name, text in {**base, **files}.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text))
    return root


def test_a_clean_toy_package_has_no_fault(tmp_path):
    assert layering_faults(_toy(tmp_path, {}), "toy", _TOY_FLOORS) == []


def test_a_function_level_upward_import_is_found(tmp_path):
    # the kind the checker exists for: hidden in a function, relative, one floor up
    root = _toy(tmp_path, {"dialects/ir.py": "class Op:\n    def run(self):\n        from ..runtime import driver\n        return driver\n"})
    faults = layering_faults(root, "toy", _TOY_FLOORS)
    assert any(f.startswith("upward import: toy.dialects.ir:3 imports toy.runtime.driver") for f in faults), faults
    assert any(f.startswith("circle between parts") for f in faults), faults


def test_a_circle_inside_one_part_is_found(tmp_path):
    root = _toy(tmp_path, {"passes/a.py": "from . import b\n", "passes/b.py": "def f():\n    from toy.passes.a import g\n"})
    faults = layering_faults(root, "toy", _TOY_FLOORS)
    assert faults == ["circle between modules toy.passes.a, toy.passes.b: toy.passes.a:1 imports toy.passes.b; toy.passes.b:2 imports toy.passes.a"]


def test_a_sideways_import_between_siblings_is_found(tmp_path):
    root = _toy(tmp_path, {"sim/machine.py": "import toy.passes.lower as lower\n"})
    assert layering_faults(root, "toy", _TOY_FLOORS) == [
        "sideways import between sibling parts: toy.sim.machine:1 imports toy.passes.lower (toy.sim and toy.passes share floor 2)"
    ]


def test_an_import_of_tools_from_below_is_found(tmp_path):
    root = _toy(tmp_path, {"runtime/driver.py": "from ..passes import lower\n\n\ndef main():\n    from toy.tools.run import x\n"})
    faults = layering_faults(root, "toy", _TOY_FLOORS)
    assert "upward import: toy.runtime.driver:5 imports toy.tools.run (toy.runtime, floor 3, imports toy.tools, floor 5)" in faults
    assert any("circle between modules toy.runtime.driver, toy.tools.run" in f for f in faults), faults


def test_a_module_on_no_floor_is_found(tmp_path):
    root = _toy(tmp_path, {"extra.py": "x = 1\n"})
    assert layering_faults(root, "toy", _TOY_FLOORS) == ["toy.extra is on no floor: place it in FLOORS (and docs/architecture.md)"]


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("from toy.dialects import ir\n", "toy.dialects.ir"),
        ("from toy.dialects.ir import Op\n", "toy.dialects.ir"),
        ("import toy.dialects.ir\n", "toy.dialects.ir"),
        ("from ..dialects import ir\n", "toy.dialects.ir"),
        ("from ..dialects.ir import Op\n", "toy.dialects.ir"),
        ("from . import lower\n", "toy.passes.lower"),
        ("from .lower import f\n", "toy.passes.lower"),
        ("from toy import dialects\n", "toy.dialects"),
        ("if True:\n    def f():\n        class C:\n            def g(self):\n                from toy.sim import machine\n", "toy.sim.machine"),
    ],
)
def test_every_import_form_is_read(tmp_path, text, target):
    root = _toy(tmp_path, {"passes/other.py": text})
    _, edges = imports_of(root, "toy")
    assert target in {e.dst for e in edges if e.src == "toy.passes.other"}
