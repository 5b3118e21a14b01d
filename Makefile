# Two commands for a newcomer: `make run` serves the app, `make test` runs every test.
# Needs only Python 3.11+ and make; everything else is installed into .venv here.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 8000
WORKERS ?= 2
# Test processes (pytest-xdist): four on two cores, since the browser tests mostly wait on
# the page and PostgreSQL; each has its own databases, live servers and chromium.
TEST_WORKERS ?= 4

.PHONY: run test coverage setup setup-dev lint bench-quick clean

$(VENV)/.run-deps: pyproject.toml
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11 or newer is needed"'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.dev-deps: $(VENV)/.run-deps
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

setup: $(VENV)/.run-deps
setup-dev: $(VENV)/.dev-deps

## run: set up, apply migrations to the SQLite database (or DATABASE_URL) and serve the app.
run: setup
	$(BIN)/flask --app api db upgrade
	@echo ""
	@echo "  Euchre scorekeeper: http://$(HOST):$(PORT)/   (API docs: http://$(HOST):$(PORT)/api/docs)"
	@echo ""
	$(BIN)/gunicorn --config gunicorn.conf.py --bind $(HOST):$(PORT) --workers $(WORKERS) 'api:create_app()'

## test: set up (including Debian's chromium for the browser tests) and run the whole suite
## (or only PYTEST_ARGS, e.g. PYTEST_ARGS='tests/api -k league'):
## the rules engine's own tests under coverage (it must keep 95% of its branches; two processes,
## which start sooner than four for its quick tests: 18 s against 22), then every
## other test without it (coverage slows in-process tests by about 60%; `make coverage` has
## the whole figure).
test: setup-dev
	scripts/ensure-chromium
ifeq ($(strip $(PYTEST_ARGS)),)
	$(BIN)/python -m pytest -q -n 2 tests/rules --cov=api/rules --cov-branch --cov-report=term --cov-fail-under=95
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist worksteal --ignore=tests/rules
else
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist worksteal $(PYTEST_ARGS)
endif
	$(BIN)/ruff check api tests scripts $(wildcard bench)

## coverage: the whole suite under branch coverage of api/ (slower; not part of `make test`).
coverage: setup-dev
	scripts/ensure-chromium
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist worksteal --cov=api --cov-branch --cov-report=term $(PYTEST_ARGS)

lint: setup-dev
	$(BIN)/ruff check api tests scripts $(wildcard bench)

clean:
	rm -rf $(VENV) .pytest_cache .coverage .hypothesis
