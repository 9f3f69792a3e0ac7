"""Start-up: what importing infs and running a small program load.

Each check runs a fresh interpreter and lists the modules it ended up with: a
module named here costs tens to hundreds of milliseconds of every process's
start, and is loaded only on the paths that need it."""

from __future__ import annotations

import ast
import subprocess
import sys

from infs.workloads import WORKLOADS


def _loaded(code: str, prefixes: tuple[str, ...]) -> list[str]:
    code = f"import sys\n{code}\nprint(sorted({{m.split('.')[0] if not m.startswith('infs') else m for m in sys.modules if m.startswith({prefixes!r})}}))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1]
    return ast.literal_eval(out)  # the list of module names the child printed


def test_import_infs_api_loads_no_numpy_no_dialect_no_metadata():
    # numpy: 0.1 s (infs.dialects.lattice needs it only to compute); the infs dialects:
    # parsing loads those it meets; importlib.metadata: infs.__version__ on first use
    got = _loaded("import infs.api", ("numpy", "importlib.metadata", "infs.dialects.tdfg", "infs.dialects.stream", "infs.dialects.pimcmd", "egglog", "numba", "llvmlite"))
    assert got == []


def test_a_run_of_vec_add_loads_no_egglog_no_xdsl_interpreters():
    # vec_add's graph is one no rule can make cheaper (optimize_tdfg._no_rule_can_improve):
    # egglog (0.2-0.6 s with black, which it imports) is not loaded; the host ops are infs's own
    code = (
        "import io, contextlib\nfrom infs.tools import infs_run\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    assert infs_run.main([{str(WORKLOADS['vec_add'].path)!r}, '--sizes', 'n=64', '--mode', 'in', '--config', 'tiny']) == 0"
    )
    # numba (0.2-0.3 s to import, bit-level mode's kernels): a word-level run does not load it
    assert _loaded(code, ("egglog", "black", "xdsl.interpreters", "rich.progress", "matplotlib", "numba", "llvmlite")) == []


def test_numba_is_loaded_by_the_first_bit_level_command_only():
    # the other side: infs.sim.sram.bitlevel is imported with the machine, its kernels on first use
    code = (
        "import numpy as np\nfrom infs.sim.sram.bitlevel import BitSerial\n"
        "import sys\nassert 'numba' not in sys.modules\n"
        "BitSerial(64).run('add', 'i32', [np.arange(64, dtype=np.uint32)] * 2)"
    )
    assert _loaded(code, ("numba", "infs.sim.sram.bit_kernels")) == ["infs.sim.sram.bit_kernels", "numba"]


def test_a_run_of_vec_add_loads_no_memref_dialect_no_metadata():
    # vec_add has no memref op: the host's memref functions are built only once parsing
    # loaded xDSL's memref dialect (15-50 ms); infs-run's context does not go through
    # xDSL's multiverse, whose entry-point scan imports importlib.metadata (30-80 ms)
    code = (
        "import io, contextlib\nfrom infs.tools import infs_run\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    assert infs_run.main([{str(WORKLOADS['vec_add'].path)!r}, '--sizes', 'n=64', '--mode', 'in', '--config', 'tiny']) == 0"
    )
    assert _loaded(code, ("xdsl.dialects.memref", "importlib.metadata", "email")) == []


def test_a_program_with_memref_ops_runs_them_on_the_host():
    # the other side: stencil1d's host loop swaps its buffers through memref ops
    code = (
        "import io, contextlib\nfrom infs.tools import infs_run\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    assert infs_run.main([{str(WORKLOADS['stencil1d'].path)!r}, '--mode', 'near', '--check']) == 0"
    )
    assert _loaded(code, ("xdsl.dialects.memref",)) == ["xdsl"]


def test_a_run_that_needs_the_e_graph_loads_egglog():
    # the other side of the shortcut: stencil1d's moves are worth optimizing
    code = (
        "import io, contextlib\nfrom infs.tools import infs_run\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    assert infs_run.main([{str(WORKLOADS['stencil1d'].path)!r}, '--mode', 'in', '--config', 'small-16', '--analysis']) == 0"
    )
    assert _loaded(code, ("egglog",)) == ["egglog"]


def _tool_loads(tool: str, flag: str, prefixes: tuple[str, ...]) -> list[str]:
    # what the console script does (``from infs.tools.X import main; main()``), output discarded
    code = (
        "import io, contextlib\n"
        f"from infs.tools.{tool} import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n"
        f"        main([{flag!r}])\n"
        "    except SystemExit as e:\n"
        "        assert e.code in (0, None), e.code\n"
    )
    return _loaded(code, prefixes)


def test_infs_run_help_and_version_load_no_xdsl_numpy_or_rich():
    # --help and --version build the parser from modules that import nothing heavy
    # (infs.tools.cli, infs.runtime.modes, infs.jit_models); the rest is imported
    # once the arguments are read.  --help also reads no installed metadata.
    heavy = ("xdsl", "numpy", "rich", "egglog", "numba", "infs.runtime.driver", "infs.hardware")
    assert _tool_loads("infs_run", "--help", (*heavy, "importlib.metadata")) == []
    assert _tool_loads("infs_run", "--version", heavy) == []


def test_infs_opt_version_loads_no_xdsl():
    # --version alone is answered before xDSL's driver is loaded (--help needs it:
    # it lists every pass with its options, read from the pass classes)
    assert _tool_loads("infs_opt", "--version", ("xdsl", "numpy", "rich", "infs.tools.opt_driver")) == []


def test_bench_and_sweep_help_load_no_xdsl():
    # their help lists the workloads from the registry, whose numpy references load numpy
    for tool in ("infs_bench", "infs_sweep"):
        assert _tool_loads(tool, "--help", ("xdsl", "rich", "egglog", "importlib.metadata")) == [], tool


def test_infs_view_help_loads_no_xdsl_numpy_or_matplotlib():
    # the page's modules (the machine, the renderer, matplotlib for --png) load with the run
    assert _tool_loads("infs_view", "--help", ("xdsl", "numpy", "matplotlib", "infs.tools.view_page", "importlib.metadata")) == []


def test_infs_run_knows_a_crossbar_file_without_importing_its_runner():
    # infs-run dispatches FILE.xbar.json/.xbar.mlir to xbar_run by name, read from its own copy of
    # the suffixes so that --help does not import xbar_run (and numpy with it)
    from infs.tools import infs_run, xbar_run

    assert infs_run.XBAR_SUFFIXES == xbar_run.SUFFIXES
