# Two commands matter: `make run` and `make test`. Both create the virtual
# environment on first use (and again whenever pyproject.toml changes).
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
# Two stamps: `make run` installs only what the server needs (requirements.lock); the
# checks and tests add their tools (requirements-dev.lock) the first time they run.
APP_STAMP := $(VENV)/.installed-app
STAMP := $(VENV)/.installed-dev
# TypeScript (`tsc --checkJs` over static/) and axe-core, which the accessibility browser
# tests inject into the pages (package.json); the app itself needs no JavaScript packages.
NODE_STAMP := node_modules/.installed

.PHONY: run run-scaled test typecheck lint format lock bench compile clean-compiled clean

# The versions come from the lock files (hashes checked), so every checkout runs and
# tests what CI tested. The server runs from the checkout (`python -m app` from its root),
# so `make run` installs no package of its own: setuptools' editable install would only
# add a warning a newcomer cannot act on. The checks and tests install the app editable
# (mypy and the benches' imports see it), quietly.
$(APP_STAMP): pyproject.toml requirements.lock
	@test -x $(PY) || { echo "First start: installing the server's Python packages into $(VENV) (once)..."; $(PYTHON) -m venv $(VENV); }
	@$(PY) -m pip install --quiet --disable-pip-version-check --require-hashes -r requirements.lock
	@touch $(APP_STAMP)

$(STAMP): $(APP_STAMP) requirements-dev.lock
	@echo "Installing the test tools into $(VENV) (once)..."
	@$(PY) -m pip install --quiet --disable-pip-version-check --require-hashes -r requirements-dev.lock
	@$(PY) -m pip install --quiet --disable-pip-version-check --no-deps -e . 2>/dev/null \
	  || $(PY) -m pip install --quiet --disable-pip-version-check --no-deps -e .
	@touch $(STAMP)

$(NODE_STAMP): package.json package-lock.json
	@command -v npm >/dev/null 2>&1 || { echo "npm not found: make test needs Node and npm (tsc, the node tests); see CONTRIBUTING.md"; exit 1; }
	npm ci --no-audit --no-fund
	touch $(NODE_STAMP)

# `make run` listens on this computer only; `make run HOST=0.0.0.0` lets friends on your
# network join (the start-up lines print the address to share); `PORT=8080` when port
# 8000 is taken.
run: $(APP_STAMP)
	@$(if $(HOST),DEMON_HOST=$(HOST) )$(if $(PORT),DEMON_PORT=$(PORT) )$(PY) -m app

# `make run-scaled N=3`: N server processes behind HAProxy, one address (port 8000); see
# "Several processes" in docs/self-hosting.md. Needs haproxy (apt-get install haproxy).
run-scaled: $(APP_STAMP)
	$(PY) docker/cluster.py --processes $(or $(N),2)$(if $(HOST), --host $(HOST))

# Both languages' types: mypy --strict over app/, and at mypy's default level over tests/
# and bench/ (settings in pyproject.toml), and tsc --checkJs over static/ (tsconfig.json:
# JSDoc types, no build step).
typecheck: $(STAMP) $(NODE_STAMP)
	$(PY) -m mypy
	npx --no-install tsc -p .

# ruff's linter and its formatter (settings in pyproject.toml); `make format` rewrites.
lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

format: $(STAMP)
	$(PY) -m ruff check --fix .
	$(PY) -m ruff format .

# Refresh the lock files from pyproject.toml: the newest versions its bounds allow, with
# hashes. requirements.lock is what the Docker image installs; requirements-dev.lock adds
# the test extras and is what `make test` installs. Commit both.
lock: $(STAMP)
	$(PY) -m uv pip compile pyproject.toml --quiet --python-version 3.11 --generate-hashes \
	  --custom-compile-command "make lock" -o requirements.lock
	$(PY) -m uv pip compile pyproject.toml --quiet --python-version 3.11 --generate-hashes --extra test \
	  --custom-compile-command "make lock" -o requirements-dev.lock

# The checks first (cheap, and they name the line), then every test. PYTEST_ARGS narrows
# the run, e.g. `make test PYTEST_ARGS="-m 'not browser'"`.
test: $(STAMP) $(NODE_STAMP) typecheck lint
	$(PY) -m pytest $(PYTEST_ARGS)

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
