# Maintainer shortcuts; CI runs the same steps through .ci/run.
PYTHON ?= python

.PHONY: lint types test docs docs-check bench check

lint:
	$(PYTHON) -m ruff check .

types:
	$(PYTHON) -m mypy

test:
	$(PYTHON) -m pytest

docs:
	$(PYTHON) scripts/gen_docs.py

docs-check:
	$(PYTHON) scripts/gen_docs.py --check

# Figures go to benchmarks/README.md by hand; each script prints its own table.
bench:
	$(PYTHON) benchmarks/speed.py
	$(PYTHON) benchmarks/poisoning.py
	$(PYTHON) benchmarks/recall_latency.py

check: lint types docs-check test
