# Maintainer shortcuts; CI runs the same steps through .ci/run.
PYTHON ?= python

.PHONY: lint types test test-fast docs docs-check bench check

# The gates before the tests: lint, types, and generated docs that match the code.
lint:
	$(PYTHON) -m ruff check .
	$(PYTHON) -m mypy
	$(PYTHON) scripts/gen_docs.py --check

types:
	$(PYTHON) -m mypy

# The README's test command (pyproject's addopts run it on every core with pytest-xdist).
test:
	$(PYTHON) -m pytest

# Everything but the tests that must start real processes (the `e2e` marker).
test-fast:
	$(PYTHON) -m pytest -m "not e2e"

docs:
	$(PYTHON) scripts/gen_docs.py

docs-check:
	$(PYTHON) scripts/gen_docs.py --check

# Figures go to benchmarks/README.md by hand; each script prints its own table.
bench:
	$(PYTHON) benchmarks/speed.py
	$(PYTHON) benchmarks/poisoning.py
	$(PYTHON) benchmarks/recall_latency.py

check: lint test
