"""Test-wide settings.

Under CI (``CI`` set) hypothesis is derandomized: every property test runs a
fixed set of examples, so a submission's result does not depend on luck.
Local runs keep exploring new examples (that is how bugs get found).

The ``fuzz`` profile (``make fuzz``, or ``INFS_FUZZ=1``) is for bug hunts:
many examples, fresh random seeds, no example database; the random-input
tests read their example counts through ``strategies.examples``.

Every program the JIT produces is verified in the tests (``INFS_VERIFY=1``,
the printed-IR verifiers, once per lowering; the CLI tests' child
processes inherit it).  ``INFS_VERIFY=0`` turns it off for a timing run.

Each test has a bundle cache of its own (``XDG_CACHE_HOME`` in its temporary
directory, inherited by the processes it starts): an ``infs-run x.mlir`` of a
tensorized program caches its bundle (``infs.tools.bundle_cache``), and a test
must not be served an entry another test wrote, nor write into the user's cache.
"""

import os

import pytest
from hypothesis import settings

os.environ.setdefault("INFS_VERIFY", "1")

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("fuzz", max_examples=5000, derandomize=False, database=None, deadline=None, print_blob=True)
if os.environ.get("INFS_FUZZ"):
    settings.load_profile("fuzz")
elif os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(autouse=True)
def _own_bundle_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg-cache")))


def pytest_collection_modifyitems(session, config, items):
    """The order pytest-xdist hands the test files to its workers (``make test``:
    ``-n 2 --dist loadfile --no-loadscope-reorder``): ``test_lit.py`` first, then
    the other files by number of tests, most first, each file's tests in their
    own order.  xdist's own order (by number of tests alone) put the lit suite,
    two tests but the longest file (lit's two processes, a minute or more), last,
    and the other worker sat idle while it ran.  Only in xdist's workers: a run
    in one process keeps pytest's order."""
    if not hasattr(config, "workerinput"):
        return
    files: dict[str, list] = {}
    for item in items:
        files.setdefault(item.nodeid.split("::", 1)[0], []).append(item)
    order = sorted(files, key=lambda f: (not f.endswith("test_lit.py"), -len(files[f])))
    items[:] = [item for f in order for item in files[f]]
