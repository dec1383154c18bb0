# Two commands set everything up on a fresh machine with Python 3.11+ and make:
#   make play   - build .venv when missing, install Foursquare, play in the terminal
#   make test   - the same plus the test tools (and Debian's chromium for browser tests), then run every check
# For the edit-test loop:
#   make check  - ruff, mypy and the tests not marked slow (no browser, no long statistical runs)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: play test check serve install test-install browser lint typecheck clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

# torch (for the rl extra's baseline) is pinned first so that pip takes the CPU build this machine keeps
# instead of resolving several GB of CUDA; elsewhere, point TORCH at a CPU build of your choice.
TORCH ?= torch==2.13.0

$(VENV)/.test-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet $(TORCH)
	$(BIN)/python -m pip install --quiet -e '.[test,rl]'
	touch $@ $(VENV)/.installed

install: $(VENV)/.installed

test-install: $(VENV)/.test-installed

play: install
	$(BIN)/foursquare play

serve: install
	$(BIN)/foursquare serve

# Browser tests drive Debian's chromium; install it when missing and we are allowed to.
browser:
	@if [ ! -x /usr/bin/chromium ]; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			echo "installing Debian's chromium for the browser tests"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
		else \
			echo "warning: /usr/bin/chromium is missing and we are not root: browser tests will be skipped"; \
		fi; \
	fi

lint: test-install
	$(BIN)/ruff check src tests

typecheck: test-install
	$(BIN)/mypy

# Both cores: a test module stays on one worker (--dist loadfile), so its server and browser are started once.
test: test-install browser lint typecheck
	$(BIN)/pytest -q -n 2 --dist loadfile

check: test-install lint typecheck
	$(BIN)/pytest -q -m "not slow"

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build src/*.egg-info
