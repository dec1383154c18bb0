# Two commands set everything up on a fresh machine with Python 3.11+ and make:
#   make play   - build .venv when missing, install Foursquare (the core: rules, command line, terminal game), play
#   make test   - the same plus every extra and the test tools (Debian's chromium and postgresql and the page's
#                 type checker too), then every check: ruff, mypy, import-linter, tsc and every test
# For the edit-test loop:
#   make check  - ruff, mypy, import-linter, tsc and the tests not marked slow, side by side, with no torch and
#                 nothing from apt (its times: benchmarks/test_suite.md)
# Other targets:
#   make test-loaded - make test while another process keeps both cores busy (as on a shared CI machine)
#   make lock   - refresh requirements/ci.txt, the versions that make test and CI install (see CONTRIBUTING.md)
#   make api-types - regenerate the page's types of the JSON API from the server's models, after changing them
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Every version make installs: pyproject.toml keeps lower bounds, this file the exact versions tested.
LOCK := requirements/ci.txt
PIP := $(BIN)/python -m pip install --quiet --constraint $(LOCK)

.PHONY: play test check serve install test-install check-install browser postgresql system-packages warm-start lint typecheck layers jscheck api-types jstest page test-loaded lock clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The install compiles the kernel ahead of time (setup.py; numba is a build requirement only): again whenever the
# sources it is compiled from change, so that it never falls back to numba's compile (foursquare.kernel.compiled).
COMPILED := setup.py $(addprefix src/foursquare/kernel/,exports.py montecarlo.py policies.py rng.py rules.py state.py survival.py)

# FOURSQUARE_SOLVER_CACHE=0: the build does not fill the solver's numba cache (setup.py, a minute or two): the core
# has no numba to read it, and make test fills it while the single-core checks run (warm-start).
NO_SOLVER_CACHE := FOURSQUARE_SOLVER_CACHE=0

$(VENV)/.installed: pyproject.toml $(LOCK) $(COMPILED) | $(BIN)/python
	$(NO_SOLVER_CACHE) $(PIP) -e .
	touch $@

# torch (for the baseline extra) is installed first, at the lock's version, so that pip takes the CPU build this
# machine keeps instead of resolving several GB of CUDA; elsewhere, add an index of CPU builds, for example
# TORCH="torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu".
TORCH ?= $(shell grep -o '^torch==[^ ]*' requirements/pins.in)

$(VENV)/.test-installed: pyproject.toml $(LOCK) $(COMPILED) | $(BIN)/python
	$(PIP) $(TORCH)
	$(NO_SOLVER_CACHE) $(PIP) -e '.[test,baseline]'
	touch $@ $(VENV)/.check-installed $(VENV)/.installed $(VENV)/.web-installed

# make check's install: the test tools and every extra but the baseline (torch, 754 MB), and nothing from apt. The
# tests that need torch skip without it; those that need Debian's Chromium or PostgreSQL are slow (make test's) but
# one page smoke test, which skips without Chromium.
$(VENV)/.check-installed: pyproject.toml $(LOCK) $(COMPILED) | $(BIN)/python
	$(NO_SOLVER_CACHE) $(PIP) -e '.[test]'
	touch $@ $(VENV)/.installed $(VENV)/.web-installed

check-install: $(VENV)/.check-installed

install: $(VENV)/.installed

test-install: $(VENV)/.test-installed

play: install
	$(BIN)/foursquare play

# The build fills the solver's numba cache (setup.py) with the lock's numba, the one installed (PIP_CONSTRAINT reaches
# the build's own environment, --constraint does not): the server's first winnable deal then compiles nothing.
$(VENV)/.web-installed: pyproject.toml $(LOCK) $(COMPILED) | $(BIN)/python
	PIP_CONSTRAINT=$(CURDIR)/$(LOCK) $(PIP) -e '.[web]'
	touch $@

serve: $(VENV)/.web-installed
	@$(MAKE) --no-print-directory page || echo "warning: the page is not built (no npm?): serving its source modules"
	$(BIN)/foursquare serve

# $(call debian-package,TEST,PACKAGE,WHAT): install Debian's PACKAGE when the shell command TEST fails and we are
# allowed to (root, with apt-get); else WHAT, the tests that need it, will be skipped.
define debian-package
	@if ! $(1); then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			echo "installing Debian's $(2) for $(3)"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(2) >/dev/null; \
		else \
			echo "warning: $(2) is missing and we are not root: $(3) will be skipped"; \
		fi; \
	fi
endef

# Browser tests drive Debian's chromium.
browser:
	$(call debian-package,[ -x /usr/bin/chromium ],chromium,the browser tests)

# The store's tests run on PostgreSQL too: a throwaway cluster made with Debian's initdb and pg_ctl (see
# tests/postgres_support.py).
postgresql:
	$(call debian-package,ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1,postgresql,the PostgreSQL tests)

