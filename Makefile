# Two commands matter: `make run` and `make test`. Both create the virtual
# environment on first use (and again whenever pyproject.toml changes).
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# axe-core, which the accessibility browser tests inject into the pages (package.json);
# the app itself needs no JavaScript packages. Without npm those tests are skipped.
NODE_STAMP := node_modules/.installed

.PHONY: run run-scaled test typecheck bench compile clean-compiled clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

$(NODE_STAMP): package.json package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
	  npm ci --no-audit --no-fund && touch $(NODE_STAMP); \
	else \
	  echo "npm not found: the accessibility tests (axe-core) will be skipped"; \
	fi

# `make run` listens on this computer only; `make run HOST=0.0.0.0` lets friends on your
# network join (the start-up lines print the address to share).
run: $(STAMP)
	$(if $(HOST),DEMON_HOST=$(HOST) )$(PY) -m app

# `make run-scaled N=3`: N server processes behind HAProxy, one address (port 8000); see
# "Several processes" in docs/self-hosting.md. Needs haproxy (apt-get install haproxy).
run-scaled: $(STAMP)
	$(PY) docker/cluster.py --processes $(or $(N),2)$(if $(HOST), --host $(HOST))

# mypy --strict over app/ (settings in pyproject.toml): a type error fails the build.
typecheck: $(STAMP)
	$(PY) -m mypy

test: $(STAMP) $(NODE_STAMP) typecheck
	$(PY) -m pytest

bench: $(STAMP)
	$(PY) bench/engine.py

# Demon's rules and the room's move path as C extensions built by mypyc (in place, next
# to their sources; Python prefers them). Needs a C compiler and mypy (the test extras);
# without them it says so and the app stays pure Python. app/support/native.py says
# which modules and why; `python -m app.support.native status` which variant runs.
compile: $(STAMP)
	$(PY) -m app.support.native build

# Back to pure Python: delete the compiled modules only.
clean-compiled:
	$(PY) -m app.support.native clean

clean:
	rm -rf $(VENV) node_modules .pytest_cache .hypothesis build
	find app -name '*.so' -delete
