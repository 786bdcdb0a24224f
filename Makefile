# Two commands matter: `make run` and `make test`. Both create the virtual
# environment on first use (and again whenever pyproject.toml changes).
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m app

test: $(STAMP)
	$(PY) -m pytest

bench: $(STAMP)
	$(PY) bench/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