# The page's type check: TypeScript (pinned in package-lock.json) reads the JSDoc of static/*.js; nothing is built.
node_modules/.installed: package.json package-lock.json
	@if ! command -v npm >/dev/null; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			echo "installing Debian's nodejs and npm for the page's type check"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null; \
		else \
			echo "error: npm is missing (install Node.js) for the page's type check"; exit 1; \
		fi; \
	fi
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# The page's types of the JSON API, static/api-types.d.ts, are generated from the server's /openapi.json by
# openapi-typescript (pinned too): committed, so that jscheck fails when they are stale or the page no longer fits
# them (tools/api_types.py; tests/test_api_types.py checks the same in make test and make check).
jscheck: node_modules/.installed $(VENV)/.web-installed
	$(BIN)/python tools/api_types.py --check
	npm run --silent typecheck

api-types: node_modules/.installed $(VENV)/.web-installed
	$(BIN)/python tools/api_types.py

# The page's copy of the rules (static/engine.js) replays the engine's games under Node: the committed ones here,
# 3,000 fresh ones in tests/test_js_engine.py. The files are named: from Node 21 on, a folder is not searched.
jstest: node_modules/.installed
	node --test tests/js/*.test.mjs

# The page as served: esbuild (pinned in package-lock.json) bundles and minifies the modules, the style sheets and
# the theme's first-paint script into static/dist/ under names that carry their content's hash (tools/build_page.mjs).
# Not committed: make builds it; the server serves the source modules while it is missing or older than they are.
STATIC := src/foursquare/web/static
$(STATIC)/dist/manifest.json: node_modules/.installed tools/build_page.mjs $(wildcard $(STATIC)/*.js $(STATIC)/*.css $(STATIC)/*.html)
	node tools/build_page.mjs

page: $(STATIC)/dist/manifest.json

lint: test-install
	$(BIN)/ruff check src tests

typecheck: test-install
	$(BIN)/mypy

layers: test-install
	$(BIN)/lint-imports

# Four workers for two cores: the tests wait for browsers, servers and child processes, which more workers fill
# (benchmarks/test_suite.md). A test module stays on one worker (--dist loadfile): its server and browser start once.
# Before the tests: pip's install beside Debian's packages and npm's (one after the other: apt holds one lock), then
# the single-core checks side by side, with numba's warm-up.
WORKERS ?= 4
test:
	@$(MAKE) --no-print-directory -j2 --output-sync=target test-install system-packages
	@$(MAKE) --no-print-directory -j4 --output-sync=target warm-start lint typecheck layers jscheck jstest page
	@while kill -0 $$(cat $(VENV)/warm.pid) 2>/dev/null; do sleep 1; done
	$(BIN)/pytest -q -n $(WORKERS) --dist loadfile --no-loadscope-reorder --durations=15

system-packages:
	@$(MAKE) --no-print-directory -j1 browser postgresql node_modules/.installed

# Fill numba's cache (the players and the solver, what a pool's heavy worker loads as it starts) while the single-
# core checks run: on a clean clone every test process and server would otherwise compile them side by side at
# the start of the tests (about 45 s of a core each). A failure only means the tests compile as they go.
warm-start: test-install
	@$(BIN)/python -c "import foursquare.solver as s, foursquare.web.pool as p; p.warm_up('heavy'); s.warm_up()" > $(VENV)/warm.log 2>&1 & \
	echo $$! > $(VENV)/warm.pid

# The checks side by side: the tests' output as it comes, then the log of any other check that failed.
check: check-install node_modules/.installed jstest page
	@trap 'kill $$(jobs -p) 2>/dev/null' EXIT; \
	$(BIN)/ruff check src tests > $(VENV)/ruff.log 2>&1 & ruff=$$!; \
	$(BIN)/mypy > $(VENV)/mypy.log 2>&1 & mypy=$$!; \
	$(BIN)/lint-imports > $(VENV)/layers.log 2>&1 & layers=$$!; \
	npm run --silent typecheck > $(VENV)/jscheck.log 2>&1 & jscheck=$$!; \
	$(BIN)/pytest -q -n $(WORKERS) --dist loadfile --no-loadscope-reorder -m "not slow"; tests=$$?; \
	status=0; \
	wait $$ruff || { cat $(VENV)/ruff.log; status=1; }; \
	wait $$mypy || { cat $(VENV)/mypy.log; status=1; }; \
	wait $$layers || { cat $(VENV)/layers.log; status=1; }; \
	wait $$jscheck || { cat $(VENV)/jscheck.log; status=1; }; \
	[ $$tests = 0 ] && [ $$status = 0 ] && echo "make check: ruff, mypy, import-linter, tsc and the fast tests passed"; \
	[ $$tests = 0 ] && [ $$status = 0 ]

# The whole suite while tools/busy.py keeps every core busy: no check may depend on the machine's speed.
test-loaded: test-install browser postgresql
	$(BIN)/python tools/busy.py --seconds 7200 & busy=$$!; \
	trap 'kill $$busy 2>/dev/null' EXIT INT TERM; \
	$(MAKE) test

lock: | $(BIN)/python
	$(BIN)/python -m pip install --quiet uv
	$(BIN)/uv pip compile pyproject.toml requirements/pins.in --extra test --extra baseline \
		--python-version 3.11 --python-platform x86_64-unknown-linux-gnu --upgrade \
		--custom-compile-command "make lock" --quiet -o $(LOCK)

clean:
	rm -rf $(VENV) node_modules .pytest_cache .mypy_cache .ruff_cache build src/*.egg-info $(STATIC)/dist src/foursquare/kernel/_compiled*.so
