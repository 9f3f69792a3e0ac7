# Two commands: `make run` (set up + main demo) and `make test` (set up + every test).
PYTHON ?= python3
TEST_JOBS ?= 2
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run test setup pytest lit bench clean fuzz browser abc test-distributed test-upstream

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]"
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(PY) -m infs.tools.demo

# pytest runs the unit/property tests and, through test/test_lit.py, the lit suite;
# its closing line is the summary CI reads.  TEST_JOBS pytest-xdist workers (one per
# core of a 2-core machine), each test file on one worker (--dist loadfile: a file's
# module-scoped fixtures and caches are built once; the files in the order test/conftest.py
# gives, the lit suite first); TEST_JOBS=0 runs in one process.  infs's bytecode is written
# first: with PYTHONDONTWRITEBYTECODE set, every tool the tests start (lit's infs-opt, the
# documentation's commands, the CLI tests) would compile the package again (a file that does
# not compile is left to the tests to report).
# The browser tests of infs-view need Chromium, the crossbar target's synthesis ABC (Debian's
# berkeley-abc): installed here when missing (as root, from the distribution); if that fails
# their tests skip and say why.
test: $(STAMP)
	-@command -v chromium >/dev/null 2>&1 || [ "$$(id -u)" != 0 ] || ! command -v apt-get >/dev/null || \
	{ apt-get update -qq && apt-get install -y -qq chromium >/dev/null; }
	-@command -v berkeley-abc >/dev/null 2>&1 || [ "$$(id -u)" != 0 ] || ! command -v apt-get >/dev/null || \
	{ apt-get update -qq && apt-get install -y -qq berkeley-abc >/dev/null; }
	-@$(PY) -m compileall -q infs >/dev/null
	$(PY) -m pytest $(if $(filter-out 0,$(TEST_JOBS)),-n $(TEST_JOBS) --dist loadfile --no-loadscope-reorder)

# infs-sweep's kill tests (test/test_sweep.py): a sweep killed (SIGKILL, SIGINT) or one of its
# Dask workers killed mid-sweep, then resumed; 20-40 s each, so not in `make test`. CI runs both.
test-distributed: $(STAMP)
	INFS_TEST_DISTRIBUTED=1 $(PY) -m pytest test/test_sweep.py -k "killed"

# The upstream-MLIR check alone (docs/upstream-mlir.md): installs the [mlir] extra
# (iree-base-compiler, ~530 MB) into the venv, then runs its tests with CI=true (no skips)
# and every corpus file through the full pipeline in both modes (INFS_CORPUS=all; `make
# test` runs a sample of them). CI runs it.
test-upstream: $(STAMP)
	$(PY) -m pip install --quiet -e ".[mlir]"
	CI=true INFS_CORPUS=all $(PY) -m pytest test/test_upstream_mlir.py test/test_upstream_syntax.py test/test_corpus.py test/test_affine_ssa_ids.py

lit: $(STAMP)
	$(VENV)/bin/lit -v test/lit

# Bug hunt (not part of `make test`): the differential properties (fresh hypothesis
# seeds) and the CLI fuzzer, one process each, for FUZZ_MINUTES; failing cases are
# written to fuzz-out/; closes with `fuzz: N cases, M mismatches, K internal errors`.
FUZZ_MINUTES ?= 10
fuzz: $(STAMP)
	$(PY) test/fuzz/run_fuzz.py --minutes $(FUZZ_MINUTES) --out fuzz-out

# Headless Chromium for the infs-view page tests (test/test_infs_view.py; they
# skip without it): the distribution's package, as root or through sudo.
browser:
	@command -v chromium >/dev/null 2>&1 && echo "chromium: $$(command -v chromium)" || \
	{ SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); $$SUDO apt-get update && $$SUDO apt-get install -y chromium; }

# ABC for the crossbar target's synthesis (infs/passes/xbar; its tests skip without it):
# the distribution's berkeley-abc package, as root or through sudo.
abc:
	@command -v berkeley-abc >/dev/null 2>&1 && echo "berkeley-abc: $$(command -v berkeley-abc)" || \
	{ SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); $$SUDO apt-get update && $$SUDO apt-get install -y berkeley-abc; }

# Every benchmark of benchmarks/README.md, one after the other (about 40 minutes on 2 idle cores;
# the functional suite, three runs of every workload with data, is 15 of them).
# bench_process.py's PIMeval row needs PIMeval-PIMbench built outside this repository:
#   make bench PIMEVAL=/path/to/PIMeval-PIMbench PIMEVAL_REPO=/path/to/its/git/dir
# (without PIMEVAL the row is skipped with a note; benchmarks/README.md "Whole process vs PIMeval").
bench: $(STAMP)
	$(VENV)/bin/infs-bench
	$(PY) benchmarks/bench_sim.py
	$(PY) benchmarks/bench_jit.py
	$(PY) benchmarks/bench_reference.py
	$(PY) benchmarks/bench_suite.py
	$(PY) benchmarks/bench_suite.py --functional
	$(PY) benchmarks/bench_process.py $(if $(PIMEVAL),--pimeval $(PIMEVAL)) $(if $(PIMEVAL_REPO),--pimeval-repo $(PIMEVAL_REPO))

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache .hypothesis fuzz-out
	find . -name Output -type d -prune -exec rm -rf {} +
