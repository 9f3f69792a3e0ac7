# Two commands: `make run` (set up + main demo) and `make test` (set up + every test).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run test setup pytest lit bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]"
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(PY) -m infs.tools.demo

# pytest runs the unit/property tests and, through test/test_lit.py, the lit suite;
# its closing line is the summary CI reads.
test: $(STAMP)
	$(PY) -m pytest

lit: $(STAMP)
	$(VENV)/bin/lit -v test/lit

bench: $(STAMP)
	$(VENV)/bin/infs-bench
	$(PY) benchmarks/bench_sim.py
	$(PY) benchmarks/bench_jit.py

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache .hypothesis
	find . -name Output -type d -prune -exec rm -rf {} +
