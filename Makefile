# bidcheck — set-up, demo, tests. Every target installs what it needs on a fresh machine.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

.PHONY: demo test lint typecheck unit run clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/bidcheck demo --out demo-output

lint: $(STAMP)
	$(VENV)/bin/ruff check bidcheck tests bench
	$(VENV)/bin/ruff format --check bidcheck tests

typecheck: $(STAMP)
	$(VENV)/bin/mypy

unit: $(STAMP)
	$(PY) -m pytest

test: lint typecheck unit

clean:
	rm -rf $(VENV) demo-output .pytest_cache .ruff_cache .mypy_cache
