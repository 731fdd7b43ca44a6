# Two commands for a fresh machine (Python 3.11+, pip, Node/npm):
#   make run   — install everything, then serve the billing simulator on its embedded defaults
#   make test  — install everything, then run the whole test suite
# Both are idempotent: the virtualenv is (re)built only when a pyproject.toml or this file changes.

# Bytecode caches on, whatever the shell says: with PYTHONDONTWRITEBYTECODE set, every process
# of the suite (each xdist worker, each CLI a test starts) compiled the toolkit and pytest
# rewrote every test module again, from source, each time.
unexport PYTHONDONTWRITEBYTECODE

VENV   := .venv
PYTHON := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
# Each top-level package folder is a distribution of its own (`<folder>/pyproject.toml`, code in
# `<folder>/src/billing_toolkit/<folder>/`); the root pyproject is the meta-distribution over them.
DISTRIBUTIONS := contract webconsole client simulator conformance assistant pytest_plugin
PYRIGHT_VERSION := 1.1.414
PYRIGHT := $(VENV)/pyright/node_modules/.bin/pyright

.PHONY: install run test test-fast lint models lint-contract bench

$(STAMP): Makefile pyproject.toml $(foreach dist,$(DISTRIBUTIONS),$(dist)/pyproject.toml)
	python3 -m venv $(VENV)
	$(PYTHON) -m pip install --quiet --upgrade pip
	# The CPU build of torch first, so the embeddings extra never drags in a multi-GB CUDA build.
	$(PYTHON) -m pip install --quiet 'torch==2.13.0'
	$(PYTHON) -m pip install --quiet $(foreach dist,$(DISTRIBUTIONS),-e ./$(dist)) '.[dev,embeddings,postgres-embedded]'
	# pyright, pinned, from the npm registry into the venv (the type check runs in the suite).
	npm install --prefix $(VENV)/pyright --no-save --no-audit --no-fund --loglevel=error pyright@$(PYRIGHT_VERSION)
	touch $(STAMP)

# The agents' inbox's browser test drives Debian's chromium through Playwright (never
# `playwright install`: a browser download cannot work here). Installed as root, only if missing.
CHROMIUM := /usr/bin/chromium

$(CHROMIUM):
	@if [ "$$(id -u)" = 0 ]; then \
		apt-get update && apt-get install -y --no-install-recommends chromium; \
	else \
		echo "$(CHROMIUM) is missing: run 'sudo apt-get install chromium' (the browser test skips without it)"; \
	fi

install: $(STAMP) $(CHROMIUM)

run: install
	$(VENV)/bin/billing-sim serve

# The grounding verifier (with its record binding) and the readers it shares with the evaluation's
# judge (amounts, currencies, number words, dates, relative dates) are held to 100% branch
# coverage by their own tests alone: the first run (one process: starting workers cost more than
# its seven seconds of tests) fails below that. Coverage traces only that
# run — a tracer over the whole suite costs about a fifth of its time for modules it does not
# measure — and the second run is everything else.
COVERAGE := --cov=billing_toolkit.assistant.guards.grounding --cov=billing_toolkit.assistant.guards.record_binding --cov=billing_toolkit.assistant.guards.labelled_figures --cov=billing_toolkit.assistant.guards.labelled_dates --cov=billing_toolkit.assistant.guards.payment_methods --cov=billing_toolkit.assistant.guards.plan_speeds --cov=billing_toolkit.assistant.text.amounts --cov=billing_toolkit.assistant.text.currencies --cov=billing_toolkit.assistant.text.number_words --cov=billing_toolkit.assistant.text.dates --cov=billing_toolkit.assistant.text.relative_dates --cov-branch --cov-report=term-missing:skip-covered --cov-fail-under=100
COVERED_TESTS := $(sort $(wildcard tests/assistant/test_grounding*.py)) tests/assistant/test_amounts.py tests/assistant/test_dates.py tests/assistant/test_number_words.py tests/assistant/test_record_binding.py

# The whole suite on every core (pytest-xdist; each test file runs on one worker, so a module's
# expensive fixture — a server, a full evaluation — is built once, not once per worker; the
# slowest files first, in `tests/conftest.py`'s order, so both workers end together), with the
# 25 slowest printed, pytest's own wall-clock figure for each run, and the two runs' total last.
# The format check, the lint and pyright over the whole tree are tests of the suite
# (tests/project/test_static_checks.py).
test: install
	@started=$$(date +%s); \
	$(PYTHON) -m pytest $(COVERAGE) $(COVERED_TESTS) && \
	$(PYTHON) -m pytest -n auto --dist loadfile --no-loadscope-reorder --durations=25 $(addprefix --ignore=,$(COVERED_TESTS)) && \
	echo "make test: the whole suite took $$(( $$(date +%s) - started )) s"

# A quicker loop for development: everything but the tests marked slow.
test-fast: install
	$(PYTHON) -m pytest -n auto --dist loadfile -m "not slow"

# The static checks alone, as the suite runs them.
lint: install
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/ruff check .
	$(PYRIGHT)

# Regenerate the client's models from the contract.
models: install
	$(PYTHON) tools/generate_client.py

lint-contract:
	npx --yes @redocly/cli@2.77.0 lint contract/openapi.yaml
