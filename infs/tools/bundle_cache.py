"""``infs-run FILE.mlir``'s bundle cache: a second run of a program starts like a bundle.

Takes: the program file ``infs-run`` was given, and, after a ``.mlir`` run has
parsed it, its module.  Gives: the cached bundle of that file
(``bundle.executor.load_bundle``: every part checked, checksums included), or
None; and writes the bundle of a module that a bundle runs exactly as the
``.mlir`` path does.

Which programs: those whose every offload is a ``tdfg.graph`` (a program
tensorized ahead of time, ``infs-opt --tensorize``).  A ``tdfg.graph`` runs in
memory on both paths, so the bundle's run gives the ``.mlir`` run's outputs
and statistics (``test_bundle_run``, ``test_bundle_cache``).  A
``stream.region`` is not cached: the ``.mlir`` path decides it by Eq. 2
(ASPLOS §4.3) against its near-memory and core prices, which come from the
region's stream semantics, and a bundle holds none (docs/bundles.md); a
``pimcmd.program`` is not cached either (a bundle holds graphs).  The runs
that need the IR are not served from the cache: ``--check`` (its oracle is
the IR's lattice semantics), ``--view``, ``--no-optimize``, ``--no-chunks``.

The key: the file's bytes, the bundle format and the source of the
modules that write a bundle (a change to how a bundle is written is a new
key even where the version is not bumped, as in a checkout); the infs
version is checked in the entry itself (its header names the infs that
wrote it, and the loader refuses another's: such an entry is rebuilt).  No pass runs between the file and its bundle, so no pass
option is part of it.  Where: ``$XDG_CACHE_HOME/infs/bundles`` (else
``~/.cache/infs/bundles``).  An entry that does not load (truncated,
tampered, another format) is removed and written again; a cache that
cannot be written is no error (the run goes on without it).
"""

from __future__ import annotations

import argparse
import hashlib
import os
from pathlib import Path

from infs.runtime.bundle import container
from infs.runtime.bundle.errors import BundleError

# the modules whose code decides a bundle's bytes (host_form writes the host section,
# tdfg_ir_records and executor.regions_data the regions section, container the file)
_WRITERS = ("runtime/bundle/host_form.py", "runtime/bundle/host_values.py", "runtime/bundle/container.py",
            "runtime/bundle/executor.py", "dialects/tdfg_ir_records.py")  # fmt: skip
_OFFLOADS = ("stream.region", "tdfg.graph", "pimcmd.program")


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or ""
    # (the XDG base directory spec: a relative $XDG_CACHE_HOME is invalid and ignored)
    root = Path(base) if os.path.isabs(base) else Path.home() / ".cache"
    return root / "infs" / "bundles"


def serves(args: argparse.Namespace) -> bool:
    """Whether this run may come from the cache (module docstring: the runs that need the IR do not)."""
    return not (args.no_cache or args.check or args.view is not None or args.no_optimize or args.no_chunks)


def entry_path(program: Path) -> Path | None:
    """The cache entry of the program file, or None when the file cannot be read (its parse says why)."""
    try:
        h = hashlib.sha256(program.read_bytes())
    except OSError:
        return None
    # (the infs version is not read here: importlib.metadata costs 30-80 ms of every .mlir run,
    # most of which cache nothing; the entry's header holds the version that wrote it, and the
    # loader refuses another's, so an entry of another infs is rebuilt, never run)
    h.update(f"\0format {container.FORMAT_VERSION}\0".encode())
    src = Path(__file__).resolve().parent.parent
    for rel in _WRITERS:
        try:
            h.update(rel.encode() + b"\0" + (src / rel).read_bytes())
        except OSError:
            return None  # (an installation without its sources: no key that follows the code, no cache)
    return cache_dir() / f"{h.hexdigest()}.infsb"


def load(entry: Path):
    """The cached bundle, or None (absent; one that does not load is removed, to be written again)."""
    from infs.runtime.bundle.executor import load_bundle

    if not entry.is_file():
        return None
    try:
        return load_bundle(entry)
    except BundleError:
        try:
            entry.unlink()
        except OSError:
            pass
        return None


def cacheable(module) -> bool:
    """Whether a bundle runs the module as the ``.mlir`` path does: it offloads, and only tdfg.graphs."""
    kinds = {op.name for op in module.walk() if op.name in _OFFLOADS}
    return kinds == {"tdfg.graph"}


def store(entry: Path, module) -> bool:
    """Write the module's bundle as the cache entry (True), or nothing (False: not cacheable, or
    the cache cannot be written).  The entry appears whole or not at all (a rename)."""
    if not cacheable(module):
        return False
    from infs.runtime.bundle.host_form import runnable_sections

    try:
        # no program name: a bundle named as a workload takes the registry's inputs, and this
        # file is not the workload's (the .mlir path gives the registry's inputs to those files only)
        data = container.dumps(runnable_sections(module, None, None))
        entry.parent.mkdir(parents=True, exist_ok=True)
        tmp = entry.with_name(f"{entry.name}.{os.getpid()}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, entry)
    except (BundleError, OSError):
        return False
    return True
